"""The options of a Blood Rage: Valhalla game: what the Rainbow Bridge module allows, and
that no value of an option, however malformed, fails with anything but InvalidOptions.

The server turns any other exception into a 500, so a malformed option must be refused
with a message for people, never break the check.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meadhall.core.errors import InvalidOptions
from meadhall.games import bloodrage_valhalla
from meadhall.games.bloodrage_valhalla import BLOODRAGE


def _rainbow(value: Any, players: int = 3) -> Any:
    return BLOODRAGE.validate_options({"rainbow-rewards": value}, players=players)["rainbow-rewards"]


@pytest.mark.parametrize(
    "value, expected",
    [
        ("thor+loki/freya/", [["thor", "loki"], ["freya"], []]),
        ("Thor + Loki / / ", [["thor", "loki"], [], []]),
        ([["thor", "loki"], "freya", []], [["thor", "loki"], ["freya"], []]),
        (["thor", "thor", "thor"], [["thor"], ["thor"], ["thor"]]),  # every clan may earn a god's card
        ("", []),
        ([], []),
        (None, []),
    ],
)
def test_rainbow_rewards_read_text_and_lists(value: Any, expected: list[list[str]]) -> None:
    assert _rainbow(value) == expected
    assert _rainbow(expected) == expected, "the canonical form reads back to itself"


@pytest.mark.parametrize(
    "value, words",
    [
        # one god twice for a seat: a clan earns each god's reward card once
        ("thor+thor//", ["seat 1", "thor twice"]),
        ([[], ["loki", "Loki"], []], ["seat 2", "loki twice"]),
        # the module has 3 God Mission tiles: no more than 3 gods' cards in all
        ("thor+loki+freya+baldr+tyr//", ["3 God Mission tiles", "not 5"]),
        ("thor+loki/freya/baldr", ["3 God Mission tiles", "not 4", "baldr, freya, loki, thor"]),
        ("odin//", ["unknown god 'odin'", "seat 1"]),
        ("thor/loki", ["one entry per seat (3, not 2)"]),
    ],
)
def test_rainbow_rewards_refuse_what_the_module_cannot_give(value: Any, words: list[str]) -> None:
    with pytest.raises(InvalidOptions) as refused:
        _rainbow(value)
    for word in words:
        assert word in str(refused.value)


@pytest.mark.parametrize(
    "value",
    [
        [[1, 2], [], []],  # was a TypeError: "+".join of numbers
        [[["thor"]], [], []],
        [{"god": "thor"}, "", ""],
        [None, None, None],
        ["thor", 1, ""],
        {"seat-1": "thor"},
        5,
        True,
        2.5,
    ],
)
def test_malformed_rainbow_rewards_are_invalid_options(value: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        _rainbow(value)
    assert str(refused.value).startswith("Rainbow Bridge rewards: ")
    assert len(str(refused.value)) < 300


def test_a_pack_without_a_gods_rainbow_card_refuses_that_reward() -> None:
    pack = json.loads(resources.files(bloodrage_valhalla).joinpath("data/default.json").read_text("utf-8"))
    pack["cards"] = [card for card in pack["cards"] if card["id"] != "rainbow-thor"]
    with pytest.raises(InvalidOptions, match="no Rainbow Bridge card for thor"):
        BLOODRAGE.validate_options({"content": pack, "rainbow-rewards": "thor//"}, players=3)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["thor", "Loki", "freya+thor", "thor/loki/", "1,2,3", "random", "first-game", "default", "+/"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(option=st.sampled_from(["rainbow-rewards", "gods", "starting-glory"]), value=JSON)
def test_any_json_value_of_an_option_is_accepted_or_refused_as_invalid_options(option: str, value: Any) -> None:
    try:
        normalized = BLOODRAGE.validate_options({option: value}, players=3)
    except InvalidOptions as refused:
        assert str(refused)
        return
    assert BLOODRAGE.validate_options(normalized, players=3) == normalized
