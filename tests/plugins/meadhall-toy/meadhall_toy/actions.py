"""Toy Duel's actions: small frozen values whose ``str`` is the notation.

Three kinds, one decision each: the round's leader plays a rune (``play:4``); in the
response window every other seat answers with a higher rune (``answer:5``) or passes
(``pass``). :func:`parse_action` reads the notation back, so
``parse_action(str(action)) == action`` always holds. Text that is no action at all is
*malformed* (:class:`~meadhall.core.errors.MalformedAction`); an action that reads well
but is against the rules now is *illegal*, which only the state can say.
"""

from __future__ import annotations

from dataclasses import dataclass

from meadhall.core.errors import MalformedAction

#: The highest rune value the notation reads (the content's values are checked by the game).
MAX_RUNE = 99


@dataclass(frozen=True, slots=True)
class Play:
    """The leader plays a rune of this value from its hand."""

    rune: int

    def __str__(self) -> str:
        return f"play:{self.rune}"


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat in the response window answers with a higher rune of this value."""

    rune: int

    def __str__(self) -> str:
        return f"answer:{self.rune}"


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat in the response window lets the play stand."""

    def __str__(self) -> str:
        return "pass"


ToyAction = Play | Answer | Pass

#: The one pass (actions are values: every ``Pass()`` is equal to it anyway).
PASS = Pass()

_KINDS: dict[str, type[Play] | type[Answer]] = {"play": Play, "answer": Answer}


def parse_action(text: str) -> ToyAction:
    """Read one action: ``play:4``, ``answer:5`` or ``pass`` (case and spaces around ignored)."""
    token = text.strip().lower()
    if token == "pass":
        return PASS
    kind, colon, value = token.partition(":")
    make = _KINDS.get(kind)
    if make is None or not colon:
        raise MalformedAction(f"{text.strip()!r} is not a move: write play:N, answer:N or pass")
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= MAX_RUNE:
        raise MalformedAction(f"{text.strip()!r}: a rune is a whole number from 1 to {MAX_RUNE}")
    return make(int(value))
