"""Shared helpers for the Blood Rage: Valhalla rule tests.

A scenario starts from a real game: :func:`action_state` sets a game up and drafts
(every seat keeps the first card it may pick) until the Action phase begins. Then
:func:`arrange` lays out a known board (region tokens, gods, figures, hands, Rage, whose
turn) so that a test can drive real actions with :func:`play` and check exact numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from meadhall import IllegalAction
from meadhall.core.game import Event
from meadhall.games.bloodrage_valhalla import BLOODRAGE, BloodRageState, parse_action

#: The map of the default content: the 8 outer regions in ring order (token numbers 1..8).
RING = (
    "gladsheim",
    "breidablik",
    "himinbjorg",
    "bilskirnir",
    "folkvang",
    "thrudheim",
    "sokkvabekk",
    "glitnir",
)
VALHALLA = "valhalla"
MONSTER_CARD = "monster-{}"


def new_game(players: int = 3, seed: int = 7, **options: Any) -> BloodRageState:
    """A new game with Thor, Loki and Tyr in Ages 1, 2 and 3 unless ``gods`` says otherwise.

    (The ``first-game`` preset has the same gods, but in random Ages.)
    """
    opts: dict[str, Any] = {"gods": ["thor", "loki", "tyr"]}
    opts.update({key.replace("_", "-"): value for key, value in options.items()})
    return BLOODRAGE.new_game(players=players, seed=seed, options=opts)


def play(state: BloodRageState, seat: int, text: str) -> list[Event]:
    """Apply one action written in notation; it must be listed as legal."""
    action = parse_action(text)
    legal = state.legal_actions(seat)
    assert action in legal, f"{text} is not legal for seat {seat}: {[str(a) for a in legal]}"
    return state.apply(seat, action)


def play_all(state: BloodRageState, moves: Iterable[tuple[int, str]]) -> list[Event]:
    """Apply several ``(seat, action)`` pairs in order."""
    events: list[Event] = []
    for seat, text in moves:
        events += play(state, seat, text)
    return events


def illegal(state: BloodRageState, seat: int, text: str) -> IllegalAction:
    """Assert an action is refused, is not listed, and leaves the state unchanged."""
    action = parse_action(text)
    assert action not in state.legal_actions(seat)
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert state.fingerprint() == before
    return caught.value


def legal_texts(state: BloodRageState, seat: int) -> set[str]:
    """The legal actions of a seat, as notation."""
    return {str(a) for a in state.legal_actions(seat)}


def draft_all(state: BloodRageState) -> None:
    """Finish the current draft: every seat keeps the first card it may pick."""
    while state.phase == "draft":
        for seat in state.to_move():
            state.apply(seat, state.legal_actions(seat)[0])


def action_state(players: int = 3, seed: int = 7, **options: Any) -> BloodRageState:
    """A real game fast-forwarded through the Age 1 draft to the Action phase."""
    state = new_game(players, seed, **options)
    draft_all(state)
    assert state.phase == "action"
    return state


def to_reserve(state: BloodRageState, seat: int, kind: str) -> None:
    """Put a figure back into its owner's reserve."""
    clan = state.clans[seat]
    if kind == "warrior":
        clan.warriors += 1
    elif kind == "elite":
        clan.elites += 1
    else:
        clan.monsters.append(kind)


def place(state: BloodRageState, region: str, seat: int, kind: str = "warrior", count: int = 1) -> None:
    """Move figures from a clan's reserve onto the board."""
    clan = state.clans[seat]
    for _ in range(count):
        if kind == "warrior":
            assert clan.warriors > 0
            clan.warriors -= 1
        elif kind == "elite":
            assert clan.elites > 0
            clan.elites -= 1
        else:
            clan.monsters.remove(kind)
        state.board[region].append((seat, kind))


def give_monster(state: BloodRageState, seat: int, monster: str) -> None:
    """A clan owns a monster (its card in a slot, the figure in its reserve)."""
    clan = state.clans[seat]
    card = MONSTER_CARD.format(monster)
    clan.upgrades.append(card)
    if card in state.deck:
        state.deck.remove(card)
    clan.owned_monsters.append(monster)
    clan.monsters.append(monster)


