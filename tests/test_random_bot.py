"""The bot interface, the bot registry and the random bot."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import meadhall
from meadhall.bots import Bot, available_bots, make_bot, register_bot
from meadhall.bots.random_bot import RandomBot
from meadhall.core.game import Action, Game
from meadhall.core.rng import Rng

GAME = meadhall.get_game("voluspa")


def test_make_bot_finds_the_random_bot_case_insensitively() -> None:
    bot = make_bot("random")
    assert isinstance(bot, RandomBot)
    assert isinstance(bot, Bot)
    assert bot.name == "random"
    assert isinstance(make_bot("  Random "), RandomBot)
    assert "random" in available_bots()


def test_make_bot_rejects_unknown_names_and_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"no bot called 'clever'.*random"):
        make_bot("clever")


def test_register_bot_refuses_to_replace_another_factory() -> None:
    with pytest.raises(ValueError, match="registered already"):
        register_bot("random", lambda budget: RandomBot())

    def factory(budget: object) -> RandomBot:
        return RandomBot()

    register_bot("test-only-random", factory)
    register_bot("test-only-random", factory)  # the same factory again is fine


def test_random_bot_chooses_a_legal_action_reproducibly() -> None:
    state = GAME.new_game(players=2, seed=11, options={"preset": "all"})
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    bot = RandomBot()
    first = [bot.choose(GAME, state.view(seat), legal, Rng(4)) for _ in range(3)]
    assert len(set(first)) == 1, "the same rng state must give the same choice"
    rng_a, rng_b = Rng(99), Rng(99)
    run_a = [bot.choose(GAME, state.view(seat), legal, rng_a) for _ in range(20)]
    run_b = [bot.choose(GAME, state.view(seat), legal, rng_b) for _ in range(20)]
    assert run_a == run_b
    assert all(action in legal for action in run_a)
    assert len(set(run_a)) > 1, "a random bot that always picks the same action is not random"


def test_random_bot_is_roughly_uniform() -> None:
    legal: list[Action] = ["a", "b", "c", "d"]
    rng = Rng(2024)
    bot = RandomBot()
    counts = Counter(bot.choose(GAME, {}, legal, rng) for _ in range(4000))
    assert set(counts) == set(legal)
    for action in legal:
        assert 850 < counts[action] < 1150, counts


def test_random_bot_refuses_an_empty_choice() -> None:
    with pytest.raises(ValueError, match="no legal actions"):
        RandomBot().choose(GAME, {}, [], Rng(1))


class _Recorder:
    """A bot wrapper that remembers what it was shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.inner = RandomBot()
        self.views: list[dict[str, Any]] = []

    def choose(self, game: Game, view: dict[str, Any], legal: Any, rng: Rng) -> Action:
        self.views.append(view)
        return self.inner.choose(game, view, legal, rng)


def test_random_bots_play_a_whole_game_from_views_only() -> None:
    state = GAME.new_game(players=3, seed=5, options={"preset": "all+lightning"})
    bot = _Recorder()
    assert isinstance(bot, Bot)
    rng = Rng(8)
    steps = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        view = state.view(seat)
        action = bot.choose(GAME, view, state.legal_actions(seat), rng)
        state.apply(seat, action)
        steps += 1
        assert steps < 2000
    assert sorted(state.ranking())[0] == 1
    for view in bot.views:
        assert view["seat"] in (0, 1, 2)
        assert "pile_order" not in view and "hands" not in view
