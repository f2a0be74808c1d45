"""The Action phase: Summon, March, Upgrade, Quest, Pass, 0 Rage and the end of the phase."""

from __future__ import annotations

import pytest

from tests.bloodrage_valhalla.helpers import (
    action_state,
    arrange,
    give_monster,
    illegal,
    kinds,
    legal_texts,
    on_board,
    play,
    play_all,
)

# Default arrangement: Thor in Gladsheim; region tokens in Sokkvabekk and Glitnir.
COMMON = ["bilskirnir", "breidablik", "folkvang", "himinbjorg", "thrudheim"]


def test_turns_go_clockwise_from_the_first_player() -> None:
    state = action_state(4, seed=3)
    arrange(state, current=2, first=2)
    order = []
    for _ in range(5):
        seat = state.to_move()[0]
        order.append(seat)
        play(state, seat, "summon:warrior@breidablik")
    assert order == [2, 3, 0, 1, 2]


# Summon --------------------------------------------------------------------------------


def test_summon_a_warrior_or_elite_costs_1_rage() -> None:
    state = action_state(3, seed=7)
    arrange(state)
    events = play(state, 0, "summon:warrior@breidablik")
    assert "summoned" in kinds(events)
    assert state.clans[0].rage == 5
    assert state.clans[0].warriors == 5
    assert on_board(state, "breidablik") == [(0, "warrior")]
    assert state.to_move() == (1,)
    play(state, 1, "summon:elite@folkvang")
    assert state.clans[1].rage == 5 and state.clans[1].elites == 1
    assert on_board(state, "folkvang") == [(1, "elite")]


def test_summon_only_into_common_regions() -> None:
    state = action_state(3, seed=7)
    arrange(state)
    summons = {a for a in legal_texts(state, 0) if a.startswith("summon:warrior@")}
    assert summons == {f"summon:warrior@{r}" for r in COMMON}
    illegal(state, 0, "summon:warrior@valhalla")  # Valhalla
    illegal(state, 0, "summon:warrior@gladsheim")  # a god
    illegal(state, 0, "summon:elite@sokkvabekk")  # a region token
    illegal(state, 0, "summon:elite@glitnir")


def test_summon_needs_a_figure_in_the_reserve() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("valhalla", 0, "elite"), ("valhalla", 0, "elite")])
    assert state.clans[0].elites == 0
    illegal(state, 0, "summon:elite@breidablik")
    play(state, 0, "summon:warrior@breidablik")


def test_summon_a_monster_costs_0_rage_but_needs_1_rage() -> None:
    state = action_state(3, seed=7)
    arrange(state, rage={0: 1})
    give_monster(state, 0, "child-of-fenrir")
    play(state, 0, "summon:child-of-fenrir@breidablik")
    assert state.clans[0].rage == 1
    assert on_board(state, "breidablik") == [(0, "child-of-fenrir")]
    assert state.clans[0].monsters == []


def test_with_0_rage_nothing_can_be_summoned_not_even_a_monster() -> None:
    state = action_state(3, seed=7)
    arrange(state, rage={0: 0})
    give_monster(state, 0, "child-of-fenrir")
    illegal(state, 0, "summon:child-of-fenrir@breidablik")
    illegal(state, 0, "summon:warrior@breidablik")


# March ----------------------------------------------------------------------------------


def test_march_example_1_one_figure_to_an_adjacent_region() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")])
    play(state, 0, "march:breidablik")
    assert state.clans[0].rage == 5
    assert legal_texts(state, 0) == {"move:warrior>valhalla", "move:warrior>gladsheim", "move:warrior>himinbjorg"}
    play(state, 0, "move:warrior>himinbjorg")
    assert on_board(state, "himinbjorg") == [(0, "warrior")]
    assert on_board(state, "breidablik") == []
    assert state.to_move() == (1,), "the march ends when no figure is left to move"


def test_march_example_2_three_figures_to_an_adjacent_region_is_one_march() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")] * 2 + [("breidablik", 0, "elite")])
    play_all(
        state,
        [
            (0, "march:breidablik"),
            (0, "move:warrior>valhalla"),
            (0, "move:warrior>valhalla"),
            (0, "move:elite>valhalla"),
        ],
    )
    assert on_board(state, "valhalla") == [(0, "elite"), (0, "warrior"), (0, "warrior")]
    assert state.clans[0].rage == 5
    assert state.to_move() == (1,)


def test_march_example_3_two_figures_from_one_region_to_two_different_regions() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior"), ("breidablik", 0, "elite")])
    play_all(state, [(0, "march:breidablik"), (0, "move:warrior>gladsheim"), (0, "move:elite>himinbjorg")])
    assert on_board(state, "gladsheim") == [(0, "warrior")]
    assert on_board(state, "himinbjorg") == [(0, "elite")]
    assert state.clans[0].rage == 5


