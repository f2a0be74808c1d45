"""Valda: the rules engine and its default content (pure; no I/O)."""

from meadhall.core.registry import register
from meadhall.games.valda.game import GAME, ValdaGame
from meadhall.games.valda.notation import ValdaAction, parse_action
from meadhall.games.valda.state import ValdaState

register(GAME)

__all__ = ["GAME", "ValdaAction", "ValdaGame", "ValdaState", "parse_action"]
