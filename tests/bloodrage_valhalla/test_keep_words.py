"""The end of an Age says what a choice does: choosing a card removes it (issue 21, item 6).

The cards a clan keeps are the ones left, so the prompt must not ask to "keep three cards"
where a click on a card discards it.
"""

from __future__ import annotations

from meadhall.games.bloodrage_valhalla.words import BloodRageWords
from tests.bloodrage_valhalla.helpers import end_of_age_one_with_four_cards


def test_the_keep_prompt_says_a_chosen_card_is_removed() -> None:
    state = end_of_age_one_with_four_cards()
    assert state.phase == "keep"
    words = BloodRageWords()
    # Four cards in hand: one must go, and every choice is a removal.
    legal = [str(a) for a in state.legal_actions(0)]
    prompt = words.prompt(state.view(0), legal)
    assert "Choosing a card removes it from the game: remove 1 more card." in prompt
    assert "keep three" not in prompt.lower()
    labels = {item["notation"]: item["label"] for item in words.actions(state.view(0), legal)}
    assert labels["drop:thor-13"].startswith("Remove ")
    # One card: the clan may remove it or keep what it holds.
    legal = [str(a) for a in state.legal_actions(1)]
    prompt = words.prompt(state.view(1), legal)
    assert "Choosing a card removes it from the game; or keep the cards you hold." in prompt
