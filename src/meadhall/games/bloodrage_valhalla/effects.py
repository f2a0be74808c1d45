"""What effects do: cards, monsters' abilities, gods' favour and quest rewards.

Every effect of the content vocabulary (:data:`~meadhall.games.bloodrage_valhalla.content.EFFECTS`)
that happens at once has one function in :data:`IMMEDIATE`; passive effects (upgrades,
monsters) are read where they count (``BloodRageState.passives``), and ``save``,
``keep_card`` and ``spent`` where a battle resolves. Here too are the changes every rule
shares: Glory gained, a stat raised, a figure killed, a monster's Rage when summoned.

An effect that needs a choice queues a step that asks for it (``("choose_raise", ...)``,
``("destroy", ...)``, ...: a pending decision, see
:mod:`~meadhall.games.bloodrage_valhalla.decisions`). Events are built only when the
state collects them (``state.events`` is ``None`` for bots).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meadhall.core.game import Event
from meadhall.games.bloodrage_valhalla.content import STATS, Effect
from meadhall.games.bloodrage_valhalla.data import Figure

if TYPE_CHECKING:
    from meadhall.games.bloodrage_valhalla.state import BloodRageState


# Changes every rule shares --------------------------------------------------------------


def gain_glory(state: BloodRageState, seat: int, amount: int, why: str, taken_from: int | None = None) -> None:
    """A clan gains Glory (nothing if ``amount`` is not positive).

    ``taken_from``: the seat that lost it (a card that steals Glory); the event says so,
    so that a score breakdown counts the loss too.
    """
    if amount <= 0:
        return
    clan = state.clans[seat]
    clan.glory += amount
    clan.glory_reached = state.ply
    events = state.events
    if events is not None:
        data: dict[str, int | str] = {"seat": seat, "amount": amount, "total": clan.glory, "why": why}
        if taken_from is not None:
            data["from"] = taken_from
        events.append(Event("glory", data))


def raise_stat(state: BloodRageState, seat: int, stat: str, why: str) -> None:
    """A clan stat goes up one step, unless it is at its last."""
    clan = state.clans[seat]
    if clan.steps[stat] < len(state.config.content.tracks[stat]) - 1:
        clan.steps[stat] += 1
        events = state.events
        if events is not None:
            events.append(
                Event(
                    "raised",
                    {
                        "seat": seat,
                        "stat": stat,
                        "step": clan.steps[stat],
                        "value": state.stat_value(seat, stat),
                        "why": why,
                    },
                )
            )


def kill(state: BloodRageState, figure: Figure, region: str, killer: int | None, why: str) -> None:
    """Take a figure off the board to a kill pile (``killer``) or the Feast Hall (None)."""
    state.board[region].remove(figure)
    owner, kind = figure
    monsters = state.config.content.monsters
    if kind in monsters:
        glory = state.monster_has(kind, "killed_glory")
        if glory is not None:
            gain_glory(state, owner, int(glory.get("amount")), f"{monsters[kind].name} was killed")
    if kind in monsters and state.monster_has(kind, "returns_when_killed") is not None:
        state.clans[owner].monsters.append(kind)
    elif killer is None:
        state.feast.append(figure)
    else:
        state.killpiles[killer].append(figure)
    battle = state.battle
    if battle is not None and region == battle.region:
        battle.losses[owner] = battle.losses.get(owner, 0) + 1
        if killer is not None and killer != owner:
            battle.kills[killer] = battle.kills.get(killer, 0) + 1
    events = state.events
    if events is not None:
        events.append(Event("killed", {"owner": owner, "figure": kind, "region": region, "by": killer, "why": why}))


def summon_rage(state: BloodRageState, seat: int, kind: str) -> None:
    """A monster that gives Rage when summoned (by the Summon action or an effect) does so."""
    monsters = state.config.content.monsters
    if kind not in monsters:
        return
    rage = state.monster_has(kind, "summon_rage")
    if rage is not None:
        amount = int(rage.get("amount"))
        state.clans[seat].rage += amount
        events = state.events
        if events is not None:
            events.append(Event("rage", {"seat": seat, "amount": amount, "why": f"{monsters[kind].name} summoned"}))


def candidates(state: BloodRageState, seat: int, region: str, target: str) -> list[Figure]:
    """The enemy figures in ``region`` an effect of ``seat`` may destroy: of the ``target`` kind, not immune."""
    monsters = state.config.content.monsters
    found: list[Figure] = []
    for owner, kind in state.board[region]:
        if owner == seat:
            continue
        if kind in monsters and state.monster_has(kind, "immune") is not None:
            continue
        matches = target == "any" or (target == "monster" and kind in monsters) or target == kind
        if matches and (owner, kind) not in found:
            found.append((owner, kind))
    return found


def raisable(state: BloodRageState, seat: int) -> list[str]:
    """The stats of a clan not yet at their last step."""
    steps = state.clans[seat].steps
    tracks = state.config.content.tracks
    return [s for s in STATS if steps[s] < len(tracks[s]) - 1]


# Immediate effects, one function each ------------------------------------------------------

EffectFn = Callable[["BloodRageState", int, Effect, str], None]


def _glory(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    gain_glory(state, seat, int(effect.get("amount")), why)


def _rage(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    amount = int(effect.get("amount"))
    state.clans[seat].rage += amount
    events = state.events
    if events is not None:
        events.append(Event("rage", {"seat": seat, "amount": amount, "why": why}))


def _lose_rage(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    lost = min(state.clans[seat].rage, int(effect.get("amount")))
    state.clans[seat].rage -= lost
    events = state.events
    if events is not None:
        events.append(Event("rage", {"seat": seat, "amount": -lost, "why": why}))


def _raise(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    stat = effect.get("stat")
    if stat == "choice":
        state._then(("choose_raise", seat, why))
    elif stat == "all":
        for name in STATS:
            raise_stat(state, seat, name, why)
    else:
        raise_stat(state, seat, str(stat), why)


def _steal_glory(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    battle = state.battle
    victims = [s for s in battle.participants if s != seat] if battle is not None and battle.fought else []
    for victim in victims:
        taken = min(int(effect.get("amount")), state.clans[victim].glory)
        if taken:
            state.clans[victim].glory -= taken
            gain_glory(state, seat, taken, f"{why}: taken from seat {victim + 1}", victim)


def _draw(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    del why
    for _ in range(int(effect.get("count"))):
        if state.deck:
            card = state.deck.pop()
            state.clans[seat].hand.append(card)
            events = state.events
            if events is not None:
                events.append(Event("drew", {"seat": seat, "card": card}, frozenset({seat})))
                events.append(Event("drew-count", {"seat": seat, "count": 1}))


def _reinforce(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    del why
    if state.battle is not None:
        state._then(("reinforce", seat, state.battle.region, int(effect.get("count"))))


def _kill_anywhere(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    del why
    state._then(("kill_anywhere", seat, int(effect.get("count"))))


def _strength(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    battle = state.battle
    if battle is None:
        return
    amount = int(effect.get("amount"))
    if effect.do == "strength_per_figure":
        amount *= sum(1 for o, _ in state.board[battle.region] if o == seat)
    elif effect.do == "strength_per_enemy":
        amount *= sum(1 for o, _ in state.board[battle.region] if o != seat)
    battle.bonus[seat] = battle.bonus.get(seat, 0) + amount
    events = state.events
    if events is not None:
        events.append(Event("strength", {"seat": seat, "amount": amount, "why": why}))


def _destroy(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    if state.battle is not None:
        state._then(("destroy", seat, int(effect.get("count")), str(effect.get("target")), why))


def _glory_per_kill(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    if state.battle is not None:
        gain_glory(state, seat, int(effect.get("amount")) * state.battle.kills.get(seat, 0), why)


def _glory_per_loss(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    if state.battle is not None:
        gain_glory(state, seat, int(effect.get("amount")) * state.battle.losses.get(seat, 0), why)


#: What each immediate effect does. ``save``, ``keep_card`` and ``spent`` are absent: they
#: change what dies and where cards go as a battle resolves (``contests.resolve``).
IMMEDIATE: dict[str, EffectFn] = {
    "glory": _glory,
    "rage": _rage,
    "lose_rage": _lose_rage,
    "raise": _raise,
    "steal_glory": _steal_glory,
    "draw": _draw,
    "reinforce": _reinforce,
    "kill_anywhere": _kill_anywhere,
    "strength": _strength,
    "strength_per_figure": _strength,
    "strength_per_enemy": _strength,
    "destroy": _destroy,
    "reveal_destroy": _destroy,
    "glory_per_kill": _glory_per_kill,
    "glory_per_loss": _glory_per_loss,
}


# Tasks ----------------------------------------------------------------------------------


def task_effect(state: BloodRageState, seat: int, effect: Effect, why: str) -> None:
    """An immediate effect for ``seat``, for a reason shown in the events."""
    apply = IMMEDIATE.get(effect.do)
    if apply is not None:
        apply(state, seat, effect, why)


def task_ability(state: BloodRageState, seat: int, monster: str, effect: Effect) -> None:
    """A monster's ability in a battle: only while the monster is still in the battle's region."""
    battle = state.battle
    if battle is None or (seat, monster) not in state.board[battle.region]:
        return
    task_effect(state, seat, effect, state.config.content.monsters[monster].name)


#: The tasks of this module, by name.
TASKS: dict[str, Callable[..., Any]] = {
    "effect": task_effect,
    "ability": task_ability,
}
