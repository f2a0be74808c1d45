"""docs/rl.md: its Python examples run as written and its layout tables are the code's."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from meadhall.core.registry import get_game
from meadhall.rl import Spaces

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
