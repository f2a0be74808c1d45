"""The C search engine plays exactly the rules of the Python reference engine.

Random games through both engines in lockstep: at every step the same legal actions
(decoded, compared as sorted strings), and after applying one the same state, field by
field (decks in order, hands, sites, locks, dice, the attack, the decision, the queue of
steps, the random generator, ...), and the same evaluation for every seat. Worlds the
belief samples mid-game are converted and compared, and played on in lockstep too.
Games where the seats hold god weapons from the start, and a pack whose effects differ
from the default one, reach what random play seldom does; the tests count the decision
kinds, effects, weapon options and events reached, and require every one of them.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from meadhall.core.rng import Rng
from meadhall.games.valda import native
from meadhall.games.valda.belief import ValdaBelief
from meadhall.games.valda.content import EFFECTS, parse_content
from meadhall.games.valda.decisions import ValdaDecision
from meadhall.games.valda.game import GAME
from meadhall.games.valda.notation import ValdaAction
from meadhall.games.valda.search import ValdaSearchAdapter, evaluate
from meadhall.games.valda.state import ValdaConfig, ValdaState

REQUIRED = os.environ.get("MEADHALL_REQUIRE_SEARCH") == "1"
pytestmark = pytest.mark.skipif(
    not native.AVAILABLE and not REQUIRED,
    reason="the C search engine is not built here (no C compiler?); bots use the Python engine",
)

PRESETS = list(GAME.info.presets)
#: What the lockstep games of the running test reached (the fixture below empties it).
REACHED: Counter[str] = Counter()


def test_search_engine_is_built_when_required() -> None:
    # make test sets MEADHALL_REQUIRE_SEARCH=1, so CI never silently tests without it.
    assert native.AVAILABLE


@pytest.fixture(autouse=True)
def _count_what_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count the effects, weapon options and rarer events the reference engine runs."""
    REACHED.clear()
    original_effect = ValdaState._step_effect
    original_weapon = ValdaState._play_weapon
    original_move = ValdaState._move_temple
    original_unlock = ValdaState._unlock_if_broken
    original_refill = ValdaState._refill_base

    def effect(self: ValdaState, seat: int, do: str, *args: Any) -> None:
        REACHED[f"effect {do}"] += 1
        original_effect(self, seat, do, *args)

    def weapon(self: ValdaState, seat: int, option: str, decision: ValdaDecision) -> None:
        REACHED[f"weapon {option}"] += 1
        original_weapon(self, seat, option, decision)

    def move(self: ValdaState, target: int, source: str, dest: str, why: str) -> None:
        REACHED["moved temple"] += 1
        original_move(self, target, source, dest, why)

    def unlock(self: ValdaState, god: str) -> None:
        locked = god in self.locks
        original_unlock(self, god)
        if locked and god not in self.locks:
            REACHED["unlocked"] += 1

    def refill(self: ValdaState) -> bool:
        before = self.reshuffles
        found = original_refill(self)
        if self.reshuffles > before:
            REACHED["reshuffled"] += 1
        return found

    monkeypatch.setattr(ValdaState, "_step_effect", effect)
    monkeypatch.setattr(ValdaState, "_play_weapon", weapon)
    monkeypatch.setattr(ValdaState, "_move_temple", move)
    monkeypatch.setattr(ValdaState, "_unlock_if_broken", unlock)
    monkeypatch.setattr(ValdaState, "_refill_base", refill)


Policy = Callable[[list[ValdaAction], Rng], ValdaAction]


def uniform(legal: list[ValdaAction], rng: Rng) -> ValdaAction:
    """Any legal action."""
    return legal[rng.below(len(legal))]


def weapon_loving(legal: list[ValdaAction], rng: Rng) -> ValdaAction:
    """A god weapon in most response windows, some of the time elsewhere; otherwise any action.

    The any-time options are not played at every chance, so that their cards stay in
    hand long enough for the windows of their other options.
    """
    weapons = [action for action in legal if action.kind == "weapon"]
    window = bool(weapons) and all(action.kind == "weapon" or action.kind == "pass" for action in legal)
    if weapons and rng.below(4) < (3 if window else 1):
        return weapons[rng.below(len(weapons))]
    return legal[rng.below(len(legal))]


