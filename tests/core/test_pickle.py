"""Every game state pickles and copies exactly, the C search states included, and records round-trip.

A state read back must be the same state: the same fingerprint (hidden parts and RNG
included), every seat's view, the same legal actions in the same order, and the same
future: the same actions applied to both give the same events and the same states, chance
included. Checked over random positions of every game, every preset and table sizes from
the smallest to the largest. The C engines' states (Völuspá's and Valda's search states)
are checked the same way through their bytes, their playouts and their own generators.
"""

from __future__ import annotations

import copy
import pickle
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from meadhall.core.game import Game, GameState
from meadhall.core.record import GameRecord
from meadhall.core.registry import all_games, get_game
from meadhall.core.rng import Rng
from meadhall.games.valda import native as valda_native
from meadhall.games.valda.state import ValdaState
from meadhall.games.voluspa import search as voluspa_search
from meadhall.games.voluspa.state import VoluspaState

GAMES = ("voluspa", "bloodrage-valhalla", "valda")
SETUPS = [
    (
        name,
        preset,
        get_game(name).info.min_players
        + number % (get_game(name).info.max_players - get_game(name).info.min_players + 1),
    )
    for name in GAMES
    for number, preset in enumerate(get_game(name).info.presets)
]
#: Steps of the shared future played on the original and its copy after each check.
FUTURE = 25


def _roundtrips(value: Any) -> Iterator[tuple[str, Any]]:
    yield "pickle", pickle.loads(pickle.dumps(value))
    yield "pickle protocol 2", pickle.loads(pickle.dumps(value, protocol=2))
    yield "deepcopy", copy.deepcopy(value)


def _events(events: list[Any]) -> list[tuple[str, Any, Any]]:
    return [(event.kind, dict(event.data), event.audience) for event in events]


def _same_state(original: GameState[Any], restored: GameState[Any]) -> None:
    assert type(restored) is type(original)
    assert restored.fingerprint() == original.fingerprint()
    assert restored.history() == original.history()
    assert (restored.seed, restored.num_players, dict(restored.options)) == (
        original.seed,
        original.num_players,
        dict(original.options),
    )
    for seat in (None, *range(original.num_players)):
        assert restored.view(seat) == original.view(seat)
    assert restored.is_terminal() == original.is_terminal()
    assert restored.to_move() == original.to_move()
    for seat in original.to_move():
        assert list(restored.legal_actions(seat)) == list(original.legal_actions(seat))


def _same_future(original: GameState[Any], restored: GameState[Any], seed: int) -> None:
    """The same actions give the same events and states: the RNG came along."""
    a, b = original.clone(), restored
    chooser = random.Random(seed)
    for _ in range(FUTURE):
        if a.is_terminal():
            break
        seat = a.to_move()[0]
        action = chooser.choice(list(a.legal_actions(seat)))
        assert _events(b.apply(seat, action)) == _events(a.apply(seat, action))
        assert b.fingerprint() == a.fingerprint()
    assert b.is_terminal() == a.is_terminal()
    if a.is_terminal():
        assert (b.scores(), b.ranking()) == (a.scores(), a.ranking())


def _positions(name: str, preset: str, players: int, seed: int, every: int) -> Iterator[GameState[Any]]:
    """A random game of ``name``, every ``every`` actions (and its end)."""
    game = get_game(name)
    state = game.new_game(players=players, seed=seed, options={"preset": preset})
    chooser = random.Random(seed)
    steps = 0
    yield state
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, chooser.choice(list(state.legal_actions(seat))))
        steps += 1
        if steps % every == 0:
            yield state
    yield state


@pytest.mark.parametrize(("name", "preset", "players"), SETUPS)
def test_every_state_pickles_and_copies_exactly(name: str, preset: str, players: int) -> None:
    seed = 1000 + SETUPS.index((name, preset, players))
    for number, state in enumerate(_positions(name, preset, players, seed, every=23)):
        for how, restored in _roundtrips(state):
            try:
                _same_state(state, restored)
                _same_future(state, restored, seed + number)
            except AssertionError as error:
                raise AssertionError(f"{name} {preset} ({players}p), position {number}, by {how}: {error}") from None


@pytest.mark.parametrize(("name", "preset", "players"), SETUPS)
def test_records_round_trip(name: str, preset: str, players: int) -> None:
    """A state's record (``GameRecord.from_state``), through its JSON, replays to the same state."""
    seed = 2000 + SETUPS.index((name, preset, players))
    for number, state in enumerate(_positions(name, preset, players, seed, every=31)):
        record = GameRecord.from_json(GameRecord.from_state(state).to_json())
        replayed = record.replay()
        _same_state(state, replayed)
        _same_future(state, replayed, seed + number)
        assert record.to_dict() == GameRecord.from_state(state).to_dict()


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.info.name)
def test_every_installed_game_pickles(game: Game) -> None:
    """Generic: any installed game's states (the toy game of the tests too) pickle through the base class."""
    info = game.info
    for number, state in enumerate(_positions(info.name, info.default_preset, info.min_players, 77, every=5)):
        for _how, restored in _roundtrips(state):
            _same_state(state, restored)
            _same_future(state, restored, number)
        assert pickle.loads(pickle.dumps(game)) is game  # a registered game reads back as itself


def test_a_history_longer_than_pickles_recursion_limit_pickles() -> None:
    """The history is a linked list of nested tuples; pickling writes it flat, so its length does not matter."""
    state = get_game("valda").new_game(players=2, seed=3)
    for _ in range(6):
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    steps = state.history()
    long: Any = None
    for number in range(20_000):
        long = (long, steps[number % len(steps)])
    state._applied = long
    for _how, restored in _roundtrips(state):
        assert restored.history() == state.history()
        assert restored.fingerprint() == state.fingerprint()


