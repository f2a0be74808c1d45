"""Checking content packs: the small JSON readers every game's content parser shares.

A content pack is JSON data (cards, maps, dice) that a game's ``content`` module turns
into typed values; these helpers read one JSON value each and raise
:class:`ContentError` with a message that says where the pack is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: Ids of content entries: the names a game's notation can write.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*")


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


def text(raw: Any, where: str, name: str) -> str:
    """``raw`` as a non-empty text."""
    if not isinstance(raw, str) or not raw.strip():
        raise fail(where, f"{name} must be a non-empty text")
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
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise fail(
            f"{what} {value!r}",
            "an id is lowercase letters, digits and hyphens, starting with a letter or digit (the notation's names)",
        )
    return value


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless the count is one (card texts)."""
    return f"{count} {word}{'' if count == 1 else 's'}"
