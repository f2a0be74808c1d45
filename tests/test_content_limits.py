"""Content packs are data with limits: size and text lengths (one place, both schemas agree),
and a view names its pack by reference, from which a bot's belief still rebuilds the game."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from meadhall.core.content import ID_LENGTH, NAME_LENGTH, PACK_BYTES, TEXT_LENGTH, ContentError, canonical_pack
from meadhall.core.errors import InvalidOptions
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng

PACKAGES = {"valda": "meadhall.games.valda", "bloodrage-valhalla": "meadhall.games.bloodrage_valhalla"}


def _load(game: str, name: str) -> Any:
    return json.loads(resources.files(PACKAGES[game]).joinpath(f"data/{name}").read_text("utf-8"))


def _max_lengths(schema: Any) -> set[int]:
    found: set[int] = set()
    if isinstance(schema, dict):
        if "maxLength" in schema:
            found.add(schema["maxLength"])
        for value in schema.values():
            found |= _max_lengths(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= _max_lengths(value)
    return found


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_the_schemas_state_the_limits_the_parsers_apply(game: str) -> None:
    assert _max_lengths(_load(game, "content.schema.json")) <= {NAME_LENGTH, TEXT_LENGTH, ID_LENGTH}
    assert NAME_LENGTH in _max_lengths(_load(game, "content.schema.json"))
    assert len(canonical_pack(_load(game, "default.json")).encode()) < PACK_BYTES / 4  # room for a club's pack


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_a_pack_over_a_limit_is_refused_saying_which(game: str) -> None:
    players = 3
    pack = _load(game, "default.json")
    pack["label"] = "l" * (NAME_LENGTH + 1)
    with pytest.raises(InvalidOptions, match=f"label is {NAME_LENGTH + 1} characters long; at most {NAME_LENGTH}"):
        get_game(game).validate_options({"content": pack}, players=players)
    pack = _load(game, "default.json")
    pack["cards"][0]["id"] = "c" * (ID_LENGTH + 1)
    with pytest.raises(InvalidOptions, match=f"an id is at most {ID_LENGTH} characters"):
        get_game(game).validate_options({"content": pack}, players=players)
    pack = _load(game, "default.json")
    pack["$schema"] = "s" * PACK_BYTES
    with pytest.raises(InvalidOptions, match=f"at most {PACK_BYTES:,}"):
        get_game(game).validate_options({"content": pack}, players=players)


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_a_view_names_its_pack_by_reference_and_a_belief_rebuilds_the_game_from_it(game: str) -> None:
    pack = _load(game, "default.json")
    pack["id"], pack["label"] = "club", "a club's cards"
    state = get_game(game).new_game(players=3, seed=5, options={"content": pack})
    seat = state.to_move()[0]
    view = state.view(seat)
    reference = view["options"]["content"]
    assert set(reference) == {"sha256", "id", "label"} and reference["label"] == "a club's cards"
    assert len(json.dumps(view)) < len(canonical_pack(pack))  # the pack is not in the view
    world = get_game(game).belief(view).sample(Rng(9))
    assert world.view(seat) == view


def test_a_reference_to_an_unknown_pack_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="not known here: send the whole pack"):
        get_game("valda").validate_options({"content": {"sha256": "0" * 64, "label": "lost"}}, players=2)
    with pytest.raises(ContentError):
        from meadhall.core.content import resolve_pack

        resolve_pack({"sha256": "1" * 64})
