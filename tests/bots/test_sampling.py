"""Worlds sampled from a view agree with it and spread the unseen tiles uniformly."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA, VoluspaState
from meadhall.games.voluspa import search as search_engine
from meadhall.games.voluspa.tiles import CODES, HE, NUM_KINDS, SK


def _position(seed: int, preset: str, players: int, steps: int) -> VoluspaState:
    state = VOLUSPA.new_game(players=players, seed=seed, options={"preset": preset})
    rng = Rng(seed)
    for _ in range(steps):
        legal = state.legal_actions(state.current)
        state.apply(state.current, legal[rng.below(len(legal))])
    return state


def _with_known_tile() -> VoluspaState:
    """A position where some seat holds a tile everyone saw it take with Skadi."""
    for seed in range(200):
        state = VOLUSPA.new_game(players=3, seed=seed, options={"preset": "saga"})
        rng = Rng(seed)
        for _ in range(60):
            seat = state.current
            legal = state.legal_actions(seat)
            swaps = [a for a in legal if getattr(a, "tile", None) == SK and state.board.get(_cell(a)) is not None]
            state.apply(seat, swaps[0] if swaps else legal[rng.below(len(legal))])
            if any(sum(k) for k in state.known) and not state.is_terminal():
                return state
    raise AssertionError("no Skadi swap found")


def _cell(action: object) -> int:
    from meadhall.games.voluspa.board import cell_of

    return cell_of(action.x, action.y)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("preset", "players", "steps"), [("base", 2, 10), ("all+lightning", 4, 25), ("saga", 3, 40)])
def test_sampled_world_shows_the_seat_its_view(preset: str, players: int, steps: int) -> None:
    state = _position(3, preset, players, steps)
    for seat in [*range(players), None]:
        belief = VOLUSPA.belief(state.view(seat))
        for draw in range(5):
            world = belief.sample(Rng(draw))
            assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(state.view(seat), sort_keys=True)
            assert world.tile_count() == state.tile_count()


def test_known_tiles_stay_in_their_hand() -> None:
    state = _with_known_tile()
    holder = next(s for s in range(3) if sum(state.known[s]))
    observer = (holder + 1) % 3
    belief = VOLUSPA.belief(state.view(observer))
    for draw in range(30):
        world = belief.sample(Rng(draw))
        for kind in range(NUM_KINDS):
            assert world.hands[holder][kind] >= state.known[holder][kind]


def test_unseen_tiles_are_spread_uniformly() -> None:
    state = _position(11, "base", 3, 12)
    observer = state.current
    others = [s for s in range(3) if s != observer]
    belief = VOLUSPA.belief(state.view(observer))
    unseen = Counter(belief.unseen)
    pile_size = len(state.pile)
    total = sum(unseen.values())
    samples = 3000
    rng = Rng(5)
    in_hand: Counter[int] = Counter()
    for _ in range(samples):
        world = belief.sample(rng)
        for seat in others:
            for kind in range(NUM_KINDS):
                in_hand[kind] += world.hands[seat][kind] - state.known[seat][kind]
    hidden_slots = total - pile_size
    for kind, count in unseen.items():
        # Each unseen tile is in one of the hidden hand slots with probability slots/total.
        expected = samples * count * hidden_slots / total
        spread = (expected * (1 - hidden_slots / total)) ** 0.5
        assert abs(in_hand[kind] - expected) < 5 * spread + 1, f"{CODES[kind]}: {in_hand[kind]} vs {expected:.0f}"
    assert in_hand[HE] == 0


@pytest.mark.skipif(not search_engine.AVAILABLE, reason="the C search engine is not built")
def test_search_engine_samples_are_uniform_too() -> None:
    state = _position(12, "base", 2, 8)
    observer = state.current
    other = 1 - observer
    adapter = VOLUSPA.search_adapter()
    sampler = adapter.sampler(state.view(observer))
    belief = VOLUSPA.belief(state.view(observer))
    unseen = Counter(belief.unseen)
    total = sum(unseen.values())
    slots = belief.hidden[other]
    samples = 3000
    rng = Rng(9)
    counts: Counter[int] = Counter()
    for _ in range(samples):
        world: Any = sampler.sample(rng)  # the C engine's state
        hands = world.export()["hands"]
        for kind in range(NUM_KINDS):
            counts[kind] += hands[other][kind] - state.known[other][kind]
        assert hands[observer] == state.hands[observer]
    for kind, count in unseen.items():
        expected = samples * count * slots / total
        spread = (expected * (1 - slots / total)) ** 0.5
        assert abs(counts[kind] - expected) < 5 * spread + 1, f"{CODES[kind]}: {counts[kind]} vs {expected:.0f}"
