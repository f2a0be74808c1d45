"""Property tests over seeds, presets, tile-kind subsets and player counts."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA, VoluspaState, format_board, parse_board
from meadhall.games.voluspa.board import COL, ROW, line_cells
from meadhall.games.voluspa.tiles import CODES, COUNTS, HE, TR

PRESETS = list(VOLUSPA.info.presets)
PLAYABLE = [code for code in CODES if code not in ("TR", "HE")]


def kind_subsets() -> st.SearchStrategy[list[str]]:
    return st.tuples(st.sampled_from(PLAYABLE), st.sets(st.sampled_from(CODES))).map(
        lambda pair: sorted({pair[0], *pair[1]})
    )


def options_strategy() -> st.SearchStrategy[dict[str, object]]:
    preset = st.sampled_from(PRESETS).map(lambda p: {"preset": p})
    subset = kind_subsets().map(lambda kinds: {"kinds": kinds})
    return st.tuples(st.one_of(preset, subset), st.booleans(), st.booleans()).map(
        lambda t: {
            **t[0],
            "auto-best-line": t[1],
            "no-late-hel": t[2] and "HE" in VOLUSPA.validate_options(t[0], players=2)["kinds"],
        }
    )


def _total(state: VoluspaState) -> list[int]:
    return state.tile_count()


def _expected(state: VoluspaState) -> list[int]:
    kinds = set(state.config.kinds)
    return [COUNTS[k] if k in kinds else 0 for k in range(len(CODES))]


def _max_line(state: VoluspaState) -> int:
    longest = 0
    for cell, piece in state.board.items():
        if piece & 31 == HE:
            continue
        for step in (ROW, COL):
            longest = max(longest, len(line_cells(state.board, cell, step)))
    return longest


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 5), options=options_strategy())
def test_invariants_hold_through_a_random_game(seed: int, players: int, options: dict[str, object]) -> None:
    state = VOLUSPA.new_game(players=players, seed=seed, options=options)
    rng = Rng(seed)
    expected = _expected(state)
    scored = [0] * players
    while not state.is_terminal():
        # every tile is in exactly one place
        assert _total(state) == expected
        # no line is ever longer than 7 tiles
        assert _max_line(state) <= 7
        # hands: at most five non-Hel tiles outside the discard-down step
        for seat in range(players):
            assert state.hand_size(seat) <= 5 or (seat == state.current and state.stage in (2, 3))
            assert all(0 <= k <= h for k, h in zip(state.known[seat], state.hands[seat], strict=True))
        seat = state.current
        legal = state.legal_actions(seat)
        action = legal[rng.below(len(legal))]
        for event in state.apply(seat, action):
            if event.kind == "scored":
                scored[seat] += int(event.data["points"])
                assert event.data["points"] == sum(line["points"] for line in event.data["lines"])
    assert _total(state) == expected
    # the total score equals the sum of scored events
    assert state.scores() == scored
    assert not state.pile and all(sum(hand) == 0 for hand in state.hands)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), preset=st.sampled_from(PRESETS))
def test_setup_deals_by_the_rules(seed: int, players: int, preset: str) -> None:
    state = VOLUSPA.new_game(players=players, seed=seed, options={"preset": preset})
    assert len(state.board) == 1
    (start,) = state.board.values()
    assert start & 31 != TR, "a Troll start tile is put back and redrawn"
    for seat in range(players):
        assert state.hand_size(seat) == 5
        if HE in state.config.kinds:
            assert state.hands[seat][HE] == (2 if players == 2 else 1)
        else:
            assert state.hands[seat][HE] == 0
    assert 0 <= state.current < players


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), preset=st.sampled_from(PRESETS))
def test_same_seed_same_game(seed: int, players: int, preset: str) -> None:
    one = VOLUSPA.new_game(players=players, seed=seed, options={"preset": preset})
    two = VOLUSPA.new_game(players=players, seed=seed, options={"preset": preset})
    assert one.fingerprint() == two.fingerprint()


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), preset=st.sampled_from(PRESETS))
def test_board_notation_round_trips(seed: int, steps: int, preset: str) -> None:
    state = VOLUSPA.new_game(players=2, seed=seed, options={"preset": preset})
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions(state.current)
        state.apply(state.current, legal[rng.below(len(legal))])
    text = format_board(state.board)
    assert parse_board(text) == state.board
    assert format_board(parse_board(text)) == text
    one_line = format_board(state.board, one_line=True)
    assert parse_board(one_line) == state.board


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), preset=st.sampled_from(PRESETS))
def test_sampled_worlds_agree_with_the_view(seed: int, players: int, preset: str) -> None:
    state = VOLUSPA.new_game(players=players, seed=seed, options={"preset": preset})
    rng = Rng(seed + 1)
    for _ in range(25):
        if state.is_terminal():
            break
        legal = state.legal_actions(state.current)
        state.apply(state.current, legal[rng.below(len(legal))])
    for seat in [*range(players), None]:
        world = state.sample_world(seat, rng)
        assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(state.view(seat), sort_keys=True)
        assert world.tile_count() == state.tile_count()
