"""Valda in the terminal (``meadhall play valda``), driven by scripted input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from meadhall.bots import make_bot
from meadhall.cli.main import build_parser
from meadhall.cli.play import SAVE_KEY, TerminalGame, WordsRenderer, setup_from_args
from meadhall.core.game import Event
from meadhall.core.rng import Rng
from meadhall.core.words import fill, ordinal
from meadhall.games.valda import GAME, ValdaState
from meadhall.games.valda.content import default_content
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.text import TEXT
from meadhall.games.valda.words import WINDOW_WORDS, WORDS
from tests.test_play_bloodrage import FALLBACK, Script, parse_hint

CONTENT = default_content()
ROOT = Path(__file__).resolve().parents[1]
#: The rules engine's modules (the state is split by concern), read as one text.
ENGINE_SOURCE = "".join(
    path.read_text(encoding="utf-8") for path in sorted((ROOT / "src" / "meadhall" / "games" / "valda").glob("*.py"))
)
WORDS_SOURCE = ROOT / "src" / "meadhall" / "games" / "valda" / "words.py"
PLUGIN_SOURCE = ROOT / "src" / "meadhall" / "games" / "valda" / "web" / "plugin.js"


def format_event(event: Event, labels: list[str], viewer: int | None) -> list[str]:
    """The event's text and details as the terminal prints them (seat names filled in)."""
    said = WORDS.event(event, viewer)
    assert said is not None, event
    return [fill(said["text"], labels), *(fill(detail, labels) for detail in said["details"])]


def make_terminal(
    players: int = 3, bots: tuple[int, ...] = (1, 2), seed: int = 5, names: list[str] | None = None, bot: str = "random"
) -> tuple[TerminalGame, Script, io.StringIO, ValdaState]:
    out = io.StringIO()
    script = Script(out, limit=20000)
    state = GAME.new_game(players=players, seed=seed)
    terminal = TerminalGame(
        GAME, state, names=names, bots={seat: make_bot(bot) for seat in bots}, input_fn=script, output=out
    )
    script.game = terminal
    assert isinstance(terminal.state, ValdaState)
    return terminal, script, out, terminal.state


def test_one_person_plays_a_whole_game_against_two_random_bots_using_hint() -> None:
    terminal, script, out, state = make_terminal(seed=21)
    asked = {"hint": False, "moves": 0}
    kinds: set[str] = set()

    def answer(prompt: str) -> str:
        if not prompt.startswith("Seat "):
            return ""  # the end-of-game prompt: leave
        assert prompt == "Seat 1 (You) > "
        legal = state.legal_actions(0)
        decision = state.view(0)["decision"]
        # response windows offering nothing but a pass are passed without asking
        assert not (state.response_window(0) and len(legal) == 1), decision
        kinds.add(decision["kind"])
        if not asked["hint"]:
            asked["hint"] = True
            return "hint"
        asked["hint"] = False
        listed = parse_hint(script.segments[-1].replace("Legal moves (", "Legal actions ("))
        assert sorted(a for _, a in listed) == sorted(str(a) for a in legal)
        assert sorted(listed) == [(n, str(a)) for n, a in enumerate(legal, start=1)]  # numbered in the legal order
        asked["moves"] += 1
        # mostly the first listed move (the game goes on), by notation or by number in turn
        number, action = listed[(asked["moves"] * 7) % len(listed)] if asked["moves"] % 3 == 0 else listed[0]
        return action if asked["moves"] % 2 else str(number)

    script.answer = answer
    assert terminal.run() == 0
    assert state.is_terminal()
    text = out.getvalue()
    assert "Game over" in text and "Final ranking:" in text
    assert "Most followers win; a tie goes to the most buildings" in text
    places = state.ranking()
    for seat in range(3):
        followers = state.scores()[seat]
        place = ordinal(places[seat])
        assert re.search(rf"{place}\s+{re.escape(terminal.label(seat))}\s+{followers} followers?, ", text), seat
    assert asked["moves"] > 30
    assert {"resources", "game", "build"} <= kinds, kinds
    assert "=== Round 1 of 6, Seat 1 (You)'s turn: Game phase ===" in text
    assert "God areas (sites: the seat number" in text and "Safe zones on Yggdrasil at 5, 12 and 20" in text
    assert not FALLBACK.search(text), FALLBACK.search(text)


