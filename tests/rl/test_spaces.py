"""The games' spaces (meadhall.core.spaces): every legal action has an index, masks and tensors leak nothing.

Random games of every game, preset and number of players: the legal mask marks exactly
the legal actions, each index reads back as its action, observations have the declared
size (non-negative, finite), and a seat's observation and mask are the same in the real
state and in every world ``sample_world`` deals for that seat.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from meadhall.core.game import Event, Game, GameState
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from meadhall.core.spaces import EVENT_BUCKETS, GameSpaces, InformationState, OutsideSpace

GAMES = ("voluspa", "bloodrage-valhalla", "valda")


def _setups() -> list[tuple[str, str, int]]:
    """Every preset of every game, the numbers of players taken in turn (one game each keeps it fast)."""
    found = []
    for name in GAMES:
        info = get_game(name).info
        counts = list(range(info.min_players, info.max_players + 1))
        for number, preset in enumerate(info.presets):
            found.append((name, preset, counts[number % len(counts)]))
    return found


def _check_position(game: Game, spaces: GameSpaces, state: GameState[Any], seat: int, leak: bool) -> None:
    observation = spaces.observations.observation(state, seat)
    assert len(observation) == spaces.observations.size
    assert all(math.isfinite(value) and value >= 0.0 for value in observation)
    deciding = seat in state.to_move()
    mask = spaces.actions.legal_mask(state, seat) if deciding else None
    if mask is not None:
        legal = state.legal_actions(seat)
        assert len(mask) == spaces.actions.size and sum(mask) == len(legal)
        for action in legal:
            index = spaces.actions.index(action, state)
            assert mask[index] == 1
            assert spaces.actions.action(index, state) == action
    if leak:
        for draw in range(2):
            world = state.sample_world(seat, Rng(1000 * seat + draw))
            assert spaces.observations.observation(world, seat) == observation, "the observation shows hidden parts"
            if mask is not None:
                assert spaces.actions.legal_mask(world, seat) == mask, "the mask shows hidden parts"


@pytest.mark.parametrize(("name", "preset", "players"), _setups())
def test_random_games_encode_and_leak_nothing(name: str, preset: str, players: int) -> None:
    game = get_game(name)
    spaces = game.spaces(players, {"preset": preset})
    assert spaces is not None
    state = game.new_game(players, seed=players * 7 + len(preset), options={"preset": preset})
    choose = random.Random(preset)
    # Leak checks cost a belief each: every few decisions, for the deciding seat and the next one.
    every = 12 if name == "voluspa" else 20
    step = 0
    while not state.is_terminal():
        seat = choose.choice(state.to_move())
        leak = step % every == 0
        if leak or step % 3 == 0:
            _check_position(game, spaces, state, seat, leak)
        if leak:
            _check_position(game, spaces, state, (seat + 1) % players, True)
        mask = spaces.actions.legal_mask(state, seat)
        index = choose.choice([number for number, legal in enumerate(mask) if legal])
        state.apply(seat, spaces.actions.action(index, state))
        step += 1
    for seat in range(players):
        _check_position(game, spaces, state, seat, False)


@pytest.mark.parametrize("name", GAMES)
def test_layouts_are_fixed_and_named(name: str) -> None:
    game = get_game(name)
    info = game.info
    sizes = set()
    for players in range(info.min_players, info.max_players + 1):
        spaces = game.spaces(players)
        assert spaces is not None
        layout = spaces.observations.layout()
        names = [block for block, _, _ in layout]
        assert len(names) == len(set(names)) and all(names)
        assert layout[0][2] == 0
        assert spaces.version.startswith(name.split("-")[0])
        sizes.add((spaces.actions.size, spaces.observations.size))
    # One policy serves every table size of a game: the sizes do not depend on the players.
    assert len(sizes) == 1


def test_unknown_actions_and_indices_are_refused() -> None:
    game = get_game("valda")
    spaces = game.spaces(2)
    assert spaces is not None
    with pytest.raises(OutsideSpace):
        spaces.actions.index(game.parse_action("card:no-such-card"))
    with pytest.raises(OutsideSpace):
        spaces.actions.action(spaces.actions.size)


def test_voluspa_window_follows_the_board() -> None:
    """The same move on a board moved elsewhere has the same index: the window is translation-invariant."""
    from meadhall.games.voluspa.spaces import window_origin

    assert window_origin([(0, 0)]) == (-16, -16)
    assert window_origin([(10, 5), (12, 9)]) == (-5, -9)
    game = get_game("voluspa")
    spaces = game.spaces(2)
    assert spaces is not None
    state = game.new_game(2, seed=4)
    seat = state.to_move()[0]
    action = state.legal_actions(seat)[0]
    with pytest.raises(OutsideSpace, match="pass the state"):
        spaces.actions.index(action)
    index = spaces.actions.index(action, state)
    assert spaces.actions.action(index, state) == action


def test_a_game_without_spaces_says_none() -> None:
    assert get_game("toy").spaces(2) is None


def test_information_state_recalls_only_what_the_seat_saw() -> None:
    spaces = get_game("valda").spaces(2)
    assert spaces is not None
    mine = InformationState(spaces, 0)
    public = Event("rolled", {"dice": [1, 2]})
    secret = Event("drew", {"seat": 1, "cards": ["x"]}, frozenset({1}))
    mine.saw([public, secret])
    theirs = InformationState(spaces, 0)
    theirs.saw([public, Event("drew", {"seat": 1, "cards": ["y"]}, frozenset({1}))])
    assert mine.string() == theirs.string() and "rolled" in mine.string() and "drew" not in mine.string()
    action = get_game("valda").parse_action("done")
    mine.acted(action, spaces.actions.index(action))
    assert mine.string().endswith("> done")
    state = get_game("valda").new_game(2, seed=1)
    tensor = mine.tensor(state.view(0))
    assert len(tensor) == mine.size == spaces.observations.size + EVENT_BUCKETS + spaces.actions.size
    assert sum(tensor[spaces.observations.size : spaces.observations.size + EVENT_BUCKETS]) == 1.0


def _fast_setups() -> list[tuple[str, str, int]]:
    """The setups of :func:`_setups` whose game writes observations by a fast path, each number of players."""
    found = []
    for name, preset, _ in _setups():
        info = get_game(name).info
        for players in range(info.min_players, info.max_players + 1):
            spaces = get_game(name).spaces(players, {"preset": preset})
            if spaces is not None and spaces.observations.fast is not None:
                found.append((name, preset, players))
    return found


@pytest.mark.parametrize(("name", "preset", "players"), _fast_setups())
def test_the_fast_observations_equal_the_views_encoded(name: str, preset: str, players: int) -> None:
    """One writer follows whole random games: after every action each seat's gather is its encoded view."""
    from array import array

    game = get_game(name)
    spaces = game.spaces(players, {"preset": preset})
    assert spaces is not None and spaces.observations.fast is not None
    fast = spaces.observations.fast
    gathers = [fast.gather(seat) for seat in range(players)]
    assert all(len(gather) == spaces.observations.size for gather in gathers)
    for seed in range(2):
        state = game.new_game(players, seed=100 * players + seed, options={"preset": preset})
        buffer = array("f", [1.0]) * fast.size  # not zeros: the writer clears what it writes
        buffer[fast.size - 1] = 0.0
        writer = fast.writer(memoryview(buffer))
        choose = random.Random(seed)
        step = 0
        while True:
            writer.write(state)
            for seat in range(players):
                expected = array("f", spaces.observations.observation(state, seat))
                assert array("f", [buffer[place] for place in gathers[seat]]) == expected, (seed, step, seat)
                if step % 10 == 0:  # a new writer, writing all at once
                    assert array("f", fast.observation(state, seat)) == expected
            if state.is_terminal():
                break
            seat = choose.choice(state.to_move())
            state.apply_quiet(seat, choose.choice(state.legal_actions(seat)))
            step += 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_blood_rage_writer_after_one_clan_alone_changed_writes_what_a_full_write_does(players: int) -> None:
    """Where the rules mark a step as changing one clan alone (``only_seat``), the writer's short path is exact.

    Two writers follow the same random games: one sees the mark, the other (the plain
    path) never does and compares every part; after every action their buffers are equal.
    """
    from array import array

    from meadhall.games.bloodrage_valhalla.state import BloodRageState

    game = get_game("bloodrage-valhalla")
    spaces = game.spaces(players, {"preset": "random-gods"})
    assert spaces is not None and spaces.observations.fast is not None
    fast = spaces.observations.fast
    short_paths = 0
    for seed in range(4):
        state = game.new_game(players, seed=1000 * players + seed, options={"preset": "random-gods"})
        assert isinstance(state, BloodRageState)
        marked, plain = array("f", [1.0]) * fast.size, array("f", [1.0]) * fast.size
        marked_writer, plain_writer = fast.writer(memoryview(marked)), fast.writer(memoryview(plain))
        choose = random.Random(seed)
        while True:
            marked_writer.write(state)
            mark = state.only_seat
            short_paths += mark is not None and mark[0] == state.ply
            state.only_seat = None  # the plain path: nothing marked, every part compared
            plain_writer.write(state)
            state.only_seat = mark
            assert marked == plain, (seed, state.ply)
            if state.is_terminal():
                break
            seat = choose.choice(state.to_move())
            state.apply_quiet(seat, choose.choice(state.legal_actions(seat)))
    # the short path was taken: in each of a game's three drafts, every round's picks but the last (at least)
    assert short_paths >= 4 * 3 * (players - 1)
