"""Quest, Prove Valor, Release Warriors, End of an Age and End of the Game."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from meadhall import IllegalAction
from meadhall.games import bloodrage_valhalla
from meadhall.games.bloodrage_valhalla import BloodRageState, parse_action
from tests.bloodrage_valhalla.helpers import (
    action_state,
    arrange,
    draft_all,
    end_of_age_one_with_four_cards,
    finish_age_passing,
    illegal,
    keep_last,
    kinds,
    legal_texts,
    on_board,
    play,
    play_all,
    run_until,
)

THREE_GODS = {"gladsheim": "thor", "sokkvabekk": "loki", "glitnir": "tyr"}


def age_state(age: int, players: int = 3, seed: int = 7) -> BloodRageState:
    """A real game at the start of the Action phase of ``age`` (earlier Ages all passed)."""
    state = action_state(players, seed)
    if age > 1:
        run_until(state, "action", age)
    return state


def gods_for(age: int) -> dict[str, str]:
    return dict(list(THREE_GODS.items())[:age])


def tokens_for(age: int) -> list[str]:
    return list(THREE_GODS)[age:]


# Quest phase -----------------------------------------------------------------------------


def _quests_committed(hands: dict[int, list[str]], figures: list[tuple[str, int, str]]) -> BloodRageState:
    state = action_state(3, seed=7)
    arrange(state, figures=figures, hands=hands, first=0, current=0)
    play_all(state, [(0, "quest:tyr-25"), (1, "quest:tyr-21"), (2, "pass"), (0, "pass")])
    return state


FIGURES = [
    ("breidablik", 0, "warrior"),
    ("breidablik", 0, "warrior"),
    ("folkvang", 1, "warrior"),
    ("thrudheim", 2, "warrior"),
]


@pytest.mark.parametrize("stat, glory", [("horns", 5), ("axes", 4), ("rage", 4)])
def test_a_fulfilled_quest_raises_a_stat_and_gives_horns_glory_after_the_raise(stat: str, glory: int) -> None:
    # Seat 0: Overwhelming Host (most figures on the board): fulfilled.
    # Seat 1: Hold Himinbjorg: failed (no figure there).
    state = _quests_committed({0: ["tyr-25"], 1: ["tyr-21"]}, FIGURES)
    events = play(state, 1, "pass")
    assert "quest-phase" in kinds(events)
    # Every quest is revealed at once, then the fulfilled ones are paid.
    quests = [(e.data["seat"], e.data["card"], e.data["fulfilled"]) for e in events if e.kind == "quest"]
    assert quests == [(0, "tyr-25", True), (1, "tyr-21", False)]
    assert state.to_move() == (0,)
    assert legal_texts(state, 0) == {"raise:rage", "raise:axes", "raise:horns", "raise:none"}
    play(state, 0, f"raise:{stat}")
    assert state.clans[0].steps[stat] == 1
    assert state.scores() == [glory, 0, 0]
    assert state.clans[1].steps == {"rage": 0, "axes": 0, "horns": 0}
    # Quests go back to the hand; each clan keeps its one card for the next Age.
    assert state.phase == "keep"
    play_all(state, [(0, "keep"), (1, "keep")])
    assert state.age == 2
    assert state.clans[0].saved == ["tyr-25"]
    assert state.clans[1].saved == ["tyr-21"]


def test_a_fulfilled_quest_may_raise_no_stat() -> None:
    # "you may raise any one of your clan stats one step": the clan may decline, and still
    # gains Glory equal to its Horns.
    state = _quests_committed({0: ["tyr-25"], 1: ["tyr-21"]}, FIGURES)
    play(state, 1, "pass")
    events = play(state, 0, "raise:none")
    assert [(e.kind, e.data) for e in events if e.kind in ("no-raise", "raised")] == [
        ("no-raise", {"seat": 0, "why": "quest"})
    ]
    assert state.clans[0].steps == {"rage": 0, "axes": 0, "horns": 0}
    assert state.scores() == [4, 0, 0]  # Horns 4, not raised


def test_a_quest_may_decline_even_when_one_stat_is_left_to_raise() -> None:
    state = _quests_committed({0: ["tyr-25"], 1: ["tyr-21"]}, FIGURES)
    state.clans[0].steps = {"rage": 5, "axes": 5, "horns": 2}
    play(state, 1, "pass")
    assert legal_texts(state, 0) == {"raise:horns", "raise:none"}
    play(state, 0, "raise:none")
    assert state.clans[0].glory == 6


def test_a_contest_reward_raise_cannot_be_declined() -> None:
    # Only a quest's raise is optional ("may"); a region's reward is the reward.
    state = action_state(3, seed=7)
    arrange(state, figures=[("folkvang", 0, "warrior")])
    play(state, 0, "contest:folkvang")  # Folkvang: a stat of your choice, no enemy
    assert legal_texts(state, 0) == {"raise:rage", "raise:axes", "raise:horns"}
    error = illegal(state, 0, "raise:none")
    assert "not optional" in str(error)


def _hold_quest(order: list[str], hand: list[str]) -> list[tuple[str, bool]]:
    """Seat 0 commits to quests in ``order`` (Counsel of the Wise, hold 4 cards, among them)
    with ``hand`` left over; the reveal's (card, fulfilled) pairs."""
    state = action_state(3, seed=7, gods="baldr,loki,tyr")
    arrange(state, hands={0: [*order, *hand]}, gods={"gladsheim": "baldr"}, first=0, current=0)
    for card in order:
        play(state, 0, f"quest:{card}")
        for seat in (1, 2):
            if seat in state.to_move():
                play(state, seat, "pass")
    events = play(state, 0, "pass")
    return [(str(e.data["card"]), bool(e.data["fulfilled"])) for e in events if e.kind == "quest"]


