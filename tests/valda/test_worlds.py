"""Valda beyond the shared conformance suite (tests/conformance runs it over every game)."""

from __future__ import annotations

from meadhall.core.rng import Rng
from meadhall.games.valda.game import GAME
from meadhall.games.valda.state import ValdaState


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
