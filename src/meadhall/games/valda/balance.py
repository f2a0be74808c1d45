"""What Valda's balance report counts: is any god a must-build, does a seat lead, which god weapon decides games.

The report (``meadhall balance --game valda``, :mod:`meadhall.lab.balance`) plays seeded
games. Each finished game is read into facts: the start player and, per seat, the
temples it built in each god area (its ``build:GOD`` actions, in the building phase or
by a card), its temples at the end, the god weapon options it played and its followers.

The tables give win rates (a win is place 1; a shared first place counts for each seat
sharing it) against the fair share ``1/players``:

* by **god area built in**: every seat that built at least one temple of a god counts
  for that god (a seat counts for every god it built in), with the share of seats that
  built there; a god whose builders win far above the fair share is a must-build;
* by **most temples**: the god a seat had most temples of at the end (a tie splits it);
* by **lock held**: the god areas a seat held locked at the end (three of its temples
  there; a seat counts for each lock it holds), or ``(no lock)``;
* by seat and by **turn order** (0 = the start player), as every report;
* per **god weapon option**: how often it was played, the win rate of the seats that
  played it, and how often it **decided** the game: the game is played again from the
  moment of the weapon with the same bots choosing anything but a god weapon there, and
  the weapon decided the game if the winners change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.balance import (
    MUST_BUILD,
    BalanceSpec,
    CategorySpec,
    ColumnSpec,
    FinishedGame,
    GameFacts,
    SeatFacts,
    WhatIfSpec,
    WhatIfWords,
)
from meadhall.core.game import Action, GameState
from meadhall.games.valda.content import Content
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.state import LOCK, ValdaState

NO_TEMPLE = "(no temple)"
NO_LOCK = "(no lock)"


def game_facts(first: GameState[Any], last: GameState[Any]) -> GameFacts:
    """The facts of a finished game, from its history and final position."""
    del first
    assert isinstance(last, ValdaState)
    n = last.num_players
    built: list[dict[str, int]] = [{} for _ in range(n)]
    weapons: list[list[str]] = [[] for _ in range(n)]
    for seat, action in last.history():
        if action.kind == "build" and action.name in last.config.content.gods:
            built[seat][action.name] = built[seat].get(action.name, 0) + 1
        elif action.kind == "weapon":
            weapons[seat].append(action.name)
    seats = [
        SeatFacts(
            (seat - last.start) % n,
            last.players[seat].followers,
            {
                "built": built[seat],
                "temples": {god: count for god, count in last.players[seat].temples.items() if count},
                "weapons": weapons[seat],
            },
        )
        for seat in range(n)
    ]
    return GameFacts({"start": last.start}, seats)


def _built(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
    return [(god, 1.0) for god in seat["built"]]


def _most_temples(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
    temples: Mapping[str, int] = seat["temples"]
    if not temples:
        return [(NO_TEMPLE, 1.0)]
    top = max(temples.values())
    favourites = [god for god, count in temples.items() if count == top]
    return [(god, 1.0 / len(favourites)) for god in favourites]


def _locks(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
    locks = [god for god, count in seat["temples"].items() if count >= LOCK]
    return [(god, 1.0) for god in locks or [NO_LOCK]]


def _share_built(games: Sequence[FinishedGame], god: str) -> float:
    """The share of all seats that built a temple of ``god``."""
    seats = [seat for game in games for seat in game.seats]
    return sum(1 for seat in seats if god in seat.facts["built"]) / len(seats) if seats else 0.0


def _weapon(action: Action) -> str | None:
    assert isinstance(action, ValdaAction)
    return action.name if action.kind == "weapon" else None


def balance_spec(content: Content) -> BalanceSpec:
    """Valda's balance report, for games played with ``content``."""
    categories = (
        CategorySpec(
            "god_built",
            "Win rate by god area built in (a seat counts for every god it built a temple of)",
            _built,
            MUST_BUILD,
            note="a seat counts for several gods, so rates run above the fair share for the gods good players build",
            columns=(ColumnSpec("share of seats", "share", _share_built, percent=True),),
            columns_at=2,
        ),
        CategorySpec(
            "most_temples",
            "Win rate by the god of most temples at the end",
            _most_temples,
            MUST_BUILD,
            unjudged=frozenset({NO_TEMPLE}),
        ),
        CategorySpec(
            "lock_held",
            "Win rate by god area held locked at the end (three temples of the seat there)",
            _locks,
            note="a seat holding a lock has built at least three temples, so it is richer than most",
            unjudged=frozenset({NO_LOCK}),
        ),
    )
    weapons = {option.id: option.name for card in content.cards.values() for option in card.options}
    return BalanceSpec(
        facts=game_facts,
        categories=categories,
        score_key="followers",
        score_name="followers",
        order_title="Win rate by turn order (0 = the start player)",
        players=2,
        what_ifs=WhatIfSpec(WhatIfWords("god weapon", "god weapons", "weapon", "weapons"), _weapon, weapons),
    )
