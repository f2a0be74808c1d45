"""Valda beyond the shared conformance suite (tests/conformance runs it over every game)."""

from __future__ import annotations

from collections import Counter

from meadhall.core.rng import Rng
from meadhall.games.valda.game import GAME
from meadhall.games.valda.state import ValdaState


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


def _is_within(part: list[str], whole: list[str]) -> bool:
    return not Counter(part) - Counter(whole)


def test_what_a_seat_knows_of_other_hands_stays_true_and_worlds_keep_it() -> None:
    looked = learned = 0
    for seed in range(12):
        state = GAME.new_game(players=3, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal():
            (seat,) = state.to_move()
            legal = state.legal_actions(seat)
            busy = [a for a in legal if a.kind not in ("pass", "done", "yield")] or legal
            action = busy[rng.below(len(busy))]
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
