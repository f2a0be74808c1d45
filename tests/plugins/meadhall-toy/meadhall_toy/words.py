"""Toy Duel's words: how its actions, decisions, events, runes and results read for people.

Every interface (the terminal, the browser through the server, replays) shows these and
words nothing of Toy Duel itself. Everything here reads a view, the notation of legal
actions or an event, never a state (:mod:`meadhall.core.words`), and refers to seats by
placeholder (``{1}``) for the host to name them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.game import Event
from meadhall.core.words import (
    ActionWords,
    ComponentWords,
    EventWords,
    GameWords,
    ResultWords,
    Standing,
    joined,
    name_of,
    plural,
)
from meadhall_toy.actions import Answer, Pass, Play, parse_action
from meadhall_toy.state import COPIES, DIE_SIDES, RUNE_VALUES

NOTATION_HELP = """\
Moves (Toy Duel notation):
  play:4           lead the round with the rune 4 from your hand
  answer:5         in the response window: answer with the higher rune 5
  pass             in the response window: let the highest rune stand"""

_LEAD_GROUP = "Lead a rune"
_ANSWER_GROUP = "Answer"


def _runes(values: Sequence[int]) -> str:
    """``rune 4``, ``runes 2 and 6``, ``no runes``."""
    if not values:
        return "no runes"
    return ("rune " if len(values) == 1 else "runes ") + joined([str(value) for value in values])


def _best(view: Mapping[str, Any]) -> tuple[int, int] | None:
    """The highest rune on the table and its seat (the last one played beats the others)."""
    table = view.get("table") or []
    return (int(table[-1]["seat"]), int(table[-1]["rune"])) if table else None


class ToyWords(GameWords):
    """Toy Duel's words (see the module docstring)."""

    hand_word = "runes"
    component_word = "runes"
    public_table = True  # the lines beside the board read only what every view shows alike

    # actions and decisions ----------------------------------------------------------

    def actions(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[ActionWords]:
        """Label, group and target (``kind`` and ``rune``: what the board plugin picks by) of each action."""
        points = plural(int(view.get("die") or 0), "point")
        result: list[ActionWords] = []
        for notation in legal:
            action = parse_action(notation)
            if isinstance(action, Play):
                label = f"Lead rune {action.rune} for {points}"
                result.append(
                    {
                        "notation": notation,
                        "label": label,
                        "group": _LEAD_GROUP,
                        "target": {"kind": "play", "rune": action.rune},
                    }
                )
            elif isinstance(action, Answer):
                label = f"Answer with rune {action.rune}"
                target = {"kind": "answer", "rune": action.rune}
                result.append({"notation": notation, "label": label, "group": _ANSWER_GROUP, "target": target})
            else:
                best = _best(view)
                stands = f"rune {best[1]} ({name_of(best[0])}) stands" if best else "the lead stands"
                label = f"Pass: {stands}"
                result.append(
                    {"notation": notation, "label": label, "group": _ANSWER_GROUP, "target": {"kind": "pass"}}
                )
        return result

    def prompt(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """What the seat decides: the lead, or an answer in the window."""
        points = plural(int(view.get("die") or 0), "point")
        if view.get("stage") == "lead":
            return f"You lead round {view['round']}, worth {points}: play a rune from your hand."
        best = _best(view)
        if best is None:  # pragma: no cover - a window opens only after a lead
            return "Answer or pass."
        seat, rune = best
        if all(isinstance(parse_action(notation), Pass) for notation in legal):
            return f"{name_of(seat)} holds the round with rune {rune}, worth {points}; you hold no higher rune: pass."
        return f"{name_of(seat)} holds the round with rune {rune}, worth {points}: answer with a higher rune, or pass."

    def notation_help(self) -> str:
        """The notation, for people who type moves."""
        return NOTATION_HELP

    def turn_over(self, done: str, step: str) -> str:
        """Every decision is one action."""
        return f"one decision at a time: after {done}, {step} cannot follow"

    # events --------------------------------------------------------------------------

    def event(self, event: Event, viewer: int | None) -> EventWords | None:
        """Every event the engine emits, as ``viewer`` reads it."""
        data = event.data
        seat = data.get("seat")
        who = name_of(seat) if isinstance(seat, int) else "Someone"
        kind = event.kind
        if kind == "round":
            text = f"Round {data['round']} of {data['rounds']}: {who} leads"
            return {"text": text, "details": [], "heading": True}
        if kind == "rolled":
            points = plural(int(data["die"]), "point")
            return {"text": f"The die shows {data['die']}: the round is worth {points}.", "details": []}
        if kind == "played":
            return {"text": f"{who} leads rune {data['rune']}.", "details": []}
        if kind == "answered":
            return {"text": f"{who} answers with rune {data['rune']}.", "details": []}
        if kind == "passed":
            return {"text": f"{who} passes.", "details": []}
        if kind == "won":
            points = plural(int(data["points"]), "point")
            text = f"{who} wins the round with rune {data['rune']}: {points} (total {data['total']})."
            return {"text": text, "details": []}
        if kind == "drew":
            runes = _runes([int(rune) for rune in data["runes"]])
            verb = "are dealt" if data.get("dealt") else "draw"
            return {"text": f"You {verb} {runes}." if seat == viewer else f"{who} drew {runes}.", "details": []}
        if kind == "refilled":
            count = plural(int(data["count"]), "rune")
            verb = "is dealt" if data.get("dealt") else "draws"
            return {"text": f"{who} {verb} {count}; {data['deck']} left in the deck.", "details": []}
        if kind == "game-over":
            why = f"{who} has no rune to lead" if data.get("reason") == "empty" else "the last round is played"
            return {"text": f"The game is over: {why}.", "details": [], "heading": True}
        return None

    # beside the board ------------------------------------------------------------------

    def heading(self, view: Mapping[str, Any]) -> str:
        """``Round 2 of 6: {1} leads``; the end."""
        if view.get("finished"):
            return "The game is over"
        return f"Round {view['round']} of {view['rounds']}: {name_of(int(view['leader']))} leads"

    def status(self, view: Mapping[str, Any]) -> list[str]:
        """The round and its die, the deck; the table; the discard pile."""
        deck = f"deck: {plural(int(view['deck']), 'rune')}"
        if view.get("finished"):
            first = f"The game is over · {deck}"
        else:
            points = plural(int(view["die"]), "point")
            first = f"Round {view['round']} of {view['rounds']} · the die shows {view['die']} ({points}) · {deck}"
        table = [f"{name_of(int(entry['seat']))} {entry['rune']}" for entry in view.get("table") or []]
        passed = [name_of(int(seat)) for seat in view.get("passed") or []]
        on_table = "On the table: " + (
            ", ".join(table) if table else "nothing" if view.get("finished") else "nothing yet"
        )
        if passed:
            on_table += f" · passed: {joined(passed)}"
        counts = Counter(int(rune) for rune in view.get("discard") or [])
        discard = ", ".join(f"{value} ×{count}" if count > 1 else str(value) for value, count in sorted(counts.items()))
        return [first, on_table, "Played before: " + (discard or "nothing")]

    def seat(self, view: Mapping[str, Any], seat: int) -> str:
        """``9 points · 3 runes``."""
        entry = view["seats"][seat]
        return f"{plural(int(entry['score']), 'point')} · {plural(int(entry['runes']), 'rune')}"

    def titles(self, view: Mapping[str, Any]) -> dict[str, str]:
        """The names of the board's two rows, as screen readers read them: the table and the hand."""
        del view
        return {"table": "The runes on the table", "hand": "Your runes"}

    def result(self, view: Mapping[str, Any]) -> ResultWords:
        """Places by points; equal scores share the place."""
        seats = list(view["seats"])
        places = [int(place) for place in view.get("places") or []] or [
            1 + sum(1 for other in seats if other["score"] > entry["score"]) for entry in seats
        ]
        order = sorted(range(len(seats)), key=lambda s: (places[s], s))
        standings: list[Standing] = [
            {"seat": s, "place": places[s], "score": plural(int(seats[s]["score"]), "point")} for s in order
        ]
        notes = []
        for place in sorted(set(places)):
            tied = [s for s in order if places[s] == place]
            if len(tied) > 1:
                notes.append(f"Tie: {joined([name_of(s) for s in tied])} share place {place}.")
        return {"standings": standings, "notes": notes}

    def components(self, options: Mapping[str, Any] | None = None) -> list[ComponentWords]:
        """The runes (one kind per value) and the die."""
        del options
        runes: list[ComponentWords] = [
            {
                "key": str(value),
                "name": f"Rune {value}",
                "value": str(value),
                "facts": f"value {value}, {plural(COPIES, 'rune')}",
                "text": "Beats every lower rune on the table.",
            }
            for value in RUNE_VALUES
        ]
        die: ComponentWords = {
            "key": "die",
            "name": "Die",
            "value": "",
            "facts": f"{DIE_SIDES} sides",
            "text": "Rolled as each round starts: the round is worth what it shows.",
        }
        return [*runes, die]


WORDS = ToyWords()
