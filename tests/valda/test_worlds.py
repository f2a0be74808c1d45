"""Valda beyond the shared conformance suite (tests/conformance runs it over every game)."""

from __future__ import annotations

from collections import Counter

from meadhall.core.rng import Rng
from meadhall.games.valda.game import GAME
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.state import ValdaState, read_decision


def test_a_sampled_world_shows_each_seat_its_view_and_deals_the_hidden_cards_again() -> None:
    state = GAME.new_game(players=4, seed=3)
    rng = Rng(5)
    while state.round < 3:
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    hands = set()
    for draw in range(20):
        world = state.sample_world(0, Rng(draw))
        assert isinstance(world, ValdaState) and isinstance(state, ValdaState)
        assert world.view(0) == state.view(0) and world.view(None) == state.view(None)
        assert sorted(world.players[0].hand) == sorted(state.players[0].hand)
        hands.add(tuple(sorted(world.players[1].hand)))
    assert len(hands) > 10  # the other hands are dealt again, not copied


def _busy_move(state: ValdaState, rng: Rng, swaps: bool = False) -> tuple[int, ValdaAction]:
    """A random decision that does something when it can: no pass, done or yield.

    No swaps unless asked: at Heimdall's 1:1 rate they could go round for ever (the seeds
    of the test that allows them end).
    """
    (seat,) = state.to_move()
    legal = state.legal_actions(seat)
    idle = ("pass", "done", "yield") if swaps else ("pass", "done", "yield", "swap")
    busy = [a for a in legal if a.kind not in idle] or legal
    return seat, busy[rng.below(len(busy))]


def _is_within(part: list[str], whole: list[str]) -> bool:
    return not Counter(part) - Counter(whole)


