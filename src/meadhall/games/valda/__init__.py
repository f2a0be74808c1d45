"""Valda (issue 6, in progress): the default content pack, the notation and the rules engine.

The views and worlds, bots' search adapter and registration are not written yet, so the game
is not registered: nothing can play it yet (docs/rules/valda.md).
"""