def test_march_example_4_two_figures_from_different_regions_to_one_region_is_not_one_march() -> None:
    state = action_state(3, seed=7)
    # Breidablik and Bilskirnir are both adjacent to Himinbjorg.
    arrange(state, figures=[("breidablik", 0, "warrior"), ("breidablik", 0, "elite"), ("bilskirnir", 0, "warrior")])
    play(state, 0, "march:breidablik")
    play(state, 0, "move:warrior>himinbjorg")
    # Only the figures of the marching region can move: nothing names Bilskirnir's warrior.
    assert legal_texts(state, 0) == {
        "move:elite>valhalla",
        "move:elite>gladsheim",
        "move:elite>himinbjorg",
        "done",
    }
    play(state, 0, "done")
    assert on_board(state, "bilskirnir") == [(0, "warrior")]
    assert on_board(state, "himinbjorg") == [(0, "warrior")]
    assert state.to_move() == (1,)
    play_all(state, [(1, "pass"), (2, "pass")])
    play_all(state, [(0, "march:bilskirnir"), (0, "move:warrior>himinbjorg")])
    assert on_board(state, "himinbjorg") == [(0, "warrior"), (0, "warrior")]
    assert state.clans[0].rage == 4, "the second figure needed a second march (1 more Rage)"


def test_march_only_to_adjacent_regions_and_only_from_your_own_regions() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior"), ("folkvang", 1, "warrior")])
    illegal(state, 0, "march:folkvang")
    illegal(state, 0, "march:himinbjorg")
    play(state, 0, "march:breidablik")
    illegal(state, 0, "move:warrior>folkvang")
    illegal(state, 0, "move:warrior>breidablik")
    illegal(state, 0, "done")  # a march moves at least one figure
    illegal(state, 0, "move:elite>valhalla")


def test_march_from_valhalla_reaches_every_outer_region() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("valhalla", 0, "warrior")])
    play(state, 0, "march:valhalla")
    moves = {a for a in legal_texts(state, 0) if a.startswith("move:")}
    assert len(moves) == 8


# Upgrade ---------------------------------------------------------------------------------


def test_upgrade_costs_the_cards_strength() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["thor-16", "tyr-16"]})  # STR 3 and STR 4
    warrior = state.figure_strength(0, "warrior")
    play(state, 0, "upgrade:thor-16")
    assert state.clans[0].rage == 3
    assert state.clans[0].upgrades == ["thor-16"]
    assert state.clans[0].hand == ["tyr-16"]
    assert state.figure_strength(0, "warrior") == warrior + 1
    play_all(state, [(1, "pass"), (2, "pass")])
    assert "upgrade:tyr-16" not in legal_texts(state, 0)
    error = illegal(state, 0, "upgrade:tyr-16")
    assert "4 Rage" in str(error)


def test_upgrade_with_exactly_enough_rage() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["tyr-16"]}, rage={0: 4})
    play(state, 0, "upgrade:tyr-16")
    assert state.clans[0].rage == 0
    assert state.figure_strength(0, "warrior") == 2


def test_two_upgrades_of_the_same_kind_both_count() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["thor-11", "tyr-12"]})
    play(state, 0, "upgrade:thor-11")
    play_all(state, [(1, "pass"), (2, "pass")])
    play(state, 0, "upgrade:tyr-12")
    assert state.figure_strength(0, "elite") == 3
    assert state.clans[0].rage == 4


def test_monster_upgrade_puts_the_monster_in_the_reserve_not_on_the_board() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["monster-child-of-fenrir"]})
    play(state, 0, "upgrade:monster-child-of-fenrir")
    clan = state.clans[0]
    assert clan.rage == 2  # STR 4
    assert clan.owned_monsters == ["child-of-fenrir"]
    assert clan.monsters == ["child-of-fenrir"]
    assert state.figures_of(0) == 0


def test_a_monster_with_its_own_cost_costs_that_not_its_strength() -> None:
    state = action_state(3, seed=7)
    warlord = state.config.content.monsters["ogre-warlord"]
    assert warlord.cost > warlord.strength  # meadhall default content: STR 3, costs 5 Rage
    arrange(state, hands={0: ["monster-ogre-warlord"]})
    state.clans[0].rage = warlord.cost - 1
    assert "upgrade:monster-ogre-warlord" not in legal_texts(state, 0)
    assert "Rage" in str(illegal(state, 0, "upgrade:monster-ogre-warlord"))
    state.clans[0].rage = warlord.cost
    play(state, 0, "upgrade:monster-ogre-warlord")
    assert state.clans[0].rage == 0
    assert state.clans[0].monsters == ["ogre-warlord"]


def test_monster_upgrade_needs_a_free_base_of_its_size() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["monster-warmaster", "monster-harbinger"]})
    give_monster(state, 0, "ogre-chieftain")  # large
    give_monster(state, 0, "the-everlasting")  # large: both large bases used
    legal = legal_texts(state, 0)
    assert "upgrade:monster-warmaster" not in legal  # large
    assert "upgrade:monster-harbinger" in legal  # small
    error = illegal(state, 0, "upgrade:monster-warmaster")
    assert "base" in str(error)
    play(state, 0, "upgrade:monster-harbinger")


