"""docs/rules/bloodrage-valhalla.md stays true to the engine and the default content.

The numbers, names and card texts in the page's tables are compared with the default
content pack, the notation examples must read back to themselves, and the example game
is replayed move by move: every line must be a legal action at that moment.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from meadhall.games.bloodrage_valhalla import BLOODRAGE, parse_action
from meadhall.games.bloodrage_valhalla.content import CONDITIONS, EFFECTS, Content, describe_card, describe_effect
from meadhall.games.bloodrage_valhalla.game import INFO, default_content
from meadhall.games.bloodrage_valhalla.state import ELITES, LARGE_BASES, SLOTS, SMALL_BASES, WARRIORS, BloodRageState
from meadhall.games.bloodrage_valhalla.words import CLANS  # the clan names the words give each seat

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "bloodrage-valhalla.md"
STAT_NAMES = {"rage": "Rage", "axes": "Axes", "horns": "Horns"}
REWARD_WORDS = {
    "rage": "raise Rage",
    "axes": "raise Axes",
    "horns": "raise Horns",
    "choice": "raise a stat of your choice",
    "all": "raise all three stats",
}
EXAMPLE_SETUP = 'BLOODRAGE.new_game(players=3, seed=1, options={"gods": ["thor", "loki", "tyr"]})'


@lru_cache(maxsize=1)
def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _content() -> Content:
    return default_content()


def _section(number: int) -> str:
    """The text of section ``number`` (from its ``## N.`` heading to the next ``## ``)."""
    text = _text()
    match = re.search(rf"^## {number}\. .*$", text, flags=re.M)
    assert match is not None, f"no section {number}"
    rest = text[match.end() :]
    following = re.search(r"^## ", rest, flags=re.M)
    return rest[: following.start()] if following else rest


def _tables(section: str) -> list[list[list[str]]]:
    """Every markdown table in ``section``: a list of rows (header first), cells stripped."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*section.splitlines(), ""]:
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= {"-"} for cell in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _table(section: str, *header: str) -> list[list[str]]:
    """The rows (without the header) of the table whose header starts with ``header``."""
    for table in _tables(section):
        if tuple(table[0][: len(header)]) == header:
            return table[1:]
    raise AssertionError(f"no table with header {header} in the section")


def _code(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


# Names and numbers ------------------------------------------------------------------------


def test_every_region_god_and_monster_name_appears() -> None:
    content = _content()
    names = [r.name for r in content.regions.values()]
    names += [g.name for g in content.gods.values()]
    names += [m.name for m in content.monsters.values()]
    missing = [name for name in names if name not in _text()]
    assert not missing, f"not in the rules page: {missing}"


def test_setup_numbers() -> None:
    content = _content()
    setup = _section(2)
    assert f"{WARRIORS} Warriors and {ELITES} Elites" in setup
    assert f"{SMALL_BASES} small and {LARGE_BASES} large" in setup
    start = ", ".join(f"{STAT_NAMES[s]} {content.tracks[s][0]}" for s in ("rage", "axes", "horns"))
    assert start in setup
    assert f"**{'Seven' if SLOTS == 7 else SLOTS} slots**" in setup
    assert f"{INFO.min_players} to {INFO.max_players} players" in setup
    clans = _table(setup, "seat", "clan")
    assert [(int(seat), clan, int(index)) for seat, clan, index in clans] == [
        (i + 1, name, i) for i, name in enumerate(CLANS)
    ]


def test_tracks_valor_and_legendary_tables() -> None:
    content = _content()
    section = _section(8)
    rows = {row[0]: row[1:] for row in _table(section, "stat", "step 1")}
    assert set(rows) == set(STAT_NAMES.values())
    for stat, name in STAT_NAMES.items():
        assert [int(v) for v in rows[name]] == list(content.tracks[stat])
    (valor,) = _table(section, "Glory", "Age 1")
    assert [int(v) for v in valor[1:]] == list(content.valor_glory)
    legendary = _table(section, "legendary bonus")
    assert [int(row[1]) for row in legendary] == [content.legendary["high"], content.legendary["top"]]
    end = _table(_section(7), "stat at")
    assert [row[1] for row in end] == [f"+{content.legendary['high']} Glory", f"+{content.legendary['top']} Glory"]
    per_age = " / ".join(str(v) for v in content.valor_glory)
    assert per_age in _section(1)


def test_map_table() -> None:
    content = _content()
    rows = _table(_section(8), "token", "region")
    assert len(rows) == len(content.regions)
    by_name = {r.name: r for r in content.regions.values()}
    for token, name, reward, neighbours in rows:
        region = by_name[name]
        assert token == (str(region.token) if region.token is not None else "-"), name
        assert reward == REWARD_WORDS[region.reward], name
        assert neighbours == ", ".join(content.regions[n].name for n in region.neighbours), name


def test_gods_table() -> None:
    content = _content()
    rows = _table(_section(8), "god", "deck theme")
    assert len(rows) == len(content.gods)
    by_name = {g.name: g for g in content.gods.values()}
    for name, theme, bonus in rows:
        god = by_name[name]
        assert theme == god.theme
        assert bonus == "; ".join(describe_effect(e) for e in god.bonus), name
    first = ", ".join(content.gods[g].name for g in content.first_game_gods[:2])
    assert f"{first} and {content.gods[content.first_game_gods[2]].name}" in _section(9)


def test_monsters_table() -> None:
    content = _content()
    rows = _table(_section(8), "monster", "STR")
    assert len(rows) == len(content.monsters)
    by_name = {m.name: m for m in content.monsters.values()}
    for name, strength, cost, base, ability in rows:
        monster = by_name[name]
        assert int(strength) == monster.strength, name
        assert int(cost) == monster.cost, name
        assert base == monster.base, name
        assert ability == ("; ".join(describe_effect(e) for e in monster.abilities) or "(none)"), name


def test_deck_counts() -> None:
    content = _content()
    rows = _table(_section(8), "god", "battle")
    counts = Counter(
        (card.god, card.upgrade or card.kind) for card in content.cards.values() if card.god and not card.rainbow
    )
    by_name = {g.name: g.id for g in content.gods.values()}
    seen = set()
    for name, battle, elite, clan, quest, total in rows:
        if name == "monsters":
            monsters = sum(1 for c in content.cards.values() if c.god is None)
            assert int(total) == monsters == len(content.monsters)
            continue
        god = by_name[name]
        seen.add(god)
        numbers = [int(battle), int(elite), int(clan), int(quest)]
        assert numbers == [counts[(god, k)] for k in ("battle", "elite", "clan", "quest")], name
        assert int(total) == len(content.god_cards(god)) == sum(numbers)
    assert seen == set(content.gods)


def test_card_examples_are_the_cards_text() -> None:
    content = _content()
    rows = _table(_section(8), "card", "name")
    rows += _table(_section(8).split("### Rainbow Bridge")[1], "card", "name")
    assert len(rows) >= 10
    for card_cell, name, text in rows:
        (card_id,) = _code(card_cell)
        card = content.cards[card_id]
        assert name == card.name, card_id
        assert text == describe_card(card, content), card_id
    rainbow = {card.id for card in content.cards.values() if card.rainbow}
    assert rainbow <= {_code(row[0])[0] for row in rows}


def test_options_and_presets() -> None:
    section = _section(9)
    options = {_code(row[0])[0] for row in _table(section, "option", "default")}
    assert options == {spec.name for spec in INFO.options}
    presets = {_code(row[0])[0] for row in _table(section, "preset", "options")}
    assert presets == set(INFO.presets)
    lines = re.findall(r"^meadhall play .*$", section, flags=re.M)
    assert lines
    for line in lines:
        players = re.search(r"--players (\d)", line)
        assert players is not None, line
        given: dict[str, str] = dict(option.partition("=")[::2] for option in re.findall(r"--option (\S+)", line))
        preset = re.search(r"--preset (\S+)", line)
        if preset is not None:
            given["preset"] = preset.group(1)
        BLOODRAGE.validate_options(given, players=int(players.group(1)))


# Content pack vocabulary -------------------------------------------------------------------


def test_effect_and_condition_vocabulary() -> None:
    section = _section(12)
    effect_rows = [row for table in _tables(section) if table[0][0] == "`do`" for row in table[1:]]
    documented: dict[str, set[str]] = {}
    for row in effect_rows:
        for name in _code(row[0]):
            documented.setdefault(name, set()).update(_code(row[1]))
    assert set(documented) == set(EFFECTS), "the effect tables list exactly the engine's effects"
    for name, params in EFFECTS.items():
        assert set(params) <= documented[name], f"effect {name}: parameters {sorted(params)}"
    conditions = {_code(row[0])[0]: set(_code(row[1])) for row in _table(section, "`type`")}
    assert set(conditions) == set(CONDITIONS)
    for name, params in CONDITIONS.items():
        assert set(params) <= conditions[name], f"condition {name}"
    timings = {_code(row[0])[0] for row in _table(section, "`when`")}
    assert timings == {"reveal", "win", "lose"}


# Notation ------------------------------------------------------------------------------


def test_notation_table_round_trips() -> None:
    rows = _table(_section(11), "action", "meaning")
    assert len(rows) >= 15
    kinds = set()
    for row in rows:
        for text in _code(row[0]):
            action = parse_action(text)
            assert str(action) == text
            kinds.add(action.kind)
    assert {"pick", "summon", "march", "move", "done", "upgrade", "quest", "contest", "pass", "join", "stay"} <= kinds
    assert {"play", "raise", "destroy", "kill", "skip", "reinforce", "drop"} <= kinds


def _example() -> list[tuple[int, str]]:
    section = _section(11)
    blocks = re.findall(r"```text\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1, "one example game in section 11"
    (block,) = blocks
    assert f"# {EXAMPLE_SETUP}" in block
    moves: list[tuple[int, str]] = []
    for line in block.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        clan, text = line.split()
        moves.append((CLANS.index(clan), text))
    return moves


def test_example_game_actions_read_back() -> None:
    moves = _example()
    assert len(moves) >= 30
    for _, text in moves:
        assert str(parse_action(text)) == text


def test_example_game_is_real() -> None:
    state = BLOODRAGE.new_game(players=3, seed=1, options={"gods": ["thor", "loki", "tyr"]})
    assert isinstance(state, BloodRageState)
    content = _content()
    section = _section(11)
    (god_region,) = state.gods_at
    tokens = " and ".join(
        content.regions[r].name for r in sorted(state.region_tokens, key=lambda r: content.regions[r].token or 0)
    )
    assert f"{content.gods[state.gods_at[god_region]].name} arrives in {content.regions[god_region].name}" in section
    assert f"the region tokens lie in {tokens}" in section
    assert f"{CLANS[state.first]} is the first player" in section
    for seat, text in _example():
        action = parse_action(text)
        legal = state.legal_actions(seat)
        assert action in legal, f"{CLANS[seat]} {text} is not legal here: {[str(a) for a in legal]}"
        state.apply(seat, action)
    bear, _, wolf = state.clans
    values = {s: state.stat_value(2, s) for s in STAT_NAMES}
    summary = (
        f"After these moves Bear has {bear.glory} Glory and Axes {state.stat_value(0, 'axes')}, and Wolf has "
        f"{wolf.glory} Glory with Rage {values['rage']}, Axes {values['axes']}\nand Horns {values['horns']}. "
        f"Bear has {bear.rage} Rage left, Raven {state.clans[1].rage} and Wolf {wolf.rage}; it is "
        f"{CLANS[state.to_move()[0]]}'s turn."
    )
    assert summary in section


@pytest.mark.parametrize("number", range(1, 13))
def test_sections_are_numbered(number: int) -> None:
    assert _section(number).strip()
