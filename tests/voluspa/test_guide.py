"""Völuspá's guided first game: the script is sound, and the guide's hosts follow it."""

from __future__ import annotations

import dataclasses

from meadhall.core.guide import Guide, GuideStep, check_guide, progress, refusal, reply, start
from meadhall.core.registry import all_games, get_game

VOLUSPA = get_game("voluspa")


def voluspa_guide() -> Guide:
    """Völuspá's guide (it has one)."""
    guide = VOLUSPA.guide()
    assert guide is not None
    return guide


def test_every_guide_is_sound() -> None:
    """Every expected move and scripted answer is legal where it comes, for the fixed seed."""
    guides = [(game, game.guide()) for game in all_games()]
    offered = [(game, guide) for game, guide in guides if guide is not None]
    assert any(game is VOLUSPA for game, _ in offered)
    for game, guide in offered:
        assert check_guide(game, guide) == [], game.info.name


def test_the_script_is_checked() -> None:
    """A move that is not legal, a target of no expected move and a step after a free one are caught."""
    guide = voluspa_guide()
    first = guide.steps[0]
    illegal = dataclasses.replace(guide, steps=(dataclasses.replace(first, expect=("OD@9,9",)), *guide.steps[1:]))
    assert "not legal" in check_guide(VOLUSPA, illegal)[0]
    aimless = dataclasses.replace(
        guide, steps=(dataclasses.replace(first, target={"kind": "place", "tile": "OD", "cell": [1, 0]}),)
    )
    assert "no expected move" in check_guide(VOLUSPA, aimless)[0]
    late = dataclasses.replace(guide, steps=(GuideStep(say="Any move."), first))
    assert "after a step that took any legal move" in check_guide(VOLUSPA, late)[0]


def test_progress_replies_and_refusals_follow_the_script() -> None:
    """The learner's moves count the steps; the other seat answers as scripted; other moves are refused."""
    guide = voluspa_guide()
    state = start(VOLUSPA, guide)
    now = progress(guide, state)
    assert now["step"] == 0 and not now["done"] and now["say"].startswith(guide.intro)
    assert refusal(guide, state, guide.seat, "OD@1,0") == guide.wrong.replace("{step}", guide.steps[0].say)
    assert refusal(guide, state, guide.seat, guide.steps[0].expect[0]) is None
    for index, step in enumerate(guide.steps):
        assert progress(guide, state)["step"] == index
        notation = step.expect[0] if step.expect else VOLUSPA.legal_notations(state, guide.seat)[0]
        assert refusal(guide, state, guide.seat, notation) is None
        state.apply(guide.seat, VOLUSPA.parse_action(notation))
        for answer in step.then:
            (seat,) = state.to_move()
            assert reply(guide, state, seat) == answer
            state.apply(seat, VOLUSPA.parse_action(answer))
    assert progress(guide, state)["done"]
    other = next(seat for seat in range(guide.players) if seat != guide.seat)
    assert reply(guide, state, other) is None  # the bot plays on as it likes
