"""Worlds consistent with a Blood Rage: Valhalla view: how honest bots imagine hidden cards.

Everything public is copied from the view: the board, stats, Rage, Glory, upgrades,
discards, spent cards, kill piles, the Feast Hall, what happens next. The cards a seat
cannot see are dealt again at random: other hands (keeping the cards everyone saw go in),
quests, drafted and saved cards, the packs in other hands and their pending picks, cards
chosen face down for a battle, the deck and the cards removed face down. Which monsters are in the game
is public (their figures stand by the board), so their cards are among the unseen ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla.data import Battle, BloodRageConfig, Clan, task_from_json
from meadhall.games.bloodrage_valhalla.decisions import decision_from_data
from meadhall.games.bloodrage_valhalla.state import BloodRageState


class BloodRageBelief:
    """A sampler of full states consistent with one view."""

    def __init__(self, view: Mapping[str, Any], config: BloodRageConfig) -> None:
        try:
            self._read(view, config)
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"not a Blood Rage: Valhalla view: {error!r}") from None

    def _read(self, view: Mapping[str, Any], config: BloodRageConfig) -> None:
        content = config.content
        seat = view["seat"]
        self.seat: int | None = seat
        n = len(view["clans"])
        state = BloodRageState.__new__(BloodRageState)
        state._begin(n, config.options, 0)
        state.config = config
        state.rng = Rng(0)
        state.only_seat = None
        state.age = int(view["age"])
        state.phase = str(view["phase"])
        state.first = int(view["first"])
        state.current = int(view["current"])
        state.gods = list(view["gods"])
        state.region_tokens = set(view["region_tokens"])
        state.gods_at = dict(view["gods_at"])
        state.claimed = set(view["claimed"])
        state.board = {r: [(int(o), str(k)) for o, k in figures] for r, figures in view["board"].items()}
        state.killpiles = [[(int(o), str(k)) for o, k in pile] for pile in view["killpiles"]]
        state.feast = [(int(o), str(k)) for o, k in view["feast"]]
        state.removed = []
        state.spent = list(view["spent"])
        state.deck = []
        state.monsters_in_play = tuple(view["monsters_in_play"])
        state.packs = [[] for _ in range(n)]
        state.picks = [None] * n
        state.keeping = [bool(c["keeping"]) for c in view["clans"]]
        march = view["march"]
        state.march_from = march["from"] if march else None
        state.march_left = list(march["left"]) if march else []
        state.march_moved = int(march["moved"]) if march else 0
        state.queue = [task_from_json(t) for t in view["tasks"]]
        decision = view.get("decision")
        state.decision = decision_from_data(decision["data"]) if decision else None
        state.finished = bool(view["finished"])
        state.ply = int(view["ply"])
        state.events = None
        state.clans = []
        visible: Counter[str] = Counter(state.spent)
        for index, info in enumerate(view["clans"]):
            clan = Clan()
            clan.steps = dict(info["steps"])
            clan.rage = int(info["rage"])
            clan.glory = int(info["glory"])
            clan.glory_reached = int(info["glory_reached"])
            clan.upgrades = list(info["upgrades"])
            clan.discards = list(info["discards"])
            clan.warriors = int(info["reserve"]["warrior"])
            clan.elites = int(info["reserve"]["elite"])
            clan.monsters = list(info["reserve"]["monsters"])
            clan.owned_monsters = list(info["monsters"])
            clan.passed = bool(info["passed"])
            clan.free_march_used = bool(info["free_march_used"])
            clan.battles_won = int(info["battles_won"])
            clan.battles_lost = int(info["battles_lost"])
            clan.contests_won = int(info["contests_won"])
            clan.known = list(info["known"])
            visible.update(clan.upgrades)
            visible.update(clan.discards)
            if index == seat:
                clan.hand = list(view["hand"])
                clan.quests = list(view["my_quests"])
                clan.drafted = list(view["my_drafted"])
                clan.saved = list(view["my_saved"])
                state.packs[index] = list(view["pack"])
                state.picks[index] = view["my_pick"]
                visible.update(clan.hand + clan.quests + clan.drafted + clan.saved + state.packs[index])
            else:
                clan.hand = list(clan.known)
                visible.update(clan.known)
            state.clans.append(clan)
        battle_view = view.get("battle")
        state.battle = None
        hidden_battle: list[int] = []
        if battle_view is not None:
            battle = Battle(battle_view["region"], int(battle_view["attacker"]), list(battle_view["calls"]))
            battle.joined = {int(k): v for k, v in battle_view["joined"].items()}
            battle.participants = list(battle_view["participants"])
            battle.revealed = bool(battle_view["revealed"])
            battle.bonus = {int(k): v for k, v in battle_view["bonus"].items()}
            battle.kills = {int(k): v for k, v in battle_view["kills"].items()}
            battle.losses = {int(k): v for k, v in battle_view["losses"].items()}
            battle.fought = bool(battle_view["fought"])
            battle.winner = battle_view["winner"]
            empty = set(battle_view["empty"])
            for chooser in battle_view["chosen"]:
                if battle.revealed:
                    card = battle_view["cards"][str(chooser)]
                    battle.played[chooser] = card
                    if card is not None:
                        visible[card] += 1
                elif chooser == seat:
                    battle.played[chooser] = view.get("my_card")
                    if view.get("my_card") is not None:
                        visible[view["my_card"]] += 1
                elif chooser in empty:
                    battle.played[chooser] = None
                else:
                    hidden_battle.append(chooser)
            state.battle = battle
        # The slots to fill: (zone, seat, count).
        slots: list[tuple[str, int, int]] = []
        for index, info in enumerate(view["clans"]):
            if index == seat:
                continue
            slots.append(("hand", index, int(info["hand"]) - len(info["known"])))
            slots += [
                ("quests", index, int(info["quests"])),
                ("drafted", index, int(info["drafted"])),
                ("saved", index, int(info["saved"])),
                ("pack", index, int(view["packs"][index])),
            ]
        slots += [("battle", s, 1) for s in hidden_battle]
        slots += [("deck", -1, int(view["deck"])), ("removed", -1, int(view["removed"]))]
        hidden_total = sum(count for _, _, count in slots)
        # Every card of the game: the three gods' decks, the monster cards in play and the
        # Rainbow Bridge cards of the options.
        god_cards = Counter(c for god in state.gods for c in content.god_cards(god))
        rainbow: Counter[str] = Counter()
        if not (state.age == 1 and state.phase == "draft"):  # dealt at the end of the Age 1 draft
            rainbow = Counter(content.rainbow_card(g) for gods in config.rainbow for g in gods)
        monster_cards = Counter(content.monster_card(m) for m in state.monsters_in_play)
        self.unseen_fixed: list[str] = []
        for card, count in (god_cards + rainbow + monster_cards).items():
            self.unseen_fixed += [card] * max(0, count - visible[card])
        if len(self.unseen_fixed) != hidden_total:
            raise ValueError("the view's card counts do not add up")
        self.template = state
        self.slots = slots
        self.picked = [bool(p) for p in view["picked"]]

    def sample(self, rng: Rng) -> BloodRageState:
        """A full state consistent with the view, the unseen cards dealt at random."""
        world = self.template.clone()
        cards = self.unseen_fixed[:]
        rng.shuffle_fast(cards)
        for zone, seat, count in self.slots:
            dealt = [cards.pop() for _ in range(count)]
            if zone == "hand":
                world.clans[seat].hand += dealt
            elif zone == "quests":
                world.clans[seat].quests = dealt
            elif zone == "drafted":
                world.clans[seat].drafted = dealt
            elif zone == "saved":
                world.clans[seat].saved = dealt
            elif zone == "pack":
                world.packs[seat] = dealt
                if self.picked[seat] and dealt:
                    world.picks[seat] = dealt[rng.below(len(dealt))]
            elif zone == "battle":
                assert world.battle is not None
                world.battle.played[seat] = dealt[0]
            elif zone == "deck":
                world.deck = dealt
            else:
                world.removed = dealt
        world.rng = Rng(rng.next64())
        return world
