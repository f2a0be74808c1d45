"""``meadhall GAME TOOL``: the command-line tools games offer (:mod:`meadhall.core.tools`).

Every registered game whose text drawing offers tools (``Game.text().tools()``) gets a
subcommand named after it, and each tool a subcommand of that: its inputs are options
(``--position TEXT``), its switches flags, and every tool has ``--json`` (print the
result as one JSON object) and ``--batch`` (read one JSON object of inputs per line of
standard input, write one result per line). The game's code is pure; this shell reads
files, standard input and arguments, and prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from meadhall.core.errors import MalformedAction
from meadhall.core.game import Game
from meadhall.core.registry import GamePluginError, all_games
from meadhall.core.tools import GameTool


def games_with_tools() -> list[tuple[Game, tuple[GameTool, ...]]]:
    """Every registered game that offers command-line tools, with its tools.

    A game that cannot be loaded offers none here: the other commands still work, and
    ``meadhall games`` or playing it says what is wrong.
    """
    try:
        games = all_games()
    except GamePluginError:
        return []
    found = []
    for game in games:
        text = game.text()
        tools = text.tools() if text is not None else ()
        if tools:
            found.append((game, tools))
    return found


def add_parsers(commands: Any) -> None:
    """Register ``meadhall GAME TOOL`` for every game's tools (a name taken by a command is left out)."""
    taken = set(commands.choices)
    for game, tools in games_with_tools():
        info = game.info
        if info.name in taken:
            continue
        aliases = [alias for alias in info.aliases if alias not in taken and alias != info.name]
        taken |= {info.name, *aliases}
        parser = commands.add_parser(
            info.name,
            aliases=aliases,
            help=f"{info.title} tools: {', '.join(tool.name for tool in tools)} (meadhall {info.name} TOOL --help)",
            description=f"{info.title} tools.",
        )
        sub = parser.add_subparsers(dest="tool", metavar="TOOL")
        sub.required = True
        for tool in tools:
            add_tool_parser(sub, info.name, tool)


def add_tool_parser(sub: Any, game: str, tool: GameTool) -> None:
    """Register one tool's subcommand: its inputs, its switches, ``--json`` and ``--batch``."""
    parser = sub.add_parser(tool.name, help=tool.summary, description=tool.description)
    for spec in tool.inputs:
        parser.add_argument(f"--{spec.name}", dest=f"input_{spec.name}", metavar=spec.name.upper(), help=spec.help)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    inputs = ", ".join(f'"{spec.name}": ...' for spec in tool.inputs)
    parser.add_argument(
        "--batch",
        action="store_true",
        help=f"read {{{inputs}}} objects, one per line, on standard input; write one result per line",
    )
    for switch in tool.switches:
        parser.add_argument(f"--{switch.name}", dest=f"switch_{switch.name}", action="store_true", help=switch.help)
    parser.set_defaults(run=lambda args: run_tool(args, f"meadhall {game} {tool.name}", tool))


def _file_or_text(value: str) -> str:
    """A value given as a file name is read from the file; anything else is the text itself."""
    if "\n" not in value and len(value) < 4096:
        path = Path(value)
        try:
            if path.is_file():
                return path.read_text(encoding="utf-8")
        except OSError:
            pass
    return value


def run_tool(args: argparse.Namespace, job: str, tool: GameTool) -> int:
    """Run a tool once on its arguments, or once per line of standard input with ``--batch``."""
    switches = {switch.name: bool(getattr(args, f"switch_{switch.name}")) for switch in tool.switches}
    if args.batch:
        return _run_batch(job, tool, switches)
    given = {spec.name: getattr(args, f"input_{spec.name}") for spec in tool.inputs}
    missing = [f"--{name}" for name, value in given.items() if value is None]
    if missing:
        print(f"{job}: give {' and '.join(missing)} (or --batch)", file=sys.stderr)
        return 2
    inputs = {spec.name: _file_or_text(given[spec.name]) if spec.file else given[spec.name] for spec in tool.inputs}
    try:
        result = tool.run(inputs, switches)
    except MalformedAction as error:
        print(f"{job}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False) if args.json else tool.text(result))
    return 0


def _batch_inputs(tool: GameTool, request: Any, switches: Mapping[str, bool]) -> tuple[dict[str, str], dict[str, bool]]:
    """The inputs and switches of one batch line (a switch's key is its name with ``_`` for ``-``)."""
    if not isinstance(request, dict):
        raise ValueError("each line must be a JSON object")
    inputs = {spec.name: request[spec.name] for spec in tool.inputs}
    wrong = [f"'{name}'" for name, value in inputs.items() if not isinstance(value, str)]
    if wrong:
        raise ValueError(f"{' and '.join(wrong)} must be {'strings' if len(wrong) > 1 else 'a string'}")
    chosen = {name: bool(request.get(name.replace("-", "_"), on)) for name, on in switches.items()}
    return inputs, chosen


def _run_batch(job: str, tool: GameTool, switches: Mapping[str, bool]) -> int:
    status = 0
    for number, raw in enumerate(sys.stdin, start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            inputs, chosen = _batch_inputs(tool, json.loads(line), switches)
            result = tool.run(inputs, chosen)
        except (ValueError, KeyError, MalformedAction) as error:
            reason = f"missing field {error}" if isinstance(error, KeyError) else str(error)
            print(f"{job}: line {number}: {reason}", file=sys.stderr)
            result = tool.unreadable(reason)
            status = 2
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return status