def test_seven_slots_for_upgrades_and_quests_together() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["thor-11", "tyr-21"]})
    state.clans[0].upgrades = ["thor-12", "thor-13", "thor-14", "thor-15", "thor-16"]
    state.clans[0].quests = ["thor-19", "thor-20"]
    illegal(state, 0, "upgrade:thor-11")
    illegal(state, 0, "quest:tyr-21")
    state.clans[0].quests = ["thor-19"]
    assert {"upgrade:thor-11", "quest:tyr-21"} <= legal_texts(state, 0)
    play(state, 0, "quest:tyr-21")
    play_all(state, [(1, "pass"), (2, "pass")])
    illegal(state, 0, "upgrade:thor-11")


def test_a_battle_or_quest_card_is_not_an_upgrade() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["thor-01", "tyr-21"]})
    illegal(state, 0, "upgrade:thor-01")
    illegal(state, 0, "upgrade:tyr-21")
    illegal(state, 0, "quest:thor-01")
    illegal(state, 0, "upgrade:thor-13")  # not in hand


# Quest ---------------------------------------------------------------------------------------


def test_quest_costs_0_rage_and_is_committed_face_down() -> None:
    state = action_state(3, seed=7)
    arrange(state, hands={0: ["tyr-25", "thor-01"]})
    events = play(state, 0, "quest:tyr-25")
    assert state.clans[0].rage == 6
    assert state.clans[0].quests == ["tyr-25"]
    assert state.clans[0].hand == ["thor-01"]
    assert state.view(1)["clans"][0]["quests"] == 1
    assert "tyr-25" not in str(state.view(1))
    assert all(e.audience == frozenset({0}) for e in events if "tyr-25" in str(e.data))


def test_quest_needs_1_rage() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")], hands={0: ["tyr-25", "thor-11"]}, rage={0: 0})
    error = illegal(state, 0, "quest:tyr-25")
    assert "0 Rage" in str(error)
    # Not even the other free action (Contest), nor anything else.
    for text in ("contest:breidablik", "march:breidablik", "upgrade:thor-11", "summon:warrior@folkvang"):
        illegal(state, 0, text)
    assert legal_texts(state, 0) == {"pass"}


# Pass and 0 Rage --------------------------------------------------------------------------------


def test_pass_drops_rage_to_0_and_the_clan_takes_no_more_turns() -> None:
    state = action_state(3, seed=7)
    arrange(state)
    events = play(state, 0, "pass")
    assert "passed" in kinds(events)
    assert state.clans[0].rage == 0
    play_all(state, [(1, "summon:warrior@breidablik"), (2, "summon:warrior@breidablik")])
    assert state.to_move() == (1,)


def test_a_clan_at_0_rage_is_skipped_without_passing() -> None:
    state = action_state(3, seed=7)
    arrange(state, rage={0: 1})
    play(state, 0, "summon:warrior@breidablik")
    assert state.clans[0].rage == 0
    play_all(state, [(1, "summon:warrior@folkvang"), (2, "summon:warrior@himinbjorg")])
    assert state.to_move() == (1,)
    assert not state.clans[0].passed


def test_a_clan_at_0_rage_that_regains_rage_acts_again() -> None:
    state = action_state(3, seed=7)
    arrange(state, rage={0: 1})
    play(state, 0, "summon:warrior@breidablik")
    state.clans[0].rage = 2  # e.g. an effect gave Rage back
    play_all(state, [(1, "summon:warrior@folkvang"), (2, "summon:warrior@himinbjorg")])
    assert state.to_move() == (0,)


def test_the_action_phase_ends_when_everyone_is_at_0_rage() -> None:
    state = action_state(3, seed=7)
    arrange(state, rage={0: 1, 1: 1, 2: 1})
    play_all(state, [(0, "summon:warrior@breidablik"), (1, "summon:warrior@folkvang")])
    events = play(state, 2, "summon:warrior@himinbjorg")
    assert "quest-phase" in kinds(events)
    assert state.phase != "action"


def test_the_action_phase_ends_when_every_region_without_a_token_is_claimed() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")])
    open_regions = state.claimable()
    assert open_regions == {"valhalla", "gladsheim", *COMMON}
    state.claimed = open_regions - {"breidablik"}
    events = play(state, 0, "contest:breidablik")
    assert "claimed" in kinds(events)
    assert "quest-phase" in kinds(events)
    assert kinds(events).index("claimed") < kinds(events).index("quest-phase")
    assert "turn" not in kinds(events)


@pytest.mark.parametrize("rage", [6, 1])
def test_contest_costs_no_rage(rage: int) -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")], rage={0: rage})
    play(state, 0, "contest:breidablik")
    assert state.clans[0].rage == rage