@pytest.mark.parametrize(
    "order",
    [
        ["baldr-17", "baldr-18", "baldr-19"],
        ["baldr-19", "baldr-17", "baldr-18"],
        ["baldr-17", "baldr-19", "baldr-18"],
    ],
)
def test_a_hold_cards_quest_does_not_count_quests_revealed_with_it(order: list[str]) -> None:
    # "Each player reveals all the Quest Cards they have committed to ... Return all revealed
    # Quest Cards back to your hand": the quests are judged at the reveal, so the two other
    # quests, returned to hand, never count for Counsel of the Wise, whatever the order.
    three = ["tyr-01", "tyr-02", "tyr-03"]
    assert dict(_hold_quest(order, three)) == {"baldr-17": False, "baldr-18": False, "baldr-19": False}
    four = [*three, "tyr-04"]
    assert dict(_hold_quest(order, four))["baldr-19"] is True


def test_quests_of_all_clans_are_judged_before_any_is_paid() -> None:
    # A quest's reward that changes the board (here a pack's "destroy figures anywhere") comes
    # after every clan's quests were judged: seat 1's quest still counts the figure seat 0
    # destroys with its reward.
    pack = json.loads(resources.files(bloodrage_valhalla).joinpath("data/default.json").read_text("utf-8"))
    for card in pack["cards"]:
        if card["id"] == "tyr-25":  # Overwhelming Host: most figures; reward: kill 1 anywhere
            card["reward"] = [{"do": "kill_anywhere", "count": 1}]
    state = action_state(3, seed=7, content=pack)
    arrange(
        state,
        figures=[*FIGURES, ("bilskirnir", 0, "warrior"), ("himinbjorg", 1, "warrior")],
        hands={0: ["tyr-25"], 1: ["tyr-21"]},
        first=0,
        current=0,
    )
    play_all(state, [(0, "quest:tyr-25"), (1, "quest:tyr-21"), (2, "pass"), (0, "pass")])
    events = play(state, 1, "pass")
    quests = [(e.data["seat"], e.data["card"], e.data["fulfilled"]) for e in events if e.kind == "quest"]
    assert quests == [(0, "tyr-25", True), (1, "tyr-21", True)]
    play(state, 0, "raise:axes")
    play(state, 0, "kill:himinbjorg:1:warrior")
    assert on_board(state, "himinbjorg") == []
    play(state, 1, "raise:axes")
    assert state.scores() == [4, 4, 0]


