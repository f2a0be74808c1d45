"""Valda actions and their notation.

Every decision is one small action; ``str(action)`` writes it and :func:`parse_action`
reads it back. Seats are numbered from 0, as everywhere in meadhall's notation.

| action | meaning |
|---|---|
| ``trade:gold>drop`` | resource phase: 4 gold for 1 divine blood |
| ``swap:gold>drop`` | resource phase, Heimdall's ability: 2 gold (1 temple) or 1 (2 temples) for 1 of choice |
| ``choose:gold`` | a resource of your choice (a die face, a card's effect, a discount) |
| ``done`` | end this phase (resources, game, building, followers) or stop an effect's repeats |
| ``play:scout`` / ``use:scout`` | game phase: play a yellow card from your hand / from the open cards |
| ``take:gold`` | game phase: one resource for one action |
| ``draw`` | game phase: two cards from the base deck for two actions |
| ``buy:raid`` | game phase, Freya's ability: an open card into your hand for one action |
| ``discard:raid`` | the hand limit: discard this card |
| ``build:mine`` / ``build:drill`` / ``build:odin`` | a mine, a blood drill, or a temple in a god area |
| ``keep:gungnir`` | of the two god cards you look at, keep this one |
| ``attack:raid`` / ``pass`` | attack phase: attack the player whose turn it is, or not |
| ``defend:round-shield`` / ``yield`` | add a defence card against the attack, or stop defending |
| ``steal:gold`` | an attack's impact: take one of this resource |
| ``destroy:mine`` / ``destroy:odin`` | an impact: destroy a mine, a blood drill, or a temple in a god area |
| ``move:odin>thor`` | an impact: move a temple from one god area to another |
| ``convert`` | a card's conversion, once more |
| ``thor:gold`` / ``thor2:diamond`` | followers phase: Thor's 3-for-1 (or, with two temples, 2-for-1) |
| ``odin`` / ``odin2`` | followers phase: Odin's 2 blood for 1 follower (or, with two temples, 3 for 2) |
| ``loki`` | followers phase: roll Loki's follower dice |
| ``seat:2`` / ``god:odin`` / ``card:raid`` | a player, a god or a card of your choice (an effect) |
| ``weapon:bullseye`` | play this option of a god weapon you hold (no action) |
| ``face:0>4`` | Crown of Fortune: turn die 0 of the roll to face 4 (both counted from 0) |
"""

from __future__ import annotations

import re
from typing import NamedTuple

from meadhall.core.errors import MalformedAction

_NAME = r"[a-z0-9][a-z0-9-]*"
_RESOURCE = r"(drop|gold|diamond)"
_WORDS = ("done", "draw", "pass", "yield", "convert", "odin", "odin2", "loki")


class ValdaAction(NamedTuple):
    """One decision: its kind and up to two arguments (in the notation's order).

    An argument is a name (a resource, card, god, building or weapon option) or, for
    ``seat`` and ``face``, a number (a seat; a die of the roll and a face, from 0).
    """

    kind: str
    a: str | int = ""
    b: str | int = ""

    @property
    def name(self) -> str:
        """The first argument as a name: the resource, card, god, building or weapon option."""
        return str(self.a)

    @property
    def to(self) -> str:
        """The second argument as a name: what a trade gets, the god area a temple moves to."""
        return str(self.b)

    @property
    def seat(self) -> int:
        """The seat a ``seat`` action names."""
        return int(self.a)

    @property
    def die(self) -> int:
        """The die of the roll a ``face`` action turns (from 0)."""
        return int(self.a)

    @property
    def face(self) -> int:
        """The face a ``face`` action turns the die to (from 0)."""
        return int(self.b)

    def __str__(self) -> str:
        kind, a, b = self
        if kind in _WORDS:
            return kind
        if kind in ("trade", "swap", "move", "face"):
            return f"{kind}:{a}>{b}"
        return f"{kind}:{a}"


DONE = ValdaAction("done")
DRAW = ValdaAction("draw")
PASS = ValdaAction("pass")
YIELD = ValdaAction("yield")
CONVERT = ValdaAction("convert")

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("trade", re.compile(rf"^trade:{_RESOURCE}>{_RESOURCE}$")),
    ("swap", re.compile(rf"^swap:{_RESOURCE}>{_RESOURCE}$")),
    ("choose", re.compile(rf"^choose:{_RESOURCE}$")),
    ("take", re.compile(rf"^take:{_RESOURCE}$")),
    ("steal", re.compile(rf"^steal:{_RESOURCE}$")),
    ("thor", re.compile(r"^thor:(gold|diamond)$")),
    ("thor2", re.compile(r"^thor2:(gold|diamond)$")),
    ("move", re.compile(rf"^move:({_NAME})>({_NAME})$")),
    ("seat", re.compile(r"^seat:(\d+)$")),
    ("face", re.compile(r"^face:(\d+)>([0-5])$")),
    *[(kind, re.compile(rf"^{kind}:({_NAME})$")) for kind in
      ("play", "use", "buy", "discard", "build", "keep", "attack", "defend", "destroy", "god", "card", "weapon")],
]  # fmt: skip


def parse_action(text: str) -> ValdaAction:
    """Read one action, or raise :class:`MalformedAction` saying what was expected."""
    token = text.strip().lower()
    if token in _WORDS:
        return ValdaAction(token)
    for kind, pattern in _PATTERNS:
        match = pattern.match(token)
        if match:
            if kind == "seat":
                return ValdaAction(kind, int(match.group(1)))
            if kind == "face":
                return ValdaAction(kind, int(match.group(1)), int(match.group(2)))
            return ValdaAction(kind, *match.groups())
    raise MalformedAction(
        f"cannot read {text.strip()!r}: write e.g. trade:gold>drop, swap:gold>drop, choose:gold, done, play:CARD, "
        "take:gold, draw, buy:CARD, discard:CARD, build:mine, build:drill, build:GOD, keep:CARD, attack:CARD, pass, "
        "defend:CARD, yield, steal:gold, destroy:mine, destroy:GOD, move:GOD>GOD, convert, thor:gold, thor2:gold, "
        "odin, odin2, loki, seat:N, god:GOD, card:CARD, weapon:OPTION, face:DIE>FACE or use:CARD"
    )
