"""Setup, God Arrives and the Draft of the Gods' Gifts (rulebook: Setup, God Arrives, Draft)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from meadhall import IllegalAction, MalformedAction
from meadhall.core.game import Event, events_for
from meadhall.games.bloodrage_valhalla import BLOODRAGE, parse_action
from meadhall.games.bloodrage_valhalla.game import default_content
from meadhall.games.bloodrage_valhalla.state import BloodRageState
from tests.bloodrage_valhalla.helpers import (
    action_state,
    arrange,
    draft_all,
    finish_age_passing,
    illegal,
    keep_last,
    new_game,
    play,
    run_until,
)

CONTENT = default_content()


def token(region: str) -> int:
    number = CONTENT.regions[region].token
    assert number is not None
    return number


# Setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_clans_start_with_6_rage_3_axes_4_horns_and_0_glory(players: int) -> None:
    state = new_game(players, seed=5)
    view = state.view(None)
    for seat, clan in enumerate(view["clans"]):
        assert clan["seat"] == seat
        assert clan["rage"] == 6
        assert clan["stats"] == {"rage": 6, "axes": 3, "horns": 4}
        assert clan["steps"] == {"rage": 0, "axes": 0, "horns": 0}
        assert clan["glory"] == 0
        assert clan["reserve"] == {"warrior": 6, "elite": 2, "monsters": []}
        assert clan["upgrades"] == [] and clan["quests"] == 0
    assert all(not figures for figures in state.board.values())


@pytest.mark.parametrize("players, size", [(3, 84), (4, 87), (5, 90)])
def test_deck_is_three_god_decks_of_25_and_3_monster_cards_per_player(players: int, size: int) -> None:
    state = new_game(players, seed=17)
    cards = state.deck + [card for pack in state.packs for card in pack]
    assert len(cards) == size
    assert len(set(cards)) == size
    by_god = Counter(CONTENT.cards[c].god for c in cards)
    assert by_god == {"thor": 25, "loki": 25, "tyr": 25, None: 3 * players}
    monsters = [CONTENT.cards[c] for c in cards if CONTENT.cards[c].god is None]
    assert all(card.upgrade == "monster" for card in monsters)
    assert not any(CONTENT.cards[c].rainbow for c in cards)


def test_random_gods_are_three_different_gods_with_their_decks() -> None:
    state = BLOODRAGE.new_game(players=4, seed=23, options={"preset": "random-gods"})
    assert len(state.gods) == 3 and len(set(state.gods)) == 3
    cards = state.deck + [card for pack in state.packs for card in pack]
    by_god = Counter(CONTENT.cards[c].god for c in cards)
    expected: dict[str | None, int] = {god: 25 for god in state.gods}
    expected[None] = 12
    assert by_god == expected


def test_first_game_places_thor_loki_and_tyr_on_the_age_slots_at_random() -> None:
    # "Shuffle the God Tokens and randomly place one on each of the three Age slots"; the
    # first-game advice names the gods, not their Ages.
    orders = [
        tuple(BLOODRAGE.new_game(players=3, seed=seed, options={"preset": "first-game"}).gods) for seed in range(60)
    ]
    assert {tuple(sorted(order)) for order in orders} == {("loki", "thor", "tyr")}
    assert len(set(orders)) == 6, "every order of the three gods happens"
    again = BLOODRAGE.new_game(players=3, seed=11, options={"preset": "first-game"})
    assert tuple(again.gods) == orders[11], "the order comes from the seed"
    assert list(again.gods_at.values()) == [again.gods[0]]


def test_gods_option_fixes_the_order_of_the_ages() -> None:
    state = new_game(3, seed=2, gods="baldr,freya,tyr")
    assert state.gods == ["baldr", "freya", "tyr"]
    assert list(state.gods_at.values()) == ["baldr"]


def test_three_region_tokens_and_the_age_1_god_takes_the_lowest_numbered_one() -> None:
    for seed in range(25):
        state, events = BLOODRAGE.deal(players=3, seed=seed, options={"gods": ["thor", "loki", "tyr"]})
        arrivals = [e for e in events if e.kind == "god-arrives"]
        assert len(arrivals) == 1
        god_region = str(arrivals[0].data["region"])
        drawn = {*state.region_tokens, god_region}
        assert len(drawn) == 3, "three region tokens are drawn at setup"
        assert state.gods_at == {god_region: "thor"}
        assert len(state.region_tokens) == 2
        assert all(token(god_region) < token(other) for other in state.region_tokens)
        assert "valhalla" not in drawn


def test_first_player_is_random_and_starts_the_action_phase() -> None:
    firsts = set()
    for seed in range(12):
        state = action_state(4, seed=seed)
        assert 0 <= state.first < 4
        assert state.to_move() == (state.first,)
        firsts.add(state.first)
    assert len(firsts) > 1


# Later Ages: God Arrives ---------------------------------------------------------------------


def test_gods_of_ages_2_and_3_arrive_at_the_lowest_remaining_token() -> None:
    state = action_state(3, seed=9)
    arrange(state, tokens=("sokkvabekk", "himinbjorg"), gods={"gladsheim": "thor"})
    finish_age_passing(state)
    run_until(state, "draft", 2)
    assert state.gods_at == {"gladsheim": "thor", "himinbjorg": "loki"}
    assert state.region_tokens == {"sokkvabekk"}
    draft_all(state)
    finish_age_passing(state)
    run_until(state, "draft", 3)
    assert state.gods_at == {"gladsheim": "thor", "himinbjorg": "loki", "sokkvabekk": "tyr"}
    assert state.region_tokens == set()


def test_the_first_player_token_passes_left_each_age() -> None:
    state = action_state(4, seed=5)
    first = state.first
    run_until(state, "action", 2)
    assert state.first == (first + 1) % 4
    assert state.to_move() == (state.first,)
    run_until(state, "action", 3)
    assert state.first == (first + 2) % 4
    assert state.to_move() == (state.first,)


# Draft --------------------------------------------------------------------------------


def test_six_cards_are_dealt_and_everyone_picks_at_once() -> None:
    state = new_game(4, seed=4)
    assert state.phase == "draft"
    assert [len(p) for p in state.packs] == [6, 6, 6, 6]
    assert len(state.deck) == 87 - 24
    assert state.to_move() == (0, 1, 2, 3)
    assert all(clan.hand == [] for clan in state.clans)


def _pick_first_all(state: object) -> dict[int, str]:
    from meadhall.games.bloodrage_valhalla import BloodRageState

    assert isinstance(state, BloodRageState)
    picks = {}
    for seat in range(state.num_players):
        card = sorted(state.packs[seat])[0]
        play(state, seat, f"pick:{card}")
        picks[seat] = card
    return picks


def test_age_1_draft_passes_to_the_left() -> None:
    state = new_game(4, seed=4)
    before = [sorted(p) for p in state.packs]
    picks = _pick_first_all(state)
    for seat in range(4):
        giver = (seat - 1) % 4  # the player on my right passes to their left: me
        assert sorted(state.packs[seat]) == sorted(c for c in before[giver] if c != picks[giver])
    assert [state.clans[s].drafted for s in range(4)] == [[picks[s]] for s in range(4)]


def test_age_2_draft_passes_to_the_right_and_age_3_to_the_left_again() -> None:
    state = new_game(4, seed=8)
    run_until(state, "draft", 2)
    assert [len(p) for p in state.packs] == [6, 6, 6, 6]
    before = [sorted(p) for p in state.packs]
    picks = _pick_first_all(state)
    for seat in range(4):
        giver = (seat + 1) % 4
        assert sorted(state.packs[seat]) == sorted(c for c in before[giver] if c != picks[giver])
    run_until(state, "draft", 3)
    before = [sorted(p) for p in state.packs]
    picks = _pick_first_all(state)
    for seat in range(4):
        giver = (seat - 1) % 4
        assert sorted(state.packs[seat]) == sorted(c for c in before[giver] if c != picks[giver])


def test_five_cards_are_kept_and_the_last_card_goes_to_the_bottom_of_the_deck() -> None:
    state = new_game(3, seed=12)
    for _ in range(4):
        _pick_first_all(state)
    assert [len(p) for p in state.packs] == [2, 2, 2]
    deck_before = list(state.deck)
    expected_leftovers = sorted(sorted(pack)[1] for pack in state.packs)
    picks = _pick_first_all(state)
    assert state.phase == "action"
    assert [len(clan.hand) for clan in state.clans] == [5, 5, 5]
    assert all(picks[seat] in state.clans[seat].hand for seat in range(3))
    assert state.packs == [[], [], []]
    leftovers = sorted(state.deck[:3])
    assert leftovers == expected_leftovers, "the last cards go to the bottom (drawn last)"
    assert state.deck[3:] == deck_before, "the top of the deck is untouched"
    assert len(state.deck) == 84 - 18 + 3
    all_in_hands = {c for clan in state.clans for c in clan.hand}
    assert not all_in_hands & set(leftovers)


def test_a_pick_is_hidden_until_everyone_has_picked() -> None:
    state = new_game(3, seed=21)
    card = sorted(state.packs[0])[0]
    events = play(state, 0, f"pick:{card}")
    assert state.to_move() == (1, 2)
    for seat in (1, 2, None):
        assert card not in json.dumps(state.view(seat))
        assert card not in json.dumps([e.to_json() for e in events_for(events, seat)])
    assert state.view(0)["my_pick"] == card
    assert state.view(1)["picked"] == [True, False, False]
    assert state.view(1)["packs"] == [6, 6, 6], "no pack changes before all have picked"
    error = illegal(state, 0, f"pick:{sorted(state.packs[0])[1]}")
    assert error.rule == "turn"


def test_a_card_not_in_your_pack_cannot_be_picked() -> None:
    state = new_game(3, seed=21)
    other = sorted(state.packs[1])[0]
    illegal(state, 0, f"pick:{other}")
    illegal(state, 0, "pass")


def test_malformed_text_is_refused() -> None:
    for text in ("summon warrior", "march:", "raise:glory", "kill:valhalla:x:warrior", ""):
        with pytest.raises(MalformedAction):
            parse_action(text)


@pytest.mark.parametrize(
    "text",
    [
        "pick:thor-07",
        "summon:warrior@gladsheim",
        "march:gladsheim",
        "move:elite>valhalla",
        "done",
        "upgrade:tyr-12",
        "quest:baldr-20",
        "contest:folkvang",
        "pass",
        "join:warrior@breidablik",
        "stay",
        "play:loki-03",
        "play:none",
        "raise:axes",
        "raise:none",
        "destroy:2:elite",
        "kill:valhalla:1:warrior",
        "skip",
        "reinforce:warrior",
        "drop:freya-09",
        "keep",
    ],
)
def test_notation_round_trips(text: str) -> None:
    assert str(parse_action(text)) == text


def test_saved_cards_join_the_hand_only_after_the_next_draft() -> None:
    state = action_state(3, seed=30)
    finish_age_passing(state)
    assert state.phase == "keep"
    assert [len(clan.hand) for clan in state.clans] == [5, 5, 5]
    kept = {}
    for seat in range(3):
        hand = sorted(state.clans[seat].hand)
        play(state, seat, f"drop:{hand[0]}")
        play(state, seat, f"drop:{hand[1]}")
        play(state, seat, "keep")
        kept[seat] = sorted(hand[2:])
    assert state.age == 2 and state.phase == "draft"
    for seat in range(3):
        assert state.clans[seat].hand == []
        assert sorted(state.clans[seat].saved) == kept[seat]
        assert sorted(state.view(seat)["my_saved"]) == kept[seat]
    assert state.view(1)["clans"][0]["saved"] == 3
    draft_all(state)
    for seat in range(3):
        hand = state.clans[seat].hand
        assert len(hand) == 8
        assert set(kept[seat]) <= set(hand)
        assert state.clans[seat].saved == []


def _deal_age_2_from_a_short_deck(cards_left: int) -> tuple[BloodRageState, list[Event]]:
    """Five clans at the end of Age 1 with only ``cards_left`` cards in the deck; the drops
    are made, so Age 2 is dealt. Returns the state and the events of the last drop."""
    state = action_state(5, seed=3)
    finish_age_passing(state)
    assert state.phase == "keep"
    # Draws (Baldr's cards) and cards dropped at the end of an Age shrink the deck.
    del state.deck[: len(state.deck) - cards_left]
    events: list[Event] = []
    for seat in range(5):
        events = keep_last(state, seat)
    assert state.age == 2
    return state, events


def test_a_short_deck_deals_every_clan_the_same_smaller_pack() -> None:
    # Ruling r: 27 cards for five clans deal 5 each (2 stay in the deck); each clan keeps 4.
    state, events = _deal_age_2_from_a_short_deck(27)
    dealt = [e for e in events if e.kind == "dealt"]
    assert dealt and dealt[0].data["pack_size"] == 5
    assert [len(pack) for pack in state.packs] == [5] * 5
    assert len(state.deck) == 2
    assert state.view(0)["draft_keep"] == 4
    for picked in range(1, 5):
        _pick_first_all(state)
        if picked < 4:
            assert state.phase == "draft" and state.view(2)["draft_keep"] == 4
    assert state.phase == "action"
    assert [len(clan.hand) for clan in state.clans] == [4 + 3] * 5, "4 drafted and 3 saved"
    assert len(state.deck) == 2 + 5, "the last card of each pack went to the bottom"


def test_a_deck_too_short_for_packs_of_two_means_no_draft() -> None:
    # Nine cards would be one card each: that pack would go straight back, so no deal.
    state, events = _deal_age_2_from_a_short_deck(9)
    dealt = [e for e in events if e.kind == "dealt"]
    assert dealt and dealt[0].data["pack_size"] == 0
    assert "draft-over" in [e.kind for e in events]
    assert state.phase == "action"
    assert len(state.deck) == 9
    assert [len(clan.hand) for clan in state.clans] == [3] * 5, "the saved cards only"


def test_no_clan_is_left_without_a_pack_when_the_deck_runs_short() -> None:
    # Before ruling r, 24 cards dealt 6, 6, 6, 6 and 0, and the first round of picks
    # broke the engine. Now they deal 4 each, and the draft plays through.
    state, _ = _deal_age_2_from_a_short_deck(24)
    assert [len(pack) for pack in state.packs] == [4] * 5
    assert state.to_move() == (0, 1, 2, 3, 4)
    draft_all(state)
    assert state.phase == "action"
    assert [len(clan.hand) for clan in state.clans] == [3 + 3] * 5


# Options ------------------------------------------------------------------------------


def test_starting_glory_gives_12_8_4_0_by_placing() -> None:
    state = new_game(4, seed=1, starting_glory="2,0,1,3")
    assert state.scores() == [8, 0, 12, 4]
    state = new_game(3, seed=1, starting_glory="1,2,3")
    assert state.scores() == [12, 8, 4]


def test_starting_glory_needs_one_placing_per_seat() -> None:
    from meadhall.core.errors import InvalidOptions

    with pytest.raises(InvalidOptions):
        new_game(3, seed=1, starting_glory="1,2")
    with pytest.raises(InvalidOptions):
        new_game(3, seed=1, starting_glory="1,2,4")


def test_rainbow_rewards_join_the_hand_after_the_age_1_draft() -> None:
    state = new_game(3, seed=6, rainbow_rewards="thor/loki+freya/")
    assert all(clan.hand == [] for clan in state.clans)
    deck = state.deck + [c for p in state.packs for c in p]
    assert not any(c.startswith("rainbow-") for c in deck)
    draft_all(state)
    hands = [clan.hand for clan in state.clans]
    assert [len(h) for h in hands] == [6, 7, 5]
    assert "rainbow-thor" in hands[0]
    assert {"rainbow-loki", "rainbow-freya"} <= set(hands[1])
    assert not any(c.startswith("rainbow-") for c in hands[2])


def test_rainbow_rewards_are_not_added_again_in_later_ages() -> None:
    state = new_game(3, seed=6, rainbow_rewards="thor//")
    run_until(state, "action", 3)
    zones = list(state.deck) + list(state.removed) + list(state.spent)
    for clan in state.clans:
        zones += clan.hand + clan.saved + clan.discards + clan.upgrades + clan.quests
    assert zones.count("rainbow-thor") == 1
    assert not any(c.startswith("rainbow-") and c != "rainbow-thor" for c in zones)


def test_illegal_in_the_wrong_phase() -> None:
    state = new_game(3, seed=3)
    before = state.fingerprint()
    for text in ("summon:warrior@breidablik", "march:breidablik", "contest:valhalla", "stay", "play:none", "pass"):
        with pytest.raises(IllegalAction):
            state.apply(0, parse_action(text))
    assert state.fingerprint() == before
    assert state.phase == "draft"
