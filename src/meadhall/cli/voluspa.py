"""``meadhall voluspa explain``: judge a turn on a board and explain every point."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from meadhall.core.errors import MalformedAction
from meadhall.games.voluspa.explain import explain_turn, format_explanation


def add_parser(commands: Any) -> None:
    """Register ``voluspa`` and its ``explain`` subcommand."""
    parser = commands.add_parser("voluspa", help="Völuspá tools: explain a move on a board")
    sub = parser.add_subparsers(dest="voluspa_command", metavar="TOOL")
    sub.required = True
    explain = sub.add_parser(
        "explain",
        help="judge one turn on a board: legal or not (and why), and the points of each step",
        description=(
            "Judge one turn on a board, as if the move's tiles were in hand. The position is a "
            "board diagram (text, one-line with '/', or a file name); the move is its steps, "
            "e.g. 'HM@0,1 OD@0,2'. Exit status: 0 for a judged move (legal or not), 2 for "
            "unreadable input."
        ),
    )
    explain.add_argument("--position", help="board diagram text, or a file holding one")
    explain.add_argument("--move", help="the turn's steps in notation")
    explain.add_argument("--json", action="store_true", help="print one JSON object")
    explain.add_argument(
        "--batch",
        action="store_true",
        help='read {"position": ..., "move": ...} objects, one per line, on standard input; write one result per line',
    )
    explain.add_argument(
        "--auto-best-line",
        action="store_true",
        help="Sea Serpent and tied Lightning Bolt lines are picked automatically (the higher)",
    )
    explain.set_defaults(run=run_explain)


def _position_text(value: str) -> str:
    """A position given as a file name is read from the file; anything else is the diagram."""
    if "\n" not in value and len(value) < 4096:
        path = Path(value)
        try:
            if path.is_file():
                return path.read_text(encoding="utf-8")
        except OSError:
            pass
    return value


def run_explain(args: argparse.Namespace) -> int:
    """Run ``meadhall voluspa explain``."""
    if args.batch:
        return _run_batch(args.auto_best_line)
    if args.position is None or args.move is None:
        print("meadhall voluspa explain: give --position and --move (or --batch)", file=sys.stderr)
        return 2
    try:
        result = explain_turn(_position_text(args.position), args.move, auto_best_line=args.auto_best_line)
    except MalformedAction as error:
        print(f"meadhall voluspa explain: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(format_explanation(result))
    return 0


def _run_batch(auto_best_line: bool) -> int:
    status = 0
    for number, raw in enumerate(sys.stdin, start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("each line must be a JSON object")
            position, move = request["position"], request["move"]
            if not isinstance(position, str) or not isinstance(move, str):
                raise ValueError("'position' and 'move' must be strings")
            auto = bool(request.get("auto_best_line", auto_best_line))
            result = explain_turn(position, move, auto_best_line=auto)
        except (ValueError, KeyError, MalformedAction) as error:
            reason = f"missing field {error}" if isinstance(error, KeyError) else str(error)
            print(f"meadhall voluspa explain: line {number}: {reason}", file=sys.stderr)
            result = {
                "legal": False,
                "error": f"unreadable input: {reason}",
                "rule": "unreadable",
                "points": 0,
                "steps": [],
            }
            status = 2
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return status
