"""What a Valda seat sees of the state's decisions, queue and attack (the rest is in ``ValdaState.view``)."""

from __future__ import annotations

import json
from typing import Any

from meadhall.core.flow import Step
from meadhall.games.valda.decisions import DECISIONS

#: Decisions whose ``cards`` only the deciding seat may see (god cards looked at, base cards
#: peeked at, a hand's yellow cards).
_SECRET_CARDS = frozenset(kind for kind, cls in DECISIONS.items() if cls.secret_cards)


def mask_decision(decision: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """A decision as ``seat`` may see it: another seat's secret cards become a count; its weapons, hidden."""
    if decision is None:
        return None
    shown: dict[str, Any] = copy_json(decision)
    if decision["seat"] != seat:
        if decision["kind"] in _SECRET_CARDS:
            shown["cards"] = len(decision["cards"])
        if decision["kind"] == "window":
            shown["options"] = None
    return shown


def mask_step(step: Step, seat: int | None) -> list[Any]:
    """A queue step as ``seat`` may see it (a decision a weapon interrupted is masked like the pending one)."""
    if step[0] == "redecide":
        return ["redecide", mask_decision(json.loads(step[1]), seat)]
    return [list(part) if isinstance(part, tuple) else part for part in step]


def copy_json(value: Any) -> Any:
    """A copy of plain nested dicts and lists (decisions and attacks are small)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value
