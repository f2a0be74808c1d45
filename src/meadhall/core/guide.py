"""A guided first game: a script of prompts, played against a bot on a fixed seed.

A game offers one through :meth:`Game.guide` (the script lives in the game's package, in
its own words). The script is a line of play: the learner's seat, the deal (players,
options, seed) and a list of :class:`GuideStep`. Each step teaches one decision: what to
look at and why a move scores (``say``), where on the board (``target``, a target or part
of one as the game's action words give them, which the board plugin highlights), the
moves it accepts (``expect``; empty: any legal move) and the other seats' scripted
answers after it (``then``), so the same position comes back on every host. Once the
script is played, the other seats are the guide's ``bot`` and the game goes on.

Only decisions count: a move that is the seat's only legal one (a pass in a window it
cannot answer) is played as it comes and is no step and no answer. The answers are kept
per seat (each seat's decisions in order), so seats that decide at once (a draft, cards
chosen face down) may come in any order and the game is the same.

Hosts (the server and browser, the terminal) ask this module only: :func:`progress` says
where a game stands in its script, :func:`reply` what a scripted seat plays now, and
:func:`refusal` why a learner's move is not the one the step asks for, :func:`played_through`
whether a record of moves finished the script. :func:`check_guide`
plays a script through and lists what is inconsistent in it (tests run it on every game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from meadhall.core.errors import IllegalAction, MalformedAction

if TYPE_CHECKING:
    from meadhall.core.game import Game, GameState


@dataclass(frozen=True, slots=True)
class GuideStep:
    """One decision of the learner, with what it teaches.

    ``say``: the prompt (what to look at, why the move scores, what the others can do);
    ``target``: what the board highlights (a target of the game's action words, or part of
    one: a cell, a region, a card), or ``None``; ``expect``: the notations this step
    accepts, the first the one the script plays on with (empty: any legal move, allowed only
    once the script's answers are over); ``then``: the other seats' decisions after it, in the
    order the script plays them (each the decision of the seat to move that may play it).
    """

    say: str
    target: Mapping[str, Any] | None = None
    expect: tuple[str, ...] = ()
    then: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Guide:
    """A game's guided first game: the deal, the learner's seat and the script.

    ``title``: what hosts call it ("Learn to play Völuspá"); ``intro``: the first words,
    before the first step; ``done``: the words once every step is played; ``wrong``: the
    refusal of a move the step does not ask for (``{step}`` is the step's own words);
    ``bot``: the bot spec that plays the other seats after the script.
    """

    title: str
    intro: str
    done: str
    wrong: str
    steps: tuple[GuideStep, ...]
    players: int = 2
    seed: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    seat: int = 0
    bot: str = "greedy"


class GuideProgress(TypedDict):
    """Where a game stands in its guide, for hosts (JSON): the step to show, or the end."""

    title: str
    step: int  # the index of the step now (0-based); equal to ``steps`` once done
    steps: int
    say: str  # the step's words, or the intro before..., or ``done`` at the end
    target: dict[str, Any] | None
    expect: list[str]  # the notations the step accepts; empty: any legal move
    done: bool


def _is_forced(game: Game, state: GameState[Any], seat: int) -> bool:
    """Whether ``seat`` has one legal move only now (a pass in a window it cannot answer)."""
    return len(game.legal_notations(state, seat)) == 1


def _settle(game: Game, state: GameState[Any]) -> None:
    """Play every forced move (a seat with one legal move) until somebody has a choice."""
    while not state.is_terminal():
        forced = [seat for seat in state.to_move() if _is_forced(game, state, seat)]
        if not forced:
            return
        state.apply(forced[0], state.legal_actions(forced[0])[0])


def _answers(game: Game, guide: Guide) -> dict[int, tuple[str, ...]]:
    """Each other seat's scripted decisions in order, found by playing the script once.

    A ``then`` answer is the seat's whose legal moves hold it (the first such seat among the
    seats to move): in a window where several seats decide at once each keeps its own list,
    so the script holds whichever seat decides first. Kept per guide (the script is fixed).
    """
    key = id(guide)
    cached = _ANSWERS.get(key)
    if cached is not None and cached[0] is guide:
        return cached[1]
    answers: dict[int, list[str]] = {}
    state = start(game, guide)
    for step in guide.steps:
        _settle(game, state)
        if not step.expect or state.is_terminal() or guide.seat not in state.to_move():
            break
        try:
            state.apply(guide.seat, game.parse_action(step.expect[0]))
        except (IllegalAction, MalformedAction):
            break
        for notation in step.then:
            _settle(game, state)
            seat = _answering_seat(game, guide, state, notation)
            if seat is None:
                break
            answers.setdefault(seat, []).append(notation)
            state.apply(seat, game.parse_action(notation))
    found = {seat: tuple(moves) for seat, moves in answers.items()}
    _ANSWERS[key] = (guide, found)
    return found


_ANSWERS: dict[int, tuple[Guide, dict[int, tuple[str, ...]]]] = {}


def _answering_seat(game: Game, guide: Guide, state: GameState[Any], notation: str) -> int | None:
    """The seat (not the learner) to move now that may play ``notation``, or None."""
    if state.is_terminal():
        return None
    for seat in state.to_move():
        if seat != guide.seat and notation in game.legal_notations(state, seat):
            return seat
    return None


def _decisions(guide: Guide, state: GameState[Any], answers: Mapping[int, Sequence[str]]) -> dict[int, int]:
    """How many decisions (moves with a choice) each seat has made in ``state``'s game so far.

    The game is replayed from the guide's deal; it stops counting once the script is over
    for everybody (the learner past the last step, every scripted seat past its answers).
    """
    game = state.game
    counts: dict[int, int] = {}
    replay = start(game, guide)
    total = len(guide.steps)
    for seat, action in state.history():
        if counts.get(guide.seat, 0) >= total and all(
            counts.get(other, 0) >= len(moves) for other, moves in answers.items()
        ):
            break
        if not _is_forced(game, replay, seat):
            counts[seat] = counts.get(seat, 0) + 1
        replay.apply(seat, action)
    return counts


def progress(guide: Guide, state: GameState[Any]) -> GuideProgress:
    """The step ``state`` is at: the learner's decisions so far (moves with a choice) count the steps played."""
    played = _decisions(guide, state, {}).get(guide.seat, 0)
    total = len(guide.steps)
    if played >= total:
        return GuideProgress(
            title=guide.title, step=total, steps=total, say=guide.done, target=None, expect=[], done=True
        )
    step = guide.steps[played]
    say = step.say if played else f"{guide.intro}\n\n{step.say}"
    target = dict(step.target) if step.target is not None else None
    return GuideProgress(
        title=guide.title, step=played, steps=total, say=say, target=target, expect=list(step.expect), done=False
    )


def reply(guide: Guide, state: GameState[Any], seat: int) -> str | None:
    """The scripted move of ``seat`` (not the learner) now, or ``None`` when the script has none.

    The steps' ``then`` answers are, per seat, its decisions in order: the seat's next one,
    whatever the others did meanwhile (seats deciding at once may come in any order). A
    forced move (one legal move) is no decision; a seat past its answers is the guide's bot.
    """
    if seat == guide.seat or state.is_terminal() or seat not in state.to_move():
        return None
    game = state.game
    if _is_forced(game, state, seat):
        return None
    answers = _answers(game, guide)
    mine = answers.get(seat, ())
    made = _decisions(guide, state, answers).get(seat, 0)
    return mine[made] if made < len(mine) else None


def refusal(guide: Guide, state: GameState[Any], seat: int, notation: str) -> str | None:
    """Why the learner may not play ``notation`` now in the guide (``guide.wrong``), or ``None``.

    A forced move (the learner's only legal move) is never refused.
    """
    if seat != guide.seat:
        return None
    now = progress(guide, state)
    if now["done"] or not now["expect"] or notation in now["expect"]:
        return None
    if seat in state.to_move() and _is_forced(state.game, state, seat):
        return None
    return guide.wrong.replace("{step}", guide.steps[now["step"]].say)


def start(game: Game, guide: Guide) -> GameState[Any]:
    """The guide's first position (its players, seed and options)."""
    options = game.validate_options(dict(guide.options), players=guide.players)
    return game.new_game(players=guide.players, seed=guide.seed, options=options)


def played_through(game: Game, guide: Guide, moves: Sequence[tuple[int, str]]) -> bool:
    """Whether ``moves`` (seat, notation), played from the guide's deal, take the learner past the script's last step.

    What a host records on a profile: forced moves (passes) count for nothing, as in :func:`progress`.
    """
    state = start(game, guide)
    for seat, notation in moves:
        if progress(guide, state)["done"]:
            return True
        try:
            state.apply(seat, game.parse_action(notation))
        except (IllegalAction, MalformedAction):
            return False
    return progress(guide, state)["done"]


def check_guide(game: Game, guide: Guide) -> list[str]:
    """Play ``guide``'s script through and list every inconsistency (none: it is sound).

    Forced moves (a seat with one legal move) are played as they come, by whoever makes them.
    Every expected move and scripted answer is legal where it comes; the learner is among
    the seats to move, with a choice, at each step, and each answer is the next decision of a
    seat to move that :func:`reply` gives; a step's target is the target (or part of it) of
    one of its expected moves, in the game's words; a step that takes any legal move comes
    after the last scripted answer; every step has words.
    """
    from meadhall.core.preview import matching

    problems: list[str] = []
    words = game.words()
    state = start(game, guide)
    free = False
    for index, step in enumerate(guide.steps):
        where = f"step {index + 1}"
        if not step.say.strip():
            problems.append(f"{where}: no words")
        if free and (step.expect or step.then):
            problems.append(f"{where}: expects moves after a step that took any legal move")
        _settle(game, state)
        if state.is_terminal():
            problems.append(f"{where}: the game is over")
            break
        if not step.expect:  # the learner's next decision, whenever it comes
            free = True
            if step.then:
                problems.append(f"{where}: scripted answers after any legal move")
            continue
        if guide.seat not in state.to_move():
            problems.append(f"{where}: seat {guide.seat} is not among the seats to move ({list(state.to_move())})")
            break
        if progress(guide, state)["step"] != index:
            problems.append(f"{where}: the learner's decisions so far do not count {index} steps")
            break
        legal = game.legal_notations(state, guide.seat)
        for notation in step.expect:
            if notation not in legal:
                problems.append(f"{where}: {notation} is not legal here")
        if step.target is not None and words is not None:
            expected = [
                item for item in words.actions(state.view(guide.seat), legal) if item["notation"] in step.expect
            ]
            if matching(expected, step.target) is None:
                problems.append(f"{where}: the target {dict(step.target)} is no expected move's")
        if problems:
            break
        state.apply(guide.seat, game.parse_action(step.expect[0]))
        for notation in step.then:
            _settle(game, state)
            seat = _answering_seat(game, guide, state, notation)
            if seat is None:
                movers = [] if state.is_terminal() else list(state.to_move())
                problems.append(f"{where}: {notation} is scripted but no other seat to move ({movers}) may play it")
                return problems
            if reply(guide, state, seat) != notation:
                problems.append(f"{where}: the script does not answer {notation} here")
                return problems
            try:
                state.apply(seat, game.parse_action(notation))
            except (IllegalAction, MalformedAction) as error:
                problems.append(f"{where}: the answer {notation} is refused ({error})")
                return problems
    return problems