def test_a_sampled_world_pickles() -> None:
    """Worlds that bots search (dealt from a view, not from a seed) pickle as any state."""
    for name in GAMES:
        game = get_game(name)
        state = next(
            p for n, p in enumerate(_positions(name, game.info.default_preset, game.info.min_players, 7, 9)) if n == 2
        )
        world = state.sample_world(state.to_move()[0], Rng(5))
        for _how, restored in _roundtrips(world):
            _same_state(world, restored)
            _same_future(world, restored, 11)


# The C engines' search states --------------------------------------------------------------------


def _c_future(original: Any, restored: Any, seed: int) -> None:
    """Random codes applied to both give the same bytes at every step."""
    chooser = random.Random(seed)
    for _ in range(FUTURE):
        if original.is_terminal():
            break
        seat = original.to_move()[0]
        codes = original.legal_actions(seat)
        assert restored.legal_actions(seat) == codes
        code = codes[chooser.randrange(len(codes))]
        original.apply_quiet(seat, code)
        restored.apply_quiet(seat, code)
        assert restored.to_bytes() == original.to_bytes()
    assert (restored.is_terminal(), restored.scores(), restored.ranking()) == (
        original.is_terminal(),
        original.scores(),
        original.ranking(),
    )


def _same_c_state(original: Any, restored: Any) -> None:
    assert type(restored) is type(original)
    assert restored.to_bytes() == original.to_bytes()
    assert restored.export() == original.export()
    assert restored.to_move() == original.to_move()
    assert restored.is_terminal() == original.is_terminal()
    for seat in original.to_move():
        assert restored.legal_actions(seat) == original.legal_actions(seat)


C_SETUPS = [(name, preset, players) for name, preset, players in SETUPS if name in ("voluspa", "valda")]
TO_SEARCH: dict[str, Callable[[Any], Any]] = {"voluspa": voluspa_search.to_search, "valda": valda_native.to_search}


@pytest.mark.skipif(not (voluspa_search.AVAILABLE and valda_native.AVAILABLE), reason="the C engines are not built")
@pytest.mark.parametrize(("name", "preset", "players"), C_SETUPS)
def test_c_search_states_pickle_and_copy_exactly(name: str, preset: str, players: int) -> None:
    seed = 3000 + C_SETUPS.index((name, preset, players))
    checked = 0
    for number, state in enumerate(_positions(name, preset, players, seed, every=17)):
        fast = TO_SEARCH[name](state)
        if fast is None:  # a Völuspá board wider than the search grid
            continue
        if name == "voluspa":
            fast.reseed(seed + number)  # the engine's own generator, which rollouts draw from
        for how, restored in _roundtrips(fast):
            try:
                _same_c_state(fast, restored)
                _c_future(fast.clone(), restored.clone(), seed + number)
                if name == "voluspa":  # the generator came along: the same random playout
                    a, b = fast.clone(), restored.clone()
                    assert b.rollout(400, 500) == a.rollout(400, 500)
                    assert b.to_bytes() == a.to_bytes()
            except AssertionError as error:
                raise AssertionError(f"{name} {preset} ({players}p), position {number}, by {how}: {error}") from None
        checked += 1
    assert checked >= 2


@pytest.mark.skipif(not (voluspa_search.AVAILABLE and valda_native.AVAILABLE), reason="the C engines are not built")
def test_c_worlds_of_the_samplers_pickle() -> None:
    """The worlds the bots' samplers deal in C (after a redeal, with its generator) pickle too."""
    for name in ("voluspa", "valda"):
        game = get_game(name)
        state = next(p for n, p in enumerate(_positions(name, game.info.default_preset, 3, 21, 11)) if n == 2)
        sampler = game.search_adapter().sampler(state.view(state.to_move()[0]))
        world = sampler.sample(Rng(4))
        assert type(world).__module__.endswith("_search")
        for _how, restored in _roundtrips(world):
            _same_c_state(world, restored)
            _c_future(world.clone(), restored, 8)


@pytest.mark.skipif(not (voluspa_search.AVAILABLE and valda_native.AVAILABLE), reason="the C engines are not built")
def test_c_states_refuse_bytes_they_did_not_write() -> None:
    voluspa_state = get_game("voluspa").new_game(players=2, seed=1)
    valda_state = get_game("valda").new_game(players=2, seed=1)
    assert isinstance(voluspa_state, VoluspaState) and isinstance(valda_state, ValdaState)
    voluspa, valda = voluspa_search.to_search(voluspa_state), valda_native.to_search(valda_state)
    found = valda_native.tables(valda_state.config.content)
    v_engine, a_engine = voluspa_search._native, valda_native._native
    assert found is not None and v_engine is not None and a_engine is not None
    assert voluspa is not None and valda is not None
    handle = found.handle
    with pytest.raises(ValueError, match="search state"):
        v_engine.from_bytes(valda.to_bytes())
    with pytest.raises(ValueError, match="search state"):
        a_engine.from_bytes(handle, voluspa.to_bytes())
    with pytest.raises(ValueError, match="search state"):
        v_engine.from_bytes(voluspa.to_bytes()[:-1])
    wrong_layout = bytearray(voluspa.to_bytes())
    wrong_layout[4] ^= 0xFF
    with pytest.raises(ValueError, match="layout"):
        v_engine.from_bytes(bytes(wrong_layout))
    out_of_bounds = bytearray(valda.to_bytes())
    out_of_bounds[12 + 8 : 12 + 12] = (1000).to_bytes(4, sys.byteorder)  # players (after the tables' pointer)
    with pytest.raises(ValueError, match="out of bounds"):
        a_engine.from_bytes(handle, bytes(out_of_bounds))
