"""The README's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert blocks
    namespace: dict[str, object] = {"__name__": "readme"}
    for block in blocks:  # one session, like a reader typing them in order
        exec(compile(block, "README.md", "exec"), namespace)


def test_readme_shows_both_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text
