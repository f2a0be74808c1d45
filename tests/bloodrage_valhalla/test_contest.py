"""Contests: Call to Battle, Play Cards, Resolution, rewards (rulebook: Contest)."""

from __future__ import annotations

import json

from meadhall.core.game import events_for
from meadhall.games.bloodrage_valhalla import BloodRageState, notation
from tests.bloodrage_valhalla.helpers import (
    action_state,
    arrange,
    illegal,
    kinds,
    legal_texts,
    on_board,
    play,
    play_all,
)

# Default arrangement: Thor in Gladsheim; region tokens in Sokkvabekk and Glitnir.
# Breidablik (reward: Axes) is adjacent to Valhalla, Gladsheim and Himinbjorg.


def test_contest_needs_your_figure_and_an_unclaimed_region_without_a_token() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior"), ("sokkvabekk", 0, "warrior"), ("folkvang", 1, "warrior")],
    )
    contests = {a for a in legal_texts(state, 0) if a.startswith("contest:")}
    assert contests == {"contest:breidablik"}
    error = illegal(state, 0, "contest:sokkvabekk")
    assert "region token" in str(error)
    illegal(state, 0, "contest:folkvang")  # no figure of mine
    illegal(state, 0, "contest:valhalla")
    state.claimed.add("breidablik")
    error = illegal(state, 0, "contest:breidablik")
    assert "claimed" in str(error)


def test_call_to_battle_goes_clockwise_from_the_attackers_left_and_the_attacker_is_last() -> None:
    state = action_state(4, seed=3)
    arrange(
        state,
        figures=[
            ("breidablik", 1, "warrior"),
            ("valhalla", 0, "warrior"),
            ("valhalla", 1, "warrior"),
            ("gladsheim", 2, "warrior"),
            ("himinbjorg", 3, "warrior"),
        ],
        current=1,
    )
    play(state, 1, "contest:breidablik")
    assert state.phase == "call"
    order = []
    while state.phase == "call":
        seat = state.to_move()[0]
        order.append(seat)
        if seat == 1:  # the attacker may also bring one adjacent figure
            assert legal_texts(state, 1) == {"join:warrior@valhalla", "stay"}
        play(state, seat, "stay")
    assert order == [2, 3, 0, 1]


def test_call_to_battle_moves_one_figure_from_an_adjacent_region_only() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[
            ("breidablik", 0, "warrior"),
            ("himinbjorg", 1, "warrior"),
            ("himinbjorg", 1, "elite"),
            ("folkvang", 1, "warrior"),  # not adjacent to Breidablik
            ("thrudheim", 2, "warrior"),  # not adjacent: seat 2 is not called
        ],
        hands={0: ["thor-01"], 1: ["loki-01"]},
    )
    play(state, 0, "contest:breidablik")
    assert state.to_move() == (1,)
    assert legal_texts(state, 1) == {"join:warrior@himinbjorg", "join:elite@himinbjorg", "stay"}
    illegal(state, 1, "join:warrior@folkvang")
    events = play(state, 1, "join:elite@himinbjorg")
    assert "joined" in kinds(events)
    assert state.clans[1].rage == 6, "joining costs no Rage"
    # One figure only: the call moves on (seat 2 has nothing adjacent, seat 0 neither).
    assert state.phase == "battle"
    assert on_board(state, "breidablik") == [(0, "warrior"), (1, "elite")]
    assert on_board(state, "himinbjorg") == [(1, "warrior")]
    assert state.battle is not None and state.battle.participants == [0, 1]


def test_a_call_to_battle_is_declined_with_stay_as_the_notation_says() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior"), ("himinbjorg", 1, "warrior")],
        hands={0: ["thor-01"], 1: ["loki-01"]},
    )
    play(state, 0, "contest:breidablik")
    assert legal_texts(state, 1) == {"join:warrior@himinbjorg", "stay"}
    illegal(state, 1, "done")
    # The notation's table agrees: done ends a march, stay answers a Call to Battle.
    doc = notation.__doc__ or ""
    done_row = next(line for line in doc.splitlines() if line.startswith("| ``done``"))
    stay_row = next(line for line in doc.splitlines() if "``stay``" in line and line.startswith("| ``join"))
    assert "decline" not in done_row and "Call to Battle" in stay_row
    play(state, 1, "stay")
    assert state.phase == "action" and state.claimed == {"breidablik"}


