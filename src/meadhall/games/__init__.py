"""The games meadhall ships, one package each.

Nothing here imports them: each is offered through its entry point in the
``meadhall.games`` group (pyproject.toml), like a game from any other installed package,
and :mod:`meadhall.core.registry` loads them on the first lookup.
"""