def test_a_horns_raise_for_an_earlier_quest_pays_the_later_ones() -> None:
    # The rulebook's note: Glory follows the Horns stat after a raise; a clan fulfilling two
    # quests and raising Horns for the first gains the higher Horns for the second too.
    state = action_state(3, seed=7)
    figures = [*FIGURES, ("himinbjorg", 0, "warrior")]
    arrange(state, figures=figures, hands={0: ["tyr-25", "tyr-21"]}, first=0, current=0)
    play_all(state, [(0, "quest:tyr-25"), (1, "pass"), (2, "pass"), (0, "quest:tyr-21")])
    events = play(state, 0, "pass")
    assert [(e.data["card"], e.data["fulfilled"]) for e in events if e.kind == "quest"] == [
        ("tyr-25", True),
        ("tyr-21", True),
    ]
    play(state, 0, "raise:horns")  # Horns 4 -> 5: the first quest pays 5
    assert state.scores()[0] == 5
    play(state, 0, "raise:rage")  # the second pays Horns 5 too
    assert state.scores()[0] == 10
    assert state.clans[0].steps == {"rage": 1, "axes": 0, "horns": 1}


def test_quest_glory_rulebook_example_horns_raised_from_6_to_7() -> None:
    state = _quests_committed({0: ["tyr-25"], 1: ["tyr-21"]}, FIGURES)
    state.clans[0].steps["horns"] = 2  # Horns 6
    play(state, 1, "pass")
    play(state, 0, "raise:horns")
    assert state.stat_value(0, "horns") == 7
    assert state.scores()[0] == 7


def test_a_quest_checks_its_condition_in_the_quest_phase_not_when_committed() -> None:
    # Seat 0 commits to "Overwhelming Host" while it does not have the most figures ...
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior"), ("folkvang", 1, "warrior")], hands={0: ["tyr-25"]})
    play_all(state, [(0, "quest:tyr-25"), (1, "pass"), (2, "pass")])
    # ... and then summons a second figure.
    events = play(state, 0, "summon:warrior@himinbjorg")
    assert "quest-phase" not in kinds(events)
    events = play(state, 0, "pass")
    assert [e.data["fulfilled"] for e in events if e.kind == "quest"] == [True]


def test_failed_quests_cost_nothing() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")], hands={0: ["thor-21", "thor-22"]})
    state.clans[0].glory = 5
    play_all(state, [(0, "quest:thor-21"), (1, "pass"), (2, "pass"), (0, "quest:thor-22")])
    events = play(state, 0, "pass")
    assert [e.data["fulfilled"] for e in events if e.kind == "quest"] == [False, False]
    assert state.scores() == [5, 0, 0]
    assert state.clans[0].steps == {"rage": 0, "axes": 0, "horns": 0}
    assert sorted(state.clans[0].hand) == ["thor-21", "thor-22"]
    play(state, 0, "keep")
    assert sorted(state.clans[0].saved) == ["thor-21", "thor-22"]


def _hand_quest(other_cards: list[str]) -> list[bool]:
    """Seat 0 commits to Counsel of the Wise (hold at least 4 cards); the fulfilled flags."""
    state = action_state(3, seed=7, gods="baldr,loki,tyr")
    arrange(state, hands={0: ["baldr-19", *other_cards]}, gods={"gladsheim": "baldr"}, first=0, current=0)
    play(state, 0, "quest:baldr-19")
    events = play_all(state, [(1, "pass"), (2, "pass"), (0, "pass")])
    return [bool(e.data["fulfilled"]) for e in events if e.kind == "quest"]


def test_a_hand_size_quest_is_fulfilled_with_enough_cards() -> None:
    assert _hand_quest(["tyr-01", "tyr-02", "tyr-03", "tyr-04"]) == [True]


def test_a_quest_card_does_not_count_itself_for_a_hand_size_condition() -> None:
    # Three cards in hand (the quest lies on the clan sheet): 3 < 4, the quest fails.
    assert _hand_quest(["tyr-01", "tyr-02", "tyr-03"]) == [False]


def test_patient_wisdom_can_be_fulfilled_after_passing() -> None:
    # Baldr's Patient Wisdom asked for 2 Rage left, which passing (Rage to 0) almost always
    # ruined; it now asks for 4 cards in hand, which a clan that passed can still hold.
    state = action_state(3, seed=7, gods="baldr,loki,tyr")
    hand = ["baldr-23", "tyr-01", "tyr-02", "tyr-03", "tyr-04"]
    arrange(state, hands={0: hand}, gods={"gladsheim": "baldr"}, first=0, current=0)
    play(state, 0, "quest:baldr-23")
    events = play_all(state, [(1, "pass"), (2, "pass"), (0, "pass")])
    assert state.clans[0].passed
    assert [(e.data["card"], e.data["fulfilled"]) for e in events if e.kind == "quest"] == [("baldr-23", True)]
    play(state, 0, "raise:horns")
    assert state.scores() == [5, 0, 0]  # Horns 5 after the raise


