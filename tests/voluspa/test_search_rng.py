"""The Völuspá C engine draws with meadhall.core.rng's generator (core/rng.h) and numbers as the rules do."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from meadhall.core.native import NativeMismatch
from meadhall.core.rng import Rng
from meadhall.games.voluspa import VOLUSPA
from meadhall.games.voluspa import search as search_engine
from meadhall.games.voluspa.state import HAND_SIZE, MAX_LINE, STAGE_NAMES
from meadhall.games.voluspa.tiles import KNOWN_CODES

REQUIRED = os.environ.get("MEADHALL_REQUIRE_SEARCH") == "1"
pytestmark = pytest.mark.skipif(
    not search_engine.AVAILABLE and not REQUIRED,
    reason="the C search engine is not built here (no C compiler?); bots use the Python engine",
)


@pytest.mark.parametrize("seed", [1, 77, 2**63 + 5])
def test_a_random_playout_draws_what_core_rng_draws(seed: int) -> None:
    # A random playout (epsilon 1000) picks codes[below(len(codes))] at every step; the same
    # picks with the Python generator seeded alike must reach the same end.
    state = VOLUSPA.new_game(players=3, seed=11, options={"preset": "saga"})
    fast = search_engine.to_search(state)
    assert fast is not None
    played = fast.clone()
    played.reseed(seed)
    steps = played.rollout(10_000, 1000)
    assert steps > 20 and played.is_terminal()
    followed = fast.clone()
    rng = Rng(seed)
    for _ in range(steps):
        codes = followed.legal_actions(followed.current)
        followed.apply_quiet(followed.current, codes[rng.below(len(codes))])
    assert followed.export() == played.export()


def test_the_one_form_round_trips() -> None:
    state = VOLUSPA.new_game(players=4, seed=3, options={"preset": "all+lightning", "auto-best-line": True})
    exported = search_engine.export_reference(state)
    fast = search_engine.to_search(state)
    assert fast is not None
    assert fast.export() == exported
    assert search_engine._native is not None
    rebuilt = search_engine._native.build(fast.export())
    assert rebuilt is not None and rebuilt.export() == exported


def test_the_engine_numbers_tiles_and_stages_and_counts_as_the_rules() -> None:
    native = search_engine._native
    assert native is not None
    assert native.NAMES == {"tiles": KNOWN_CODES, "stages": STAGE_NAMES}
    assert native.RULES == {"HAND_SIZE": HAND_SIZE, "MAX_LINE": MAX_LINE}
    stale = ModuleType(native.__name__)
    stale.NAMES = {**native.NAMES, "tiles": tuple(reversed(KNOWN_CODES))}  # type: ignore[attr-defined]
    stale.RULES = {**native.RULES, "HAND_SIZE": HAND_SIZE + 1}  # type: ignore[attr-defined]
    with pytest.raises(NativeMismatch, match=r"NAMES\['tiles'\].*RULES\['HAND_SIZE'\] is 6 there, 5 here"):
        search_engine.check(stale)


def test_a_world_sample_takes_the_generators_next_draw_in_c() -> None:
    state = VOLUSPA.new_game(players=3, seed=8, options={"preset": "saga"})
    rng = Rng(3)
    for _ in range(15):
        legal = state.legal_actions(state.current)
        state.apply_quiet(state.current, legal[rng.below(len(legal))])
    sampler = VOLUSPA.search_adapter().sampler(state.view(1))
    assert isinstance(sampler, search_engine.NativeSampler)
    ours, theirs = Rng(21), Rng(21)
    for _ in range(5):
        world = sampler.sample(ours)
        expected = sampler.template.clone()
        expected.redeal(sampler.seat, theirs.next64())
        assert world.export() == expected.export()
        assert ours.getstate() == theirs.getstate()
