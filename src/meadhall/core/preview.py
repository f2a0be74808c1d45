"""What a target would do, before it is played: the host's side of :meth:`GameWords.preview`.

A board plugin names what the pointer (or the keyboard focus) is on by a *target*: the
structured data each action's words carry (:class:`~meadhall.core.words.ActionWords`).
:func:`preview_target` finds the action a target means through the game's own words:

* a legal action whose target the given one matches: the game's :meth:`GameWords.preview`,
  read from the seat's view alone;
* else the action :meth:`GameWords.target_notation` names, which the engine refuses: its
  refusal (:class:`~meadhall.core.errors.IllegalAction`'s sentence and rule), through
  :meth:`GameWords.refused`;
* else, for a target that names no action (a place on the board: a region, a god's area),
  what the place is and why nothing can be done there now: :meth:`GameWords.place`.

:func:`preview_notation` gives the same for an action written in notation (what a person
types in the terminal).

A refusal is the engine's check on the state. Whether a seat's action is legal depends only
on what the seat knows (else it could not be shown its legal actions), and the conformance
suite checks it: previews are the same in every world :meth:`GameState.sample_world` deals
for the seat (:func:`meadhall.testing.conformance.check_previews`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.errors import IllegalAction, MalformedAction
from meadhall.core.game import GameState
from meadhall.core.words import ActionWords, GameWords, Preview


def matching(actions: Sequence[ActionWords], target: Mapping[str, Any]) -> ActionWords | None:
    """The action whose target is ``target``; else the plainest whose target holds all of ``target``'s keys and values.

    A board names a cell, a region or a card; the actions on it may differ in more (a line,
    a boost, a figure). The plainest is the one whose target says least (no boost, no line),
    then the first by notation: never the engine's order, which may follow what is hidden
    (the order figures came onto a region), so the choice tells nothing.
    """
    wanted = dict(target)
    partial: list[tuple[int, str, ActionWords]] = []
    for item in actions:
        found = item["target"]
        if not found:
            continue
        if found == wanted:
            return item
        if all(key in found and found[key] == value for key, value in wanted.items()):
            partial.append((len(found), item["notation"], item))
    return min(partial, key=lambda entry: entry[:2])[2] if partial else None


def preview_target(
    words: GameWords, state: GameState[Any], seat: int, target: Mapping[str, Any], legal: Sequence[str] | None = None
) -> Preview | None:
    """What ``target`` would do for ``seat`` now, or None if it names no action of the game.

    ``legal``: the seat's legal notations if the caller has them (else they are asked for).
    """
    if not target:
        return None
    view = state.view(seat)
    if legal is None:
        legal = state.game.legal_notations(state, seat) if seat in state.to_move() else []
    if legal:
        found = matching(words.actions(view, legal), target)
        if found is not None:
            return words.preview(view, legal, found["notation"])
    notation = words.target_notation(view, target)
    if notation is None:
        return words.place(view, target, legal)
    return preview_notation(words, state, seat, notation, legal)


def preview_notation(
    words: GameWords, state: GameState[Any], seat: int, notation: str, legal: Sequence[str] | None = None
) -> Preview | None:
    """What the action ``notation`` would do for ``seat`` now, or the engine's refusal; None if it cannot be read.

    The same words as :func:`preview_target` gives a target: a host where people type
    notation (the terminal) previews what is typed. ``legal`` as for :func:`preview_target`.
    """
    view = state.view(seat)
    if legal is None:
        legal = state.game.legal_notations(state, seat) if seat in state.to_move() else []
    if notation in legal:
        return words.preview(view, legal, notation)
    try:
        action = state.game.parse_action(notation)
    except MalformedAction:
        return None
    try:
        state.check(seat, action)
    except IllegalAction as error:
        return words.refused(view, notation, str(error), error.rule)
    # The engine accepts it though no legal action has this notation (a notation the legal
    # list writes another way): it is legal all the same.
    return words.preview(view, legal or [notation], notation)
