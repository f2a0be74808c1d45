"""Taking back (core.undo) over every registered game: the checks of the suite have something to check."""

from __future__ import annotations

import pytest

from meadhall.core.game import Game
from meadhall.core.registry import all_games
from meadhall.core.undo import CHANCE, REVEALED
from meadhall.testing.conformance import check_take_backs_happen

GAMES = list(all_games())


@pytest.mark.parametrize("game", GAMES, ids=[g.info.name for g in GAMES])
def test_some_actions_are_undoable_and_some_kept(game: Game) -> None:
    counts = check_take_backs_happen(game)
    assert counts["undoable"] > 0
    assert counts.get(CHANCE, 0) + counts.get(REVEALED, 0) > 0


def test_every_game_with_words_is_checked() -> None:
    names = {game.info.name for game in GAMES}
    assert {"voluspa", "bloodrage-valhalla", "valda", "toy"} <= names
