"""Toy Duel drawn as text for the terminal: the table of the round and the hand.

Pure functions of a view (:mod:`meadhall.core.text`); everything else the terminal shows
of the game (events, prompts, hints, scores, the end) is its words (:mod:`meadhall_toy.words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.text import GameText


class ToyText(GameText):
    """The round's table, who is still to answer, and the viewer's runes."""

    def board(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """``Round 2 of 6, die 4`` then one line per rune on the table and who is still asked."""

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else f"Seat {seat + 1}"

        if view.get("finished"):
            lines = [f"Round {view['round']} of {view['rounds']}: the game is over"]
        else:
            lines = [f"Round {view['round']} of {view['rounds']}, die [{view['die']}], deck {view['deck']}"]
        table = view.get("table") or []
        if not table and not view.get("finished"):
            lines.append(f"  {name(int(view['leader']))} leads; nothing on the table yet")
        for index, entry in enumerate(table):
            how = "leads" if index == 0 else "answers"
            lines.append(f"  {name(int(entry['seat']))} {how} [{entry['rune']}]")
        for seat in view.get("passed") or []:
            lines.append(f"  {name(int(seat))} passed")
        waiting = view.get("waiting") or []
        if waiting:
            lines.append("  still to answer: " + ", ".join(name(int(seat)) for seat in waiting))
        return lines

    def hand(self, view: Mapping[str, Any], name: str) -> list[str]:
        """``Your runes, Seat 1 (You): [2] [4] [4]``."""
        hand = view.get("hand") or []
        return [f"Your runes, {name}: " + (" ".join(f"[{rune}]" for rune in hand) if hand else "none")]


TEXT = ToyText()
