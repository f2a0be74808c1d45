"""Game options from the command line, shared by ``play``, ``arena`` and ``replay``.

``--preset NAME``, ``--option KEY=VALUE`` (repeatable) and ``--content FILE``. A value
that starts with ``{``, ``[`` or ``"`` is read as JSON; ``KEY=@FILE`` reads the value from
a file (JSON when it parses, else its text). ``--content FILE`` is ``--option content=@FILE``:
a content pack, for a game whose components are data (``meadhall games`` lists each
game's options and presets).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def add_option_arguments(parser: argparse.ArgumentParser, preset_help: str, example: str | None = None) -> None:
    """Add ``--preset``, ``--option`` and ``--content`` to a subcommand (``example``: an option the command knows)."""
    parser.add_argument("--preset", help=preset_help)
    example_text = f", e.g. {example}" if example else ""
    parser.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help=f"a game option as 'meadhall games' lists it{example_text} "
        "(repeatable; VALUE may be JSON, or @FILE to read it from a file)",
    )
    parser.add_argument(
        "--content",
        metavar="FILE",
        help="a content pack (JSON) to play with, for games that take one (an option of kind pack in 'meadhall games')",
    )


def option_value(text: str) -> Any:
    """One option value: JSON when it looks like JSON, a file's content after ``@``, else the text."""
    text = text.strip()
    if text.startswith("@"):
        path = Path(text[1:]).expanduser()
        try:
            body = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
        try:
            return json.loads(body)
        except json.JSONDecodeError:
            return body.strip()
    if text[:1] in ("{", "[", '"'):
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{text[:40]!r} is not valid JSON: {error.msg} (line {error.lineno})") from None
    return text


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The options the command line asks for; raises :class:`ValueError` with a readable message."""
    options: dict[str, Any] = {}
    if getattr(args, "preset", None):
        options["preset"] = args.preset
    for item in getattr(args, "option", None) or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {item!r}: write KEY=VALUE, e.g. --option NAME=true")
        options[key.strip()] = option_value(value)
    if getattr(args, "content", None):
        options["content"] = option_value(f"@{args.content}")
        if not isinstance(options["content"], dict):
            raise ValueError(f"--content {args.content}: a content pack is a JSON object")
    return options
