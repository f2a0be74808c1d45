"""The engine's own promises: the quiet path builds no events, decisions by kind, seats as ints."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall import IllegalAction
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla import BLOODRAGE, BloodRageState, BRAction, parse_action
from meadhall.games.bloodrage_valhalla.decisions import PENDING, PHASES

from .helpers import action_state


def random_game(players: int, seed: int, quiet: bool) -> tuple[BloodRageState, set[str]]:
    """A seeded random game, by ``apply_quiet`` or ``apply``; the kinds of decision met on the way."""
    return play_out(BLOODRAGE.new_game(players=players, seed=seed), seed, quiet)


def play_out(state: BloodRageState, seed: int, quiet: bool) -> tuple[BloodRageState, set[str]]:
    """Play a game on at random to its end."""
    rng = Rng(seed)
    met: set[str] = set()
    while not state.is_terminal():
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        met.add(state.decision.kind if state.decision is not None else state.phase)
        action = legal[rng.below(len(legal))]
        if quiet:
            state.apply_quiet(seat, action)
        else:
            state.apply(seat, action)
    return state, met


def test_the_quiet_path_builds_no_events_and_plays_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    loud = [random_game(players, seed, quiet=False)[0] for players, seed in ((3, 11), (4, 12), (5, 13))]
    built: list[str] = []
    original = Event.__init__

    def counting(self: Event, kind: str, *args: Any, **kwargs: Any) -> None:
        built.append(kind)
        original(self, kind, *args, **kwargs)

    monkeypatch.setattr(Event, "__init__", counting)
    for players, seed, other in zip((3, 4, 5), (11, 12, 13), loud, strict=True):
        state = BLOODRAGE.new_game(players=players, seed=seed)
        assert built  # setting up builds the deal's events (``Game.deal`` shows them): the patch counts
        built.clear()
        play_out(state, seed, quiet=True)
        assert built == [], f"the quiet path built events: {built[:5]}"
        assert state.fingerprint() == other.fingerprint()
        assert state.history() == other.history()


def test_random_games_meet_every_kind_of_decision() -> None:
    met: set[str] = set()
    for seed in range(12):
        met |= random_game(3 + seed % 3, seed, quiet=True)[1]
    assert set(PHASES) | set(PENDING) <= met, (set(PHASES) | set(PENDING)) - met


def test_a_pending_decision_shows_in_views_as_its_kind_and_data() -> None:
    for seed in range(40):
        state = BLOODRAGE.new_game(players=4, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal() and state.decision is None:
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply_quiet(seat, legal[rng.below(len(legal))])
        decision = state.decision
        if decision is None:
            continue
        shown = state.view(None)["decision"]
        assert shown["seat"] == decision.seat and shown["type"] == decision.kind
        assert shown["data"][:2] == [decision.seat, decision.kind]
        world = state.sample_world(decision.seat, Rng(seed))
        assert isinstance(world, BloodRageState) and world.decision == decision
        assert world.legal_actions(decision.seat) == state.legal_actions(decision.seat)
        return
    raise AssertionError("no pending decision in 40 games")


def test_an_action_of_another_kind_is_refused_with_what_the_decision_wants() -> None:
    state = action_state()
    seat = state.to_move()[0]
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, parse_action("pick:thor-01"))
    assert "now is the time to take an action" in str(caught.value)
    drafting = BLOODRAGE.new_game(players=3, seed=5)
    with pytest.raises(IllegalAction) as caught:
        drafting.apply(0, parse_action("done"))
    assert str(caught.value) == "now is the time to pick"


def test_destroy_and_kill_name_the_target_seat_as_an_int() -> None:
    destroy = parse_action("destroy:02:elite")
    assert destroy == BRAction("destroy", "elite", owner=2) and str(destroy) == "destroy:2:elite"
    kill = parse_action("kill:valhalla:1:warrior")
    assert kill == BRAction("kill", "valhalla", "warrior", owner=1) and str(kill) == "kill:valhalla:1:warrior"
    assert isinstance(kill.owner, int) and isinstance(destroy.owner, int)
