"""The bridge between the Völuspá engine and its C search engine (``_search.c``).

Bots search Völuspá positions with :class:`SearchState` (C, int action codes, no
events) when the extension is built, and with :class:`VoluspaState` itself otherwise.
:func:`export_reference` reads a position in the one form the search engine's
``build()`` takes and its ``export()`` gives; :func:`to_search` builds from it;
:func:`decode` and :func:`encode` translate action codes. The engine's tile and stage
numberings and its rules constants are checked against this package's at import
(:func:`meadhall.core.native.check_engine`); the two engines are kept equal by
``tests/voluspa/test_search_engine.py``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import ModuleType
from typing import Any, TypeVar

from meadhall.core.game import Game
from meadhall.core.native import check_engine
from meadhall.core.rng import Rng
from meadhall.core.search import BeliefSampler, SearchAdapter, SearchSampler, SearchState
from meadhall.games.voluspa.belief import VoluspaBelief
from meadhall.games.voluspa.board import BOOST_SHIFT, COL, KIND_MASK, ROW, cell_of, line_cells, xy
from meadhall.games.voluspa.notation import END, Bump, Discard, End, Place, VoluspaAction
from meadhall.games.voluspa.state import HAND_SIZE, HERMOD, MAX_LINE, RAVEN, STAGE_NAMES, VoluspaState
from meadhall.games.voluspa.tiles import CODES, FACE, JO, KNOWN_CODES, initial_supply

_native: ModuleType | None
try:  # the extension is optional: without a compiler, search uses VoluspaState
    from meadhall.games.voluspa import _search as _native
except ImportError:  # pragma: no cover - exercised on machines without a C compiler
    _native = None


def check(module: ModuleType) -> None:
    """Raise :class:`~meadhall.core.native.NativeMismatch` unless ``module`` numbers and counts as the rules do."""
    check_engine(
        module,
        names={"tiles": KNOWN_CODES, "stages": STAGE_NAMES},
        rules={"HAND_SIZE": HAND_SIZE, "MAX_LINE": MAX_LINE},
    )


if _native is not None:  # an engine built from other numbers must not load
    check(_native)

#: True when the C search engine is built and matches the tile table.
AVAILABLE = _native is not None and CODES == KNOWN_CODES
if AVAILABLE:
    assert _native is not None
    _native.set_tables(list(FACE), initial_supply())

_A = TypeVar("_A", bound=Hashable)
_DIRECTIONS = ("N", "E", "S", "W")
_LINES = (None, "row", "col")
_DECODED: dict[int, VoluspaAction] = {}


def to_search(state: VoluspaState) -> Any | None:
    """A C search copy of ``state``, or ``None`` (no extension, or board too wide)."""
    if not AVAILABLE:
        return None
    assert _native is not None
    return _native.build(export_reference(state))


def decode(code: int) -> VoluspaAction:
    """The action of a search code."""
    action = _DECODED.get(code)
    if action is None:
        assert _native is not None
        kind_of_code, kind, x, y, boost, direction, line = _native.decode(code)
        if kind_of_code == 0:
            action = Place(kind, x, y, boost, _LINES[line])
        elif kind_of_code == 1:
            action = Bump(x, y, _DIRECTIONS[direction], boost)
        elif kind_of_code == 2:
            action = END
        else:
            action = Discard(kind)
        _DECODED[code] = action
    return action


_NOTATIONS: dict[int, str] = {}


def notation(code: int) -> str:
    """The notation of a search code's action (cached)."""
    text = _NOTATIONS.get(code)
    if text is None:
        text = _NOTATIONS[code] = str(decode(code))
    return text


def encode(action: VoluspaAction) -> int | None:
    """The search code of an action, or ``None`` if it lies outside the search grid."""
    assert _native is not None
    if isinstance(action, Place):
        line = _LINES.index(action.line)
        code: int | None = _native.encode(0, action.tile, action.x, action.y, action.boost, 0, line)
    elif isinstance(action, Bump):
        code = _native.encode(1, 10, action.x, action.y, action.boost, _DIRECTIONS.index(action.direction), 0)
    elif isinstance(action, Discard):
        code = _native.encode(3, action.tile, 0, 0, 0, 0, 0)
    else:
        code = _native.encode(2, 0, 0, 0, 0, 0, 0)
    return code


