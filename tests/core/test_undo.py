"""meadhall.core.undo: which actions a seat may take back, and taking them back by replay."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core import undo
from meadhall.core.errors import IllegalAction
from meadhall.core.game import Action, GameState
from meadhall.core.registry import get_game
from tests.toy import TOY


def _lead(state: GameState[Any]) -> tuple[int, Action]:
    seat = state.to_move()[0]
    return seat, state.legal_actions(seat)[0]


def test_a_lead_may_be_taken_back_and_the_replay_restores_everything() -> None:
    state = TOY.new_game(players=2, seed=11)
    before = state.clone()
    seat, action = _lead(state)
    _, refusal = undo.apply(state, seat, action)
    assert refusal is None
    takebacks = undo.TakeBacks().then(seat, refusal)
    assert takebacks.public(seat) == 1 and takebacks.public(1 - seat) == 0 and takebacks.public(None) == 0
    restored, again = undo.take_back(TOY, state, seat, takebacks)
    assert restored.fingerprint() == before.fingerprint()
    assert undo.rng_position(restored) == undo.rng_position(before)
    assert again == undo.TakeBacks()  # nothing left: the game is back at its deal


def test_another_seat_acting_closes_the_take_back() -> None:
    state = TOY.new_game(players=3, seed=4)
    takebacks = undo.TakeBacks()
    seat, action = _lead(state)
    _, refusal = undo.apply(state, seat, action)
    takebacks = takebacks.then(seat, refusal)
    other, answer = state.to_move()[0], state.legal_actions(state.to_move()[0])[-1]
    _, refusal = undo.apply(state, other, answer)
    takebacks = takebacks.then(other, refusal)
    with pytest.raises(IllegalAction) as refused:
        undo.take_back(TOY, state, seat, takebacks)
    assert refused.value.rule == undo.OTHERS and "another player's" in str(refused.value)


def test_a_die_roll_keeps_the_move() -> None:
    state = TOY.new_game(players=2, seed=11)
    seen: set[str] = set()
    takebacks = undo.TakeBacks()
    while not state.is_terminal():
        seat = state.to_move()[0]
        _, refusal = undo.apply(state, seat, state.legal_actions(seat)[-1])
        takebacks = takebacks.then(seat, refusal)
        if refusal is not None:
            seen.add(refusal.rule)
            with pytest.raises(IllegalAction) as kept:
                undo.take_back(TOY, state, seat, takebacks)
            assert kept.value.rule == refusal.rule
    assert undo.CHANCE in seen and undo.OVER in seen


def test_a_game_hook_refuses_in_its_own_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(TOY), "take_back_refusal", lambda self, state, seat, action: "Runes once led stay led.")
    state = TOY.new_game(players=2, seed=11)
    seat, action = _lead(state)
    _, refusal = undo.apply(state, seat, action)
    assert refusal is not None and refusal.rule == undo.GAME_RULE and str(refusal) == "Runes once led stay led."


def test_a_game_with_chance_and_no_generator_is_never_taken_back(monkeypatch: pytest.MonkeyPatch) -> None:
    state = TOY.new_game(players=2, seed=11)
    seat, action = _lead(state)
    monkeypatch.setattr(undo, "rng_position", lambda state: None)
    _, refusal = undo.apply(state, seat, action)
    assert refusal is not None and refusal.rule == undo.UNKNOWN_CHANCE


def test_a_voluspa_refill_is_kept_though_no_generator_moves() -> None:
    game = get_game("voluspa")
    start = game.new_game(players=2, seed=3)
    seat = start.to_move()[0]
    refills = 0
    for play in start.legal_actions(seat):
        state = start.clone()
        events, refusal = undo.apply(state, seat, play)
        assert undo.rng_position(state) == undo.rng_position(start)  # the pile was shuffled at setup
        if any(event.kind == "drew" for event in events):
            refills += 1
            assert refusal is not None and refusal.rule == undo.REVEALED, play
        else:
            assert refusal is None, play  # a step that keeps the turn going: the player may take it back
    assert refills


def test_nothing_to_take_back_at_the_start() -> None:
    refusal = undo.TakeBacks().refusal_for(0)
    assert refusal is not None and refusal.rule == undo.NOTHING
