"""meadhall for learning programs: action indices and masks, observation tensors, environments.

Needs the ``rl`` extra (``pip install 'meadhall[rl]'``: numpy, PettingZoo, Gymnasium). The
encodings themselves are the games' (``Game.spaces``, :mod:`meadhall.core.spaces`, pure
Python); this package gives them as numpy arrays and wraps games as environments:

* :class:`Spaces`: a game's action space and observation space, as arrays.
* :class:`InformationState`: one seat's perfect-recall record, its tensor as an array.
* :class:`VectorEnv`: many games stepped at once into preallocated arrays (automatic reset).
* :class:`NoSpaces`: raised for a game that offers no spaces.
* ``meadhall.rl.pettingzoo.env(...)``: a PettingZoo AEC environment (every seat an agent).
* ``meadhall.rl.gymnasium.MeadhallEnv``: a Gymnasium environment, one seat against meadhall's bots.
* ``meadhall.rl.openspiel.register(...)``: an OpenSpiel Python game (the ``openspiel`` extra).

docs/rl.md documents the layouts and versions.
"""

from __future__ import annotations

from meadhall.extras import missing

try:
    import numpy as np
except ModuleNotFoundError as error:  # a plain install: say which extra brings it, not a traceback deep down
    raise missing(error, "rl", "meadhall.rl", {"numpy"}) from None

from meadhall.rl.spaces import InformationState, NoSpaces, Spaces, reward_of
from meadhall.rl.vector import VectorEnv

__all__ = ["InformationState", "NoSpaces", "Spaces", "VectorEnv", "np", "reward_of"]
