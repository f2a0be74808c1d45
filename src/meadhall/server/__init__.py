"""The meadhall server: accounts, lobby, live and async play, bots, records, ratings.

It wraps the pure rules layer (:mod:`meadhall.core`, :mod:`meadhall.games`): every
payload sent to a player is built from :meth:`GameState.view` for that player's seat and
from the events that seat may see.
"""
