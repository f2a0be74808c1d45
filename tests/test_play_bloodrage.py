"""Blood Rage: Valhalla in the terminal (``meadhall play bloodrage``), driven by scripted input.

The terminal is the generic host (:class:`~meadhall.cli.play.WordsRenderer`): everything it
says of Blood Rage comes from the game's words and text drawing, in its package.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

import meadhall
from meadhall.bots import make_bot
from meadhall.cli.main import build_parser
from meadhall.cli.play import CONTINUE, MOVED, SAVE_KEY, TerminalGame, WordsRenderer, result_lines, setup_from_args
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.core.words import fill
from meadhall.games.bloodrage_valhalla import BLOODRAGE, BloodRageState
from meadhall.games.bloodrage_valhalla.game import default_content
from meadhall.games.bloodrage_valhalla.notation import BRAction
from meadhall.games.bloodrage_valhalla.text import render_map
from meadhall.games.bloodrage_valhalla.words import WORDS, battle_strength, dealt_text, region_strength
from tests.bloodrage_valhalla.helpers import action_state, arrange, give_monster

GAME = BLOODRAGE
CONTENT = default_content()
ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "meadhall" / "games" / "bloodrage_valhalla"


class Script:
    """An input function answering each prompt with ``answer(prompt)``, keeping a transcript.

    ``segments[i]`` is everything printed between prompt ``i - 1`` and prompt ``i``, and
    ``viewers[i]`` the seat the game said may see the screen when prompt ``i`` came.
    """

    def __init__(self, out: io.StringIO, limit: int = 6000) -> None:
        self.out = out
        self.answer: Callable[[str], str] = lambda prompt: ""
        self.game: TerminalGame | None = None
        self.prompts: list[str] = []
        self.segments: list[str] = []
        self.viewers: list[int | None] = []
        self.mark = 0
        self.limit = limit

    def __call__(self, prompt: str) -> str:
        text = self.out.getvalue()
        self.segments.append(text[self.mark :])
        self.prompts.append(prompt)
        self.viewers.append(self.game.viewer if self.game is not None else None)
        if len(self.prompts) > self.limit:
            raise AssertionError("the game asked for too much input")
        reply = self.answer(prompt)
        self.out.write(prompt + reply + "\n")
        self.mark = len(self.out.getvalue())
        return reply


def make_terminal(
    players: int = 3,
    bots: Iterable[int] = (1, 2),
    seed: int = 5,
    preset: str = "first-game",
    names: list[str] | None = None,
    bot: str = "random",
) -> tuple[TerminalGame, Script, io.StringIO]:
    out = io.StringIO()
    script = Script(out)
    state = GAME.new_game(players=players, seed=seed, options={"preset": preset})
    terminal = TerminalGame(
        GAME, state, names=names, bots={seat: make_bot(bot) for seat in bots}, input_fn=script, output=out
    )
    script.game = terminal
    return terminal, script, out


def br(terminal: TerminalGame) -> BloodRageState:
    """The terminal's game state, as the Blood Rage state it is."""
    assert isinstance(terminal.state, BloodRageState)
    return terminal.state


def handle(terminal: TerminalGame, out: io.StringIO, line: str) -> tuple[str, str]:
    start = len(out.getvalue())
    outcome = terminal.handle(line)
    return outcome, out.getvalue()[start:]


HINT_ITEM = re.compile(r"(?:^|\s)(\d+)\) (\S+)")


