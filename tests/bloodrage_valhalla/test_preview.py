"""Blood Rage's previews: a legal target's cost and effect (the terminal's explain words), an
illegal one the engine's refusal; every action's target names its own notation."""

from __future__ import annotations

from collections.abc import Iterator

from meadhall.core.errors import IllegalAction
from meadhall.core.preview import preview_target
from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla import BLOODRAGE, BloodRageState
from meadhall.games.bloodrage_valhalla.notation import parse_action
from meadhall.games.bloodrage_valhalla.words import BloodRageWords, describe_action


def _positions(seed: int, steps: int) -> Iterator[BloodRageState]:
    state: BloodRageState = BLOODRAGE.new_game(players=3, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        seat = state.to_move()[rng.below(len(state.to_move()))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])


def test_legal_targets_preview_cost_and_effect_and_name_their_action() -> None:
    kinds: set[str] = set()
    for state in _positions(4, 150):
        words = BloodRageWords().for_options(state.options)
        for seat in state.to_move():
            view = state.view(seat)
            legal = [str(a) for a in state.legal_actions(seat)]
            for item in words.actions(view, legal):
                assert words.target_notation(view, item["target"] or {}) == item["notation"]
            for item in words.actions(view, legal)[:4]:
                preview = preview_target(words, state, seat, item["target"] or {}, legal)
                assert preview is not None and preview["legal"]
                action = parse_action(item["notation"])
                # The first action with the target: the one a board previews.
                first = next(a for a in words.actions(view, legal) if a["target"] == item["target"])
                assert preview["title"] == first["label"]
                assert preview["lines"] == [describe_action(parse_action(first["notation"]), view, seat)]
                kinds.add(action.kind)
                if action.kind == "summon":
                    assert preview.get("cost") in ("1 Rage", "free (a monster)"), item["notation"]
                if action.kind == "march":
                    assert preview.get("cost") == "1 Rage"
    assert {"pick", "summon"} <= kinds


def test_an_illegal_target_gives_the_engines_refusal() -> None:
    state = next(s for s in _positions(2, 200) if s.view(None).get("phase") == "action")
    seat = state.to_move()[0]
    words = BloodRageWords().for_options(state.options)
    other = (seat + 1) % state.num_players
    for who, target in ((other, {"kind": "pass"}), (seat, {"kind": "upgrade", "card": "no-such-card"})):
        preview = preview_target(words, state, who, target)
        assert preview is not None and not preview["legal"]
        try:
            state.check(who, parse_action(str(words.target_notation(state.view(who), target))))
        except IllegalAction as error:
            assert preview["refusal"] == str(error) and preview["rule"] == error.rule
        else:
            raise AssertionError(f"{target} was accepted")


def test_a_card_with_no_move_now_says_why() -> None:
    """A board asks about a card of the hand by its id alone: the words pick the action it would be."""
    refused = 0
    for state in _positions(5, 300):
        words = BloodRageWords().for_options(state.options)
        for seat in range(state.num_players):
            view = state.view(seat)
            legal = [str(a) for a in state.legal_actions(seat)] if seat in state.to_move() else []
            offered = {(item["target"] or {}).get("card") for item in words.actions(view, legal)} if legal else set()
            for card in view.get("hand") or []:
                if card in offered:
                    continue
                preview = preview_target(words, state, seat, {"card": card}, legal)
                assert preview is not None and not preview["legal"], (card, preview)
                assert preview["refusal"] and preview["rule"]
                refused += 1
    assert refused > 10


def test_a_region_with_no_move_now_says_what_it_is_and_why() -> None:
    """A board asks about a region by its id alone: a region with no move on it is a place, in the game's words."""
    content = BloodRageWords().for_options({}).content
    seen: set[str] = set()
    for state in _positions(3, 300):
        words = BloodRageWords().for_options(state.options)
        for seat in range(state.num_players):
            view = state.view(seat)
            legal = [str(a) for a in state.legal_actions(seat)] if seat in state.to_move() else []
            offered = {(item["target"] or {}).get("region") for item in words.actions(view, legal)} if legal else set()
            for region in content.regions:
                preview = preview_target(words, state, seat, {"region": region}, legal)
                assert preview is not None, region
                if region in offered:
                    assert preview["legal"]
                    continue
                assert not preview["legal"] and preview["title"] == content.regions[region].name
                assert preview["refusal"] and len(preview["lines"]) >= 3, preview
                if not legal:
                    seen.add("not your turn")
                    assert "not your decision" in preview["refusal"]
                elif region in view["region_tokens"]:
                    seen.add("closed")
                    assert "region token" in preview["refusal"]
                else:
                    seen.add("another decision")
                    assert words.prompt(view, legal) in preview["refusal"]
                god = view["gods_at"].get(region)
                if god is not None:
                    assert content.gods[god].name in preview["lines"][0]
    assert seen == {"not your turn", "closed", "another decision"}
    # Not a place of this map, or a region asked about with more than its id: no preview.
    state = next(_positions(3, 1))
    words = BloodRageWords().for_options(state.options)
    assert preview_target(words, state, 0, {"region": "no-such-region"}) is None
    assert preview_target(words, state, 0, {"region": "valhalla", "figure": "x"}) is None
