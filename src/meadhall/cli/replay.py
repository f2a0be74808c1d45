"""``meadhall replay FILE``: step through an exported game record in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from meadhall.cli.play import Renderer, renderer_for
from meadhall.core.errors import RecordError
from meadhall.core.game import Event, GameState
from meadhall.core.record import GameRecord


def add_parser(commands: Any) -> None:
    """Register ``replay``."""
    parser = commands.add_parser("replay", help="replay an exported game record (JSON) step by step")
    parser.add_argument("file", help="a game record exported from meadhall (JSON)")
    parser.add_argument("--step", type=int, help="only show the position after this many actions")
    parser.add_argument("--boards", action="store_true", help="print the board after every action")
    parser.add_argument("--pause", action="store_true", help="wait for Enter after every action")
    parser.set_defaults(run=run)


def _board(state: GameState[Any], renderer: Renderer | None, labels: list[str]) -> str:
    """The position as the game draws it for everyone, with its own diagram if it has one."""
    if renderer is None:
        return ""
    view = state.view(None)
    return "\n".join(
        [*renderer.board_lines(view, labels), "", *renderer.status_lines(view, labels), *_position(renderer, view)]
    )


def _position(renderer: Renderer, view: dict[str, Any]) -> list[str]:
    lines = renderer.position_lines(view)
    return ["", "In notation:", *lines] if lines else []


def _lines(events: list[Event], renderer: Renderer | None, labels: list[str]) -> list[str]:
    """What the public saw of an action, in the game's words."""
    if renderer is None:
        return []
    public = [event for event in events if event.visible_to(None)]
    return ["    " + line for event in public for line in renderer.format_event(event, labels, None)]


def run(args: argparse.Namespace) -> int:
    """Replay the record."""
    try:
        record = GameRecord.from_json(Path(args.file).read_text(encoding="utf-8"))
        state = record.replay(upto=0)
    except (OSError, RecordError) as error:
        print(f"meadhall replay: {error}", file=sys.stderr)
        return 2
    game = state.game
    options = {
        key: (value.get("label", value.get("id")) if key == "content" and isinstance(value, dict) else value)
        for key, value in record.options.items()
    }
    print(f"{game.info.title}: {', '.join(record.players)} · options {options}")
    labels = list(record.players)
    renderer: Renderer | None
    try:
        renderer = renderer_for(game)
        renderer.bind(state)
        renderer.labels = labels
    except ValueError:  # a game without a terminal game: actions and scores only
        renderer = None
    total = len(record.actions)
    upto = total if args.step is None else max(0, min(args.step, total))
    for index, (seat, text) in enumerate(record.actions[:upto], start=1):
        try:
            events = state.apply_text(seat, text)
        except Exception as error:  # a corrupt record
            print(f"meadhall replay: action {index} ({text}) does not replay: {error}", file=sys.stderr)
            return 2
        if args.step is None:
            print(f"{index:4}. {record.players[seat]}: {text}")
            for line in _lines(events, renderer, labels):
                print(line)
            if args.boards:
                print(_board(state, renderer, labels))
            if args.pause:
                input("(Enter for the next action) ")
    if args.step is not None:
        print(f"After {upto} of {total} actions:")
        print(_board(state, renderer, labels))
    print("Scores: " + ", ".join(f"{name} {score}" for name, score in zip(record.players, state.scores(), strict=True)))
    if state.is_terminal():
        places = state.ranking()
        order = sorted(range(len(places)), key=lambda s: places[s])
        print("Final ranking: " + ", ".join(f"{places[s]}. {record.players[s]}" for s in order))
    return 0