def test_with_every_stat_at_the_top_a_quest_still_gives_horns_glory() -> None:
    state = _quests_committed({0: ["tyr-25"], 1: ["tyr-21"]}, FIGURES)
    state.clans[0].steps = {"rage": 5, "axes": 5, "horns": 5}
    play(state, 1, "pass")
    assert state.clans[0].glory == 10


# Prove Valor ---------------------------------------------------------------------------------


def test_prove_valor_most_figures_not_strength_in_valhalla_and_god_regions_age_1() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[
            ("valhalla", 0, "elite"),  # STR 4 with Sworn Blades, but one figure
            ("valhalla", 1, "warrior"),
            ("valhalla", 1, "warrior"),
            ("gladsheim", 0, "warrior"),  # Thor's region: a tie, both score
            ("gladsheim", 2, "warrior"),
            ("breidablik", 1, "warrior"),  # no god: no Prove Valor
            ("breidablik", 1, "warrior"),
            ("breidablik", 1, "warrior"),
        ],
    )
    state.clans[0].upgrades = ["tyr-14"]
    assert state.strength_in("valhalla", 0) == 4 > state.strength_in("valhalla", 1) == 2
    events = play_all(state, [(0, "pass"), (1, "pass"), (2, "pass")])
    valor = sorted((e.data["region"], e.data["seat"], e.data["figures"]) for e in events if e.kind == "valor")
    assert valor == [("gladsheim", 0, 1), ("gladsheim", 2, 1), ("valhalla", 1, 2)]
    assert state.scores() == [3, 6, 3]
    # The winners' figures left the board (Feast Hall, then released); the others stay.
    assert on_board(state, "valhalla") == [(0, "elite")]
    assert on_board(state, "gladsheim") == []
    assert on_board(state, "breidablik") == [(1, "warrior")] * 3
    assert state.clans[1].warriors == 3
    assert state.clans[0].warriors == 6 and state.clans[2].warriors == 6
    assert state.feast == []


def test_prove_valor_kills_in_the_order_views_show_not_the_boards() -> None:
    # Views list a region's figures sorted; the board keeps them in arrival order. Kills in
    # arrival order let a seat tell apart worlds its view cannot (a conformance leak).
    state = action_state(3, seed=7)
    arrange(state, figures=[("valhalla", 1, "warrior"), ("valhalla", 1, "elite")])
    assert state.board["valhalla"] == [(1, "warrior"), (1, "elite")]
    events = play_all(state, [(0, "pass"), (1, "pass"), (2, "pass")])
    killed = [e.data["figure"] for e in events if e.kind == "killed" and e.data["region"] == "valhalla"]
    assert killed == ["elite", "warrior"]


@pytest.mark.parametrize("age, per_figure", [(2, 4), (3, 5)])
def test_prove_valor_gives_4_in_age_2_and_5_in_age_3_per_figure(age: int, per_figure: int) -> None:
    state = age_state(age)
    arrange(
        state,
        figures=[
            ("valhalla", 0, "warrior"),
            ("valhalla", 0, "warrior"),
            ("valhalla", 2, "warrior"),
            (list(THREE_GODS)[age - 1], 1, "warrior"),  # the newest god's region
            ("gladsheim", 2, "elite"),
        ],
        gods=gods_for(age),
        tokens=tokens_for(age),
        current=0,
    )
    for seat in range(3):
        state.clans[seat].glory = 0
    finish_age_passing(state)
    assert state.scores() == [2 * per_figure, per_figure, per_figure]


def test_prove_valor_ignores_regions_whose_god_has_not_arrived() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("sokkvabekk", 0, "warrior"), ("glitnir", 1, "warrior")])
    finish_age_passing(state)
    assert state.scores() == [0, 0, 0]
    assert on_board(state, "sokkvabekk") == [(0, "warrior")]


# Release Warriors -----------------------------------------------------------------------------


