"""The Blood Rage: Valhalla game state: Ages, phases, actions, contests and effects.

The game runs as a queue of *tasks* (reveal an effect, resolve a battle, start the next
turn, check a quest, ...). Tasks run until one needs a decision: a seat's action (Action
phase, Call to Battle, a stat of choice, a target), or several seats at once (draft
picks, battle cards, discarding down to three at the end of an Age). The action that
answers it continues the queue. Rules: ``docs/rules/bloodrage-valhalla.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.game import Event, GameState
from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla.content import STATS, Card, Content, Effect
from meadhall.games.bloodrage_valhalla.notation import DONE, KEEP, NO_RAISE, PASS, SKIP, STAY, BRAction

Figure = tuple[int, str]  # (owner seat, "warrior" | "elite" | monster id)

WARRIORS = 6
ELITES = 2
SMALL_BASES = 3
LARGE_BASES = 2
SLOTS = 7
DRAFT_HAND = 6
KEEP_AT_AGE_END = 3
START_RAGE_STEP = 0


@dataclass
class Clan:
    """One player's clan: stats, Rage, Glory, cards and reserve."""

    steps: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATS, 0))
    rage: int = 0
    glory: int = 0
    hand: list[str] = field(default_factory=list)
    drafted: list[str] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    upgrades: list[str] = field(default_factory=list)
    quests: list[str] = field(default_factory=list)
    warriors: int = WARRIORS
    elites: int = ELITES
    monsters: list[str] = field(default_factory=list)  # in reserve
    owned_monsters: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)  # cards everyone saw go into the hand
    passed: bool = False
    battles_won: int = 0
    battles_lost: int = 0
    contests_won: int = 0
    glory_reached: int = 0
    free_march_used: bool = False  # this Action phase

    def copy(self) -> Clan:
        """An independent copy."""
        return Clan(
            dict(self.steps), self.rage, self.glory, self.hand[:], self.drafted[:], self.saved[:],
            self.discards[:], self.upgrades[:], self.quests[:], self.warriors, self.elites, self.monsters[:],
            self.owned_monsters[:], self.known[:], self.passed, self.battles_won, self.battles_lost,
            self.contests_won, self.glory_reached, self.free_march_used,
        )  # fmt: skip

    def key(self) -> Hashable:
        """Everything, comparable."""
        return (
            tuple(sorted(self.steps.items())), self.rage, self.glory, tuple(self.hand), tuple(self.drafted),
            tuple(self.saved), tuple(self.discards), tuple(self.upgrades), tuple(self.quests), self.warriors,
            self.elites, tuple(self.monsters), tuple(self.owned_monsters), tuple(self.known), self.passed,
            self.battles_won, self.battles_lost, self.contests_won, self.glory_reached, self.free_march_used,
        )  # fmt: skip

    def forget(self, card: str | None = None) -> None:
        """A card left the hand: publicly (``card``), or face down (``None``: forget all)."""
        if card is None:
            self.known = []
        elif card in self.known:
            self.known.remove(card)


@dataclass
class Battle:
    """A contest in progress: where, who started it, the Call to Battle and the cards."""

    region: str
    attacker: int
    calls: list[int]  # seats still to be called, in order
    joined: dict[int, int] = field(default_factory=dict)  # seat -> figures moved in
    participants: list[int] = field(default_factory=list)
    played: dict[int, str | None] = field(default_factory=dict)  # chosen cards (hidden until all chose)
    revealed: bool = False
    bonus: dict[int, int] = field(default_factory=dict)  # +STR from effects
    kills: dict[int, int] = field(default_factory=dict)  # enemy figures killed, by killer
    losses: dict[int, int] = field(default_factory=dict)  # own figures lost, by seat
    winner: int | None = None
    fought: bool = False

    def copy(self) -> Battle:
        """An independent copy."""
        return Battle(
            self.region, self.attacker, self.calls[:], dict(self.joined), self.participants[:], dict(self.played),
            self.revealed, dict(self.bonus), dict(self.kills), dict(self.losses), self.winner, self.fought,
        )  # fmt: skip

    def key(self) -> Hashable:
        """Everything, comparable."""
        return (
            self.region, self.attacker, tuple(self.calls), tuple(sorted(self.joined.items())),
            tuple(self.participants), tuple(sorted(self.played.items(), key=lambda kv: kv[0])), self.revealed,
            tuple(sorted(self.bonus.items())), tuple(sorted(self.kills.items())), tuple(sorted(self.losses.items())),
            self.winner, self.fought,
        )  # fmt: skip


Task = tuple[Any, ...]

#: Between equally strong figures, which a "save" effect takes first: monsters (0), Elites, Warriors.
_SAVE_RANK = {"elite": 1, "warrior": 2}


def effect_json(effect: Effect) -> dict[str, Any]:
    """An effect as JSON data."""
    data: dict[str, Any] = {"do": effect.do, **effect.params}
    if effect.when:
        data["when"] = effect.when
    return data


_ACTIONS: dict[tuple[str, str, str], BRAction] = {}


def _action(kind: str, a: str, b: str = "") -> BRAction:
    """A shared action value: move generation makes the same few hundred over and over."""
    key = (kind, a, b)
    found = _ACTIONS.get(key)
    if found is None:
        found = _ACTIONS[key] = BRAction(kind, a, b)
    return found


def task_json(task: Task) -> list[Any]:
    """A queued task as JSON data (effects as objects)."""
    return [effect_json(part) if isinstance(part, Effect) else part for part in task]


def task_from_json(data: list[Any]) -> Task:
    """A task read back from :func:`task_json`."""
    parts: list[Any] = []
    for part in data:
        if isinstance(part, dict) and "do" in part:
            params = {k: v for k, v in part.items() if k not in ("do", "when")}
            parts.append(Effect(part["do"], params, part.get("when")))
        else:
            parts.append(part)
    return tuple(parts)


class BloodRageConfig:
    """The fixed facts of one game: content, seats, options."""

    __slots__ = ("content", "gods", "options", "players", "rainbow", "shuffle_gods", "starting_glory")

    def __init__(
        self,
        content: Content,
        options: Mapping[str, Any],
        players: int,
        gods: tuple[str, ...],
        shuffle_gods: bool = False,
    ) -> None:
        self.content = content
        self.options = dict(options)
        self.players = players
        self.gods = gods  # fixed by the options, or () to draw at random
        # the gods are fixed but their Ages are not (first-game: placed on the Age slots at random)
        self.shuffle_gods = shuffle_gods
        self.starting_glory: list[int] = list(options.get("starting-glory") or [])
        self.rainbow: list[list[str]] = [list(g) for g in (options.get("rainbow-rewards") or [])]


def _illegal(message: str, rule: str = "illegal") -> IllegalAction:
    return IllegalAction(message, rule)


