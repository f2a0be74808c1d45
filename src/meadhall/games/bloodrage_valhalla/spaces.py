"""Blood Rage: Valhalla's encodings for learning programs (:mod:`meadhall.core.spaces`).

Actions are enumerated from the content pack: every kind of
:mod:`meadhall.games.bloodrage_valhalla.notation` with every argument the pack allows
(cards, regions, figure kinds, seats), about 2,080 indices with the default pack.
Observations are read from a seat's view, seat-relative (the seat first, then the next
seats in seat order), in the blocks of :func:`observation_space` (docs/rl.md lists them).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any

from meadhall.core.spaces import (
    Block,
    EnumeratedActions,
    FastObservations,
    GameSpaces,
    ObservationSpace,
    counts,
    one_hot,
    relative,
)
from meadhall.games.bloodrage_valhalla.content import FIGURE_KINDS, PLAYERS_MAX, STATS, Content
from meadhall.games.bloodrage_valhalla.data import KEEP_AT_AGE_END
from meadhall.games.bloodrage_valhalla.notation import BRAction
from meadhall.games.bloodrage_valhalla.packs import content_of

#: Bump when an index may name another action (or a block changes), so stored policies notice.
ACTION_VERSION = "bloodrage-valhalla-actions/1"
OBSERVATION_VERSION = "bloodrage-valhalla-observation/1"

PHASES = ("draft", "action", "march", "call", "battle", "resolving", "quest", "keep", "over")
AGES = (1, 2, 3)
_WORDS = ("done", "pass", "stay", "skip", "keep")
_CARD_KINDS = ("pick", "upgrade", "quest", "play", "drop")
_CLAN_NUMBERS = (
    ("glory", 100.0), ("rage", 10.0), ("quests", 3.0), ("hand", 10.0), ("drafted", 10.0), ("saved", 3.0),
    ("passed", 1.0), ("free_march_used", 1.0), ("call_two", 1.0), ("battles_won", 10.0),
    ("battles_lost", 10.0), ("contests_won", 10.0), ("keeping", 1.0), ("drops", 3.0),
)  # fmt: skip
_SCALE = 10.0


def figures(content: Content) -> list[str]:
    """Every figure kind: warriors, elites, then the pack's monsters."""
    return [*FIGURE_KINDS, *content.monsters]


def actions(content: Content) -> list[BRAction]:
    """Every action the pack allows, in index order."""
    cards = list(content.cards)
    regions = list(content.regions)
    kinds = figures(content)
    found = [BRAction(word) for word in _WORDS]
    for kind in _CARD_KINDS:
        found += [BRAction(kind, card) for card in cards]
    found.append(BRAction("play", "none"))
    found += [BRAction("raise", stat) for stat in (*STATS, "none")]
    for kind in ("summon", "join"):
        found += [BRAction(kind, figure, region) for figure in kinds for region in regions]
    for kind in ("march", "contest"):
        found += [BRAction(kind, region) for region in regions]
    found += [BRAction("move", figure, region) for figure in kinds for region in regions]
    found += [BRAction("destroy", figure, owner=seat) for seat in range(PLAYERS_MAX) for figure in kinds]
    found += [
        BRAction("kill", region, figure, owner=seat)
        for region in regions
        for seat in range(PLAYERS_MAX)
        for figure in kinds
    ]
    found += [BRAction("reinforce", figure) for figure in kinds]
    return found


