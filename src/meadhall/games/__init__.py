"""The games meadhall plays. Importing this package registers every built-in game."""

from meadhall.games import bloodrage_valhalla as bloodrage_valhalla
from meadhall.games import valda as valda
from meadhall.games import voluspa as voluspa

__all__ = ["bloodrage_valhalla", "valda", "voluspa"]
