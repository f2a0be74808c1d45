from __future__ import annotations

import json

import pytest

from meadhall.core.errors import InvalidOptions, MeadhallError, RecordError
from meadhall.core.game import Event, OptionSpec, events_for
from meadhall.core.record import GameRecord
from meadhall.core.registry import all_games, get_game
from meadhall.games.voluspa import VOLUSPA, VoluspaState


def test_registry_finds_games_by_name_and_alias() -> None:
    game = get_game("voluspa")
    assert get_game("Völuspá") is game
    assert get_game("VOL") is game
    assert game in all_games()
    installed = ", ".join(sorted(g.info.name for g in all_games()))  # meadhall's, and any other package's
    assert {"bloodrage-valhalla", "valda", "voluspa"} <= set(installed.split(", "))
    with pytest.raises(MeadhallError, match=f"no game called 'chess'; games: {installed}$"):
        get_game("chess")


def test_options_validation_messages() -> None:
    game = get_game("voluspa")
    assert game.validate_options(None, players=2)["kinds"] == ["OD", "TH", "TR", "DR", "FE", "SK", "VA", "LO"]
    saga = game.validate_options({"preset": "saga", "no-late-hel": "yes"}, players=3)
    assert "HE" in saga["kinds"] and saga["no-late-hel"] is True
    with pytest.raises(InvalidOptions, match="for 2 to 5 players, not 6"):
        game.validate_options(None, players=6)
    with pytest.raises(InvalidOptions, match="no preset 'nope'"):
        game.validate_options({"preset": "nope"}, players=2)
    with pytest.raises(InvalidOptions, match="unknown value 'XX'"):
        game.validate_options({"kinds": ["OD", "XX"]}, players=2)
    with pytest.raises(InvalidOptions, match="no option colour"):
        game.validate_options({"colour": "red"}, players=2)
    with pytest.raises(InvalidOptions, match="on or off"):
        game.validate_options({"auto-best-line": "maybe"}, players=2)
    with pytest.raises(InvalidOptions, match="other than Troll and Hel"):
        game.validate_options({"kinds": ["TR", "HE"]}, players=2)
    with pytest.raises(InvalidOptions, match="needs Hel"):
        game.validate_options({"no-late-hel": True}, players=2)
    assert game.validate_options({"kinds": "od th, lb"}, players=2)["kinds"] == ["OD", "TH", "LB"]


def test_int_and_choice_options() -> None:
    number = OptionSpec("rounds", "int", 6, "rounds", minimum=1, maximum=9)
    assert number.normalize("4") == 4
    with pytest.raises(InvalidOptions, match="at most 9"):
        number.normalize(10)
    with pytest.raises(InvalidOptions, match="whole number"):
        number.normalize("x")
    choice = OptionSpec("gods", "choice", "random", "gods", choices=("random", "first-game"))
    assert choice.normalize("first-game") == "first-game"
    with pytest.raises(InvalidOptions, match="one of random, first-game"):
        choice.normalize("all")


def test_event_audience() -> None:
    public = Event("placed", {"x": 1})
    private = Event("drew", {"tile": "TH"}, frozenset({1}))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(1) and not private.visible_to(0) and not private.visible_to(None)
    assert events_for([public, private], 0) == [public]
    assert private.to_json() == {"kind": "drew", "tile": "TH"}


def _finished_state() -> VoluspaState:
    state = VOLUSPA.new_game(players=3, seed=99, options={"preset": "all"})
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    return state


def test_record_round_trip_and_result_check() -> None:
    state = _finished_state()
    record = GameRecord.from_state(state, ["Ann", "Bo", "Cy"])
    data = json.loads(record.to_json(result=state))
    assert data["format"] == "meadhall-record" and data["version"] == 1
    assert data["result"]["scores"] == state.scores()
    again = GameRecord.from_json(json.dumps(data))
    assert again.replay().fingerprint() == state.fingerprint()
    partial = again.replay(upto=10)
    assert len(partial.history()) == 10
    data["result"]["scores"] = [0, 0, 0]
    with pytest.raises(RecordError, match="stated result does not match"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="other"), "not a meadhall game record"),
        (lambda d: d.update(version=99), "version 99 is not supported"),
        (lambda d: d.update(seed="x"), "seed must be an integer"),
        (lambda d: d["actions"].append({"seat": 7, "action": "end"}), "invalid seat 7"),
        (lambda d: d["actions"].insert(0, {"seat": 0, "action": "TH@9,9"}), "does not replay"),
        (lambda d: d.pop("players"), "misses a field"),
        (lambda d: d.update(ending="gave up"), "ending must be an object"),
        (lambda d: d.update(ending={"by": "boredom"}), "by 'resignation', by 'leaving' or by 'abandonment'"),
        (lambda d: d.update(ending={"by": "leaving", "seat": 0, "places": [1]}), "leaving needs a place from 1 to"),
        (lambda d: d.update(ending={"by": "resignation", "seat": 5, "places": [1, 2]}), "invalid seat 5"),
        (lambda d: d.update(ending={"by": "resignation", "seat": 0, "places": [1]}), "a place from 1 to"),
    ],
)
def test_bad_records_are_refused(mutate: object, message: str) -> None:
    state = _finished_state()
    data = json.loads(GameRecord.from_state(state).to_json())
    mutate(data)  # type: ignore[operator]
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data).replay()


def test_a_record_says_how_a_game_that_stopped_short_ended() -> None:
    state = VOLUSPA.new_game(players=2, seed=5)
    for _ in range(3):
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    resigned = {"by": "resignation", "seat": 1, "places": [1, 2]}
    record = GameRecord.from_state(state, ["Ann", "Bo"])
    record.ending = resigned
    again = GameRecord.from_json(record.to_json(result=state))
    assert again.ending == resigned and "result" not in json.loads(record.to_json(result=state))
    assert again.replay().fingerprint() == state.fingerprint()
    record.ending = {"by": "abandonment"}
    assert GameRecord.from_json(record.to_json()).ending == {"by": "abandonment"}
    left = {"by": "leaving", "seat": 0, "places": [2, 1]}
    record.ending = left
    assert GameRecord.from_json(record.to_json()).ending == left


def test_not_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.from_json("{")
