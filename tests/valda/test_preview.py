"""Valda's previews: a legal target's cost and effect (a card's text, a building's cost), an
illegal one the engine's refusal; every action's target names its own notation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.game import GameState
from meadhall.core.preview import preview_target
from meadhall.core.rng import Rng
from meadhall.games.valda import GAME
from meadhall.games.valda.content import default_content, describe_card
from meadhall.games.valda.notation import parse_action
from meadhall.games.valda.words import WORDS


def _positions(seed: int, steps: int) -> Iterator[GameState[Any]]:
    state = GAME.new_game(players=3, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        seat = state.to_move()[rng.below(len(state.to_move()))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])


def test_legal_targets_preview_cost_and_effect_and_name_their_action() -> None:
    cards = default_content().cards
    seen: set[str] = set()
    for state in _positions(6, 250):
        for seat in state.to_move():
            view = state.view(seat)
            legal = [str(a) for a in state.legal_actions(seat)]
            actions = WORDS.actions(view, legal)
            for item in actions:
                assert WORDS.target_notation(view, item["target"] or {}) == item["notation"]
                preview = preview_target(WORDS, state, seat, item["target"] or {}, legal)
                assert preview is not None and preview["legal"]
                first = next(a for a in actions if a["target"] == item["target"])
                assert preview["title"] == first["label"]
                action = parse_action(first["notation"])
                seen.add(action.kind)
                if action.kind in ("play", "buy", "attack", "defend") and action.name in cards:
                    assert any(describe_card(cards[action.name]) in line for line in preview["lines"])
                if action.kind == "build":
                    assert preview.get("cost")
                if action.kind == "trade":
                    assert preview.get("cost", "").startswith("4 ")
    assert {"play", "take"} & seen


def test_an_illegal_target_gives_the_engines_refusal() -> None:
    state = next(iter(_positions(2, 1)))
    seat = state.to_move()[0]
    other = (seat + 1) % 3
    refused = 0
    for who in (seat, other):
        target = {"kind": "build", "building": "mine"} if who == seat else {"kind": "pass"}
        preview = preview_target(WORDS, state, who, target)
        notation = WORDS.target_notation(state.view(who), target)
        try:
            state.check(who, parse_action(str(notation)))
        except IllegalAction as error:
            assert preview is not None and not preview["legal"]
            assert preview["refusal"] == str(error) and preview["rule"] == error.rule
            refused += 1
        else:
            assert preview is not None and preview["legal"]
    assert refused, "no illegal target was tried"


def test_a_card_with_no_move_now_says_why() -> None:
    """A board asks about a card of the hand by its id alone: playing it, or the rule against it."""
    refused = 0
    for state in _positions(8, 200):
        for seat in range(state.num_players):
            view = state.view(seat)
            legal = [str(a) for a in state.legal_actions(seat)] if seat in state.to_move() else []
            offered = {(item["target"] or {}).get("card") for item in WORDS.actions(view, legal)} if legal else set()
            for card in view.get("hand") or []:
                if card in offered:
                    continue
                preview = preview_target(WORDS, state, seat, {"card": card}, legal)
                assert preview is not None and not preview["legal"], (card, preview)
                assert preview["refusal"] and preview["rule"]
                refused += 1
    assert refused > 10


def test_a_god_area_with_no_move_now_says_what_it_is_and_why() -> None:
    """A board asks about a god area by its god alone: an area with no move on it is a place, in the game's words."""
    gods = default_content().gods
    seen: set[str] = set()
    for state in _positions(8, 250):
        for seat in range(state.num_players):
            view = state.view(seat)
            legal = [str(a) for a in state.legal_actions(seat)] if seat in state.to_move() else []
            offered = {(item["target"] or {}).get("god") for item in WORDS.actions(view, legal)} if legal else set()
            for god in gods:
                preview = preview_target(WORDS, state, seat, {"god": god}, legal)
                assert preview is not None, god
                if god in offered:
                    assert preview["legal"]
                    continue
                assert not preview["legal"] and preview["title"] == gods[god].name
                assert preview["lines"][0].startswith("A temple here costs") and preview["refusal"]
                built = view["sites"].get(god, [])
                assert ("No temple yet" in preview["lines"][2]) == (not built)
                if not legal:
                    seen.add("not your turn")
                    assert "not your decision" in preview["refusal"]
                elif god not in view["locks"] and len(built) < 5:
                    seen.add("another decision")
                    assert WORDS.prompt(view, legal) in preview["refusal"]
    assert seen == {"not your turn", "another decision"}
    state = next(_positions(8, 1))
    assert preview_target(WORDS, state, 0, {"god": "no-such-god"}) is None
