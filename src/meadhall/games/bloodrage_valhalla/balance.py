"""What Blood Rage: Valhalla's balance report counts: is any god, card or monster a must-pick.

The report (``meadhall balance``, :mod:`meadhall.lab.balance`) plays seeded four-player
games, by default with three random gods each. Each finished game is read into facts:
the gods of Ages 1-3, the monsters in play and the first player of Age 1; per seat, the
cards it drafted (its ``pick:`` actions), the cards it played (``upgrade:``, ``quest:``
and ``play:`` actions), the god cards it drafted per god, its favoured god(s), the
monsters it owned at the end and its Glory.

The tables give win rates (a win is place 1; a shared first place counts for each seat
sharing it) against the fair share ``1/players``:

* by **favoured god**: the god whose cards the seat drafted most (a tie splits the seat's
  weight equally between the tied gods);
* by **god in the game** (with the games it was in and the share of the god-card picks
  that went to it: every seat of a game counts, so the win rate stays near the fair
  share and Glory shows whether a deck inflates the scores);
* by **monster drafted**: the seats that drafted a monster's card, which is what is judged
  for monsters, as for every card (a must-pick is about the pick);
* by **monster owned** at the end of the game (``(none)``: seats that owned none), shown
  and not judged: owning one follows from having the Rage to play its card, which a clan
  that is doing well has more often, so most monsters' owners win more than the seats
  without one;
* by seat and by **turn order** in Age 1 (0 = the first player), as every report;
* per **card**: how often it is drafted (and its pick rate: drafts per game it was in the
  deck) and the win rate of the seats that drafted it, which is what is judged: a
  must-pick is a card you must take when it comes round. Shown beside it, not judged:
  the win rate of the seats that played it (a card drawn by an effect counts too) and of
  those that drafted it and did not. Playing a card follows from how the game goes (a
  clan that is winning battles plays its best battle card, one with Rage to spare plays
  its dear upgrades), so the played rate credits a card with the state of the seats that
  play it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from meadhall.core.balance import (
    MUST_PICK,
    BalanceSpec,
    CategorySpec,
    ChoiceSpec,
    ChoiceWords,
    ColumnSpec,
    Description,
    FinishedGame,
    GameFacts,
    SeatFacts,
)
from meadhall.core.game import GameState
from meadhall.games.bloodrage_valhalla.content import Content
from meadhall.games.bloodrage_valhalla.state import BloodRageState

#: The actions that put a card of the hand into play.
PLAY_KINDS = frozenset({"upgrade", "quest", "play"})
#: The key of seats that owned no monster at the end.
NO_MONSTER = "(none)"


def favoured_gods(drafted_by_god: Mapping[str, int]) -> list[str]:
    """The gods with the most cards drafted (all tied gods; every god if none was drafted)."""
    if not drafted_by_god:
        return []
    most = max(drafted_by_god.values())
    return sorted(god for god, count in drafted_by_god.items() if count == most)


def game_facts(first: GameState[Any], last: GameState[Any]) -> GameFacts:
    """The facts of a finished game, from its history and final position (``first``: who began Age 1)."""
    assert isinstance(first, BloodRageState) and isinstance(last, BloodRageState)
    content = last.config.content
    n = last.num_players
    drafted: list[list[str]] = [[] for _ in range(n)]
    played: list[list[str]] = [[] for _ in range(n)]
    for seat, action in last.history():
        if action.kind == "pick":
            drafted[seat].append(action.a)
        elif action.kind in PLAY_KINDS and action.a in content.cards:
            played[seat].append(action.a)
    seats = []
    for seat in range(n):
        by_god = dict.fromkeys(last.gods, 0)
        for card in drafted[seat]:
            god = content.cards[card].god
            if god is not None:
                by_god[god] = by_god.get(god, 0) + 1
        facts = {
            "favoured": favoured_gods(by_god),
            "drafted_by_god": by_god,
            "drafted": drafted[seat],
            "played": played[seat],
            "monsters": list(last.clans[seat].owned_monsters),
        }
        seats.append(SeatFacts((seat - first.first) % n, last.clans[seat].glory, facts))
    return GameFacts(
        {"gods": list(last.gods), "monsters_in_play": list(last.monsters_in_play), "first": first.first}, seats
    )


def _favoured(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
    return [(god, 1.0 / len(seat["favoured"])) for god in seat["favoured"]]


def _in_game(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
    return [(god, 1.0) for god in game["gods"]]


def _owned(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
    return [(monster, 1.0) for monster in seat["monsters"] or [NO_MONSTER]]


def _games_with(games: Sequence[FinishedGame], god: str) -> float:
    return float(sum(1 for game in games if god in game.facts["gods"]))


def _pick_share(games: Sequence[FinishedGame], god: str) -> float:
    """Of the god cards drafted in the games ``god`` was in, the share that were its own."""
    own = every = 0
    for game in games:
        if god in game.facts["gods"]:
            picks = [seat.facts["drafted_by_god"] for seat in game.seats]
            every += sum(sum(by_god.values()) for by_god in picks)
            own += sum(by_god.get(god, 0) for by_god in picks)
    return own / every if every else 0.0


def _describe(content: Content, card_id: str) -> Description:
    card = content.cards.get(card_id)
    return Description(card.name, card.god, card.kind) if card else Description(card_id, None, "?")


def balance_spec(content: Content) -> BalanceSpec:
    """Blood Rage: Valhalla's balance report, for games played with ``content``."""
    monster_of = {card.id: card.monster for card in content.cards.values() if card.monster is not None}
    monster_cards = {card.monster: card.id for card in content.cards.values() if card.god is None}

    def offered(game: Mapping[str, Any]) -> Iterable[str]:
        """The cards in the game's decks: its gods' (without the rainbow cards) and its monsters'."""
        for card in content.cards.values():
            if card.god is not None and card.god in game["gods"] and not card.rainbow:
                yield card.id
        for monster in game["monsters_in_play"]:
            if monster in monster_cards:
                yield monster_cards[monster]

    def drafted_monsters(game: Mapping[str, Any], seat: Mapping[str, Any]) -> list[tuple[str, float]]:
        return [(monster, 1.0) for monster in sorted({monster_of[c] for c in seat["drafted"] if c in monster_of})]

    categories = (
        CategorySpec("favoured_god", "Win rate by favoured god", _favoured, MUST_PICK, listing="gods"),
        CategorySpec(
            "god_in_game",
            "Win rate by god in the game",
            _in_game,
            MUST_PICK,
            note="every seat counts, so win rates stay near the fair share; average Glory spread {score_spread:.1f}",
            listing="gods",
            columns=(
                ColumnSpec("games", "games", _games_with),
                ColumnSpec("pick share", "pick_share", _pick_share, True),
            ),
        ),
        CategorySpec("monster_drafted", "Win rate by monster drafted", drafted_monsters, MUST_PICK),
        CategorySpec(
            "monster",
            "Win rate by monster owned at the end (for information)",
            _owned,
            note="not judged: owning a monster follows from the Rage to play its card",
            unjudged=frozenset({NO_MONSTER}),
        ),
    )
    choices = ChoiceSpec(
        ChoiceWords("card", "cards", "god", "monster", "in_deck", "drafted", "pick", "played", "unplayed"),
        offered=offered,
        chosen=lambda seat: seat["drafted"],
        used=lambda seat: seat["played"],
        describe=lambda card_id: _describe(content, card_id),
    )
    return BalanceSpec(
        facts=game_facts,
        categories=categories,
        score_key="glory",
        score_name="Glory",
        order_title="Win rate by turn order in Age 1 (0 = first player)",
        players=4,
        options={"preset": "random-gods"},
        choices=choices,
    )
