"""Decisions a god weapon interrupts come back as the board is now, in both engines.

A god weapon played at one of its holder's own decisions (Bullseye, Sound of the
Gjallarhorn, Deadly Dagger, Thief, Hammertime) is resolved first; then the decision
comes back. What the weapon did meanwhile counts (docs/rules/valda.md): a god deck it
emptied is no longer offered, a hand it brought down to ten cards is not cut further, a
god it lent is not lent twice, a building or conversion it made unaffordable is not
offered, and so on; a card a weapon took from the discard pile before a later step
wanted it (Surtur's Claim's defended card) is no longer offered there. Each test plays
the same moves in the reference engine and, when it is built, in the C search engine,
and requires the same state after every move.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from meadhall.games.valda import native
from meadhall.games.valda.game import GAME
from meadhall.games.valda.notation import parse_action
from meadhall.games.valda.state import HAND_LIMIT, ValdaState, read_decision
from tests.valda.test_rules import _attack, _locked, new, until


def default_pack() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(
        resources.files("meadhall.games.valda").joinpath("data/default.json").read_text("utf-8")
    )
    return found


def small_pack(name: str, base: dict[str, int]) -> dict[str, Any]:
    """A pack whose god decks hold only their weapons, and whose base deck holds ``base`` (143 cards)."""
    pack = default_pack()
    by_id = {card["id"]: card for card in pack["cards"]}
    weapons = [card for card in pack["cards"] if card["kind"] == "weapon"]
    assert sum(base.values()) == 150 - len(weapons)
    cards = [dict(by_id[card], deck="base", count=count) for card, count in base.items()]
    return dict(pack, id=name, cards=weapons + cards)


class Both:
    """A position played in the reference engine and, when it is built, in the C engine, move by move."""

    def __init__(self, state: ValdaState) -> None:
        self.state = state
        self.tables = native.tables(state.config.content)
        self.fast = native.to_search(state)
        self.check()

    def check(self) -> None:
        """The same state and the same legal actions in both engines."""
        if self.fast is None or self.tables is None:
            return
        assert self.fast.export() == self.tables.export(self.state)
        for seat in self.state.to_move():
            legal = sorted(str(self.tables.decode(code)) for code in self.fast.legal_actions(seat))
            assert legal == sorted(map(str, self.state.legal_actions(seat)))

    def act(self, text: str) -> list[str]:
        """Apply ``text`` for the seat to move in both engines, then pass windows that offer nothing."""
        kinds = self._apply(text)
        while self.decision.get("kind") == "window" and not self.decision["options"]:
            kinds += self._apply("pass")
        return kinds

    def _apply(self, text: str) -> list[str]:
        (seat,) = self.state.to_move()
        action = parse_action(text)
        assert action in self.state.legal_actions(seat), (text, self.state.decision)
        events = self.state.apply(seat, action)
        if self.fast is not None and self.tables is not None:
            self.fast.apply_quiet(seat, self.tables.encode(action))
        self.check()
        return [event.kind for event in events]

    def draw_from(self, god: str) -> None:
        """Choose a god deck, and keep the first card looked at there (if the draw asks)."""
        self.act(f"god:{god}")
        if self.decision.get("kind") == "keep":
            self.act(f"keep:{self.decision['cards'][0]}")

    def until(self, kind: str, seat: int) -> None:
        """Play ``done``, ``pass``, ``yield`` (or the first choice) in both engines until ``seat`` decides ``kind``."""
        for _ in range(2000):
            if self.decision.get("kind") == kind and self.decision["seat"] == seat:
                return
            quiet = [a for a in sorted(self.legal()) if a in ("done", "pass", "yield")]
            self._apply(quiet[0] if quiet else str(self.state.legal_actions(self.state.to_move()[0])[0]))
        raise AssertionError(f"never reached {kind}")

    @property
    def decision(self) -> dict[str, Any]:
        return {} if self.state.decision is None else self.state.decision.to_json()

    def legal(self) -> set[str]:
        (seat,) = self.state.to_move()
        return {str(action) for action in self.state.legal_actions(seat)}


def give(state: ValdaState, seat: int, *cards: str) -> None:
    """Put ``cards`` into ``seat``'s hand, taken from a deck or the discard pile where they lie."""
    for card in cards:
        for pile in (state.base, *state.gods.values(), state.discard):
            if card in pile:
                pile.remove(card)
                break
        state.players[seat].hand.append(card)


