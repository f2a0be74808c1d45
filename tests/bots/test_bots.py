"""Bots: specs and levels, greedy's choices, ISMCTS reproducibility, and honesty."""

from __future__ import annotations

import time

import pytest

from meadhall.bots import LEVELS, Budget, make_bot
from meadhall.bots.greedy import GreedyBot
from meadhall.bots.ismcts import IsmctsBot
from meadhall.bots.random_bot import RandomBot
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA, Place, VoluspaState, parse_board, parse_turn
from meadhall.games.voluspa.search import VoluspaSearchAdapter
from meadhall.games.voluspa.tiles import HM, LO, OD, SS, TH, VA


def _advanced(preset: str, players: int, seed: int, steps: int) -> VoluspaState:
    state = VOLUSPA.new_game(players=players, seed=seed, options={"preset": preset})
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions(state.current)
        state.apply(state.current, legal[rng.below(len(legal))])
    return state


def test_budget_parsing() -> None:
    assert Budget.parse("1s") == Budget(seconds=1.0)
    assert Budget.parse("250ms") == Budget(seconds=0.25)
    assert Budget.parse("2000") == Budget(iterations=2000)
    assert Budget.parse("300it") == Budget(iterations=300)
    assert str(Budget(seconds=0.25)) == "250ms" and str(Budget(seconds=2)) == "2s" and str(Budget(iterations=5)) == "5"
    with pytest.raises(ValueError, match="cannot read the budget"):
        Budget.parse("fast")
    with pytest.raises(ValueError, match="not both"):
        Budget(iterations=1, seconds=1.0)


def test_cpu_budget_counts_processor_time_not_waiting() -> None:
    assert Budget.parse("1s-cpu") == Budget(seconds=1.0, cpu=True)
    assert Budget.parse("250ms-cpu") == Budget(seconds=0.25, cpu=True)
    assert str(Budget(seconds=1.0, cpu=True)) == "1s-cpu" and str(Budget(seconds=0.25, cpu=True)) == "250ms-cpu"
    assert Budget.parse(str(Budget(seconds=0.25, cpu=True))) == Budget(seconds=0.25, cpu=True)
    with pytest.raises(ValueError, match="processor time"):
        Budget(iterations=10, cpu=True)
    # Waiting (another process has the core) spends no processor time: the budget is intact.
    clock = Budget(seconds=0.05, cpu=True).clock()
    clock.tick()
    time.sleep(0.2)
    assert clock.more() and clock.elapsed() < 0.05
    wall = Budget(seconds=0.05).clock()
    wall.tick()
    time.sleep(0.2)
    assert not wall.more()
    # Work does spend it.
    busy = Budget(seconds=0.02, cpu=True).clock()
    busy.tick()
    while busy.more():
        sum(range(1000))
    assert busy.elapsed() >= 0.02


def test_specs_and_levels() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    bot = make_bot("ismcts:500")
    assert isinstance(bot, IsmctsBot) and bot.budget == Budget(iterations=500)
    hard = make_bot("hard")
    assert isinstance(hard, IsmctsBot) and hard.budget == Budget(seconds=1.0)
    assert set(LEVELS) == {"beginner", "easy", "medium", "hard", "expert"}
    assert isinstance(make_bot("easy"), GreedyBot)
    with pytest.raises(ValueError, match="takes no budget"):
        make_bot("greedy:1s")
    with pytest.raises(ValueError, match="levels: beginner"):
        make_bot("grandmaster")


def test_greedy_takes_the_biggest_points() -> None:
    config = VOLUSPA.config({"preset": "saga"}, players=2)
    board = parse_board("origin 0,0\nTH VA VA VA\n.  .  .  .")
    # Odin at either end of the row scores 5, and so does a Valkyrie at -1,0 (it closes a
    # Valkyrie bookend): greedy keeps the strong tile and spends the Valkyrie.
    state = VoluspaState.from_position(config, board, [[OD, LO, VA], [TH]], fill_pile=True)
    action = GreedyBot().choose(VOLUSPA, state.view(0), state.legal_actions(0), Rng(1))
    assert str(action) == "VA@-1,0"
    assert isinstance(action, Place)
    state.apply(0, action)
    assert state.scores()[0] == 5
    # Without the Valkyrie, Odin takes the 5 points.
    state = VoluspaState.from_position(config, board, [[OD, LO], [TH]], fill_pile=True)
    action = GreedyBot().choose(VOLUSPA, state.view(0), state.legal_actions(0), Rng(1))
    assert str(action) in ("OD@4,0", "OD@-1,0")


def test_bots_play_the_named_line_not_the_plain_shorthand() -> None:
    # A Sea Serpent at 1,1 scores 3 by its row or its column: SS@1,1 is listed beside
    # SS@1,1:row and SS@1,1:col, the same move; the searching bots play the named forms.
    config = VOLUSPA.config({"kinds": ["SS", "SK", "TH"]}, players=2)
    board = parse_board("origin 0,0\n.  SK .\nSK .  SK\n.  SK .")
    state = VoluspaState.from_position(config, board, [[SS, SS], [TH]], fill_pile=True)
    legal = state.legal_actions(0)
    assert {"SS@1,1", "SS@1,1:row", "SS@1,1:col"} <= {str(a) for a in legal}
    same_move = [a for a in legal if str(a) in ("SS@1,1", "SS@1,1:row", "SS@1,1:col")]
    for seed in range(6):
        for bot in (GreedyBot(), IsmctsBot(Budget(iterations=30))):
            chosen = bot.choose(VOLUSPA, state.view(0), same_move, Rng(seed))
            assert str(chosen) in ("SS@1,1:row", "SS@1,1:col"), (bot, chosen)


