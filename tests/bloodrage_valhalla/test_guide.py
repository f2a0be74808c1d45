"""Blood Rage's guided first game: clans deciding at once answer from their own scripts, in any order."""

from __future__ import annotations

from meadhall.core.guide import check_guide, progress, reply, start
from meadhall.core.registry import get_game

BLOOD_RAGE = get_game("bloodrage-valhalla")


def _play_script(learner_last: bool) -> list[tuple[int, str]]:
    """The script played through; in windows where several clans decide, the learner last or first."""
    guide = BLOOD_RAGE.guide()
    assert guide is not None
    state = start(BLOOD_RAGE, guide)
    played: list[tuple[int, str]] = []
    free = len(guide.steps) - 1  # the last step takes any move: stop when the learner gets there with a choice
    while not (
        progress(guide, state)["step"] == free
        and guide.seat in state.to_move()
        and len(BLOOD_RAGE.legal_notations(state, guide.seat)) > 1
    ):
        movers = list(state.to_move())
        others = [seat for seat in movers if seat != guide.seat]
        seat = (others[0] if others else guide.seat) if learner_last else movers[0]
        legal = BLOOD_RAGE.legal_notations(state, seat)
        if seat == guide.seat:
            now = progress(guide, state)
            notation = now["expect"][0] if len(legal) > 1 else legal[0]
        else:
            scripted = reply(guide, state, seat)
            assert scripted is not None or len(legal) == 1, (seat, legal)
            notation = scripted if scripted is not None else legal[0]
        state.apply(seat, BLOOD_RAGE.parse_action(notation))
        played.append((seat, notation))
    assert state.view(guide.seat)["clans"][guide.seat]["glory"] == 3  # the battle the guide wins
    return played


def test_the_script_is_sound() -> None:
    guide = BLOOD_RAGE.guide()
    assert guide is not None
    assert check_guide(BLOOD_RAGE, guide) == []
    assert guide.players == 3 and progress(guide, start(BLOOD_RAGE, guide))["say"].startswith(guide.intro)


def test_the_same_game_whichever_clan_decides_first() -> None:
    """The draft and the battle cards: the bots before the learner or after, the same moves per seat."""
    first = _play_script(learner_last=True)
    second = _play_script(learner_last=False)
    assert first != second  # the order differs...
    for seat in range(3):
        assert [move for who, move in first if who == seat] == [move for who, move in second if who == seat]