def at_game_phase(state: ValdaState, *hand: str) -> tuple[ValdaState, int]:
    """``state`` at the current seat's game phase, its hand exactly ``hand``."""
    until(state, "game")
    seat = state.current
    state.players[seat].hand = []
    give(state, seat, *hand)
    return state, seat


# A god deck emptied while its draw waited ----------------------------------------------------


def seidr_game() -> ValdaState:
    """Two players, god decks of one card each (the weapon), a base deck of 143 Seidr (a god card of choice)."""
    return GAME.new_game(players=2, seed=1, options={"content": small_pack("test-dry-god-decks", {"seidr": 143})})


def test_a_god_deck_a_weapon_emptied_is_no_longer_offered() -> None:
    # The review's crash: Seidr's choice of a god deck, interrupted by Hammertime playing a
    # second Seidr twice, came back offering the two decks those draws emptied; choosing
    # one raised IndexError mid-apply (and the C engine read past the deck).
    state, _ = at_game_phase(seidr_game(), "seidr", "seidr", "mjolnir")
    both = Both(state)
    assert all(len(deck) == 1 for god, deck in state.gods.items() if god != "thor") and not state.gods["thor"]
    both.act("play:seidr")
    assert both.decision["kind"] == "god-draw"
    offered = list(both.decision["gods"])
    both.act("weapon:hammertime")
    both.act("card:seidr")
    both.draw_from("heimdall")
    both.draw_from("freya")
    assert both.decision["kind"] == "god-draw"
    assert both.decision["gods"] == [god for god in offered if god not in ("heimdall", "freya")]
    assert "god:heimdall" not in both.legal() and "god:freya" not in both.legal()
    both.draw_from("surtur")
    assert both.decision["kind"] == "game" and not state.gods["surtur"]


def test_a_god_draw_whose_decks_all_ran_dry_is_skipped() -> None:
    state, seat = at_game_phase(seidr_game(), "seidr", "seidr", "mjolnir")
    for god in ("surtur", "tyr", "odin", "loki"):
        state.discard += state.gods[god]
        state.gods[god] = []
    both = Both(state)
    both.act("play:seidr")
    assert both.decision["gods"] == ["heimdall", "freya"]
    both.act("weapon:hammertime")
    both.act("card:seidr")
    both.draw_from("heimdall")
    both.draw_from("freya")
    assert both.decision["kind"] == "game" and not any(state.gods.values())
    assert state.players[seat].hand.count("seidr") == 0 and len(state.players[seat].hand) == 2


def test_a_locked_area_whose_god_deck_runs_dry_opens_its_last_card_then_base_cards() -> None:
    state = seidr_game()
    _locked("thor", state=state)
    both = Both(state)
    both.until("game", 0)
    assert state.open[0] == "mjolnir" and len(state.open) == 2 and not state.gods["thor"]  # no choice of one
    both._apply("done")
    both.until("game", 0)  # the next round: nothing left in Thor's deck, two base cards
    assert state.round == 2 and state.open == ["seidr", "seidr"]


# The hand limit after Hammertime -------------------------------------------------------------


DEFENCES = ["shield-wall", "round-shield", "iron-helm", "shield-wall", "round-shield", "iron-helm", "shield-wall",
            "round-shield", "iron-helm", "shield-wall", "round-shield"]  # fmt: skip


