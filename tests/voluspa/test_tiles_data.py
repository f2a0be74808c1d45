"""The tile table is data with a schema; the loader refuses malformed tables."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

from meadhall.games.voluspa.tiles import (
    BOOSTER_SUPPLY,
    CODES,
    COUNTS,
    FACE,
    KINDS,
    PRESETS,
    TileDataError,
    parse_table,
)

DATA = resources.files("meadhall.games.voluspa").joinpath("data")


def _load(name: str) -> Any:
    return json.loads(DATA.joinpath(name).read_text("utf-8"))


def test_tiles_json_matches_its_schema() -> None:
    jsonschema.validate(_load("tiles.json"), _load("tiles.schema.json"))


def test_table_matches_the_rulings() -> None:
    table = {kind.code: (kind.count, kind.value) for kind in KINDS}
    assert table == {
        "OD": (6, 8), "TH": (8, 7), "TR": (6, 6), "DR": (8, 5), "FE": (8, 4), "SK": (9, 3),
        "VA": (9, 2), "LO": (6, 1), "HE": (5, None), "HM": (8, 3), "JO": (6, 5), "SS": (6, 6),
        "DW": (6, 2), "FR": (8, 3), "RA": (6, 4), "NI": (5, 7), "LB": (6, 0),
    }  # fmt: skip
    assert sum(COUNTS[CODES.index(c)] for c in PRESETS["base"].kinds) == 60
    assert BOOSTER_SUPPLY == {2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 1, 11: 1, 12: 1}
    assert sum(BOOSTER_SUPPLY.values()) == 16
    assert FACE[CODES.index("HE")] == 0


def test_recommended_sets() -> None:
    assert set(PRESETS["king-of-the-giants"].kinds) - set(PRESETS["base"].kinds) == {"HM", "JO", "FR", "NI"}
    assert set(PRESETS["rise-of-the-serpents"].kinds) - set(PRESETS["base"].kinds) == {"SS", "HE", "FR", "DW"}
    assert set(PRESETS["master-of-ravens"].kinds) - set(PRESETS["base"].kinds) == {"HM", "HE", "RA", "NI"}
    assert set(PRESETS["order"].kinds) - set(PRESETS["base"].kinds) == {"DW", "FR", "RA", "NI"}
    assert set(PRESETS["saga"].kinds) - set(PRESETS["base"].kinds) == {"HE", "HM", "JO", "SS"}


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(schema="x"), "schema must be"),
        (lambda d: d["tiles"].append(dict(d["tiles"][0])), "appears twice"),
        (lambda d: d["tiles"].pop(0), "the engine needs the kinds \\['OD'\\]"),
        (lambda d: d["tiles"][1].update(count=0), "TH: count >= 1"),
        (lambda d: d["tiles"][1].update(value=-1), "TH: value"),
        (lambda d: d["tiles"][1].update(code="Th"), "two capital letters"),
        (lambda d: d["presets"]["base"]["kinds"].append("ZZ"), "preset base: kinds must be known"),
        (lambda d: d.update(extra=1), "unknown keys"),
    ],
)
def test_malformed_tables_are_refused(mutate: Any, message: str) -> None:
    data = copy.deepcopy(_load("tiles.json"))
    mutate(data)
    with pytest.raises(TileDataError, match=message):
        parse_table(data)
