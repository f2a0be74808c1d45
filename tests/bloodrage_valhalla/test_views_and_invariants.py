"""Hidden information in views and events, and invariants over whole games of random play."""

from __future__ import annotations

import json
import random

import pytest

from meadhall.core.game import Event, events_for
from meadhall.games.bloodrage_valhalla import BloodRageState
from tests.bloodrage_valhalla.helpers import action_state, arrange, new_game, play

ALL_CARDS_3P = 84


def hidden_from(state: BloodRageState, seat: int | None, dropped_by: dict[str, int] | None = None) -> set[str]:
    """Card ids that ``seat`` (None: a spectator) must not see now.

    ``dropped_by`` tells who removed each card from the game at the end of an Age (the
    seat that dropped a card knows it).
    """
    dropped_by = dropped_by or {}
    hidden: set[str] = set(state.deck) | {c for c in state.removed if dropped_by.get(c) != seat}
    for other, clan in enumerate(state.clans):
        if other == seat:
            continue
        hidden |= set(clan.hand) - set(clan.known)
        hidden |= set(clan.quests) | set(clan.drafted) | set(clan.saved) | set(state.packs[other])
        pick = state.picks[other]
        if pick is not None:
            hidden.add(pick)
        battle = state.battle
        if battle is not None and not battle.revealed:
            card = battle.played.get(other)
            if card is not None:
                hidden.add(card)
    return hidden


def assert_no_leak(
    state: BloodRageState, events: list[Event] | None = None, dropped_by: dict[str, int] | None = None
) -> None:
    for seat in [*range(state.num_players), None]:
        hidden = hidden_from(state, seat, dropped_by)
        text = json.dumps(state.view(seat))
        leaked = {card for card in hidden if f'"{card}"' in text}
        assert not leaked, f"seat {seat} sees {sorted(leaked)} in its view"
        if events is not None:
            seen = json.dumps([e.to_json() for e in events_for(events, seat)])
            leaked = {card for card in hidden if f'"{card}"' in seen}
            assert not leaked, f"seat {seat} sees {sorted(leaked)} in events"


def all_cards(state: BloodRageState) -> list[str]:
    cards = list(state.deck) + list(state.removed) + list(state.spent)
    for seat, clan in enumerate(state.clans):
        cards += clan.hand + clan.drafted + clan.saved + clan.discards + clan.upgrades + clan.quests
        cards += state.packs[seat]
    if state.battle is not None:  # chosen cards, until the resolution sends them back or away
        elsewhere = set(cards)
        cards += [c for c in state.battle.played.values() if c is not None and c not in elsewhere]
    return cards


def assert_conserved(state: BloodRageState, total: int) -> None:
    cards = all_cards(state)
    monster_cards = sum(1 for c in cards if c.startswith("monster-"))
    assert len(cards) == total, "cards are neither created nor lost"
    assert len(set(cards)) == len(cards), "no card is in two places"
    assert monster_cards == 3 * state.num_players
    for seat, clan in enumerate(state.clans):
        places = [f for figures in state.board.values() for f in figures]
        places += [f for pile in state.killpiles for f in pile] + list(state.feast)
        mine = [kind for owner, kind in places if owner == seat]
        assert clan.warriors + mine.count("warrior") == 6
        assert clan.elites + mine.count("elite") == 2
        assert sorted(clan.monsters + [k for k in mine if k not in ("warrior", "elite")]) == sorted(clan.owned_monsters)
        assert clan.rage >= 0 and clan.glory >= 0
        assert len(clan.upgrades) + len(clan.quests) <= 7


def test_another_seats_hand_is_never_in_a_view() -> None:
    state = action_state(4, seed=13)
    for seat in range(4):
        text = json.dumps(state.view(seat))
        for other in range(4):
            for card in state.clans[other].hand:
                assert (f'"{card}"' in text) == (other == seat)
        assert state.view(seat)["clans"][(seat + 1) % 4]["hand"] == 5
    spectator = json.dumps(state.view(None))
    assert not any(f'"{c}"' in spectator for clan in state.clans for c in clan.hand)


def test_committed_quests_are_hidden_until_the_quest_phase() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["tyr-25"]}, first=0, current=0)
    events = play(state, 0, "quest:tyr-25")
    assert_no_leak(state, events)
    assert state.view(0)["my_quests"] == ["tyr-25"]
    events = []
    for seat in (1, 2, 0):
        events += play(state, seat, "pass")
    revealed = [e for e in events if e.kind == "quest"]
    assert revealed and revealed[0].audience is None and revealed[0].data["card"] == "tyr-25"


def test_views_are_json_and_name_the_seat() -> None:
    state = new_game(3, seed=2)
    for seat in (0, 1, 2, None):
        view = state.view(seat)
        assert view["seat"] == seat
        json.dumps(view)
    with pytest.raises(ValueError):
        state.view(3)


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (5, 3)])
def test_random_games_keep_secrets_and_conserve_cards_and_figures(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    total = len(all_cards(state))
    assert total == 75 + 3 * players
    steps = 0
    dropped_by: dict[str, int] = {}
    while not state.is_terminal():
        steps += 1
        assert steps < 5000
        seats = state.to_move()
        assert seats, f"stuck in phase {state.phase}"
        seat = rng.choice(seats)
        legal = state.legal_actions(seat)
        assert legal
        for other in range(players):
            if other not in seats:
                assert state.legal_actions(other) == []
        events = state.apply(seat, rng.choice(legal))
        dropped_by.update({str(e.data["card"]): int(str(e.data["seat"])) for e in events if e.kind == "dropped"})
        assert_no_leak(state, events, dropped_by)
        assert_conserved(state, total)
    assert state.age == 3 and state.phase == "over"
    assert sorted(state.ranking())[0] == 1