def observation_space(content: Content, players: int) -> ObservationSpace:
    """The blocks of a Blood Rage observation (seat slots: the most a table has)."""
    cards = list(content.cards)
    regions = list(content.regions)
    gods = list(content.gods)
    kinds = figures(content)
    slots = PLAYERS_MAX

    def clan(view: Mapping[str, Any], seat: int, offset: int) -> Mapping[str, Any] | None:
        return view["clans"][(seat + offset) % players] if offset < players else None

    def game(view: Mapping[str, Any], seat: int) -> list[float]:
        march = view["march"]
        return [
            *one_hot(view["age"], AGES),
            *one_hot(view["phase"], PHASES),
            *relative(view["first"], seat, players, slots),
            *relative(view["current"], seat, players, slots),
            view["deck"] / 100.0,
            view["removed"] / _SCALE,
            view["draft_keep"] / _SCALE,
            float(view["finished"]),
            float(march is not None),
            *(one_hot(march["from"], regions) if march else [0.0] * len(regions)),
            *(counts(march["left"], kinds) if march else [0.0] * len(kinds)),
        ]

    def gods_block(view: Mapping[str, Any], seat: int) -> list[float]:
        rows = counts(view["gods"], gods)
        for region in regions:
            rows += one_hot(view["gods_at"].get(region), gods)
        return rows

    def region_block(view: Mapping[str, Any], seat: int) -> list[float]:
        return [*counts(view["region_tokens"], regions), *counts(view["claimed"], regions)]

    def board(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for region in regions:
            grid = [[0.0] * len(kinds) for _ in range(slots)]
            for owner, figure in view["board"].get(region, []):
                if figure in kinds:
                    grid[(owner - seat) % players][kinds.index(figure)] += 1.0 / _SCALE
            rows += [value for row in grid for value in row]
        return rows

    def killpiles(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            pile = view["killpiles"][(seat + offset) % players] if offset < players else []
            grid = [0.0] * (slots * len(kinds))
            for owner, figure in pile:
                if figure in kinds:
                    grid[((owner - seat) % players) * len(kinds) + kinds.index(figure)] += 1.0 / _SCALE
            rows += grid
        return rows

    def clans(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            shown = clan(view, seat, offset)
            if shown is None:
                rows += [0.0] * (len(_CLAN_NUMBERS) + 2 * len(STATS) + 2 + len(kinds))
                continue
            rows += [float(shown[name]) / scale for name, scale in _CLAN_NUMBERS]
            rows += [shown["steps"][stat] / 6.0 for stat in STATS]
            rows += [shown["stats"][stat] / _SCALE for stat in STATS]
            reserve = shown["reserve"]
            rows += [reserve["warrior"] / _SCALE, reserve["elite"] / _SCALE]
            rows += counts(shown["monsters"], kinds)
        return rows

    def clan_cards(key: str) -> Callable[[Mapping[str, Any], int], list[float]]:
        """A block of each clan's face-up cards under ``key`` (upgrades, discards), counted per card."""

        def block(view: Mapping[str, Any], seat: int) -> list[float]:
            rows: list[float] = []
            for offset in range(slots):
                shown = clan(view, seat, offset)
                rows += counts(shown[key], cards) if shown is not None else [0.0] * len(cards)
            return rows

        return block

    def own(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for key in ("hand", "pack", "my_quests", "my_drafted", "my_saved"):
            rows += counts(view.get(key) or [], cards)
        rows += counts(view["clans"][seat]["known"], cards)
        rows += one_hot(view.get("my_pick"), cards)
        return rows

    def seats(view: Mapping[str, Any], seat: int) -> list[float]:
        rows: list[float] = []
        for offset in range(slots):
            if offset >= players:
                rows += [0.0, 0.0, 0.0]
                continue
            other = (seat + offset) % players
            rows += [float(other in view["to_move"]), float(view["picked"][other]), view["packs"][other] / _SCALE]
        return rows

    canonical = _Canonical(content, players)
    fast = FastObservations(canonical.size, canonical.gather, lambda buffer: _Writer(content, canonical, buffer))
    return ObservationSpace(
        (
            Block("game", (len(AGES) + len(PHASES) + 2 * slots + 5 + len(regions) + len(kinds),), game),
            Block("gods", (1 + len(regions), len(gods)), gods_block),
            Block("regions", (2, len(regions)), region_block),
            Block("board", (len(regions), slots, len(kinds)), board),
            Block("killpiles", (slots, slots, len(kinds)), killpiles),
            Block("clans", (slots, len(_CLAN_NUMBERS) + 2 * len(STATS) + 2 + len(kinds)), clans),
            Block("upgrades", (slots, len(cards)), clan_cards("upgrades")),
            Block("discards", (slots, len(cards)), clan_cards("discards")),
            Block("own_cards", (7, len(cards)), own),
            Block("seats", (slots, 3), seats),
        ),
        OBSERVATION_VERSION,
        fast,
    )


def spaces(options: Mapping[str, Any], players: int) -> GameSpaces:
    """Blood Rage's spaces for normalized ``options`` and ``players`` seats."""
    content = content_of(options)
    return GameSpaces(
        EnumeratedActions(actions(content), f"{ACTION_VERSION}:{content.id}"),
        observation_space(content, players),
    )


# The fast path: observations written straight from the state (FastObservations) ------------------


def _tenths(count: int) -> float:
    """``count`` times ``1.0 / _SCALE`` added up one by one, as :func:`counts` adds them (the same float)."""
    if count < len(_TENTHS):
        return _TENTHS[count]
    total = 0.0
    for _ in range(count):
        total += 1.0 / _SCALE
    return total


#: The fields of a clan that its row of numbers shows as they are (read at once).
_CLAN_FIELDS = attrgetter(
    "glory", "rage", "passed", "free_march_used", "battles_won", "battles_lost", "contests_won", "warriors", "elites"
)

#: What a writer compares a part it has not written yet with (equal to nothing else).
_UNWRITTEN = object()

_TENTHS: list[float] = []
_TENTHS += [_tenths(count) for count in range(64)]


class _Canonical:
    """Where each value lies in the canonical buffer: the blocks by absolute seat, every seat's own cards.

    The blocks of :func:`observation_space` in the same order, with each seat slot
    replaced by the ``players`` seats in seat order (``board``: region, owner, figure;
    ``killpiles``: pile, owner, figure), ``own_cards`` once per seat and a last float that
    is always 0. :meth:`gather` maps a seat's observation onto it.
    """

    def __init__(self, content: Content, players: int) -> None:
        self.players = p = players
        self.cards = c = len(content.cards)
        self.regions = r = len(content.regions)
        self.kinds = k = len(figures(content))
        self.gods = g = len(content.gods)
        self.width = w = len(_CLAN_NUMBERS) + 2 * len(STATS) + 2 + k
        self.game = 0
        self.first = len(AGES) + len(PHASES)
        self.current = self.first + p
        self.scalars = self.current + p  # deck, removed, draft_keep, finished, march
        self.march_from = self.scalars + 5
        self.march_left = self.march_from + r
        self.gods_at = self.march_left + k  # counts of gods, then one row per region
        self.region_rows = self.gods_at + (1 + r) * g
        self.board = self.region_rows + 2 * r
        self.killpiles = self.board + r * p * k
        self.clans = self.killpiles + p * p * k
        self.upgrades = self.clans + p * w
        self.discards = self.upgrades + p * c
        self.own = self.discards + p * c
        self.seats = self.own + p * 7 * c
        self.zero = self.seats + p * 3
        self.size = self.zero + 1

    def gather(self, seat: int) -> list[int]:
        """The canonical place of each float of ``seat``'s observation (in :func:`observation_space`'s order)."""
        p, k, c, w, zero = self.players, self.kinds, self.cards, self.width, self.zero
        slots = [(seat + offset) % p if offset < p else None for offset in range(PLAYERS_MAX)]

        def per_slot(base: int, length: int) -> list[int]:
            return [zero if other is None else base + other * length + i for other in slots for i in range(length)]

        found = list(range(self.first))
        found += [zero if other is None else self.first + other for other in slots]
        found += [zero if other is None else self.current + other for other in slots]
        found += range(self.scalars, self.region_rows + 2 * self.regions)  # the rest of game, gods, regions
        for region in range(self.regions):
            found += per_slot(self.board + region * p * k, k)
        for pile in slots:
            if pile is None:
                found += [zero] * (PLAYERS_MAX * k)
            else:
                found += per_slot(self.killpiles + pile * p * k, k)
        found += per_slot(self.clans, w)
        found += per_slot(self.upgrades, c)
        found += per_slot(self.discards, c)
        found += range(self.own + seat * 7 * c, self.own + (seat + 1) * 7 * c)
        found += per_slot(self.seats, 3)
        return found


class _Writer:
    """Keeps one game's canonical buffer (:class:`_Canonical`) up to date, block by block.

    Each part remembers what it was last written from (a key, or a copy of the lists it
    counts) and is written again only when that changed; a part written again is first
    cleared. Values are the floats :func:`observation_space` computes, the same way.
    """

    def __init__(self, content: Content, at: _Canonical, buffer: Any) -> None:
        self.at = at
        self.buffer = buffer
        self.zeros = memoryview(bytes(4 * at.size)).cast("f")
        self.content = content
        self.tracks = [content.tracks[stat] for stat in STATS]
        self.card = {card: number for number, card in enumerate(content.cards)}
        self.region = {region: number for number, region in enumerate(content.regions)}
        self.region_names = list(content.regions)
        self.kind = {kind: number for number, kind in enumerate(figures(content))}
        self.god = {god: number for number, god in enumerate(content.gods)}
        self.phase = {phase: number for number, phase in enumerate(PHASES)}
        self.age = {age: number for number, age in enumerate(AGES)}
        players = at.players
        self.game_key: Any = None
        self.gods_key: Any = None
        self.regions_key: Any = None
        self.seats_key: Any = None
        self.ply: int | None = None  # the ply of the state last written
        self.board: dict[str, list[Any] | None] = dict.fromkeys(content.regions)
        self.killpiles: list[list[Any] | None] = [None] * players
        self.clan_keys: list[Any] = [None] * players
        self.steps: list[dict[str, int] | None] = [None] * players
        self.monsters: list[list[str] | None] = [None] * players
        self.upgrades: list[list[str] | None] = [None] * players
        self.discards: list[list[str] | None] = [None] * players
        #: each seat's own rows as last written (hand, pack, quests, drafted, saved, known, pick)
        self.own: list[list[Any]] = [[_UNWRITTEN] * 7 for _ in range(players)]

    def _clear(self, start: int, length: int) -> None:
        self.buffer[start : start + length] = self.zeros[:length]

    def _counts(self, start: int, items: Any, place: dict[Any, int]) -> None:
        """Write the counts of ``items`` over ``place``'s words from ``start`` (cleared before).

        Counted in the buffer, one by one: whole numbers, exact in its floats.
        """
        buffer = self.buffer
        for item in items:
            number = place.get(item)
            if number is not None:
                buffer[start + number] += 1.0

    def write(self, state: Any) -> None:
        """Bring the buffer up to date with ``state`` (see :class:`_Writer`).

        When the rules say that the action since the state last written changed only one
        seat's clan, the game's counters and who is to move (``state.only_seat``), the
        board, kill piles, gods, region tokens and the other clans are not compared.
        """
        ply = self.ply
        self.ply = state.ply
        marker = state.only_seat
        self._game(state)
        if marker is not None and ply is not None and marker[0] == state.ply == ply + 1:
            self._clan(state, marker[1], False)
        else:
            board_changed = self._public(state)
            for seat in range(self.at.players):
                self._clan(state, seat, board_changed)
        self._seats(state)

    def _game(self, state: Any) -> None:
        """The game block: Age, phase, first and current seats, counters, the march."""
        at = self.at
        buffer = self.buffer
        players = at.players
        packs = state.packs
        clans = state.clans
        draft_keep = len(clans[0].drafted) + len(packs[0]) - 1 if packs[0] else 0
        key: Any = (
            state.age, state.phase, state.first, state.current, len(state.deck), len(state.removed), draft_keep,
            state.finished, state.march_from, tuple(state.march_left),
        )  # fmt: skip
        if key != self.game_key:
            self.game_key = key
            self._clear(0, at.gods_at)
            if state.age in self.age:
                buffer[self.age[state.age]] = 1.0
            if state.phase in self.phase:
                buffer[len(AGES) + self.phase[state.phase]] = 1.0
            if 0 <= state.first < players:
                buffer[at.first + state.first] = 1.0
            if 0 <= state.current < players:
                buffer[at.current + state.current] = 1.0
            scalars = at.scalars
            buffer[scalars] = len(state.deck) / 100.0
            buffer[scalars + 1] = len(state.removed) / _SCALE
            buffer[scalars + 2] = draft_keep / _SCALE
            buffer[scalars + 3] = float(state.finished)
            if state.march_from is not None:
                buffer[scalars + 4] = 1.0
                if state.march_from in self.region:
                    buffer[at.march_from + self.region[state.march_from]] = 1.0
                self._counts(at.march_left, state.march_left, self.kind)

    def _public(self, state: Any) -> bool:
        """The gods, region tokens, board and kill piles; whether a figure moved on the board."""
        at = self.at
        buffer = self.buffer
        players = at.players
        key = self.gods_key
        if key is None or state.gods != key[0] or state.gods_at != key[1]:
            self.gods_key = (state.gods[:], dict(state.gods_at))
            gods = at.gods
            self._clear(at.gods_at, (1 + at.regions) * gods)
            self._counts(at.gods_at, state.gods, self.god)
            for number, region in enumerate(self.region_names):
                god = self.god.get(state.gods_at.get(region))
                if god is not None:
                    buffer[at.gods_at + (1 + number) * gods + god] = 1.0
        key = self.regions_key
        if key is None or state.region_tokens != key[0] or state.claimed != key[1]:
            self.regions_key = (set(state.region_tokens), set(state.claimed))
            self._clear(at.region_rows, 2 * at.regions)
            self._counts(at.region_rows, state.region_tokens, self.region)
            self._counts(at.region_rows + at.regions, state.claimed, self.region)
        kinds = at.kinds
        board_changed: bool = state.board != self.board  # one comparison first: most actions move no figure
        for region, standing in state.board.items() if board_changed else ():
            if standing != self.board.get(region):
                board_changed = True
                self.board[region] = standing[:]
                if region not in self.region:
                    continue
                start = at.board + self.region[region] * players * kinds
                self._clear(start, players * kinds)
                self._figures(start, standing)
        for pile, fallen in enumerate(state.killpiles) if state.killpiles != self.killpiles else ():
            if fallen != self.killpiles[pile]:
                self.killpiles[pile] = fallen[:]
                start = at.killpiles + pile * players * kinds
                self._clear(start, players * kinds)
                self._figures(start, fallen)
        return board_changed

    def _clan(self, state: Any, seat: int, board_changed: bool) -> None:
        """A clan's numbers, powers, upgrades and discards, and its seat's own cards."""
        at = self.at
        cards = at.cards
        clan = state.clans[seat]
        packs = state.packs
        picks = state.picks
        upgraded = clan.upgrades != self.upgrades[seat]
        if upgraded:
            self.upgrades[seat] = clan.upgrades[:]
            self._clear(at.upgrades + seat * cards, cards)
            self._counts(at.upgrades + seat * cards, clan.upgrades, self.card)
        previous = self.clan_keys[seat]
        monsters = clan.owned_monsters != self.monsters[seat]
        # call_two comes from upgrades and from monsters standing on the board
        moved = previous is None or board_changed or upgraded or monsters
        call_two = state.has(seat, "call_two") if moved else previous[0]
        key = (
            call_two, _CLAN_FIELDS(clan), len(clan.quests), len(clan.hand), len(clan.drafted), len(clan.saved),
            state.keeping[seat],
        )  # fmt: skip
        if key != previous:
            self.clan_keys[seat] = key
            self._numbers(seat, key)
        if monsters or clan.steps != self.steps[seat]:
            self._powers(seat, clan)
        if clan.discards != self.discards[seat]:
            self.discards[seat] = clan.discards[:]
            self._clear(at.discards + seat * cards, cards)
            self._counts(at.discards + seat * cards, clan.discards, self.card)
        kept = self.own[seat]  # compared row by row: no list of the rows built for a step that changed none
        if (
            clan.hand != kept[0] or packs[seat] != kept[1] or clan.quests != kept[2] or clan.drafted != kept[3]
            or clan.saved != kept[4] or clan.known != kept[5] or picks[seat] != kept[6]
        ):  # fmt: skip
            rows = [clan.hand, packs[seat], clan.quests, clan.drafted, clan.saved, clan.known, picks[seat]]
            self._own(seat, rows)

    def _seats(self, state: Any) -> None:
        """The seats block: who is to move, who has picked, the size of each pack."""
        to_move = state.to_move()
        picks = state.picks
        packs = state.packs
        key = self.seats_key
        if key is None or to_move != key[0] or picks != key[1] or list(map(len, packs)) != key[2]:
            self.seats_key = (to_move, picks[:], list(map(len, packs)))
            start = self.at.seats
            self._clear(start, 3 * len(packs))
            buffer = self.buffer
            for seat, pack in enumerate(packs):
                buffer[start] = float(seat in to_move)
                buffer[start + 1] = float(picks[seat] is not None)
                buffer[start + 2] = len(pack) / _SCALE
                start += 3

    def _figures(self, start: int, standing: list[Any]) -> None:
        """Count figures (owner, kind) into an owner-by-kind grid from ``start`` (cleared before)."""
        kinds = self.at.kinds
        found: dict[int, int] = {}
        for owner, figure in standing:
            kind = self.kind.get(figure)
            if kind is not None:
                place = owner * kinds + kind
                found[place] = found.get(place, 0) + 1
        buffer = self.buffer
        for place, count in found.items():
            buffer[start + place] = _tenths(count)

    def _numbers(self, seat: int, key: tuple[Any, ...]) -> None:
        """Write a clan's numbers (:data:`_CLAN_NUMBERS`, then its reserve) from its key in :meth:`write`."""
        call_two, fields, quests, hand, drafted, saved, keeping = key
        glory, rage, passed, free_march_used, won, lost, contests, warriors, elites = fields
        drops = max(0, hand - KEEP_AT_AGE_END) if keeping else 0
        start = self.at.clans + seat * self.at.width
        buffer = self.buffer
        # the order and scales of _CLAN_NUMBERS
        buffer[start : start + len(_CLAN_NUMBERS)] = array(
            "f",
            (
                float(glory) / 100.0, float(rage) / 10.0, float(quests) / 3.0, float(hand) / 10.0,
                float(drafted) / 10.0, float(saved) / 3.0, float(passed), float(free_march_used), float(call_two),
                float(won) / 10.0, float(lost) / 10.0, float(contests) / 10.0, float(keeping), float(drops) / 3.0,
            ),
        )  # fmt: skip
        reserve = start + len(_CLAN_NUMBERS) + 2 * len(STATS)
        buffer[reserve] = warriors / _SCALE
        buffer[reserve + 1] = elites / _SCALE

    def _powers(self, seat: int, clan: Any) -> None:
        """Write a clan's steps, stats and monsters (one of them changed)."""
        monsters = clan.owned_monsters
        self.monsters[seat] = monsters[:]
        steps = clan.steps
        self.steps[seat] = dict(steps)
        place = self.at.clans + seat * self.at.width + len(_CLAN_NUMBERS)
        buffer = self.buffer
        for stat in STATS:
            buffer[place] = steps[stat] / 6.0
            place += 1
        for stat, track in zip(STATS, self.tracks, strict=True):
            buffer[place] = track[steps[stat]] / _SCALE
            place += 1
        self._clear(place + 2, self.at.kinds)
        self._counts(place + 2, monsters, self.kind)

    def _own(self, seat: int, own: list[Any]) -> None:
        """A seat's own cards (hand, pack, quests, drafted, saved, known, pick): the rows that changed."""
        cards = self.at.cards
        start = self.at.own + seat * 7 * cards
        kept = self.own[seat]
        buffer = self.buffer
        card = self.card
        zeros = self.zeros[:cards]
        for row in range(6):
            items = own[row]
            if items != kept[row]:
                kept[row] = items[:]
                place = start + row * cards
                buffer[place : place + cards] = zeros
                for item in items:  # counted in the buffer, as _counts does
                    number = card.get(item)
                    if number is not None:
                        buffer[place + number] += 1.0
        if own[6] != kept[6]:
            kept[6] = own[6]
            self._pick(seat, own[6])

    def _pick(self, seat: int, pick: str | None) -> None:
        """A seat's draft pick, its last own row (one-hot, or zeros for none)."""
        cards = self.at.cards
        start = self.at.own + (seat * 7 + 6) * cards
        self._clear(start, cards)
        number = None if pick is None else self.card.get(pick)
        if number is not None:
            self.buffer[start + number] = 1.0
