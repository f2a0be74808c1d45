"""docs/rl.md and docs/research.md: their Python examples run, their tables and figures are the code's and the runs'."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from meadhall.core.registry import get_game
from meadhall.lab.arena import GameResult, summarize
from meadhall.rl import Spaces
from meadhall.rl.policy import WEIGHTS_VARIABLE, Policy

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_the_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) >= 3
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, str(DOC), "exec"), {"__name__": "docs"})


def test_the_layout_tables_are_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in ("voluspa", "bloodrage-valhalla", "valda"):
        game = get_game(name)
        spaces = Spaces(game, game.info.min_players)
        heading = f"#### {game.info.title}: `{spaces.version}`"
        assert heading in text, f"docs/rl.md lacks {heading!r}"
        section = text[text.index(heading) :]
        assert f"{spaces.action_size:,} actions; observation of {spaces.observation_size:,} floats." in section
        rows = re.findall(r"^\| `(\w+)` \| ([\d × ]+) \| (\d+) \|$", section.split("\n#### ")[0], flags=re.M)
        documented = [(block, tuple(int(n) for n in shape.split(" × ")), int(offset)) for block, shape, offset in rows]
        assert documented == spaces.layout(), f"docs/rl.md's {game.info.title} table is stale"


RESEARCH = DOC.parent / "research.md"
RUN = re.compile(
    r"trained on \*\*(?P<games>[\d,]+) games\*\* \((?P<decisions>[\d,]+) decisions of the learner\) in "
    r"\*\*(?P<seconds>\d+) s of processor time\*\*.*?won (?P<rate>[\d.]+)% of its training games".replace(" ", r"\s+"),
    flags=re.S,
)


def test_the_research_page_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", RESEARCH.read_text(encoding="utf-8"), flags=re.S)
    assert blocks
    monkeypatch.chdir(DOC.parents[1])  # the page's paths are the repository's
    monkeypatch.setenv(WEIGHTS_VARIABLE, "")  # put back after the example sets it
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, str(RESEARCH), "exec"), {"__name__": "docs"})


def test_the_research_page_states_the_run_its_weights_record() -> None:
    """The training run's figures are the ones docs/rl/valda-policy.npz records (its curve), not typed in."""
    policy, curve = Policy.load(DOC.parent / "rl" / "valda-policy.npz")
    assert (policy.game, policy.players, policy.version) == ("valda", 2, Spaces("valda", 2).version)
    found = RUN.search(RESEARCH.read_text(encoding="utf-8"))
    assert found, "docs/research.md does not state the training run"
    stated = (found["games"], found["decisions"], found["seconds"], found["rate"])
    recorded = (f"{curve.games[-1]:,}", f"{curve.decisions:,}", f"{curve.seconds[-1]:.0f}")
    assert stated == (*recorded, f"{100 * curve.win_rate[-1]:.1f}")


def test_the_research_page_states_the_arena_run_as_its_json_has_it() -> None:
    run = DOC.parents[1] / "results" / "arena" / "valda-policy-vs-random.json"
    data = json.loads(run.read_text(encoding="utf-8"))
    assert data["config"]["bot_modules"] == ["meadhall.rl.policy"] and not data["interrupted"]
    policy = summarize([GameResult(**game) for game in data["games"]], ["policy", "random"])[0]
    stated = re.search(
        r"won (\d+) of the (\d+) games against random play \(([\d.]+)%, 95% interval\s+([\d.]+)–([\d.]+)%\)",
        RESEARCH.read_text(encoding="utf-8"),
    )
    assert stated, "docs/research.md does not state the policy's arena result"
    rates = (policy.win_rate, policy.win_low, policy.win_high)
    figures = (f"{policy.wins:g}", str(policy.games), *(f"{100 * rate:.1f}" for rate in rates))
    assert stated.groups() == figures