def _check_step(state: ValdaState, fast: Any, tables: native.NativeTables) -> list[ValdaAction]:
    """The same seat to move, the same legal actions and evaluations; every code round-trips."""
    movers = state.to_move()
    assert fast.to_move() == movers
    assert fast.is_terminal() == state.is_terminal()
    for seat in range(state.num_players):
        assert abs(fast.evaluate(seat) - evaluate(state, seat)) < 1e-9, f"evaluation of seat {seat}"
    if not movers:
        return []
    seat = movers[0]
    legal = state.legal_actions(seat)
    codes = fast.legal_actions(seat)
    assert sorted(str(tables.decode(code)) for code in codes) == sorted(map(str, legal)), state.decision
    assert len(set(codes)) == len(codes)
    for action in legal:
        code = tables.encode(action)
        assert code is not None and tables.decode(code) == action
    return legal


def play_lockstep(state: ValdaState, rng: Rng, policy: Policy = uniform, max_steps: int = 100_000) -> int:
    """Play ``state`` in both engines to the end (or ``max_steps``); returns the steps compared."""
    tables = native.tables(state.config.content)
    assert tables is not None
    fast = native.to_search(state)
    assert fast is not None
    assert fast.export() == tables.export(state)
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        legal = _check_step(state, fast, tables)
        seat = state.to_move()[0]
        assert state.decision is not None
        REACHED[f"decision {state.decision['kind']}"] += 1
        action = policy(legal, rng)
        if steps % 25 == 7:  # a clone is independent of its original
            before = fast.export()
            other = fast.clone()
            other.apply_quiet(seat, tables.encode(legal[-1]))
            assert fast.export() == before
        state.apply_quiet(seat, action)
        fast.apply_quiet(seat, tables.encode(action))
        assert fast.export() == tables.export(state), f"after {action} at step {steps}"
        steps += 1
    _check_step(state, fast, tables)
    if state.is_terminal():
        REACHED["game over"] += 1
        if state.winner is not None:
            REACHED["race won"] += 1
        assert fast.ranking() == state.ranking() and fast.scores() == state.scores()
    for god in state.locks:
        REACHED[f"locked {god}"] += 1
    return steps


def _options(preset: str) -> dict[str, Any]:
    return {"preset": preset}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_both_engines_agree_on_random_games(preset: str, players: int) -> None:
    for seed in range(10):
        game_seed = 1000 * players + 10 * PRESETS.index(preset) + seed
        state = GAME.new_game(players=players, seed=game_seed, options=_options(preset))
        assert play_lockstep(state, Rng(game_seed)) > 50


@settings(max_examples=12, deadline=None)
@example(seed=228, players=5, preset="standard", armed=True)  # a discard pick whose cards a weapon took
@example(seed=473, players=2, preset="standard", armed=True)  # Surtur's Claim on a card Deadly Dagger took
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 5),
    preset=st.sampled_from(PRESETS),
    armed=st.booleans(),
)
def test_both_engines_agree_on_any_seed(seed: int, players: int, preset: str, armed: bool) -> None:
    state = GAME.new_game(players=players, seed=seed, options=_options(preset))
    if armed:
        _arm_with_weapons(state, Rng(seed))
    play_lockstep(state, Rng(seed), weapon_loving if armed else uniform)


def _arm_with_weapons(state: ValdaState, rng: Rng) -> None:
    """Move every god weapon from its deck into a hand (seats in turn), for both engines alike."""
    seats = list(range(state.num_players))
    rng.shuffle(seats)
    for index, god in enumerate(state.config.content.gods):
        weapon = state.config.content.weapon(god).id
        state.gods[god].remove(weapon)
        state.players[seats[index % len(seats)]].hand.append(weapon)


def _plant_locked_areas(state: ValdaState) -> None:
    """Give each seat three temples (a locked area) in a god area of its own, and the race leader 19 followers."""
    for seat, god in zip(range(state.num_players), state.config.content.gods, strict=False):
        state.players[seat].temples[god] = 3
        state.sites[god] += [seat] * 3
        state.locks[god] = seat
    if state.config.race:
        state.players[0].followers, state.players[0].floor = 19, 12