def _known_cards(state: ValdaState, shadow: ValdaState, viewer: int, seen: dict[int | None, set[str]]) -> set[str]:
    """Cards ``viewer`` has been shown by the engine (events, its hand, the open cards, the discard)."""
    for seat, action in state.history()[len(shadow.history()) :]:
        for event in shadow.apply(seat, action):
            for who in [None, *range(state.num_players)]:
                if event.visible_to(who):
                    listed = event.data.get("cards")
                    cards = [
                        event.data.get("card"),
                        event.data.get("out"),
                        *(listed if isinstance(listed, list) else []),
                    ]
                    seen.setdefault(who, set()).update(str(c) for c in cards if c)
    view = state.view(viewer)
    known = seen.get(None, set()) | seen.get(viewer, set()) | set(view["hand"]) | set(view["discard"])
    decision = view["decision"] or {}
    if isinstance(decision.get("cards"), list):
        known |= set(decision["cards"])
    return known | set(view["open"] or [])


@pytest.mark.parametrize(("players", "bots", "seed"), [(3, (), 17), (4, (2,), 9)], ids=["3 people", "3 and a bot"])
def test_hot_seat_never_shows_anyone_elses_cards(players: int, bots: tuple[int, ...], seed: int) -> None:
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    terminal, script, out, state = make_terminal(players=players, bots=bots, seed=seed, names=names, bot="greedy")
    shadow = GAME.new_game(players=players, seed=seed)
    seen: dict[int | None, set[str]] = {}
    rng = Rng(3)
    looks = ["hand", "scores", "board", "cards", "log 40", "hint", "gods"]
    checked = {"cards": 0, "decisions": 0}

    def answer(prompt: str) -> str:
        segment = script.segments[-1]
        viewer = script.viewers[-1]
        if viewer is not None:
            known = _known_cards(state, shadow, viewer, seen)
            for other in range(players):
                if other == viewer:
                    continue
                for card in set(state.players[other].hand) - known:
                    assert not re.search(rf"(?<![\w'-]){re.escape(CONTENT.cards[card].name)}(?![\w'-])", segment), (
                        prompt,
                        viewer,
                        other,
                        card,
                    )
                    assert not re.search(rf"(?<![\w:-]){re.escape(card)}(?![\w-])", segment), (prompt, card)
                    checked["cards"] += 1
        if prompt.startswith("Seat "):
            seat = terminal.seat_to_move()
            assert seat is not None and viewer == seat
            checked["decisions"] += 1
            if checked["decisions"] % 9 == 4 and script.prompts[-2:-1] != [prompt]:
                return looks[(checked["decisions"] // 9) % len(looks)]
            legal = state.legal_actions(seat)
            # end phases and pass attacks less often than a uniform pick, so that the game shows more
            busy = [a for a in legal if a.kind not in ("done", "pass", "yield")] or legal
            choice = busy[rng.below(len(busy))]
            return str(legal.index(choice) + 1) if rng.below(2) else str(choice)
        return ""

    script.answer = answer
    assert terminal.run() == 0
    assert state.is_terminal()
    assert checked["decisions"] > 100 and checked["cards"] > 400, checked
    text = out.getvalue()
    assert "Pass the device to" in text and "Press Enter to hide your cards" in "".join(script.prompts)
    assert not FALLBACK.search(text)


def test_every_event_the_engine_emits_has_words() -> None:
    source = ENGINE_SOURCE
    emitted = set(re.findall(r'_event\(\s*"([a-z-]+)"', source))
    assert len(emitted) > 35
    labels = ["Seat 1 (A)", "Seat 2 (B)", "Seat 3 (C)", "Seat 4 (D)"]
    seen: set[str] = set()
    bot = make_bot("random")
    for seed in range(10):
        state = GAME.new_game(players=4, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            action = bot.choose(GAME, state.view(seat), state.legal_actions(seat), rng)
            assert isinstance(action, ValdaAction)
            for event in state.apply(seat, action):
                seen.add(event.kind)
                for viewer in (None, 0, seat):
                    if event.visible_to(viewer):
                        for line in format_event(event, labels, viewer):
                            assert not FALLBACK.search(line), line
                            assert "{" not in line and "None" not in line, line
    assert len(seen) > 30, emitted - seen


def test_the_words_word_every_event_kind_and_the_browser_words_none() -> None:
    emitted = set(re.findall(r'_event\(\s*"([a-z-]+)"', ENGINE_SOURCE))
    assert "free-build-lapsed" in emitted and len(emitted) > 30
    words = WORDS_SOURCE.read_text(encoding="utf-8")
    for kind in emitted:
        assert f'case "{kind}":' in words, f"Valda's words have nothing for {kind}"
    browser = PLUGIN_SOURCE.read_text(encoding="utf-8")
    for sign in ("eventText", "ranking", "players(", 'case "'):
        assert sign not in browser, f"the plugin words events or players itself ({sign!r})"


def test_every_response_window_has_words() -> None:
    windows = set(re.findall(r'\("window", "([a-z-]+)"', ENGINE_SOURCE))
    assert windows and windows <= set(WINDOW_WORDS), windows - set(WINDOW_WORDS)


def test_flags_set_up_valda_with_two_players_by_default() -> None:
    parser = build_parser()
    setup = setup_from_args(parser.parse_args(["play", "valda", "--seed", "4"]), GAME)
    assert (setup.players, setup.bot_seats) == (2, [1])
    assert setup_from_args(parser.parse_args(["play", "valda", "--preset", "turnaround"]), GAME).options == {
        "preset": "turnaround"
    }
    terminal = TerminalGame(GAME, GAME.new_game(players=2, seed=1), output=io.StringIO())
    assert isinstance(terminal.renderer, WordsRenderer)


def test_meadhall_play_valda_runs_as_a_command_with_scripted_input(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "meadhall"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "meadhall.cli.main"]
    script = "help\nhint\nboard\nscores\nhand\ncards raid\ngods\nXX\n1\nhand\nquit\ny\nsaved.json\n"
    result = subprocess.run(
        [*command, "play", "valda", "--players", "3", "--bots", "2,3", "--bot", "random", "--seed", "5"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Valda: 3 players, Six rounds (standard)." in text and "meadhall default content" in text
    assert "Legal moves (3; type one, or its number):" in text and "  Resources: 1) choose:drop" in text
    assert "God areas (sites" in text and "Safe zones on Yggdrasil" in text
    assert "  cards [CARD]" in text and "weapon:OPTION" in text  # the game's commands and notation in 'help'
    assert "raid = Raid: Attack 2" in text and "Odin      temple 2 divine blood, 3 gold, 3 diamonds" in text
    assert "Cannot read that move" in text or "cannot read" in text
    saved = json.loads((tmp_path / "saved.json").read_text(encoding="utf-8"))
    assert saved["game"] == "valda" and saved["seed"] == 5
    assert saved[SAVE_KEY]["seats"] == ["human", "random", "random"]
    loaded = subprocess.run(
        [*command, "play", "--load", "saved.json"],
        input="map\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert "=== Round 1 of 6, Seat 1 (You)'s turn:" in loaded.stdout


def test_the_players_list_shows_what_you_know_of_other_hands() -> None:
    state = GAME.new_game(players=3, seed=2)
    assert isinstance(state, ValdaState)
    state._learn((0,), 1, state.players[1].hand[:2])
    line = WORDS.seat(state.view(0), 1)
    assert "known in hand: " in line
    assert all(CONTENT.cards[c].name in line for c in state.players[1].hand[:2])
    for viewer in (1, 2, None):  # nobody else learned it
        assert not any("known in hand" in WORDS.seat(state.view(viewer), s) for s in range(3))


def test_the_hand_lists_the_cards_you_saw_go_under_the_decks() -> None:
    content = default_content()
    card = next(iter(content.cards))
    lines = TEXT.hand({"hand": [], "bottoms": {"thor": [None, card], "base": [None]}}, "Ann")
    assert lines[0] == "Your hand, Ann: no cards."
    assert lines[1] == f"Under the decks, from the bottom: Thor's deck: ?, {content.cards[card].name}"
    assert TEXT.hand({"hand": [], "bottoms": {"base": [None]}}, "Ann") == ["Your hand, Ann: no cards."]


def test_the_log_says_why_a_free_building_lapsed() -> None:
    labels = ["Ann", "Bo", "Cy"]

    def line(reason: str) -> str:
        data = {"seat": 0, "building": "tyr", "why": "builders", "reason": reason}
        return " ".join(format_event(Event("free-build-lapsed", data), labels, 0))

    assert "can no longer pay for the free" in line("unpaid")
    assert "can no longer build the free" in line("full") and "five sites are taken" in line("full")
    assert "another player locked its area" in line("locked")


def follower_losses(seeds: range) -> list[Event]:
    """The losses of followers (events with ``shielded``) in seeded random three-player games."""
    found: list[Event] = []
    for seed in seeds:
        state = GAME.new_game(players=3, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            for event in state.apply(seat, legal[rng.below(len(legal))]):
                if event.kind == "followers" and "shielded" in event.data:
                    found.append(event)
    return found


def test_a_loss_of_followers_says_what_happened() -> None:
    labels = ["Ann", "Bo", "Cy"]
    cases = set()
    for event in follower_losses(range(1, 21)):
        d = event.data
        text = format_event(event, labels, None)[0]
        assert "gains" not in text, text  # a loss is never worded as a gain (of 0)
        lost, total, shielded = -d["change"], d["total"], d["shielded"]
        if total == 0:  # nothing was saved: there was nothing left to lose
            assert "safe zone" not in text, text
            assert ("has no followers to lose" in text) if lost == 0 else ("last follower" in text or "all " in text)
            cases.add("nothing left" if lost == 0 else "lost the rest")
        elif shielded:
            assert f"the safe zone at {total} saves {shielded} follower" in text, text
            cases.add("safe zone")
        else:
            assert re.search(rf"loses {lost} followers? ", text), text
            cases.add("plain")
    assert {"nothing left", "lost the rest", "safe zone"} <= cases, cases


def test_a_window_with_only_a_pass_is_answered_for_one_person_but_asked_at_a_shared_device() -> None:
    """Alone at the terminal, a pass-only window is passed for you; in hot seat the device comes round."""
    import random

    choose = random.Random(3)
    state = GAME.new_game(players=3, seed=11)
    while not state.is_terminal():
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        if state.response_window(seat) and len(legal) == 1:
            break
        state.apply(seat, choose.choice(legal))
    else:  # pragma: no cover - a whole game with no such window would make this test moot
        raise AssertionError("no window offering only a pass in this game")
    (seat,) = state.to_move()
    others = tuple(s for s in range(3) if s != seat)
    alone = TerminalGame(GAME, state.clone(), bots={s: make_bot("random") for s in others}, output=io.StringIO())
    assert alone.automatic(seat) == state.legal_actions(seat)[0]
    shared = TerminalGame(GAME, state.clone(), bots={others[0]: make_bot("random")}, output=io.StringIO())
    assert shared.hotseat and shared.automatic(seat) is None