def notations(fast: Any, seat: int, auto_best_line: bool) -> list[str]:
    """The legal actions of a C search position as notation, as the reference engine lists them.

    The search engine lists every move once: a Sea Serpent or a tied Lightning Bolt with
    ``:row`` and ``:col``. The reference engine also lists the plain form (``SS@x,y``) where
    both lines score the same, a shorthand for the same move; it is added here, after the
    named forms of its cell, so that the server offers exactly what the rules accept.
    """
    codes = fast.legal_actions(seat)
    texts: list[str] = []
    rows: list[tuple[Place, int]] = []  # the :row forms of the group being read, with their codes

    def close_group() -> None:
        for named, row_code in rows:
            col_code = encode(named._replace(line="col"))
            if col_code is not None and fast.points(row_code) == fast.points(col_code):
                texts.append(str(named._replace(line=None)))
        rows.clear()

    for code in codes:
        action = decode(code)
        if rows and not (
            isinstance(action, Place)
            and action.line is not None
            and (action.tile, action.x, action.y) == (rows[0][0].tile, rows[0][0].x, rows[0][0].y)
        ):
            close_group()
        if isinstance(action, Place) and action.line == "row" and not auto_best_line:
            rows.append((action, code))
        texts.append(notation(code))
    close_group()
    return texts


def export_reference(state: VoluspaState) -> dict[str, Any]:
    """``state`` in the search engine's one form: what its ``build()`` takes and ``export()`` gives."""
    config = state.config
    return {
        "players": config.players,
        "kinds": list(config.kinds),
        "auto_best_line": int(config.auto_best_line),
        "no_late_hel": int(config.no_late_hel),
        "board": sorted((*xy(cell), piece & KIND_MASK, piece >> BOOST_SHIFT) for cell, piece in state.board.items()),
        "hands": [list(hand) for hand in state.hands],
        "known": [list(known) for known in state.known],
        "pile": list(state.pile),
        "discards": list(state.discards),
        "box": list(state.box),
        "supply": list(state.supply),
        "scores": state.scores(),
        "reached": list(state.reached),
        "current": state.current,
        "stage": state.stage,
        "hermod": xy(state.hermod_cell) if state.hermod_cell >= 0 else None,
        "raven": xy(state.raven_cell) if state.raven_cell >= 0 else None,
        "turn_swapped": int(state.turn_swapped),
        "turn_plays": state.turn_plays,
        "turn_first_hel": int(state.turn_first_hel),
        "ply": state.ply,
        "turn_number": state.turn_number,
        "finished": int(state.finished),
        "overflow": 0,
    }


class NativeSampler:
    """Worlds in the C search engine: a template position redealt for each sample."""

    def __init__(self, template: Any, seat: int | None) -> None:
        self.template = template
        self.seat = -1 if seat is None else seat

    def sample(self, rng: Rng) -> Any:
        """The template with the unseen tiles dealt again at random.

        The C engine takes ``rng``'s next draw itself (the same draw, ``core/rng.h``) and
        hands back the advanced state: what ``redeal(seat, rng.next64())`` on a clone gives.
        """
        world, state = self.template.sample(self.seat, rng.getstate())
        rng.setstate(state)
        return world

    def encode(self, action: Hashable) -> Hashable:
        """The search code of a Völuspá action."""
        assert isinstance(action, (Place, Bump, End, Discard))
        return encode(action)

    def decode(self, key: Hashable) -> VoluspaAction:
        """The Völuspá action of a search code."""
        assert isinstance(key, int)
        return decode(key)


