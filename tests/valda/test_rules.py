"""Valda's rules, phase by phase, on hand-built positions.

Each test drives a real game to the decision it needs, then sets the board it wants.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from meadhall.core.errors import IllegalAction
from meadhall.games.valda.content import default_content
from meadhall.games.valda.notation import parse_action
from meadhall.games.valda.state import HAND_LIMIT, RACE_ROUNDS, ROUNDS, ValdaConfig, ValdaState

CONTENT = default_content()
DONE = parse_action("done")


def new(players: int = 3, seed: int = 1, turnaround: bool = False, race: bool = False) -> ValdaState:
    return ValdaState.new(ValdaConfig(CONTENT, players, turnaround=turnaround, race=race), seed)


def act(state: ValdaState, text: str) -> list[str]:
    """Apply ``text`` for the seat to move, then pass the response windows of seats holding nothing for them."""
    (seat,) = state.to_move()
    kinds = [event.kind for event in state.apply(seat, parse_action(text))]
    while state.decision and state.decision["kind"] == "window" and not state.decision["options"]:
        kinds += [event.kind for event in state.apply(state.decision["seat"], parse_action("pass"))]
    return kinds


def until(state: ValdaState, kind: str, seat: int | None = None) -> ValdaState:
    """Play ``done``/``pass``/``yield`` (or the first choice) until ``kind`` is to be decided."""
    for _ in range(2000):
        decision = state.decision or {}
        if decision.get("kind") == kind and (seat is None or decision["seat"] == seat):
            return state
        (mover,) = state.to_move()
        legal = state.legal_actions(mover)
        quiet = [a for a in legal if str(a) in ("done", "pass", "yield")]
        state.apply(mover, quiet[0] if quiet else legal[0])
    raise AssertionError(f"never reached {kind}")


def cards(kind: str) -> list[str]:
    return [c.id for c in CONTENT.cards.values() if c.kind == kind and c.god is None]


# Setup ------------------------------------------------------------------------------------------


def test_setup_deals_six_cards_two_mines_and_the_starting_resources_by_seat() -> None:
    state = new(4)
    expected = [{"drop": 2, "diamond": 1, "gold": 1}, {"drop": 2, "diamond": 1, "gold": 2},
                {"drop": 2, "diamond": 2, "gold": 2}, {"drop": 2, "diamond": 2, "gold": 3}]  # fmt: skip
    for place, seat in enumerate(range(4)):
        player = state.players[seat]
        assert player.mines == 2 and player.drills == 0 and player.followers == 0
        if place > 0:  # the start player's resources have already been rolled on
            assert player.resources == [expected[place]["drop"], expected[place]["gold"], expected[place]["diamond"]]
            assert len(player.hand) == 6
    assert state.round == 1 and state.order == [0, 1, 2, 3]


def test_turnaround_start_player_and_reversed_last_round() -> None:
    starts = Counter(new(4, seed, turnaround=True).start for seed in range(200))
    assert set(starts) == {0, 1, 2, 3}  # decided by a dice roll, not always the same seat
    state = new(3, 5, turnaround=True)
    state.round = 6
    state._begin_round()
    start = state.start
    assert state.order == [(start - 1) % 3, (start - 2) % 3, start]


# 1. Resource phase ------------------------------------------------------------------------------


def test_one_yellow_die_per_mine_and_one_blue_per_drill() -> None:
    state = new(2, 3)
    assert [colour for colour, _ in state.dice] == ["yellow", "yellow"]
    state = until(new(2, 3), "game")
    seat = state.current
    state.players[seat].mines, state.players[seat].drills = 6, 2
    state._step_resource_phase()
    assert Counter(colour for colour, _ in state.dice) == {"yellow": 4, "blue": 2}  # at most four yellow dice


def test_trading_four_for_one_and_heimdalls_rates() -> None:
    state = until(new(2, 3), "resources")
    seat = state.current
    state.players[seat].temples["heimdall"] = 1
    state.players[seat].resources = [0, 9, 0]
    assert parse_action("trade:gold>drop") in state.legal_actions(seat)
    act(state, "trade:gold>drop")
    assert state.players[seat].resources == [1, 5, 0]
    with pytest.raises(IllegalAction, match="trading takes 4 drop; you have 1"):
        state.apply(seat, parse_action("trade:drop>gold"))
    act(state, "swap:gold>diamond")  # one Heimdall temple: 2 for 1
    assert state.players[seat].resources == [1, 3, 1]
    state.players[seat].temples["heimdall"] = 2
    act(state, "swap:diamond>drop")  # two temples: 1 for 1
    assert state.players[seat].resources == [2, 3, 0]


# 2. Game phase ----------------------------------------------------------------------------------


def test_three_actions_a_resource_each_or_two_cards_for_two() -> None:
    state = until(new(3, 2), "game")
    seat = state.current
    before = list(state.players[seat].resources)
    hand = len(state.players[seat].hand)
    act(state, "take:gold")
    act(state, "draw")
    assert state.players[seat].resources[1] == before[1] + 1 and len(state.players[seat].hand) == hand + 2
    assert state.actions == 0
    assert (state.decision or {}).get("kind") != "game"  # nothing left to do: the phase moved on


def test_open_cards_are_public_and_playable_then_discarded() -> None:
    state = until(new(3, 4), "resources")
    seat = state.current
    events = state.apply(seat, DONE)
    opened = next(e for e in events if e.kind == "opened")
    assert opened.audience is None and len(opened.data["cards"]) == 2
    open_cards = list(state.open)
    state.apply(seat, DONE)
    assert all(card in state.discard for card in open_cards)


def test_freya_closes_the_open_cards_lets_you_buy_and_shows_three() -> None:
    state = until(new(3, 4), "resources")
    seat = state.current
    state.players[seat].temples["freya"] = 1
    events = state.apply(seat, DONE)
    opened = next(e for e in events if e.kind == "opened")
    assert opened.audience == frozenset({seat})
    assert any(e.kind == "opened-closed" and e.audience is None for e in events)  # others learn only a count
    bought = state.open[0]
    act(state, f"buy:{bought}")
    assert bought in state.players[seat].hand and state.actions == 2
    state = until(new(3, 4), "resources")
    state.players[state.current].temples["freya"] = 2
    state.apply(state.current, DONE)
    assert len(state.open) == 3


def test_the_hand_limit_is_ten_and_no_discarding_below_it() -> None:
    state = until(new(3, 4), "game")
    seat = state.current
    state.players[seat].hand = cards("defence")[:4] * 3  # 12 cards
    act(state, "done")
    assert state.decision is not None and state.decision["kind"] == "hand-limit"
    act(state, f"discard:{state.players[seat].hand[0]}")
    act(state, f"discard:{state.players[seat].hand[0]}")
    assert len(state.players[seat].hand) == HAND_LIMIT
    assert state.decision is None or state.decision["kind"] != "hand-limit"


def test_a_yellow_card_costs_an_action_and_does_what_it_says() -> None:
    state = until(new(3, 4), "game")
    seat = state.current
    state.players[seat].hand.append("gold-vein")
    gold = state.players[seat].resources[1]
    act(state, "play:gold-vein")
    assert state.players[seat].resources[1] == gold + 2 and state.actions == 2 and "gold-vein" in state.discard
    state.players[seat].hand.append("mead-feast")
    act(state, "play:mead-feast")
    assert state.actions == 3  # one spent, two more
    with pytest.raises(IllegalAction, match="only yellow cards"):
        state.players[seat].hand.append("raid")
        state.apply(seat, parse_action("play:raid"))


# 3. Building phase ------------------------------------------------------------------------------


def test_building_costs_two_builds_and_a_temple_gives_a_follower_and_a_god_card() -> None:
    state = until(new(3, 6), "game")
    seat = state.current
    state.players[seat].resources = [10, 10, 10]
    until(state, "build")
    act(state, "build:mine")
    assert state.players[seat].mines == 3 and state.players[seat].resources == [9, 9, 9]
    events = act(state, "build:odin")
    assert state.players[seat].temples == {"odin": 1} and state.players[seat].followers == 1
    assert state.players[seat].resources == [7, 6, 6]
    assert "looked" in events and state.decision is not None and state.decision["kind"] == "keep"
    looked = state.decision["cards"]
    act(state, f"keep:{looked[0]}")
    assert looked[0] in state.players[seat].hand
    if len(looked) == 2:
        assert state.gods["odin"][0] == looked[1]  # the other one to the bottom
    assert state.builds == 0 and (state.decision is None or state.decision["kind"] != "build")


def test_three_temples_lock_an_area_with_a_free_follower() -> None:
    state = until(new(3, 6), "build")
    seat = state.current
    other = (seat + 1) % 3
    state.players[seat].temples["tyr"] = 2
    state.sites["tyr"] = [seat, seat]
    state.players[seat].resources = [10, 10, 10]
    act(state, "build:tyr")
    assert state.locks == {"tyr": seat} and state.players[seat].followers == 2
    assert not state.can_build_temple(other, "tyr") and state.can_build_temple(seat, "tyr")
    state._destroy(seat, "tyr", "test")
    assert state.locks == {} and state.can_build_temple(other, "tyr")


def test_five_sites_per_god_area() -> None:
    state = new(3, 6)
    state.sites["loki"] = [1, 2, 1, 2, 1]
    assert not state.can_build_temple(0, "loki")


# 4. Attack phase --------------------------------------------------------------------------------


def test_attack_order_by_followers_then_resources() -> None:
    state = new(4, 1)
    active = state.current
    others = [(active + i) % 4 for i in (1, 2, 3)]
    for seat, (followers, resources) in zip(others, [(1, [0, 0, 0]), (3, [0, 0, 0]), (1, [5, 0, 0])], strict=True):
        state.players[seat].followers = followers
        state.players[seat].resources = resources
    assert state.attack_order() == [others[1], others[2], others[0]]


def _attack(players: int, attacker_card: str, defences: list[str], seed: int = 8) -> tuple[ValdaState, int, int]:
    state = until(new(players, seed), "build")
    target = state.current
    attacker = state.attack_order()[0]
    for seat in range(players):
        state.players[seat].hand = []
    state.players[attacker].hand = [attacker_card]
    state.players[target].hand = list(defences)
    state.players[target].resources = [3, 3, 3]
    state.players[target].followers = 7
    act(state, "done")
    until(state, "attack", attacker)
    return state, attacker, target


def test_a_tie_defends_and_an_undefended_attack_hits() -> None:
    state, attacker, target = _attack(3, "raid", ["round-shield"])
    act(state, "attack:raid")
    events = act(state, "defend:round-shield")
    assert "attack-held" in events and state.players[target].resources == [3, 3, 3]
    state, attacker, target = _attack(3, "raid", ["shield-wall"])
    act(state, "attack:raid")
    act(state, "defend:shield-wall")  # 1 against 2: not enough
    assert state.decision is not None and state.decision["kind"] == "defend"  # asked on, though no card is left
    act(state, "yield")
    assert state.decision is not None and state.decision["kind"] == "steal" and state.decision["seat"] == attacker
    act(state, "steal:gold")
    act(state, "steal:gold")
    assert state.players[target].resources == [3, 1, 3] and state.players[attacker].resources[1] >= 2


def test_tyr_adds_to_each_defence_card_and_surtur_to_attacks() -> None:
    state, attacker, target = _attack(4, "pillage", ["round-shield"])
    state.players[target].temples["tyr"] = 1
    act(state, "attack:pillage")
    assert "attack-held" in act(state, "defend:round-shield")  # 2 + 1 against 3
    state, attacker, target = _attack(4, "pillage", ["iron-helm"])
    state.players[attacker].temples["surtur"] = 1
    act(state, "attack:pillage")
    assert state.attack["power"] == 4  # four players: +1 with one temple
    assert "attack-held" not in act(state, "defend:iron-helm")


def test_surtur_gives_two_attacks_with_two_or_three_players() -> None:
    state = new(3, 1)
    state.players[1].temples["surtur"] = 1
    assert state.attacks_allowed(1) == 2 and state.attack_bonus(1) == 0
    state.players[1].temples["surtur"] = 2
    assert state.attack_bonus(1) == 1
    four = new(4, 1)
    four.players[1].temples["surtur"] = 1
    assert four.attacks_allowed(1) == 1 and four.attack_bonus(1) == 1


def test_safe_zones_keep_followers() -> None:
    state = new(3, 1)
    state._gain_followers(1, 6, "test")
    assert state.players[1].floor == 5
    assert state._lose_followers(1, 3, "test") == 1 and state.players[1].followers == 5
    assert state._lose_followers(1, 1, "test") == 0


# 5. Followers phase -----------------------------------------------------------------------------


def test_thor_and_odin_conversions_and_their_limits() -> None:
    state = until(new(3, 9), "build")
    seat = state.current
    state.players[seat].temples = {"thor": 2, "odin": 1}
    state.players[seat].resources = [4, 20, 0]
    state.players[seat].hand = []
    for other in range(3):
        state.players[other].hand = [c for c in state.players[other].hand if CONTENT.cards[c].kind != "attack"]
    act(state, "done")
    until(state, "followers", seat)
    legal = {str(a) for a in state.legal_actions(seat)}
    assert {"thor:gold", "thor2:gold", "odin"} <= legal and "odin2" not in legal
    for _ in range(3):
        act(state, "thor2:gold")
    assert "thor2:gold" not in {str(a) for a in state.legal_actions(seat)}  # up to three times
    act(state, "thor:gold")  # with two temples, both abilities
    act(state, "odin")
    act(state, "odin")
    assert state.players[seat].resources == [0, 11, 0] and state.players[seat].followers == 6


def test_loki_rolls_white_dice_that_can_cost_a_follower() -> None:
    outcomes = set()
    for seed in range(40):
        state = until(new(3, seed), "build")
        seat = state.current
        state.players[seat].temples = {"loki": 2}
        state.players[seat].followers = 3
        for other in range(3):
            state.players[other].hand = []
        act(state, "done")
        until(state, "followers", seat)
        act(state, "loki")
        outcomes.add(state.players[seat].followers - 3)
        assert "loki" not in {str(a) for a in state.legal_actions(seat)}
    assert min(outcomes) < 0 < max(outcomes)


# The end ----------------------------------------------------------------------------------------


def test_six_rounds_then_most_followers_wins_and_buildings_break_ties() -> None:
    state = new(2, 11)
    rng = random.Random(3)
    while not state.is_terminal():
        (seat,) = state.to_move()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.round == 6 and state.phase == "over"
    state.players[0].followers = state.players[1].followers = 9
    state.players[0].mines, state.players[1].mines = 3, 2
    state.players[0].temples, state.players[1].temples = {}, {}
    state.players[0].drills = state.players[1].drills = 0
    assert state.ranking() == [1, 2]


def test_race_to_the_gods_ends_at_twenty_followers() -> None:
    state = new(3, 1, race=True)
    state._gain_followers(2, 20, "test")
    assert state.is_terminal() and state.winner == 2 and state.ranking()[2] == 1


def _last_turn_of_round(state: ValdaState, number: int) -> ValdaState:
    """``state`` in the last turn of round ``number`` (hand-built: as if the rounds before were played)."""
    state.round = number
    state.turn = len(state.order) - 1
    return state


def test_race_to_the_gods_goes_on_past_the_sixth_round_until_twenty_followers() -> None:
    # Ruling: "an alternative ending": the game ends the moment a player reaches 20
    # followers; the rounds go on past the sixth until then (up to RACE_ROUNDS).
    state = _last_turn_of_round(new(3, 1, race=True), ROUNDS)
    state._step_end_turn()
    assert not state.is_terminal() and state.round == ROUNDS + 1 and state.order == [0, 1, 2]
    assert state.view(None)["last_round"] == RACE_ROUNDS
    state._gain_followers(1, 20, "test")
    assert state.is_terminal() and state.winner == 1 and state.ranking() == [2, 1, 2]
    standard = _last_turn_of_round(new(3, 1), ROUNDS)
    standard._step_end_turn()
    assert standard.is_terminal() and standard.view(None)["last_round"] == ROUNDS


def test_race_to_the_gods_ends_after_its_last_round_on_most_followers() -> None:
    state = _last_turn_of_round(new(3, 1, race=True), RACE_ROUNDS)
    for seat, followers in enumerate((13, 19, 13)):
        state.players[seat].followers = followers
    state._events = []
    state._step_end_turn()
    over = [e for e in state._events if e.kind == "game-over"]
    assert state.is_terminal() and state.winner is None and state.round == RACE_ROUNDS
    assert over[0].data["why"] == "round limit" and state.ranking()[1] == 1


def test_the_turnaround_reverses_the_last_round_of_a_race() -> None:
    state = new(3, 5, turnaround=True, race=True)
    start = state.start
    for number in (ROUNDS, RACE_ROUNDS):
        state.round = number
        state._begin_round()
        reversed_order = [(start - 1) % 3, (start - 2) % 3, start]
        assert (state.order == reversed_order) == (number == RACE_ROUNDS), number


def race_to_twenty_for_all_pack() -> dict[str, Any]:
    """A pack whose base deck is one card: every player gains 20 followers (the review's example)."""
    from tests.valda.test_interrupted_decisions import default_pack

    pack = default_pack()
    weapons = [card for card in pack["cards"] if card["kind"] == "weapon"]
    feast = {"id": "great-feast", "name": "Great Feast", "deck": "base", "kind": "yellow", "count": 150 - 7,
             "effects": [{"do": "followers", "amount": 20, "who": "all"}]}  # fmt: skip
    return dict(pack, id="test-race-feast", cards=[*weapons, feast])


def test_followers_do_not_change_after_the_race_is_won() -> None:
    from meadhall.games.valda.game import GAME

    options = {"preset": "race-to-the-gods", "content": race_to_twenty_for_all_pack()}
    state = GAME.new_game(players=3, seed=1, options=options)
    until(state, "game")
    seat = state.current
    events = state.apply(seat, parse_action("play:great-feast"))
    kinds = [event.kind for event in events]
    over = events[kinds.index("game-over")]
    assert "game-over" not in kinds[: kinds.index("game-over")] and kinds[-1] == "game-over"
    assert over.data["followers"] == state.scores() == [20 if s == seat else 0 for s in range(3)]
    assert over.data["places"] == state.ranking() == state.view(None)["places"]
    assert state.winner == seat and not state.queue and state.decision is None


def test_random_games_keep_every_card_and_end() -> None:
    for seed in range(24):
        players = 2 + seed % 4
        state = new(players, seed, turnaround=seed % 2 == 0)
        rng = random.Random(seed)
        while not state.is_terminal():
            (seat,) = state.to_move()
            legal = state.legal_actions(seat)
            action = rng.choice(legal)
            assert parse_action(str(action)) == action
            before = state.fingerprint()
            copy = state.clone()
            state.apply(seat, action)
            assert copy.fingerprint() == before  # the copy is independent of the state it came from
            assert all(min(p.resources) >= 0 and p.followers >= p.floor for p in state.players)
        assert state.round == 6 or state.winner is not None


# Notation and card effects ----------------------------------------------------------------------


NOTATIONS = [
    "trade:gold>drop",
    "swap:diamond>gold",
    "choose:drop",
    "done",
    "play:scout",
    "take:diamond",
    "draw",
    "buy:raid",
    "discard:raid",
    "build:mine",
    "build:odin",
    "keep:gungnir",
    "attack:raid",
    "pass",
    "defend:round-shield",
    "yield",
    "steal:gold",
    "destroy:drill",
    "move:odin>thor",
    "convert",
    "thor:gold",
    "thor2:diamond",
    "odin",
    "odin2",
    "loki",
    "seat:2",
    "god:freya",
    "card:raid",
]


def test_notation_round_trips_and_refuses_what_it_cannot_read() -> None:
    from meadhall.core.errors import MalformedAction

    for text in NOTATIONS:
        assert str(parse_action(text)) == text
    for bad in ["trade:gold", "thor:drop", "seat:x", "build:", "fly:away", ""]:
        with pytest.raises(MalformedAction):
            parse_action(bad)


def _playing(card: str, seed: int = 4) -> tuple[ValdaState, int]:
    state = until(new(3, seed), "game")
    seat = state.current
    state.players[seat].hand.append(card)
    return state, seat


def test_builders_build_at_once_with_a_resource_waived() -> None:
    state, seat = _playing("builders")
    state.players[seat].resources = [1, 1, 0]  # a mine needs a drop, a diamond and a gold
    act(state, "play:builders")
    assert state.decision is not None and state.decision["kind"] == "free-build"
    assert {str(a) for a in state.legal_actions(seat)} == {"build:mine", "done"}
    act(state, "build:mine")
    assert state.players[seat].mines == 3 and state.players[seat].resources == [0, 0, 0]
    assert state.builds == 2  # beyond the two of the building phase


def _waiting_free_build(resources: list[int], left: int) -> tuple[ValdaState, int]:
    """A free mine waiting for its next waived resource, as after a god weapon was played there."""
    state, seat = _playing("builders")
    state.players[seat].resources = resources
    cost = {"drop": 1, "diamond": 1, "gold": 1}
    state.decision = {"seat": seat, "kind": "waive", "building": "mine", "cost": cost, "waived": {}, "left": left,
                      "why": "builders"}  # fmt: skip
    return state, seat


def test_a_free_build_waives_what_was_spent_meanwhile_first() -> None:
    # Ruling: what the player lacks is waived first, at every step of the discount.
    state, seat = _waiting_free_build([0, 0, 1], left=2)  # the drop was spent while the build waited
    assert act(state, "choose:gold").count("built") == 1
    assert state.players[seat].mines == 3 and state.players[seat].resources == [0, 0, 0]


def test_a_free_build_lapses_when_the_discount_no_longer_covers_it() -> None:
    # Ruling: resources spent while the build waits can leave more lacking than the discount covers.
    state, seat = _waiting_free_build([0, 0, 1], left=1)
    kinds = act(state, "choose:gold")
    assert "free-build-lapsed" in kinds and "built" not in kinds
    assert state.players[seat].mines == 2 and state.players[seat].resources == [0, 0, 1]


def waiting_free_build_without_room(reason: str) -> tuple[ValdaState, int]:
    """A free building waiting at its waive decision whose room went meanwhile, for ``reason``.

    As after Hammertime, played at that decision, brought Builders back and that second
    free building took the last site: "full", "locked", "no-temples" or "limit".
    """
    state, seat = _playing("builders")
    others = [other for other in range(state.num_players) if other != seat]
    player = state.players[seat]
    player.resources = [5, 5, 5]
    building = "mine" if reason == "limit" else "tyr"

    def temple(owner: int, god: str) -> None:
        state.sites[god].append(owner)
        state.players[owner].temples[god] = state.players[owner].temples.get(god, 0) + 1

    if reason == "full":
        for owner in (seat, others[0], others[1], others[0], others[1]):
            temple(owner, "tyr")
    elif reason == "locked":
        for _ in range(3):
            temple(others[0], "tyr")
        state.locks["tyr"] = others[0]
    elif reason == "no-temples":
        for god in ("heimdall", "freya", "surtur", "thor", "odin", "loki", "heimdall", "freya", "surtur"):
            temple(seat, god)
    else:
        player.mines = 4
    cost = state.cost(building)
    state.decision = {"seat": seat, "kind": "waive", "building": building, "cost": cost, "waived": {}, "left": 1,
                      "why": "builders"}  # fmt: skip
    return state, seat


@pytest.mark.parametrize("reason", ["full", "locked", "no-temples", "limit"])
def test_a_free_build_lapses_when_its_building_may_no_longer_go_up(reason: str) -> None:
    # Ruling: a free building that waited while its area filled or was locked, the last
    # temple figure went or the mine limit was reached is not built, and nothing is paid
    # (before, a sixth temple went into an area of five sites).
    state, seat = waiting_free_build_without_room(reason)
    before = [list(state.players[seat].resources), state.players[seat].mines, dict(state.players[seat].temples)]
    sites = {god: list(owners) for god, owners in state.sites.items()}
    events = state.apply(seat, parse_action("choose:gold"))
    lapsed = [event for event in events if event.kind == "free-build-lapsed"]
    assert len(lapsed) == 1 and lapsed[0].data["reason"] == reason
    assert "built" not in [event.kind for event in events]
    assert [state.players[seat].resources, state.players[seat].mines, dict(state.players[seat].temples)] == before
    assert state.sites == sites


def test_seer_keeps_one_of_three_and_the_rest_go_under_the_deck() -> None:
    state, seat = _playing("seer")
    top = state.base[-3:][::-1]
    events = state.apply(seat, parse_action("play:seer"))
    peeked = next(e for e in events if e.kind == "peeked")
    assert peeked.audience == frozenset({seat}) and peeked.data["cards"] == top
    act(state, f"card:{top[1]}")
    assert top[1] in state.players[seat].hand and sorted(state.base[:2]) == sorted([top[0], top[2]])


def test_looking_at_a_hand_shows_it_to_the_looker_only() -> None:
    state, seat = _playing("far-sight")
    act(state, "play:far-sight")
    target = state.decision["seats"][0] if state.decision else None
    assert target is not None
    events = state.apply(seat, parse_action(f"seat:{target}"))
    shown = next(e for e in events if e.kind == "looked-at-hand")
    assert shown.audience == frozenset({seat}) and shown.data["cards"] == sorted(state.players[target].hand)


def test_lending_a_gods_ability_for_this_turn() -> None:
    state, seat = _playing("skald")
    act(state, "play:skald")
    act(state, "god:freya")
    assert state.ability(seat, "freya") == 1 and state.ability((seat + 1) % 3, "freya") == 0
    assert any(a.kind == "buy" for a in state.legal_actions(seat))  # Freya's buying, this turn


def test_a_conversion_card_repeats_up_to_its_times() -> None:
    state, seat = _playing("storm-tithe")
    state.players[seat].resources = [0, 9, 0]
    act(state, "play:storm-tithe")
    act(state, "convert")
    act(state, "convert")
    assert state.players[seat].followers == 2 and state.players[seat].resources[1] == 3
    assert (state.decision or {}).get("kind") != "convert"  # two times at most


def test_destroying_a_temple_and_moving_one() -> None:
    state = new(3, 2)
    state.players[1].temples = {"thor": 3}
    state.sites["thor"] = [1, 1, 1]
    state.locks["thor"] = 1
    state._move_temple(1, "thor", "odin", "test")
    assert state.locks == {} and state.sites["odin"] == [1] and state.players[1].temples == {"thor": 2, "odin": 1}
    state._destroy(1, "odin", "test")
    assert state.sites["odin"] == [] and state.players[1].temples["odin"] == 0


# God weapons ------------------------------------------------------------------------------------


def decided(state: ValdaState) -> dict[str, Any]:
    """The decision now (an empty one if none)."""
    return state.decision or {}


def _give(state: ValdaState, seat: int, *cards_: str) -> None:
    state.players[seat].hand += list(cards_)


def _attack_with_weapons(
    attacker_hand: list[str], target_hand: list[str], players: int = 3, seed: int = 8
) -> tuple[ValdaState, int, int]:
    state, attacker, target = _attack(players, attacker_hand[0], [], seed)
    state.players[attacker].hand = list(attacker_hand)
    state.players[target].hand = list(target_hand)
    return state, attacker, target


def test_weapons_at_your_own_decisions_take_from_the_discard_pile() -> None:
    state = until(new(3, 4), "game")
    seat = state.current
    state.discard += ["raid", "round-shield", "iron-helm", "ambush"]
    _give(state, seat, "gungnir")
    assert {str(a) for a in state.legal_actions(seat)} >= {"weapon:bullseye"}  # no action spent
    actions = state.actions
    act(state, "weapon:bullseye")
    assert decided(state)["kind"] == "discard-pick"
    # the weapon goes to the discard pile after it is played: Bullseye cannot take Gungnir back
    assert "gungnir" in state.discard and "gungnir" not in decided(state)["cards"]
    act(state, "card:iron-helm")
    assert "iron-helm" in state.players[seat].hand and "gungnir" in state.discard
    assert decided(state)["kind"] == "game" and state.actions == actions  # back to where it was
    _give(state, seat, "gjallarhorn", "loki-dagger")
    act(state, "weapon:sound-of-the-gjallarhorn")
    act(state, "card:round-shield")
    assert decided(state)["kind"] == "game"  # one defence card was left in the pile
    act(state, "weapon:deadly-dagger")
    for _ in range(2):
        act(state, f"card:{decided(state)['cards'][0]}")
    assert {"raid", "ambush"} <= set(state.players[seat].hand)


def test_thief_and_hammertime() -> None:
    state = until(new(3, 4), "game")
    seat = state.current
    other = (seat + 1) % 3
    state.players[other].hand = ["valkyrie-ward"]
    _give(state, seat, "tyrs-spear", "mjolnir", "gold-vein")
    act(state, "weapon:thief")
    act(state, f"seat:{other}")
    assert "valkyrie-ward" in state.players[seat].hand and state.players[other].hand == []
    gold, actions = state.players[seat].resources[1], state.actions
    act(state, "weapon:hammertime")
    act(state, "card:gold-vein")
    assert state.players[seat].resources[1] == gold + 4 and state.actions == actions  # twice, no action


def test_attack_windows_war_horn_wrath_and_soulspear() -> None:
    state, attacker, target = _attack_with_weapons(["ambush", "gjallarhorn"], ["valkyrie-ward"])
    act(state, "attack:ambush")
    assert decided(state)["kind"] == "window" and decided(state)["seat"] == attacker
    act(state, "weapon:war-horn")
    assert state.players[target].followers == 6  # cannot be defended: one follower lost
    state, attacker, target = _attack_with_weapons(["ambush", "mjolnir"], ["round-shield", "shield-wall"])
    act(state, "attack:ambush")
    act(state, "weapon:wrath-of-thor")
    assert state.attack["power"] == 4
    act(state, "defend:round-shield")
    act(state, "defend:shield-wall")  # 3 against 4
    act(state, "yield")
    assert state.players[target].followers == 6
    state, attacker, target = _attack_with_weapons(["ambush", "gungnir"], [])
    act(state, "attack:ambush")
    act(state, "weapon:soulspear")
    act(state, "yield")
    assert state.players[target].followers == 5  # the follower killed counts double


def test_the_target_answers_with_tyrs_revenge_or_vanished() -> None:
    state, attacker, target = _attack_with_weapons(["raid"], ["tyrs-spear"])
    act(state, "attack:raid")
    assert decided(state)["seat"] == target and "weapon:tyrs-revenge" in {str(a) for a in state.legal_actions(target)}
    act(state, "weapon:tyrs-revenge")
    assert "raid" in state.players[target].hand and state.players[target].resources == [3, 3, 3]
    state, attacker, target = _attack_with_weapons(["ambush"], ["falcon-cloak"])
    third = next(s for s in range(3) if s not in (attacker, target))
    state.players[third].followers = 4
    state.players[third].hand = []
    act(state, "attack:ambush")
    act(state, "weapon:vanished")
    act(state, f"seat:{third}")
    assert decided(state) == {"seat": third, "kind": "defend"}  # the new target defends
    act(state, "yield")
    assert state.players[third].followers == 3 and state.players[target].followers == 7


def test_after_a_defence_resisted_and_surturs_claim() -> None:
    state, attacker, target = _attack_with_weapons(["raid"], ["round-shield", "flaming-sword"])
    act(state, "attack:raid")
    act(state, "defend:round-shield")
    assert decided(state)["kind"] == "window" and decided(state)["seat"] == target
    act(state, "weapon:resisted")
    assert state.players[target].followers == 9
    state, attacker, target = _attack_with_weapons(["raid", "flaming-sword"], ["round-shield"])
    act(state, "attack:raid")
    act(state, "defend:round-shield")
    act(state, "weapon:surturs-claim")
    # the same attack again; nothing left to defend it with, so the attacker steals
    assert state.attack["card"] == "raid" and state.attack["defence"] == 0
    act(state, "yield")
    assert decided(state)["seat"] == attacker and decided(state)["kind"] == "steal"


def test_backstab_negates_the_last_building_and_keeps_the_resources() -> None:
    state = until(new(3, 6), "build")
    seat = state.current
    other = (seat + 1) % 3
    state.players[seat].resources = [10, 10, 10]
    state.players[other].hand.append("loki-dagger")
    act(state, "build:mine")  # the first building: no window
    act(state, "build:drill")  # the last one
    assert decided(state)["kind"] == "window" and decided(state)["seat"] == other
    act(state, "weapon:backstab")
    assert state.players[seat].drills == 0 and state.players[seat].resources == [9, 9, 9]


def test_crown_of_fortune_turns_a_die_before_it_counts() -> None:
    state = until(new(3, 4), "build")
    holder = (state.current + 1) % 3
    state.players[holder].hand.append("falcon-cloak")
    until(state, "window")  # the next player's resource roll
    assert decided(state)["seat"] == holder and decided(state)["window"] == "rolled"
    roller = state.current
    start = decided(state)["args"][0]
    before = list(state.players[roller].resources)
    act(state, "weapon:crown-of-fortune")
    act(state, f"face:{start}>0")  # face 0 of a yellow die: 2 gold
    gained = state.players[roller].resources[1] - before[1]
    assert state.dice[start] == ("yellow", 0) and gained >= 2


def test_thief_takes_open_cards_only_while_the_table_can_see_them() -> None:
    state = until(new(3, 4), "game")
    holder = (state.current + 1) % 3
    state.open = ["gold-vein"]
    assert state._stealable_open(holder) == ["gold-vein"] and state._stealable_open(state.current) == []
    state.open_closed = True  # Freya: the active player alone sees them
    assert state._stealable_open(holder) == []


def test_an_empty_base_deck_is_refilled_from_the_discard_pile() -> None:
    state, _ = _playing("seer")
    state.base, state.discard = [], []
    events = act(state, "play:seer")
    # the played card is the whole discard pile: it is shuffled into the deck and looked at
    assert "reshuffled" in events and state.reshuffles == 1
    assert decided(state)["kind"] == "peek" and decided(state)["cards"] == ["seer"]


# God cards: every draw from a god deck looks at the top two ---------------------------------------
# "When taking a card from the God decks, you look at the top two cards and choose one. You put
# the other card to the bottom of the pile." Ruling: every draw from a god deck, unless a card
# says otherwise: a temple's god card, a locked area's god card, a card that draws one.


def _looked_at_two(events: list[Any], seat: int, god: str, top: list[str]) -> None:
    looked = [e for e in events if e.kind == "looked"]
    assert len(looked) == 1 and looked[0].audience == frozenset({seat})
    assert looked[0].data["god"] == god and looked[0].data["cards"] == top
    counted = [e for e in events if e.kind == "god-cards"]
    assert len(counted) == 1 and counted[0].audience is None and counted[0].data["count"] == 2


def _others_see_a_count(state: ValdaState, seat: int) -> None:
    for viewer in [*range(state.num_players), None]:
        shown = state.view(viewer)["decision"]
        assert shown["cards"] == (state.decision or {})["cards"] if viewer == seat else shown["cards"] == 2


def test_a_card_that_draws_from_a_god_deck_looks_at_two_and_keeps_one() -> None:
    state, seat = _playing("seidr")
    act(state, "play:seidr")
    assert decided(state)["kind"] == "god-draw"
    top = state.gods["odin"][-2:][::-1]
    hand = len(state.players[seat].hand)
    events = state.apply(seat, parse_action("god:odin"))
    _looked_at_two(events, seat, "odin", top)
    assert decided(state) == {"seat": seat, "kind": "keep", "god": "odin", "cards": top, "why": "seidr"}
    _others_see_a_count(state, seat)
    assert len(state.gods["odin"]) == 8
    events = state.apply(seat, parse_action(f"keep:{top[1]}"))
    assert events[0].kind == "kept" and events[0].audience == frozenset({seat})
    assert top[1] in state.players[seat].hand and len(state.players[seat].hand) == hand + 1
    assert state.gods["odin"][0] == top[0] and len(state.gods["odin"]) == 9  # the other one under the deck
    assert state.view(seat)["bottoms"]["odin"] == [top[0]]
    assert all(state.view(other)["bottoms"]["odin"] == [None] for other in [None, *range(3)] if other != seat)


def test_the_last_card_of_a_god_deck_is_taken_without_a_choice() -> None:
    state, seat = _playing("seidr")
    state.gods["odin"] = state.gods["odin"][-1:]
    act(state, "play:seidr")
    card = state.gods["odin"][0]
    events = state.apply(seat, parse_action("god:odin"))
    drew = next(e for e in events if e.kind == "drew")
    assert drew.audience == frozenset({seat}) and drew.data["cards"] == [card]
    assert card in state.players[seat].hand and not state.gods["odin"] and decided(state).get("kind") != "keep"


def _locked(god: str, *more: str, freya: int = 0, state: ValdaState | None = None) -> tuple[ValdaState, int]:
    """Seat 0 holds ``god``'s area (and ``more``) locked at the start of the game; its game phase is next."""
    state = new(3, 4) if state is None else state
    player = state.players[0]
    for area in (god, *more):
        player.temples[area] = 3
        state.sites[area] = [0, 0, 0]
        state.locks[area] = 0
    if freya:
        player.temples["freya"] = freya
        state.sites["freya"] = [0] * freya
    return state, 0


def test_a_locked_area_shows_two_god_cards_of_which_one_joins_the_open_cards() -> None:
    state, seat = _locked("thor")
    top = state.gods["thor"][-2:][::-1]
    base_top = state.base[-1]
    events: list[Any] = []
    while decided(state).get("kind") != "lock-card":
        (mover,) = state.to_move()
        events = state.apply(mover, DONE if decided(state)["kind"] == "resources" else parse_action("pass"))
    _looked_at_two(events, seat, "thor", top)
    assert decided(state) == {"seat": seat, "kind": "lock-card", "god": "thor", "cards": top}
    assert {str(a) for a in state.legal_actions(seat)} >= {f"keep:{top[0]}", f"keep:{top[1]}"}
    _others_see_a_count(state, seat)
    events = state.apply(seat, parse_action(f"keep:{top[1]}"))
    opened = next(e for e in events if e.kind == "opened")
    assert opened.audience is None and opened.data["cards"] == [top[1], base_top]  # no Freya: the table sees them
    assert state.open == [top[1], base_top] and decided(state)["kind"] == "game"
    assert state.gods["thor"][0] == top[0]
    assert state.view(seat)["bottoms"]["thor"] == [top[0]] and state.view(None)["bottoms"]["thor"] == [None]


def test_with_freya_the_locked_areas_card_stays_closed_and_two_locks_fill_the_open_cards() -> None:
    state, seat = _locked("thor", "odin", freya=1)
    until(state, "lock-card")
    assert decided(state)["god"] == "odin"  # the areas in alphabetical order
    act(state, f"keep:{decided(state)['cards'][0]}")
    assert decided(state)["kind"] == "lock-card" and decided(state)["god"] == "thor"
    assert state.view(1)["open"] is None and state.view(1)["open_count"] == 1
    kept = decided(state)["cards"][1]
    events = state.apply(seat, parse_action(f"keep:{kept}"))
    opened = next(e for e in events if e.kind == "opened")
    assert opened.audience == frozenset({seat}) and len(state.open) == 2 and state.open[1] == kept
    assert "opened-closed" in [e.kind for e in events]


def test_a_temple_still_looks_at_two_god_cards() -> None:
    state = until(new(3, 6), "build")
    seat = state.current
    state.players[seat].resources = [10, 10, 10]
    top = state.gods["tyr"][-2:][::-1]
    events = state.apply(seat, parse_action("build:tyr"))
    _looked_at_two(events, seat, "tyr", top)
    assert decided(state) == {"seat": seat, "kind": "keep", "god": "tyr", "cards": top}


# Divine abilities with a second temple --------------------------------------------------------------
# Settled as the engine has it: a second temple adds its level-2 ability; where both levels are
# the same kind of bonus (Heimdall's rate, Tyr's and Surtur's power, Loki's dice) level 2
# replaces level 1; where they differ (Freya's closed cards and buying, and a third open card;
# Surtur's second attack and +1 with 2-3 players; Thor's and Odin's two conversions, as the
# rulebook says) both apply.


def _with_temples(god: str, count: int, players: int = 3, kind: str = "game") -> tuple[ValdaState, int]:
    state = new(players, 4)
    for seat in range(players):
        state.players[seat].temples = {god: count}
    until(state, kind)
    return state, state.current


@pytest.mark.parametrize("count", [1, 2])
def test_heimdalls_second_temple_replaces_the_rate(count: int) -> None:
    state = new(3, 4)
    state.players[0].temples = {"heimdall": count}
    until(state, "resources")
    state.players[0].resources = [4, 1, 0]  # after the dice
    legal = {str(a) for a in state.legal_actions(0)}
    assert ("swap:gold>diamond" in legal) == (count == 2)  # 1 for 1 only with two temples
    act(state, "swap:drop>diamond")
    assert state.players[0].resources[0] == 4 - (2 if count == 1 else 1)  # not 2 + 1


def test_freyas_second_temple_adds_a_third_card_to_her_first_ability() -> None:
    state, seat = _with_temples("freya", 2)
    assert len(state.open) == 3 and state.open_closed  # level 2's third card, level 1's closed cards
    assert any(a.kind == "buy" for a in state.legal_actions(seat))  # and level 1's buying


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_surturs_second_temple_adds_with_few_players_and_replaces_with_many(players: int) -> None:
    state = new(players, 1)
    state.players[1].temples = {"surtur": 2}
    if players <= 3:  # level 1's second attack, and level 2's +1
        assert state.attacks_allowed(1) == 2 and state.attack_bonus(1) == 1
    else:  # +2, not +1 +2
        assert state.attacks_allowed(1) == 1 and state.attack_bonus(1) == 2


def test_tyrs_second_temple_replaces_the_bonus() -> None:
    state, _, target = _attack(3, "massacre", ["iron-helm"])
    state.players[target].temples = {"tyr": 2}
    act(state, "attack:massacre")
    act(state, "defend:iron-helm")
    assert state.attack["defence"] == 3 + 2  # +2, not +1 +2


def test_thors_and_odins_second_temples_add_their_second_conversion() -> None:
    for god, actions in (("thor", {"thor:gold", "thor2:gold"}), ("odin", {"odin", "odin2"})):
        state = until(new(3, 9), "build")
        seat = state.current
        state.players[seat].temples = {god: 2}
        state.players[seat].resources = [9, 9, 9]
        for other in range(3):
            state.players[other].hand = []
        act(state, "done")
        until(state, "followers", seat)
        assert actions <= {str(a) for a in state.legal_actions(seat)}, god


def test_lokis_second_temple_rolls_two_dice_not_three() -> None:
    state = until(new(3, 9), "build")
    seat = state.current
    state.players[seat].temples = {"loki": 2}
    for other in range(3):
        state.players[other].hand = []
    act(state, "done")
    until(state, "followers", seat)
    events = state.apply(seat, parse_action("loki"))
    rolled = next(e for e in events if e.kind == "rolled")
    assert [colour for colour, _ in rolled.data["dice"]] == ["white", "white"]