def test_hammertime_at_the_hand_limit_that_leaves_ten_cards_ends_the_discarding() -> None:
    # "You're not allowed to throw cards onto the discard pile unless you have more than 10
    # cards." Hammertime and the yellow card it plays leave the hand: 11 cards become 9.
    state, seat = at_game_phase(new(2, 3), "mjolnir", "prayer", *DEFENCES[:9])
    both = Both(state)
    both.act("done")
    assert both.decision["kind"] == "hand-limit" and "weapon:hammertime" in both.legal()
    followers = state.players[seat].followers
    both.act("weapon:hammertime")
    both.act("card:prayer")
    assert len(state.players[seat].hand) == 9 and state.players[seat].followers == followers + 2
    assert both.decision.get("kind") != "hand-limit" and state.phase != "game"


def test_hammertime_at_the_hand_limit_leaves_the_discarding_to_what_is_still_over_ten() -> None:
    state, seat = at_game_phase(new(2, 3), "mjolnir", "prayer", *DEFENCES)  # 13 cards
    both = Both(state)
    both.act("done")
    both.act("weapon:hammertime")
    both.act("card:prayer")
    assert len(state.players[seat].hand) == 11 and both.decision["kind"] == "hand-limit"
    both.act("discard:iron-helm")
    assert len(state.players[seat].hand) == HAND_LIMIT and state.phase != "game"
    # ... and one that draws makes more to discard
    state, seat = at_game_phase(new(2, 3), "mjolnir", "scout", *DEFENCES[:9])
    both = Both(state)
    both.act("done")
    both.act("weapon:hammertime")
    both.act("card:scout")  # two cards, twice: 9 + 4
    assert len(state.players[seat].hand) == 13 and both.decision["kind"] == "hand-limit"
    for _ in range(3):
        both.act(f"discard:{state.players[seat].hand[0]}")
    assert len(state.players[seat].hand) == HAND_LIMIT and both.decision.get("kind") != "hand-limit"


# Choices a weapon changed --------------------------------------------------------------------


def test_a_god_lent_meanwhile_is_not_offered_again() -> None:
    state, _ = at_game_phase(new(2, 3), "skald", "skald", "mjolnir")
    both = Both(state)
    both.act("play:skald")
    assert both.decision["kind"] == "lend" and {"freya", "heimdall"} <= set(both.decision["gods"])
    both.act("weapon:hammertime")
    both.act("card:skald")
    both.act("god:freya")
    both.act("god:heimdall")
    assert both.decision["kind"] == "lend"
    assert not {"freya", "heimdall"} & set(both.decision["gods"]) and len(both.decision["gods"]) == 5


def test_a_free_building_the_weapon_left_unaffordable_is_not_offered() -> None:
    state, seat = at_game_phase(new(2, 3), "builders", "builders", "mjolnir")
    state.players[seat].resources = [1, 1, 1]
    both = Both(state)
    both.act("play:builders")
    assert both.decision["kind"] == "free-build" and "build:mine" in both.legal()
    both.act("weapon:hammertime")
    both.act("card:builders")  # the first of the two builds the mine; nothing is left for the second
    both.act("build:mine")
    both.act("choose:gold")
    assert state.players[seat].mines == 3 and state.players[seat].resources == [0, 1, 0]
    assert both.decision["kind"] == "game"  # the first Builders' building is no longer affordable: skipped


def test_a_conversion_the_weapon_left_unaffordable_is_not_offered() -> None:
    state, seat = at_game_phase(new(2, 3), "storm-tithe", "storm-tithe", "mjolnir")
    state.players[seat].resources = [0, 3, 0]
    both = Both(state)
    both.act("play:storm-tithe")
    assert both.decision["kind"] == "convert" and "convert" in both.legal()
    both.act("weapon:hammertime")
    both.act("card:storm-tithe")
    both.act("convert")
    both.act("done")
    assert state.players[seat].resources == [0, 0, 0] and state.players[seat].followers == 1
    assert both.decision["kind"] == "game"


