"""The Blood Rage: Valhalla game state: one position, and the protocol around it.

The game runs as a queue of *tasks* (reveal an effect, resolve a battle, start the next
turn, check a quest, ...). Tasks run until one needs a decision: a seat's action (Action
phase, Call to Battle, a stat of choice, a target), or several seats at once (draft
picks, battle cards, discarding down to three at the end of an Age). The action that
answers it continues the queue. Rules: ``docs/rules/bloodrage-valhalla.md``.

The rules are split by concern: the pieces of a position in
:mod:`~meadhall.games.bloodrage_valhalla.data`, the course of an Age in
:mod:`~meadhall.games.bloodrage_valhalla.phases`, contests in
:mod:`~meadhall.games.bloodrage_valhalla.contests`, what effects do in
:mod:`~meadhall.games.bloodrage_valhalla.effects`, one class per kind of decision in
:mod:`~meadhall.games.bloodrage_valhalla.decisions` and views in
:mod:`~meadhall.games.bloodrage_valhalla.view`. This module holds the state, its queries
and the protocol; it also offers the names other code imports from here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.flow import Decision, FlowState
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla import contests, decisions, effects, phases
from meadhall.games.bloodrage_valhalla.content import Card, Content, Effect
from meadhall.games.bloodrage_valhalla.data import (
    DRAFT_HAND,
    ELITES,
    KEEP_AT_AGE_END,
    LARGE_BASES,
    SLOTS,
    SMALL_BASES,
    START_RAGE_STEP,
    WARRIORS,
    Battle,
    BloodRageConfig,
    Clan,
    Figure,
    Task,
    effect_json,
    task_from_json,
    task_json,
)
from meadhall.games.bloodrage_valhalla.decisions import PHASES, PhaseDecision
from meadhall.games.bloodrage_valhalla.notation import BRAction
from meadhall.games.bloodrage_valhalla.view import view as _view

__all__ = [
    "DRAFT_HAND",
    "ELITES",
    "KEEP_AT_AGE_END",
    "LARGE_BASES",
    "SLOTS",
    "SMALL_BASES",
    "START_RAGE_STEP",
    "WARRIORS",
    "Battle",
    "BloodRageConfig",
    "BloodRageState",
    "Clan",
    "Figure",
    "Task",
    "effect_json",
    "task_from_json",
    "task_json",
]

#: Every task of the queue by name: the course of an Age, contests, effects, asking a seat.
TASKS: dict[str, Callable[..., Any]] = {**phases.TASKS, **contests.TASKS, **effects.TASKS, **decisions.TASKS}

#: Phases in which several seats decide at once: the queue waits for all of them.
_TOGETHER = frozenset(("draft", "battle", "keep"))


class BloodRageState(FlowState[BRAction]):
    """A Blood Rage: Valhalla position.

    A core decision flow (:class:`~meadhall.core.flow.FlowState`): a queue of tasks and
    one pending decision at a time, asked by an effect (:mod:`.decisions`). Beyond it,
    the phases where seats act are decisions too (a turn, a march, a Call to Battle),
    and in three of them several seats decide at once (the draft, battle cards, keeping
    cards): the queue waits for all of them. So :meth:`to_move`, :meth:`legal_actions`,
    :meth:`check` and :meth:`_step` ask the pending decision first, else the phase's
    decision (:data:`~meadhall.games.bloodrage_valhalla.decisions.PHASES`).
    """

    #: Events that show a seat what was hidden from it: packs dealt and passed, battle cards and
    #: quests revealed, and a card drawn from the deck (its drawer sees it).
    revealing_events = frozenset({"dealt", "packs-passed", "revealed", "quest", "draft-over", "drew"})
    over_refusal = ("the game is over", "game-over")
    config: BloodRageConfig

    def __init__(self, config: BloodRageConfig, seed: int) -> None:
        content = config.content
        n = config.players
        self._begin(n, config.options, seed)
        self.config = config
        self.rng = Rng(seed)
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
        self.queue: list[Task] = []
        self.decision: Decision | None = None
        self.finished = False
        self.ply = 0
        #: ``(ply, seat)``: the action that made ``ply`` changed only ``seat``'s clan and cards, the game's
        #: counters and who is to move, not the board, kill piles, gods, region tokens or other clans (a pick,
        #: a battle card or a card dropped while others still choose): the observation writer of :mod:`.spaces`,
        #: which saw the ply before, compares only those. None until such an action.
        self.only_seat: tuple[int, int] | None = None
        #: The events of the setup or of the action being applied; ``None`` while nobody
        #: reads them (bots, and between actions), so that none is built.
        self.events: list[Event] | None = []
        phases.setup(self)

    # Protocol basics ----------------------------------------------------------------------

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
            return (self.decision.seat,)
        phase = self.phase
        # lists made into tuples, not generators: this runs several times a step
        if phase == "draft":
            picks, packs = self.picks, self.packs
            return tuple([s for s in range(self.num_players) if picks[s] is None and packs[s]])
        if phase == "battle" and self.battle is not None:
            played = self.battle.played
            return tuple([s for s in self.battle.participants if s not in played])
        if phase == "keep":
            keeping = self.keeping
            return tuple([s for s in range(self.num_players) if keeping[s]])
        if phase in ("action", "march"):
            return (self.current,)
        if phase == "call" and self.battle is not None and self.battle.calls:
            return (self.battle.calls[0],)
        return ()

    # Board queries ------------------------------------------------------------------------

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

    def free_bases(self, seat: int) -> dict[str, int]:
        """The monster bases a clan has left, by size (3 small, 2 large in all)."""
        content = self.config.content
        used = {"small": 0, "large": 0}
        for monster in self.clans[seat].owned_monsters:
            used[content.monsters[monster].base] += 1
        return {"small": SMALL_BASES - used["small"], "large": LARGE_BASES - used["large"]}

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

    # The task queue -------------------------------------------------------------------------

    def _run(self) -> None:
        """Run queued tasks until a seat must decide, several seats must, or the game is over."""
        while self.decision is None and self.queue and not self.finished:
            if self.phase in _TOGETHER and self.to_move():
                return  # several seats decide at once: wait for all of them
            task = self.queue.pop(0)
            TASKS[task[0]](self, *task[1:])

    # Decisions --------------------------------------------------------------------------------

    def deciding(self) -> Decision | PhaseDecision:
        """What is decided now: the pending decision, else the phase's decision."""
        if self.decision is not None:
            return self.decision
        return PHASES[self.phase]

    def legal_actions(self, seat: int) -> list[BRAction]:
        """Every legal action of ``seat`` now."""
        if seat not in self.to_move():
            return []
        actions: list[BRAction] = self.deciding().actions(self, seat)
        return actions

    def check(self, seat: int, action: BRAction) -> None:
        """Raise :class:`IllegalAction` with the reason if ``action`` is illegal now."""
        if self.finished:
            raise IllegalAction(*self.over_refusal)
        if not 0 <= seat < self.num_players:
            raise IllegalAction(f"there is no seat {seat}", "seat")
        if seat not in self.to_move():
            raise IllegalAction(f"seat {seat + 1} has nothing to decide now", "turn")
        deciding = self.deciding()
        if action not in deciding.actions(self, seat):
            raise IllegalAction(deciding.why_not(self, seat, action), "illegal")

    def _checked_quiet(self, seat: int, action: BRAction) -> None:
        """The quiet path (bots) applies actions taken from :meth:`legal_actions`: no check again."""
        del seat, action

    def _step(self, seat: int, action: BRAction, plan: object, events: list[Event] | None) -> None:
        """The rules of one checked action: the decision settles it, then the queue runs on."""
        self.events = events
        self.ply += 1
        if self.decision is not None:
            super()._step(seat, action, plan, events)  # settles the pending decision, runs the queue
        else:
            PHASES[self.phase].settle(self, seat, action)
            self._run()
        self.events = None

    # Copies, views, fingerprints -----------------------------------------------------------------

    def clone(self) -> BloodRageState:
        """An independent copy."""
        other = BloodRageState.__new__(BloodRageState)
        self._copy_bookkeeping(other)
        other.config = self.config
        other.rng = self.rng.clone()
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
        other.queue = self.queue[:]
        other.decision = self.decision
        other.finished = self.finished
        other.ply = self.ply
        other.only_seat = self.only_seat
        other.events = None
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
            tuple(repr(t) for t in self.queue), self.decision, self.finished, self.ply,
        )  # fmt: skip

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know: the board and every public fact, plus its own cards."""
        return _view(self, seat)
