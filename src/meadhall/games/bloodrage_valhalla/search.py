"""How bots search Blood Rage: Valhalla: an evaluation of Glory, stats, board and cards.

The evaluation counts Glory, plus what a clan's position is likely to bring before the
end: the legendary bonus its stats already earn, the value of its stat steps, its figures
where Prove Valor will pay, its upgrades and monsters, and the cards in hand.
"""

from __future__ import annotations

from typing import Any

from meadhall.core.search import EvaluationAdapter, SearchState
from meadhall.games.bloodrage_valhalla.content import STATS
from meadhall.games.bloodrage_valhalla.state import BloodRageState

#: What a step up each stat is worth per Action phase still to come, in Glory: Rage buys
#: actions, Axes pay for battles won, Horns for quests fulfilled.
STEP_VALUE = {"rage": 1.6, "axes": 1.0, "horns": 0.9}
#: A region's reward (one stat step, or all three in Valhalla) in Glory, roughly.
REWARD_VALUE = {"all": 7.0, "choice": 3.0}
_BEFORE_VALOR = frozenset(("draft", "action", "march", "call", "battle", "resolving", "quest"))
_ACTING = frozenset(("action", "march", "call", "battle", "resolving"))


#: Battle-card effects that are a card's price, not a gain: they add nothing to its worth
#: in hand (a spent card is played once, and a card in hand is there to be played once).
DRAWBACKS = frozenset({"lose_rage", "spent"})


def card_value(state: BloodRageState, card_id: str) -> float:
    """What a card in hand (or on its way there) is worth, in Glory, roughly."""
    card = state.config.content.cards[card_id]
    if card.kind == "battle":
        gains = sum(1 for effect in card.effects if effect.do not in DRAWBACKS)
        return 0.3 * card.strength + 0.2 + 0.4 * gains
    if card.kind == "upgrade":
        return 0.9 + 0.15 * card.strength
    return 0.7  # a quest


def evaluate(state: BloodRageState, seat: int) -> float:
    """Expected final Glory of a clan, roughly: Glory now plus what its position promises.

    Counted: Glory; legendary bonuses already earned; stat steps by the Action phases
    still to come; STR on the board; regions it would win a contest in; figures where
    Prove Valor pays; the battle in progress; quests it already fulfils; upgrades; cards
    in hand or being drafted; Rage left to act with.
    """
    content = state.config.content
    clan = state.clans[seat]
    phase = state.phase
    value = float(clan.glory)
    ages_left = 3 - state.age + (0 if phase in ("quest", "valor", "keep", "over") else 1)
    for stat in STATS:
        step = clan.steps[stat]
        last = len(content.tracks[stat]) - 1
        value += content.legendary["top"] if step == last else content.legendary["high"] if step >= 3 else 0
        value += STEP_VALUE[stat] * step * ages_left
    if phase == "over":
        return value
    n = state.num_players
    acting = phase in _ACTING
    valor_regions = {content.valhalla, *state.gods_at}
    open_regions = state.claimable() - state.claimed if acting else set()
    for region, figures in state.board.items():
        if not figures:
            continue
        counts = [0] * n
        for owner, _ in figures:
            counts[owner] += 1
        if not counts[seat]:
            continue
        mine_str = state.strength_in(region, seat)
        value += 0.35 * mine_str * ages_left / 3
        if region in open_regions:
            best_other = max((state.strength_in(region, o) for o in range(n) if o != seat and counts[o]), default=0)
            if mine_str > best_other:
                reward = content.regions[region].reward
                value += 0.5 * REWARD_VALUE.get(reward, 2.5)
        if region in valor_regions and phase in _BEFORE_VALOR:
            best_other = max(counts[o] for o in range(n) if o != seat)
            share = 0.9 if counts[seat] > best_other else 0.55 if counts[seat] == best_other else 0.1
            value += content.valor_glory[state.age - 1] * counts[seat] * share
    battle = state.battle
    if battle is not None and seat in {o for o, _ in state.board[battle.region]}:
        value += _battle_outlook(state, seat)
    horns = state.stat_value(seat, "horns")
    for card_id in clan.quests:
        card = content.cards[card_id]
        met = state.quest_fulfilled(seat, card.condition or {})
        value += (horns + 2.0) * (0.85 if met else 0.25)
    # An upgrade is worth about what it cost, while there are Ages left to use it; a
    # monster in the reserve can still be summoned for free.
    for card_id in clan.upgrades:
        value += (1.0 + 0.9 * content.cards[card_id].strength) * ages_left / 3
    for monster in clan.monsters:
        value += 0.4 * content.monsters[monster].strength * ages_left / 3
    cards = clan.hand + clan.drafted + clan.saved
    pick = state.picks[seat]
    if pick is not None:
        cards = [*cards, pick]
    value += sum(card_value(state, c) for c in cards)
    if phase in ("action", "march"):
        value += 0.7 * clan.rage
    return value


def _battle_outlook(state: BloodRageState, seat: int) -> float:
    """The battle in progress as Glory to come: the winner's Axes and reward, the losers' figures.

    While the Call to Battle is on, every clan still to be called counts with the strongest
    figures it may move in (a contest is not won before the neighbours have answered).
    """
    battle = state.battle
    assert battle is not None
    content = state.config.content
    joining: dict[int, float] = {}
    if state.phase == "call":
        for caller in set(battle.calls):
            strengths = sorted(
                (state.figure_strength(caller, kind) for kind, _ in state.callable_figures(caller)), reverse=True
            )
            extra = sum(strengths[: state.call_room(caller)])
            if extra:
                joining[caller] = float(extra)
    totals: dict[int, float] = {}
    for owner in {o for o, _ in state.board[battle.region]} | set(joining):
        total = float(state.strength_in(battle.region, owner) + battle.bonus.get(owner, 0)) + joining.get(owner, 0.0)
        if owner in battle.played:
            card_id = battle.played[owner]
            card = content.cards[card_id] if card_id is not None else None
            total += card.strength if card is not None and card.kind == "battle" else 0
        else:  # still to choose: about its best battle card
            hand = [content.cards[c] for c in state.clans[owner].hand]
            total += max((c.strength for c in hand if c.kind == "battle"), default=0) * 0.8
        totals[owner] = total
    mine = totals[seat]
    best_other = max((v for o, v in totals.items() if o != seat), default=0.0)
    figures = sum(1 for o, _ in state.board[battle.region] if o == seat)
    if mine > best_other:
        reward = REWARD_VALUE.get(content.regions[battle.region].reward, 2.5) if seat == battle.attacker else 0.0
        return 0.8 * (state.stat_value(seat, "axes") + reward)
    return -0.6 * figures


class BloodRageSearchAdapter(EvaluationAdapter):
    """Search over Blood Rage states with the evaluation above."""

    score_scale = 12.0

    def evaluate(self, state: Any, seat: int) -> float:
        """See :func:`evaluate`."""
        return evaluate(state, seat)

    def evaluates(self, state: SearchState) -> bool:
        """BloodRageState positions only."""
        return isinstance(state, BloodRageState)
