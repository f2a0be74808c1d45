"""The game core: what every meadhall game is made of.

A :class:`~meadhall.core.game.Game` declares its facts (:class:`GameInfo`) and makes
states; a :class:`~meadhall.core.game.GameState` answers who decides now, what they may
do, applies actions returning audience-tagged :class:`~meadhall.core.game.Event` values,
and renders per-seat views. :class:`~meadhall.core.record.GameRecord` replays games.
"""
