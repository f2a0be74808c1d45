"""Errors raised by the game core and every game.

Malformed input (text that is not an action at all) and illegal actions (a well-formed
action the rules forbid now) are different errors, so interfaces can answer each with a
message a player understands. Both leave the state untouched.
"""

from __future__ import annotations


class MeadhallError(Exception):
    """Base class of every error meadhall raises on purpose."""


class MalformedAction(MeadhallError, ValueError):
    """The text or value is not an action of this game (a typo, not a rules question)."""


class IllegalAction(MeadhallError):
    """A well-formed action that the rules forbid in this position.

    ``rule`` names the rule that forbids it (a short key such as ``"troll"``), so
    interfaces and tests can tell reasons apart; ``str(error)`` is the sentence for people.
    """

    def __init__(self, message: str, rule: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule


class InvalidOptions(MeadhallError, ValueError):
    """Game options or player counts that the game cannot be set up with."""


class RecordError(MeadhallError, ValueError):
    """A game record that cannot be read or does not replay."""
