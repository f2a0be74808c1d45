"""Blood Rage: Valhalla actions and their notation.

Every decision is one small action; ``str(action)`` writes it and :func:`parse_action`
reads it back. Seats are numbered from 0, as everywhere in meadhall's notation.

| action | meaning |
|---|---|
| ``pick:thor-07`` | draft: keep this card from the pack in front of you |
| ``summon:warrior@gladsheim`` | summon a figure (``warrior``, ``elite`` or a monster id) |
| ``march:gladsheim`` | start a march from this region (1 Rage) ... |
| ``move:elite>valhalla`` | ... move one of its figures to an adjacent region ... |
| ``done`` | ... and end the march (a Call to Battle ends with ``stay``, not ``done``) |
| ``upgrade:tyr-12`` / ``quest:baldr-20`` | play an upgrade / commit to a quest |
| ``contest:folkvang`` | start a contest |
| ``pass`` | pass: your Rage drops to 0 |
| ``join:warrior@breidablik`` / ``stay`` | Call to Battle: move one figure in, or no (more) figures |
| ``play:loki-03`` / ``play:none`` | the card you put into a battle (none: empty hand) |
| ``raise:axes`` / ``raise:none`` | raise a stat of your choice / raise none (a fulfilled quest's raise is optional) |
| ``destroy:2:elite`` | destroy an enemy figure of seat 2 (a card's effect) |
| ``kill:valhalla:1:warrior`` / ``skip`` | destroy an enemy figure anywhere (Tyr), or stop |
| ``reinforce:warrior`` | summon a figure from your reserve into the battle (an effect) |
| ``drop:freya-09`` | end of Age: remove a card from the game (until at most three are left) ... |
| ``keep`` | ... and keep the rest of the hand (three cards or fewer) for the next Age |
"""

from __future__ import annotations

import re
from typing import NamedTuple

from meadhall.core.errors import MalformedAction

_NAME = r"[a-z0-9][a-z0-9-]*"
#: Actions that are one word.
_WORDS = ("done", "pass", "stay", "skip", "keep")


class BRAction(NamedTuple):
    """One decision: its kind, up to two names, and the seat it targets.

    ``a`` and ``b`` are names in the notation's order (a card, a figure kind, a region);
    ``owner`` is the seat whose figure a ``destroy`` or ``kill`` takes (``None`` for the
    other kinds): ``destroy:2:elite`` is ``BRAction("destroy", "elite", owner=2)``,
    ``kill:valhalla:1:warrior`` is ``BRAction("kill", "valhalla", "warrior", owner=1)``.
    """

    kind: str
    a: str = ""
    b: str = ""
    owner: int | None = None

    def __str__(self) -> str:
        kind, a, b, owner = self
        if kind in _WORDS:
            return kind
        if kind in ("summon", "join"):
            return f"{kind}:{a}@{b}"
        if kind == "move":
            return f"move:{a}>{b}"
        if kind == "destroy":
            return f"destroy:{owner}:{a}"
        if kind == "kill":
            return f"kill:{a}:{owner}:{b}"
        return f"{kind}:{a}"


DONE = BRAction("done")
PASS = BRAction("pass")
STAY = BRAction("stay")
SKIP = BRAction("skip")
KEEP = BRAction("keep")
NO_RAISE = BRAction("raise", "none")

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("pick", re.compile(rf"^pick:({_NAME})$")),
    ("summon", re.compile(rf"^summon:({_NAME})@({_NAME})$")),
    ("march", re.compile(rf"^march:({_NAME})$")),
    ("move", re.compile(rf"^move:({_NAME})>({_NAME})$")),
    ("upgrade", re.compile(rf"^upgrade:({_NAME})$")),
    ("quest", re.compile(rf"^quest:({_NAME})$")),
    ("contest", re.compile(rf"^contest:({_NAME})$")),
    ("join", re.compile(rf"^join:({_NAME})@({_NAME})$")),
    ("play", re.compile(rf"^play:({_NAME})$")),
    ("raise", re.compile(r"^raise:(rage|axes|horns|none)$")),
    ("destroy", re.compile(rf"^destroy:(\d+):({_NAME})$")),
    ("kill", re.compile(rf"^kill:({_NAME}):(\d+):({_NAME})$")),
    ("reinforce", re.compile(rf"^reinforce:({_NAME})$")),
    ("drop", re.compile(rf"^drop:({_NAME})$")),
]


def parse_action(text: str) -> BRAction:
    """Read one action, or raise :class:`MalformedAction` saying what was expected."""
    token = text.strip().lower()
    if token in _WORDS:
        return BRAction(token)
    for kind, pattern in _PATTERNS:
        match = pattern.match(token)
        if match:
            groups = match.groups()
            if kind == "destroy":
                return BRAction(kind, groups[1], owner=int(groups[0]))
            if kind == "kill":
                return BRAction(kind, groups[0], groups[2], owner=int(groups[1]))
            return BRAction(kind, groups[0], groups[1] if len(groups) > 1 else "")
    raise MalformedAction(
        f"cannot read {text.strip()!r}: write e.g. summon:warrior@gladsheim, march:gladsheim, move:elite>valhalla, "
        "done, upgrade:CARD, quest:CARD, contest:REGION, pass, pick:CARD, join:warrior@REGION, stay, play:CARD, "
        "raise:axes, raise:none, destroy:SEAT:KIND, kill:REGION:SEAT:KIND, skip, reinforce:KIND, drop:CARD or keep"
    )
