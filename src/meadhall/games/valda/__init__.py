"""Valda: the rules engine and its default content (pure; no I/O)."""

from meadhall.games.valda.game import GAME, ValdaGame
from meadhall.games.valda.notation import ValdaAction, parse_action
from meadhall.games.valda.state import ValdaState

__all__ = ["GAME", "ValdaAction", "ValdaGame", "ValdaState", "parse_action"]
