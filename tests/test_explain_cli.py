"""``meadhall voluspa explain`` as a user runs it: a real process, text, --json and --batch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

POSITION = "origin -1,0/. TH ./OD FE SK+1/. VA ."


def meadhall(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meadhall.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_json_result_for_a_legal_move() -> None:
    done = meadhall("voluspa", "explain", "--position", POSITION, "--move", "OD@1,2", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["legal"] is True and result["error"] is None and result["points"] == 4
    (step,) = result["steps"]
    assert step["step"] == "OD@1,2" and step["points"] == 4
    assert [(line["kind"], line["cells"], line["points"]) for line in step["lines"]] == [
        ("row", [[0, 2], [1, 2]], 2),
        ("column", [[1, 1], [1, 2]], 2),
    ]
    assert "dominates" in step["lines"][0]["reason"]


def test_text_output_and_position_file(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text("origin -1,0\n.  TH .\nOD FE SK+1\n.  VA .\n", encoding="utf-8")
    done = meadhall("voluspa", "explain", "--position", str(board), "--move", "HE@0,1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "Legal: 4 points."
    assert "Hel scores 1 for each tile around it" in done.stdout


def test_illegal_move_exit_zero_with_reason() -> None:
    done = meadhall("voluspa", "explain", "--position", POSITION, "--move", "TH@5,5", "--json")
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["legal"] is False and result["points"] == 0
    assert "does not touch any tile" in result["error"]
    assert result["rule"] == "touch"


def test_unreadable_input_exit_two() -> None:
    done = meadhall("voluspa", "explain", "--position", POSITION, "--move", "TH@@1")
    assert done.returncode == 2
    assert "cannot read" in done.stderr and done.stdout == ""
    bad_board = meadhall("voluspa", "explain", "--position", "ZZ TH", "--move", "TH@1,0")
    assert bad_board.returncode == 2 and "unknown tile 'ZZ'" in bad_board.stderr


def test_batch_in_order() -> None:
    lines = [
        {"position": POSITION, "move": "OD@1,2"},
        {"position": POSITION, "move": "TH@5,5"},
        {"position": POSITION, "move": "HM@-1,2 TR@-1,3"},
    ]
    done = meadhall("voluspa", "explain", "--batch", stdin="\n".join(json.dumps(x) for x in lines) + "\n")
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["legal"] for r in results] == [True, False, True]
    assert [r["points"] for r in results] == [4, 0, 2]
    assert [s["step"] for s in results[2]["steps"]] == ["HM@-1,2", "TR@-1,3"]


def test_batch_bad_line_keeps_order_and_exits_two() -> None:
    stdin = json.dumps({"position": POSITION, "move": "OD@1,2"}) + "\nnot json\n"
    done = meadhall("voluspa", "explain", "--batch", stdin=stdin)
    assert done.returncode == 2
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert results[0]["legal"] is True
    assert results[1]["legal"] is False and results[1]["error"].startswith("unreadable input")
    assert "line 2" in done.stderr


def test_a_line_need_not_be_named_where_both_score_the_same() -> None:
    # On POSITION the Fenrir at 0,1 has a row and a column of 3: a Lightning Bolt there
    # scores 3 either way, so LB@0,1 is accepted, and explain says why no line was named.
    done = meadhall("voluspa", "explain", "--position", POSITION, "--move", "LB@0,1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        "Legal: 3 points.",
        "  LB@0,1: 3 points",
        "    no line named: the row and the column both score 3 points, so the choice makes no difference;"
        " the row is shown",
    ]
    as_json = json.loads(meadhall("voluspa", "explain", "--position", POSITION, "--move", "LB@0,1", "--json").stdout)
    assert as_json["legal"] is True and as_json["steps"][0]["note"].startswith("no line named")
    named = json.loads(meadhall("voluspa", "explain", "--position", POSITION, "--move", "LB@0,1:col", "--json").stdout)
    assert "note" not in named["steps"][0]


def test_where_the_line_matters_the_error_lists_both_choices() -> None:
    done = meadhall("voluspa", "explain", "--position", "VA . . . SK", "--move", "SS@1,0", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["legal"] is False and result["rule"] == "line-choice"
    assert "choose SS@1,0:row (5 points) or SS@1,0:col (0 points)" in result["error"]


def _position_lines() -> list[dict[str, object]]:
    """Every target of two positions, points only and with lines, with illegal and unreadable moves between."""
    from meadhall.games.voluspa.explain import VoluspaJudge

    lines: list[dict[str, object]] = []
    for position in (POSITION, "VA . . . SK", POSITION):
        for index, move in enumerate(VoluspaJudge(position).targets() * 8):
            lines.append({"position": position, "move": move, "points_only": index % 3 != 0})
            if index % 97 == 0:
                lines.append({"position": position, "move": "TH@9,9"})
                lines.append({"position": position, "move": "TH@@"})
    return lines


def test_batch_jobs_keep_the_order_and_the_results() -> None:
    from meadhall.core.judge import without_lines
    from meadhall.games.voluspa.explain import explain_turn

    lines = _position_lines()
    assert len(lines) > 4000  # more than one piece of work per process
    stdin = "\n".join(json.dumps(line) for line in lines) + "\n"
    alone = meadhall("voluspa", "explain", "--batch", stdin=stdin)
    spread = meadhall("voluspa", "explain", "--batch", "--jobs", "3", stdin=stdin)
    assert alone.returncode == spread.returncode == 2  # the unreadable moves
    assert spread.stdout == alone.stdout and spread.stderr == alone.stderr
    results = [json.loads(line) for line in spread.stdout.splitlines()]
    assert len(results) == len(lines)
    for line, result in list(zip(lines, results, strict=True))[::37]:
        if line["move"] == "TH@@":
            assert result["rule"] == "unreadable"
            continue
        expected = explain_turn(str(line["position"]), str(line["move"]))
        assert result == (without_lines(expected) if line.get("points_only") else expected)


def test_batch_answers_each_line_as_it_arrives() -> None:
    # A caller that waits for each answer before writing the next line is answered.
    with subprocess.Popen(
        [sys.executable, "-m", "meadhall.cli.main", "voluspa", "explain", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        for move, points in (("OD@1,2", 4), ("HE@0,1", 4)):
            process.stdin.write(json.dumps({"position": POSITION, "move": move}) + "\n")
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["points"] == points
        process.stdin.close()
        assert process.wait(timeout=60) == 0
