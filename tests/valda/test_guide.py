"""Valda's guided first game: the script is sound, passes are no steps, and the bot plays on after it."""

from __future__ import annotations

from meadhall.core.guide import check_guide, progress, refusal, reply, start
from meadhall.core.registry import get_game

VALDA = get_game("valda")


def test_the_script_is_sound_and_teaches_a_whole_turn() -> None:
    guide = VALDA.guide()
    assert guide is not None
    assert check_guide(VALDA, guide) == []
    taught = {step.expect[0].split(":")[0] for step in guide.steps if step.expect}
    assert {"play", "take", "build", "keep", "defend", "odin"} <= taught  # every phase of a turn


def test_forced_passes_are_played_and_never_counted_as_steps() -> None:
    """The rolled-dice window offers only a pass: it is no step, and it is never refused."""
    guide = VALDA.guide()
    assert guide is not None
    state = start(VALDA, guide)
    assert VALDA.legal_notations(state, guide.seat) == ["pass"]
    assert refusal(guide, state, guide.seat, "pass") is None
    assert progress(guide, state)["step"] == 0
    passes = 0
    while len(VALDA.legal_notations(state, state.to_move()[0])) == 1:
        seat = state.to_move()[0]
        assert reply(guide, state, seat) is None
        state.apply(seat, state.legal_actions(seat)[0])
        passes += 1
    assert passes >= 2 and progress(guide, state)["step"] == 0
    assert state.to_move() == (guide.seat,)
    assert refusal(guide, state, guide.seat, "draw") is not None
    assert refusal(guide, state, guide.seat, "play:blood-offering") is None


def test_the_script_played_with_its_answers_reaches_the_end() -> None:
    guide = VALDA.guide()
    assert guide is not None
    state = start(VALDA, guide)
    answered: list[str] = []
    while not progress(guide, state)["done"]:
        seat = state.to_move()[0]
        legal = VALDA.legal_notations(state, seat)
        if seat == guide.seat:
            now = progress(guide, state)
            notation = now["expect"][0] if now["expect"] and len(legal) > 1 else legal[-1]
        else:
            scripted = reply(guide, state, seat)
            if scripted is not None:
                answered.append(scripted)
            notation = scripted if scripted is not None else legal[-1]
        state.apply(seat, VALDA.parse_action(notation))
    assert answered == [answer for step in guide.steps for answer in step.then]
    view = state.view(guide.seat)
    assert view["seats"][guide.seat]["followers"] >= 3
    assert view["seats"][guide.seat]["temples"] == {"odin": 1}