def test_contest_without_enemies_gives_the_reward_without_battle_glory() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior"), ("valhalla", 1, "warrior")], hands={0: ["thor-01"]})
    play(state, 0, "contest:breidablik")
    events = play(state, 1, "stay")
    assert "no-battle" in kinds(events)
    assert "battle" not in kinds(events)
    assert state.clans[0].glory == 0
    assert state.clans[0].steps == {"rage": 0, "axes": 1, "horns": 0}
    assert state.stat_value(0, "axes") == 4
    assert state.claimed == {"breidablik"}
    assert state.clans[0].hand == ["thor-01"], "no card was played"
    assert state.clans[0].battles_won == 0
    assert state.to_move() == (1,)


def test_an_unopposed_contest_is_not_stopped_by_the_call_to_battle_of_a_0_rage_player() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior"), ("himinbjorg", 1, "warrior")],
        hands={0: ["thor-01"], 1: ["loki-01"]},
        rage={1: 0},
    )
    play(state, 0, "contest:breidablik")
    assert state.to_move() == (1,), "a clan at 0 Rage still answers the Call to Battle"
    play(state, 1, "join:warrior@himinbjorg")
    assert state.phase == "battle"
    assert state.to_move() == (0, 1)


def _battle(*, hands: dict[int, list[str]]) -> BloodRageState:
    """Seat 0 contests Himinbjorg (1 warrior); seat 1 joins from Bilskirnir with a warrior.

    Himinbjorg's reward raises Horns, so it does not change the battle Glory.
    """
    state = action_state(3, seed=7)
    arrange(state, figures=[("himinbjorg", 0, "warrior"), ("bilskirnir", 1, "warrior")], hands=hands)
    play(state, 0, "contest:himinbjorg")
    play(state, 1, "join:warrior@bilskirnir")
    while state.phase == "call":
        play(state, state.to_move()[0], "stay")
    assert state.phase == "battle"
    return state


def test_battle_cards_are_chosen_at_once_and_hidden_until_all_have_chosen() -> None:
    state = _battle(hands={0: ["thor-01", "thor-02"], 1: ["loki-01", "loki-02"]})
    assert state.to_move() == (0, 1)
    events = play(state, 0, "play:thor-01")
    assert state.to_move() == (1,)
    for seat in (1, 2, None):
        view = state.view(seat)
        assert "thor-01" not in json.dumps(view)
        assert view["battle"]["chosen"] == [0]
        assert view["battle"]["cards"] == {}
        assert "thor-01" not in json.dumps([e.to_json() for e in events_for(events, seat)])
    assert state.view(0)["my_card"] == "thor-01"
    illegal(state, 0, "play:thor-02")
    events = play(state, 1, "play:loki-02")
    revealed = [e for e in events if e.kind == "revealed"]
    assert revealed and revealed[0].audience is None
    assert revealed[0].data["cards"] == {"0": "thor-01", "1": "loki-02"}


def test_highest_strength_wins_losers_figures_go_to_the_winners_kill_pile() -> None:
    # seat 0: warrior 1 + Thunder Over Bilskirnir 5 = 6; seat 1: warrior 1 + Trickster's Gambit 4 = 5.
    state = _battle(hands={0: ["thor-02", "thor-13"], 1: ["loki-04", "loki-13"]})
    play(state, 0, "play:thor-02")
    events = play(state, 1, "play:loki-04")
    battle = next(e for e in events if e.kind == "battle")
    assert battle.data["strength"] == {"0": 6, "1": 5}
    assert battle.data["winner"] == 0
    s = state
    assert s.killpiles == [[(1, "warrior")], [], []]
    assert on_board(s, "himinbjorg") == [(0, "warrior")]
    # The winner discards its card; the loser takes its card back.
    assert s.clans[0].discards == ["thor-02"]
    assert sorted(s.clans[0].hand) == ["thor-13"]
    assert sorted(s.clans[1].hand) == ["loki-04", "loki-13"]
    # Battle Glory = Axes (3) and Thunder Over Bilskirnir's "if you win: gain 1 Glory"; the
    # attacker won: the reward (Horns +1) and the region is claimed. Trickster's Gambit:
    # "if you lose: gain 1 Glory per figure of yours killed".
    assert s.scores() == [4, 1, 0]
    assert s.clans[0].steps == {"rage": 0, "axes": 0, "horns": 1}
    assert s.claimed == {"himinbjorg"}
    assert s.clans[0].battles_won == 1 and s.clans[1].battles_lost == 1