def test_both_engines_agree_when_everybody_holds_god_weapons_and_every_rule_is_reached() -> None:
    # Random play seldom plays god weapons: here every seat holds some from the start and
    # plays them whenever it may; with the alternative pack's games, every decision kind,
    # effect, weapon option and rarer event is compared.
    for players in (2, 3, 4, 5):
        for seed in range(10):
            game_seed = 500 + 10 * players + seed
            preset = PRESETS[(players + seed) % len(PRESETS)]
            state = GAME.new_game(players=players, seed=game_seed, options=_options(preset))
            _arm_with_weapons(state, Rng(game_seed))
            if seed % 2:
                _plant_locked_areas(state)
            play_lockstep(state, Rng(game_seed), weapon_loving)
    _play_the_alternative_pack()
    content = GAME.new_game(players=2, seed=1).config.content
    options = {option.id for card in content.cards.values() for option in card.options}
    wanted = {f"decision {kind}" for kind in native.DECISIONS if kind is not None}
    wanted |= {f"effect {do}" for do in EFFECTS}
    wanted |= {f"weapon {option}" for option in options}
    wanted |= {"moved temple", "unlocked", "reshuffled", "race won", "game over"}
    missing = sorted(name for name in wanted if not REACHED[name])
    assert not missing, f"never compared: {missing}"


def test_worlds_the_belief_samples_convert_and_play_on_alike() -> None:
    adapter = GAME.search_adapter()
    assert isinstance(adapter, ValdaSearchAdapter) and adapter.engine == "C"
    for players, seed in ((2, 3), (3, 4), (4, 5), (5, 6)):
        state = GAME.new_game(players=players, seed=seed, options=_options(PRESETS[seed % len(PRESETS)]))
        _arm_with_weapons(state, Rng(seed))
        rng = Rng(seed)
        for _ in range(8):
            for _ in range(20 + rng.below(40)):
                if state.is_terminal():
                    break
                seat = state.to_move()[0]
                state.apply_quiet(seat, weapon_loving(state.legal_actions(seat), rng))
            if state.is_terminal():
                break
            seat = state.to_move()[0]
            belief = GAME.belief(state.view(seat))
            assert isinstance(belief, ValdaBelief)
            world = belief.sample(Rng(seed + 1))
            sampled: Any = adapter.sampler(state.view(seat)).sample(Rng(seed + 1))
            tables = native.tables(world.config.content)
            assert tables is not None
            assert sampled.export() == tables.export(world)
            play_lockstep(world, Rng(seed + 2), weapon_loving, max_steps=60)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_native_worlds_are_the_worlds_the_belief_samples(players: int) -> None:
    # The native sampler deals the hidden cards in C with the belief's draws: the same
    # world as ValdaBelief.sample, and the caller's generator left in the same state.
    compared = 0
    for seed in range(3):
        preset = PRESETS[seed % len(PRESETS)]
        state = GAME.new_game(players=players, seed=300 + seed, options=_options(preset))
        if seed == 2:
            _arm_with_weapons(state, Rng(seed))
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            if rng.below(6) == 0:
                for viewer in (seat, (seat + 1) % players, None):
                    belief = GAME.belief(state.view(viewer))
                    assert isinstance(belief, ValdaBelief)
                    tables = native.tables(belief.config.content)
                    assert tables is not None
                    sampler = native.NativeSampler(belief, tables)
                    python_rng, native_rng = Rng(compared), Rng(compared)
                    world = belief.sample(python_rng)
                    assert sampler.sample(native_rng).export() == tables.export(world)
                    assert native_rng.getstate() == python_rng.getstate()
                    compared += 1
            state.apply_quiet(seat, weapon_loving(state.legal_actions(seat), rng))
    assert compared > 30


def test_a_free_build_left_unpaid_lapses_in_both_engines() -> None:
    # Hammertime played at a free build's waive decision may spend what the build needs
    # (its yellow cards convert resources); the ruling: the free build lapses, in both engines.
    state = GAME.new_game(players=2, seed=0, options=_options("standard"))
    mjolnir = state.config.content.weapon("thor").id
    state.gods["thor"].remove(mjolnir)
    state.players[0].hand.append(mjolnir)
    for player in state.players:
        for _ in range(2):
            if "builders" in state.base:
                state.base.remove("builders")
                player.hand.append("builders")
    tables = native.tables(state.config.content)
    fast = native.to_search(state)
    assert tables is not None and fast is not None
    rng = Rng(0)
    for _ in range(500):
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        kind = state.decision["kind"] if state.decision else ""
        wanted = [
            a for a in legal if (kind == "waive" and a.a == "hammertime") or a.kind == "build" or a.a == "builders"
        ]
        action = wanted[rng.below(len(wanted))] if wanted and rng.below(10) < 9 else legal[rng.below(len(legal))]
        events = state.apply(seat, action)
        fast.apply_quiet(seat, tables.encode(action))
        assert fast.export() == tables.export(state)
        if any(event.kind == "free-build-lapsed" for event in events):
            return
    pytest.fail("the unpaid free build was not reached")


