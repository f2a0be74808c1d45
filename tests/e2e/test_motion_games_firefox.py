"""Motion for what just happened in Blood Rage: Valhalla and Valda, in Debian's Firefox ESR over Marionette.

The Völuspá test beside it (test_motion_firefox.py) shows a placed tile dropping in; here a
person plays Blood Rage against two bots and Valda against one by clicking the actions'
buttons on the page (a card, a region's or god area's action, a resource). The moves, the
person's and the bots', arrive live, and the board must show their motion as CSS animations
that Firefox runs (``window.__mhMotions``: each motion played and how many animations ran on
its element): Blood Rage's figures marching between regions, Valda's resources pulsing with
+N on the stores and the dice rolling. The page opened again on the game under way plays
none. In a Firefox whose profile asks for reduced motion (``ui.prefersReducedMotion`` 1) the
same kind of moves (their events are there: a march, a resource gained) play no motion, no
animation runs, and a motion's classes put on an element run none either.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from tests.e2e.marionette import Firefox
from tests.e2e.test_firefox import (  # noqa: F401
    ARTIFACTS,
    ERRORS,
    decisions,
    new_table,
    pytestmark,
    site,
    start,
)
from tests.server.conftest import RunningServer

# The motions played so far whose element ran an animation (a motion's name, once each).
MOTIONS = "return (window.__mhMotions || []).filter((m) => m.running > 0).map((m) => m.name);"
# A motion's classes on an element of the board: how many animations Firefox runs for them.
FORCED = (
    "const n = document.querySelector(arguments[0]); n.classList.add('mh-motion', arguments[1]);"
    "const running = n.getAnimations().length; n.classList.remove('mh-motion', arguments[1]); return running;"
)
# Each game: its bots, the motions a few moves must show, the event kinds that call for them
# (as the page's log lists them), an element and a motion to force on it.
GAMES: dict[str, dict[str, Any]] = {
    "bloodrage-valhalla": {
        "bots": 2,
        "wanted": {"mh-march"},
        "events": {"moved"},
        "forced": ("#br-map g.region .area", "mh-battle"),
    },
    "valda": {
        "bots": 1,
        "wanted": {"mh-pulse", "mh-roll"},
        "events": {"gained"},
        "forced": ("#va-stores .va-seat-stores", "mh-pulse"),
    },
}
# Moves chosen first, so that the motions come soon: a march in Blood Rage (a figure summoned,
# a march started, a figure moved, the march ended); in Valda a resource taken, then on to the
# next round, whose resource phase rolls the dice.
EAGER = {
    "bloodrage-valhalla": ("move:", "march:", "summon:", "done"),
    "valda": ("take:", "done"),
}


def _open(ff: Firefox, base: str, name: str, game: str) -> str:
    """A table of ``game`` against its bots, made through the lobby's form and started; its id."""
    new_table(ff, base, name, game)
    bots = GAMES[game]["bots"]
    ff.select("#players-select", str(bots + 1))
    for seat in range(2, bots + 1):
        ff.select(f"select[name=seat-{seat}]", "bot")
        ff.select(f"select[name=bot-{seat}]", "beginner")
    ff.click("#create-form button[type=submit]")
    ff.wait_until("return location.pathname.startsWith('/t/');")
    table_id = ff.url().rsplit("/", 1)[-1]
    ff.run(ERRORS)
    ff.wait_for("#start-button")
    start(ff)
    return table_id


def _choose(game: str, legal: list[str], choose: random.Random) -> str:
    """The move to make: the first kind of EAGER on offer, else any."""
    for start_of in EAGER[game]:
        eager = [a for a in legal if a.startswith(start_of)]
        if eager:
            return choose.choice(eager)
    return choose.choice(legal)


def _play(ff: Firefox, action: str) -> None:
    """One move through the page: the button that carries its notation (a card, an action, a die's face)."""
    ff.click(f"#game-area button[data-action={json.dumps(action)}]")  # scrolled clear of the sticky prompt first


def _events(ff: Firefox) -> set[str]:
    """The kinds of the events that reached the page and its log (each a line ``li.event-KIND``)."""
    kinds: list[str] = ff.run(
        "return [...document.querySelectorAll('#log li.event')]"
        ".flatMap((li) => [...li.classList].filter((c) => c.startsWith('event-')).map((c) => c.slice(6)));"
    )
    return set(kinds)


@pytest.mark.parametrize("game", list(GAMES))
def test_live_moves_move_in_firefox(site: RunningServer, firefox: Firefox, game: str) -> None:  # noqa: F811
    ff, base, wanted = firefox, site.url, GAMES[game]["wanted"]
    table_id = _open(ff, base, "Hild", game)
    choose = random.Random(11)
    deadline = time.monotonic() + 240
    for mine in decisions(ff, table_id):
        if wanted <= set(ff.run(MOTIONS)):
            break
        assert time.monotonic() < deadline, f"{game}: no {wanted - set(ff.run(MOTIONS))} in four minutes of play"
        _play(ff, _choose(game, mine["legal"], choose))
    seen = set(ff.run(MOTIONS))
    assert wanted <= seen, f"{game}: no {wanted - seen} in a whole game"
    if game == "valda":  # a resource taken: its store pulses with +N
        pulses = ff.run("return (window.__mhMotions || []).filter((m) => m.name === 'mh-pulse').map((m) => m.delta);")
        assert any(delta > 0 for delta in pulses), pulses
    selector, name = GAMES[game]["forced"]
    assert ff.run(FORCED, selector, name) > 0  # the same classes the reduced test puts on run here
    ff.screenshot(ARTIFACTS / f"firefox-motion-{game}.png")
    version = ff.run("return window.__mhVersion;")
    ff.goto(ff.url())  # opened again: the last move is marked, nothing moves
    ff.wait_until("return window.__mhVersion >= arguments[0];", version)
    assert ff.run(MOTIONS) == []
    assert ff.run("return window.__errors || [];") == []


@pytest.mark.parametrize("game", list(GAMES))
def test_reduced_motion_moves_nothing_in_firefox(site: RunningServer, calm_firefox: Firefox, game: str) -> None:  # noqa: F811
    ff, base = calm_firefox, site.url
    table_id = _open(ff, base, "Sif", game)
    assert ff.run("return matchMedia('(prefers-reduced-motion: reduce)').matches;")
    choose = random.Random(11)
    deadline = time.monotonic() + 240
    happened: set[str] = set()
    for mine in decisions(ff, table_id):
        if GAMES[game]["events"] <= happened:
            break
        assert time.monotonic() < deadline, f"{game}: no {GAMES[game]['events'] - happened} in four minutes of play"
        _play(ff, _choose(game, mine["legal"], choose))
        ff.wait_until("return window.__mhVersion > arguments[0];", mine["version"])
        # A move that arrived live: its events are there, drawn at once, and nothing runs.
        assert ff.run("return document.getAnimations().length;") == 0
        happened |= _events(ff)
    assert GAMES[game]["events"] <= happened, f"{game}: no {GAMES[game]['events'] - happened} in a whole game"
    assert ff.run("return window.__mhMotions || [];") == []
    selector, name = GAMES[game]["forced"]
    assert ff.run(FORCED, selector, name) == 0  # the stylesheet's guard
    assert ff.run("return window.__errors;") == []
