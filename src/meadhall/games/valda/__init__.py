"""Valda (issue 6, in progress): the default content pack and its checker so far.

The engine is not written yet, so the game is not registered: nothing can play it.
"""
