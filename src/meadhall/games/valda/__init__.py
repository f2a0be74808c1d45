"""Valda (issue 6, in progress): content, notation, rules engine, views, worlds, game object.

It passes the conformance suite but is not registered yet: the bots' evaluation and the
browser and terminal tables are still to come (docs/rules/valda.md).
"""
