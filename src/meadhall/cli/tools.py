"""``meadhall GAME TOOL``: the command-line tools games offer (:mod:`meadhall.core.tools`).

Every registered game whose text drawing offers tools (``Game.text().tools()``) gets a
subcommand named after it, and each tool a subcommand of that: its inputs are options
(``--position TEXT``), its switches flags, and every tool has ``--json`` (print the
result as one JSON object) and ``--batch`` (read one JSON object of inputs per line of
standard input, write one result per line, in order; ``--jobs N`` spreads the lines over
N processes). The game's code is pure; this shell reads files, standard input and
arguments, and prints.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import os
import select
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import orjson

from meadhall.core.errors import MalformedAction
from meadhall.core.game import Game
from meadhall.core.registry import GamePluginError, all_games
from meadhall.core.tools import GameTool, Request

#: Most lines of standard input a batch reads ahead and hands the tool at once.
BATCH_RUN = 20_000
#: Lines per piece of work sent to one process with ``--jobs``.
JOB_LINES = 2_000
#: Lines the tool judges at a time in one process, written before the next are judged.
PIECE_LINES = 500


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
        help=f"read {{{inputs}}} objects, one per line, on standard input; write one result per line, in order",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="with --batch: judge the lines in N processes (the output keeps the input's order)",
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
        return run_batch(job, tool, switches, max(1, args.jobs))
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


def batch_line(request: Request) -> str:
    """One ``--batch`` line of standard input for a request (the inverse of reading one)."""
    inputs, switches = request
    return json.dumps({**inputs, **{name.replace("-", "_"): on for name, on in switches.items()}}, ensure_ascii=False)


def _batch_reader(tool: GameTool, switches: Mapping[str, bool]) -> Callable[[Any], Request]:
    """Reads the inputs and switches of one batch line (a switch's key is its name with ``_`` for ``-``).

    The names are looked up once for the whole batch, not for each line.
    """
    names = tuple(spec.name for spec in tool.inputs)
    keys = tuple((name, name.replace("-", "_"), on) for name, on in switches.items())

    def read(request: Any) -> Request:
        if not isinstance(request, dict):
            raise ValueError("each line must be a JSON object")
        inputs = {name: request[name] for name in names}
        wrong = [f"'{name}'" for name, value in inputs.items() if not isinstance(value, str)]
        if wrong:
            raise ValueError(f"{' and '.join(wrong)} must be {'strings' if len(wrong) > 1 else 'a string'}")
        return inputs, {name: bool(request.get(key, on)) for name, key, on in keys}

    return read


def _runs(stream: IO[str], most: int) -> Iterator[list[str]]:
    """The lines of ``stream`` in runs: what has arrived (at most about ``most`` lines), then the next.

    Reading ahead lets a tool share work between lines; stopping at what has arrived keeps
    a caller that waits for each answer before writing the next line answered.
    """
    try:
        fd = stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation):  # not a file (a test's text)
        text = stream.read().splitlines()
        for start in range(0, len(text), most):
            yield text[start : start + most]
        return
    pending = b""
    ended = False
    while not ended:
        data = os.read(fd, 1 << 16)
        if not data:
            break
        pending += data
        count = data.count(b"\n")
        while count < most and select.select([fd], [], [], 0)[0]:
            data = os.read(fd, 1 << 16)
            if not data:
                ended = True
                break
            pending += data
            count += data.count(b"\n")
        *lines, pending = pending.split(b"\n")
        yield [line.decode("utf-8", errors="replace") for line in lines]
    if pending:
        yield [pending.decode("utf-8", errors="replace")]


def _judged_in_pieces(tool: GameTool, requests: Sequence[Request]) -> Iterator[dict[str, Any] | MalformedAction]:
    """The tool's results, judged :data:`PIECE_LINES` at a time as they are written.

    Each piece's results are written and dropped before the next is judged: memory that
    stays warm, about 20% faster than holding a whole run's results (a position whose lines
    straddle two pieces is set up twice, a few µs for hundreds of lines).
    """
    for start in range(0, len(requests), PIECE_LINES):
        yield from tool.run_many(requests[start : start + PIECE_LINES])


_WORKER_TOOL: list[GameTool] = []


def _start_worker(tool: GameTool) -> None:
    _WORKER_TOOL[:] = [tool]


def _work(requests: Sequence[Request]) -> list[dict[str, Any] | str]:
    """One process's piece of a batch: results, and each unreadable request's reason as text."""
    return [str(r) if isinstance(r, MalformedAction) else r for r in _WORKER_TOOL[0].run_many(requests)]


def run_batch(
    job: str,
    tool: GameTool,
    switches: Mapping[str, bool],
    jobs: int = 1,
    stream: IO[str] | None = None,
    out: IO[str] | None = None,
) -> int:
    """Answer every line of ``stream`` (standard input) on ``out`` (standard output), in order.

    The tool gets the lines in runs (:meth:`GameTool.run_many`); ``jobs`` > 1 spreads each
    run over that many processes. Returns the exit status: 2 if a line could not be read.
    """
    stream = sys.stdin if stream is None else stream
    out = sys.stdout if out is None else out
    status = 0
    number = 0
    pool = multiprocessing.Pool(jobs, _start_worker, (tool,)) if jobs > 1 else None
    read = _batch_reader(tool, switches)
    try:
        for run in _runs(stream, BATCH_RUN):
            slots: list[tuple[int, str | None]] = []  # each line's number, and why it cannot be read
            requests: list[Request] = []
            for raw in run:
                number += 1
                line = raw.strip()
                if not line:
                    continue
                try:
                    requests.append(read(orjson.loads(line)))
                    slots.append((number, None))
                except (ValueError, KeyError) as error:
                    slots.append((number, f"missing field {error}" if isinstance(error, KeyError) else str(error)))
            judged: Iterable[dict[str, Any] | MalformedAction | str]
            if pool is None:
                judged = _judged_in_pieces(tool, requests)
            else:
                pieces = [requests[start : start + JOB_LINES] for start in range(0, len(requests), JOB_LINES)]
                judged = [result for piece in pool.imap(_work, pieces) for result in piece]
            results = iter(judged)
            # One buffer for the run's output: thousands of small JSON bytes kept in a list
            # cost more than writing them (about 2 µs a line).
            written = bytearray()
            for where, reason in slots:
                result = next(results) if reason is None else reason
                if isinstance(result, MalformedAction):
                    result = str(result)
                if isinstance(result, str):
                    print(f"{job}: line {where}: {result}", file=sys.stderr)
                    result = tool.unreadable(result)
                    status = 2
                written += orjson.dumps(result)  # compact JSON in UTF-8, non-ASCII as it is
                written += b"\n"
            if written:
                out.write(written.decode())
                out.flush()
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return status
