"""Options of odd types are refused with InvalidOptions, never another error (issue 19, item 11)."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core.errors import InvalidOptions
from meadhall.core.game import OptionSpec
from meadhall.core.registry import all_games, get_game
from meadhall.games.voluspa.game import VoluspaGame


@pytest.mark.parametrize("preset", [["base"], {"name": "base"}, 3, 2.5, True])
def test_a_preset_that_is_not_text_is_refused(preset: Any) -> None:
    for game in all_games():
        with pytest.raises(InvalidOptions, match="preset"):
            game.validate_options({"preset": preset}, players=game.info.min_players)


@pytest.mark.parametrize("value", [[["x"]], {"a": [1]}, [None, [{}]], "9" * 5000])
def test_option_values_of_odd_types_are_invalid_options(value: Any) -> None:
    for game in all_games():
        for spec in game.info.options:
            try:
                game.validate_options({spec.name: value}, players=game.info.min_players)
            except InvalidOptions as error:
                assert str(error)
                assert len(str(error)) < 600  # the value is quoted short


class _Fragile(VoluspaGame):
    """A game whose cross-option check trips over a type it did not expect."""

    def check_options(self, options: dict[str, Any], players: int) -> None:
        raise TypeError("sequence item 0: expected str instance, list found")


def test_an_unexpected_type_in_a_games_own_checks_is_invalid_options() -> None:
    with pytest.raises(InvalidOptions, match="options not understood"):
        _Fragile().validate_options({}, players=2)


def test_setup_words_name_the_preset_then_what_differs_from_it() -> None:
    # A table's summary in the lobby: a preset by its title, then options off their default.
    voluspa = get_game("voluspa")
    saga = voluspa.validate_options({"preset": "saga"}, players=2)
    assert voluspa.info.setup_words(saga) == [voluspa.info.preset_titles["saga"]]
    assert voluspa.info.setup_words(voluspa.validate_options({}, players=2)) == []
    kinds = voluspa.info.option("kinds")
    ten = voluspa.validate_options({"kinds": list(kinds.choices[:10])}, players=2)
    assert voluspa.info.setup_words(ten) == [f"{kinds.title}: 10 of {len(kinds.choices)}"]
    valda = get_game("valda")
    turnaround = valda.validate_options({"preset": "turnaround"}, players=3)
    assert valda.info.setup_words(turnaround) == [valda.info.preset_titles["turnaround"]]


def test_option_words_say_a_value_off_its_default() -> None:
    choice = OptionSpec("speed", "choice", "slow", "", choices=("slow", "fast"), choice_labels=("Slow", "Fast"))
    assert choice.words_for("slow") is None
    assert choice.words_for("fast") == "speed: Fast"
    flag = OptionSpec("lightning", "bool", False, "", label="Lightning Bolt")
    assert flag.words_for(True) == "Lightning Bolt: on"
    assert flag.words_for(None) is None
    rounds = OptionSpec("rounds", "int", 6, "", minimum=1, maximum=12, label="Rounds")
    assert rounds.words_for(8) == "Rounds: 8"
    pack = OptionSpec("content", "pack", "default", "", label="Content pack")
    assert pack.words_for("default") is None
    assert pack.words_for({"pack": "abc"}) == "Content pack: a pack of the table's own"
