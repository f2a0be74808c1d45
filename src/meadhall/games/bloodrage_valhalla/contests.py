"""Contests: the Call to Battle, the battle cards, resolving the battle, the reward.

A contest starts with the Contest action (:func:`start_contest`); the Call to Battle and
the battle cards are decisions (:mod:`~meadhall.games.bloodrage_valhalla.decisions`), and
what follows the reveal runs as tasks of the queue (:data:`TASKS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meadhall.core.game import Event
from meadhall.games.bloodrage_valhalla.content import Effect
from meadhall.games.bloodrage_valhalla.data import SAVE_RANK, Battle, Task
from meadhall.games.bloodrage_valhalla.effects import gain_glory, kill

if TYPE_CHECKING:
    from meadhall.games.bloodrage_valhalla.state import BloodRageState


def start_contest(state: BloodRageState, seat: int, region: str) -> None:
    """``seat`` contests ``region``: the Call to Battle goes clockwise, the attacker last."""
    n = state.num_players
    calls = [(seat + offset) % n for offset in range(1, n)] + [seat]
    state.battle = Battle(region, seat, calls)
    state.phase = "call"
    if state.events is not None:
        state.events.append(Event("contest", {"seat": seat, "region": region}))
    skip_callers(state)


def skip_callers(state: BloodRageState) -> None:
    """Seats with no figure to move in are not asked; when nobody is left, the call is over."""
    battle = state.battle
    assert battle is not None
    while battle.calls and not state.callable_figures(battle.calls[0]):
        battle.calls.pop(0)
    if not battle.calls:
        after_call(state)


def after_call(state: BloodRageState) -> None:
    """No enemy in the region: the attacker wins without a battle; else the participants choose cards."""
    battle = state.battle
    assert battle is not None
    owners = sorted({o for o, _ in state.board[battle.region]})
    if owners == [battle.attacker]:
        if state.events is not None:
            state.events.append(Event("no-battle", {"seat": battle.attacker, "region": battle.region}))
        battle.winner = battle.attacker
        state._then(("reward",), ("end_contest",))
        state._run()
        return
    n = state.num_players
    battle.participants = [
        (battle.attacker + offset) % n for offset in range(n) if (battle.attacker + offset) % n in owners
    ]
    battle.fought = True
    state.phase = "battle"
    for seat in battle.participants:
        if not state.clans[seat].hand:
            battle.played[seat] = None
    if not state.to_move():
        reveal(state)


def reveal(state: BloodRageState) -> None:
    """Every participant has chosen: the cards are revealed; reveal effects, then the battle resolves."""
    battle = state.battle
    assert battle is not None
    battle.revealed = True
    state.phase = "resolving"
    if state.events is not None:
        state.events.append(
            Event(
                "revealed",
                {"region": battle.region, "cards": {str(s): battle.played.get(s) for s in battle.participants}},
            )
        )
    content = state.config.content
    tasks: list[Task] = []
    for seat in battle.participants:
        card_id = battle.played.get(seat)
        if card_id is not None:
            card = content.cards[card_id]
            if card.kind == "battle":
                tasks += [("effect", seat, e, f"{card.name} revealed") for e in card.effects if e.when == "reveal"]
        for owner, kind in sorted(state.board[battle.region]):  # the view's order, not the board's
            if owner == seat and kind in content.monsters:
                monster = content.monsters[kind]
                tasks += [("ability", seat, kind, e) for e in monster.abilities if e.do == "reveal_destroy"]
    tasks.append(("resolve",))
    tasks.append(("end_contest",))
    state._then(*tasks)
    state._run()


def resolve(state: BloodRageState) -> None:
    """The highest STR wins; the losers' figures die (or are saved); cards go back or to the discards."""
    battle = state.battle
    assert battle is not None
    content = state.config.content
    totals = {seat: state.battle_strength(seat) for seat in battle.participants}
    best = max(totals.values())
    leaders = [s for s, v in totals.items() if v == best]
    winner = leaders[0] if len(leaders) == 1 else None
    battle.winner = winner
    events = state.events
    if events is not None:
        events.append(
            Event(
                "battle",
                {"region": battle.region, "strength": {str(k): v for k, v in totals.items()}, "winner": winner},
            )
        )
    # Losers' figures die (or are saved); cards go back to hand or to the discard pile.
    effects_of: dict[int, tuple[Effect, ...]] = {}
    for seat in battle.participants:
        card_id = battle.played.get(seat)
        card = content.cards[card_id] if card_id is not None else None
        effects = card.effects if card is not None and card.kind == "battle" else ()
        effects_of[seat] = effects
        clan = state.clans[seat]
        if seat == winner:
            keep = any(e.do == "keep_card" and e.when == "win" for e in effects)
            spent = any(e.do == "spent" and e.when == "win" for e in effects)
            if card_id is not None:
                (clan.hand if keep else state.spent if spent else clan.discards).append(card_id)
                if keep:
                    clan.known.append(card_id)
                elif spent and events is not None:
                    events.append(Event("spent", {"seat": seat, "card": card_id}))
            clan.battles_won += 1
            continue
        if card_id is not None:
            clan.hand.append(card_id)
            clan.known.append(card_id)
        saves = sum(int(e.get("count")) for e in effects if e.do == "save" and e.when == "lose")
        # The strongest are saved first; between equally strong figures, monsters, then
        # Elites, then Warriors (a fixed order: the board's order is not in any view).
        figures = sorted(
            (f for f in state.board[battle.region] if f[0] == seat),
            key=lambda f: (-state.figure_strength(seat, f[1]), SAVE_RANK.get(f[1], 0), f[1]),
        )
        for figure in figures:
            if saves > 0:
                saves -= 1
                state.board[battle.region].remove(figure)
                clan.give_back(figure[1])
                if events is not None:
                    events.append(Event("saved", {"seat": seat, "figure": figure[1], "region": battle.region}))
            else:
                kill(state, figure, battle.region, winner, "lost the battle")
        clan.battles_lost += 1
    # Effects after the battle, from the attacker clockwise; then the reward; then,
    # finally, the winner's battle Glory (at its Axes after any raise from the reward).
    after: list[Task] = []
    for seat in battle.participants:
        if seat == winner:
            after += [
                ("effect", seat, e, "battle won")
                for e in effects_of[seat]
                if e.when == "win" and e.do not in ("keep_card", "spent")
            ]
        else:
            after += [
                ("effect", seat, e, "battle lost") for e in effects_of[seat] if e.when == "lose" and e.do != "save"
            ]
            defeat = state.passives(seat, "defeat_glory")
            if defeat:
                after.append(("effect", seat, Effect("glory", {"amount": defeat}), "defeat upgrade"))
    if winner is not None:
        if battle.kills.get(winner, 0) and state.passives(winner, "kill_rage"):
            state.clans[winner].rage += state.passives(winner, "kill_rage")
        if winner == battle.attacker:
            after.append(("reward",))
        after.append(("battle_glory", winner))
    state._then(*after)


