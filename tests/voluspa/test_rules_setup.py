"""The tile table, presets and setup."""

from __future__ import annotations

import pytest

from meadhall.games.voluspa import VOLUSPA
from meadhall.games.voluspa.tiles import BOOSTER_SUPPLY, CODE_INDEX, COUNTS, FACE, HE, KINDS, TR

TABLE = {
    "OD": (6, 8),
    "TH": (8, 7),
    "TR": (6, 6),
    "DR": (8, 5),
    "FE": (8, 4),
    "SK": (9, 3),
    "VA": (9, 2),
    "LO": (6, 1),
    "HE": (5, None),
    "HM": (8, 3),
    "JO": (6, 5),
    "SS": (6, 6),
    "DW": (6, 2),
    "FR": (8, 3),
    "RA": (6, 4),
    "NI": (5, 7),
    "LB": (6, 0),
}

BASE = ["OD", "TH", "TR", "DR", "FE", "SK", "VA", "LO"]


@pytest.mark.parametrize("code", list(TABLE))
def test_tile_table(code: str) -> None:
    count, value = TABLE[code]
    kind = KINDS[CODE_INDEX[code]]
    assert kind.count == count
    assert kind.value == value
    assert COUNTS[CODE_INDEX[code]] == count
    assert FACE[CODE_INDEX[code]] == (value or 0)


def test_booster_tokens() -> None:
    assert BOOSTER_SUPPLY == {2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 1, 11: 1, 12: 1}
    assert sum(BOOSTER_SUPPLY.values()) == 16


@pytest.mark.parametrize(
    ("preset", "extra"),
    [
        ("base", []),
        ("saga", ["HE", "HM", "JO", "SS"]),
        ("order", ["DW", "FR", "RA", "NI"]),
        ("king-of-the-giants", ["HM", "JO", "FR", "NI"]),
        ("rise-of-the-serpents", ["SS", "HE", "FR", "DW"]),
        ("master-of-ravens", ["HM", "HE", "RA", "NI"]),
        ("all", ["HE", "HM", "JO", "SS", "DW", "FR", "RA", "NI"]),
    ],
)
def test_presets_follow_the_recommended_sets(preset: str, extra: list[str]) -> None:
    kinds = VOLUSPA.validate_options({"preset": preset}, players=2)["kinds"]
    assert sorted(kinds) == sorted(BASE + extra)
    with_bolt = VOLUSPA.validate_options({"preset": preset + "+lightning"}, players=2)["kinds"]
    assert sorted(with_bolt) == sorted([*BASE, *extra, "LB"])


@pytest.mark.parametrize("seed", range(12))
def test_setup_deals_five_each_and_a_start_tile_that_is_not_a_troll(seed: int) -> None:
    players = 2 + seed % 4
    state = VOLUSPA.new_game(players=players, seed=seed, options={"preset": "all"})
    assert len(state.board) == 1
    (start,) = state.board.values()
    assert start & 31 != TR
    for seat in range(players):
        assert state.hand_size(seat) == 5
    assert 0 <= state.current < players
    # every tile of the configured kinds is somewhere: pile, hands, board, box
    totals = state.tile_count()
    for code in VOLUSPA.validate_options({"preset": "all"}, players=2)["kinds"]:
        assert totals[CODE_INDEX[code]] == COUNTS[CODE_INDEX[code]]
    assert len(state.pile) == sum(COUNTS) - COUNTS[CODE_INDEX["LB"]] - COUNTS[HE] - 1 - 5 * players


def test_a_troll_only_start_is_redrawn() -> None:
    # With only Trolls and Odins in the game, the start tile is always an Odin.
    for seed in range(20):
        state = VOLUSPA.new_game(players=2, seed=seed, options={"kinds": ["TR", "OD"]})
        (start,) = state.board.values()
        assert start & 31 == CODE_INDEX["OD"]


def test_same_seed_same_setup() -> None:
    one = VOLUSPA.new_game(players=3, seed=99, options={"preset": "all"})
    two = VOLUSPA.new_game(players=3, seed=99, options={"preset": "all"})
    assert one.fingerprint() == two.fingerprint()