def test_a_free_build_without_room_lapses_in_both_engines() -> None:
    # An ISMCTS rollout once built a sixth temple in an area in C (a table overflow): a
    # free build whose area filled while it waited (Hammertime at its waive decision).
    from tests.valda.test_rules import waiting_free_build_without_room

    for reason in ("full", "locked", "no-temples", "limit"):
        state, seat = waiting_free_build_without_room(reason)
        tables = native.tables(state.config.content)
        fast = native.to_search(state)
        assert tables is not None and fast is not None
        action = ValdaAction("choose", "gold")
        state.apply(seat, action)
        fast.apply_quiet(seat, tables.encode(action))
        assert fast.export() == tables.export(state), reason


def _alternative_pack() -> dict[str, Any]:
    """The default pack with other effects and parameters, and the gods in another order."""
    pack: dict[str, Any] = json.loads(
        resources.files("meadhall.games.valda").joinpath("data/default.json").read_text("utf-8")
    )
    pack["id"] = "meadhall-test-variant"
    pack["gods"].reverse()
    # Another white die: Loki's rate in the evaluation follows it (search.ability_income).
    pack["dice"]["white"] = [{"followers": f} for f in (2, 1, 1, -1, -1, -1)]
    changes = {
        "prayer": [{"do": "followers", "amount": 1, "who": "others"}, {"do": "gain", "resource": "gold", "amount": 1}],
        "gold-vein": [{"do": "gain", "resource": "gold", "amount": 1, "who": "all"}],
        "market-day": [{"do": "gain", "resource": "choice", "amount": 1, "who": "others"}],
        "builders": [{"do": "build", "building": "temple", "discount": 2}],
        "scout": [{"do": "draw", "count": 2, "source": "discard", "kind": "yellow"}],
        "mead-feast": [{"do": "actions", "count": 1}, {"do": "play_yellow", "count": 2}],
        "sacrifice": [{"do": "convert", "give": "gold", "amount": 1, "followers": 1, "times": 3}],
        "seer": [{"do": "switch_open"}, {"do": "look", "count": 2}],
        "drill-crew": [{"do": "roll", "die": "yellow", "count": 4}],
        "prospectors": [
            {"do": "build", "building": "mine", "discount": 3},
            {"do": "draw", "count": 1, "source": "god"},
        ],
    }
    impacts = {
        "raid": [
            {"do": "steal_resource", "resource": "gold", "amount": 2},
            {"do": "gain", "resource": "drop", "amount": 1},
        ],
        "cutpurse": [{"do": "steal_resource", "resource": "choice", "amount": 1}, {"do": "move_temple"}],
        "ambush": [{"do": "steal_followers", "amount": 3}, {"do": "destroy", "building": "drill"}],
    }
    for card in pack["cards"]:
        if card["id"] in changes:
            card["effects"] = changes[card["id"]]
        if card["id"] in impacts:
            card["impact"] = impacts[card["id"]]
    return pack


def _play_the_alternative_pack() -> None:
    content = parse_content(_alternative_pack())
    assert native.tables(content) is not None
    for players in (2, 3, 4, 5):
        for seed in range(2):
            config = ValdaConfig(content, players, turnaround=seed == 1, race=players == 4)
            state = ValdaState.new(config, 70 + 10 * players + seed)
            if seed == 1:
                _arm_with_weapons(state, Rng(seed))
            play_lockstep(state, Rng(seed), weapon_loving if seed == 1 else uniform)


def test_an_alternative_pack_goes_to_the_c_engine() -> None:
    raw = _alternative_pack()
    content = parse_content(raw)
    assert native.tables(content) is not None
    options = {"preset": "standard", "content": raw}
    state = GAME.new_game(players=3, seed=9, options=options)
    sampler = GAME.search_adapter().sampler(state.view(state.to_move()[0]))
    assert isinstance(sampler, native.NativeSampler)
    assert sampler.tables.cards == native.NativeTables(content).cards
    world = sampler.sample(Rng(2))
    assert world.export()["players"] == 3