def test_release_returns_kill_piles_and_the_feast_hall_to_the_reserves() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[
            ("breidablik", 0, "warrior"),
            ("breidablik", 1, "warrior"),
            ("breidablik", 1, "elite"),
            ("folkvang", 2, "warrior"),
            ("folkvang", 1, "warrior"),
        ],
        hands={0: ["thor-01"], 1: ["tyr-12", "loki-01"], 2: ["tyr-01"]},
    )
    play(state, 0, "contest:breidablik")
    play_all(state, [(0, "play:thor-01"), (1, "play:tyr-12")])  # 7 against 2
    assert sorted(state.killpiles[0]) == [(1, "elite"), (1, "warrior")]
    play(state, 1, "contest:folkvang")
    play_all(state, [(1, "play:loki-01"), (2, "play:tyr-01")])  # 7 against 7: a tie
    assert sorted(state.feast) == [(1, "warrior"), (2, "warrior")]
    assert state.clans[1].warriors == 4 and state.clans[1].elites == 1
    events = play_all(state, [(2, "pass"), (0, "pass"), (1, "pass")])
    assert "release" in kinds(events)
    assert state.killpiles == [[], [], []] and state.feast == []
    assert (state.clans[1].warriors, state.clans[1].elites) == (6, 2)
    assert state.clans[2].warriors == 6
    assert on_board(state, "breidablik") == [(0, "warrior")]


# End of an Age ---------------------------------------------------------------------------------


def test_end_of_age_discards_back_to_hand_keep_three_tokens_cleared_first_player_left() -> None:
    state = end_of_age_one_with_four_cards()  # thor-02 was played in the contest: a discard
    assert state.phase == "keep"
    assert state.claimed == set()
    assert state.clans[0].discards == []
    assert sorted(state.clans[0].hand) == ["thor-02", "thor-13", "thor-14", "thor-15"]
    assert [clan["drops"] for clan in state.view(None)["clans"]] == [1, 0, 0]
    # Seat 2 has no card: nothing to choose. Seat 1 may keep its one card (or remove it).
    assert state.to_move() == (0, 1)
    assert legal_texts(state, 0) == {"drop:thor-02", "drop:thor-13", "drop:thor-14", "drop:thor-15"}
    assert legal_texts(state, 1) == {"drop:tyr-12", "keep"}
    events = play(state, 0, "drop:thor-14")
    assert all(e.audience == frozenset({0}) for e in events if "thor-14" in str(e.data))
    assert state.removed == ["thor-14"]
    assert legal_texts(state, 0) == {"drop:thor-02", "drop:thor-13", "drop:thor-15", "keep"}
    play(state, 1, "keep")
    assert state.phase == "keep"
    events = play(state, 0, "keep")
    assert [(e.kind, e.data, e.audience) for e in events if e.kind == "kept"] == [
        ("kept", {"seat": 0, "count": 3}, None)
    ]
    assert state.age == 2 and state.phase == "draft"
    assert state.first == 1
    assert sorted(state.clans[0].saved) == ["thor-02", "thor-13", "thor-15"]
    assert state.clans[1].saved == ["tyr-12"]
    draft_all(state)
    assert state.to_move() == (1,), "the new first player starts"
    assert [clan.rage for clan in state.clans] == [6, 6, 7]
    assert len(state.clans[0].hand) == 8
    # Breidablik's reward token is gone: seat 0 may win it again this Age.
    assert on_board(state, "breidablik") == [(0, "warrior")]
    play(state, 1, "pass")
    play(state, 2, "pass")
    assert "contest:breidablik" in legal_texts(state, 0)


def test_regions_can_be_won_again_in_the_next_age() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")], first=0, current=0)
    play(state, 0, "contest:breidablik")
    assert state.claimed == {"breidablik"}
    play_all(state, [(1, "pass"), (2, "pass"), (0, "pass")])
    assert state.age == 2
    draft_all(state)
    assert state.claimed == set()
    assert on_board(state, "breidablik") == [(0, "warrior")]
    while state.to_move() != (0,):
        play(state, state.to_move()[0], "pass")
    assert "contest:breidablik" in legal_texts(state, 0)