def test_a_free_building_waiting_for_its_discount_waives_what_the_weapon_spent() -> None:
    # The waive choice comes back knowing the gold is gone: it is waived without asking.
    state, seat = at_game_phase(new(2, 3), "builders", "storm-tithe", "mjolnir")
    state.players[seat].resources = [1, 3, 1]
    both = Both(state)
    both.act("play:builders")
    both.act("build:mine")
    assert both.decision["kind"] == "waive"
    both.act("weapon:hammertime")
    both.act("card:storm-tithe")
    both.act("convert")
    assert state.players[seat].resources == [1, 0, 1] and both.decision["kind"] == "convert"
    kinds = both.act("done")  # the second Storm Tithe cannot convert; the waive comes back
    assert "built" in kinds and state.players[seat].mines == 3 and state.players[seat].resources == [0, 0, 0]
    assert both.decision["kind"] == "game"


def test_a_choice_from_the_discard_pile_comes_back_among_what_is_left() -> None:
    state, seat = at_game_phase(new(2, 3), "lawgiver", "gjallarhorn")
    state.discard += ["round-shield", "iron-helm", "raid"]
    both = Both(state)
    both.act("play:lawgiver")
    assert both.decision["cards"] == ["iron-helm", "round-shield"]
    both.act("weapon:sound-of-the-gjallarhorn")
    both.act("card:iron-helm")
    both.act("card:round-shield")
    assert both.decision["kind"] == "game"  # both of Lawgiver's picks found nothing left
    assert {"iron-helm", "round-shield"} <= set(state.players[seat].hand)


# Every kind of decision a weapon can interrupt ------------------------------------------------


def _asked(kind: str) -> tuple[ValdaState, int]:
    """A position at a decision of ``kind``, asked by the engine's own step; its seat holds Gungnir."""
    if kind in ("resources", "build", "attack", "defend", "followers"):
        state = new(3, 8)
        for seat in range(3):
            state.players[seat].resources = [4, 4, 4]  # trades to make, buildings to build
            state.players[seat].temples = {"loki": 1}  # a die to roll in the followers phase
        give(state, 1, "raid")
        give(state, 2, "raid")
        until(state, "attack" if kind == "defend" else kind)
        if kind == "defend":
            state.apply(state.to_move()[0], parse_action("attack:raid"))
            while state.decision and state.decision["kind"] == "window":
                state.apply(state.to_move()[0], parse_action("pass"))
        assert state.decision is not None
        give(state, int(state.decision["seat"]), "gungnir")
    elif kind == "lock-card":  # seat 0 holds Thor's area locked: its game phase begins with the choice
        state, seat = _locked("thor")
        give(state, seat, "gungnir")
        until(state, kind)
    else:
        state, seat = at_game_phase(new(3, 8), "gungnir")
        if kind != "game":
            _ask_by_its_step(state, seat, kind)
    assert state.decision is not None and state.decision["kind"] == kind, (kind, state.decision)
    return state, int(state.decision["seat"])


def _ask_by_its_step(state: ValdaState, seat: int, kind: str) -> None:
    """Ask ``seat`` a decision of ``kind`` in its game phase as a card's effect (or the phase's end) would."""
    target = (seat + 1) % 3
    state.players[seat].resources = [3, 3, 3]
    state.players[target].resources = [2, 0, 1]
    state.players[target].temples = {"tyr": 1}
    state.sites["tyr"] = [target]
    state.decision = None
    effects: dict[str, tuple[str, tuple[tuple[str, Any], ...], str]] = {
        "free-build": ("build", (("building", "any"), ("discount", 1)), "builders"),
        "convert": ("convert", (("amount", 2), ("followers", 1), ("give", "drop"), ("times", 1)), "sacrifice"),
        "look": ("look", (("count", 10),), "far-sight"),
        "peek": ("peek_take", (("count", 3),), "seer"),
        "switch": ("switch_open", (), "shapeshift"),
        "lend": ("lend", (), "skald"),
        "destroy": ("destroy", (("building", "any"),), "muspel-fire"),
        "move": ("move_temple", (), "exile"),
    }
    if kind in effects:
        do, params, card = effects[kind]
        state._step_effect(seat, do, params, card, target)
    elif kind == "choose":
        state._step_choose(seat, "market-day")
    elif kind == "hand-limit":
        give(state, seat, *DEFENCES)
        state._step_hand_limit()
    elif kind == "waive":
        state._start_free_build(seat, "mine", 1, "builders")
    elif kind == "keep":
        state._step_temple_rewards(seat, "odin")
    elif kind == "steal":
        state._step_ask_steal(seat, target, "any", "raid")
    elif kind == "discard-pick":
        state.discard += ["raid", "ambush"]
        state._step_ask_discard_pick(seat, "attack", "deadly-dagger")
    elif kind == "god-draw":
        state._step_ask_god_draw(seat, "seidr")


