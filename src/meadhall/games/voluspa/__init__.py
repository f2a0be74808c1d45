"""Völuspá: the rules engine, notation and explain (pure; no I/O)."""

from meadhall.games.voluspa.game import INFO, VOLUSPA, VoluspaGame
from meadhall.games.voluspa.notation import (
    END,
    Bump,
    Discard,
    End,
    Place,
    VoluspaAction,
    format_board,
    format_turn,
    parse_action,
    parse_board,
    parse_turn,
)
from meadhall.games.voluspa.state import VoluspaConfig, VoluspaState

__all__ = [
    "END",
    "INFO",
    "VOLUSPA",
    "Bump",
    "Discard",
    "End",
    "Place",
    "VoluspaAction",
    "VoluspaConfig",
    "VoluspaGame",
    "VoluspaState",
    "format_board",
    "format_turn",
    "parse_action",
    "parse_board",
    "parse_turn",
]
