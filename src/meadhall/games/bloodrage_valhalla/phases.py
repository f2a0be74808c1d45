"""The course of an Age: setup, the draft, the Action phase's turns, quests, Prove Valor, the end.

Each step of the game is a task of the queue (``("start_age",)``, ``("next_turn",)``, ...):
:data:`TASKS` names them. Contests are in :mod:`~meadhall.games.bloodrage_valhalla.contests`.
Rules: ``docs/rules/bloodrage-valhalla.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meadhall.core.game import Event
from meadhall.games.bloodrage_valhalla.content import STATS
from meadhall.games.bloodrage_valhalla.data import DRAFT_HAND, START_RAGE_STEP, Task
from meadhall.games.bloodrage_valhalla.effects import gain_glory, kill

if TYPE_CHECKING:
    from meadhall.games.bloodrage_valhalla.state import BloodRageState

#: The Glory a clan starts with by its place in the game before (the ``starting-glory`` option).
START_GLORY = {1: 12, 2: 8, 3: 4}


def setup(state: BloodRageState) -> None:
    """Draw the region tokens, the gods and the monsters; shuffle the deck; choose the first player."""
    config = state.config
    content = config.content
    rng = state.rng
    n = config.players
    tokens = sorted((r.token, r.id) for r in content.regions.values() if r.token is not None)
    chosen = list(tokens)
    rng.shuffle(chosen)
    state.region_tokens = {rid for _, rid in chosen[:3]}
    if config.gods:
        state.gods = list(config.gods)
        if config.shuffle_gods:
            rng.shuffle(state.gods)
    else:
        pool = sorted(content.gods)
        rng.shuffle(pool)
        state.gods = pool[:3]
    deck = [cid for god in state.gods for cid in content.god_cards(god)]
    monsters = sorted(content.monsters)
    rng.shuffle(monsters)
    state.monsters_in_play = tuple(sorted(monsters[: 3 * n]))
    deck += [content.monster_card(m) for m in state.monsters_in_play]
    rng.shuffle(deck)
    state.deck = deck
    start_rage = content.tracks["rage"][START_RAGE_STEP]
    for seat, clan in enumerate(state.clans):
        clan.rage = start_rage
        if config.starting_glory:
            placing = config.starting_glory[seat]
            clan.glory = START_GLORY.get(placing, 0)
    state.first = rng.below(n)
    state.queue = [("start_age",)]
    state._run()


# The draft --------------------------------------------------------------------------------


def start_age(state: BloodRageState) -> None:
    """The Age's god arrives; every clan is dealt a pack to draft from."""
    content = state.config.content
    events = state.events
    god = state.gods[state.age - 1]
    tokens = sorted((content.regions[r].token or 0, r) for r in state.region_tokens)
    if tokens:
        _, region = tokens[0]
        state.region_tokens.discard(region)
        state.gods_at[region] = god
        if events is not None:
            events.append(Event("god-arrives", {"god": god, "region": region, "age": state.age}))
    n = state.num_players
    # Draws take cards from the deck and cards dropped at the end of an Age leave the
    # game, so with five clans the deck can run short: then every clan gets the same
    # smaller pack, and a pack of one card is no draft (ruling r, docs/rules).
    size = min(DRAFT_HAND, len(state.deck) // n)
    if size < 2:
        size = 0
    for seat in range(n):
        state.packs[seat] = [state.deck.pop() for _ in range(size)]
        state.picks[seat] = None
    state.phase = "draft"
    if events is not None:
        direction = "right" if state.age == 2 else "left"
        events.append(Event("dealt", {"age": state.age, "direction": direction, "pack_size": size}))
    if size == 0:
        end_draft(state)


def end_draft(state: BloodRageState) -> None:
    """The last card of each pack to the bottom of the deck; drafted and saved cards to the hand."""
    config = state.config
    for seat in range(state.num_players):
        state.deck[0:0] = state.packs[seat]
        state.packs[seat] = []
        clan = state.clans[seat]
        clan.hand += clan.drafted + clan.saved
        clan.drafted, clan.saved = [], []
        if state.age == 1 and config.rainbow and seat < len(config.rainbow):
            for god in config.rainbow[seat]:
                clan.hand.append(config.content.rainbow_card(god))
                clan.known.append(config.content.rainbow_card(god))
    if state.events is not None:
        state.events.append(Event("draft-over", {"age": state.age}))
    state.phase = "action"
    state._later(("start_actions",))


def finish_draft_round(state: BloodRageState) -> None:
    """Every clan has picked: the picks are drafted, and the packs passed on (or the draft ends)."""
    n = state.num_players
    for seat in range(n):
        card = state.picks[seat]
        assert card is not None
        state.packs[seat].remove(card)
        state.clans[seat].drafted.append(card)
        state.picks[seat] = None
    # Every pack has the same size: the draft ends when each is down to its last card
    # (after five picks from a full pack of six).
    if all(len(pack) <= 1 for pack in state.packs):
        end_draft(state)
        state._run()
        return
    step = -1 if state.age == 2 else 1
    state.packs = [state.packs[(seat - step) % n] for seat in range(n)]
    if state.events is not None:
        state.events.append(Event("packs-passed", {"direction": "right" if step < 0 else "left"}))


# The Action phase -------------------------------------------------------------------------


def start_actions(state: BloodRageState) -> None:
    """Every clan's Rage is set to its Rage stat; the first player begins."""
    for seat, clan in enumerate(state.clans):
        clan.rage = state.stat_value(seat, "rage")
        clan.passed = False
        clan.free_march_used = False
    state.phase = "action"
    state.current = (state.first - 1) % state.num_players
    state._then(("next_turn",))


def next_turn(state: BloodRageState) -> None:
    """The next clan clockwise that has not passed and has Rage acts; if none, the Quest phase."""
    n = state.num_players
    state.battle = None
    state.march_from = None
    if state.claimable() <= state.claimed:
        state._then(("quest_phase",))
        return
    for offset in range(1, n + 1):
        seat = (state.current + offset) % n
        clan = state.clans[seat]
        if not clan.passed and clan.rage > 0:
            state.current = seat
            state.phase = "action"
            if state.events is not None:
                state.events.append(Event("turn", {"seat": seat, "age": state.age}))
            return
    state._then(("quest_phase",))


def end_turn(state: BloodRageState) -> None:
    """The acting clan's turn is over (after its action, or its march)."""
    state.phase = "action"
    state.march_from = None
    state.march_left = []
    state._then(("next_turn",))


# The end of an Age ------------------------------------------------------------------------


def quest_phase(state: BloodRageState) -> None:
    """Every clan reveals all its committed quests at once; each is judged on that moment.

    The rulebook has the players reveal all their quests, then return them to hand:
    a quest checked later must not count the quests returned before it (a "hold N
    cards" quest would depend on the order of commitment). So every quest of every
    clan is judged first, then all go back to hand, and only then are the fulfilled
    ones paid, from the first player clockwise, each clan's in the order it committed
    them. Each payment reads Horns at that moment: a Horns raise chosen for an earlier
    quest pays the later ones too (the rulebook's note).
    """
    state.phase = "quest"
    events = state.events
    if events is not None:
        events.append(Event("quest-phase", {"age": state.age}))
    n = state.num_players
    judged: list[tuple[int, str, bool]] = []
    for offset in range(n):
        seat = (state.first + offset) % n
        for card_id in state.clans[seat].quests:
            judged.append((seat, card_id, state.quest_fulfilled(seat, state.card(card_id).condition or {})))
    payments: list[Task] = []
    for seat, card_id, done in judged:
        clan = state.clans[seat]
        clan.quests.remove(card_id)
        clan.hand.append(card_id)
        clan.known.append(card_id)
        if events is not None:
            events.append(Event("quest", {"seat": seat, "card": card_id, "fulfilled": done}))
        if done:
            payments += [("choose_raise", seat, "quest", True), ("quest_glory", seat, card_id)]
    state._later(*payments, ("prove_valor",))


def quest_glory(state: BloodRageState, seat: int, card_id: str) -> None:
    """A fulfilled quest pays Glory by the clan's Horns (read now), then its reward effects."""
    card = state.card(card_id)
    gain_glory(state, seat, state.stat_value(seat, "horns") + state.passives(seat, "quest_glory"), "quest fulfilled")
    state._then(*[("effect", seat, effect, "quest reward") for effect in card.reward])


def prove_valor(state: BloodRageState) -> None:
    """In Valhalla and every god's region, the clans with the most figures die gloriously."""
    state.phase = "valor"
    content = state.config.content
    events = state.events
    glory_each = content.valor_glory[state.age - 1]
    regions = [content.valhalla] + [r for r in content.regions if r in state.gods_at]
    for region in regions:
        weight: dict[int, int] = {}
        for owner, kind in state.board[region]:
            extra = state.monster_has(kind, "valor_weight") if kind in content.monsters else None
            weight[owner] = weight.get(owner, 0) + (int(extra.get("amount")) if extra else 1)
        if not weight:
            continue
        best = max(weight.values())
        for seat, value in sorted(weight.items()):
            if value != best:
                continue
            # In the order views show (sorted): the board's own order is in no view, so
            # events in that order would tell a seat what a world sampled from its view cannot.
            figures = sorted(f for f in state.board[region] if f[0] == seat)
            for figure in figures:
                kill(state, figure, region, None, "Prove Valor")
            per_figure = glory_each + state.passives(seat, "valor_glory")
            gain_glory(state, seat, per_figure * value, f"Prove Valor in {content.regions[region].name}")
            if events is not None:
                events.append(Event("valor", {"seat": seat, "region": region, "figures": len(figures)}))
    state._then(("release",))


def release(state: BloodRageState) -> None:
    """The kill piles and the Feast Hall go back to their owners' reserves."""
    for pile in [*state.killpiles, state.feast]:
        for owner, kind in pile:
            state.clans[owner].give_back(kind)
        pile.clear()
    if state.events is not None:
        state.events.append(Event("release", {"age": state.age}))
    state._then(("end_age",))


def end_age(state: BloodRageState) -> None:
    """After Age 3 the game ends; else discards return to hand and every clan keeps at most three."""
    state.claimed = set()
    if state.age == 3:
        state._then(("game_end",))
        return
    for seat, clan in enumerate(state.clans):
        clan.hand += clan.discards
        clan.known += clan.discards
        clan.discards = []
        clan.battles_won = clan.battles_lost = clan.contests_won = 0
        state.keeping[seat] = bool(clan.hand)
    state.phase = "keep"
    state._later(("after_keep",), ("next_age",))


def after_keep(state: BloodRageState) -> None:
    """The kept cards are set aside face down until the next Age's draft is over."""
    for clan in state.clans:
        clan.saved = clan.hand
        clan.hand = []
        clan.forget()


def next_age(state: BloodRageState) -> None:
    """The first player passes clockwise; the next Age starts."""
    state.first = (state.first + 1) % state.num_players
    state.age += 1
    state._then(("start_age",))


def game_end(state: BloodRageState) -> None:
    """Legendary bonuses for stats at the top of their tracks (or near it); the game is over."""
    content = state.config.content
    for seat, clan in enumerate(state.clans):
        for stat in STATS:
            step = clan.steps[stat]
            last = len(content.tracks[stat]) - 1
            if step == last:
                gain_glory(state, seat, content.legendary["top"], f"legendary {stat}")
            elif step >= 3:
                gain_glory(state, seat, content.legendary["high"], f"legendary {stat}")
    state.finished = True
    state.phase = "over"
    if state.events is not None:
        state.events.append(
            Event(
                "game-over",
                {"scores": state.scores(), "places": state.ranking(), "rage": [c.rage for c in state.clans]},
            )
        )


#: The tasks of this module, by name.
TASKS: dict[str, Callable[..., Any]] = {
    "start_age": start_age,
    "start_actions": start_actions,
    "next_turn": next_turn,
    "quest_phase": quest_phase,
    "quest_glory": quest_glory,
    "prove_valor": prove_valor,
    "release": release,
    "end_age": end_age,
    "after_keep": after_keep,
    "next_age": next_age,
    "game_end": game_end,
}
