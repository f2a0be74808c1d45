"""Text that people send: one rule against control characters, and how names are written.

Every text field of a request body is a :data:`Text` (or a :data:`DisplayName`), every
free-form JSON value (game options) is checked by :func:`refuse_control_in_json`, and
:class:`RefuseControlCharacters` checks the address (path and query string) of every
request and WebSocket. PostgreSQL cannot store a NUL character at all; the other control
characters mean nothing in a name, a chat line or an address.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any
from urllib.parse import unquote_plus

import orjson
from pydantic import AfterValidator

#: Control characters allowed in text (free text may break lines; they are collapsed where it cannot).
_ALLOWED_CONTROLS = frozenset("\t\n\r")

#: Characters that reorder or hide text: bidirectional embeddings, overrides, isolates and marks.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Letters and symbols that draw nothing (so a name of them alone looks empty).
BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")

#: How long a display name may be, after normalisation.
DISPLAY_NAME_MAX = 24


def is_control(character: str) -> bool:
    """True for C0 and C1 control characters and DEL (NUL included)."""
    return unicodedata.category(character) == "Cc"


def first_control(text: str) -> str | None:
    """The first control character of ``text`` other than a tab or a line break, if any."""
    return next((ch for ch in text if is_control(ch) and ch not in _ALLOWED_CONTROLS), None)


def _refuse_control(text: str) -> str:
    found = first_control(text)
    if found is not None:
        raise ValueError(f"contains a control character (U+{ord(found):04X}), which is not allowed in text")
    return text


#: A text field of a request: anything but control characters (tabs and line breaks allowed).
Text = Annotated[str, AfterValidator(_refuse_control)]


def refuse_control_in_json(value: Any) -> Any:
    """``value`` unchanged, or ``ValueError`` if a string or key in it holds a control character."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _refuse_control(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return value


def normalize_display_name(text: str) -> str:
    """A display name in canonical form, or ``ValueError`` saying what is wrong with it.

    The rule: Unicode NFKC; 1 to 24 characters; no control characters, no characters that
    reorder text (right-to-left overrides, embeddings, isolates, marks), no other
    invisible formatting except the joiners some scripts need between letters; no space
    at either end, single spaces inside; and at least one visible letter, digit, mark of
    punctuation or symbol.
    """
    name = unicodedata.normalize("NFKC", text)
    for ch in name:
        if ch in BIDI_CONTROLS:
            raise ValueError(f"a display name cannot hold characters that reorder text (U+{ord(ch):04X})")
        if is_control(ch):
            raise ValueError(f"a display name cannot hold control characters (U+{ord(ch):04X})")
        if unicodedata.category(ch) == "Cf" and ch not in "\u200c\u200d":
            raise ValueError(f"a display name cannot hold invisible formatting characters (U+{ord(ch):04X})")
    if name != name.strip():
        raise ValueError("a display name cannot start or end with a space")
    if any(ch.isspace() and ch != " " for ch in name) or "  " in name:
        raise ValueError("a display name separates words with single spaces")
    if not any(unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_CHARACTERS for ch in name):
        raise ValueError("a display name needs visible characters")
    if len(name) > DISPLAY_NAME_MAX:
        raise ValueError(f"a display name is at most {DISPLAY_NAME_MAX} characters")
    return name


#: A display name in a request body, normalised (see :func:`normalize_display_name`).
DisplayName = Annotated[str, AfterValidator(normalize_display_name)]


class RefuseControlCharacters:
    """ASGI middleware: refuse a request or WebSocket with a control character in its path or query string.

    HTTP gets a 400 with the usual error body; a WebSocket is closed before it opens.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Handle one ASGI connection."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        query = unquote_plus(scope.get("query_string", b"").decode("latin-1"), errors="replace")
        found = next((ch for ch in scope.get("path", "") + query if is_control(ch)), None)
        if found is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "control character in the address"})
            return
        body = orjson.dumps(
            {
                "error": "invalid",
                "message": f"the address holds a control character (U+{ord(found):04X}); none is allowed there",
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
