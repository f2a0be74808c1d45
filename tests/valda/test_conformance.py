"""The conformance suite over Valda, every preset and player count (before it is registered)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meadhall.core.registry import register, unregister
from meadhall.core.rng import Rng
from meadhall.games.valda.game import GAME
from meadhall.games.valda.state import ValdaState
from meadhall.testing.conformance import Setup, play_and_check, setups

CASES = list(setups(GAME))


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """Registered for the test only (records replay through the registry); not yet for players."""
    register(GAME)
    try:
        yield
    finally:
        unregister(GAME.info.name)


@pytest.mark.parametrize("setup", CASES, ids=[str(s) for s in CASES])
def test_random_playout_conforms(setup: Setup) -> None:
    state = play_and_check(GAME, setup, seed=11 + setup.players)
    assert state.is_terminal()


def test_a_sampled_world_shows_each_seat_its_view_and_deals_the_hidden_cards_again() -> None:
    state = GAME.new_game(players=4, seed=3)
    rng = Rng(5)
    while state.round < 3:
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    hands = set()
    for draw in range(20):
        world = state.sample_world(0, Rng(draw))
        assert isinstance(world, ValdaState) and isinstance(state, ValdaState)
        assert world.view(0) == state.view(0) and world.view(None) == state.view(None)
        assert sorted(world.players[0].hand) == sorted(state.players[0].hand)
        hands.add(tuple(sorted(world.players[1].hand)))
    assert len(hands) > 10  # the other hands are dealt again, not copied