def test_a_pack_the_tables_cannot_hold_falls_back_to_the_python_engine() -> None:
    raw = _alternative_pack()
    for card in raw["cards"]:
        if card["id"] == "gold-vein":
            card["effects"] = [{"do": "gain", "resource": "gold", "amount": 50}]
    content = parse_content(raw)
    assert native.tables(content) is None
    state = ValdaState.new(ValdaConfig(content, 3), 1)
    assert native.to_search(state) is None
    view = state.view(state.to_move()[0])
    adapter = ValdaSearchAdapter(GAME)
    options = {"preset": "standard", "content": raw}
    view = GAME.new_game(players=3, seed=1, options=options).view(0)
    assert isinstance(adapter.sampler(view).sample(Rng(1)), ValdaState)


def test_greedy_is_the_same_choice_in_both_engines() -> None:
    native_adapter, python_adapter = ValdaSearchAdapter(GAME), ValdaSearchAdapter(GAME, native=False)
    assert python_adapter.engine == "python"
    state = GAME.new_game(players=3, seed=21, options=_options("standard"))
    rng = Rng(4)
    for _ in range(120):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        view = state.view(seat)
        legal = state.legal_actions(seat)
        seed = rng.below(1000)
        assert native_adapter.greedy(view, legal, Rng(seed)) == python_adapter.greedy(view, legal, Rng(seed))
        state.apply_quiet(seat, legal[rng.below(len(legal))])


def test_worlds_at_a_choice_of_god_cards_are_the_beliefs_and_play_on_alike() -> None:
    # Every draw from a god deck looks at two cards: a locked area's card for the open
    # cards (lock-card), a card's draw (keep). Other seats see a count; their worlds deal
    # the two from that god's cards, in C as the belief does.
    from tests.valda.test_worlds import _god_card_choices

    for index, state in enumerate(_god_card_choices()):
        assert state.decision is not None
        seat = state.decision["seat"]
        for viewer in (seat, (seat + 1) % state.num_players, None):
            belief = GAME.belief(state.view(viewer))
            assert isinstance(belief, ValdaBelief)
            tables = native.tables(belief.config.content)
            assert tables is not None
            world = belief.sample(Rng(index))
            assert native.NativeSampler(belief, tables).sample(Rng(index)).export() == tables.export(world)
            play_lockstep(world, Rng(index), weapon_loving, max_steps=80)
        play_lockstep(state, Rng(index), max_steps=80)


def test_the_c_engine_keeps_the_rules_constants_of_the_python_engine() -> None:
    # The C engine writes the rules' numbers as #defines: they follow state.py's constants.
    import re
    from pathlib import Path

    from meadhall.games.valda import state as rules

    source = (Path(native.__file__).parent / "_search.c").read_text(encoding="utf-8")
    defines = {name: int(value) for name, value in re.findall(r"^#define (\w+) (\d+)\b", source, re.MULTILINE)}
    for name in ("ROUNDS", "RACE_ROUNDS", "RACE_GOAL", "HAND_LIMIT", "SITES", "TEMPLES_PER_PLAYER", "LOCK",
                 "MAX_MINES", "MAX_DRILLS"):  # fmt: skip
        assert defines[name] == getattr(rules, name), name


def test_a_race_played_past_the_sixth_round_and_won_by_a_shared_gain_alike() -> None:
    # Race to the Gods goes on past round 6 (to RACE_ROUNDS at most), and no follower
    # changes once a player has reached 20: in both engines.
    from tests.valda.test_rules import _last_turn_of_round, race_to_twenty_for_all_pack

    for number in (6, 19, 20):
        race = GAME.new_game(players=3, seed=number, options={"preset": "race-to-the-gods"})
        state = _last_turn_of_round(race, number)
        play_lockstep(state, Rng(number), max_steps=300)
        if state.winner is None:  # round 6's last turn leads to round 7; round 20's ends the game
            assert state.round > 6 and state.is_terminal() == (state.round == 20)
    options = {"preset": "race-to-the-gods", "content": race_to_twenty_for_all_pack()}
    state = GAME.new_game(players=3, seed=1, options=options)
    play_lockstep(state, Rng(1))
    assert state.is_terminal() and [score >= 20 for score in state.scores()].count(True) == 1
