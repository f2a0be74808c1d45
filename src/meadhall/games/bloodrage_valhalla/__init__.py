"""Blood Rage: Valhalla: the rules engine and its default content (pure; no I/O)."""

from meadhall.games.bloodrage_valhalla.game import BLOODRAGE, INFO, BloodRageGame
from meadhall.games.bloodrage_valhalla.notation import BRAction, parse_action
from meadhall.games.bloodrage_valhalla.state import BloodRageState

__all__ = ["BLOODRAGE", "INFO", "BRAction", "BloodRageGame", "BloodRageState", "parse_action"]