INTERRUPTIBLE = [
    "choose", "resources", "game", "hand-limit", "build", "free-build", "waive", "keep", "attack", "defend", "steal",
    "destroy", "move", "convert", "look", "peek", "discard-pick", "switch", "god-draw", "lend", "followers",
    "lock-card",
]  # fmt: skip


@pytest.mark.parametrize("kind", INTERRUPTIBLE)
def test_every_decision_a_weapon_interrupts_comes_back_as_asked_now(kind: str) -> None:
    state, seat = _asked(kind)
    state.discard.append("valkyrie-ward")
    assert state.decision is not None
    before = state.decision.to_json()
    both = Both(state)
    assert "weapon:bullseye" in both.legal()
    both._apply("weapon:bullseye")
    assert both.decision["kind"] == "discard-pick"
    both._apply("card:valkyrie-ward")
    if kind == "discard-pick":  # Bullseye took one of its cards: the rest
        before["cards"] = [card for card in before["cards"] if card in state.discard]
    assert both.decision == before
    assert "valkyrie-ward" in state.players[seat].hand


# A card a queued step expects, taken away meanwhile -------------------------------------------


def _defended(attacker_hand: list[str], target_hand: list[str]) -> tuple[Both, int, int]:
    """Two players at the attack phase: ``attacker_hand[0]`` is played and the target holds ``target_hand``."""
    state, attacker, target = _attack(2, attacker_hand[0], [])
    state.players[attacker].hand = list(attacker_hand)
    state.players[target].hand = list(target_hand)
    state.base[0:0] = state.discard  # an empty discard pile: only what the test puts there
    state.discard = []
    both = Both(state)
    both.act(f"attack:{attacker_hand[0]}")
    return both, attacker, target


def test_surturs_claim_is_offered_while_the_defended_card_lies_in_the_discard_pile() -> None:
    both, attacker, target = _defended(["firebrand", "flaming-sword"], ["bifrost-guard"])
    both.act("defend:bifrost-guard")
    both.act("choose:gold")  # Bifrost Guard's resource of choice, once the defence holds
    assert both.decision == {"seat": attacker, "kind": "window", "window": "defended", "options": ["surturs-claim"],
                             "args": []}  # fmt: skip
    both.act("weapon:surturs-claim")
    assert both.state.attack["card"] == "firebrand" and both.decision == {"seat": target, "kind": "defend"}


