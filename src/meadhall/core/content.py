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
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

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
    return ContentError(f"content {where}: {message}" if where else f"content: {message}")


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


def canonical_pack(pack: Any) -> str:
    """A pack's compact, key-sorted JSON: what its digest and size are of."""
    return json.dumps(pack, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pack_digest(canonical: str) -> str:
    """The SHA-256 (hex) of a pack's canonical JSON."""
    return hashlib.sha256(canonical.encode()).hexdigest()


def is_pack_reference(value: Any) -> bool:
    """Whether ``value`` is a reference to a pack (as views and stored options hold them)."""
    return isinstance(value, dict) and isinstance(value.get("sha256"), str) and set(value) <= REFERENCE_KEYS


class _KnownPacks:
    """The packs this process has seen lately, by digest and by identity (a few dozen).

    Each step is one dictionary operation, which the interpreter does whole, so threads
    (a server replays tables in worker threads) may share it; at worst a pack is hashed
    twice or forgotten early, and then hashed again.
    """

    def __init__(self, keep: int = 64) -> None:
        self.keep = keep
        self._by_digest: dict[str, Any] = {}  # oldest first
        self._by_id: dict[int, tuple[Any, str, str]] = {}  # id(pack): (pack, digest, canonical JSON)

    def remember(self, pack: Any) -> tuple[str, str]:
        """The digest and canonical JSON of ``pack``, which is remembered; raises ContentError if too large."""
        known = self._by_id.get(id(pack))
        if known is not None and known[0] is pack:
            return known[1], known[2]
        canonical = canonical_pack(pack)
        size = len(canonical.encode())
        if size > PACK_BYTES:
            raise fail("", f"the pack is {size:,} bytes as compact JSON; at most {PACK_BYTES:,}")
        digest = pack_digest(canonical)
        pack = self._by_digest.setdefault(digest, pack)  # an equal pack seen before: keep that one
        self._by_id[id(pack)] = (pack, digest, canonical)
        while len(self._by_digest) > self.keep:
            oldest = next(iter(self._by_digest), None)
            old = self._by_digest.pop(oldest, None) if oldest is not None else None
            if old is not None:
                self._by_id.pop(id(old), None)
        return digest, canonical

    def recall(self, digest: str) -> Any | None:
        """The remembered pack with this digest, if any."""
        return self._by_digest.get(digest)

    def pack_for(self, pack: Any) -> Any:
        """The remembered pack equal to ``pack`` (the same object for every equal pack)."""
        digest, _ = self.remember(pack)
        found = self.recall(digest)
        return pack if found is None else found


_KNOWN = _KnownPacks()


def remember_pack(pack: Any) -> tuple[str, str]:
    """Remember ``pack`` in this process; returns its digest and canonical JSON.

    Raises :class:`ContentError` if the pack is larger than :data:`PACK_BYTES`.
    """
    return _KNOWN.remember(pack)


def remember_pack_json(canonical: str) -> str:
    """Remember a pack given as its canonical JSON (from a store); returns its digest."""
    digest = pack_digest(canonical)
    if _KNOWN.recall(digest) is None:
        _KNOWN.remember(json.loads(canonical))
    return digest


def resolve_pack(value: Any) -> Any:
    """A pack given whole or by reference, as the whole pack (the remembered object).

    Raises :class:`ContentError` for a reference to a pack this process does not know,
    or a pack that is too large.
    """
    if is_pack_reference(value):
        pack = _KNOWN.recall(value["sha256"])
        if pack is None:
            name = value.get("label") or value.get("id") or value["sha256"][:12]
            raise fail("", f"the content pack {name!r} is not known here: send the whole pack")
        return pack
    return _KNOWN.pack_for(value)


def pack_reference(pack: Any) -> dict[str, Any]:
    """How views and stored options name ``pack``: its digest, and its id and label if it has them."""
    if is_pack_reference(pack):
        return dict(pack)
    digest, _ = _KNOWN.remember(pack)
    reference: dict[str, Any] = {"sha256": digest}
    if isinstance(pack, Mapping):
        for key in ("id", "label"):
            value = pack.get(key)
            if isinstance(value, str):
                reference[key] = value[:NAME_LENGTH]
    return reference


class PackCache(Generic[T]):
    """A game's parsed packs by digest (a few), so that a pack is checked once per process."""

    def __init__(self, parse: Callable[[Any], T], keep: int = 8) -> None:
        self._parse = parse
        self._keep = keep
        self._parsed: OrderedDict[str, T] = OrderedDict()

    def get(self, value: Any) -> T:
        """The parsed pack of ``value`` (a whole pack or a reference); raises ContentError."""
        pack = resolve_pack(value)
        digest, _ = remember_pack(pack)
        parsed = self._parsed.get(digest)
        if parsed is None:
            parsed = self._parse(pack)
            self._parsed[digest] = parsed
            while len(self._parsed) > self._keep:
                self._parsed.popitem(last=False)
        else:
            self._parsed.move_to_end(digest)
        return parsed
