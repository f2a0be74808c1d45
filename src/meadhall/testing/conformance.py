"""The conformance suite every registered game must pass.

Each check takes a :class:`~meadhall.core.game.Game` and raises ``AssertionError`` with a
message naming the game, its options and the step when something is wrong. The test
suite runs them over every registered game, preset and player count
(``tests/conformance``); a game written outside meadhall can run them too::

    from meadhall.testing.conformance import check_game
    check_game(my_game)

What is checked:

* random playouts reach the end for every preset and player count, and no seat that
  must decide is ever left without a legal action;
* every legal action passes :meth:`~GameState.check` and its notation round-trips;
* illegal actions (wrong seat, actions legal elsewhere, garbage) raise and change nothing;
* clones are independent of the original, and the bots' ``apply_quiet`` reaches the
  same state as ``apply``;
* replaying the history, and exporting/importing the record as JSON, give the same state;
* views leak nothing: a world sampled for a seat gives that seat the same view; events
  a seat may see do not change when everything hidden from it changes; the seed and the
  RNG state never appear in any view or event;
* a game's words (:mod:`meadhall.core.words`) cover it: every legal action of every seat
  that decides has a label and a group (and JSON target data), every event every viewer
  sees has a text, the end has a standing for every seat in the engine's places; and the
  words leak nothing: computed in a world sampled for the seat, they are the same;
* every refusal reads for people (a sentence and a rule, no programmer's text);
* taking back (:mod:`meadhall.core.undo`): an action its seat may take back restores,
  taken back, exactly the state before it (fingerprint, every seat's view, the generator);
  it showed its seat nothing hidden (in a world sampled for the seat, the same action
  shows the seat the same view); one that drew on chance or showed something hidden, and
  any once another seat has acted, is refused with words for people;
* explicit chance (:func:`check_explicit_chance`), where a game offers it: each chance
  event's outcomes are a probability distribution, nobody acts while one waits, and every
  outcome gives a state that goes on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from meadhall.core.errors import IllegalAction
from meadhall.core.game import Action, Event, Game, GameState
from meadhall.core.preview import preview_target
from meadhall.core.record import GameRecord
from meadhall.core.rng import Rng
from meadhall.core.undo import NOT_NOW, OVER, TakeBacks, rng_position, take_back
from meadhall.core.undo import apply as apply_noting_takebacks
from meadhall.core.words import EVENT_WORD_KEYS, GameWords, events_json

#: A seed whose digits cannot appear by accident in a view.
PLANTED_SEED = 7_391_824_650_173_829_461


@dataclass(frozen=True)
class Setup:
    """One configuration to play: a preset and a player count."""

    preset: str
    players: int

    def __str__(self) -> str:
        return f"{self.preset}/{self.players}p"


def setups(game: Game) -> Iterator[Setup]:
    """Every preset with every player count the game allows."""
    info = game.info
    for preset in info.presets:
        for players in range(info.min_players, info.max_players + 1):
            yield Setup(preset, players)


def _views_json(state: GameState[Any]) -> dict[int | None, str]:
    seats: list[int | None] = [*range(state.num_players), None]
    return {seat: json.dumps(state.view(seat), sort_keys=True) for seat in seats}


def _visible(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    return [event.to_json() for event in events if event.visible_to(seat)]


def _secrets(state: GameState[Any]) -> list[str]:
    """Digits that must never leave the server: the seed and the RNG state words."""
    values = [state.seed]
    rng = getattr(state, "rng", None)
    if isinstance(rng, Rng):
        values.extend(rng.getstate())
    return [str(v) for v in values if v > 10**6]


def check_no_secrets(state: GameState[Any], events: list[Event], where: str) -> None:
    """The seed and RNG state appear in no view and no event."""
    secrets = _secrets(state)
    texts = list(_views_json(state).values())
    texts.append(json.dumps([event.to_json() for event in events]))
    for text in texts:
        for secret in secrets:
            assert secret not in text, f"{where}: a view or event contains the seed or RNG state"


def check_views_consistent(state: GameState[Any], rng: Rng, where: str) -> None:
    """A world sampled for a seat looks exactly the same to that seat."""
    seats: list[int | None] = [*range(state.num_players), None]
    for seat in seats:
        world = state.sample_world(seat, rng)
        mine = json.dumps(state.view(seat), sort_keys=True)
        theirs = json.dumps(world.view(seat), sort_keys=True)
        assert mine == theirs, f"{where}: the world sampled for seat {seat} shows that seat a different view"


def check_events_leak_nothing(state: GameState[Any], actor: int, action: Action, rng: Rng, where: str) -> None:
    """Events a seat may see do not depend on what is hidden from it.

    The action is applied in the real state and in worlds sampled for each other seat
    (and a spectator) in which the action is legal; what that seat sees must not differ.
    """
    real = state.clone()
    real_events = real.apply(actor, action)
    if any(event.kind in type(state).revealing_events for event in real_events):
        return  # the rules show hidden information here: nothing to compare
    observers: list[int | None] = [s for s in range(state.num_players) if s != actor]
    observers.append(None)
    for seat in observers:
        for _ in range(6):
            world = state.sample_world(seat, rng)
            if not world.is_legal(actor, action):
                continue
            world_events = world.apply(actor, action)
            assert _visible(real_events, seat) == _visible(world_events, seat), (
                f"{where}: seat {seat} sees events that depend on information hidden from it "
                f"(action {action} by seat {actor})"
            )
            words = _words(state)
            assert events_json(real_events, seat, words) == events_json(world_events, seat, words), (
                f"{where}: seat {seat} reads event texts that depend on information hidden from it "
                f"(action {action} by seat {actor})"
            )
            assert world.view(seat) == real.view(seat), (
                f"{where}: after {action}, seat {seat}'s view depends on information hidden from it"
            )
            break


def check_take_back(
    game: Game,
    before: GameState[Any],
    after: GameState[Any],
    seat: int,
    action: Action,
    takebacks: TakeBacks,
    rng: Rng,
    where: str,
) -> None:
    """Taking back ``seat``'s ``action`` (applied to ``before``, giving ``after``) restores ``before`` exactly.

    And the action showed the seat nothing hidden: in worlds sampled for the seat from its
    view before, the same action (where legal) shows it the same view as in the real game.
    """
    here = f"{where}: {action} by seat {seat} taken back"
    restored, _ = take_back(game, after, seat, takebacks)
    assert restored.fingerprint() == before.fingerprint(), f"{here} gives another state"
    assert rng_position(restored) == rng_position(before), f"{here} leaves the generator elsewhere"
    assert _views_json(restored) == _views_json(before), f"{here} shows some seat another view"
    assert restored.history() == before.history(), f"{here} keeps another history"
    mine = json.dumps(after.view(seat), sort_keys=True)
    for _ in range(3):
        world = before.sample_world(seat, rng)
        if not world.is_legal(seat, action):
            continue
        world.apply(seat, action)
        assert json.dumps(world.view(seat), sort_keys=True) == mine, (
            f"{where}: {action} by seat {seat} may be taken back, yet it showed the seat something hidden"
        )


def check_take_back_refused(
    game: Game, state: GameState[Any], takebacks: TakeBacks, last: tuple[int, IllegalAction | None], where: str
) -> None:
    """Every seat but the last mover, and the last mover after a refused action, cannot take anything back."""
    mover, refusal = last
    for seat in range(state.num_players):
        if seat == mover and refusal is None:
            continue
        before = state.fingerprint()
        try:
            take_back(game, state, seat, takebacks)
        except IllegalAction as error:
            check_refusal(error, f"{where}: taking back for seat {seat}")
            if seat != mover:
                assert error.rule in NOT_NOW, f"{where}: seat {seat} did not move last, yet is refused by {error.rule}"
        else:
            raise AssertionError(f"{where}: seat {seat} could take back a move it may not")
        assert state.fingerprint() == before, f"{where}: a refused take-back changed the state"


def check_illegal_unchanged(state: GameState[Any], candidates: list[Action], where: str) -> None:
    """Illegal actions raise :class:`IllegalAction` and leave the state exactly as it was."""
    before = state.fingerprint()
    movers = state.to_move()
    for seat in range(state.num_players):
        legal = set(state.legal_actions(seat)) if seat in movers else set()
        for action in candidates:
            if action in legal:
                continue
            try:
                state.apply(seat, action)
            except IllegalAction as error:
                check_refusal(error, f"{where}: {action} by seat {seat}")
            else:
                raise AssertionError(f"{where}: seat {seat} could apply {action}, which is not in legal_actions")
            assert state.fingerprint() == before, f"{where}: illegal {action} by seat {seat} changed the state"


#: Signs of a message written for programmers, not players.
_NOT_FOR_PEOPLE = ("Traceback", " object at 0x", "NoneType", "KeyError", "IndexError")


def _words(state: GameState[Any]) -> GameWords | None:
    """The game's words for the state's options (None: a game without words)."""
    words = state.game.words()
    return words.for_options(state.options) if words is not None else None


def check_refusal(error: IllegalAction, where: str) -> None:
    """A refusal reads for people: a sentence and a rule key, nothing a programmer left."""
    message = str(error)
    assert message.strip(), f"{where}: an illegal action gave an empty message"
    assert error.rule, f"{where}: the refusal {message!r} names no rule"
    found = [sign for sign in _NOT_FOR_PEOPLE if sign in message]
    assert not found, f"{where}: the refusal {message!r} is not written for people ({found})"


def check_words(state: GameState[Any], rng: Rng, where: str) -> None:
    """The game's words cover every legal action of every seat that decides, and leak nothing.

    For each seat that decides, and a spectator: its actions' words (label, group, target),
    its prompt and the words beside the board, computed from its view; then the same in a
    world sampled for the seat (everything hidden from it dealt again), which must give
    exactly the same words. A game without words has none to check.
    """
    words = _words(state)
    if words is None:
        return
    movers = state.to_move()
    for seat in [*range(state.num_players), None]:
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None and seat in movers else []
        mine = _words_of(words, state.view(seat), legal)
        if legal:
            actions = words.actions(state.view(seat), legal)
            assert [a["notation"] for a in actions] == legal, f"{where}: the words of seat {seat}'s actions miss some"
            for item in actions:
                assert item["label"].strip() and item["group"].strip(), (
                    f"{where}: {item['notation']} has no label or no group"
                )
                json.dumps(item["target"])
            assert mine["table"].get("prompt"), f"{where}: seat {seat} decides, and its words say nothing about what"
        world = state.sample_world(seat, rng)
        world_legal = [str(a) for a in world.legal_actions(seat)] if seat is not None and seat in movers else []
        theirs = _words_of(words, world.view(seat), world_legal)
        assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True), (
            f"{where}: the words for seat {seat} depend on information hidden from it"
        )


def check_previews(state: GameState[Any], candidates: list[Action], rng: Rng, where: str) -> None:
    """Previews of targets (legal and not) leak nothing: the same in a world sampled for the seat.

    For every seat: the targets of its legal actions and of ``candidates`` (actions seen
    before, mostly illegal now), previewed on the state (:func:`~meadhall.core.preview.preview_target`)
    and in a world :meth:`GameState.sample_world` deals for the seat, must read the same; a
    legal action's target previews as legal, a refusal names a rule and reads for people.
    """
    words = _words(state)
    if words is None:
        return
    movers = state.to_move()
    for seat in range(state.num_players):
        view = state.view(seat)
        legal = [str(a) for a in state.legal_actions(seat)] if seat in movers else []
        targets: list[dict[str, Any]] = []
        for item in words.actions(view, legal)[:8] if legal else []:
            if item["target"]:
                targets.append(dict(item["target"]))
        for action in candidates:
            try:
                said = words.actions(view, [str(action)])
            except (ValueError, KeyError, IndexError, TypeError):  # words for actions of another moment
                continue
            if said and said[0]["target"]:
                targets.append(dict(said[0]["target"]))
        if not targets:
            continue
        # What a board asks about: the same targets without their kind too (a card by its id, a cell).
        targets += [bare for bare in ({k: v for k, v in t.items() if k != "kind"} for t in targets) if bare]
        mine = [preview_target(words, state, seat, target) for target in targets]
        for target, found in zip(targets, mine, strict=True):
            if found is not None and not found["legal"] and words.target_notation(view, target) is None:
                # A place with no move on it (GameWords.place): the game's reason, not an engine refusal.
                assert found.get("refusal", "").strip(), f"{where}: seat {seat}'s preview of {target} says no reason"
            elif found is not None and not found["legal"]:
                assert found.get("refusal", "").strip() and found.get("rule"), (
                    f"{where}: seat {seat}'s preview of {target} is refused without the engine's words"
                )
        for item in words.actions(view, legal)[:8] if legal else []:
            if item["target"]:
                found = preview_target(words, state, seat, item["target"])
                assert found is not None and found["legal"], (
                    f"{where}: seat {seat}'s legal {item['notation']} previews as {found}"
                )
        world = state.sample_world(seat, rng)
        theirs = [preview_target(words, world, seat, target) for target in targets]
        assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True), (
            f"{where}: seat {seat}'s previews depend on information hidden from it"
        )


def check_judge(game: Game, state: GameState[Any], candidates: list[Action], where: str) -> None:
    """The game's judge (:meth:`Game.judge`) says what the engine does: legal targets, their points, refusals.

    For every seat that decides: its targets are legal actions; a few of them, judged with
    and without lines, are legal and score what applying them scores (the seat's score
    after, less before), each step with its ``lines`` only when they are asked for; an
    action of ``candidates`` the seat may not play now is judged illegal, with the rule.
    """
    for seat in state.to_move():
        judge = game.judge(state, seat)
        legal = game.legal_notations(state, seat)
        targets = judge.targets()
        assert set(targets) <= set(legal), f"{where}: seat {seat}'s judge lists targets that are not legal"
        for target in targets[:4] + targets[4::17][:3]:
            after = state.clone()
            after.apply_quiet(seat, game.parse_action(target))
            gained = after.scores()[seat] - state.scores()[seat]
            bare, worded = judge.judge(target, lines=False), judge.judge(target)
            for result in (bare, worded):
                assert result["legal"] and result["points"] == gained, f"{where}: {target} judged {result}"
            assert all("lines" not in step for step in bare["steps"]), f"{where}: {target}: lines not asked for"
            assert all(isinstance(step["lines"], list) for step in worded["steps"]), f"{where}: {target}: no lines"
        allowed = set(legal)
        for action in candidates[:6]:
            if str(action) in allowed:
                continue
            refused = judge.judge(str(action), lines=False)
            assert not refused["legal"] and refused["rule"] and refused["error"], (
                f"{where}: seat {seat}'s judge of {action} (not legal now) is {refused}"
            )


def _words_of(words: GameWords, view: dict[str, Any], legal: list[str]) -> dict[str, Any]:
    # Each action's words by notation: a world with the same view may list the same actions in
    # another order (an engine's internal order, such as the order figures came onto a region,
    # is no part of any view), and the order tells nothing hidden.
    actions = sorted(words.actions(view, legal), key=lambda item: item["notation"]) if legal else []
    return {"actions": actions, "table": words.table(view, legal)}


def check_event_words(state: GameState[Any], events: list[Event], where: str) -> None:
    """Every event has a text for every viewer that sees it; no event uses the keys the words add."""
    words = _words(state)
    if words is None:
        return
    for event in events:
        used = EVENT_WORD_KEYS & set(event.data)
        assert not used, f"{where}: event {event.kind} uses {sorted(used)}, keys the words add to an event's JSON"
        for viewer in [*range(state.num_players), None]:
            if not event.visible_to(viewer):
                continue
            said = words.event(event, viewer)
            assert said is not None and said["text"].strip(), (
                f"{where}: event {event.kind} has no text for viewer {viewer}"
            )


def check_result_words(state: GameState[Any], where: str) -> None:
    """The end in words: a standing for every seat, at the place the engine gives it."""
    words = _words(state)
    if words is None:
        return
    result = words.result(state.view(None))
    places = state.ranking()
    found = {standing["seat"]: standing["place"] for standing in result["standings"]}
    assert found == dict(enumerate(places)), f"{where}: the result in words places the seats {found}, not {places}"
    assert all(standing["score"].strip() for standing in result["standings"]), f"{where}: a score with no words"
    for component in words.components(state.options):
        assert component["key"] and component["name"], f"{where}: a component without a key or a name"


def check_clone_independent(state: GameState[Any], seat: int, action: Action, where: str) -> None:
    """Changing a clone leaves the original untouched, and the clone equals the original."""
    before = state.fingerprint()
    copy = state.clone()
    assert copy.fingerprint() == before, f"{where}: a fresh clone differs from the original"
    copy.apply(seat, action)
    assert state.fingerprint() == before, f"{where}: applying to a clone changed the original"


def check_replay(game: Game, state: GameState[Any], where: str) -> None:
    """The history replays to the same state; the JSON record round-trips."""
    history = state.history()
    replayed = game.replay(state.num_players, state.seed, state.options, history)
    assert replayed.fingerprint() == state.fingerprint(), f"{where}: replaying the history gives another state"
    record = GameRecord.from_state(state, [f"P{i}" for i in range(state.num_players)])
    text = record.to_json(result=state)
    again = GameRecord.from_json(text)
    assert again == record, f"{where}: the record changed through JSON"
    assert again.replay().fingerprint() == state.fingerprint(), f"{where}: the imported record replays differently"


def check_deal(game: Game, state: GameState[Any], dealt: list[Event], where: str) -> None:
    """``deal`` sets up the state ``new_game`` does; its events are events, for real seats, secret-free."""
    again = game.new_game(players=state.num_players, seed=state.seed, options=state.options)
    assert again.fingerprint() == state.fingerprint(), f"{where}: deal and new_game set up different states"
    for event in dealt:
        assert isinstance(event, Event), f"{where}: deal gave {event!r}, not an Event"
        audience = event.audience or frozenset()
        assert all(0 <= seat < state.num_players for seat in audience), f"{where}: {event} is for no real seat"
    check_no_secrets(state, dealt, f"{where} at setup")
    check_event_words(state, dealt, f"{where} at setup")


def play_and_check(
    game: Game,
    setup: Setup,
    seed: int,
    *,
    deep_every: int = 5,
    max_steps: int = 100_000,
) -> GameState[Any]:
    """Play one random game to the end, checking the protocol at every step.

    Cheap checks run at every step; clone, illegal-action and leak checks every
    ``deep_every`` steps. Returns the finished state.
    """
    rng = Rng(seed ^ 0x5EED)
    options = {"preset": setup.preset}
    state, dealt = game.deal(players=setup.players, seed=PLANTED_SEED + seed, options=options)
    where = f"{game.info.name} {setup} seed {seed}"
    check_deal(game, state, dealt, where)
    seen_actions: list[Action] = []
    takebacks = TakeBacks()
    # The take-back checks sample worlds with a generator of their own: the playout (which
    # seat does what) stays the one the other checks were written against.
    undo_rng = Rng(seed ^ 0x0DD0)
    step = 0
    while not state.is_terminal():
        here = f"{where} step {step}"
        movers = state.to_move()
        assert movers, f"{here}: the game is not over but no seat must decide"
        seat = movers[rng.below(len(movers))]
        for mover in movers:
            assert state.legal_actions(mover), f"{here}: seat {mover} must decide but has no legal action"
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), f"{here}: legal_actions lists an action twice"
        for action in legal:
            text = str(action)
            assert game.parse_action(text) == action, f"{here}: {text!r} does not round-trip"
        for action in (legal[rng.below(len(legal))] for _ in range(3)):
            state.check(seat, action)
        action = legal[rng.below(len(legal))]
        quiet = None
        if step % deep_every == 0:
            quiet = state.clone()  # the bots' path, apply_quiet, must reach the same state
            quiet.apply_quiet(seat, action)
            check_clone_independent(state, seat, action, here)
            candidates = seen_actions[-40:] + legal[:5]
            check_illegal_unchanged(state, candidates, here)
            check_views_consistent(state, rng, here)
            check_words(state, rng, here)
            check_previews(state, candidates, rng, here)
            check_judge(game, state, seen_actions[-6:], here)
            check_events_leak_nothing(state, seat, action, rng, here)
        before = state.clone() if step % deep_every == 0 else None
        events, refusal = apply_noting_takebacks(state, seat, action)
        takebacks = takebacks.then(seat, refusal)
        check_take_back_refused(game, state, takebacks, (seat, refusal), here)
        if before is not None and refusal is None:
            check_take_back(game, before, state, seat, action, takebacks, undo_rng, here)
        check_event_words(state, events, here)
        if quiet is not None:
            assert quiet.fingerprint() == state.fingerprint(), f"{here}: apply_quiet and apply reach different states"
            check_no_secrets(state, events, here)
        seen_actions.append(action)
        step += 1
        assert step < max_steps, f"{where}: the game did not end in {max_steps} steps"
    assert state.legal_actions(0) == [], f"{where}: a finished game still offers actions"
    places = state.ranking()
    assert sorted(places)[0] == 1, f"{where}: nobody is placed first"
    check_result_words(state, where)
    check_replay(game, state, where)
    return state


def check_explicit_chance(game: Game, setup: Setup, seed: int, max_steps: int = 100_000) -> int:
    """Explicit chance (``GameState.explicit_chance``), if the game offers it, over one random game.

    A game that offers none lists no chance events and declares no outcomes. One that does:
    at each chance event the outcomes are distinct, at most ``max_chance_outcomes``, their
    probabilities positive and summing to 1; nobody may act meanwhile; and each outcome
    gives a state that goes on (a seat with a legal action, another chance event, or the
    end). Returns how many chance events the game met.
    """
    rng = Rng(seed ^ 0xC4A7CE)
    state, _ = game.deal(players=setup.players, seed=PLANTED_SEED + seed, options={"preset": setup.preset})
    where = f"{game.info.name} {setup} seed {seed}"
    if not state.explicit_chance():
        assert state.chance_outcomes() is None, f"{where}: no explicit chance is offered, yet a chance event waits"
        assert type(state).max_chance_outcomes == 0, f"{where}: no explicit chance is offered, yet outcomes declared"
        return 0
    events = 0
    for step in range(max_steps):
        if state.is_terminal():
            return events
        outcomes = state.chance_outcomes()
        if outcomes is None:
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
            continue
        here = f"{where} step {step}"
        events += 1
        names = [outcome for outcome, _ in outcomes]
        assert names and len(set(names)) == len(names), f"{here}: the chance outcomes are empty or repeat"
        assert len(names) <= type(state).max_chance_outcomes, f"{here}: more chance outcomes than declared"
        assert all(p > 0 for _, p in outcomes), f"{here}: a chance outcome of probability 0 or less"
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9, f"{here}: the chance probabilities do not sum to 1"
        assert not any(state.legal_actions(seat) for seat in range(state.num_players)), (
            f"{here}: a seat may act while a chance event waits"
        )
        for outcome in names:
            dealt = state.clone()
            dealt.apply_chance(outcome)
            goes_on = dealt.is_terminal() or dealt.chance_outcomes() is not None
            goes_on = goes_on or any(dealt.legal_actions(seat) for seat in dealt.to_move())
            assert goes_on, f"{here}: chance outcome {outcome} leaves a state where nothing can happen"
        state.apply_chance(names[rng.below(len(names))])
    raise AssertionError(f"{where}: the game did not end in {max_steps} steps")


def check_take_backs_happen(game: Game, seed: int = 1, games: int = 3) -> dict[str, int]:
    """In random games of the default setup, some actions may be taken back and some are refused by the rules.

    So the take-back checks of :func:`play_and_check` are not empty for this game: a game
    where every action shows something new (or none does) is worth a look. Returns how
    many actions were counted by outcome (``undoable`` and each refusal's rule).
    """
    rng = Rng(seed)
    counts: dict[str, int] = {}
    for index in range(games):
        state = game.new_game(players=game.info.min_players, seed=PLANTED_SEED + seed + index)
        while not state.is_terminal():
            seat = state.to_move()[rng.below(len(state.to_move()))]
            legal = state.legal_actions(seat)
            _, refusal = apply_noting_takebacks(state, seat, legal[rng.below(len(legal))])
            outcome = "undoable" if refusal is None else refusal.rule
            counts[outcome] = counts.get(outcome, 0) + 1
    assert counts.get("undoable"), f"{game.info.name}: no action could be taken back in {games} random games"
    refused = {rule: n for rule, n in counts.items() if rule not in ("undoable", OVER)}
    assert refused, f"{game.info.name}: no action was kept by the rules (chance or something hidden shown)"
    return counts


def check_game(game: Game, seeds: tuple[int, ...] = (1,)) -> None:
    """Run the whole suite over every preset and player count of ``game``."""
    for setup in setups(game):
        for seed in seeds:
            play_and_check(game, setup, seed)
            check_explicit_chance(game, setup, seed)
    check_take_backs_happen(game)