def test_greedy_plans_the_hermod_follow_up() -> None:
    config = VOLUSPA.config({"preset": "saga"}, players=2)
    board = parse_board("origin 0,0\nVA VA VA VA VA")
    # Placing Odin directly scores 6; Hermod first (in the row, 6 tiles, Hermod 3 beats
    # Valkyries 2: 6 points) then Odin in the Hermod's row (7 tiles) scores 6 + 7 = 13.
    state = VoluspaState.from_position(config, board, [[OD, HM], [TH]], fill_pile=True)
    action = GreedyBot().choose(VOLUSPA, state.view(0), state.legal_actions(0), Rng(2))
    assert str(action) in ("HM@5,0", "HM@-1,0")
    assert isinstance(action, Place)
    state.apply(0, action)
    follow = GreedyBot().choose(VOLUSPA, state.view(0), state.legal_actions(0), Rng(3))
    assert str(follow) in ("OD@6,0", "OD@-1,0", "OD@5,0", "OD@-2,0")
    before = state.scores()[0]
    assert isinstance(follow, Place)
    state.apply(0, follow)
    assert state.scores()[0] - before == 7


def test_greedy_beats_nothing_with_a_forced_move() -> None:
    state = _advanced("base", 2, 3, 0)
    legal = state.legal_actions(state.current)
    assert GreedyBot().choose(VOLUSPA, state.view(state.current), legal[:1], Rng(0)) == legal[0]


def test_ismcts_is_reproducible_under_a_seed_and_iteration_budget() -> None:
    state = _advanced("all", 3, 21, 12)
    seat = state.current
    view, legal = state.view(seat), state.legal_actions(seat)
    first = IsmctsBot(Budget(iterations=300)).choose(VOLUSPA, view, legal, Rng(99))
    again = IsmctsBot(Budget(iterations=300))
    assert again.choose(VOLUSPA, view, legal, Rng(99)) == first
    assert again.last["iterations"] == 300
    assert first in legal


def test_ismcts_works_without_the_c_engine() -> None:
    state = _advanced("saga", 2, 4, 10)
    seat = state.current
    bot = IsmctsBot(Budget(iterations=40))
    bot._adapters["voluspa"] = VoluspaSearchAdapter(VOLUSPA, native=False)
    action = bot.choose(VOLUSPA, state.view(seat), state.legal_actions(seat), Rng(5))
    assert action in state.legal_actions(seat)
    assert bot.last["iterations"] == 40


HONEST = [
    ("random", RandomBot),
    ("greedy", GreedyBot),
    ("ismcts:150", lambda: IsmctsBot(Budget(iterations=150))),
]


@pytest.mark.parametrize(("name", "factory"), HONEST, ids=[n for n, _ in HONEST])
@pytest.mark.parametrize(("preset", "players", "steps"), [("base", 2, 9), ("all+lightning", 3, 17), ("saga", 4, 30)])
def test_decisions_do_not_depend_on_hidden_information(
    name: str, factory: object, preset: str, players: int, steps: int
) -> None:
    real = _advanced(preset, players, 40 + steps, steps)
    seat = real.current
    for trial in range(3):
        # Another true state that this seat cannot tell apart: other hands and pile redealt.
        other = real.sample_world(seat, Rng(1000 + trial))
        assert other.view(seat) == real.view(seat)
        assert other.hands != real.hands or other.pile != real.pile
        assert other.legal_actions(seat) == real.legal_actions(seat)
        bot_a, bot_b = factory(), factory()  # type: ignore[operator]
        chosen_real = bot_a.choose(VOLUSPA, real.view(seat), real.legal_actions(seat), Rng(trial))
        chosen_other = bot_b.choose(VOLUSPA, other.view(seat), other.legal_actions(seat), Rng(trial))
        assert chosen_real == chosen_other, f"{name} decided differently on hidden information"


def test_turn_plans_parse() -> None:
    first = parse_turn("HM@5,0 OD@6,0")[0]
    assert isinstance(first, Place) and first.tile == HM


def test_an_avoiding_bot_never_takes_the_avoided_actions_while_it_has_a_choice() -> None:
    from meadhall.games.valda.game import GAME as VALDA
    from meadhall.games.valda.notation import parse_action

    bot = make_bot("random!done+take:gold")
    assert bot.name == "random!done+take:gold"
    choices = [parse_action(text) for text in ("done", "take:gold", "take:drop", "take:diamond")]
    picked = {str(bot.choose(VALDA, {}, choices, Rng(seed))) for seed in range(60)}
    assert picked == {"take:drop", "take:diamond"}
    only = [parse_action("done")]
    assert bot.choose(VALDA, {}, only, Rng(1)) == only[0]  # a seat must decide
    greedy = make_bot("greedy!build:surtur")
    assert greedy.name == "greedy!build:surtur" and isinstance(greedy.inner, GreedyBot)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="actions to avoid"):
        make_bot("greedy!")
