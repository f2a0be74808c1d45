"""Valda's explicit chance: each die of a roll is a chance event whose face is applied deterministically.

The seeded generator stays the only randomness of normal play: a state that waits at a
die has drawn from the generator exactly as normal play does, so giving it the faces the
generator drew reaches the very state normal play reaches (the differential test).
"""

from __future__ import annotations

import math
import pickle
from typing import Any

import pytest

from meadhall.core.errors import IllegalAction
from meadhall.core.game import GameState
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.games.valda.state import ValdaState


def _deal(seed: int, players: int = 2) -> tuple[ValdaState, ValdaState]:
    """The same deal twice: played normally, and with explicit chance."""
    normal, _ = get_game("valda").deal(players, seed)
    assert isinstance(normal, ValdaState)
    explicit = normal.clone()
    assert explicit.explicit_chance()
    return normal, explicit


def _settle(state: GameState[Any], faces: list[int]) -> list[int]:
    """Apply ``faces`` to the waiting dice, one chance event each; the faces used."""
    used: list[int] = []
    while state.chance_outcomes() is not None:
        used.append(faces[len(used)])
        state.apply_chance(used[-1])
    return used


@pytest.mark.parametrize("seed", range(4))
def test_the_generators_faces_give_the_state_normal_play_reaches(seed: int) -> None:
    normal, explicit = _deal(seed, players=2 + seed % 3)
    chooser = Rng(seed)
    rolls = 0
    while not normal.is_terminal():
        seat = normal.to_move()[0]
        action = chooser.choice(normal.legal_actions(seat))
        normal.apply(seat, action)
        explicit.apply(seat, action)
        if explicit.chance_outcomes() is not None:
            rolls += 1
            waiting = explicit.chance_waiting
            assert waiting is not None
            start = waiting[2]
            assert explicit.legal_actions(seat) == []  # nobody decides while a die waits
            _settle(explicit, [face for _, face in normal.dice[start:]])
        assert explicit.fingerprint() == normal.fingerprint()
        assert explicit.view(None) == normal.view(None)
    assert rolls > 0


@pytest.mark.parametrize("seed", range(3))
def test_each_outcome_is_a_probability_and_gives_a_legal_state(seed: int) -> None:
    _, explicit = _deal(seed)
    chooser = Rng(seed + 100)
    checked = 0
    while not explicit.is_terminal() and checked < 12:
        outcomes = explicit.chance_outcomes()
        if outcomes is None:
            seat = explicit.to_move()[0]
            explicit.apply(seat, chooser.choice(explicit.legal_actions(seat)))
            continue
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        assert all(p > 0 for _, p in outcomes)
        assert len(outcomes) <= type(explicit).max_chance_outcomes
        for outcome, _ in outcomes:
            dealt = explicit.clone()
            dealt.apply_chance(outcome)
            _settle(dealt, [0] * 8)
            assert dealt.dice[-1][1] in range(6)
            assert dealt.is_terminal() or any(dealt.legal_actions(seat) for seat in dealt.to_move())
            # The state dealt reads back: what it shows is what a replay of its record shows.
            assert dealt.clone().fingerprint() == dealt.fingerprint()
        explicit.apply_chance(chooser.below(len(outcomes)))
        checked += 1
    assert checked > 0


def test_a_face_out_of_range_or_no_waiting_die_is_refused() -> None:
    normal, explicit = _deal(7)
    with pytest.raises(IllegalAction):
        normal.apply_chance(0)
    chooser = Rng(7)
    while explicit.chance_outcomes() is None:
        seat = explicit.to_move()[0]
        explicit.apply(seat, chooser.choice(explicit.legal_actions(seat)))
    with pytest.raises(IllegalAction):
        explicit.apply_chance(6)


def test_normal_play_offers_no_chance_events() -> None:
    normal, _ = _deal(3)
    chooser = Rng(3)
    while not normal.is_terminal():
        assert normal.chance_outcomes() is None
        seat = normal.to_move()[0]
        normal.apply(seat, chooser.choice(normal.legal_actions(seat)))


def test_a_state_waiting_at_a_die_pickles_and_clones_waiting() -> None:
    _, explicit = _deal(11)
    chooser = Rng(11)
    while explicit.chance_outcomes() is None:
        seat = explicit.to_move()[0]
        explicit.apply(seat, chooser.choice(explicit.legal_actions(seat)))
    for copy in (pickle.loads(pickle.dumps(explicit)), explicit.clone()):
        assert copy.fingerprint() == explicit.fingerprint()
        assert copy.chance_outcomes() == explicit.chance_outcomes()
        original = explicit.clone()
        _settle(copy, [5] * 8)
        _settle(original, [5] * 8)
        assert copy.fingerprint() == original.fingerprint()  # the same faces, the same state
        assert copy.explicit  # the next roll waits too