def test_surturs_claim_is_not_offered_once_deadly_dagger_took_the_defended_card() -> None:
    # Seed 473 (two players, weapons dealt): the defender, at its Bifrost Guard's choice of
    # a resource, took the defended Firebrand from the discard pile with Deadly Dagger; the
    # attacker was then offered Surtur's Claim, whose replay raised ValueError in the
    # reference engine (the card was not in the discard pile) and, in the C engine, put a
    # second Firebrand into play.
    both, attacker, target = _defended(["firebrand", "flaming-sword"], ["bifrost-guard", "loki-dagger"])
    state = both.state
    both.act("defend:bifrost-guard")
    assert both.decision["kind"] == "choose" and "weapon:deadly-dagger" in both.legal()
    both.act("weapon:deadly-dagger")
    assert both.decision["kind"] == "discard-pick" and "firebrand" in both.decision["cards"]
    both.act("card:firebrand")
    both.act("choose:gold")
    assert "firebrand" in state.players[target].hand and "firebrand" not in state.discard
    # No card to play again: the attacker is not asked, and the attack phase goes on.
    assert not (both.decision.get("kind") == "window" and both.decision["seat"] == attacker)
    assert state.attack.get("again") is None and "flaming-sword" in state.players[attacker].hand
    assert sum(hand.count("firebrand") for hand in (p.hand for p in state.players)) == 1
    assert state.attack == {} and state.current == attacker  # the attack is over; the next turn has begun


def test_surturs_claim_is_not_offered_once_the_defended_card_was_shuffled_into_the_base_deck() -> None:
    # Cats of Freya draws a base card once the defence holds; with the base deck empty,
    # the discard pile (the defended Firebrand with it) is shuffled into a new one.
    both, attacker, _ = _defended(["firebrand", "flaming-sword"], ["cats-of-freya", "round-shield"])
    state = both.state
    state.discard += state.base
    state.base = []
    both = Both(state)
    both.act("defend:cats-of-freya")
    kinds = both.act("defend:round-shield")
    assert "reshuffled" in kinds and "firebrand" not in state.discard
    assert not (both.decision.get("kind") == "window" and both.decision["seat"] == attacker)
    assert state.attack.get("again") is None and "flaming-sword" in state.players[attacker].hand


def test_surturs_claim_plays_a_copy_of_the_defended_card_left_in_the_discard_pile() -> None:
    # Ruling: copies of a card are alike; while one lies in the discard pile, it is the card played again.
    both, attacker, target = _defended(["firebrand", "flaming-sword"], ["bifrost-guard", "loki-dagger"])
    state = both.state
    state.discard += ["firebrand", "ambush"]
    both = Both(state)
    both.act("defend:bifrost-guard")
    both.act("weapon:deadly-dagger")
    both.act("card:firebrand")
    both.act("card:ambush")  # Deadly Dagger's second card
    both.act("choose:gold")
    assert state.discard.count("firebrand") == 1 and both.decision["seat"] == attacker
    both.act("weapon:surturs-claim")
    assert "firebrand" not in state.discard and state.attack["card"] == "firebrand"
    assert both.decision == {"seat": target, "kind": "defend"}


def test_both_engines_refuse_to_take_a_card_that_is_not_there() -> None:
    # Should a step ever look for a card where the rules no longer put it, the reference
    # engine raises (list.remove); the C engine raises too, rather than playing on with a
    # card it made up (a second Firebrand, before the fix above).
    both, attacker, _ = _defended(["firebrand", "flaming-sword"], ["bifrost-guard", "loki-dagger"])
    state = both.state
    both.act("defend:bifrost-guard")
    both.act("weapon:deadly-dagger")
    both.act("card:firebrand")
    both._apply("choose:gold")
    assert both.decision["window"] == "defended" and state.queue[:2] == [("offer", "defended", attacker),
                                                                         ("after_defended",)]  # fmt: skip
    # As if the window had offered the attacker Surtur's Claim on the card that went.
    state.queue.pop(0)
    state.decision = read_decision({"seat": attacker, "kind": "window", "window": "defended",
                                    "options": ["surturs-claim"], "args": []})  # fmt: skip
    claim = parse_action("weapon:surturs-claim")
    fast, tables = native.to_search(state), native.tables(state.config.content)
    with pytest.raises(ValueError, match="not in list"):
        state.clone().apply_quiet(attacker, claim)
    if fast is not None and tables is not None:
        with pytest.raises(ValueError, match="not there"):
            fast.apply_quiet(attacker, tables.encode(claim))
