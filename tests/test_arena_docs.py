"""Every arena table in docs/bots.md and docs/research.md is what the arena computes from the games it links.

A table pasted by hand, or left behind when a resumed run added games, fails here: the
table is rebuilt from the game records of the JSON file its section links to (the
arena's own summary, with its seeded bootstrap), not from the summary stored beside them.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from meadhall.lab.arena import BotSummary, GameResult, format_table, summarize

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RESULTS = ROOT / "results" / "arena"
TABLE = re.compile(r"^\| bot \| games \|.*?(?=\n\n|\n?\Z)", flags=re.S | re.M)
JSON_LINK = re.compile(r"\(\.\./results/arena/([\w.-]+\.json)\)")
PROGRESS = re.compile(
    r"\*\*(?P<done>\d+) of the (?P<target>\d+) games\*\* so far; (?P<bot>\w+) won "
    r"(?P<rate>[\d.]+)% \(95% interval (?P<low>[\d.]+)–(?P<high>[\d.]+)%\)"
)


#: The pages with arena tables.
PAGES = ("bots.md", "research.md")


def _sections() -> list[str]:
    return [
        section for page in PAGES for section in re.split(r"\n(?=#{2,3} )", (DOCS / page).read_text(encoding="utf-8"))
    ]


@cache
def _summary(name: str) -> tuple[BotSummary, ...]:
    data = json.loads((RESULTS / name).read_text(encoding="utf-8"))
    results = [GameResult(**game) for game in data["games"]]
    assert len(results) == data["finished_games"], name
    return tuple(summarize(results, list(dict.fromkeys(data["config"]["bots"]))))


def _linked_tables() -> list[tuple[str, str, str]]:
    """(section title, JSON file name, table) for every table of the pages.

    A section (a ``##`` or ``###`` heading) holds its tables in the order of its JSON
    links; a section with tables must link one JSON file per table.
    """
    found: list[tuple[str, str, str]] = []
    for section in _sections():
        tables = TABLE.findall(section)
        if not tables:
            continue
        title = section.splitlines()[0]
        links = JSON_LINK.findall(section)
        assert len(links) == len(tables), f"{title}: {len(tables)} tables but JSON links {links}"
        found.extend((title, link, table) for link, table in zip(links, tables, strict=True))
    return found


TABLES = _linked_tables()


def test_the_page_has_its_arena_tables() -> None:
    # docs/bots.md: Völuspá 2; Blood Rage 4 with four players, 4 with three and five;
    # Valda 2 with two players, 5 with three to five. docs/research.md: the trained policy.
    assert len(TABLES) >= 18


@pytest.mark.parametrize(("title", "name", "table"), TABLES, ids=[name for _, name, _ in TABLES])
def test_table_is_the_arena_summary_of_its_games(title: str, name: str, table: str) -> None:
    expected = format_table(_summary(name), markdown=True)
    assert table.strip() == expected, f"{title}: the table differs from {name}'s games:\n{expected}"


def test_runs_in_progress_say_how_far_they_are() -> None:
    """A run still in progress states its games and the lone bot's win rate as its JSON has them.

    The sentence is "**N of the 400 games** so far; ISMCTS won R% (95% interval L–H%)".
    """
    checked = 0
    for section in _sections():
        for match in PROGRESS.finditer(section):
            name = JSON_LINK.findall(section[: match.start()])[-1]
            lone = _summary(name)[0]
            data = json.loads((RESULTS / name).read_text(encoding="utf-8"))
            assert (int(match["done"]), int(match["target"])) == (lone.games, data["config"]["games"]), name
            stated = (match["rate"], match["low"], match["high"])
            assert stated == tuple(f"{100 * x:.1f}" for x in (lone.win_rate, lone.win_low, lone.win_high)), name
            checked += 1
    # Every such sentence must be in the form read above, or it would go unchecked.
    assert checked == len(re.findall(r"games\*\* so far", "\n".join(_sections())))