class VoluspaSearchAdapter(SearchAdapter):
    """How bots search Völuspá: the C engine when built, greedy turns planned in full."""

    score_scale = 8.0

    def __init__(self, game: Game, native: bool = True) -> None:
        super().__init__(game)
        self.native = native and AVAILABLE

    @property
    def engine(self) -> str:
        """Which engine the bots search: ``C`` or ``python``."""
        return "C" if self.native else "python"

    def sampler(self, view: Mapping[str, Any]) -> SearchSampler:
        """Worlds consistent with ``view``, in the C engine when it can hold the board."""
        belief = self.game.belief(view)
        assert isinstance(belief, VoluspaBelief)
        if self.native:
            template = to_search(belief.sample(Rng(0)))
            if template is not None:
                return NativeSampler(template, belief.seat)
        return BeliefSampler(belief)

    def rollout(self, state: SearchState, rng: Rng, max_steps: int, epsilon: float) -> None:
        """Epsilon-greedy playout in C (random steps with probability ``epsilon``)."""
        if isinstance(state, VoluspaState):
            super().rollout(state, rng, max_steps, epsilon)
            return
        native: Any = state
        native.reseed(rng.next64())
        native.rollout(max_steps, round(epsilon * 1000))

    def best(self, state: SearchState, seat: int, actions: Sequence[Any], rng: Rng) -> Any:
        """The greedy choice among ``actions``: most points now, then the cheaper tile."""
        if isinstance(state, VoluspaState):
            before = state.scores()[seat]
            best: list[Any] = []
            best_key: tuple[int, int] | None = None
            for action in actions:
                after = state.clone()
                after.apply_quiet(seat, action)
                key = (after.scores()[seat] - before, -_spent(action, state))
                if best_key is None or key > best_key:
                    best_key, best = key, [action]
                elif key == best_key:
                    best.append(action)
            return best[rng.below(len(best))]
        native: Any = state
        native.reseed(rng.next64())
        return native.best_of(actions)

    def greedy(self, view: Mapping[str, Any], legal: Sequence[Hashable], rng: Rng) -> Hashable:
        """The step that makes the most points this turn (follow-ups planned in full).

        Ties: spend the cheaper tile (face value, plus 3 per Freya discarded), then
        leave the shorter lines behind (less for the next player to take), then random.
        """
        belief = self.game.belief(view)
        assert isinstance(belief, VoluspaBelief)
        world = belief.sample(rng)
        seat = world.current
        best_key: tuple[int, int, int] | None = None
        best: list[Hashable] = []
        for action in named_forms(legal):
            assert isinstance(action, (Place, Bump, End, Discard))
            after = world.clone()
            after.apply_quiet(seat, action)
            points = after.scores()[seat] - world.scores()[seat] + _best_follow_up(after, seat, 3)
            key = (points, -_spent(action, world), -_exposure(after, action))
            if best_key is None or key > best_key:
                best_key, best = key, [action]
            elif key == best_key:
                best.append(action)
        return best[rng.below(len(best))]


def named_forms(legal: Sequence[_A]) -> list[_A]:
    """``legal`` without the plain ``SS@x,y`` / ``LB@x,y`` listed beside its ``:row`` twin.

    The shorthand is the same move as its ``:row`` form; the bots play the named forms,
    as the search engine lists them.
    """
    listed = set(legal)
    return [
        action
        for action in legal
        if not (isinstance(action, Place) and action.line is None and action._replace(line="row") in listed)
    ]


def _best_follow_up(state: VoluspaState, seat: int, depth: int) -> int:
    """Most points the rest of this turn can add (Hermod follow-ups, a Raven's move)."""
    if depth <= 0 or state.finished or state.current != seat or state.stage not in (HERMOD, RAVEN):
        return 0
    before = state.scores()[seat]
    best = 0
    for action in named_forms(state.legal_actions(seat)):
        if isinstance(action, End):
            continue
        after = state.clone()
        after.apply_quiet(seat, action)
        gained = after.scores()[seat] - before + _best_follow_up(after, seat, depth - 1)
        best = max(best, gained)
    return best


def _spent(action: VoluspaAction, state: VoluspaState) -> int:
    if isinstance(action, Place):
        face = 0 if state.stage == RAVEN else FACE[action.tile]
        return face + 3 * action.boost
    if isinstance(action, Bump):
        return FACE[JO] + 3 * action.boost
    if isinstance(action, Discard):
        return FACE[action.tile]
    return 0


def _exposure(state: VoluspaState, action: VoluspaAction) -> int:
    """Length of the longest line through the cell the step played on."""
    if not isinstance(action, (Place, Bump)):
        return 0
    cell = cell_of(action.x, action.y)
    if cell not in state.board:
        return 0
    return max(len(line_cells(state.board, cell, ROW)), len(line_cells(state.board, cell, COL)))
