"""The Völuspá tile table, read from ``data/tiles.json`` and checked against its schema.

The table is content (counts, values, names, presets, booster tokens); the engine
implements each power once, keyed by the tile's two-letter code. Kind indices are the
tile's position in the table and are used everywhere in the engine for speed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

#: Codes the engine implements a power (or plain value) for.
KNOWN_CODES = (
    "OD", "TH", "TR", "DR", "FE", "SK", "VA", "LO",
    "HE", "HM", "JO", "SS", "DW", "FR", "RA", "NI", "LB",
)  # fmt: skip


class TileDataError(ValueError):
    """The tile table does not match its schema."""


@dataclass(frozen=True)
class TileKind:
    """One kind of tile: its code, name, count in the box, value and power text."""

    index: int
    code: str
    name: str
    count: int
    value: int | None
    module: str
    power: str


@dataclass(frozen=True)
class Preset:
    """A named set of tile kinds."""

    name: str
    title: str
    kinds: tuple[str, ...]


def _require(condition: object, message: str) -> None:
    if not condition:
        raise TileDataError(f"tiles.json: {message}")


def parse_table(data: Any) -> tuple[tuple[TileKind, ...], dict[int, int], dict[str, Preset]]:
    """Check tile-table data (the schema in ``tiles.schema.json``) and return it typed."""
    _require(isinstance(data, dict), "the table is a JSON object")
    _require(data.get("schema") == "meadhall-voluspa-tiles/1", "schema must be meadhall-voluspa-tiles/1")
    allowed = {"schema", "label", "tiles", "booster_tokens", "presets"}
    _require(set(data) <= allowed, f"unknown keys {sorted(set(data) - allowed)}")
    tiles = data.get("tiles")
    _require(isinstance(tiles, list) and 0 < len(tiles) < 32, "tiles is a list of 1 to 31 kinds")
    kinds: list[TileKind] = []
    seen: set[str] = set()
    fields = {"code", "name", "count", "value", "module", "power"}
    for index, item in enumerate(tiles):
        _require(isinstance(item, dict) and set(item) == fields, f"tile {index} needs exactly {sorted(fields)}")
        code = item["code"]
        _require(
            isinstance(code, str) and len(code) == 2 and code.isalpha() and code.isupper(),
            f"tile {index}: code is two capital letters",
        )
        _require(code not in seen, f"tile code {code} appears twice")
        seen.add(code)
        count, value = item["count"], item["value"]
        _require(isinstance(count, int) and not isinstance(count, bool) and count > 0, f"{code}: count >= 1")
        _require(
            value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0),
            f"{code}: value is a whole number >= 0 or null",
        )
        _require(item["module"] in ("base", "saga", "order", "lightning"), f"{code}: unknown module")
        _require(isinstance(item["name"], str) and item["name"], f"{code}: name is text")
        _require(isinstance(item["power"], str), f"{code}: power is text")
        kinds.append(TileKind(index, code, item["name"], count, value, item["module"], item["power"]))
    missing = [code for code in KNOWN_CODES if code not in seen]
    _require(not missing, f"the engine needs the kinds {missing}")
    unknown = [code for code in seen if code not in KNOWN_CODES]
    _require(not unknown, f"the engine has no power for {unknown}")
    tokens = data.get("booster_tokens")
    _require(isinstance(tokens, dict), "booster_tokens maps a value to a count")
    supply: dict[int, int] = {}
    for key, number in tokens.items():
        _require(
            str(key).isdigit() and isinstance(number, int) and number >= 0,
            f"booster token {key!r}: value and count are whole numbers",
        )
        supply[int(key)] = number
    presets: dict[str, Preset] = {}
    raw_presets = data.get("presets")
    _require(isinstance(raw_presets, dict) and raw_presets, "presets is a non-empty object")
    for name, preset in raw_presets.items():
        _require(isinstance(preset, dict) and set(preset) == {"kinds", "title"}, f"preset {name}: kinds and title")
        codes = preset["kinds"]
        _require(
            isinstance(codes, list) and codes and all(c in seen for c in codes),
            f"preset {name}: kinds must be known codes",
        )
        presets[name] = Preset(name, str(preset["title"]), tuple(codes))
    return tuple(kinds), supply, presets


def _load() -> tuple[tuple[TileKind, ...], dict[int, int], dict[str, Preset]]:
    text = resources.files("meadhall.games.voluspa").joinpath("data/tiles.json").read_text("utf-8")
    return parse_table(json.loads(text))


KINDS, BOOSTER_SUPPLY, PRESETS = _load()
NUM_KINDS = len(KINDS)
CODES: tuple[str, ...] = tuple(kind.code for kind in KINDS)
NAMES: tuple[str, ...] = tuple(kind.name for kind in KINDS)
COUNTS: tuple[int, ...] = tuple(kind.count for kind in KINDS)
CODE_INDEX: dict[str, int] = {code: index for index, code in enumerate(CODES)}
#: Face value by kind (Hel, which has none, is 0 here; the engine never asks it).
FACE: tuple[int, ...] = tuple(kind.value or 0 for kind in KINDS)
#: Highest booster token value; the supply is a list indexed by token value.
MAX_TOKEN = max(BOOSTER_SUPPLY)

OD, TH, TR, DR, FE, SK, VA, LO, HE, HM, JO, SS, DW, FR, RA, NI, LB = (CODE_INDEX[c] for c in KNOWN_CODES)


def initial_supply() -> list[int]:
    """The full booster-token supply, indexed by token value."""
    supply = [0] * (MAX_TOKEN + 1)
    for value, count in BOOSTER_SUPPLY.items():
        supply[value] = count
    return supply


def kind_of(code: str) -> int:
    """The kind index of a tile code (case-insensitive); raises ``KeyError``."""
    return CODE_INDEX[code.upper()]
