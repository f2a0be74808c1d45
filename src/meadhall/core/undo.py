"""Taking back actions by the rules (undo), the same for every game.

A seat may take back its own latest actions while nothing new was revealed by them and
no other seat has acted since. An action is one its seat may take back when applying it

* drew on no chance: the state's generator (``state.rng``, a
  :class:`~meadhall.core.rng.Rng`) is where it was before (no tile or card drawn from a
  shuffled bag, no die rolled);
* caused no event of the game's :attr:`~meadhall.core.game.GameState.revealing_events`
  (a pack passed on, a hand dealt, a hidden card seen), and no event that only other
  seats see (something shown to them and not to the mover);
* did not end the game (a finished game is rated at once);
* and the game's own hook, :meth:`~meadhall.core.game.Game.take_back_refusal`, names no
  further reason (its words come from the game's package).

Taking back is a replay: the game is set up again from its options and seed and every
action but the taken-back ones is applied again, so the state, every seat's view and the
generator are exactly what they were before the taken-back actions. Nothing here does
I/O; the server keeps which actions were taken back in its record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meadhall.core.errors import IllegalAction, MalformedAction
from meadhall.core.game import Action, Event, Game, GameState
from meadhall.core.rng import Rng

#: Rule keys of the generic refusals (the ``rule`` of the :class:`IllegalAction` given).
CHANCE = "take-back-chance"
REVEALED = "take-back-revealed"
OVER = "take-back-game-over"
UNKNOWN_CHANCE = "take-back-unknown-chance"
GAME_RULE = "take-back-rule"
NOTHING = "take-back-nothing"
OTHERS = "take-back-others-acted"
#: The refusals that say the table is not where a take-back could be asked (nothing of the
#: seat's is the latest action), as opposed to the rules forbidding this one.
NOT_NOW = frozenset({NOTHING, OTHERS})


def rng_position(state: GameState[Any]) -> tuple[int, ...] | None:
    """Where the state's generator is (``None``: the state keeps no :class:`Rng` as ``rng``)."""
    rng = getattr(state, "rng", None)
    return rng.getstate() if isinstance(rng, Rng) else None


def refusal_after(
    before_rng: tuple[int, ...] | None,
    state: GameState[Any],
    seat: int,
    events: Sequence[Event],
) -> IllegalAction | None:
    """Why ``seat`` may not take back the action it just applied to ``state`` (``None``: it may).

    ``before_rng`` is :func:`rng_position` of the state before the action; ``events`` are
    what applying it caused. The game's own hook is asked before applying (see :func:`apply`).
    """
    if state.is_terminal():
        return IllegalAction("the game is over: its last move cannot be taken back", OVER)
    after_rng = rng_position(state)
    if after_rng is None and state.game.info.chance:
        return IllegalAction(
            "this game cannot tell whether a move drew on chance: no move is taken back", UNKNOWN_CHANCE
        )
    if after_rng != before_rng:
        return IllegalAction("that move drew on chance (a tile, a card or a die): it cannot be taken back", CHANCE)
    revealing = type(state).revealing_events
    for event in events:
        if event.kind in revealing:
            return IllegalAction("that move showed something that was hidden: it cannot be taken back", REVEALED)
        if event.audience is not None and event.audience - {seat}:
            return IllegalAction("that move showed other players something: it cannot be taken back", REVEALED)
    return None


def apply(state: GameState[Any], seat: int, action: Action) -> tuple[list[Event], IllegalAction | None]:
    """Apply ``action`` for ``seat`` (raising as :meth:`GameState.apply` does) and say whether it may be taken back.

    Returns the events and ``None`` if the seat may take the action back, or the refusal
    (an :class:`IllegalAction` with words for the mover and a rule key) if it may not.
    """
    words = state.game.take_back_refusal(state, seat, action)
    before = rng_position(state)
    events = state.apply(seat, action)
    if words is not None:
        return events, IllegalAction(words, GAME_RULE)
    return events, refusal_after(before, state, seat, events)


@dataclass(frozen=True)
class TakeBacks:
    """What may be taken back at the end of a game's history.

    ``seat`` acted last (``None``: nobody yet); its latest ``count`` actions, all its
    own and every one undoable, may be taken back (0: none). ``refusal`` says why the
    latest action may not be (when ``count`` is 0 and some action was played).
    """

    seat: int | None = None
    count: int = 0
    refusal: IllegalAction | None = None

    def then(self, seat: int, refusal: IllegalAction | None) -> TakeBacks:
        """What may be taken back after ``seat`` plays one more action (``refusal``: why not that one)."""
        if refusal is not None:
            return TakeBacks(seat, 0, refusal)
        return TakeBacks(seat, self.count + 1 if self.seat == seat else 1, None)

    def refusal_for(self, seat: int) -> IllegalAction | None:
        """Why ``seat`` may not take back an action now (``None``: it may take back its latest one).

        The words tell the seat only what it knows: who acted last is public (the seats to
        move change for everyone), and a reason is given only for the seat's own action.
        """
        if self.seat != seat:
            if self.seat is None:
                return IllegalAction("there is no move of yours to take back", NOTHING)
            return IllegalAction(
                "the last move is another player's: only your own latest moves can be taken back", OTHERS
            )
        if self.count > 0:
            return None
        if self.refusal is not None:
            return self.refusal
        return IllegalAction("there is no move of yours to take back", NOTHING)

    def public(self, seat: int | None) -> int:
        """How many actions ``seat`` may take back now (what its payload says; 0 for others)."""
        return self.count if seat is not None and seat == self.seat else 0


def replay(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None,
    actions: Sequence[tuple[int, Action | str]],
) -> tuple[GameState[Any], TakeBacks]:
    """Set up a game and apply ``actions`` as :meth:`Game.replay` does, and say what may be taken back at the end."""
    state = game.new_game(players=players, seed=seed, options=options)
    takebacks = TakeBacks()
    for index, (seat, action) in enumerate(actions):
        try:
            value = game.parse_action(action) if isinstance(action, str) else action
            _, refusal = apply(state, seat, value)
        except (IllegalAction, MalformedAction) as error:
            raise IllegalAction(
                f"action {index + 1} ({action}) by seat {seat} does not replay: {error}",
                getattr(error, "rule", "replay"),
            ) from error
        takebacks = takebacks.then(seat, refusal)
    return state, takebacks


def take_back(
    game: Game,
    state: GameState[Any],
    seat: int,
    takebacks: TakeBacks,
) -> tuple[GameState[Any], TakeBacks]:
    """Take back ``seat``'s latest action: the game replayed without it, and what may be taken back then.

    Raises the :class:`IllegalAction` of :meth:`TakeBacks.refusal_for` when the seat may not.
    """
    refusal = takebacks.refusal_for(seat)
    if refusal is not None:
        raise refusal
    history = state.history()[:-1]
    return replay(game, state.num_players, state.seed, state.options, history)
