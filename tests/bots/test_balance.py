"""The balance report: its statistics on hand-built games, and the command as a user runs it."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

from meadhall.core.balance import MUST_PICK, BalanceSpec
from meadhall.core.registry import get_game
from meadhall.games.bloodrage_valhalla.balance import NO_MONSTER, favoured_gods
from meadhall.games.bloodrage_valhalla.game import default_content
from meadhall.lab.balance import (
    ChoiceEntry,
    Choices,
    GameRow,
    SeatRow,
    Summary,
    flag_of,
    format_report,
    min_samples,
    summarize,
    verdict,
    verdict_line,
)
from meadhall.lab.selfplay import Series, game_seed, lineup
from meadhall.lab.stats import interval, wilson

CONTENT = default_content()


def _spec() -> BalanceSpec:
    spec = get_game("bloodrage").balance_spec()
    assert spec is not None
    return spec


SPEC = _spec()
THOR, LOKI, TYR = (CONTENT.god_cards(god) for god in ("thor", "loki", "tyr"))


def _seat(
    seat: int,
    place: int,
    by_god: dict[str, int],
    drafted: list[str] | None = None,
    played: list[str] | None = None,
    monsters: list[str] | None = None,
    glory: int = 10,
    players: int = 3,
    first: int = 0,
) -> SeatRow:
    facts = {
        "favoured": favoured_gods(by_god),
        "drafted_by_god": by_god,
        "drafted": drafted or [],
        "played": played or [],
        "monsters": monsters or [],
    }
    return SeatRow(seat=seat, bot="greedy", order=(seat - first) % players, place=place, score=glory, facts=facts)


def _game(index: int, seats: list[SeatRow], gods: tuple[str, ...] = ("thor", "loki", "tyr")) -> GameRow:
    facts = {"gods": list(gods), "monsters_in_play": [], "first": 0}
    return GameRow(index=index, seed=index, facts=facts, seats=seats)


def _summarize(rows: list[GameRow], players: int) -> Summary:
    return summarize(rows, players, SPEC)


def _choices(summary: Summary) -> Choices:
    assert summary.choices is not None
    return summary.choices


def _cards(summary: Summary) -> dict[str, ChoiceEntry]:
    return {entry.key: entry for entry in _choices(summary).entries}


def _entries(summary: Any, name: str) -> dict[str, Any]:
    category = next(c for c in summary.categories if c.name == name)
    return {entry.key: entry for entry in category.entries}


def test_favoured_god_ties_split_the_seat() -> None:
    assert favoured_gods({"thor": 4, "loki": 4, "tyr": 2}) == ["loki", "thor"]
    assert favoured_gods({"thor": 0, "loki": 0, "tyr": 0}) == ["loki", "thor", "tyr"]
    rows = [
        _game(
            0,
            [
                _seat(0, 1, {"thor": 4, "loki": 4, "tyr": 2}, glory=30),  # a tie: half to each
                _seat(1, 2, {"thor": 5, "loki": 3, "tyr": 2}, glory=20),
                _seat(2, 3, {"thor": 1, "loki": 2, "tyr": 7}, glory=10),
            ],
        )
    ]
    summary = _summarize(rows, 3)
    favoured = _entries(summary, "favoured_god")
    assert math.isclose(favoured["thor"].samples, 1.5) and math.isclose(favoured["thor"].wins, 0.5)
    assert math.isclose(favoured["loki"].samples, 0.5) and math.isclose(favoured["loki"].win_rate, 1.0)
    assert favoured["tyr"].samples == 1 and favoured["tyr"].wins == 0
    assert math.isclose(favoured["thor"].mean_score, (0.5 * 30 + 20) / 1.5)
    assert math.isclose(sum(e.samples for e in favoured.values()), 3.0)
    in_game = _entries(summary, "god_in_game")
    assert in_game["thor"].samples == 3 and math.isclose(in_game["thor"].win_rate, 1 / 3)
    assert math.isclose(in_game["tyr"].extra["pick_share"], 11 / 30)
    assert summary.games == 1 and summary.fair_share == 1 / 3 and summary.mean_score == 20


def test_wilson_interval_is_the_arenas_and_takes_fractional_samples() -> None:
    assert interval(50, 100) == wilson(50, 100)
    low, high = interval(1.5, 2.5)
    assert 0.0 < low < 0.6 < high < 1.0
    assert interval(0, 0) == (0.0, 1.0)
    assert min_samples(200) == 20 and min_samples(4000) == 200


def test_must_pick_suspects_are_flagged() -> None:
    # Seat 0 drafts mostly Thor, plays one Thor card and always wins: Thor and that card are suspects.
    card, other = THOR[0], LOKI[0]
    rows = []
    for index in range(60):
        rows.append(
            _game(
                index,
                [
                    _seat(0, 1, {"thor": 6, "loki": 2, "tyr": 2}, [card, other], [card], ["draugr"], 40, 4),
                    _seat(1, 2, {"thor": 2, "loki": 6, "tyr": 2}, [LOKI[1]], [LOKI[1]], [], 30, 4),
                    _seat(2, 3, {"thor": 2, "loki": 2, "tyr": 6}, [TYR[0]], [TYR[0]], [], 20, 4),
                    _seat(3, 4, {"thor": 3, "loki": 2, "tyr": 5}, [THOR[1]], [THOR[1]], [], 10, 4),
                ],
            )
        )
    summary = _summarize(rows, 4)
    favoured = next(c for c in summary.categories if c.name == "favoured_god")
    assert favoured.verdict.suspects == ["thor"] and favoured.verdict.strict_suspects == ["thor"]
    assert math.isclose(favoured.verdict.spread, 1.0)
    thor = _entries(summary, "favoured_god")["thor"]
    assert thor.samples == 60 and thor.suspect and thor.low > 0.25
    assert not _entries(summary, "favoured_god")["tyr"].suspect
    monsters = _entries(summary, "monster")
    assert monsters["draugr"].suspect and monsters[NO_MONSTER].samples == 180
    monster_verdict = next(c for c in summary.categories if c.name == "monster").verdict
    assert monster_verdict.entries == 1 and monster_verdict.suspects == ["draugr"]  # "(none)" is shown, not judged
    assert _entries(summary, "seat")["0"].suspect and _entries(summary, "order")["0"].win_rate == 1.0
    by_card = _cards(summary)
    # Judged by drafting: both cards the winning seat drafted are suspects, played or not.
    assert _choices(summary).top[:2] == sorted([card, other]) and by_card[card].suspect and by_card[card].strict_suspect
    assert by_card[card].chosen_rate == 1.0 and by_card[card].low > 0.25
    assert by_card[card].used == 60 and by_card[card].offered == 60 and by_card[card].choice_rate == 1.0
    assert by_card[other].used == 0 and by_card[other].unused == 60 and by_card[other].unused_rate == 1.0
    assert by_card[other].suspect and by_card[other].used_rate == 0.0
    assert not by_card[THOR[1]].suspect and by_card[THOR[1]].used_rate == 0.0
    assert _choices(summary).verdict.suspects == sorted([card, other])
    assert _choices(summary).used_rate == 0.25 and by_card[card].above_used
    assert not by_card[LOKI[1]].above_used
    report = format_report(summary)
    assert "must-picks (ahead after the Bonferroni correction and by 5 points or more)" in report
    assert "MUST-PICK" in report
    assert "| key |" in format_report(summary, markdown=True)


def test_a_card_only_the_winners_play_but_everyone_drafts_is_not_a_suspect() -> None:
    # Every seat drafts the card; the seat that wins plays it (as a clan winning its battles
    # plays its best battle card). Drafting it says nothing about winning: no suspect,
    # though every seat that played it won.
    card = THOR[0]
    rows = []
    for index in range(80):
        winner = index % 4
        seats = [
            _seat(
                s, 1 if s == winner else 2 + (s > winner), {"thor": 3}, [card], [card] if s == winner else [], [], 10, 4
            )
            for s in range(4)
        ]
        rows.append(_game(index, seats))
    summary = _summarize(rows, 4)
    entry = _cards(summary)[card]
    assert entry.chosen == 320 and entry.chosen_rate == 0.25 and not entry.suspect
    assert entry.used == 80 and entry.used_rate == 1.0
    assert _choices(summary).verdict.suspects == []


def test_monsters_are_judged_by_drafting_and_their_owners_only_shown() -> None:
    # Every seat drafts Draugr's card and only the winner can afford to play it: owning
    # Draugr looks like a must-pick, drafting it is not. Seat 0 alone drafts the Ogre
    # Chieftain's card and always wins: that is a must-pick, owned or not.
    draugr, ogre = CONTENT.monster_card("draugr"), CONTENT.monster_card("ogre-chieftain")
    rows = []
    for index in range(80):
        winner = index % 4
        seats = []
        for s in range(4):
            place = 1 if s == winner else 2 + (s > winner)
            drafted = [draugr, ogre] if s == 0 else [draugr]
            seats.append(_seat(s, place, {"thor": 3}, drafted, [], ["draugr"] if s == winner else [], 10, 4))
        rows.append(_game(index, seats))
    for index in range(80, 140):
        seats = [_seat(0, 1, {"thor": 3}, [ogre], [], [], 10, 4)]
        seats += [_seat(s, s + 1, {"thor": 3}, [draugr], [], [], 10, 4) for s in (1, 2, 3)]
        rows.append(_game(index, seats))
    summary = _summarize(rows, 4)
    by_draft = _entries(summary, "monster_drafted")
    assert by_draft["draugr"].samples == 80 * 4 + 60 * 3 and not by_draft["draugr"].suspect
    assert by_draft["ogre-chieftain"].samples == 140 and by_draft["ogre-chieftain"].must_pick
    verdicts = {c.name: c.verdict for c in summary.categories}
    assert verdicts["monster_drafted"].must_picks == ["ogre-chieftain"]
    assert verdicts["monster"].must_picks == ["draugr"]  # computed, but an owner is only shown "ahead":
    owned = _entries(summary, "monster")
    assert owned["draugr"].win_rate == 1.0 and owned["draugr"].suspect  # shown, with its flag word "ahead"
    report = format_report(summary)
    assert "verdict (monster drafted): spread" in report and "must-picks (ahead after the Bonferroni" in report
    owned_line = next(line for line in report.splitlines() if line.startswith("verdict (monster):"))
    assert "ahead (95% interval above the 25.0% fair share): draugr" in owned_line and "must-picks" not in owned_line
    assert "Win rate by monster owned at the end (for information)" in report


def test_a_must_pick_is_ahead_after_the_correction_and_by_five_points() -> None:
    # Many samples make a small edge certain: 28% of 4,000 is ahead beyond doubt, but
    # by 3 points, not a must-pick. 32% of 1,000 is both. 40% of 30 is a big edge that
    # 30 samples do not establish.
    items = [("small", 4000.0, 1120.0, 0.28), ("big", 1000.0, 320.0, 0.32), ("few", 30.0, 12.0, 0.4)]
    items += [(f"fair-{i}", 1000.0, 250.0, 0.25) for i in range(5)]
    result = verdict(items, 0.25, 20)
    assert result.strict_suspects == ["small", "big"] and result.must_picks == ["big"]
    assert "few" not in result.suspects
    assert flag_of(True, True, True, MUST_PICK) == "MUST-PICK"
    assert flag_of(False, True, True, MUST_PICK) == "ahead!" and flag_of(False, False, True, MUST_PICK) == "ahead?"
    assert flag_of(True, True, True, None) == "ahead!"  # a seat is never a must-pick
    line = verdict_line("cards", result, 0.25, MUST_PICK)
    assert "must-picks (ahead after the Bonferroni correction and by 5 points or more): big;" in line
    assert "Bonferroni-corrected: small, big" in line


def test_too_few_samples_give_no_verdict() -> None:
    rows = [_game(0, [_seat(0, 1, {"thor": 1}), _seat(1, 2, {"loki": 1}), _seat(2, 3, {"tyr": 1})])]
    summary = _summarize(rows, 3)
    assert all(category.verdict.entries == 0 for category in summary.categories)
    assert _choices(summary).top == [] and "no entry has 20 samples yet" in format_report(summary)


def test_seeds_and_lineups() -> None:
    config = Series(game="bloodrage", bots=("greedy",), games=3, players=4, seed=2)
    assert [game_seed(config, i) for i in range(3)] == [2_000_006, 2_000_007, 2_000_008]
    assert lineup(1, ["a", "b"], 3) == ["b", "a", "b"]


def _balance(out: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", "balance", "--game", "bloodrage", "--bots", "random",
         "--games", "6", "--players", "3", "--jobs", "1", "--seed", "3", "--out", str(out), "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Win rate by favoured god" in done.stdout and "verdict (cards)" in done.stdout
    data: dict[str, Any] = json.loads(out.with_name(out.name + ".json").read_text(encoding="utf-8"))
    return data


def _without_timing(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in game.items() if k != "seconds"} for game in games]


def test_balance_command_writes_every_section_and_replays_from_its_seed(tmp_path: Path) -> None:
    first = _balance(tmp_path / "one")
    assert first["finished_games"] == 6 and not first["interrupted"]
    assert first["config"]["options"] == {"preset": "random-gods"} and first["config"]["bots"] == ["random"]
    assert set(first["categories"]) == {"favoured_god", "god_in_game", "monster_drafted", "monster", "seat", "order"}
    assert {"top", "verdict", "all"} <= set(first["cards"]) and first["cards"]["all"]
    assert first["summary"]["games"] == 6 and first["summary"]["players"] == 3
    for game in first["games"]:
        assert len(game["gods"]) == 3 and len(game["seats"]) == 3 and game["error"] is None
        assert sorted(s["place"] for s in game["seats"])[0] == 1
        for seat in game["seats"]:
            assert {"favoured", "drafted_by_god", "monsters", "place", "glory", "played", "drafted"} <= set(seat)
            assert set(seat["favoured"]) <= set(game["gods"]) and sum(seat["drafted_by_god"].values()) > 0
    second = _balance(tmp_path / "two")
    assert _without_timing(first["games"]) == _without_timing(second["games"])
    assert first["categories"] == second["categories"]


def test_balance_refuses_other_games_and_bad_input() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "meadhall.cli.main", "balance", *args],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip

    other = run("--game", "voluspa", "--games", "1")
    assert other.returncode == 2 and "for Blood Rage: Valhalla and Valda" in other.stderr
    players = run("--players", "9", "--games", "1")
    assert players.returncode == 2 and "3 to 5 players" in players.stderr
