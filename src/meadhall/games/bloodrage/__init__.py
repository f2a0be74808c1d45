"""Blood Rage: Valhalla: the rules engine and its default content (pure; no I/O)."""

from meadhall.core.registry import register
from meadhall.games.bloodrage.game import BLOODRAGE, INFO, BloodRageGame
from meadhall.games.bloodrage.notation import BRAction, parse_action
from meadhall.games.bloodrage.state import BloodRageState

register(BLOODRAGE)

__all__ = ["BLOODRAGE", "INFO", "BRAction", "BloodRageGame", "BloodRageState", "parse_action"]
