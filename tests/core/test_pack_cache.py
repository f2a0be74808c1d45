"""The one content-pack cache: each pack by digest with what games derive from it, bounded."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import content
from meadhall.core.content import (
    PACKS_KEPT,
    ContentError,
    pack_derived,
    pack_reference,
    parsed_pack,
    remember_pack,
    resolve_pack,
)


class Parsed:
    """A parsed toy pack (what a game's parser would return)."""

    def __init__(self, pack: dict[str, Any]) -> None:
        self.id = pack["id"]
        self.cards = tuple(pack["cards"])


PARSES: list[str] = []
MADE: list[str] = []


def parse(pack: dict[str, Any]) -> Parsed:
    PARSES.append(pack["id"])
    return Parsed(pack)


def card_count(parsed: Parsed) -> int:
    MADE.append(parsed.id)
    return len(parsed.cards)


def _pack(name: str) -> dict[str, Any]:
    return {"id": name, "label": f"pack {name}", "cards": [f"{name}-{i}" for i in range(3)]}


def test_a_pack_is_parsed_once_whole_or_by_reference() -> None:
    pack = _pack("once-a")
    first = parsed_pack(pack, parse)
    assert parsed_pack(pack, parse) is first
    assert parsed_pack(_pack("once-a"), parse) is first  # an equal pack, another object
    assert parsed_pack(pack_reference(pack), parse) is first
    assert PARSES.count("once-a") == 1


def test_what_is_derived_from_a_parsed_pack_is_made_once_and_kept_with_it() -> None:
    parsed = parsed_pack(_pack("derived-b"), parse)
    assert pack_derived(parsed, card_count) == 3
    assert pack_derived(parsed, card_count) == 3
    assert MADE.count("derived-b") == 1


def test_an_object_from_no_pack_keeps_its_derived_values_too() -> None:
    default = Parsed(_pack("default-c"))  # a game's default content is parsed outside the cache
    assert pack_derived(default, card_count) == 3
    assert pack_derived(default, card_count) == 3
    assert MADE.count("default-c") == 1


def test_the_cache_is_bounded_and_drops_a_pack_with_all_it_holds() -> None:
    packs = content._Packs(keep=3)
    calls: list[str] = []

    def parse_counted(pack: dict[str, Any]) -> Parsed:
        calls.append(pack["id"])
        return Parsed(pack)

    first = _pack("bound-0")
    parsed = packs.parsed(first, parse_counted)
    digest = packs.remember(first).digest
    assert packs.derived(parsed, card_count) == 3
    for index in range(1, 4):  # three younger packs push the oldest out
        packs.parsed(_pack(f"bound-{index}"), parse_counted)
    assert len(packs._entries) == 3
    assert packs.recall(digest) is None
    assert id(parsed) not in packs._owners
    again = packs.parsed(_pack("bound-0"), parse_counted)
    assert again is not parsed and calls.count("bound-0") == 2  # parsed again, not remembered
    packs.derived(again, card_count)
    assert MADE.count("bound-0") == 2


def test_a_pack_used_lately_stays() -> None:
    packs = content._Packs(keep=2)
    old = _pack("recent-0")
    digest = packs.remember(old).digest
    packs.remember(_pack("recent-1"))
    assert packs.recall(digest) is old  # used now: the youngest
    packs.remember(_pack("recent-2"))
    assert packs.recall(digest) is old


def test_a_reference_to_a_pack_no_longer_kept_says_to_send_it_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(content, "_PACKS", content._Packs())  # this process's packs stay as they are
    pack = _pack("forgotten")
    reference = pack_reference(pack)
    for index in range(PACKS_KEPT):
        remember_pack(_pack(f"crowd-{index}"))
    with pytest.raises(ContentError, match="not known here: send the whole pack"):
        resolve_pack(reference)
    assert resolve_pack(pack) is pack  # given whole, it is kept again
    assert resolve_pack(reference) is pack
