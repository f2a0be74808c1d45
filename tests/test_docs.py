"""The explain outputs pasted in docs/rules/voluspa.md are what the engine prints today."""

from __future__ import annotations

import re
from pathlib import Path

from meadhall.games.voluspa.explain import explain_turn, format_explanation

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules" / "voluspa.md"
DEFAULT_POSITION = "origin -1,0/. TH ./OD FE SK+1/. VA ."


def _examples() -> list[tuple[str, str, str]]:
    """(position, move, expected output) for every ```text block of the explain section."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("Real output") :]
    examples: list[tuple[str, str, str]] = []
    pending: list[str] = []
    position = DEFAULT_POSITION
    for part in re.split(r"(```text\n.*?```)", section, flags=re.S):
        if part.startswith("```text"):
            body = part[len("```text\n") : -3].rstrip("\n")
            move = pending.pop(0) if pending else "OD@1,2"
            examples.append((position, move, body))
            continue
        moves = re.findall(r"--move '([^']+)'", part)
        if moves:
            pending = moves
            positions = re.findall(r"--position '([^']+)'", part)
            position = positions[-1] if positions else DEFAULT_POSITION
    return examples


def test_doc_has_explain_examples() -> None:
    assert len(_examples()) >= 6


def test_explain_examples_in_the_rules_page_are_current() -> None:
    for position, move, expected in _examples():
        actual = format_explanation(explain_turn(position, move))
        assert actual == expected, f"docs/rules/voluspa.md example {move!r} on {position!r} is stale"
