"""Bots: programs that choose a seat's actions from what that seat may know.

A bot sees exactly what a human in its seat would see: the seat's view
(:meth:`~meadhall.core.game.GameState.view`) and the seat's legal actions. It never
touches the game state, so it cannot peek at other hands or at the draw pile. All of
its chance comes from the seeded :class:`~meadhall.core.rng.Rng` it is handed, so a game
with bots replays exactly from its seeds.

Bots are found by name with :func:`make_bot` (``random``, ``greedy``, ``ismcts:1s``, or a
strength level such as ``hard``); new kinds join the registry with :func:`register_bot`, or
from another package through the ``meadhall.bots`` entry point group (docs/bots.md, "Your own
bot")::

    >>> import meadhall
    >>> from meadhall.bots import make_bot
    >>> from meadhall.core.rng import Rng
    >>> game = meadhall.get_game("voluspa")
    >>> state = game.new_game(players=2, seed=1)
    >>> seat = state.to_move()[0]
    >>> bot = make_bot("random")
    >>> action = bot.choose(game, state.view(seat), state.legal_actions(seat), Rng(5))
    >>> state.is_legal(seat, action)
    True
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from meadhall.bots.budget import Budget, ThinkingLimit, thinking_limit
from meadhall.core.game import Action, Game
from meadhall.core.rng import Rng


@runtime_checkable
class Bot(Protocol):
    """A player program for one seat.

    ``name`` is the bot's registry name (``"random"``), shown to people. A bot may also
    have the optional hooks ``reset(game, seat)``, ``observe(events)`` and
    ``game_over(view)``, which the lab's self-play calls when present (docs/bots.md,
    "Your own bot"); the protocol asks only for ``choose``.
    """

    name: str

    def choose(self, game: Game, view: dict[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        """Pick one of ``legal`` for the seat whose ``view`` this is.

        ``game`` gives the game's facts and notation; ``view`` is the seat's view of the
        position (its own hand and public information only); ``legal`` is non-empty and
        lists every legal action of the seat now; ``rng`` is the only source of chance
        the bot may use. The returned action must be one of ``legal``.
        """
        ...


BotFactory = Callable[[Budget | None], Bot]

#: The entry point group other packages offer bots in: ``name = "package.module:factory"``,
#: the factory called with the budget (``None`` without one) as :func:`register_bot` calls it.
ENTRY_POINT_GROUP = "meadhall.bots"

_FACTORIES: dict[str, BotFactory] = {}
_entry_points_loaded = False

#: Strength levels for people: each is a bot and a budget (see docs/bots.md).
LEVELS: dict[str, str] = {
    "beginner": "random",
    "easy": "greedy",
    "medium": "ismcts:0.25s",
    "hard": "ismcts:1s",
    "expert": "ismcts:4s",
}

#: Each level for people, in the order of :data:`LEVELS`: its name and a one-line
#: strength (what the lobby's bot menu shows, sent by ``GET /api/games``).
LEVEL_WORDS: dict[str, tuple[str, str]] = {
    "beginner": ("Beginner", "plays any legal move at random"),
    "easy": ("Greedy", "takes the best move now; never plans ahead"),
    "medium": ("Thoughtful", "weighs the replies you may have (a quarter second a move)"),
    "hard": ("Strong", "searches deeper (a second a move)"),
    "expert": ("Expert", "searches deepest; slower turns (four seconds a move)"),
}


def _key(name: str) -> str:
    return name.strip().lower()


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name)`` build a bot with ``factory(budget)`` (names are case-insensitive).

    Raises :class:`ValueError` if another factory is registered under that name already.
    """
    key = _key(name)
    existing = _FACTORIES.get(key)
    if existing is not None and existing is not factory:
        raise ValueError(f"a bot called {key!r} is registered already")
    _FACTORIES[key] = factory


def _load_entry_points() -> None:
    """Register the bots installed packages offer (``meadhall.bots`` entry points), once."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if _key(entry.name) not in _FACTORIES:
            register_bot(entry.name, entry.load())


def available_bots() -> list[str]:
    """The bot names :func:`make_bot` accepts, sorted (levels are accepted too)."""
    _load_entry_points()
    return sorted(_FACTORIES)


def make_bot(spec: str) -> Bot:
    """A new bot from a spec.

    A spec is a name (``"greedy"``), a name with a budget (``"ismcts:1s"``, ``"ismcts:2000"``
    for iterations) or a strength level (``"hard"``, see :data:`LEVELS`); ``BOT!ACTION``
    is that bot never taking ``ACTION`` (in the game's notation; ``+`` joins several)
    while it has another choice: ``greedy!build:surtur`` (see :mod:`meadhall.bots.avoiding`).

    Raises :class:`ValueError` naming the known bots and levels if the spec is unknown.
    """
    text = _key(spec)
    if "!" in text:
        from meadhall.bots.avoiding import AvoidingBot

        inner_spec, _, avoided = text.partition("!")
        actions = frozenset(action.strip() for action in avoided.split("+") if action.strip())
        if not actions:
            raise ValueError(f"{spec!r}: name the actions to avoid after '!', e.g. greedy!build:surtur")
        avoiding = AvoidingBot(make_bot(inner_spec), actions)
        avoiding.spec = text  # type: ignore[attr-defined]
        return avoiding
    if text in LEVELS:
        text = LEVELS[text]
    name, _, budget_text = text.partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        _load_entry_points()
        factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"no bot called {spec!r}; bots: {', '.join(available_bots())}; levels: {', '.join(LEVELS)}")
    budget = Budget.parse(budget_text) if budget_text else None
    bot = factory(budget)
    # Remember how to make this bot again (saved games, arena tables).
    with contextlib.suppress(AttributeError):
        bot.spec = _key(spec)  # type: ignore[attr-defined]
    return bot


def thinking_seconds(spec: str) -> float:
    """About how long a bot made from ``spec`` thinks over a real choice (wall-clock seconds).

    A time budget's seconds; 0 for bots that do not search or that count iterations.
    Servers let a bot that has no choice wait as long, so that its timing does not tell.
    """
    budget = getattr(make_bot(spec), "budget", None)
    return float(budget.seconds) if isinstance(budget, Budget) and budget.seconds is not None else 0.0


def _no_budget(name: str, make: Callable[[], Bot]) -> BotFactory:
    def factory(budget: Budget | None) -> Bot:
        if budget is not None:
            raise ValueError(f"the {name} bot takes no budget (it does not search)")
        return make()

    return factory


def _register_builtin() -> None:
    from meadhall.bots.greedy import GreedyBot
    from meadhall.bots.ismcts import IsmctsBot
    from meadhall.bots.random_bot import RandomBot

    register_bot(RandomBot.name, _no_budget("random", RandomBot))
    register_bot(GreedyBot.name, _no_budget("greedy", GreedyBot))
    register_bot(IsmctsBot.name, lambda budget: IsmctsBot(budget))


_register_builtin()

__all__ = [
    "ENTRY_POINT_GROUP",
    "LEVELS",
    "LEVEL_WORDS",
    "Bot",
    "BotFactory",
    "Budget",
    "ThinkingLimit",
    "available_bots",
    "make_bot",
    "register_bot",
    "thinking_limit",
    "thinking_seconds",
]
