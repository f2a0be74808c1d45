"""The C search engine plays exactly the rules of the Python reference engine.

Random games through both engines: at every step the same legal actions, the same points
for every action, and after applying one the same state, field by field (pile order,
hands, known tiles, supply, scores, stage, turn flags, ...).

One difference in the lists, on purpose: where a Sea Serpent's (or a tied Lightning
Bolt's) row and column score the same, the reference engine also lists the plain form
(``SS@x,y``), a shorthand for the same move; the search engine lists each move once, with
its line, so the bots search and play the named forms. The server's list
(``legal_notations``, read from the search engine) adds the shorthand back.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA, Place, VoluspaState, parse_action, parse_board
from meadhall.games.voluspa import search as search_engine
from meadhall.games.voluspa.tiles import CODE_INDEX, CODES, OD, TH

REQUIRED = os.environ.get("MEADHALL_REQUIRE_SEARCH") == "1"
pytestmark = pytest.mark.skipif(
    not search_engine.AVAILABLE and not REQUIRED,
    reason="the C search engine is not built here (no C compiler?); bots use the Python engine",
)

PRESETS = list(VOLUSPA.info.presets)


def test_search_engine_is_built_when_required() -> None:
    # make test sets MEADHALL_REQUIRE_SEARCH=1, so CI never silently tests without it.
    assert search_engine.AVAILABLE


def _compare_game(state: VoluspaState, rng: Rng) -> int:
    steps = 0
    while not state.is_terminal():
        fast = search_engine.to_search(state)
        assert fast is not None
        seat = state.current
        legal = state.legal_actions(seat)
        codes = fast.legal_actions(seat)
        named = [a for a in legal if not (isinstance(a, Place) and a._replace(line="row") in legal and a.line is None)]
        assert sorted(map(str, (search_engine.decode(c) for c in codes))) == sorted(map(str, named))
        assert sorted(VOLUSPA.legal_notations(state, seat)) == sorted(map(str, legal))
        before = state.scores()[seat]
        for action in legal[:: max(1, len(legal) // 12)]:
            trial = state.clone()
            trial.apply_quiet(seat, action)
            code = search_engine.encode(action)
            assert code is not None and search_engine.decode(code) == action
            assert fast.points(code) == trial.scores()[seat] - before, f"points of {action}"
        action = legal[rng.below(len(legal))]
        state.apply_quiet(seat, action)
        fast.apply_quiet(seat, search_engine.encode(action))
        assert fast.export() == search_engine.export_reference(state), f"after {action} at step {steps}"
        steps += 1
    return steps


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_both_engines_agree_on_every_preset(preset: str, players: int) -> None:
    seed = 100 + 7 * players + PRESETS.index(preset)
    options = {"preset": preset, "auto-best-line": players == 3}
    assert _compare_game(VOLUSPA.new_game(players=players, seed=seed, options=options), Rng(seed)) > 0


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 5),
    kinds=st.sets(st.sampled_from(CODES), min_size=1),
    no_late_hel=st.booleans(),
    auto=st.booleans(),
)
def test_both_engines_agree_on_any_tile_set(
    seed: int, players: int, kinds: set[str], no_late_hel: bool, auto: bool
) -> None:
    chosen = sorted(kinds | {"OD"})
    options = {"kinds": chosen, "no-late-hel": no_late_hel and "HE" in chosen, "auto-best-line": auto}
    _compare_game(VOLUSPA.new_game(players=players, seed=seed, options=options), Rng(seed))


def test_rollouts_and_greedy_stay_legal() -> None:
    state = VOLUSPA.new_game(players=3, seed=5, options={"preset": "all+lightning"})
    fast = search_engine.to_search(state)
    assert fast is not None
    for seed in range(20):
        world = fast.clone()
        world.reseed(seed)
        world.rollout(10_000, 300)
        assert world.is_terminal()
        assert sorted(world.ranking()) in ([1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1])
    greedy = fast.greedy()
    assert greedy in fast.legal_actions(fast.current)
    assert fast.best_of(fast.legal_actions(fast.current)[:5]) in fast.legal_actions(fast.current)[:5]


def test_redeal_keeps_what_the_seat_sees() -> None:
    state = VOLUSPA.new_game(players=3, seed=8, options={"preset": "saga"})
    rng = Rng(3)
    for _ in range(20):
        legal = state.legal_actions(state.current)
        state.apply_quiet(state.current, legal[rng.below(len(legal))])
    fast = search_engine.to_search(state)
    assert fast is not None
    before = fast.export()
    for seed in range(10):
        world = fast.clone()
        world.redeal(0, seed)
        after = world.export()
        for key in before:
            if key in ("hands", "pile"):
                continue
            assert after[key] == before[key]
        assert after["hands"][0] == before["hands"][0]
        assert len(after["pile"]) == len(before["pile"])
        for seat in (1, 2):
            assert sum(after["hands"][seat]) == sum(before["hands"][seat])
            assert after["hands"][seat][8] == before["hands"][seat][8]  # Hels are public
        pooled_before = sorted(
            before["pile"] + [k for s in (1, 2) for k, n in enumerate(before["hands"][s]) for _ in range(n)]
        )
        pooled_after = sorted(
            after["pile"] + [k for s in (1, 2) for k, n in enumerate(after["hands"][s]) for _ in range(n)]
        )
        assert pooled_after == pooled_before


def test_boards_too_wide_for_the_grid_fall_back() -> None:
    config = VOLUSPA.config({"preset": "base"}, players=2)
    far = VoluspaState.from_position(config, parse_board("origin 70,0\nTH OD"), [[TH], [OD]])
    assert search_engine.to_search(far) is None
    near = VoluspaState.from_position(config, parse_board("origin 50,0\nTH OD"), [[TH], [OD]])
    assert search_engine.to_search(near) is not None


@pytest.mark.parametrize(
    ("board", "move"),
    [
        (".  SK .\nSK .  SK\n.  SK .", "SS@1,1"),  # row and column both 3
        (".  SK .\nSK SK SK\n.  SK .", "LB@1,1"),  # two equally short lines, 3 each
        (".  SK .\nSK SK SK\n.  SK .", "FR+ FR+ LB@1,1"),
    ],
)
def test_the_plain_line_form_reads_the_same_in_both_engines(board: str, move: str) -> None:
    # The bots use the listed forms (SS@x,y:row / :col), but a game record may hold the
    # plain form where the choice makes no difference; the C engine, built from such a
    # position or handed its code, scores it as the row, as the reference engine does.
    config = VOLUSPA.config({"kinds": list(CODES)}, players=2)
    action = parse_action(move)
    assert isinstance(action, Place)
    hand = [action.tile, *([CODE_INDEX["FR"]] * action.boost), OD]
    state = VoluspaState.from_position(config, parse_board(board), [hand, [OD]])
    fast = search_engine.to_search(state)
    assert fast is not None
    code = search_engine.encode(action)
    assert code is not None and search_engine.decode(code) == action
    before = state.scores()[0]
    state.apply(0, action)
    assert fast.points(code) == state.scores()[0] - before > 0
    fast.apply_quiet(0, code)
    assert fast.export() == search_engine.export_reference(state)
