"""Options of odd types are refused with InvalidOptions, never another error (issue 19, item 11)."""

from __future__ import annotations

from typing import Any

import pytest

from meadhall.core.errors import InvalidOptions
from meadhall.core.registry import all_games
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