def test_battle_glory_is_the_axes_stat_of_the_winner() -> None:
    state = _battle(hands={0: ["thor-01"], 1: ["tyr-12"]})
    state.clans[0].steps["axes"] = 3  # Axes 6
    play_all(state, [(0, "play:thor-01"), (1, "play:tyr-12")])
    assert state.scores() == [6, 0, 0]


def test_battle_glory_counts_an_axes_raise_from_the_contests_own_reward() -> None:
    # Breidablik's reward raises Axes: 3 -> 4, then Battle Glory = 4.
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior"), ("himinbjorg", 1, "warrior")],
        hands={0: ["thor-01"], 1: ["tyr-12"]},
    )
    play_all(state, [(0, "contest:breidablik"), (1, "join:warrior@himinbjorg")])
    play_all(state, [(0, "play:thor-01"), (1, "play:tyr-12")])
    assert state.clans[0].steps["axes"] == 1
    assert state.scores() == [4, 0, 0]


def test_battle_glory_counts_axes_chosen_as_the_reward() -> None:
    # Folkvang's reward is a stat of choice; the attacker chooses Axes (6 -> 8 at step 4).
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("folkvang", 0, "warrior"), ("bilskirnir", 1, "warrior")],
        hands={0: ["thor-01"], 1: ["tyr-12"]},
    )
    state.clans[0].steps["axes"] = 3
    play_all(state, [(0, "contest:folkvang"), (1, "join:warrior@bilskirnir")])
    play_all(state, [(0, "play:thor-01"), (1, "play:tyr-12")])
    if state.decision is not None:
        play(state, 0, "raise:axes")
    assert state.clans[0].steps["axes"] == 4
    assert state.scores() == [8, 0, 0]


def test_an_upgrade_or_quest_card_played_into_battle_adds_nothing() -> None:
    # seat 0: warrior 1 + Sworn Blades (upgrade, STR 3 printed) = 1; seat 1: warrior 1 + Law of the Sword 6.
    state = _battle(hands={0: ["tyr-14"], 1: ["tyr-01"]})
    events = play_all(state, [(0, "play:tyr-14"), (1, "play:tyr-01")])
    battle = next(e for e in events if e.kind == "battle")
    assert battle.data["strength"] == {"0": 1, "1": 7}


def test_a_clan_with_an_empty_hand_plays_no_card() -> None:
    state = _battle(hands={0: [], 1: ["tyr-01"]})
    s = state
    assert s.to_move() == (1,)
    assert s.view(1)["battle"]["empty"] == [0]
    events = play(s, 1, "play:tyr-01")
    battle = next(e for e in events if e.kind == "battle")
    assert battle.data["strength"] == {"0": 1, "1": 7}
    assert battle.data["winner"] == 1


def test_only_a_clan_with_an_empty_hand_may_play_none() -> None:
    state = _battle(hands={0: ["thor-01"], 1: ["tyr-01"]})
    illegal(state, 0, "play:none")
    illegal(state, 0, "play:tyr-01")


def test_a_defender_who_wins_gains_battle_glory_but_no_reward() -> None:
    state = _battle(hands={0: ["thor-04"], 1: ["tyr-02"]})
    s = state
    play_all(s, [(0, "play:thor-04"), (1, "play:tyr-02")])
    assert s.scores() == [0, 3, 0]
    assert s.claimed == set()
    assert s.clans[1].steps == {"rage": 0, "axes": 0, "horns": 0}
    assert s.killpiles == [[], [(0, "warrior")], []]
    assert s.clans[0].hand == ["thor-04"] and s.clans[1].discards == ["tyr-02"]
    assert s.clans[0].contests_won == 0


def test_a_tie_everyone_loses_figures_to_the_feast_hall_cards_back_to_hand() -> None:
    # 1 + 6 against 1 + 6.
    state = _battle(hands={0: ["thor-01"], 1: ["loki-01"]})
    s = state
    events = play_all(s, [(0, "play:thor-01"), (1, "play:loki-01")])
    battle = next(e for e in events if e.kind == "battle")
    assert battle.data["winner"] is None
    assert sorted(s.feast) == [(0, "warrior"), (1, "warrior")]
    assert s.killpiles == [[], [], []]
    assert on_board(s, "himinbjorg") == []
    assert s.clans[0].hand == ["thor-01"] and s.clans[1].hand == ["loki-01"]
    assert s.clans[0].discards == [] and s.clans[1].discards == []
    assert s.scores() == [0, 0, 0]
    assert s.claimed == set()
    assert s.clans[0].battles_lost == 1 and s.clans[1].battles_lost == 1


