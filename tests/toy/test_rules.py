"""The toy game's rules, notation, views and worlds, from hand-built positions and played games.

The conformance suite (tests/conformance) plays it like every registered game; these check
what the rules say it does.
"""

from __future__ import annotations

import dataclasses

import pytest
from meadhall_toy import GAME, PASS, Answer, Pass, Play, ToyAction, ToyState, parse_action
from meadhall_toy.state import full_deck

from meadhall.core.errors import IllegalAction, InvalidOptions, MalformedAction
from meadhall.core.registry import get_game
from meadhall.core.rng import Rng
from tests.toy import TOY


def test_the_registry_finds_it_through_its_entry_point() -> None:
    assert TOY is GAME
    assert get_game("Toy Duel") is GAME and get_game("toy-duel") is GAME
    assert GAME.web_plugin().is_file()  # package data, beside the game's modules


@pytest.mark.parametrize("text", ["play:4", "answer:6", "pass"])
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text and parse_action(str(action)) == action
    assert hash(action) == hash(parse_action(text))  # small frozen values
    assert dataclasses.is_dataclass(action) and vars(type(action))["__dataclass_params__"].frozen


@pytest.mark.parametrize("text", ["", "play", "play:", "play:x", "play:0", "play:100", "bid:3", "answer:-1", "pass:1"])
def test_malformed_notation_is_malformed(text: str) -> None:
    with pytest.raises(MalformedAction):
        parse_action(text)


def test_options_and_presets() -> None:
    assert GAME.validate_options({"preset": "long"}, players=3) == {"rounds": 12, "hand": 2}
    with pytest.raises(InvalidOptions, match="for 2 to 3 players"):
        GAME.validate_options(None, players=4)
    with pytest.raises(InvalidOptions, match="at most 12"):
        GAME.validate_options({"rounds": 13}, players=2)


def hand_built(hands: list[list[int]], *, die: int = 4, rounds: int = 6) -> ToyState:
    """A first round with the given hands and die; the rest of the runes in the deck."""
    state = GAME.new_game(players=len(hands), seed=1, options={"rounds": rounds, "hand": 3})
    deck = full_deck()
    for hand in hands:
        for rune in hand:
            deck.remove(rune)
    state.hands = [sorted(hand) for hand in hands]
    state.deck = deck
    state.die = die
    return state


def test_the_leader_plays_then_every_other_seat_is_offered_the_window_in_turn() -> None:
    state = hand_built([[2, 5, 6], [1, 3, 4], [1, 1, 6]])
    assert state.to_move() == (0,) and not state.response_window(0)
    assert state.legal_actions(0) == [Play(2), Play(5), Play(6)]
    state.apply(0, Play(2))
    assert state.to_move() == (1,) and state.response_window(1)
    assert state.legal_actions(1) == [Answer(3), Answer(4), PASS]
    events = state.apply(1, Answer(3))
    assert [e.kind for e in events] == ["answered"]
    # Seat 2 holds nothing above 3 but a 6: it is asked all the same, as any seat would be.
    assert state.to_move() == (2,) and state.response_window(2)
    assert state.legal_actions(2) == [Answer(6), PASS]


def test_a_seat_with_nothing_higher_is_still_asked_and_may_only_pass() -> None:
    state = hand_built([[6, 6, 5], [1, 2, 3]])
    state.apply(0, Play(6))
    assert state.to_move() == (1,) and state.response_window(1)
    assert state.legal_actions(1) == [Pass()]


def test_the_highest_rune_wins_the_die_and_hands_refill() -> None:
    state = hand_built([[2, 5, 6], [1, 3, 4]], die=5)
    state.apply(0, Play(2))
    events = state.apply(1, Answer(4))
    won = next(e for e in events if e.kind == "won")
    assert won.data == {"seat": 1, "rune": 4, "points": 5, "total": 5}
    assert state.scores() == [0, 5]
    assert state.discard == [2, 4]
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 3
    drew = [e for e in events if e.kind == "drew"]
    assert [e.audience for e in drew] == [frozenset({0}), frozenset({1})]  # only the drawer sees its runes
    assert state.round == 2 and state.to_move() == (1,)  # round 2 is led by the next seat
    assert 1 <= state.die <= 6


def test_an_unanswered_lead_wins_its_own_round() -> None:
    state = hand_built([[1, 2, 3], [4, 5, 6]], die=3)
    state.apply(0, Play(1))
    state.apply(1, PASS)
    assert state.scores() == [3, 0]


def test_refusals_are_the_engines_and_change_nothing() -> None:
    state = hand_built([[2, 5, 6], [1, 3, 4]])
    before = state.fingerprint()
    cases: list[tuple[int, ToyAction, str]] = [
        (1, Play(1), "turn"),
        (0, PASS, "lead"),
        (0, Answer(5), "lead"),
        (0, Play(4), "hand"),
    ]
    for seat, action, rule in cases:
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action)
        assert refused.value.rule == rule
        assert state.fingerprint() == before
    state.apply(0, Play(5))
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, Answer(1))
    assert refused.value.rule == "higher"
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, Play(4))
    assert refused.value.rule == "window"


def test_the_game_ends_after_its_rounds_or_when_the_leader_has_no_rune() -> None:
    state = hand_built([[1], [2]], rounds=2)
    state.deck = []
    state.apply(0, Play(1))
    events = state.apply(1, Answer(2))
    assert state.is_terminal() and state.to_move() == ()
    over = events[-1]
    assert over.kind == "game-over" and over.data["reason"] == "empty" and over.data["seat"] == 1
    assert state.ranking() == [2, 1]
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, PASS)


def test_equal_scores_share_the_place() -> None:
    state = hand_built([[1, 2, 3], [4, 5, 6], [1, 2, 3]])
    state.score = [4, 4, 1]
    assert state.ranking() == [1, 1, 3]


def test_options_seed_and_actions_replay_the_game_exactly() -> None:
    state = GAME.new_game(players=3, seed=42, options={"preset": "standard"})
    rng = Rng(5)
    while not state.is_terminal():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    again = GAME.replay(3, 42, state.options, [(seat, str(action)) for seat, action in state.history()])
    assert again.fingerprint() == state.fingerprint()


def test_views_show_a_seat_its_own_hand_only() -> None:
    state = hand_built([[2, 5, 6], [1, 3, 4]])
    assert state.view(0)["hand"] == [2, 5, 6] and state.view(1)["hand"] == [1, 3, 4]
    assert "hand" not in state.view(None)
    assert state.view(0)["seats"] == [{"score": 0, "runes": 3}, {"score": 0, "runes": 3}]


def test_worlds_keep_the_view_and_deal_the_unseen_runes_again() -> None:
    state = hand_built([[2, 5, 6], [1, 3, 4], [1, 1, 6]])
    state.apply(0, Play(2))
    rng = Rng(9)
    hands = set()
    for _ in range(30):
        world = state.sample_world(0, rng)
        assert isinstance(world, ToyState)
        assert world.view(0) == state.view(0)
        assert sorted(world.hands[1] + world.hands[2] + world.deck) == sorted(
            state.hands[1] + state.hands[2] + state.deck
        )
        hands.add(tuple(world.hands[1]))
    assert len(hands) > 1  # what seat 0 cannot see is dealt at random
    with pytest.raises(ValueError, match="not a Toy Duel view"):
        GAME.belief({"seats": []})