def test_what_a_seat_knows_of_other_hands_stays_true_and_worlds_keep_it() -> None:
    looked = learned = 0
    for seed in range(12):
        state = GAME.new_game(players=3, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat, action = _busy_move(state, rng, swaps=True)
            events = state.apply(seat, action)
            looked += any(e.kind == "looked-at-hand" for e in events)
            for viewer in [*range(3), None]:
                known = state.view(viewer)["known"]
                for target in range(3):
                    assert _is_within(known[target], state.players[target].hand), (viewer, target)
                    if viewer is not None and viewer != target:  # what everybody knows, each seat knows too
                        assert _is_within(state.view(None)["known"][target], known[target]), (viewer, target)
            for event in events:
                if event.kind == "looked-at-hand":  # a full look: the viewer knows the whole hand now
                    target = int(event.data["target"])
                    assert sorted(state.view(seat)["known"][target]) == sorted(state.players[target].hand)
            if any(state.view(0)["known"][t] for t in (1, 2)) and state.round < 6:
                learned += 1
                world = state.sample_world(0, Rng(seed))
                assert isinstance(world, ValdaState)
                assert world.view(0) == state.view(0) and world.view(None) == state.view(None)
                for target in (1, 2):
                    assert _is_within(state.view(0)["known"][target], world.players[target].hand)
    assert looked > 0 and learned > 20, (looked, learned)


def _bottoms_hold(state: ValdaState) -> None:
    """Every slot's knowledge of the deck bottoms is true: the cards lie there, in that order."""
    decks = {"base": state.base, **state.gods}
    for slot in range(state.num_players + 1):
        for deck, cards in state.bottoms[slot].items():
            lying = decks[deck][: len(cards)]
            assert len(lying) == len(cards), (slot, deck)
            assert all(known is None or known == card for known, card in zip(cards, lying, strict=True)), (slot, deck)


def test_cards_a_seat_put_under_a_deck_are_remembered_and_worlds_keep_them() -> None:
    put_under = 0
    for seed in range(16):
        state = GAME.new_game(players=3, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat, action = _busy_move(state, rng)
            decision = dict(state.decision or {})
            state.apply(seat, action)
            _bottoms_hold(state)
            if decision.get("kind") == "keep":  # the card not kept went under its god's deck
                put_under += 1
                (other,) = [c for c in decision["cards"] if c != action.a] or [action.a]
                assert state.view(seat)["bottoms"][decision["god"]][0] == other
                assert all(state.view(s)["bottoms"][decision["god"]][0] is None for s in range(3) if s != seat)
                assert state.view(None)["bottoms"][decision["god"]][0] is None
            if len(state.history()) % 25 == 0 and any(state.view(0)["bottoms"].values()):
                world = state.sample_world(0, Rng(seed + 100))
                assert isinstance(world, ValdaState)
                assert world.view(0) == state.view(0)
                for deck, cards in state.view(0)["bottoms"].items():
                    pile = world.base if deck == "base" else world.gods[deck]
                    assert all(c is None or c == w for c, w in zip(cards, pile, strict=False)), deck
    assert put_under > 20


def test_a_remembered_card_drawn_by_another_seat_is_known_to_be_in_its_hand() -> None:
    state = GAME.new_game(players=3, seed=4)
    rng = Rng(4)
    while not (state.decision and state.decision["kind"] == "keep"):
        state.apply(*_busy_move(state, rng))
    keeper, god, (kept, under) = state.decision["seat"], state.decision["god"], state.decision["cards"]
    state.apply(keeper, ValdaAction("keep", kept))
    assert state.view(keeper)["bottoms"][god] == [under]
    # The deck is drawn down to that card (hand-built: as if opened and discarded, over rounds).
    deck = state.gods[god]
    state._from_top(god, len(deck), len(deck) - 1, None)
    state.discard += deck[1:]
    del deck[1:]
    _bottoms_hold(state)
    drawer = (keeper + 1) % 3
    state.decision, state.queue = (
        read_decision({"seat": drawer, "kind": "god-draw", "gods": [god], "why": "a test"}),
        [],
    )
    state.apply(drawer, ValdaAction("god", god))
    assert under in state.players[drawer].hand and not state.gods[god]
    assert under in state.view(keeper)["known"][drawer]  # the keeper saw it go under, so knows where it went
    assert under not in state.view(None)["known"][drawer] and not state.view(keeper)["bottoms"]
    world = state.sample_world(keeper, Rng(1))
    assert isinstance(world, ValdaState) and under in world.players[drawer].hand


def test_worlds_at_another_seats_hammertime_choice_hold_as_many_yellow_cards_as_it_shows() -> None:
    # Another seat choosing a yellow card for Hammertime shows how many different ones it
    # holds (not which): a world deals that hand so, and the choice can be played on.
    state = GAME.new_game(players=3, seed=0)
    rng = Rng(1)
    while state.phase != "game":
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    (seat,) = state.to_move()
    mjolnir = state.config.content.weapon("thor").id
    state.gods["thor"].remove(mjolnir)
    hand = state.players[seat].hand
    for card in ("gold-vein", "prayer", "prayer"):
        state.base.remove(card)
        hand.append(card)
    state.players[seat].hand.append(mjolnir)
    state.apply(seat, ValdaAction("weapon", "hammertime"))
    assert state.decision is not None and state.decision["kind"] == "hammer"
    yellows = state.decision["cards"]
    viewer = (seat + 1) % 3
    assert state.view(viewer)["decision"]["cards"] == len(yellows)
    for draw in range(30):
        world = state.sample_world(viewer, Rng(draw))
        assert isinstance(world, ValdaState)
        assert world.view(viewer) == state.view(viewer)
        choices = world.legal_actions(seat)
        assert len(choices) == len(yellows) and all(a.kind == "card" for a in choices)
        assert {a.a for a in choices} <= {c for c in world.players[seat].hand}
        world.apply(seat, choices[0])  # the world plays on


def _god_card_choices() -> list[ValdaState]:
    """Positions where a seat looks at two god cards: a locked area's (open or closed by Freya), a card's."""
    from tests.valda.test_rules import _locked, until

    found = []
    for freya in (0, 1):
        state, _ = _locked("thor", "odin", freya=freya, state=GAME.new_game(players=3, seed=4))
        found.append(until(state, "lock-card"))
    state = until(GAME.new_game(players=3, seed=4), "game")
    seat = state.current
    state.gods["freya"].remove("seidr")
    state.players[seat].hand.append("seidr")
    state.apply(seat, ValdaAction("play", "seidr"))
    state.apply(seat, ValdaAction("god", "loki"))
    found.append(state)
    return found


def test_two_god_cards_looked_at_are_the_seats_alone_and_worlds_deal_them_from_the_deck() -> None:
    from meadhall.testing.conformance import check_events_leak_nothing, check_views_consistent

    for state in _god_card_choices():
        assert state.decision is not None and state.decision["kind"] in ("keep", "lock-card")
        seat, god, looked = state.decision["seat"], state.decision["god"], state.decision["cards"]
        rng = Rng(7)
        check_views_consistent(state, rng, state.decision["kind"])
        for viewer in [s for s in range(state.num_players) if s != seat] + [None]:
            assert state.view(viewer)["decision"]["cards"] == 2
            for draw in range(5):
                world = state.sample_world(viewer, Rng(draw))
                assert isinstance(world, ValdaState) and world.decision is not None
                assert all(world.config.content.cards[c].god == god for c in world.decision["cards"])
        for card in looked:  # what the others see of the choice does not depend on the cards
            check_events_leak_nothing(state, seat, ValdaAction("keep", card), rng, state.decision["kind"])