class BloodRageState(GameState[BRAction]):
    """A Blood Rage: Valhalla position."""

    #: Events that show a seat what was hidden from it: packs dealt and passed, battle cards and
    #: quests revealed, and a card drawn from the deck (its drawer sees it).
    revealing_events = frozenset({"dealt", "packs-passed", "revealed", "quest", "draft-over", "drew"})
    config: BloodRageConfig

    def __init__(self, config: BloodRageConfig, seed: int) -> None:
        content = config.content
        n = config.players
        self.config = config
        self.rng = Rng(seed)
        self._seed = seed
        self.age = 1
        self.phase = "setup"
        self.first = 0
        self.current = 0
        self.gods: list[str] = []
        self.region_tokens: set[str] = set()
        self.gods_at: dict[str, str] = {}
        self.claimed: set[str] = set()
        self.board: dict[str, list[Figure]] = {r: [] for r in content.regions}
        self.clans = [Clan() for _ in range(n)]
        self.deck: list[str] = []
        self.monsters_in_play: tuple[str, ...] = ()  # public: their figures stand by the board
        self.packs: list[list[str]] = [[] for _ in range(n)]
        self.picks: list[str | None] = [None] * n
        self.keeping: list[bool] = [False] * n  # still choosing the cards to keep (end of Age)
        self.killpiles: list[list[Figure]] = [[] for _ in range(n)]
        self.feast: list[Figure] = []
        self.removed: list[str] = []  # cards removed from the game face down (end of Age)
        self.spent: list[str] = []  # battle cards removed from the game face up (the ``spent`` effect)
        self.march_from: str | None = None
        self.march_left: list[str] = []
        self.march_moved = 0
        self.battle: Battle | None = None
        self.tasks: list[Task] = []
        self.decision: tuple[Any, ...] | None = None  # (seat, type, *data)
        self.finished = False
        self.ply = 0
        self._log: list[tuple[int, BRAction]] = []
        self.events: list[Event] = []
        self._setup()

    # Setup ------------------------------------------------------------------------------

    def _setup(self) -> None:
        content = self.config.content
        rng = self.rng
        n = self.config.players
        tokens = sorted((r.token, r.id) for r in content.regions.values() if r.token is not None)
        chosen = list(tokens)
        rng.shuffle(chosen)
        self.region_tokens = {rid for _, rid in chosen[:3]}
        if self.config.gods:
            self.gods = list(self.config.gods)
            if self.config.shuffle_gods:
                rng.shuffle(self.gods)
        else:
            pool = sorted(content.gods)
            rng.shuffle(pool)
            self.gods = pool[:3]
        deck = [cid for god in self.gods for cid in content.god_cards(god)]
        monsters = sorted(content.monsters)
        rng.shuffle(monsters)
        self.monsters_in_play = tuple(sorted(monsters[: 3 * n]))
        deck += [content.monster_card(m) for m in self.monsters_in_play]
        rng.shuffle(deck)
        self.deck = deck
        start_rage = content.tracks["rage"][START_RAGE_STEP]
        for seat, clan in enumerate(self.clans):
            clan.rage = start_rage
            if self.config.starting_glory:
                placing = self.config.starting_glory[seat]
                clan.glory = {1: 12, 2: 8, 3: 4}.get(placing, 0)
        self.first = rng.below(n)
        self.tasks = [("start_age",)]
        self._run()

    # Protocol basics ----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.config.players

    @property
    def options(self) -> Mapping[str, Any]:
        """The normalized options."""
        return self.config.options

    @property
    def seed(self) -> int:
        """The seed (server side only)."""
        return self._seed

    def history(self) -> list[tuple[int, BRAction]]:
        """Every action applied since setup."""
        return list(self._log)

    def is_terminal(self) -> bool:
        """True after the legendary bonus of Age 3."""
        return self.finished

    def scores(self) -> list[int]:
        """Glory by seat."""
        return [clan.glory for clan in self.clans]

    def ranking(self) -> list[int]:
        """Places: most Glory; ties broken by most remaining Rage; still tied: shared."""
        keys = [(-c.glory, -c.rage) for c in self.clans]
        return [1 + sum(1 for other in keys if other < mine) for mine in keys]

    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now (several during drafts, battle cards and discards)."""
        if self.finished:
            return ()
        if self.decision is not None:
            return (self.decision[0],)
        if self.phase == "draft":
            return tuple(s for s in range(self.num_players) if self.picks[s] is None and self.packs[s])
        if self.phase == "battle" and self.battle is not None:
            return tuple(s for s in self.battle.participants if s not in self.battle.played)
        if self.phase == "keep":
            return tuple(s for s in range(self.num_players) if self.keeping[s])
        if self.phase in ("action", "march"):
            return (self.current,)
        if self.phase == "call" and self.battle is not None and self.battle.calls:
            return (self.battle.calls[0],)
        return ()

    # Board helpers ------------------------------------------------------------------------

    def content(self) -> Content:
        """The content pack in use."""
        return self.config.content

    def card(self, card_id: str) -> Card:
        """A card by id."""
        return self.config.content.cards[card_id]

    def passives(self, seat: int, do: str) -> int:
        """Sum of a passive effect over a clan's upgrades and its monsters' abilities.

        A monster's ability counts only while the monster stands on the board (in any
        region): not from the reserve, a kill pile or the Feast Hall.
        """
        content = self.config.content
        total = 0
        for cid in self.clans[seat].upgrades:
            card = content.cards[cid]
            for effect in card.effects:
                if effect.do == do:
                    total += int(effect.get("amount", 1))
        if do in ("free_march", "call_two"):
            for monster in self.clans[seat].owned_monsters:
                if self.monster_has(monster, do) is not None and self.on_board(seat, monster):
                    total += 1
        return total

    def on_board(self, seat: int, kind: str) -> bool:
        """True if one of ``seat``'s figures of this kind stands in some region."""
        figure = (seat, kind)
        return any(figure in figures for figures in self.board.values())

    def has(self, seat: int, do: str) -> bool:
        """True if the clan has a passive ``do`` (from an upgrade, or a monster on the board)."""
        return self.passives(seat, do) > 0

    def monster_has(self, monster: str, do: str) -> Effect | None:
        """A monster's ability ``do``, if it has one."""
        for effect in self.config.content.monsters[monster].abilities:
            if effect.do == do:
                return effect
        return None

    def figure_strength(self, seat: int, kind: str) -> int:
        """STR of one of a clan's figures."""
        if kind == "warrior":
            return 1 + self.passives(seat, "warrior_strength")
        if kind == "elite":
            return 1 + self.passives(seat, "elite_strength")
        return self.config.content.monsters[kind].strength + self.passives(seat, "monster_strength")

    def strength_in(self, region: str, seat: int) -> int:
        """A clan's STR in a region (figures, with their passives and monsters' auras)."""
        mine = [kind for owner, kind in self.board[region] if owner == seat]
        total = sum(self.figure_strength(seat, kind) for kind in mine)
        for kind in mine:
            if kind in self.config.content.monsters:
                aura = self.monster_has(kind, "others_strength")
                if aura is not None:
                    total += int(aura.get("amount")) * (len(mine) - 1)
        return total

    def figures_of(self, seat: int) -> int:
        """A clan's figures on the board."""
        return sum(1 for figures in self.board.values() for owner, _ in figures if owner == seat)

    def claimable(self) -> set[str]:
        """Regions without a region token: the ones a contest can claim."""
        return {r for r in self.config.content.regions if r not in self.region_tokens}

    def summon_regions(self) -> list[str]:
        """Common regions: no god, no region token, not Valhalla."""
        content = self.config.content
        return [
            r
            for r in content.regions
            if r not in self.region_tokens and r not in self.gods_at and not content.regions[r].valhalla
        ]

    def stat_value(self, seat: int, stat: str) -> int:
        """The value of a clan stat at its current step."""
        return self.config.content.tracks[stat][self.clans[seat].steps[stat]]

    def _free_bases(self, seat: int) -> dict[str, int]:
        content = self.config.content
        used = {"small": 0, "large": 0}
        for monster in self.clans[seat].owned_monsters:
            used[content.monsters[monster].base] += 1
        return {"small": SMALL_BASES - used["small"], "large": LARGE_BASES - used["large"]}

    def _gain_glory(self, seat: int, amount: int, why: str) -> None:
        if amount <= 0:
            return
        clan = self.clans[seat]
        clan.glory += amount
        clan.glory_reached = self.ply
        self.events.append(Event("glory", {"seat": seat, "amount": amount, "total": clan.glory, "why": why}))

    def _raise(self, seat: int, stat: str, why: str) -> None:
        clan = self.clans[seat]
        if clan.steps[stat] < len(self.config.content.tracks[stat]) - 1:
            clan.steps[stat] += 1
            self.events.append(
                Event(
                    "raised",
                    {
                        "seat": seat,
                        "stat": stat,
                        "step": clan.steps[stat],
                        "value": self.stat_value(seat, stat),
                        "why": why,
                    },
                )
            )

    def _kill(self, figure: Figure, region: str, killer: int | None, why: str) -> None:
        """Take a figure off the board to a kill pile (``killer``) or the Feast Hall (None)."""
        self.board[region].remove(figure)
        owner, kind = figure
        monsters = self.config.content.monsters
        if kind in monsters and self.monster_has(kind, "killed_glory") is not None:
            effect = self.monster_has(kind, "killed_glory")
            assert effect is not None
            self._gain_glory(owner, int(effect.get("amount")), f"{monsters[kind].name} was killed")
        if kind in monsters and self.monster_has(kind, "returns_when_killed") is not None:
            self.clans[owner].monsters.append(kind)
        elif killer is None:
            self.feast.append(figure)
        else:
            self.killpiles[killer].append(figure)
        if self.battle is not None and region == self.battle.region:
            self.battle.losses[owner] = self.battle.losses.get(owner, 0) + 1
            if killer is not None and killer != owner:
                self.battle.kills[killer] = self.battle.kills.get(killer, 0) + 1
        self.events.append(
            Event("killed", {"owner": owner, "figure": kind, "region": region, "by": killer, "why": why})
        )

    # The task queue ---------------------------------------------------------------------

    def _run(self) -> None:
        while self.decision is None and self.tasks and not self.finished:
            if self.phase in ("draft", "battle", "keep") and self.to_move():
                return  # several seats decide at once: wait for all of them
            task = self.tasks.pop(0)
            getattr(self, "_task_" + task[0])(*task[1:])

    def _then(self, *tasks: Task) -> None:
        """Run these tasks before the ones already queued."""
        self.tasks[0:0] = list(tasks)

    def _task_start_age(self) -> None:
        content = self.config.content
        god = self.gods[self.age - 1]
        tokens = sorted((content.regions[r].token or 0, r) for r in self.region_tokens)
        if tokens:
            _, region = tokens[0]
            self.region_tokens.discard(region)
            self.gods_at[region] = god
            self.events.append(Event("god-arrives", {"god": god, "region": region, "age": self.age}))
        n = self.num_players
        # Draws take cards from the deck and cards dropped at the end of an Age leave the
        # game, so with five clans the deck can run short: then every clan gets the same
        # smaller pack, and a pack of one card is no draft (ruling r, docs/rules).
        size = min(DRAFT_HAND, len(self.deck) // n)
        if size < 2:
            size = 0
        for seat in range(n):
            self.packs[seat] = [self.deck.pop() for _ in range(size)]
            self.picks[seat] = None
        self.phase = "draft"
        direction = "right" if self.age == 2 else "left"
        self.events.append(Event("dealt", {"age": self.age, "direction": direction, "pack_size": size}))
        if size == 0:
            self._end_draft()

    def _end_draft(self) -> None:
        """The last card of each pack to the bottom of the deck; drafted and saved cards to the hand."""
        for seat in range(self.num_players):
            self.deck[0:0] = self.packs[seat]
            self.packs[seat] = []
            clan = self.clans[seat]
            clan.hand += clan.drafted + clan.saved
            clan.drafted, clan.saved = [], []
            if self.age == 1 and self.config.rainbow and seat < len(self.config.rainbow):
                for god in self.config.rainbow[seat]:
                    clan.hand.append(self.config.content.rainbow_card(god))
                    clan.known.append(self.config.content.rainbow_card(god))
        self.events.append(Event("draft-over", {"age": self.age}))
        self.phase = "action"
        self.tasks.append(("start_actions",))

    def _finish_draft_round(self) -> None:
        n = self.num_players
        for seat in range(n):
            card = self.picks[seat]
            assert card is not None
            self.packs[seat].remove(card)
            self.clans[seat].drafted.append(card)
            self.picks[seat] = None
        # Every pack has the same size: the draft ends when each is down to its last card
        # (after five picks from a full pack of six).
        if all(len(pack) <= 1 for pack in self.packs):
            self._end_draft()
            self._run()
            return
        step = -1 if self.age == 2 else 1
        self.packs = [self.packs[(seat - step) % n] for seat in range(n)]
        self.events.append(Event("packs-passed", {"direction": "right" if step < 0 else "left"}))

    def _task_start_actions(self) -> None:
        for seat, clan in enumerate(self.clans):
            clan.rage = self.stat_value(seat, "rage")
            clan.passed = False
            clan.free_march_used = False
        self.phase = "action"
        self.current = (self.first - 1) % self.num_players
        self._then(("next_turn",))

    def _task_next_turn(self) -> None:
        n = self.num_players
        self.battle = None
        self.march_from = None
        if self.claimable() <= self.claimed:
            self._then(("quest_phase",))
            return
        for offset in range(1, n + 1):
            seat = (self.current + offset) % n
            clan = self.clans[seat]
            if not clan.passed and clan.rage > 0:
                self.current = seat
                self.phase = "action"
                self.events.append(Event("turn", {"seat": seat, "age": self.age}))
                return
        self._then(("quest_phase",))

    def _task_quest_phase(self) -> None:
        """Every clan reveals all its committed quests at once; each is judged on that moment.

        The rulebook has the players reveal all their quests, then return them to hand:
        a quest checked later must not count the quests returned before it (a "hold N
        cards" quest would depend on the order of commitment). So every quest of every
        clan is judged first, then all go back to hand, and only then are the fulfilled
        ones paid, from the first player clockwise, each clan's in the order it committed
        them. Each payment reads Horns at that moment: a Horns raise chosen for an earlier
        quest pays the later ones too (the rulebook's note).
        """
        self.phase = "quest"
        self.events.append(Event("quest-phase", {"age": self.age}))
        n = self.num_players
        judged: list[tuple[int, str, bool]] = []
        for offset in range(n):
            seat = (self.first + offset) % n
            for card_id in self.clans[seat].quests:
                judged.append((seat, card_id, self.quest_fulfilled(seat, self.card(card_id).condition or {})))
        payments: list[Task] = []
        for seat, card_id, done in judged:
            clan = self.clans[seat]
            clan.quests.remove(card_id)
            clan.hand.append(card_id)
            clan.known.append(card_id)
            self.events.append(Event("quest", {"seat": seat, "card": card_id, "fulfilled": done}))
            if done:
                payments += [("choose_raise", seat, "quest", True), ("quest_glory", seat, card_id)]
        self.tasks += [*payments, ("prove_valor",)]

    def _task_choose_raise(self, seat: int, why: str, optional: bool = False) -> None:
        """A stat of the clan's choice goes up a step; ``optional``: the clan may raise none."""
        options = [s for s in STATS if self.clans[seat].steps[s] < len(self.config.content.tracks[s]) - 1]
        if len(options) == 1 and not optional:
            self._raise(seat, options[0], why)
        elif options:
            self.decision = (seat, "raise", why, optional)

    def _task_quest_glory(self, seat: int, card_id: str) -> None:
        card = self.card(card_id)
        self._gain_glory(seat, self.stat_value(seat, "horns") + self.passives(seat, "quest_glory"), "quest fulfilled")
        self._then(*[("effect", seat, effect, "quest reward") for effect in card.reward])

    def quest_fulfilled(self, seat: int, condition: Mapping[str, Any]) -> bool:
        """Whether a clan fulfils a quest's condition now."""
        kind = condition.get("type")
        count = int(condition.get("count", 0))
        clan = self.clans[seat]
        content = self.config.content
        n = self.num_players
        if kind == "control_region":
            return self.controls(condition["region"], seat)
        if kind == "control_regions":
            return sum(1 for r in content.regions if self.controls(r, seat)) >= count
        if kind == "valhalla_figures":
            return sum(1 for o, _ in self.board[content.valhalla] if o == seat) >= count
        if kind == "god_regions":
            return sum(1 for r in self.gods_at if any(o == seat for o, _ in self.board[r])) >= count
        if kind == "battles_won":
            return clan.battles_won >= count
        if kind == "battles_lost":
            return clan.battles_lost >= count
        if kind == "fallen":
            fallen = sum(1 for pile in self.killpiles for o, _ in pile if o == seat)
            fallen += sum(1 for o, _ in self.feast if o == seat)
            return fallen >= count
        if kind == "upgrades":
            return len(clan.upgrades) >= count
        if kind == "most_figures":
            mine = self.figures_of(seat)
            return all(mine > self.figures_of(o) for o in range(n) if o != seat)
        if kind == "fewest_figures":
            mine = self.figures_of(seat)
            return mine > 0 and all(mine < self.figures_of(o) for o in range(n) if o != seat)
        if kind == "hand":
            return len(clan.hand) >= count
        if kind == "rage_left":
            return clan.rage >= count
        if kind == "contests_won":
            return clan.contests_won >= count
        return False

    def controls(self, region: str, seat: int) -> bool:
        """A clan has a figure in the region and strictly the most STR there."""
        if not any(o == seat for o, _ in self.board[region]):
            return False
        mine = self.strength_in(region, seat)
        return all(mine > self.strength_in(region, o) for o in range(self.num_players) if o != seat)

    def _task_prove_valor(self) -> None:
        self.phase = "valor"
        content = self.config.content
        glory_each = content.valor_glory[self.age - 1]
        regions = [content.valhalla] + [r for r in content.regions if r in self.gods_at]
        for region in regions:
            weight: dict[int, int] = {}
            for owner, kind in self.board[region]:
                extra = self.monster_has(kind, "valor_weight") if kind in content.monsters else None
                weight[owner] = weight.get(owner, 0) + (int(extra.get("amount")) if extra else 1)
            if not weight:
                continue
            best = max(weight.values())
            for seat, value in sorted(weight.items()):
                if value != best:
                    continue
                figures = [f for f in self.board[region] if f[0] == seat]
                for figure in figures:
                    self._kill(figure, region, None, "Prove Valor")
                per_figure = glory_each + self.passives(seat, "valor_glory")
                self._gain_glory(seat, per_figure * value, f"Prove Valor in {content.regions[region].name}")
                self.events.append(Event("valor", {"seat": seat, "region": region, "figures": len(figures)}))
        self._then(("release",))

    def _task_release(self) -> None:
        for pile in [*self.killpiles, self.feast]:
            for owner, kind in pile:
                clan = self.clans[owner]
                if kind == "warrior":
                    clan.warriors += 1
                elif kind == "elite":
                    clan.elites += 1
                else:
                    clan.monsters.append(kind)
            pile.clear()
        self.events.append(Event("release", {"age": self.age}))
        self._then(("end_age",))

    def _task_end_age(self) -> None:
        self.claimed = set()
        if self.age == 3:
            self._then(("game_end",))
            return
        for seat, clan in enumerate(self.clans):
            clan.hand += clan.discards
            clan.known += clan.discards
            clan.discards = []
            clan.battles_won = clan.battles_lost = clan.contests_won = 0
            self.keeping[seat] = bool(clan.hand)
        self.phase = "keep"
        self.tasks.append(("after_keep",))
        self.tasks.append(("next_age",))

    def _task_after_keep(self) -> None:
        for clan in self.clans:
            clan.saved = clan.hand
            clan.hand = []
            clan.forget()

    def _task_next_age(self) -> None:
        self.first = (self.first + 1) % self.num_players
        self.age += 1
        self._then(("start_age",))

    def _task_game_end(self) -> None:
        content = self.config.content
        for seat, clan in enumerate(self.clans):
            for stat in STATS:
                step = clan.steps[stat]
                last = len(content.tracks[stat]) - 1
                if step == last:
                    self._gain_glory(seat, content.legendary["top"], f"legendary {stat}")
                elif step >= 3:
                    self._gain_glory(seat, content.legendary["high"], f"legendary {stat}")
        self.finished = True
        self.phase = "over"
        self.events.append(
            Event(
                "game-over", {"scores": self.scores(), "places": self.ranking(), "rage": [c.rage for c in self.clans]}
            )
        )

    # Effects -----------------------------------------------------------------------------

    def _task_effect(self, seat: int, effect: Effect, why: str) -> None:
        do = effect.do
        battle = self.battle
        if do == "glory":
            self._gain_glory(seat, int(effect.get("amount")), why)
        elif do == "rage":
            self.clans[seat].rage += int(effect.get("amount"))
            self.events.append(Event("rage", {"seat": seat, "amount": int(effect.get("amount")), "why": why}))
        elif do == "lose_rage":
            lost = min(self.clans[seat].rage, int(effect.get("amount")))
            self.clans[seat].rage -= lost
            self.events.append(Event("rage", {"seat": seat, "amount": -lost, "why": why}))
        elif do == "raise":
            stat = effect.get("stat")
            if stat == "choice":
                self._then(("choose_raise", seat, why))
            elif stat == "all":
                for name in STATS:
                    self._raise(seat, name, why)
            else:
                self._raise(seat, str(stat), why)
        elif do == "steal_glory":
            victims = [s for s in battle.participants if s != seat] if battle is not None and battle.fought else []
            for victim in victims:
                taken = min(int(effect.get("amount")), self.clans[victim].glory)
                if taken:
                    self.clans[victim].glory -= taken
                    self._gain_glory(seat, taken, f"{why}: taken from seat {victim + 1}")
        elif do == "draw":
            for _ in range(int(effect.get("count"))):
                if self.deck:
                    card = self.deck.pop()
                    self.clans[seat].hand.append(card)
                    self.events.append(Event("drew", {"seat": seat, "card": card}, frozenset({seat})))
                    self.events.append(Event("drew-count", {"seat": seat, "count": 1}))
        elif do == "reinforce":
            region = battle.region if battle is not None else None
            if region is not None:
                self._then(("reinforce", seat, region, int(effect.get("count"))))
        elif do == "kill_anywhere":
            self._then(("kill_anywhere", seat, int(effect.get("count"))))
        elif do in ("strength", "strength_per_figure", "strength_per_enemy") and battle is not None:
            amount = int(effect.get("amount"))
            figures = [o for o, _ in self.board[battle.region]]
            if do == "strength_per_figure":
                amount *= sum(1 for o in figures if o == seat)
            elif do == "strength_per_enemy":
                amount *= sum(1 for o in figures if o != seat)
            battle.bonus[seat] = battle.bonus.get(seat, 0) + amount
            self.events.append(Event("strength", {"seat": seat, "amount": amount, "why": why}))
        elif do in ("destroy", "reveal_destroy") and battle is not None:
            self._then(("destroy", seat, int(effect.get("count")), str(effect.get("target")), why))
        elif do == "glory_per_kill" and battle is not None:
            self._gain_glory(seat, int(effect.get("amount")) * battle.kills.get(seat, 0), why)
        elif do == "glory_per_loss" and battle is not None:
            self._gain_glory(seat, int(effect.get("amount")) * battle.losses.get(seat, 0), why)
        # save, keep_card and spent are applied when the battle resolves (they change what dies / where cards go)

    def _task_ability(self, seat: int, monster: str, effect: Effect) -> None:
        """A monster's ability in a battle: only while the monster is still in the battle's region."""
        battle = self.battle
        if battle is None or (seat, monster) not in self.board[battle.region]:
            return
        self._task_effect(seat, effect, self.config.content.monsters[monster].name)

    def _candidates(self, seat: int, region: str, target: str) -> list[tuple[int, str]]:
        monsters = self.config.content.monsters
        found = []
        for owner, kind in self.board[region]:
            if owner == seat:
                continue
            if kind in monsters and self.monster_has(kind, "immune") is not None:
                continue
            matches = target == "any" or (target == "monster" and kind in monsters) or target == kind
            if matches and (owner, kind) not in found:
                found.append((owner, kind))
        return found

    def _task_destroy(self, seat: int, count: int, target: str, why: str) -> None:
        battle = self.battle
        if battle is None or count <= 0:
            return
        options = self._candidates(seat, battle.region, target)
        if not options:
            return
        if len(options) == 1:
            self._kill(options[0], battle.region, seat, why)
            self._then(("destroy", seat, count - 1, target, why))
            return
        self.decision = (seat, "destroy", count, target, why)

    def _task_reinforce(self, seat: int, region: str, count: int) -> None:
        clan = self.clans[seat]
        if count <= 0 or not (clan.warriors or clan.elites or clan.monsters):
            return
        self.decision = (seat, "reinforce", region, count)

    def _task_kill_anywhere(self, seat: int, count: int) -> None:
        if count <= 0:
            return
        if not any(self._candidates(seat, r, "any") for r in self.board):
            return
        self.decision = (seat, "kill", count)

    # Contests ------------------------------------------------------------------------------

    def _start_contest(self, seat: int, region: str) -> None:
        n = self.num_players
        calls = [(seat + offset) % n for offset in range(1, n)] + [seat]
        self.battle = Battle(region, seat, calls)
        self.phase = "call"
        self.events.append(Event("contest", {"seat": seat, "region": region}))
        self._skip_callers()

    def call_room(self, seat: int) -> int:
        """How many more figures ``seat`` may still move into the contest's battle (Call to Battle)."""
        battle = self.battle
        assert battle is not None
        return max(0, (2 if self.has(seat, "call_two") else 1) - battle.joined.get(seat, 0))

    def callable_figures(self, seat: int) -> list[tuple[str, str]]:
        """Figures ``seat`` may move into the battle: (kind, from region)."""
        battle = self.battle
        assert battle is not None
        content = self.config.content
        if not self.call_room(seat):
            return []
        found: list[tuple[str, str]] = []
        for region, figures in self.board.items():
            if region == battle.region:
                continue
            adjacent = region in content.regions[battle.region].neighbours
            for owner, kind in figures:
                if owner != seat:
                    continue
                anywhere = kind in content.monsters and self.monster_has(kind, "called_from_anywhere") is not None
                if (adjacent or anywhere) and (kind, region) not in found:
                    found.append((kind, region))
        return found

    def _skip_callers(self) -> None:
        battle = self.battle
        assert battle is not None
        while battle.calls and not self.callable_figures(battle.calls[0]):
            battle.calls.pop(0)
        if not battle.calls:
            self._after_call()

    def _after_call(self) -> None:
        battle = self.battle
        assert battle is not None
        owners = sorted({o for o, _ in self.board[battle.region]})
        if owners == [battle.attacker]:
            self.events.append(Event("no-battle", {"seat": battle.attacker, "region": battle.region}))
            battle.winner = battle.attacker
            self._then(("reward",), ("end_contest",))
            self._run()
            return
        n = self.num_players
        battle.participants = [
            (battle.attacker + offset) % n for offset in range(n) if (battle.attacker + offset) % n in owners
        ]
        battle.fought = True
        self.phase = "battle"
        for seat in battle.participants:
            if not self.clans[seat].hand:
                battle.played[seat] = None
        if not self.to_move():
            self._reveal()

    def _reveal(self) -> None:
        battle = self.battle
        assert battle is not None
        battle.revealed = True
        self.phase = "resolving"
        self.events.append(
            Event(
                "revealed",
                {"region": battle.region, "cards": {str(s): battle.played.get(s) for s in battle.participants}},
            )
        )
        content = self.config.content
        tasks: list[Task] = []
        for seat in battle.participants:
            card_id = battle.played.get(seat)
            if card_id is not None:
                card = content.cards[card_id]
                if card.kind == "battle":
                    tasks += [("effect", seat, e, f"{card.name} revealed") for e in card.effects if e.when == "reveal"]
            for owner, kind in list(self.board[battle.region]):
                if owner == seat and kind in content.monsters:
                    monster = content.monsters[kind]
                    tasks += [("ability", seat, kind, e) for e in monster.abilities if e.do == "reveal_destroy"]
        tasks.append(("resolve",))
        tasks.append(("end_contest",))
        self._then(*tasks)
        self._run()

    def battle_strength(self, seat: int) -> int:
        """A participant's total STR: figures, card and effects."""
        battle = self.battle
        assert battle is not None
        total = self.strength_in(battle.region, seat) + battle.bonus.get(seat, 0)
        card_id = battle.played.get(seat)
        if card_id is not None:
            card = self.card(card_id)
            if card.kind == "battle":
                total += card.strength
        return total

    def _task_resolve(self) -> None:
        battle = self.battle
        assert battle is not None
        content = self.config.content
        totals = {seat: self.battle_strength(seat) for seat in battle.participants}
        best = max(totals.values())
        leaders = [s for s, v in totals.items() if v == best]
        winner = leaders[0] if len(leaders) == 1 else None
        battle.winner = winner
        self.events.append(
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
            clan = self.clans[seat]
            if seat == winner:
                keep = any(e.do == "keep_card" and e.when == "win" for e in effects)
                spent = any(e.do == "spent" and e.when == "win" for e in effects)
                if card_id is not None:
                    (clan.hand if keep else self.spent if spent else clan.discards).append(card_id)
                    if keep:
                        clan.known.append(card_id)
                    elif spent:
                        self.events.append(Event("spent", {"seat": seat, "card": card_id}))
                clan.battles_won += 1
                continue
            if card_id is not None:
                clan.hand.append(card_id)
                clan.known.append(card_id)
            saves = sum(int(e.get("count")) for e in effects if e.do == "save" and e.when == "lose")
            # The strongest are saved first; between equally strong figures, monsters, then
            # Elites, then Warriors (a fixed order: the board's order is not in any view).
            figures = sorted(
                (f for f in self.board[battle.region] if f[0] == seat),
                key=lambda f: (-self.figure_strength(seat, f[1]), _SAVE_RANK.get(f[1], 0), f[1]),
            )
            for figure in figures:
                if saves > 0:
                    saves -= 1
                    self.board[battle.region].remove(figure)
                    if figure[1] == "warrior":
                        clan.warriors += 1
                    elif figure[1] == "elite":
                        clan.elites += 1
                    else:
                        clan.monsters.append(figure[1])
                    self.events.append(Event("saved", {"seat": seat, "figure": figure[1], "region": battle.region}))
                else:
                    self._kill(figure, battle.region, winner, "lost the battle")
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
                defeat = self.passives(seat, "defeat_glory")
                if defeat:
                    after.append(("effect", seat, Effect("glory", {"amount": defeat}), "defeat upgrade"))
        if winner is not None:
            if battle.kills.get(winner, 0) and self.passives(winner, "kill_rage"):
                self.clans[winner].rage += self.passives(winner, "kill_rage")
            if winner == battle.attacker:
                after.append(("reward",))
            after.append(("battle_glory", winner))
        self._then(*after)

    def _task_battle_glory(self, winner: int) -> None:
        battle = self.battle
        assert battle is not None
        content = self.config.content
        glory = self.stat_value(winner, "axes") + self.passives(winner, "battle_glory")
        for owner, kind in self.board[battle.region]:
            if owner == winner and kind in content.monsters:
                bonus = self.monster_has(kind, "win_glory")
                if bonus is not None:
                    glory += int(bonus.get("amount"))
        self._gain_glory(winner, glory, "battle won")

    def _task_reward(self) -> None:
        battle = self.battle
        assert battle is not None
        if battle.winner != battle.attacker:
            return
        content = self.config.content
        seat = battle.attacker
        region = battle.region
        self.claimed.add(region)
        self.clans[seat].contests_won += 1
        self.events.append(Event("claimed", {"seat": seat, "region": region}))
        self._gain_glory(seat, self.passives(seat, "contest_glory"), "contest won")
        if region in self.gods_at:
            god = content.gods[self.gods_at[region]]
            self._then(*[("effect", seat, effect, f"{god.name}'s favour") for effect in god.bonus])
        else:
            reward = content.regions[region].reward
            self._then(("effect", seat, Effect("raise", {"stat": reward}), f"{content.regions[region].name}'s reward"))

    def _task_end_contest(self) -> None:
        self.battle = None
        self.phase = "action"
        self._then(("next_turn",))

    # Legal actions ----------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[BRAction]:
        """Every legal action of ``seat`` now."""
        if seat not in self.to_move():
            return []
        if self.decision is not None:
            return self._decision_actions()
        clan = self.clans[seat]
        if self.phase == "draft":
            return [BRAction("pick", c) for c in sorted(set(self.packs[seat]))]
        if self.phase == "battle":
            if not clan.hand:
                return [BRAction("play", "none")]
            return [BRAction("play", c) for c in sorted(set(clan.hand))]
        if self.phase == "keep":
            drops = [BRAction("drop", c) for c in sorted(set(clan.hand))]
            return [*drops, KEEP] if len(clan.hand) <= KEEP_AT_AGE_END else drops
        if self.phase == "call":
            return [BRAction("join", kind, region) for kind, region in self.callable_figures(seat)] + [STAY]
        if self.phase == "march":
            return self._march_actions(seat)
        return self._turn_actions(seat)

    def _turn_actions(self, seat: int) -> list[BRAction]:
        clan = self.clans[seat]
        content = self.config.content
        actions: list[BRAction] = []
        if clan.rage >= 1:
            regions = self.summon_regions()
            kinds = (["warrior"] if clan.warriors else []) + (["elite"] if clan.elites else [])
            kinds += sorted(set(clan.monsters))
            for kind in kinds:
                actions += [_action("summon", kind, region) for region in regions]
            occupied = {region for region, figures in self.board.items() for owner, _ in figures if owner == seat}
            actions += [_action("march", region) for region in content.regions if region in occupied]
            slots_free = len(clan.upgrades) + len(clan.quests) < SLOTS
            bases = self._free_bases(seat)
            for card_id in sorted(set(clan.hand)):
                card = content.cards[card_id]
                if not slots_free:
                    break
                if card.kind == "upgrade" and clan.rage >= card.strength:
                    if card.upgrade == "monster":
                        assert card.monster is not None
                        if bases[content.monsters[card.monster].base] <= 0 or card.monster in clan.owned_monsters:
                            continue
                    actions.append(BRAction("upgrade", card_id))
                elif card.kind == "quest":
                    actions.append(BRAction("quest", card_id))
            for region in sorted(self.claimable() - self.claimed):
                if region in occupied:
                    actions.append(_action("contest", region))
        actions.append(PASS)
        return actions

    def _march_actions(self, seat: int) -> list[BRAction]:
        content = self.config.content
        assert self.march_from is not None
        actions = [
            BRAction("move", kind, to)
            for kind in sorted(set(self.march_left))
            for to in content.regions[self.march_from].neighbours
        ]
        if self.march_moved:
            actions.append(DONE)
        return actions

    def _decision_actions(self) -> list[BRAction]:
        assert self.decision is not None
        seat, kind = self.decision[0], self.decision[1]
        if kind == "raise":
            raises = [
                BRAction("raise", s)
                for s in STATS
                if self.clans[seat].steps[s] < len(self.config.content.tracks[s]) - 1
            ]
            return [*raises, NO_RAISE] if self.decision[3] else raises
        if kind == "destroy":
            battle = self.battle
            assert battle is not None
            target = self.decision[3]
            return [BRAction("destroy", str(o), k) for o, k in self._candidates(seat, battle.region, target)]
        if kind == "reinforce":
            clan = self.clans[seat]
            kinds = (["warrior"] if clan.warriors else []) + (["elite"] if clan.elites else [])
            kinds += sorted(set(clan.monsters))
            return [BRAction("reinforce", k) for k in kinds] + [SKIP]
        if kind == "kill":
            actions = []
            for region in self.config.content.regions:
                actions += [BRAction("kill", region, str(o), k) for o, k in self._candidates(seat, region, "any")]
            return [*actions, SKIP]
        return []

    # Applying --------------------------------------------------------------------------------

    def check(self, seat: int, action: BRAction) -> None:
        """Raise :class:`IllegalAction` with the reason if ``action`` is illegal now."""
        if self.finished:
            raise _illegal("the game is over", "game-over")
        if not 0 <= seat < self.num_players:
            raise _illegal(f"there is no seat {seat}", "seat")
        if seat not in self.to_move():
            raise _illegal(f"seat {seat + 1} has nothing to decide now", "turn")
        legal = self.legal_actions(seat)
        if action in legal:
            return
        raise _illegal(self._why(seat, action), "illegal")

    def _why(self, seat: int, action: BRAction) -> str:
        clan = self.clans[seat]
        content = self.config.content
        kind = action.kind
        if self.decision is not None:
            if self.decision[1] == "raise" and kind == "raise":
                if action == NO_RAISE:
                    return f"this raise ({self.decision[2]}) is not optional: choose a stat"
                return f"your {action.a} is at its last step: choose another stat"
            return f"first decide the {self.decision[1]} in progress"
        phase_wants = {
            "draft": "pick",
            "battle": "play",
            "keep": "drop or keep",
            "call": "join or stay",
            "march": "move or done",
        }
        if self.phase in phase_wants and kind not in [*phase_wants[self.phase].split(" or "), "stay", "done"]:
            return f"now is the time to {phase_wants[self.phase]}"
        if (
            kind in ("pick", "play", "drop", "upgrade", "quest")
            and action.a not in (self.packs[seat] if kind == "pick" else clan.hand)
            and action.a != "none"
        ):
            return f"you do not have the card {action.a!r} there"
        if kind in ("summon", "march", "upgrade", "quest", "contest") and clan.rage < 1:
            return "with 0 Rage you cannot take actions (only pass)"
        if kind == "summon":
            if action.b not in self.summon_regions():
                return "figures are summoned only into common regions (no god, no region token, not Valhalla)"
            return f"you have no {action.a} in your reserve"
        if kind == "upgrade":
            card = content.cards.get(action.a)
            if card is None or card.kind != "upgrade":
                return "that card is not an upgrade"
            if len(clan.upgrades) + len(clan.quests) >= SLOTS:
                return "all seven slots are full"
            if clan.rage < card.strength:
                return f"that upgrade costs {card.strength} Rage; you have {clan.rage}"
            return "no free base for that monster (3 small, 2 large)"
        if kind == "quest":
            return "that card is not a quest, or your seven slots are full"
        if kind == "keep" and self.phase == "keep":
            extra = len(clan.hand) - KEEP_AT_AGE_END
            return f"you may keep at most {KEEP_AT_AGE_END} cards: remove {extra} more first (drop:CARD)"
        if kind == "contest":
            if action.a in self.region_tokens:
                return "a region holding a region token cannot be contested"
            if action.a in self.claimed:
                return "that region's reward was claimed this Age"
            return "you need a figure in the region to contest it"
        if kind == "move":
            return "move one of the marching region's figures to an adjacent region"
        if kind == "join":
            return "join with one of your figures from a region adjacent to the battle"
        if kind == "done":
            return "move at least one figure before ending the march"
        return f"{action} is not possible now"

    def apply_quiet(self, seat: int, action: BRAction) -> None:
        """Apply an action taken from :meth:`legal_actions` without checking it again (bots)."""
        self.events = []
        self.ply += 1
        self._log.append((seat, action))
        self._do(seat, action)
        self._run()
        self.events = []

    def apply(self, seat: int, action: BRAction) -> list[Event]:
        """Apply one action for ``seat``; returns the events. Illegal actions change nothing."""
        self.check(seat, action)
        self.events = []
        self.ply += 1
        self._log.append((seat, action))
        self._do(seat, action)
        self._run()
        events = self.events
        self.events = []
        return events

    def _do(self, seat: int, action: BRAction) -> None:
        kind = action.kind
        clan = self.clans[seat]
        content = self.config.content
        if self.decision is not None:
            self._answer(seat, action)
            return
        if kind == "pick":
            self.picks[seat] = action.a
            self.events.append(Event("picked", {"seat": seat, "card": action.a}, frozenset({seat})))
            self.events.append(Event("chose", {"seat": seat, "what": "pick"}))
            if all(p is not None for s, p in enumerate(self.picks) if self.packs[s]):
                self._finish_draft_round()
            return
        if kind == "play":
            battle = self.battle
            assert battle is not None
            card = None if action.a == "none" else action.a
            if card is not None:
                clan.hand.remove(card)
                clan.forget()
            battle.played[seat] = card
            self.events.append(Event("my-card", {"seat": seat, "card": action.a}, frozenset({seat})))
            self.events.append(Event("chose", {"seat": seat, "what": "play"}))
            if not self.to_move():
                self._reveal()
            return
        if kind == "drop":
            clan.hand.remove(action.a)
            clan.forget()
            self.removed.append(action.a)
            self.events.append(Event("dropped", {"seat": seat, "card": action.a}, frozenset({seat})))
            if not clan.hand:
                self.keeping[seat] = False
            return
        if kind == "keep":
            self.keeping[seat] = False
            self.events.append(Event("kept", {"seat": seat, "count": len(clan.hand)}))
            return
        if kind == "join" or kind == "stay":
            battle = self.battle
            assert battle is not None
            if kind == "join":
                figure = (seat, action.a)
                self.board[action.b].remove(figure)
                self.board[battle.region].append(figure)
                battle.joined[seat] = battle.joined.get(seat, 0) + 1
                self.events.append(
                    Event("joined", {"seat": seat, "figure": action.a, "from": action.b, "region": battle.region})
                )
                if not self.callable_figures(seat):
                    battle.calls.pop(0)
            else:
                battle.calls.pop(0)
                self.events.append(Event("stayed", {"seat": seat, "region": battle.region}))
            self._skip_callers()
            return
        if kind == "move":
            assert self.march_from is not None
            figure = (seat, action.a)
            self.board[self.march_from].remove(figure)
            self.board[action.b].append(figure)
            self.march_left.remove(action.a)
            self.march_moved += 1
            self.events.append(
                Event("moved", {"seat": seat, "figure": action.a, "from": self.march_from, "to": action.b})
            )
            if not self.march_left:
                self._end_turn()
            return
        if kind == "done":
            self._end_turn()
            return
        if kind == "pass":
            clan.rage = 0
            clan.passed = True
            self.events.append(Event("passed", {"seat": seat}))
            self._end_turn()
            return
        if kind == "summon":
            cost = 0 if action.a in content.monsters else 1
            clan.rage -= cost
            if action.a == "warrior":
                clan.warriors -= 1
            elif action.a == "elite":
                clan.elites -= 1
            else:
                clan.monsters.remove(action.a)
            self.board[action.b].append((seat, action.a))
            self.events.append(Event("summoned", {"seat": seat, "figure": action.a, "region": action.b}))
            self._summon_rage(seat, action.a)
            self._end_turn()
            return
        if kind == "march":
            # A free march is one per Action phase: free actions without end would let a
            # clan march forever once everybody else is out of Rage.
            if self.has(seat, "free_march") and not clan.free_march_used:
                clan.free_march_used = True
            else:
                clan.rage -= 1
            self.march_from = action.a
            self.march_left = sorted(k for o, k in self.board[action.a] if o == seat)
            self.march_moved = 0
            self.phase = "march"
            self.events.append(Event("march", {"seat": seat, "region": action.a}))
            return
        if kind == "upgrade":
            upgrade = content.cards[action.a]
            clan.rage -= upgrade.strength
            clan.hand.remove(action.a)
            clan.forget(action.a)
            clan.upgrades.append(action.a)
            if upgrade.monster is not None:
                clan.owned_monsters.append(upgrade.monster)
                clan.monsters.append(upgrade.monster)
            self.events.append(Event("upgraded", {"seat": seat, "card": action.a}))
            self._end_turn()
            return
        if kind == "quest":
            clan.hand.remove(action.a)
            clan.forget()
            clan.quests.append(action.a)
            self.events.append(Event("committed", {"seat": seat}))
            self.events.append(Event("committed-card", {"seat": seat, "card": action.a}, frozenset({seat})))
            self._end_turn()
            return
        if kind == "contest":
            self._start_contest(seat, action.a)
            return

    def _summon_rage(self, seat: int, kind: str) -> None:
        """A monster that gives Rage when summoned (by the Summon action or an effect) does so."""
        if kind not in self.config.content.monsters:
            return
        rage = self.monster_has(kind, "summon_rage")
        if rage is not None:
            self.clans[seat].rage += int(rage.get("amount"))
            why = f"{self.config.content.monsters[kind].name} summoned"
            self.events.append(Event("rage", {"seat": seat, "amount": int(rage.get("amount")), "why": why}))

    def _end_turn(self) -> None:
        self.phase = "action"
        self.march_from = None
        self.march_left = []
        self.tasks.insert(0, ("next_turn",))

    def _answer(self, seat: int, action: BRAction) -> None:
        assert self.decision is not None
        decision = self.decision
        self.decision = None
        kind = decision[1]
        if kind == "raise":
            if action == NO_RAISE:
                self.events.append(Event("no-raise", {"seat": seat, "why": str(decision[2])}))
            else:
                self._raise(seat, action.a, str(decision[2]))
        elif kind == "destroy":
            _, _, count, target, why = decision
            battle = self.battle
            assert battle is not None
            self._kill((int(action.a), action.b), battle.region, seat, why)
            self._then(("destroy", seat, count - 1, target, why))
        elif kind == "reinforce":
            _, _, region, count = decision
            if action.kind == "skip":
                return
            clan = self.clans[seat]
            if action.a == "warrior":
                clan.warriors -= 1
            elif action.a == "elite":
                clan.elites -= 1
            else:
                clan.monsters.remove(action.a)
            self.board[region].append((seat, action.a))
            self.events.append(Event("reinforced", {"seat": seat, "figure": action.a, "region": region}))
            self._summon_rage(seat, action.a)
            self._then(("reinforce", seat, region, count - 1))
        elif kind == "kill":
            if action.kind == "skip":
                return
            count = decision[2]
            self._kill((int(action.b), action.c), action.a, seat, "killed anywhere")
            self._then(("kill_anywhere", seat, count - 1))

    # Copies, views, fingerprints -----------------------------------------------------------------

    def clone(self) -> BloodRageState:
        """An independent copy."""
        other = BloodRageState.__new__(BloodRageState)
        other.config = self.config
        other.rng = self.rng.clone()
        other._seed = self._seed
        other.age = self.age
        other.phase = self.phase
        other.first = self.first
        other.current = self.current
        other.gods = self.gods[:]
        other.region_tokens = set(self.region_tokens)
        other.gods_at = dict(self.gods_at)
        other.claimed = set(self.claimed)
        other.board = {r: figures[:] for r, figures in self.board.items()}
        other.clans = [c.copy() for c in self.clans]
        other.deck = self.deck[:]
        other.monsters_in_play = self.monsters_in_play
        other.packs = [p[:] for p in self.packs]
        other.picks = self.picks[:]
        other.keeping = self.keeping[:]
        other.killpiles = [p[:] for p in self.killpiles]
        other.feast = self.feast[:]
        other.removed = self.removed[:]
        other.spent = self.spent[:]
        other.march_from = self.march_from
        other.march_left = self.march_left[:]
        other.march_moved = self.march_moved
        other.battle = self.battle.copy() if self.battle is not None else None
        other.tasks = self.tasks[:]
        other.decision = self.decision
        other.finished = self.finished
        other.ply = self.ply
        other._log = self._log[:]
        other.events = []
        return other

    def fingerprint(self) -> Hashable:
        """The complete state, hidden parts and RNG included."""
        return (
            self.rng.getstate(), self.age, self.phase, self.first, self.current, tuple(self.gods),
            tuple(sorted(self.region_tokens)), tuple(sorted(self.gods_at.items())), tuple(sorted(self.claimed)),
            tuple((r, tuple(sorted(f))) for r, f in sorted(self.board.items())), tuple(c.key() for c in self.clans),
            tuple(self.deck), self.monsters_in_play, tuple(map(tuple, self.packs)), tuple(self.picks),
            tuple(self.keeping),
            tuple(tuple(sorted(p)) for p in self.killpiles), tuple(sorted(self.feast)), tuple(self.removed),
            tuple(self.spent),
            self.march_from,
            tuple(self.march_left), self.march_moved, self.battle.key() if self.battle else None,
            tuple(repr(t) for t in self.tasks), self.decision, self.finished, self.ply,
        )  # fmt: skip

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know: the board and every public fact, plus its own cards."""
        if seat is not None and not 0 <= seat < self.num_players:
            raise ValueError(f"there is no seat {seat}")
        content = self.config.content
        clans = []
        for index, clan in enumerate(self.clans):
            entry: dict[str, Any] = {
                "seat": index,
                "glory": clan.glory,
                "glory_reached": clan.glory_reached,
                "rage": clan.rage,
                "steps": dict(clan.steps),
                "stats": {s: content.tracks[s][clan.steps[s]] for s in STATS},
                "upgrades": list(clan.upgrades),
                "quests": len(clan.quests),
                "hand": len(clan.hand),
                "drafted": len(clan.drafted),
                "saved": len(clan.saved),
                "discards": list(clan.discards),
                "reserve": {"warrior": clan.warriors, "elite": clan.elites, "monsters": sorted(clan.monsters)},
                "monsters": list(clan.owned_monsters),
                "passed": clan.passed,
                "free_march_used": clan.free_march_used,
                "call_two": self.has(index, "call_two"),
                "battles_won": clan.battles_won,
                "battles_lost": clan.battles_lost,
                "contests_won": clan.contests_won,
                "keeping": self.keeping[index],
                # cards still to remove before the clan may keep the rest (end of an Age)
                "drops": max(0, len(clan.hand) - KEEP_AT_AGE_END) if self.keeping[index] else 0,
                "known": sorted(clan.known),
            }
            clans.append(entry)
        data: dict[str, Any] = {
            "game": "bloodrage-valhalla",
            "content": content.id,
            "content_label": content.label,
            "seat": seat,
            "options": self.game.info.public_options(self.config.options),  # a pack by reference
            "age": self.age,
            "phase": self.phase,
            "first": self.first,
            "current": self.current,
            "gods": list(self.gods),
            "gods_at": dict(self.gods_at),
            "region_tokens": sorted(self.region_tokens),
            "claimed": sorted(self.claimed),
            "board": {r: sorted([o, k] for o, k in figures) for r, figures in self.board.items()},
            "killpiles": [sorted([o, k] for o, k in pile) for pile in self.killpiles],
            "feast": sorted([o, k] for o, k in self.feast),
            "clans": clans,
            "deck": len(self.deck),
            "monsters_in_play": list(self.monsters_in_play),
            "strength": {
                r: {str(seat): self.strength_in(r, seat) for seat in sorted({o for o, _ in figures})}
                for r, figures in self.board.items()
                if figures
            },
            "removed": len(self.removed),
            "spent": list(self.spent),
            "tasks": [task_json(t) for t in self.tasks],
            "to_move": list(self.to_move()),
            "ply": self.ply,
            "finished": self.finished,
            "march": None
            if self.march_from is None
            else {"from": self.march_from, "left": sorted(self.march_left), "moved": self.march_moved},
            "picked": [p is not None for p in self.picks],
            "packs": [len(p) for p in self.packs],
            # how many cards each clan keeps in this Age's draft (5, fewer if the deck ran short)
            "draft_keep": len(self.clans[0].drafted) + len(self.packs[0]) - 1 if self.packs[0] else 0,
        }
        battle = self.battle
        if battle is not None:
            data["battle"] = {
                "region": battle.region,
                "attacker": battle.attacker,
                "calls": list(battle.calls),
                "joined": {str(k): v for k, v in battle.joined.items()},
                "participants": list(battle.participants),
                "chosen": sorted(battle.played),
                "empty": sorted(k for k, v in battle.played.items() if v is None and not self.clans[k].hand),
                "revealed": battle.revealed,
                "cards": {str(k): v for k, v in battle.played.items()} if battle.revealed else {},
                "bonus": {str(k): v for k, v in battle.bonus.items()},
                "kills": {str(k): v for k, v in battle.kills.items()},
                "losses": {str(k): v for k, v in battle.losses.items()},
                "fought": battle.fought,
                "winner": battle.winner,
            }
        if self.decision is not None:
            data["decision"] = {"seat": self.decision[0], "type": self.decision[1], "data": list(self.decision)}
        if self.finished:
            data["places"] = self.ranking()
        if seat is not None:
            clan = self.clans[seat]
            data["hand"] = sorted(clan.hand)
            data["my_quests"] = list(clan.quests)
            data["my_drafted"] = list(clan.drafted)
            data["my_saved"] = list(clan.saved)
            data["pack"] = sorted(self.packs[seat])
            data["my_pick"] = self.picks[seat]
            if battle is not None and seat in battle.played and not battle.revealed:
                data["my_card"] = battle.played[seat]
        return data
