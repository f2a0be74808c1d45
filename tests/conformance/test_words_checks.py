"""The conformance suite's checks of a game's words catch words that miss or leak.

Each test gives Völuspá broken words (one flaw each) and plays until the check meets it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from meadhall.core.errors import IllegalAction
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.core.words import ActionWords, EventWords, ResultWords
from meadhall.games.voluspa import VOLUSPA, VoluspaState
from meadhall.games.voluspa.words import VoluspaWords
from meadhall.testing.conformance import (
    Setup,
    check_event_words,
    check_refusal,
    check_result_words,
    check_words,
    play_and_check,
)


class NoLabelForDiscards(VoluspaWords):
    def actions(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[ActionWords]:
        return [
            {**words, "label": ""} if words["notation"].startswith("FR+") else words
            for words in super().actions(view, legal)
        ]


class ViewWithItsState(dict[str, Any]):
    """A view that carries the state it came from: it dumps to the same JSON, yet holds it all."""

    state: VoluspaState


class PeeksAtThePile(VoluspaWords):
    """Words that read past the view's data, into the state a careless view carries along."""

    def prompt(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        state = getattr(view, "state", None)
        coming = state.pile[-3:] if state is not None else []
        return f"{super().prompt(view, legal)} (the next tiles: {coming})"


class SilentOnDraws(VoluspaWords):
    def event(self, event: Event, viewer: int | None) -> EventWords | None:
        return None if event.kind == "drew" else super().event(event, viewer)


class WrongPlaces(VoluspaWords):
    def result(self, view: Mapping[str, Any]) -> ResultWords:
        result = super().result(view)
        return {"standings": [{**s, "place": 1} for s in result["standings"]], "notes": result["notes"]}


def _mid_game(seed: int = 5) -> VoluspaState:
    state = VOLUSPA.new_game(players=3, seed=seed, options={"preset": "all+lightning"})
    rng = Rng(seed)
    for _ in range(25):
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


def test_the_words_of_voluspa_pass_every_check() -> None:
    state = _mid_game()
    check_words(state, Rng(1), "here")
    seat = state.to_move()[0]
    check_event_words(state, state.clone().apply(seat, state.legal_actions(seat)[0]), "here")
    play_and_check(VOLUSPA, Setup("saga", 2), seed=3)


def _with_words(monkeypatch: pytest.MonkeyPatch, words: VoluspaWords) -> None:
    monkeypatch.setattr(VOLUSPA, "words", lambda: words)


def test_an_action_without_a_label_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_words(monkeypatch, NoLabelForDiscards())
    with pytest.raises(AssertionError, match="has no label or no group"):
        for seed in range(20):  # until a seat may boost with a Freya
            check_words(_mid_game(seed), Rng(1), "here")


def test_words_that_read_more_than_the_view_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_words(monkeypatch, PeeksAtThePile())
    plain_view = VoluspaState.view

    def view(self: VoluspaState, seat: int | None) -> dict[str, Any]:
        found = ViewWithItsState(plain_view(self, seat))
        found.state = self
        return found

    monkeypatch.setattr(VoluspaState, "view", view)
    with pytest.raises(AssertionError, match="depend on information hidden"):
        check_words(_mid_game(), Rng(1), "here")


def test_an_event_without_a_text_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_words(monkeypatch, SilentOnDraws())
    with pytest.raises(AssertionError, match="event drew has no text for viewer"):
        play_and_check(VOLUSPA, Setup("base", 2), seed=2)


def test_an_event_using_the_words_keys_is_caught() -> None:
    state = _mid_game()
    with pytest.raises(AssertionError, match="keys the words add"):
        check_event_words(state, [Event("placed", {"seat": 0, "text": "mine"})], "here")


def test_a_result_placing_seats_elsewhere_than_the_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = VOLUSPA.new_game(players=2, seed=4, options={"preset": "base"})
    rng = Rng(4)
    while not state.is_terminal():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    check_result_words(state, "here")
    if len(set(state.ranking())) == 1:  # pragma: no cover - this seed has a winner
        pytest.skip("a tie: every place is 1")
    _with_words(monkeypatch, WrongPlaces())
    with pytest.raises(AssertionError, match="places the seats"):
        check_result_words(state, "here")


def test_a_refusal_not_written_for_people_is_caught() -> None:
    check_refusal(IllegalAction("a Hel cannot be bumped", "bump-target"), "here")
    with pytest.raises(AssertionError, match="not written for people"):
        check_refusal(IllegalAction("<Place object at 0x7f00> is not legal", "x"), "here")
    with pytest.raises(AssertionError, match="names no rule"):
        check_refusal(IllegalAction("no", ""), "here")
