"""Motion for what just happened, in Debian's stock Firefox (``firefox-esr``) over Marionette.

A person plays Völuspá against a bot by clicking tiles and cells. Each placed tile, the
bot's and the person's, arrives live and drops into its cell as a CSS animation that
Firefox runs (``window.__mhMotions``: each motion played and how many animations ran on
its element); the page opened again on the game under way plays none. In a Firefox whose
profile asks for reduced motion (``ui.prefersReducedMotion`` 1) the same moves play no
motion, no animation runs, and a motion's classes put on an element run none either.
"""

from __future__ import annotations

import random

from tests.e2e.marionette import Firefox
from tests.e2e.test_firefox import ARTIFACTS, decisions, open_table, play_one, pytestmark, site  # noqa: F401
from tests.server.conftest import RunningServer

MOTIONS = "return (window.__mhMotions || []).filter((m) => m.running > 0).map((m) => m.name);"
# A motion's classes on a tile of the board: how many animations Firefox runs for them.
FORCED = (
    "const t = document.querySelector('svg#board g.tile'); t.classList.add('mh-motion', 'mh-drop');"
    "return t.getAnimations().length;"
)


def test_a_placed_tile_drops_in_live_in_firefox(site: RunningServer, firefox: Firefox) -> None:  # noqa: F811
    ff, base = firefox, site.url
    table_id = open_table(ff, base, "Hild", "voluspa")
    ff.wait_for("svg .targets rect, #hand button[data-tile]")
    choose = random.Random(2)
    for moves, mine in enumerate(decisions(ff, table_id), start=1):
        play_one(ff, choose.choice(mine["legal"]))
        if moves == 3:
            break
    ff.wait_until("return window.__mhVersion >= 4;")
    assert "mh-drop" in ff.run(MOTIONS)
    assert ff.run(FORCED) > 0  # the same classes the reduced test puts on run here
    ff.screenshot(ARTIFACTS / "firefox-motion.png")
    version = ff.run("return window.__mhVersion;")
    ff.goto(ff.url())  # opened again: the last move is marked, nothing moves
    ff.wait_until("return window.__mhVersion >= arguments[0];", version)
    ff.wait_for("svg#board .tile.last-move")
    assert ff.run(MOTIONS) == []
    assert ff.run("return window.__errors || [];") == []


def test_reduced_motion_plays_none_in_firefox(site: RunningServer, calm_firefox: Firefox) -> None:  # noqa: F811
    ff, base = calm_firefox, site.url
    table_id = open_table(ff, base, "Sif", "voluspa")
    assert ff.run("return matchMedia('(prefers-reduced-motion: reduce)').matches;")
    ff.wait_for("svg .targets rect, #hand button[data-tile]")
    choose = random.Random(2)
    for moves, mine in enumerate(decisions(ff, table_id), start=1):
        play_one(ff, choose.choice(mine["legal"]))
        ff.wait_until("return window.__mhVersion > arguments[0];", mine["version"])
        assert ff.run("return document.getAnimations().length;") == 0
        if moves == 3:
            break
    assert ff.run("return window.__mhMotions || [];") == []
    ff.wait_for("svg#board .tile.last-move")  # the static mark of the last move stays
    assert ff.run(FORCED) == 0  # the stylesheet's guard
    assert ff.run("return window.__errors;") == []