def test_a_three_way_battle_where_the_top_two_tie_is_lost_by_everyone() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior"), ("himinbjorg", 1, "warrior"), ("valhalla", 2, "warrior")],
        hands={0: ["thor-04"], 1: ["loki-03"], 2: ["tyr-07"]},
    )
    play_all(state, [(0, "contest:breidablik"), (1, "join:warrior@himinbjorg"), (2, "join:warrior@valhalla")])
    # 1 + 4 = 5, 1 + 4 = 5, 1 + 3 + 1 per own figure (1) = 5.
    events = play_all(state, [(0, "play:thor-04"), (1, "play:loki-03"), (2, "play:tyr-07")])
    battle = next(e for e in events if e.kind == "battle")
    assert battle.data["strength"] == {"0": 5, "1": 5, "2": 5}
    assert battle.data["winner"] is None
    assert len(state.feast) == 3
    assert state.scores() == [0, 0, 0]


def test_a_lost_contest_can_be_tried_again_in_the_same_age() -> None:
    state = _battle(hands={0: ["thor-04"], 1: ["tyr-01"]})
    play_all(state, [(0, "play:thor-04"), (1, "play:tyr-01")])
    assert state.claimed == set()
    # The defender may now contest it (no enemy left: the reward without battle).
    assert state.to_move() == (1,)
    assert "contest:himinbjorg" in legal_texts(state, 1)
    play(state, 1, "summon:warrior@folkvang")
    play(state, 2, "pass")
    # The attacker comes back and tries again with a new figure.
    play(state, 0, "summon:warrior@himinbjorg")
    play(state, 1, "pass")
    assert "contest:himinbjorg" in legal_texts(state, 0)
    play(state, 0, "contest:himinbjorg")
    # Nobody has a figure next to Himinbjorg: the battle starts at once.
    assert state.phase == "battle"
    assert state.to_move() == (0,), "seat 1 has no card left: it plays none"
    play(state, 0, "play:thor-04")
    assert state.claimed == {"himinbjorg"}
    # 1 + 4 against 1: Axes Glory 3 and Roar of the Storm's 2 Glory for the win.
    assert state.scores() == [5, 3, 0]
    assert state.killpiles[0] == [(1, "warrior")] and state.killpiles[1] == [(0, "warrior")]


def test_a_claimed_region_cannot_be_contested_again_this_age() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior"), ("himinbjorg", 1, "warrior")])
    play_all(state, [(0, "contest:breidablik"), (1, "stay")])
    assert state.claimed == {"breidablik"}
    play_all(state, [(1, "march:himinbjorg"), (1, "move:warrior>breidablik"), (2, "pass")])
    # Both clans now have a figure there, and neither may contest it again.
    assert "contest:breidablik" not in legal_texts(state, 0)
    illegal(state, 0, "contest:breidablik")
    play(state, 0, "pass")
    assert state.to_move() == (1,)
    assert "contest:breidablik" not in legal_texts(state, 1)


def test_winning_in_a_god_region_gives_the_gods_bonus_instead_of_the_region_reward() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")])
    play(state, 0, "march:breidablik")
    play(state, 0, "move:warrior>gladsheim")  # Thor's region (its own reward would be Rage)
    play_all(state, [(1, "pass"), (2, "pass")])
    play(state, 0, "contest:gladsheim")
    assert state.decision is not None and state.decision.kind == "raise"
    assert legal_texts(state, 0) == {"raise:rage", "raise:axes", "raise:horns"}
    events = play(state, 0, "raise:horns")
    # Thor: a stat of choice and 4 Glory (the region's own Rage reward is not given).
    assert state.clans[0].steps == {"rage": 0, "axes": 0, "horns": 1}
    assert state.scores() == [4, 0, 0]
    assert [e.data["amount"] for e in events if e.kind == "glory"] == [4]
    assert state.claimed == {"gladsheim"}


