"""The Völuspá game state: turns, powers, legality, scoring, views and world sampling.

One action is one step of a turn (see :mod:`meadhall.games.voluspa.notation`). A turn
moves through stages:

* ``play``: the turn's play (optionally boosted by Freyas), or a discard when no tile
  in hand can be played;
* ``hermod``: after a Hermod, one more tile ending in Hermod's row or column line, or
  ``end``; a discard if tiles remain but none can follow;
* ``raven``: after a Raven's first placement, its second placement or ``end``;
* ``discard-down``: after Skadi brought Freyas back, discard down to five tiles.

Then the hand is refilled and the next seat with tiles plays. Rules and rulings are in
``docs/rules/voluspa.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.game import Event, GameState
from meadhall.core.rng import Rng
from meadhall.games.voluspa.board import (
    AROUND,
    BOOST_SHIFT,
    COL,
    DIRECTIONS,
    KIND_MASK,
    ORTHO,
    ROW,
    WIDTH,
    Board,
    cell_of,
    judge_lightning,
    judge_serpent,
    lightning_lines,
    line_choice_points,
    own_value,
    piece_of,
    run_length,
    score_placement,
    xy,
)
from meadhall.games.voluspa.notation import (
    END,
    Bump,
    Discard,
    End,
    Place,
    VoluspaAction,
)
from meadhall.games.voluspa.tiles import (
    BOOSTER_SUPPLY,
    CODES,
    COUNTS,
    DR,
    DW,
    FACE,
    FR,
    HE,
    HM,
    JO,
    KINDS,
    LB,
    MAX_TOKEN,
    NAMES,
    NI,
    NUM_KINDS,
    RA,
    SK,
    SS,
    TR,
    initial_supply,
)

MAIN, HERMOD, RAVEN, DISCARD_DOWN = range(4)
STAGE_NAMES = ("play", "hermod", "raven", "discard-down")
HAND_SIZE = 5
MAX_LINE = 7

# How a placement lands.
NORMAL, COVER, SWAP, BUMP = range(4)
_COVERERS = (DR, RA, LB)
_TROLL_FRIENDS = (TR, DW)


#: Interned actions: legal-action lists reuse one immutable object per distinct action.
_ACTIONS: dict[tuple[int, int, int, str | None], VoluspaAction] = {}


class VoluspaConfig:
    """The fixed facts of one game: options, seats, tile kinds in play."""

    __slots__ = ("auto_best_line", "kinds", "no_late_hel", "options", "players")

    def __init__(self, options: Mapping[str, Any], players: int) -> None:
        self.options = dict(options)
        self.players = players
        self.kinds: tuple[int, ...] = tuple(CODES.index(code) for code in options["kinds"])
        self.auto_best_line: bool = bool(options["auto-best-line"])
        self.no_late_hel: bool = bool(options["no-late-hel"])


def _name(kind: int) -> str:
    return NAMES[kind]


def _at(cell: int) -> str:
    x, y = xy(cell)
    return f"{x},{y}"


def _illegal(message: str, rule: str) -> IllegalAction:
    return IllegalAction(message, rule)


def _points(points: int) -> str:
    return f"{points} point{'' if points == 1 else 's'}"


def _tile_view(board: Board, cell: int, piece: int) -> dict[str, Any]:
    """One placed tile as views show it: where, which kind, its boost.

    For a tile with a value, ``printed`` (face + boost) and ``value``, what it is worth now by the engine's own
    reckoning (:func:`~meadhall.games.voluspa.board.own_value`: 0 next to Loki; a Fenrir's
    pack is counted only in a line, when one scores).
    """
    x, y = xy(cell)
    kind = piece & KIND_MASK
    tile: dict[str, Any] = {"x": x, "y": y, "tile": CODES[kind], "boost": piece >> BOOST_SHIFT}
    if KINDS[kind].value is not None:
        tile["printed"] = FACE[kind] + (piece >> BOOST_SHIFT)
        tile["value"] = own_value(board, cell, piece)
    return tile


class VoluspaState(GameState[VoluspaAction]):
    """A Völuspá position. Build one with ``VoluspaGame.new_game`` or :meth:`from_position`."""

    __slots__ = (
        "_board_view",
        "_scores",
        "board",
        "box",
        "config",
        "current",
        "discards",
        "finished",
        "hands",
        "hermod_cell",
        "known",
        "last_turn",
        "pile",
        "ply",
        "raven_cell",
        "reached",
        "rng",
        "stage",
        "supply",
        "turn_cells",
        "turn_first_hel",
        "turn_number",
        "turn_plays",
        "turn_steps",
        "turn_swapped",
    )

    #: A turn's refill shows the mover the tiles it draws from the pile, whose order is
    #: hidden: a step that ends a turn with a refill cannot be taken back (core.undo).
    revealing_events = frozenset({"drew"})

    config: VoluspaConfig
    board: Board
    _board_view: list[dict[str, Any]] | None
    hands: list[list[int]]
    known: list[list[int]]
    pile: list[int]
    discards: list[int]
    box: list[int]
    supply: list[int]
    _scores: list[int]
    reached: list[int]
    current: int
    stage: int
    hermod_cell: int
    raven_cell: int
    turn_swapped: bool
    turn_plays: int
    turn_first_hel: bool
    turn_steps: list[VoluspaAction]
    turn_cells: list[int]
    last_turn: tuple[int, tuple[VoluspaAction, ...], tuple[int, ...]] | None
    ply: int
    turn_number: int
    finished: bool
    rng: Rng

    # Setup ----------------------------------------------------------------------------

    @classmethod
    def setup(cls, config: VoluspaConfig, seed: int) -> VoluspaState:
        """Deal a new game: start tile, five tiles each, Hels, a random start player."""
        state = cls._blank(config, seed)
        rng = state.rng
        pile = [kind for kind in config.kinds if kind != HE for _ in range(COUNTS[kind])]
        rng.shuffle(pile)
        start = pile.pop()
        while start == TR:
            pile.insert(rng.below(len(pile) + 1), start)
            start = pile.pop()
        state.board[cell_of(0, 0)] = piece_of(start)
        for seat in range(config.players):
            hand = state.hands[seat]
            for _ in range(HAND_SIZE):
                if pile:
                    hand[pile.pop()] += 1
        if HE in config.kinds:
            per_seat = 2 if config.players == 2 else 1
            dealt = 0
            for seat in range(config.players):
                give = min(per_seat, COUNTS[HE] - dealt)
                state.hands[seat][HE] += give
                dealt += give
            state.box[HE] += COUNTS[HE] - dealt
        state.pile = pile
        if not pile and config.no_late_hel:
            state._remove_hels(None)
        state.current = rng.below(config.players)
        if sum(state.hands[state.current]) == 0:
            state.current = (state.current - 1) % config.players
            state._advance(None)
        return state

    @classmethod
    def _blank(cls, config: VoluspaConfig, seed: int) -> VoluspaState:
        state = cls.__new__(cls)
        players = config.players
        state.config = config
        state.board = {}
        state._board_view = None
        state.hands = [[0] * NUM_KINDS for _ in range(players)]
        state.known = [[0] * NUM_KINDS for _ in range(players)]
        state.pile = []
        state.discards = [0] * NUM_KINDS
        state.box = [0] * NUM_KINDS
        state.supply = initial_supply()
        state._scores = [0] * players
        state.reached = [0] * players
        state.current = 0
        state._reset_turn()
        state.last_turn = None
        state.ply = 0
        state.turn_number = 1
        state.finished = False
        state.rng = Rng(seed)
        state._begin(players, config.options, seed)
        return state

    @classmethod
    def from_position(
        cls,
        config: VoluspaConfig,
        board: Board,
        hands: list[list[int]],
        *,
        current: int = 0,
        pile: list[int] | None = None,
        scores: list[int] | None = None,
        seed: int = 0,
        fill_pile: bool = False,
    ) -> VoluspaState:
        """A hand-built position (scenario tests, ``explain``).

        ``hands`` are lists of kind indices per seat; ``pile`` is drawn from its end.
        Booster tokens on the board are taken out of the supply. Tiles are not conserved
        unless ``fill_pile``: then every tile of the game's kinds that is not on the board
        or in a hand goes into the pile (shuffled by ``seed``; Hels out of the game), so
        the position is one a real game could reach and bots can read its views.
        """
        state = cls._blank(config, seed)
        state.board = dict(board)
        state._board_view = None
        for seat, tiles in enumerate(hands):
            for kind in tiles:
                state.hands[seat][kind] += 1
        state.pile = list(pile or [])
        if fill_pile:
            rest = [COUNTS[kind] if kind in config.kinds else 0 for kind in range(NUM_KINDS)]
            for piece in board.values():
                rest[piece & KIND_MASK] -= 1
            for hand in state.hands:
                for kind in range(NUM_KINDS):
                    rest[kind] -= hand[kind]
            for kind in state.pile:
                rest[kind] -= 1
            if any(count < 0 for count in rest):
                raise ValueError("the position holds more tiles of a kind than the game has")
            state.box[HE] += rest[HE]
            rest[HE] = 0
            extra = [kind for kind in range(NUM_KINDS) for _ in range(rest[kind])]
            state.rng.shuffle(extra)
            state.pile = extra + state.pile
        if scores is not None:
            state._scores = list(scores)
        for piece in board.values():
            boost = piece >> BOOST_SHIFT
            if boost:
                value = FACE[piece & KIND_MASK] + boost
                if value <= MAX_TOKEN and state.supply[value] > 0:
                    state.supply[value] -= 1
        state.current = current
        return state

    # Protocol -------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        """The seat whose turn it is, or ``()`` once the game is over."""
        return () if self.finished else (self.current,)

    def is_terminal(self) -> bool:
        """True when the pile and every hand are empty."""
        return self.finished

    def scores(self) -> list[int]:
        """Current scores by seat."""
        return list(self._scores)

    def ranking(self) -> list[int]:
        """Places by score, ties broken by who reached the tied score first."""
        players = range(self.config.players)
        keys = [(-self._scores[s], self.reached[s]) for s in players]
        return [1 + sum(1 for o in players if keys[o] < keys[s]) for s in players]

    def clone(self) -> VoluspaState:
        """An independent copy: a few list and dict copies, no deepcopy."""
        other = VoluspaState.__new__(VoluspaState)
        other.config = self.config
        other.board = self.board.copy()
        other._board_view = self._board_view
        other.hands = [hand[:] for hand in self.hands]
        other.known = [known[:] for known in self.known]
        other.pile = self.pile[:]
        other.discards = self.discards[:]
        other.box = self.box[:]
        other.supply = self.supply[:]
        other._scores = self._scores[:]
        other.reached = self.reached[:]
        other.current = self.current
        other.stage = self.stage
        other.hermod_cell = self.hermod_cell
        other.raven_cell = self.raven_cell
        other.turn_swapped = self.turn_swapped
        other.turn_plays = self.turn_plays
        other.turn_first_hel = self.turn_first_hel
        other.turn_steps = self.turn_steps[:]
        other.turn_cells = self.turn_cells[:]
        other.last_turn = self.last_turn
        other.ply = self.ply
        other.turn_number = self.turn_number
        other.finished = self.finished
        other.rng = self.rng.clone()
        # The base's bookkeeping, set here rather than by _copy_bookkeeping: one call
        # less on the clone the bots make at every search step.
        other._players = self._players
        other._options = self._options
        other._seed = self._seed
        other._applied = self._applied
        return other

    def fingerprint(self) -> Hashable:
        """The complete state, hidden parts and RNG included (tests and server only)."""
        return (
            tuple(sorted(self.board.items())),
            tuple(map(tuple, self.hands)),
            tuple(map(tuple, self.known)),
            tuple(self.pile),
            tuple(self.discards),
            tuple(self.box),
            tuple(self.supply),
            tuple(self._scores),
            tuple(self.reached),
            self.current,
            self.stage,
            self.hermod_cell,
            self.raven_cell,
            self.turn_swapped,
            self.turn_plays,
            self.turn_first_hel,
            tuple(self.turn_steps),
            tuple(self.turn_cells),
            self.last_turn,
            self.ply,
            self.turn_number,
            self.finished,
            self.rng.getstate(),
        )

    # Queries --------------------------------------------------------------------------

    def hand_tiles(self, seat: int) -> list[int]:
        """The kinds in ``seat``'s hand (Hels included), one entry per tile."""
        return [kind for kind, count in enumerate(self.hands[seat]) for _ in range(count)]

    def hand_size(self, seat: int) -> int:
        """Tiles in ``seat``'s hand that count towards the five (Hels do not)."""
        hand = self.hands[seat]
        return sum(hand) - hand[HE]

    def tile_count(self) -> list[int]:
        """Tiles per kind over pile, hands, board, discard pile and box (conservation checks)."""
        totals = [0] * NUM_KINDS
        for kind in self.pile:
            totals[kind] += 1
        for hand in self.hands:
            for kind, count in enumerate(hand):
                totals[kind] += count
        for piece in self.board.values():
            totals[piece & KIND_MASK] += 1
        for kind in range(NUM_KINDS):
            totals[kind] += self.discards[kind] + self.box[kind]
        return totals

    # Legality -------------------------------------------------------------------------

    def _troll_adjacent(self, cell: int) -> bool:
        get = self.board.get
        for step in ORTHO:
            piece = get(cell + step)
            if piece is not None and piece & KIND_MASK == TR:
                return True
        return False

    def _run(self, cell: int, step: int) -> int:
        return run_length(self.board, cell, step)

    def _in_hermod_line(self, cell: int, extra: int) -> bool:
        """Tell whether ``cell`` is in the Hermod's row or column line after the follow-up."""
        target = self.hermod_cell
        if cell == target:
            return True
        if cell // WIDTH == target // WIDTH:
            step = 1 if target > cell else -1
        elif (cell - target) % WIDTH == 0:
            step = WIDTH if target > cell else -WIDTH
        else:
            return False
        get = self.board.get
        current = cell + step
        while current != target:
            if current != extra:
                piece = get(current)
                if piece is None or piece & KIND_MASK == HE:
                    return False
            current += step
        return True

    def _bump(self, cell: int, step: int) -> tuple[int, str | None]:
        """Where a Jotunn bump sends the tile at ``cell`` towards ``step``, or why it cannot."""
        board = self.board
        get = board.get
        moved = board[cell]
        dest = cell + step
        piece = get(dest)
        while piece is not None and piece & KIND_MASK != HE:
            dest += step
            piece = get(dest)
        if piece is not None:
            return dest, "bump-blocked"
        perpendicular = COL if step in (1, -1) else ROW
        if 1 + self._run(dest, -step) + self._run(dest, step) > MAX_LINE:
            return dest, "line-length"
        if 1 + self._run(dest, perpendicular) + self._run(dest, -perpendicular) > MAX_LINE:
            return dest, "line-length"
        if moved & KIND_MASK != TR and self._troll_adjacent(dest):
            return dest, "bump-troll"
        for around in ORTHO:
            neighbour = cell + around
            near = moved if neighbour == dest else get(neighbour)
            if near is not None and near & KIND_MASK == TR:
                return dest, "jotunn-troll"
        return dest, None

    def _iter_plays(self) -> Iterator[tuple[int, int, str | None, int, int]]:
        """Every legal play for the current stage, before boosts and line choices.

        Yields ``(kind, cell, direction, mode, dest)``. In the Raven stage the caller has
        lifted the Raven off the board.
        """
        board = self.board
        hand = self.hands[self.current]
        stage = self.stage
        hermod = stage == HERMOD
        if stage == RAVEN:
            kinds: tuple[int, ...] = (RA,)
        else:
            kinds = tuple(kind for kind in self.config.kinds if hand[kind])
        if not kinds:
            return
        normal = tuple(kind for kind in kinds if kind != HE and kind != LB)
        if normal:
            friends = tuple(kind for kind in normal if kind in _TROLL_FRIENDS)
            frontier: set[int] = set()
            for cell in board:
                for step in ORTHO:
                    neighbour = cell + step
                    if neighbour not in board:
                        frontier.add(neighbour)
            frontier.discard(self.raven_cell if stage == RAVEN else -1)
            get = board.get
            for cell in sorted(frontier):
                # Inlined Troll test and line lengths: this loop is the engine's hot path.
                allowed = normal
                for step in ORTHO:
                    piece = get(cell + step)
                    if piece is not None and piece & KIND_MASK == TR:
                        allowed = friends
                        break
                if not allowed:
                    continue
                too_long = False
                for step in (1, WIDTH):
                    length = 1
                    current = cell + step
                    piece = get(current)
                    while piece is not None and piece & KIND_MASK != HE:
                        length += 1
                        current += step
                        piece = get(current)
                    current = cell - step
                    piece = get(current)
                    while piece is not None and piece & KIND_MASK != HE:
                        length += 1
                        current -= step
                        piece = get(current)
                    if length > MAX_LINE:
                        too_long = True
                        break
                if too_long:
                    continue
                if hermod and not self._in_hermod_line(cell, cell):
                    continue
                for kind in allowed:
                    yield kind, cell, None, NORMAL, cell
        covers = tuple(kind for kind in kinds if kind in (HE, DR, RA, LB, SK, JO))
        if not covers:
            return
        for cell in sorted(board):
            target = board[cell] & KIND_MASK
            if target == HE:
                continue
            troll = -1
            for kind in covers:
                if kind == HE:
                    if hermod and cell != self.hermod_cell and cell - self.hermod_cell not in AROUND:
                        continue
                    yield HE, cell, None, COVER, cell
                    continue
                if kind == JO:
                    for direction, step in DIRECTIONS.items():
                        dest, problem = self._bump(cell, step)
                        if problem is None and (not hermod or self._in_hermod_line(cell, dest)):
                            yield JO, cell, direction, BUMP, dest
                    continue
                if target == kind:
                    continue
                if troll < 0:
                    troll = 1 if self._troll_adjacent(cell) else 0
                if troll:
                    continue
                if hermod and not self._in_hermod_line(cell, -1):
                    continue
                yield kind, cell, None, SWAP if kind == SK else COVER, cell

    def _boosts(self, kind: int) -> list[int]:
        if kind == HE or self.stage == RAVEN:
            return [0]
        hand = self.hands[self.current]
        spare = hand[FR] - (1 if kind == FR else 0)
        boosts = [0]
        face = FACE[kind]
        supply = self.supply
        for boost in range(1, spare + 1):
            value = face + boost
            if value <= MAX_TOKEN and supply[value] > 0:
                boosts.append(boost)
        return boosts

    def _line_choices(self, kind: int, cell: int) -> tuple[str | None, ...]:
        if kind == SS:
            return (None,) if self.config.auto_best_line else ("row", "col")
        if kind == LB and not self.config.auto_best_line and len(lightning_lines(self.board, cell)) == 2:
            return ("row", "col")
        return (None,)

    def _with_raven_lifted(self) -> int | None:
        if self.stage == RAVEN:
            return self.board.pop(self.raven_cell)
        return None

    def _restore_raven(self, piece: int | None) -> None:
        if piece is not None:
            self.board[self.raven_cell] = piece

    def _has_play(self) -> bool:
        lifted = self._with_raven_lifted()
        try:
            return next(self._iter_plays(), None) is not None
        finally:
            self._restore_raven(lifted)

    def legal_actions(self, seat: int) -> list[VoluspaAction]:
        """Every legal step for ``seat`` now (boosts and line choices expanded)."""
        if self.finished or seat != self.current:
            return []
        hand = self.hands[seat]
        if self.stage == DISCARD_DOWN:
            return [Discard(kind) for kind in range(NUM_KINDS) if hand[kind] and kind != HE]
        actions: list[VoluspaAction] = []
        lifted = self._with_raven_lifted()
        scratch: Board | None = None
        try:
            boosts_by_kind: dict[int, list[int]] = {}
            cache = _ACTIONS
            for kind, cell, direction, _mode, _dest in self._iter_plays():
                boosts = boosts_by_kind.get(kind)
                if boosts is None:
                    boosts = boosts_by_kind[kind] = self._boosts(kind)
                if direction is not None:
                    for boost in boosts:
                        key: tuple[int, int, int, str | None] = (cell, kind, boost, direction)
                        action = cache.get(key)
                        if action is None:
                            x, y = xy(cell)
                            action = cache[key] = Bump(x, y, direction, boost)
                        actions.append(action)
                    continue
                lines = (None,) if kind != SS and kind != LB else self._line_choices(kind, cell)
                for line in lines:
                    for boost in boosts:
                        key = (cell, kind, boost, line)
                        action = cache.get(key)
                        if action is None:
                            x, y = xy(cell)
                            action = cache[key] = Place(kind, x, y, boost, line)
                        actions.append(action)
                if len(lines) == 2:
                    # The plain form, where the line makes no difference (judged on a copy:
                    # the plays are being read off this board).
                    if scratch is None:
                        scratch = dict(self.board)
                    for boost in boosts:
                        row, col = line_choice_points(scratch, kind, cell, boost)
                        if row == col:
                            key = (cell, kind, boost, None)
                            action = cache.get(key)
                            if action is None:
                                x, y = xy(cell)
                                action = cache[key] = Place(kind, x, y, boost, None)
                            actions.append(action)
        finally:
            self._restore_raven(lifted)
        if self.stage == MAIN:
            if not actions:
                actions = [Discard(kind) for kind in range(NUM_KINDS) if hand[kind]]
        elif self.stage == HERMOD:
            if actions:
                actions.append(END)
            else:
                actions = [Discard(kind) for kind in range(NUM_KINDS) if hand[kind]]
        else:
            actions.append(END)
        return actions

    def check(self, seat: int, action: VoluspaAction) -> None:
        """Raise :class:`IllegalAction` with the reason if ``action`` is illegal for ``seat``."""
        self._checked(seat, action)

    def _checked(self, seat: int, action: VoluspaAction) -> tuple[int, int, int, int, int, str | None]:
        """Check ``action`` and return its plan ``(mode, kind, cell, dest, boost, line)``, which :meth:`_step` applies.

        ``mode`` is NORMAL, COVER, SWAP, BUMP, or -1 for ``end`` and -2 for a discard.
        Raises :class:`IllegalAction` with the rule that forbids the action.
        """
        if self.finished:
            raise _illegal("the game is over", "game-over")
        if not 0 <= seat < self.config.players:
            raise _illegal(f"there is no seat {seat}", "seat")
        if seat != self.current:
            raise _illegal(f"it is seat {self.current + 1}'s turn, not seat {seat + 1}'s", "turn")
        stage = self.stage
        hand = self.hands[seat]
        if isinstance(action, End):
            if stage == RAVEN:
                return (-1, 0, 0, 0, 0, None)
            if stage == HERMOD:
                if not self._has_play() and sum(hand) > 0:
                    raise _illegal(
                        "no tile in your hand can follow the Hermod, so you must discard one (discard:CODE)",
                        "must-discard",
                    )
                return (-1, 0, 0, 0, 0, None)
            if stage == DISCARD_DOWN:
                raise _illegal(
                    f"you hold {self.hand_size(seat)} tiles: discard down to five first (discard:CODE)",
                    "discard-down",
                )
            raise _illegal("there is no follow-up to decline: 'end' only follows a Hermod or a Raven", "stage")
        if isinstance(action, Discard):
            kind = action.tile
            if not 0 <= kind < NUM_KINDS or not hand[kind]:
                raise _illegal(f"you have no {_name(kind)} in your hand to discard", "not-in-hand")
            if stage == DISCARD_DOWN:
                if kind == HE:
                    raise _illegal("Hel does not count towards the five tiles: discard another tile", "discard-down")
                return (-2, kind, 0, 0, 0, None)
            if stage == RAVEN:
                raise _illegal("place the Raven a second time or end the turn", "stage")
            if self._has_play():
                raise _illegal(
                    "you may discard only when no tile in your hand can be played"
                    + (" after the Hermod" if stage == HERMOD else ""),
                    "must-play",
                )
            return (-2, kind, 0, 0, 0, None)
        if not isinstance(action, (Place, Bump)):
            raise _illegal(f"{action!r} is not a Völuspá action", "malformed")
        if stage == DISCARD_DOWN:
            raise _illegal(
                f"you hold {self.hand_size(seat)} tiles: discard down to five first (discard:CODE)",
                "discard-down",
            )
        kind = JO if isinstance(action, Bump) else action.tile
        boost = action.boost
        if not 0 <= kind < NUM_KINDS:
            raise _illegal("unknown tile", "malformed")
        if stage == RAVEN:
            if kind != RA:
                raise _illegal("now the Raven may be placed a second time (RA@X,Y) or you end the turn", "stage")
            if boost:
                raise _illegal("the Raven keeps its boost; Freyas cannot boost its second placement", "boost")
        else:
            if kind not in self.config.kinds or not hand[kind]:
                raise _illegal(f"you have no {_name(kind)} in your hand", "not-in-hand")
            if boost < 0:
                raise _illegal("a boost counts Freyas: 0 or more", "malformed")
            if boost:
                if kind == HE:
                    raise _illegal("Hel cannot be boosted", "boost")
                spare = hand[FR] - (1 if kind == FR else 0)
                if spare < boost:
                    raise _illegal(
                        f"boosting {boost} time{'s' if boost > 1 else ''} needs {boost} Freya "
                        f"tile{'s' if boost > 1 else ''} besides the tile you place; you have {spare}",
                        "boost",
                    )
                value = FACE[kind] + boost
                if value > MAX_TOKEN or BOOSTER_SUPPLY.get(value, 0) == 0:
                    raise _illegal(
                        f"that boost needs a booster token of value {value}, and the game has none "
                        f"(tokens: {', '.join(str(v) for v in sorted(BOOSTER_SUPPLY))})",
                        "booster-supply",
                    )
                if self.supply[value] == 0:
                    raise _illegal(f"no booster token of value {value} is left in the supply", "booster-supply")
        cell = cell_of(action.x, action.y)
        lifted = self._with_raven_lifted()
        try:
            if stage == RAVEN and cell == self.raven_cell:
                raise _illegal("the Raven's second placement must be on a different cell", "raven-cell")
            mode, dest = self._geometry(kind, cell, action)
            if stage == HERMOD:
                self._check_hermod(kind, cell, mode, dest)
            line = self._check_line(kind, cell, boost, action)
        finally:
            self._restore_raven(lifted)
        return (mode, kind, cell, dest, boost, line)

    def _geometry(self, kind: int, cell: int, action: Place | Bump) -> tuple[int, int]:
        board = self.board
        where = _at(cell)
        name = _name(kind)
        target = board.get(cell)
        if isinstance(action, Bump):
            if target is None:
                raise _illegal(f"there is no tile at {where} for the Jotunn to bump", "bump-target")
            if target & KIND_MASK == HE:
                raise _illegal("a Hel cannot be bumped", "bump-target")
            dest, problem = self._bump(cell, DIRECTIONS[action.direction])
            if problem == "bump-blocked":
                raise _illegal("a Hel blocks the way: a bumped tile cannot pass a gap or a Hel", "bump-blocked")
            if problem == "line-length":
                raise _illegal(f"bumped to {_at(dest)}, the tile would make a line longer than 7 tiles", "line-length")
            if problem == "bump-troll":
                raise _illegal(f"a bumped tile (unless a Troll) cannot end next to a Troll ({_at(dest)})", "troll")
            if problem == "jotunn-troll":
                raise _illegal("the Jotunn may not end next to a Troll", "troll")
            return BUMP, dest
        if target is None:
            if kind == HE:
                raise _illegal("Hel must be placed on top of a tile", "hel-on-top")
            if kind == LB:
                raise _illegal("a Lightning Bolt must be placed on top of a tile", "lightning-on-top")
            if not any(cell + step in board for step in ORTHO):
                raise _illegal(
                    f"{where} does not touch any tile: a tile must share a side with a tile on the board",
                    "touch",
                )
            if kind not in _TROLL_FRIENDS and self._troll_adjacent(cell):
                raise _illegal(f"{name} cannot be placed next to a Troll (only Trolls and Dwarfs can)", "troll")
            for step, label in ((ROW, "row"), (COL, "column")):
                length = 1 + self._run(cell, step) + self._run(cell, -step)
                if length > MAX_LINE:
                    raise _illegal(
                        f"{name} at {where} would make a {label} of {length} tiles; no line may be longer than 7",
                        "line-length",
                    )
            return NORMAL, cell
        covered = target & KIND_MASK
        covered_name = _name(covered)
        if kind == HE:
            if covered == HE:
                raise _illegal("Hel cannot be placed on another Hel", "hel-target")
            return COVER, cell
        if covered == HE:
            raise _illegal("no tile can be placed on top of a Hel", "hel-target")
        if kind in _COVERERS:
            if covered == kind:
                raise _illegal(f"a {name} cannot be placed on top of another {name}", "cover-target")
            if self._troll_adjacent(cell):
                raise _illegal(f"a {name} cannot be placed on a tile next to a Troll", "troll")
            return COVER, cell
        if kind == SK:
            if covered == SK:
                raise _illegal("Skadi cannot take a Skadi", "skadi-target")
            if self._troll_adjacent(cell):
                raise _illegal("Skadi cannot take a tile next to a Troll", "troll")
            return SWAP, cell
        if kind == JO:
            raise _illegal(
                f"{where} is taken: to bump it with the Jotunn, give a direction (JO@{where}>E)",
                "bump-direction",
            )
        raise _illegal(f"{where} is taken by {covered_name}: {name} cannot be placed on top of a tile", "occupied")

    def _check_hermod(self, kind: int, cell: int, mode: int, dest: int) -> None:
        hermod = self.hermod_cell
        if kind == HE:
            if cell != hermod and cell - hermod not in AROUND:
                raise _illegal(
                    f"after the Hermod at {_at(hermod)}, a Hel must go on it or on a tile around it",
                    "hermod-line",
                )
            return
        extra = dest if mode in (NORMAL, BUMP) else -1
        if not self._in_hermod_line(cell, extra):
            raise _illegal(
                f"after the Hermod at {_at(hermod)}, the next tile must end in the Hermod's row or column line",
                "hermod-line",
            )

    def _check_line(self, kind: int, cell: int, boost: int, action: Place | Bump) -> str | None:
        """The line a Sea Serpent or Lightning Bolt scores, or raise if the notation's choice is wrong.

        Without ``auto-best-line``, a Sea Serpent (and a Lightning Bolt whose row and column
        are equally short) names its line. The plain form (no ``:row``/``:col``) is accepted
        where both lines score the same: the choice makes no difference, and it is scored as
        the row. Where they differ, the error gives both choices with their points.
        """
        line = getattr(action, "line", None)
        where = _at(cell)
        auto = self.config.auto_best_line
        if kind == SS:
            if auto:
                if line is not None:
                    raise _illegal(
                        f"this game picks the Sea Serpent's better line itself (auto-best-line): write SS@{where}",
                        "line-choice",
                    )
                return None
            if line is None:
                return self._plain_line(kind, cell, boost, action, "the Sea Serpent scores one line")
            return str(line)
        if kind == LB:
            choices = len(lightning_lines(self.board, cell))
            if choices == 2 and not auto:
                if line is None:
                    return self._plain_line(
                        kind, cell, boost, action, "both lines of the Lightning Bolt are equally short"
                    )
                return str(line)
            if line is not None:
                raise _illegal(
                    "the Lightning Bolt has no line to choose here: it scores its shortest line"
                    + (" (auto-best-line picks between equal ones)" if auto and choices == 2 else ""),
                    "line-choice",
                )
        return None

    def _plain_line(self, kind: int, cell: int, boost: int, action: Place | Bump, why: str) -> str:
        """The line of a plain ``SS@x,y`` / ``LB@x,y`` where the player chooses a line.

        ``row`` if the row and the column score the same; else :class:`IllegalAction`
        listing both choices with their points.
        """
        row, col = self.line_choice_points(kind, cell, boost)
        if row == col:
            return "row"
        assert isinstance(action, Place)
        options = " or ".join(
            f"{action._replace(line=name)} ({_points(points)})" for name, points in (("row", row), ("col", col))
        )
        raise _illegal(f"{why}, and its row and column score differently: choose {options}", "line-choice")

    def line_choice_points(self, kind: int, cell: int, boost: int = 0) -> tuple[int, int]:
        """Points of the row and of the column for a Sea Serpent or Lightning Bolt played at ``cell`` now.

        ``boost`` Freyas boost it. The board is left as it was.
        """
        return line_choice_points(self.board, kind, cell, boost)

    # Applying -------------------------------------------------------------------------

    #: Bots' steps are checked as fully as players' (the plan is needed anyway); the same
    #: method, so the quiet path makes no extra call.
    _checked_quiet = _checked

    def _step(
        self,
        seat: int,
        action: VoluspaAction,
        plan: tuple[int, int, int, int, int, str | None],
        events: list[Event] | None,
    ) -> None:
        """Apply one checked step of a turn (the base's ``apply`` and ``apply_quiet`` record it first)."""
        self.ply += 1
        self._board_view = None
        self.turn_steps.append(action)
        mode, kind, cell, dest, boost, line = plan
        if mode == -1:
            if events is not None:
                events.append(Event("ended", {"seat": seat}))
            self._finish_turn(events)
            return
        hand = self.hands[seat]
        if mode == -2:
            hand[kind] -= 1
            self._forget(seat, kind, 1)
            down = self.stage == DISCARD_DOWN
            if down:
                self.discards[kind] += 1
            else:
                self.box[kind] += 1
                self.turn_plays += 1
            if events is not None:
                events.append(Event("discarded", {"seat": seat, "tile": CODES[kind], "down": down}))
            if not down or self.hand_size(seat) <= HAND_SIZE:
                self._finish_turn(events)
            return
        board = self.board
        second_raven = self.stage == RAVEN
        if second_raven:
            piece = board.pop(self.raven_cell)
            if events is not None:
                rx, ry = xy(self.raven_cell)
                events.append(Event("lifted", {"seat": seat, "tile": "RA", "x": rx, "y": ry}))
        else:
            hand[kind] -= 1
            self._forget(seat, kind, 1)
            if boost:
                hand[FR] -= boost
                self._forget(seat, FR, boost)
                self.discards[FR] += boost
                self.supply[FACE[kind] + boost] -= 1
            piece = piece_of(kind, boost)
        covered_nio = False
        data: dict[str, Any] | None = None
        x, y = xy(cell)
        if events is not None:
            data = {
                "seat": seat,
                "tile": CODES[kind],
                "x": x,
                "y": y,
                "boost": piece >> BOOST_SHIFT,
                "step": str(action),
            }
        self.turn_cells.append(cell)
        if mode == NORMAL:
            board[cell] = piece
        elif mode == COVER:
            old = board[cell]
            old_kind = old & KIND_MASK
            self.discards[old_kind] += 1
            old_boost = old >> BOOST_SHIFT
            if old_boost:
                self.supply[FACE[old_kind] + old_boost] += 1
            covered_nio = old_kind == NI
            board[cell] = piece
            if data is not None:
                data["covered"] = CODES[old_kind]
        elif mode == SWAP:
            old = board[cell]
            old_kind = old & KIND_MASK
            old_boost = old >> BOOST_SHIFT
            hand[old_kind] += 1
            self.known[seat][old_kind] += 1
            freyas = 0
            if old_boost:
                self.supply[FACE[old_kind] + old_boost] += 1
                freyas = min(old_boost, self.discards[FR])
                self.discards[FR] -= freyas
                hand[FR] += freyas
                self.known[seat][FR] += freyas
            board[cell] = piece
            self.turn_swapped = True
            if data is not None:
                data["took"] = CODES[old_kind]
                data["freyas_back"] = freyas
        else:  # BUMP
            self.turn_cells.append(dest)
            board[dest] = board[cell]
            board[cell] = piece
            if data is not None:
                dx, dy = xy(dest)
                data["bumped"] = CODES[board[dest] & KIND_MASK]
                data["to"] = [dx, dy]
        if line is None and kind in (SS, LB) and self.config.auto_best_line:
            line = self._best_line(kind, cell, covered_nio)
        points, details = score_placement(board, cell, covered_nio, line, events is not None)
        if points:
            self._scores[seat] += points
            self.reached[seat] = self.ply
        if events is not None and data is not None:
            if line is not None:
                data["line"] = line
                if isinstance(action, Place) and action.line is None and not self.config.auto_best_line:
                    data["either_line"] = True  # plain SS@x,y / LB@x,y: both lines score the same
            events.append(Event("placed", data))
            events.append(
                Event(
                    "scored",
                    {
                        "seat": seat,
                        "step": str(action),
                        "points": points,
                        "total": self._scores[seat],
                        "lines": details,
                    },
                )
            )
        self.turn_plays += 1
        if self.turn_plays == 1 and kind == HE:
            self.turn_first_hel = True
        if second_raven:
            self._finish_turn(events)
        elif kind == HM:
            self.stage = HERMOD
            self.hermod_cell = cell
            if not sum(hand):
                self._finish_turn(events)
        elif kind == RA:
            self.stage = RAVEN
            self.raven_cell = cell
        else:
            self._finish_turn(events)

    def score_legal_step(self, action: Place | Bump) -> tuple[int, list[dict[str, Any]], str | None]:
        """What :meth:`_step` scores for a legal placement or bump now: points, explained lines, line.

        For a judge that knows the step is legal (the C engine listed it): the tile is put
        on the board as :meth:`_step` puts it (covering, swapping or bumping), scored with
        the explanation of each line, and the board is put back; no clone, no events, no
        check (an illegal step gives a meaningless answer). Not for the Raven's second
        placement (the Raven is lifted first there). ``line`` is the line a Sea Serpent or
        a Lightning Bolt scores (``None`` for the others).
        """
        kind = JO if isinstance(action, Bump) else action.tile
        board = self.board
        cell = cell_of(action.x, action.y)
        line = self._check_line(kind, cell, action.boost, action) if kind in (SS, LB) else None
        old = board.get(cell)
        covered_nio = False
        dest = -1
        if isinstance(action, Bump):
            dest = self._bump(cell, DIRECTIONS[action.direction])[0]
            assert old is not None
            board[dest] = old
        elif old is not None and kind != SK:  # covered, not swapped by Skadi
            covered_nio = old & KIND_MASK == NI
        board[cell] = piece_of(kind, action.boost)
        try:
            if line is None and kind in (SS, LB) and self.config.auto_best_line:
                line = self._best_line(kind, cell, covered_nio)
            points, details = score_placement(board, cell, covered_nio, line, True)
        finally:
            if dest >= 0:
                del board[dest]
            if old is None:
                del board[cell]
            else:
                board[cell] = old
        return points, details, line

    def _best_line(self, kind: int, cell: int, covered_nio: bool) -> str:
        board = self.board
        if kind == SS:
            row, _ = judge_serpent(board, cell, ROW, False)
            col, _ = judge_serpent(board, cell, COL, False)
        else:
            options = lightning_lines(board, cell)
            if len(options) < 2:
                return "row" if not options or options[0][0] == ROW else "col"
            row, _ = judge_lightning(board, cell, ROW, covered_nio, False)
            col, _ = judge_lightning(board, cell, COL, covered_nio, False)
        return "col" if col > row else "row"

    def _forget(self, seat: int, kind: int, count: int) -> None:
        known = self.known[seat]
        if known[kind]:
            known[kind] = max(0, known[kind] - count)

    def _remove_hels(self, events: list[Event] | None) -> None:
        removed = []
        for seat, hand in enumerate(self.hands):
            if hand[HE]:
                removed.append([seat, hand[HE]])
                self.box[HE] += hand[HE]
                hand[HE] = 0
        if removed and events is not None:
            events.append(Event("hels-removed", {"seats": removed, "reason": "no-late-hel: the last tile was drawn"}))

    def _finish_turn(self, events: list[Event] | None) -> None:
        seat = self.current
        hand = self.hands[seat]
        size = sum(hand) - hand[HE]
        if size > HAND_SIZE:
            self.stage = DISCARD_DOWN
            return
        if not self.turn_swapped and not (self.turn_plays == 1 and self.turn_first_hel):
            pile = self.pile
            drawn = 0
            while size < HAND_SIZE and pile:
                kind = pile.pop()
                hand[kind] += 1
                size += 1
                drawn += 1
                if events is not None:
                    events.append(Event("drew", {"seat": seat, "tile": CODES[kind]}, frozenset((seat,))))
            if drawn:
                if events is not None:
                    events.append(Event("refilled", {"seat": seat, "count": drawn, "pile": len(pile)}))
                if not pile and self.config.no_late_hel:
                    self._remove_hels(events)
        self.last_turn = (seat, tuple(self.turn_steps), tuple(self.turn_cells))
        self._advance(events)

    def _reset_turn(self) -> None:
        self.stage = MAIN
        self.hermod_cell = -1
        self.raven_cell = -1
        self.turn_swapped = False
        self.turn_plays = 0
        self.turn_first_hel = False
        self.turn_steps = []
        self.turn_cells = []

    def _advance(self, events: list[Event] | None) -> None:
        self._reset_turn()
        players = self.config.players
        hands = self.hands
        if not self.pile and not any(sum(hand) for hand in hands):
            self.finished = True
            if events is not None:
                events.append(
                    Event(
                        "game-over", {"scores": self.scores(), "places": self.ranking(), "reached": list(self.reached)}
                    )
                )
            return
        for offset in range(1, players + 1):
            seat = (self.current + offset) % players
            if sum(hands[seat]):
                self.current = seat
                self.turn_number += 1
                if events is not None:
                    events.append(Event("turn", {"seat": seat, "turn": self.turn_number}))
                return
            if events is not None:
                events.append(Event("passed", {"seat": seat, "reason": "no tiles left"}))
        raise AssertionError("tiles remain in the pile but no seat holds any")  # pragma: no cover

    # Views ----------------------------------------------------------------------------

    def sample_world(self, seat: int | None, rng: Rng) -> VoluspaState:
        """A full state consistent with ``view(seat)``, built from the view alone."""
        world = super().sample_world(seat, rng)
        assert isinstance(world, VoluspaState)
        return world

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know: everything public, plus its own hand."""
        if seat is not None and not 0 <= seat < self.config.players:
            raise ValueError(f"there is no seat {seat}")
        board = self._board_view
        if board is None:  # built once per position: every seat's view shows the same board
            board = self._board_view = [
                _tile_view(self.board, cell, piece)
                for cell, piece in sorted(self.board.items(), key=lambda item: (xy(item[0])[1], xy(item[0])[0]))
            ]
        seats = []
        for other in range(self.config.players):
            hand = self.hands[other]
            known = {CODES[k]: n for k, n in enumerate(self.known[other]) if n}
            seats.append(
                {
                    "seat": other,
                    "score": self._scores[other],
                    "reached_at": self.reached[other],
                    "tiles": self.hand_size(other),
                    "hels": hand[HE],
                    "known": known,
                }
            )
        data: dict[str, Any] = {
            "game": "voluspa",
            "seat": seat,
            "options": dict(self.config.options),
            "board": [dict(cell) for cell in board],
            "seats": seats,
            "to_move": list(self.to_move()),
            "stage": STAGE_NAMES[self.stage],
            "turn": self.turn_number,
            "ply": self.ply,
            "turn_steps": [str(step) for step in self.turn_steps],
            "turn_cells": [list(xy(cell)) for cell in self.turn_cells],
            "last_turn": (
                {
                    "seat": self.last_turn[0],
                    "steps": [str(step) for step in self.last_turn[1]],
                    "cells": [list(xy(cell)) for cell in self.last_turn[2]],
                }
                if self.last_turn
                else None
            ),
            "turn_state": {
                "plays": self.turn_plays,
                "swapped": self.turn_swapped,
                "first_hel": self.turn_first_hel,
            },
            "pile": len(self.pile),
            "discard_pile": {CODES[k]: n for k, n in enumerate(self.discards) if n},
            "out_of_game": {CODES[k]: n for k, n in enumerate(self.box) if n},
            "booster_supply": {str(v): n for v, n in enumerate(self.supply) if n},
            "finished": self.finished,
        }
        if self.stage == HERMOD:
            data["hermod"] = list(xy(self.hermod_cell))
        if self.stage == RAVEN:
            data["raven"] = list(xy(self.raven_cell))
        if self.finished:
            data["places"] = self.ranking()
        if seat is not None:
            data["hand"] = [CODES[kind] for kind in self.hand_tiles(seat)]
        return data