def battle_glory(state: BloodRageState, winner: int) -> None:
    """The winner's Glory: its Axes, its upgrades', and its monsters' in the region."""
    battle = state.battle
    assert battle is not None
    content = state.config.content
    glory = state.stat_value(winner, "axes") + state.passives(winner, "battle_glory")
    for owner, kind in state.board[battle.region]:
        if owner == winner and kind in content.monsters:
            bonus = state.monster_has(kind, "win_glory")
            if bonus is not None:
                glory += int(bonus.get("amount"))
    gain_glory(state, winner, glory, "battle won")


def reward(state: BloodRageState) -> None:
    """An attacker that won claims the region's reward: a god's favour, or the region's stat."""
    battle = state.battle
    assert battle is not None
    if battle.winner != battle.attacker:
        return
    content = state.config.content
    seat = battle.attacker
    region = battle.region
    state.claimed.add(region)
    state.clans[seat].contests_won += 1
    if state.events is not None:
        state.events.append(Event("claimed", {"seat": seat, "region": region}))
    gain_glory(state, seat, state.passives(seat, "contest_glory"), "contest won")
    if region in state.gods_at:
        god = content.gods[state.gods_at[region]]
        state._then(*[("effect", seat, effect, f"{god.name}'s favour") for effect in god.bonus])
    else:
        gift = content.regions[region].reward
        state._then(("effect", seat, Effect("raise", {"stat": gift}), f"{content.regions[region].name}'s reward"))


def end_contest(state: BloodRageState) -> None:
    """The contest is over; the next turn."""
    state.battle = None
    state.phase = "action"
    state._then(("next_turn",))


#: The tasks of this module, by name.
TASKS: dict[str, Callable[..., Any]] = {
    "resolve": resolve,
    "battle_glory": battle_glory,
    "reward": reward,
    "end_contest": end_contest,
}
