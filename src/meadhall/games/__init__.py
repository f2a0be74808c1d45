"""The games meadhall plays. Importing this package registers every built-in game."""

from meadhall.games import bloodrage as bloodrage
from meadhall.games import voluspa as voluspa

__all__ = ["bloodrage", "voluspa"]