def arrange(
    state: BloodRageState,
    *,
    figures: Sequence[tuple[str, int, str]] = (),
    hands: Mapping[int, Sequence[str]] | None = None,
    rage: Mapping[int, int] | None = None,
    current: int = 0,
    first: int | None = None,
    tokens: Iterable[str] = ("sokkvabekk", "glitnir"),
    gods: Mapping[str, str] | None = None,
) -> BloodRageState:
    """Lay out a known Action-phase position.

    ``figures`` lists ``(region, seat, kind)``; the board is cleared first and every
    figure is taken from its owner's reserve. By default the Age 1 god (Thor) stands in
    Gladsheim and the region tokens lie in Sokkvabekk and Glitnir (as if the tokens
    1, 7 and 8 had been drawn). Hands default to empty, Rage to the start value.
    """
    for region, present in state.board.items():
        for owner, kind in present:
            to_reserve(state, owner, kind)
        state.board[region] = []
    state.region_tokens = set(tokens)
    state.gods_at = dict(gods if gods is not None else {"gladsheim": "thor"})
    state.claimed = set()
    for region, seat, kind in figures:
        place(state, region, seat, kind)
    for clan in state.clans:  # the old hands go to the bottom of the deck
        state.deck[0:0] = clan.hand
        clan.hand = []
    for seat, clan in enumerate(state.clans):
        clan.hand = list((hands or {}).get(seat, []))
        for card in clan.hand:  # taken from the deck if it is there
            if card in state.deck:
                state.deck.remove(card)
        clan.known = []
        if rage is not None and seat in rage:
            clan.rage = rage[seat]
    state.phase = "action"
    state.current = current
    if first is not None:
        state.first = first
    state.battle = None
    state.decision = None
    state.queue = []
    return state


def kinds(events: Iterable[Event]) -> list[str]:
    """The kinds of a list of events, in order."""
    return [event.kind for event in events]


def on_board(state: BloodRageState, region: str, seat: int | None = None) -> list[tuple[int, str]]:
    """The figures in a region (of one seat, if given), sorted."""
    return sorted(f for f in state.board[region] if seat is None or f[0] == seat)


def finish_age_passing(state: BloodRageState) -> None:
    """Every seat passes until the Action phase is over, then answers every decision."""
    while state.phase in ("action", "march"):
        seat = state.to_move()[0]
        state.apply(seat, parse_action("pass"))


def keep_last(state: BloodRageState, seat: int, keep: int = 3) -> list[Event]:
    """End of an Age: ``seat`` drops its first cards (sorted) down to ``keep``, then keeps the rest."""
    events: list[Event] = []
    for card in sorted(state.clans[seat].hand)[: max(0, len(state.clans[seat].hand) - keep)]:
        events += play(state, seat, f"drop:{card}")
    if seat in state.to_move():
        events += play(state, seat, "keep")
    return events


def run_until(state: BloodRageState, phase: str, age: int | None = None) -> None:
    """Play simply (first pick, pass, first legal otherwise) until ``phase`` (in ``age``)."""
    guard = 0
    while not (state.phase == phase and (age is None or state.age == age)):
        guard += 1
        assert guard < 10_000 and not state.is_terminal(), f"never reached {phase}"
        seats = state.to_move()
        assert seats, f"nobody to move in phase {state.phase}"
        for seat in seats:
            legal = state.legal_actions(seat)
            if not legal:
                continue
            # pass; at the end of an Age, drop the first cards down to three, then keep
            wanted = [a for a in legal if a.kind in ("pass", "keep")]
            state.apply(seat, wanted[0] if wanted else legal[0])


def end_of_age_one_with_four_cards() -> BloodRageState:
    """The end of Age 1 (phase ``keep``) after one contest: seat 0 holds four cards
    (thor-02, -13, -14, -15: one must go), seat 1 one (tyr-12), seat 2 none; seat 2's
    Rage is raised a step for the next Age.
    """
    state = action_state(3, seed=7)
    arrange(
        state,
        figures=[("breidablik", 0, "warrior"), ("himinbjorg", 1, "warrior")],
        hands={0: ["thor-02", "thor-13", "thor-14", "thor-15"], 1: ["tyr-12"]},
        first=0,
        current=0,
    )
    state.clans[2].steps["rage"] = 1  # Rage 7 from the next Age on
    play_all(state, [(0, "contest:breidablik"), (1, "join:warrior@himinbjorg")])
    play_all(state, [(0, "play:thor-02"), (1, "play:tyr-12")])
    play_all(state, [(1, "pass"), (2, "pass"), (0, "pass")])
    return state