def parse_hint(text: str) -> list[tuple[int, str]]:
    """The numbered actions ``hint`` listed: (number, notation), in the order listed."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("Legal actions (", "Legal moves (")))
    found: list[tuple[int, str]] = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        found.extend((int(n), action) for n, action in HINT_ITEM.findall(line))
    return found


def bring_human_to_move(terminal: TerminalGame) -> int:
    """Let the bots decide until a person must; that person looks at the screen."""
    while True:
        seat = terminal.next_seat()
        assert seat is not None, "the game ended"
        if seat not in terminal.bots:
            terminal.viewer = seat
            return seat
        terminal.play_bot_turn(seat)


def bot_step(state: BloodRageState, bot: Any, rng: Rng) -> list[Event]:
    """The first seat to move lets ``bot`` choose for it; the events."""
    seat = state.to_move()[0]
    action = bot.choose(GAME, state.view(seat), state.legal_actions(seat), rng)
    assert isinstance(action, BRAction)
    return state.apply(seat, action)


FALLBACK = re.compile(r"^\s*[a-z][a-z-]*: \{", re.MULTILINE)


# --- a whole game against bots ---------------------------------------------------------


def test_one_person_plays_a_whole_game_against_two_random_bots_using_hint() -> None:
    terminal, script, out = make_terminal(seed=21, preset="random-gods")
    state = br(terminal)
    pending = {"hint": False, "turns": 0}
    expected: list[tuple[int, str]] = []  # (history length when answered, the action meant)

    def answer(prompt: str) -> str:
        if expected:  # the action typed last (as notation or number) is the one applied
            ply, action = expected.pop()
            assert state.history()[ply] == (0, GAME.parse_action(action))
        if not prompt.startswith("Seat "):
            return ""  # the end-of-game prompt: leave
        assert prompt == "Seat 1 (You) > "
        if not pending["hint"]:
            pending["hint"] = True
            return "hint"
        pending["hint"] = False
        listed = parse_hint(script.segments[-1])
        legal = [str(a) for a in state.legal_actions(0)]
        assert sorted(action for _, action in listed) == sorted(legal)
        assert sorted(n for n, _ in listed) == list(range(1, len(legal) + 1))
        assert all(legal[number - 1] == action for number, action in listed)  # each action's own number
        pending["turns"] += 1
        expected.append((len(state.history()), listed[0][1]))
        # the first listed action, typed as notation or by its number, in turn
        return listed[0][1] if pending["turns"] % 2 else str(listed[0][0])

    script.answer = answer
    assert terminal.run() == 0
    assert state.is_terminal()
    text = out.getvalue()
    assert "Game over" in text and "Final ranking:" in text and "Legendary stat bonuses are included" in text
    ranking, scores = state.ranking(), state.scores()
    for seat in range(3):
        assert re.search(rf"{ordinal(ranking[seat])}\s+{re.escape(terminal.label(seat))}\s+{scores[seat]} Glory", text)
    seats_played = {seat for seat, _ in state.history()}
    assert seats_played == {0, 1, 2}
    assert pending["turns"] == sum(1 for seat, _ in state.history() if seat == 0)
    assert pending["turns"] > 20
    # the person decided drafts, actions and the end of an Age; every event was worded
    for heading in ("draft, pick 1 of 5", "draft, pick 5 of 5", "Action phase: Seat 1 (You)", "End of Age 1"):
        assert heading in text
    assert not FALLBACK.search(text), FALLBACK.search(text)
    assert "Your pack (Age 1, pick 1 of 5" in text
    assert "Map, Age 3" in text and "Bear clan · Glory" in text


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def test_all_bot_game_runs_to_the_end_and_shows_no_hand() -> None:
    terminal, script, out = make_terminal(bots=(0, 1, 2), seed=3)
    assert terminal.run() == 0
    assert terminal.state.is_terminal()
    text = out.getvalue()
    assert "Final ranking" in text and "Your hand" not in text and "You keep" not in text
    # the map after the bots' turns, through every Age, and at the end
    assert "Map, Age 2" in text and "Map, Age 3" in text
    assert text.rindex("Map, Age 3") > text.index("Game over")
    assert script.prompts == ["Game over: 'save FILE' keeps the record; press Enter to leave. > "]


def test_the_log_begins_with_the_deal_of_age_one() -> None:
    terminal, _script, out = make_terminal(bots=(0, 1, 2), seed=3)
    _state, dealt = GAME.deal(players=3, seed=3, options=dict(terminal.state.options))
    assert [event.kind for event in dealt] == ["god-arrives", "dealt"]
    assert terminal.run() == 0
    text = out.getvalue()
    first_pick = text.index("has picked a card")
    # Age 1 is told like Ages 2 and 3: its god arrives and its cards are dealt, before anyone picks
    assert text.index("Age 1: ") < text.index("arrives in") < first_pick
    assert text.index("Age 1: six cards dealt to each clan") < first_pick
    assert "Age 2: six cards dealt to each clan" in text or "Age 2: the deck" in text


# --- hot-seat: simultaneous decisions stay hidden ------------------------------------------


def _private_cards(state: BloodRageState, seat: int) -> set[str]:
    """Every card ``seat`` holds face down: hand, pack, quests, drafted, kept, pick, battle card."""
    view = state.view(seat)
    cards = set(view["hand"]) | set(view["pack"]) | set(view["my_quests"])
    cards |= set(view["my_drafted"]) | set(view["my_saved"])
    for key in ("my_pick", "my_card"):
        if view.get(key):
            cards.add(str(view[key]))
    return cards


class PublicCards:
    """Cards the *engine* has shown every seat so far (not what the terminal says it showed).

    The game's actions are replayed on a shadow copy, and the cards of the events the
    engine made public (upgrades, revealed battle cards, quests) are collected; the public
    view adds upgrades, discards and cards known to be in a hand.
    """

    def __init__(self, state: BloodRageState) -> None:
        self.shadow = GAME.new_game(players=state.num_players, seed=state.seed, options=dict(state.options))
        self.seen: set[str] = set()

    def __call__(self, state: BloodRageState) -> set[str]:
        for seat, action in state.history()[len(self.shadow.history()) :]:
            for event in self.shadow.apply(seat, action):
                if event.audience is None:
                    self.seen |= _cards_in(event)
        assert self.shadow.fingerprint() == state.fingerprint()
        view = state.view(None)
        cards = set(self.seen)
        for clan in view["clans"]:
            cards |= set(clan["upgrades"]) | set(clan["discards"]) | set(clan["known"])
        battle = view.get("battle") or {}
        cards |= {str(c) for c in (battle.get("cards") or {}).values() if c}
        return cards


def _cards_in(event: Event) -> set[str]:
    cards = {str(event.data["card"])} if event.data.get("card") else set()
    return cards | {str(c) for c in (event.data.get("cards") or {}).values() if c}


def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w'-]){re.escape(name)}(?![\w'-])")


@pytest.mark.parametrize(
    ("players", "bots", "seed"),
    [(3, (), 17), (4, (2,), 9), (5, (0, 3), 4)],
    ids=["3 people", "3 people and a bot", "3 people and 2 bots"],
)
def test_hot_seat_never_shows_anyone_elses_cards_pack_or_battle_card(
    players: int, bots: tuple[int, ...], seed: int
) -> None:
    names = ["Ann", "Bo", "Cy", "Di", "Ed"][:players]
    terminal, script, out = make_terminal(
        players=players, bots=bots, seed=seed, preset="random-gods", names=names, bot="greedy"
    )
    state = br(terminal)
    rng = Rng(11)
    decisions: list[tuple[int, int]] = []  # (prompt index, seat)
    checked = {"cards": 0, "segments": 0}
    looks = ["hand", "scores", "board", "explain pass", "log 40", "explain", "hint", "log all"]
    public_cards = PublicCards(state)

    def answer(prompt: str) -> str:
        index = len(script.prompts) - 1
        segment = script.segments[-1]
        viewer = script.viewers[-1]
        public = public_cards(state)
        monsters = {CONTENT.monsters[m].name for m in state.view(None)["monsters_in_play"]}
        for other in range(players):
            if other == viewer:
                continue
            for card in _private_cards(state, other) - public:
                assert card not in segment, (prompt, viewer, other, card)
                name = CONTENT.cards[card].name
                if name in monsters:  # a monster's card bears its name, and the game's monsters are public
                    continue
                assert not _name_pattern(name).search(segment), (prompt, viewer, other, name)
                checked["cards"] += 1
        checked["segments"] += 1
        for line in segment.splitlines():
            if line.startswith("Your hand, "):
                assert viewer is not None and line.startswith(f"Your hand, {terminal.label(viewer)}:"), line
            if line.startswith(("You keep ", "You play ", "You draw ", "You remove ", "Your quest: ")):
                assert viewer is not None, line
        if prompt.startswith("Seat "):
            seat = terminal.seat_to_move()
            assert seat is not None and viewer == seat and prompt == f"{terminal.label(seat)} > "
            decisions.append((index, seat))
            if len(decisions) % 7 == 3 and script.prompts[-2:-1] != [prompt]:  # look around now and then
                return looks[(len(decisions) // 7) % len(looks)]
            legal = state.legal_actions(seat)
            choice = rng.below(len(legal))
            if rng.below(2):
                return str(choice + 1)  # by its number in 'hint'
            return str(legal[choice])
        return ""

    script.answer = answer
    assert terminal.run() == 0
    assert state.is_terminal()
    assert checked["segments"] > 150 and checked["cards"] > 2000, checked
    # simultaneous decisions were made by each person in turn, behind the pass screen
    passes = 0
    for (first, seat_a), (second, seat_b) in itertools.pairwise(decisions):
        if seat_a == seat_b:
            continue
        between = script.prompts[first + 1 : second]
        assert f"Press Enter when only {names[seat_b]} can see the screen. " in between, between
        assert any(p.startswith("Your turn is over. Press Enter to hide your cards") for p in between), between
        passes += 1
    assert passes > 30
    picks = [p for p in script.prompts if p.startswith("Press Enter when only")]
    for prompt, segment in zip(script.prompts, script.segments, strict=True):
        if prompt in picks:
            assert "Your hand" not in segment and "Your pack" not in segment
    text = out.getvalue()
    assert "has picked a card." in text and "has chosen a battle card, face down." in text
    assert "Final ranking" in text


def test_bots_decide_first_in_a_simultaneous_decision_and_their_choices_stay_hidden() -> None:
    terminal, _, out = make_terminal(seed=8)
    seat = bring_human_to_move(terminal)
    assert seat == 0
    view = terminal.state.view(None)
    assert view["phase"] == "draft" and view["picked"] == [False, True, True]
    text = out.getvalue()
    assert "Seat 2 (Bjorn the random bot) has picked a card." in text
    assert "Seat 3 (Sigrid the random bot) has picked a card." in text
    for other in (1, 2):
        for card in terminal.state.view(other)["pack"]:
            assert card not in text and CONTENT.cards[card].name not in text


# --- what is on the screen -------------------------------------------------------------------


def test_the_map_shows_regions_neighbours_markers_and_figures() -> None:
    state = action_state(players=3, seed=7)
    arrange(
        state,
        figures=[
            ("valhalla", 0, "warrior"),
            ("valhalla", 0, "warrior"),
            ("valhalla", 0, "elite"),
            ("breidablik", 1, "warrior"),
            ("breidablik", 0, "elite"),
        ],
        tokens=("sokkvabekk", "glitnir"),
        gods={"gladsheim": "thor"},
    )
    give_monster(state, 2, "ogre-chieftain")
    state.clans[2].monsters.remove("ogre-chieftain")
    state.board["valhalla"].append((2, "ogre-chieftain"))
    state.clans[2].warriors -= 1
    state.board["valhalla"].append((2, "warrior"))  # the Ogre Chieftain gives it +1 STR
    state.claimed = {"breidablik"}
    lines = render_map(state.view(None))
    by_region = {line.split()[0]: line for line in lines if line.startswith("  ") and " : " in line}
    assert set(by_region) == {r.name for r in CONTENT.regions.values()}
    assert by_region["Valhalla"].endswith(": Seat1 2W 1E =3, Seat3 1W + Ogre Chieftain =4")
    assert "~ every region" in by_region["Valhalla"] and "valor" in by_region["Valhalla"]
    assert by_region["Breidablik"].endswith(": Seat1 1E =1, Seat2 1W =1")
    assert "~ Gladsheim, Himinbjorg" in by_region["Breidablik"] and "claimed" in by_region["Breidablik"]
    assert "god Thor" in by_region["Gladsheim"] and "closed (token 7)" in by_region["Sokkvabekk"]
    assert "common, +Horns" in by_region["Himinbjorg"] and by_region["Himinbjorg"].endswith(": -")
    text = "\n".join(lines)
    assert "Thor (Age 1) in Gladsheim: win a contest there to raise a stat of your choice one step" in text
    assert "Loki arrives in Age 2." in text


def test_strength_on_the_screen_is_the_engines() -> None:
    aura = {m.id for m in CONTENT.monsters.values() if any(e.do == "others_strength" for e in m.abilities)}
    boosts = {"warrior_strength", "elite_strength", "monster_strength"}
    upgrades = {c.id for c in CONTENT.cards.values() if any(e.do in boosts for e in c.effects)}
    compared = {"regions": 0, "battles": 0, "auras": 0, "upgrades": 0}
    for seed in range(6):
        state = GAME.new_game(players=3 + seed % 3, seed=seed, options={"preset": "random-gods"})
        bot = make_bot("greedy")  # greedy bots play upgrades and monsters; random ones seldom do
        rng = Rng(seed)
        while not state.is_terminal():
            view = state.view(None)
            for region, figures in view["board"].items():
                for seat in range(state.num_players):
                    assert region_strength(view, region, seat) == state.strength_in(region, seat)
                    compared["regions"] += 1
                    mine = [kind for owner, kind in figures if owner == seat]
                    compared["auras"] += len(mine) > 1 and bool(aura & set(mine))
                    compared["upgrades"] += bool(mine) and bool(upgrades & set(view["clans"][seat]["upgrades"]))
            if view.get("battle") and view["battle"]["revealed"]:
                for seat in view["battle"]["participants"]:
                    assert battle_strength(CONTENT, view, seat) == state.battle_strength(seat)
                    compared["battles"] += 1
            bot_step(state, bot, rng)
    assert compared["regions"] > 10_000 and compared["battles"] > 0, compared
    assert compared["upgrades"] > 100, compared  # auras: the hand-built map above


def _battle_of_the_person(seed: int) -> tuple[TerminalGame, io.StringIO, int] | None:
    """A game where the person (seat 1) must choose a battle card after the bots have."""
    terminal, _, out = make_terminal(seed=seed)
    state = br(terminal)
    while not state.is_terminal():
        seat = terminal.next_seat()
        assert seat is not None
        if seat in terminal.bots:
            terminal.play_bot_turn(seat)
            continue
        terminal.viewer = seat
        battle = state.battle
        if state.phase == "battle" and battle is not None and seat in battle.participants:
            return terminal, out, seat
        handle(terminal, out, str(state.legal_actions(seat)[0]))
    return None


def test_a_battle_shows_who_has_chosen_but_not_what_until_the_reveal() -> None:
    found = next(filter(None, (_battle_of_the_person(seed) for seed in range(40))), None)
    assert found is not None, "no battle of the person against bots in these seeds"
    terminal, out, seat = found
    state = br(terminal)
    battle = state.battle
    assert battle is not None
    others = [s for s in battle.participants if s != seat]
    assert others and all(s in battle.played for s in others)  # the bots chose first
    _, text = handle(terminal, out, "board")
    assert text.startswith("\nMap, Age ") and "\nBattle in " in text
    text = text.split("\nBattle in ", 1)[1]
    public = PublicCards(state)(state)
    for other in others:
        assert re.search(rf"{re.escape(terminal.label(other))}: .*has chosen a card", text)
        card = battle.played[other]
        if card is not None and card not in public:
            assert card not in out.getvalue() and CONTENT.cards[card].name not in out.getvalue()
    assert re.search(rf"{re.escape(terminal.label(seat))}: .*choosing a card", text)
    outcome, text = handle(terminal, out, str(state.legal_actions(seat)[0]))
    assert outcome == MOVED
    assert "Battle cards revealed in " in text
    assert re.search(r"Battle in \w+: (.* wins\.|a tie)", text) and re.search(r": \d+ STR", text)
    for other in others:
        assert terminal.label(other) in text.split("Battle cards revealed in ", 1)[1]


def test_hint_numbers_can_be_typed_and_groups_can_be_asked_for() -> None:
    terminal, _, out = make_terminal(seed=4)
    state = br(terminal)
    seat = bring_human_to_move(terminal)
    while state.phase != "action":
        handle(terminal, out, "1")
        seat = bring_human_to_move(terminal)
    _, text = handle(terminal, out, "hint")
    listed = parse_hint(text)
    legal = state.legal_actions(seat)
    assert sorted(a for _, a in listed) == sorted(str(a) for a in legal)
    assert "  Summon (1 Rage, monsters free; into a common region): 1) summon:" in text
    _, only = handle(terminal, out, "hint summon")
    assert {a for _, a in parse_hint(only)} == {str(a) for a in legal if a.kind == "summon"}
    assert "pass" not in {a for _, a in parse_hint(only)}
    outcome, bad = handle(terminal, out, str(len(legal) + 1))
    assert outcome == CONTINUE and "Cannot read that move: there is no action" in bad
    before = state.fingerprint()
    outcome, illegal = handle(terminal, out, "summon:warrior@valhalla")
    assert outcome == CONTINUE and "Not allowed:" in illegal and "common regions" in illegal
    assert state.fingerprint() == before
    outcome, explained = handle(terminal, out, "explain pass")
    assert "pass: Pass: your Rage drops to 0" in explained and "You can do it now." in explained
    _, labelled = handle(terminal, out, "hint summon")
    assert "Summon a Warrior into " in labelled and "(1 Rage)" in labelled
    number, action = listed[2]
    outcome, text = handle(terminal, out, str(number))
    assert outcome == MOVED
    assert state.history()[-1] == (seat, GAME.parse_action(action))


def test_a_new_draft_round_is_a_new_turn_even_for_the_same_person() -> None:
    terminal, script, out = make_terminal(seed=6)
    state = br(terminal)
    seat = bring_human_to_move(terminal)
    assert state.view(None)["picked"] == [False, True, True]  # the person picks last
    first, second = state.legal_actions(seat)[:2]
    before = state.fingerprint()
    outcome, text = handle(terminal, out, f"{first} {second}")
    assert outcome == CONTINUE and f"your turn is over after {first}, so {second} cannot follow" in text
    assert state.fingerprint() == before
    outcome, text = handle(terminal, out, str(first))
    assert outcome == MOVED and terminal.turn_ended
    assert "The packs pass left." in text
    assert seat in state.to_move()  # the person decides again at once: no pass screen, a new heading
    script.answer = lambda prompt: "quit" if prompt.startswith("Seat 1") else "n"
    assert terminal.play_human_turn(seat) == "quit"
    assert script.prompts[0] == "Seat 1 (You) > "
    assert "=== Age 1, draft, pick 2 of 5: Seat 1 (You) ===" in script.segments[0]


def test_a_march_fits_in_one_line_or_is_refused_whole() -> None:
    state = action_state(players=3, seed=7)
    arrange(state, figures=[("breidablik", 0, "warrior"), ("breidablik", 0, "elite")], current=0)
    out = io.StringIO()
    terminal = TerminalGame(GAME, state, bots={1: make_bot("random"), 2: make_bot("random")}, output=out)
    terminal.viewer = 0
    before = state.fingerprint()
    outcome, text = handle(terminal, out, "march:breidablik move:warrior>valhalla move:elite>folkvang")
    assert outcome == CONTINUE and "Not allowed: step 3" in text
    assert state.fingerprint() == before
    outcome, text = handle(terminal, out, "march:breidablik move:warrior>valhalla done summon:warrior@gladsheim")
    assert outcome == CONTINUE and "your turn is over after" in text
    assert state.fingerprint() == before
    outcome, text = handle(terminal, out, "march:breidablik move:warrior>valhalla")
    assert outcome == MOVED and not terminal.turn_ended
    assert "Seat 1 (You) marches from Breidablik." in text
    assert "Seat 1 (You) moves a Warrior from Breidablik to Valhalla." in text
    outcome, text = handle(terminal, out, "done")
    assert outcome == MOVED and terminal.turn_ended
    assert ("valhalla", 0, "warrior") in {(r, o, k) for r, figs in state.board.items() for o, k in figs}


def test_a_person_may_decline_a_quests_raise_and_keep_fewer_than_three_cards() -> None:
    state = action_state(players=3, seed=7)
    figures = [("breidablik", 0, "warrior"), ("breidablik", 0, "warrior"), ("folkvang", 1, "warrior")]
    arrange(state, figures=figures, hands={0: ["tyr-25", "thor-02", "thor-13"]}, current=0, first=0)
    out = io.StringIO()
    terminal = TerminalGame(GAME, state, names=["You", "B", "C"], output=out)
    terminal.viewer = 0
    handle(terminal, out, "quest:tyr-25")
    for seat in (1, 2, 0):
        terminal.viewer = seat
        outcome, text = handle(terminal, out, "pass")
        assert outcome == MOVED
    assert "Seat 1 (You) reveals the quest Overwhelming Host" in text and "fulfilled" in text
    terminal.viewer = 0
    prompt = "\n".join(terminal.renderer.prompt_lines(state.view(0), state.legal_actions(0), "Seat 1"))
    assert "You may raise one of your stats one step (quest), or none." in prompt
    _, text = handle(terminal, out, "hint")
    assert "Raise (one step; none: no raise):" in text and "raise:none" in text
    _, explained = handle(terminal, out, "explain raise:none")
    assert "Raise no stat" in explained and "You can do it now." in explained
    outcome, text = handle(terminal, out, "raise:none")
    assert outcome == MOVED and "Seat 1 (You) raises no stat (quest)." in text
    assert "Seat 1 (You) gains 4 Glory (quest fulfilled)" in text
    # The end of the Age: three cards in hand, so the person may keep them all, or fewer.
    assert state.phase == "keep" and state.to_move() == (0,)
    prompt = "\n".join(terminal.renderer.prompt_lines(state.view(0), state.legal_actions(0), "Seat 1"))
    assert "at most 3 go on to the next Age" in prompt and "or keep the cards you hold." in prompt
    _, text = handle(terminal, out, "hint")
    assert "keep" in {action for _, action in parse_hint(text)}
    handle(terminal, out, "drop:thor-02")
    outcome, text = handle(terminal, out, "keep")
    assert outcome == MOVED and "Seat 1 (You) keeps 2 cards for the next Age." in text
    assert state.age == 2 and sorted(state.clans[0].saved) == ["thor-13", "tyr-25"]


# --- events, ranking, saving ----------------------------------------------------------------


def test_every_event_the_engine_emits_has_words() -> None:
    # the engine's modules (state, phases, contests, effects, decisions, ...): where events are built
    engine = [path for path in PACKAGE.glob("*.py") if path.name not in ("words.py", "text.py")]
    kinds = {kind for path in engine for kind in re.findall(r'Event\(\s*"([a-z-]+)"', path.read_text("utf-8"))}
    assert len(kinds) > 30
    worded = set(re.findall(r'kind == "([a-z-]+)"', (PACKAGE / "words.py").read_text("utf-8")))
    assert kinds <= worded, kinds - worded
    labels = ["Seat 1 (A)", "Seat 2 (B)", "Seat 3 (C)", "Seat 4 (D)"]
    seen: set[str] = set()
    for seed in range(8):
        state = GAME.new_game(players=4, seed=seed, options={"preset": "random-gods"})
        bot = make_bot("random")
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            for event in bot_step(state, bot, rng):
                seen.add(event.kind)
                for viewer in (None, seat):
                    if event.visible_to(viewer):
                        said = WORDS.event(event, viewer)
                        assert said is not None and said["text"].strip(), (event, viewer)
                        for line in (said["text"], *said["details"]):
                            assert "{" not in fill(line, labels) and "Someone" not in fill(line, labels), line
    assert len(seen) > 25


def test_final_ranking_breaks_ties_by_rage_then_shares() -> None:
    view = {
        "clans": [
            {"seat": 0, "glory": 40, "rage": 1},
            {"seat": 1, "glory": 40, "rage": 3},
            {"seat": 2, "glory": 12, "rage": 0},
            {"seat": 3, "glory": 12, "rage": 0},
        ],
        "places": [2, 1, 3, 3],
    }
    labels = ["Seat 1 (A)", "Seat 2 (B)", "Seat 3 (C)", "Seat 4 (D)"]
    lines = result_lines(WORDS.result(view), labels)
    text = "\n".join(lines)
    assert lines[1].split()[:3] == ["1st", "Seat", "2"] and lines[2].split()[:3] == ["2nd", "Seat", "1"]
    assert "Tie-break: Seat 2 (B) and Seat 1 (A) have 40 Glory each" in text
    assert "so Seat 2 (B) places higher" in text
    assert "Tie: Seat 3 (C) and Seat 4 (D) have 12 Glory and 0 Rage left each: they share the place." in text
    assert lines[-1] == "Winner: Seat 2 (B)."
    # without places (an unfinished view), the same order comes from Glory and Rage
    del view["places"]
    assert result_lines(WORDS.result(view), labels) == lines


def test_save_then_load_gives_the_same_game(tmp_path: Path) -> None:
    terminal, _, out = make_terminal(bots=(1,), seed=12, names=["Ann", "", "Cy"])
    for _ in range(12):
        seat = bring_human_to_move(terminal)
        outcome, _ = handle(terminal, out, str(terminal.state.legal_actions(seat)[-1]))
        assert outcome == MOVED
    path = tmp_path / "game.json"
    outcome, text = handle(terminal, out, f"save {path}")
    assert outcome == CONTINUE and "Saved to" in text
    saved = path.read_text(encoding="utf-8")
    assert json.loads(saved)[SAVE_KEY]["seats"] == ["human", "random", "human"]
    record = meadhall.GameRecord.from_json(saved)
    assert record.game == "bloodrage-valhalla" and record.players == ["Ann", "Bjorn the random bot", "Cy"]
    assert record.replay().fingerprint() == terminal.state.fingerprint()

    other, _, other_out = make_terminal(bots=(), seed=99)
    outcome, text = handle(other, other_out, f"load {path}")
    assert outcome == "loaded"
    assert other.state.fingerprint() == terminal.state.fingerprint()
    assert sorted(other.bots) == [1] and other.names == ["Ann", "Bjorn the random bot", "Cy"]
    assert "Loaded " in text and "Age 1, " in text
    voluspa = tmp_path / "voluspa.json"
    voluspa.write_text(
        meadhall.GameRecord.from_state(meadhall.get_game("voluspa").new_game(players=2, seed=1)).to_json(),
        encoding="utf-8",
    )
    outcome, text = handle(other, other_out, f"load {voluspa}")
    assert outcome == CONTINUE and "Cannot load" in text and "not Blood Rage" in text
    assert other.state.fingerprint() == terminal.state.fingerprint()


# --- setting up and the real command -------------------------------------------------------


def test_flags_set_up_blood_rage_with_three_players_by_default() -> None:
    parser = build_parser()

    def setup_of(*argv: str) -> Any:
        return setup_from_args(parser.parse_args(["play", "bloodrage", *argv]), GAME)

    setup = setup_of("--seed", "4")
    assert (setup.players, setup.bot_seats) == (3, [1, 2])
    assert setup_of("--players", "5", "--humans", "2").bot_seats == [2, 3, 4]
    assert setup_of("--preset", "first-game").options == {"preset": "first-game"}
    with pytest.raises(ValueError, match="3 to 5 players"):
        setup_of("--players", "2")
    assert parser.parse_args(["play"]).game is None  # meadhall play: the game asked for, or the game of --load
    assert isinstance(TerminalGame(GAME, GAME.new_game(players=3, seed=1), output=io.StringIO()).renderer,
                      WordsRenderer)  # fmt: skip


def test_meadhall_play_bloodrage_runs_as_a_command_with_scripted_input(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "meadhall"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "meadhall.cli.main"]
    script = (
        "help\nhint\nboard\nscores\nhand\ncards thor-07\nexplain pick:baldr-11\nexplain pick:thor-07\nXX\n1\nhand\n"
        "quit\ny\nsaved.json\n"
    )
    result = subprocess.run(
        [*command, "play", "bloodrage", "--players", "3", "--bots", "2,3", "--seed", "5"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Blood Rage: Valhalla: 3 players" in text
    assert "Legal moves (6; type one, or its number):" in text
    assert "Map, Age 1" in text and "> Seat 1 (You)" in text and "Bear clan · Glory 0" in text
    assert "Your pack (Age 1, pick 1 of 5" in text and "Your pack (Age 1, pick 2 of 5" in text
    assert "thor-07 Giant-Slayer" in text and "Thor · battle card, STR +2" in text
    assert "pick:baldr-11: Keep Radiant Guardians [Baldr]" in text and "You can do it now." in text
    assert "Giant-Slayer [Thor]" in text and "But you cannot do it now:" in text
    assert "Cannot read that move" in text
    assert "Farewell." in text
    saved = json.loads((tmp_path / "saved.json").read_text(encoding="utf-8"))
    assert saved["game"] == "bloodrage-valhalla" and saved["seed"] == 5
    assert saved[SAVE_KEY]["seats"] == ["human", "medium", "medium"]
    loaded = subprocess.run(
        [*command, "play", "--load", "saved.json"],
        input="map\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert "Seat 2 (Bjorn the medium bot): medium bot (ismcts:0.25s)" in loaded.stdout
    assert "=== Age 1, draft, pick 2 of 5: Seat 1 (You) ===" in loaded.stdout


def test_the_log_says_when_the_deck_deals_short_packs() -> None:
    assert dealt_text({"age": 1, "direction": "left", "pack_size": 6}) == (
        "Age 1: six cards dealt to each clan; the packs pass left."
    )
    assert "5 cards are dealt to each clan (keep 4)" in dealt_text({"age": 3, "direction": "left", "pack_size": 5})
    assert "no cards are dealt" in dealt_text({"age": 3, "direction": "left", "pack_size": 0})


def test_a_custom_pack_plays_in_the_terminal_with_its_names() -> None:
    from tests.bloodrage_valhalla.test_words import _renamed_pack

    out = io.StringIO()
    state = GAME.new_game(players=3, seed=5, options={"preset": "first-game", "content": _renamed_pack()})
    bots = {s: make_bot("random") for s in range(3)}
    terminal = TerminalGame(GAME, state, bots=bots, output=out, input_fn=lambda prompt: "")
    assert terminal.run() == 0
    text = out.getvalue()
    assert "  options: content=A pack with {braces} in a name" in text and '"cards"' not in text
    assert "\n  Gladhome " in text and "\n  Gladsheim " not in text  # the map
    assert re.search(r"(into|from|in) Gladhome\b", text) and not re.search(r"(into|from|in) Gladsheim\b", text)
