"""Every bot plays every preset and player count of every game to the end."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.bots import make_bot
from meadhall.core.game import Action, Game, GameState
from meadhall.core.registry import all_games
from meadhall.core.rng import Rng
from meadhall.lab.selfplay import Turns, play_out
from meadhall.testing.conformance import Setup, setups

SPECS = ["random", "greedy", "ismcts:25"]
CASES = [(game, setup) for game in all_games() for setup in setups(game)]


@pytest.mark.parametrize(("game", "setup"), CASES, ids=[f"{g.info.name}-{s}" for g, s in CASES])
def test_bots_play_to_the_end(game: Game, setup: Setup) -> None:
    state = game.new_game(players=setup.players, seed=setup.players * 31, options={"preset": setup.preset})
    bots = [make_bot(SPECS[seat % len(SPECS)]) for seat in range(setup.players)]
    rngs = [Rng(seat) for seat in range(setup.players)]
    turns = Turns([0] * setup.players)

    def legal_only(made: int, seat: int, action: Action, state: GameState[Any]) -> None:
        assert action in state.legal_actions(seat)

    play_out(state, bots, rngs, legal_only, turns)
    assert state.is_terminal() and sum(turns.made) > 10
