"""The Valda C engine's bridge: numberings and rules checked at import, pack tables in the one cache."""

from __future__ import annotations

import gc
import os
from types import ModuleType

import pytest

from meadhall.core.content import pack_derived
from meadhall.core.native import NativeMismatch
from meadhall.core.rng import Rng
from meadhall.games.valda import GAME, native
from meadhall.games.valda.content import default_content
from meadhall.games.valda.state import HAND_LIMIT

REQUIRED = os.environ.get("MEADHALL_REQUIRE_SEARCH") == "1"
pytestmark = pytest.mark.skipif(
    not native.AVAILABLE and not REQUIRED, reason="the C search engine is not built here (no C compiler?)"
)


def _engine() -> ModuleType:
    assert native._native is not None
    return native._native


def _changed(table: str, key: str, value: object) -> ModuleType:
    """A module like the built engine with one entry of one of its tables changed."""
    engine = _engine()
    stale = ModuleType(engine.__name__)
    for name in ("NAMES", "RULES", "LAYOUT"):
        setattr(stale, name, dict(getattr(engine, name)))
    getattr(stale, table)[key] = value
    return stale


def test_the_built_engine_numbers_and_counts_as_the_rules() -> None:
    native.check(_engine())
    assert native.PHASES[0] == "setup" and native.DECISIONS[0] is None  # read from the engine


@pytest.mark.parametrize(
    ("table", "key", "value", "message"),
    [
        ("RULES", "HAND_LIMIT", HAND_LIMIT + 1, rf"RULES\['HAND_LIMIT'\] is {HAND_LIMIT + 1} there, {HAND_LIMIT} here"),
        ("RULES", "SAFE_ZONES", (5, 12, 21), r"RULES\['SAFE_ZONES'\] is \(5, 12, 21\) there, \(5, 12, 20\) here"),
        ("NAMES", "effects", ("followers", "gain"), r"NAMES\['effects'\] is \('followers', 'gain'\) there"),
        ("NAMES", "options", ("bullseye",), r"other god weapon options than the rulebook's"),
        ("LAYOUT", "MINE", 6, r"numbers the mine and the blood drill otherwise"),
    ],
)
def test_an_engine_built_from_other_numbers_does_not_load(table: str, key: str, value: object, message: str) -> None:
    with pytest.raises(NativeMismatch, match=message):
        native.check(_changed(table, key, value))


def test_a_packs_tables_are_kept_in_the_one_content_cache() -> None:
    content = default_content()
    found = native.tables(content)
    assert found is not None
    assert native.tables(content) is found
    assert pack_derived(content, native._registered) is found


def test_the_c_tables_live_while_a_state_uses_them() -> None:
    state = GAME.new_game(players=3, seed=4)
    own = native.NativeTables(state.config.content)  # outside the cache: dropped below
    fast = _engine().build(own.register(), own.export(state))
    del own
    gc.collect()
    world = fast.clone()
    rng = Rng(5)
    for _ in range(30):
        seat = world.to_move()[0]
        legal = world.legal_actions(seat)
        world.apply_quiet(seat, legal[rng.below(len(legal))])
    assert world.export()["error"] == 0
