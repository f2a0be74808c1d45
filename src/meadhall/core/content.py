"""Content packs: their limits, their digests, and the small JSON readers every game's parser shares.

A content pack is JSON data (cards, maps, dice) that a game's ``content`` module turns
into typed values; the readers here check one JSON value each and raise
:class:`ContentError` with a message that says where the pack is wrong.

Limits, the same for every game: a pack is at most :data:`PACK_BYTES` as compact JSON;
a name or label at most :data:`NAME_LENGTH` characters, a card's text
:data:`TEXT_LENGTH`, an id :data:`ID_LENGTH` (each game's schema says so too).

A pack is known by its digest (SHA-256 of its compact, key-sorted JSON). Views name a
pack by a *reference* (``{"sha256": ..., "id": ..., "label": ...}``), never copy it: a
pack an option holds is remembered in this process (:func:`remember_pack`), and a
reference to a remembered pack reads as the pack again (:func:`resolve_pack`). Servers
keep packs by digest and hand them to every process that needs one.

One bounded cache keeps the packs of this process (:data:`PACKS_KEPT`) with all that
games derive from them: the parsed pack (:func:`parsed_pack`) and what is computed from
it (:func:`pack_derived`); games keep no pack caches of their own.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

#: Ids of content entries: the names a game's notation can write.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")
#: The most a content pack may take as compact JSON, in bytes (UTF-8).
PACK_BYTES = 256 * 1024
#: The longest name, label or other short text in a pack (characters).
NAME_LENGTH = 80
#: The longest card text or rules text in a pack (characters).
TEXT_LENGTH = 400
#: The longest id of an entry (characters).
ID_LENGTH = 40
#: The keys of a reference to a pack.
REFERENCE_KEYS = frozenset({"sha256", "id", "label"})


class ContentError(ValueError):
    """A content pack that does not match the schema or refers to unknown things."""


def fail(where: str, message: str) -> ContentError:
    """The error for ``message`` at ``where`` (a path in the pack, or empty)."""
    return ContentError(f"the pack's {where}: {message}" if where else f"the pack: {message}")


def json_object(raw: Any, where: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict[str, Any]:
    """``raw`` as a JSON object with these fields and no others."""
    if not isinstance(raw, dict):
        raise fail(where, "must be a JSON object")
    required = tuple(required)
    missing = [name for name in required if name not in raw]
    if missing:
        raise fail(where, "missing " + ", ".join(repr(name) for name in missing))
    extra = sorted(set(raw) - set(required) - set(optional))
    if extra:
        raise fail(where, "unknown fields " + ", ".join(repr(name) for name in extra))
    return raw


def one_of(value: Any, names: Iterable[str]) -> bool:
    """``value`` is one of these names (and a text, so that any JSON value can be asked)."""
    return isinstance(value, str) and value in names


def json_list(raw: Any, where: str) -> list[Any]:
    """``raw`` as a JSON list."""
    if not isinstance(raw, list):
        raise fail(where, "must be a list")
    return raw


def text(raw: Any, where: str, name: str, longest: int = NAME_LENGTH, empty: bool = False) -> str:
    """``raw`` as a text of at most ``longest`` characters (non-empty unless ``empty``)."""
    if not isinstance(raw, str) or not (empty or raw.strip()):
        raise fail(where, f"{name} must be a non-empty text")
    if len(raw) > longest:
        raise fail(where, f"{name} is {len(raw)} characters long; at most {longest}")
    return raw


def whole(raw: Any, where: str, name: str, least: int = 0) -> int:
    """A whole number (not a boolean) of at least ``least``."""
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < least:
        raise fail(where, f"{name} must be a whole number >= {least}, not {raw!r}")
    return raw


def entry_id(raw: Any, what: str, index: int) -> str:
    """The id of the ``index``-th entry of a list of ``what``; it must be a notation name."""
    if not isinstance(raw, dict) or "id" not in raw:
        raise fail(f"{what} #{index + 1}", 'must be a JSON object with an "id"')
    value = raw["id"]
    if isinstance(value, str) and len(value) > ID_LENGTH:
        raise fail(f"{what} #{index + 1}", f"an id is at most {ID_LENGTH} characters")
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise fail(
            f"{what} {value!r}",
            "an id is lowercase letters, digits and hyphens, starting with a letter or digit (the notation's names)",
        )
    return value


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless the count is one (card texts)."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# Packs by digest ---------------------------------------------------------------------------

T = TypeVar("T")
S = TypeVar("S")


def canonical_pack(pack: Any) -> str:
    """A pack's compact, key-sorted JSON: what its digest and size are of."""
    return json.dumps(pack, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pack_digest(canonical: str) -> str:
    """The SHA-256 (hex) of a pack's canonical JSON."""
    return hashlib.sha256(canonical.encode()).hexdigest()


def is_pack_reference(value: Any) -> bool:
    """Whether ``value`` is a reference to a pack (as views and stored options hold them)."""
    return isinstance(value, dict) and isinstance(value.get("sha256"), str) and set(value) <= REFERENCE_KEYS


#: Content packs this process keeps at most, each with everything derived from it (the
#: least recently used goes first).
PACKS_KEPT = 64


class _Entry:
    """One pack in the cache: the pack, its digest and canonical JSON, and what was derived from it."""

    __slots__ = ("canonical", "derived", "digest", "owned", "pack")

    def __init__(self, pack: Any, digest: str, canonical: str) -> None:
        self.pack = pack
        self.digest = digest
        self.canonical = canonical
        self.derived: dict[Callable[[Any], Any], Any] = {}  # by the function that made it
        self.owned: list[Any] = [pack]  # objects whose derived values live here (ids map to this entry)


class _Packs:
    """The one cache of content packs in this process: each pack and what games derive from it.

    A pack is kept by its digest, with every value derived from it: a game's parsed pack
    (:func:`parsed_pack`), and what a game derives from the parsed pack in turn (its
    search engine's tables, its evaluation's rates, its components as data:
    :func:`pack_derived`). At most :data:`PACKS_KEPT` entries, the least recently used
    dropped first with all it holds; a value asked for again is derived again. An object
    that comes from no pack (a game's default content) gets an entry of its own.

    Each step is one dictionary operation, which the interpreter does whole, so threads
    (a server replays tables in worker threads) may share it; at worst a value is
    derived twice or dropped early, and then derived again.
    """

    def __init__(self, keep: int = PACKS_KEPT) -> None:
        self.keep = keep
        self._entries: dict[Any, _Entry] = {}  # by digest (or an object's id for one from no pack), oldest first
        self._owners: dict[int, Any] = {}  # id(owned object): its entry's key

    def _touch(self, key: Any, entry: _Entry) -> None:
        """Mark ``entry`` used now (the youngest), and drop the oldest beyond the bound."""
        self._entries.pop(key, None)
        self._entries[key] = entry
        while len(self._entries) > self.keep:
            oldest = next(iter(self._entries), None)
            old = self._entries.pop(oldest, None) if oldest is not None else None
            if old is not None:
                for thing in old.owned:
                    if self._owners.get(id(thing)) == oldest:
                        self._owners.pop(id(thing), None)

    def _entry_of(self, thing: Any) -> tuple[Any, _Entry] | None:
        """The entry ``thing`` (a kept pack or a value derived from one) belongs to."""
        key = self._owners.get(id(thing))
        entry = self._entries.get(key) if key is not None else None
        if entry is None or not any(owned is thing for owned in entry.owned):
            return None
        return key, entry

    def remember(self, pack: Any) -> _Entry:
        """The entry of ``pack`` (made now if new); raises ContentError if too large."""
        found = self._entry_of(pack)
        if found is not None:
            self._touch(*found)
            return found[1]
        canonical = canonical_pack(pack)
        size = len(canonical.encode())
        if size > PACK_BYTES:
            raise fail("", f"the pack is {size:,} bytes as compact JSON; at most {PACK_BYTES:,}")
        digest = pack_digest(canonical)
        entry = self._entries.get(digest)
        if entry is None:  # an equal pack seen before keeps its entry (and its object)
            entry = _Entry(pack, digest, canonical)
            self._owners[id(pack)] = digest
        self._touch(digest, entry)
        return entry

    def recall(self, digest: str) -> Any | None:
        """The kept pack with this digest, if any."""
        entry = self._entries.get(digest)
        if entry is None:
            return None
        self._touch(digest, entry)
        return entry.pack

    def derived(self, source: Any, make: Callable[[Any], T]) -> T:
        """``make(source)``, made once while ``source``'s entry is kept."""
        found = self._entry_of(source)
        if found is None:  # an object from no pack: an entry of its own
            entry = _Entry(source, "", "")
            key: Any = ("object", id(source))
            self._owners[id(source)] = key
        else:
            key, entry = found
        self._touch(key, entry)
        if make in entry.derived:
            value: T = entry.derived[make]
            return value
        value = make(source)
        entry.derived[make] = value
        return value

    def parsed(self, value: Any, parse: Callable[[Any], T]) -> T:
        """``parse`` of the pack ``value`` names (whole or by reference), parsed once while kept."""
        pack = resolve_pack(value)
        entry = self.remember(pack)
        if parse in entry.derived:
            parsed: T = entry.derived[parse]
            return parsed
        parsed = parse(entry.pack)
        entry.derived[parse] = parsed
        if parsed is not None and not any(owned is parsed for owned in entry.owned):
            entry.owned.append(parsed)  # so that values derived from the parsed pack live here too
            self._owners[id(parsed)] = entry.digest
        return parsed


_PACKS = _Packs()


def remember_pack(pack: Any) -> tuple[str, str]:
    """Remember ``pack`` in this process; returns its digest and canonical JSON.

    Raises :class:`ContentError` if the pack is larger than :data:`PACK_BYTES`.
    """
    entry = _PACKS.remember(pack)
    return entry.digest, entry.canonical


def remember_pack_json(canonical: str) -> str:
    """Remember a pack given as its canonical JSON (from a store); returns its digest."""
    digest = pack_digest(canonical)
    if _PACKS.recall(digest) is None:
        _PACKS.remember(json.loads(canonical))
    return digest


def resolve_pack(value: Any) -> Any:
    """A pack given whole or by reference, as the whole pack (the remembered object).

    Raises :class:`ContentError` for a reference to a pack this process does not know,
    or a pack that is too large.
    """
    if is_pack_reference(value):
        pack = _PACKS.recall(value["sha256"])
        if pack is None:
            name = value.get("label") or value.get("id") or value["sha256"][:12]
            raise fail("", f"the content pack {name!r} is not known here: send the whole pack")
        return pack
    return _PACKS.remember(value).pack


def pack_reference(pack: Any) -> dict[str, Any]:
    """How views and stored options name ``pack``: its digest, and its id and label if it has them."""
    if is_pack_reference(pack):
        return dict(pack)
    reference: dict[str, Any] = {"sha256": _PACKS.remember(pack).digest}
    if isinstance(pack, Mapping):
        for key in ("id", "label"):
            value = pack.get(key)
            if isinstance(value, str):
                reference[key] = value[:NAME_LENGTH]
    return reference


def parsed_pack(value: Any, parse: Callable[[Any], T]) -> T:
    """A game's parsed pack: ``parse`` of the pack ``value`` names (whole or by reference).

    Parsed once per pack while the pack is kept (so a pack is checked once, not on every
    view a bot is shown); raises what ``parse`` raises, or :class:`ContentError`. The
    parsed pack must be immutable: every game state of the pack shares it.
    """
    return _PACKS.parsed(value, parse)


def pack_derived(source: S, make: Callable[[S], T]) -> T:
    """``make(source)`` for a parsed pack (or a game's default content), made once while kept.

    For what a game derives from its content (its search engine's tables, the rates of
    its evaluation, its components as data): one cache for every game, bounded with the
    packs. ``make`` is the key, so it must be one function (not a new lambda per call),
    and the value must not be changed by those who get it.
    """
    return _PACKS.derived(source, make)
