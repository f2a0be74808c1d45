"""Every bot plays every preset and player count of every game to the end."""

from __future__ import annotations

import pytest

from meadhall.bots import make_bot
from meadhall.core.game import Game
from meadhall.core.registry import all_games
from meadhall.core.rng import Rng
from meadhall.testing.conformance import Setup, setups

SPECS = ["random", "greedy", "ismcts:25"]
CASES = [(game, setup) for game in all_games() for setup in setups(game)]


@pytest.mark.parametrize(("game", "setup"), CASES, ids=[f"{g.info.name}-{s}" for g, s in CASES])
def test_bots_play_to_the_end(game: Game, setup: Setup) -> None:
    state = game.new_game(players=setup.players, seed=setup.players * 31, options={"preset": setup.preset})
    bots = [make_bot(SPECS[seat % len(SPECS)]) for seat in range(setup.players)]
    rngs = [Rng(seat) for seat in range(setup.players)]
    decisions = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        action = bots[seat].choose(game, state.view(seat), legal, rngs[seat])
        assert action in legal
        state.apply(seat, action)
        decisions += 1
    assert decisions > 10