def test_dropping_needs_a_card_of_your_own_hand_and_keeping_at_most_three() -> None:
    state = action_state(3, seed=7)
    finish_age_passing(state)
    assert state.phase == "keep" and [len(clan.hand) for clan in state.clans] == [5, 5, 5]
    assert [clan["drops"] for clan in state.view(None)["clans"]] == [2, 2, 2]
    other = state.clans[1].hand[0]
    illegal(state, 0, f"drop:{other}")
    error = illegal(state, 0, "keep")
    assert "remove 2 more" in str(error)
    mine = sorted(state.clans[0].hand)
    play_all(state, [(0, f"drop:{mine[0]}"), (0, f"drop:{mine[1]}")])
    assert state.to_move() == (0, 1, 2), "seat 0 may still remove more, or keep"
    play(state, 0, "keep")
    assert state.to_move() == (1, 2)
    illegal(state, 0, f"drop:{mine[2]}")


def test_a_clan_may_keep_fewer_than_three_cards() -> None:
    # "choose 3 to hold onto" / "select up to 3": fewer is allowed, none too.
    state = action_state(3, seed=7)
    finish_age_passing(state)
    hands = [sorted(clan.hand) for clan in state.clans]
    for card in hands[0][:4]:
        play(state, 0, f"drop:{card}")
    play(state, 0, "keep")  # one card kept
    for card in hands[1]:
        play(state, 1, f"drop:{card}")  # the last drop ends the choice: nothing left to keep
    assert 1 not in state.to_move()
    keep_last(state, 2)
    assert state.age == 2
    assert state.clans[0].saved == hands[0][4:]
    assert state.clans[1].saved == []
    assert sorted(state.clans[2].saved) == hands[2][2:]
    assert sorted(state.removed) == sorted([*hands[0][:4], *hands[1], *hands[2][:2]])


def test_a_clan_with_three_cards_or_fewer_chooses_too() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["thor-02", "thor-13"]})
    finish_age_passing(state)
    assert state.phase == "keep" and state.to_move() == (0,)
    assert legal_texts(state, 0) == {"drop:thor-02", "drop:thor-13", "keep"}
    play(state, 0, "keep")
    assert state.age == 2 and sorted(state.clans[0].saved) == ["thor-02", "thor-13"]


# End of the game ------------------------------------------------------------------------------


def test_legendary_bonus_at_the_end_of_the_game() -> None:
    state = age_state(3)
    arrange(state, gods=THREE_GODS, tokens=(), current=state.current)
    steps = [
        {"rage": 5, "axes": 3, "horns": 4},  # +20 +10 +10
        {"rage": 2, "axes": 2, "horns": 2},  # nothing
        {"rage": 4, "axes": 5, "horns": 0},  # +10 +20
    ]
    for seat, clan in enumerate(state.clans):
        clan.steps = dict(steps[seat])
        clan.glory = [10, 50, 15][seat]
    while not state.is_terminal():
        play(state, state.to_move()[0], "pass")
    assert state.scores() == [50, 50, 45]
    assert state.ranking() == [1, 1, 3], "tied on Glory and on Rage (0): shared"
    assert state.age == 3
    assert state.to_move() == ()
    assert state.legal_actions(0) == []


def test_legendary_bonus_is_only_at_the_end_of_the_game() -> None:
    state = action_state(3, seed=7)
    arrange(state)
    state.clans[0].steps = {"rage": 5, "axes": 5, "horns": 5}
    finish_age_passing(state)
    assert state.scores() == [0, 0, 0]


def test_tie_on_glory_is_broken_by_remaining_rage() -> None:
    state = age_state(3)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior")],
        gods=THREE_GODS,
        tokens=(),
        rage={0: 2, 1: 5, 2: 6},
        current=0,
    )
    for seat, clan in enumerate(state.clans):
        clan.steps = {"rage": 0, "axes": 0, "horns": 0}
        clan.glory = [30, 30, 10][seat]
    state.claimed = state.claimable() - {"breidablik"}
    events = play(state, 0, "contest:breidablik")  # the last region: the Action phase ends
    assert state.is_terminal()
    over = [e for e in events if e.kind == "game-over"]
    assert over and over[0].data["places"] == [2, 1, 3]
    assert state.scores() == [30, 30, 10]
    assert [clan.rage for clan in state.clans] == [2, 5, 6]
    assert state.ranking() == [2, 1, 3]
    assert state.to_move() == ()
    with pytest.raises(IllegalAction) as caught:
        state.apply(1, parse_action("pass"))
    assert caught.value.rule == "game-over"