def test_tyr_bonus_kills_two_enemy_figures_in_any_regions() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[
            ("gladsheim", 0, "warrior"),
            ("folkvang", 1, "warrior"),
            ("thrudheim", 2, "elite"),
            ("thrudheim", 0, "warrior"),
        ],
        gods={"gladsheim": "tyr"},
    )
    play(state, 0, "contest:gladsheim")
    play(state, 0, "raise:rage")
    assert state.decision is not None and state.decision.kind == "kill"
    assert legal_texts(state, 0) == {"kill:folkvang:1:warrior", "kill:thrudheim:2:elite", "skip"}
    play(state, 0, "kill:folkvang:1:warrior")
    play(state, 0, "kill:thrudheim:2:elite")
    assert state.killpiles[0] == [(1, "warrior"), (2, "elite")]
    assert on_board(state, "folkvang") == [] and on_board(state, "thrudheim") == [(0, "warrior")]
    assert state.to_move() == (1,)


def test_valhalla_reward_raises_all_three_stats() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior")])
    play_all(state, [(0, "march:breidablik"), (0, "move:warrior>valhalla"), (1, "pass"), (2, "pass")])
    play(state, 0, "contest:valhalla")
    assert state.clans[0].steps == {"rage": 1, "axes": 1, "horns": 1}
    assert state.claimed == {"valhalla"}


def test_reward_of_choice_asks_for_the_stat() -> None:
    state = action_state(3, seed=7)
    arrange(state, figures=[("folkvang", 0, "warrior")])
    play(state, 0, "contest:folkvang")
    assert legal_texts(state, 0) == {"raise:rage", "raise:axes", "raise:horns"}
    play(state, 0, "raise:rage")
    assert state.clans[0].steps == {"rage": 1, "axes": 0, "horns": 0}
    assert state.to_move() == (1,)


def test_zero_rage_clans_join_battles_and_play_cards() -> None:
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior"), ("himinbjorg", 1, "warrior")],
        hands={0: ["thor-04"], 1: ["tyr-01"]},
        rage={1: 0},
    )
    state.clans[1].passed = True
    play(state, 0, "contest:breidablik")
    play(state, 1, "join:warrior@himinbjorg")
    assert state.to_move() == (0, 1)
    play_all(state, [(1, "play:tyr-01"), (0, "play:thor-04")])
    assert state.scores() == [0, 3, 0]
    assert state.clans[1].rage == 0


def test_simultaneous_reveal_effects_resolve_from_the_attacker_clockwise() -> None:
    # Seat 1 attacks seat 0; seat 1 reveals Silver Tongue, seat 0 Lokasenna:
    # each takes 2 Glory from each other player in the battle.
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("himinbjorg", 1, "warrior"), ("bilskirnir", 0, "warrior")],
        hands={0: ["loki-10"], 1: ["loki-05"]},
        current=1,
    )
    state.clans[1].glory = 2
    play_all(state, [(1, "contest:himinbjorg"), (0, "join:warrior@bilskirnir")])
    assert state.phase == "battle"
    events = play_all(state, [(0, "play:loki-10"), (1, "play:loki-05")])
    # Attacker (seat 1) first: it takes min(2, 0) = 0; then seat 0 takes 2 from seat 1.
    steals = [e.data["seat"] for e in events if e.kind == "glory" and "taken" in str(e.data["why"])]
    assert steals == [0]
    # seat 0: 1 + 0 = 1, seat 1: 1 + 3 = 4: seat 1 wins (+3 Glory); Lokasenna gives
    # seat 0 1 Glory for its lost figure.
    assert state.scores() == [3, 3, 0]


def test_simultaneous_after_battle_effects_resolve_from_the_attacker_clockwise() -> None:
    # Seat 0 attacks and loses with Coils of Jormungandr (lose: +2 Glory); seat 1 wins with
    # Fangs of Fenrir (win: take 1 Glory from each other player in the battle).
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("himinbjorg", 0, "warrior")] + [("himinbjorg", 1, "warrior")] * 3,
        hands={0: ["loki-02"], 1: ["loki-03"]},
    )
    play(state, 0, "contest:himinbjorg")
    events = play_all(state, [(0, "play:loki-02"), (1, "play:loki-03")])
    battle = next(e for e in events if e.kind == "battle")
    assert battle.data["strength"] == {"0": 1 + 5, "1": 3 + 4}
    # Attacker first: seat 0 gains 2, then seat 1 takes 1 of them.
    assert state.scores() == [1, 3 + 1, 0]
