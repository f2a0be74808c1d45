"""Valda bots: honest (hidden cards do not change their choices), sampling worlds uniformly
over the unseen cards, an evaluation that sees what a position promises, and greedy worth
playing."""

from __future__ import annotations

from collections import Counter

import pytest

from meadhall.bots import make_bot
from meadhall.core.rng import Rng
from meadhall.games.valda import GAME, ValdaAction, ValdaState
from meadhall.games.valda.search import evaluate, turns_left
from meadhall.lab.selfplay import play_out


def _position(kind: str, seed: int = 4, players: int = 3) -> ValdaState:
    """A seeded random game stopped at the first decision of ``kind`` in round 2 or later."""
    state = GAME.new_game(players=players, seed=seed)
    rng = Rng(seed)
    while state.round < 2 or (state.decision is None or state.decision.kind != kind):
        (seat,) = state.to_move()
        legal = state.legal_actions(seat)
        choices = [a for a in legal if a.kind not in ("pass", "done", "yield")] or legal
        state.apply(seat, choices[rng.below(len(choices))])
        assert not state.is_terminal(), f"no {kind} decision in this game"
    return state


@pytest.mark.parametrize("kind", ["game", "build", "attack", "defend"])
@pytest.mark.parametrize("spec", ["random", "greedy", "ismcts:40"])
def test_decisions_do_not_depend_on_hidden_cards(kind: str, spec: str) -> None:
    real = _position(kind)
    (seat,) = real.to_move()
    for trial in range(3):
        other = real.sample_world(seat, Rng(100 + trial))
        assert isinstance(other, ValdaState)
        assert other.view(seat) == real.view(seat)
        assert [p.hand for p in other.players] != [p.hand for p in real.players] or other.base != real.base
        assert other.legal_actions(seat) == real.legal_actions(seat)
        chosen = [
            make_bot(spec).choose(GAME, world.view(seat), world.legal_actions(seat), Rng(trial))
            for world in (real, other)
        ]
        assert chosen[0] == chosen[1], f"{spec} decided differently on hidden cards"


def test_unseen_cards_are_spread_uniformly() -> None:
    state = _position("game")
    seat = state.current
    other = (seat + 1) % state.num_players
    belief = GAME.belief(state.view(seat))
    hand_size = len(state.players[other].hand)
    unknown = belief.unknown
    total = sum(unknown.values())
    assert hand_size and total > hand_size
    counts: Counter[str] = Counter()
    draws = 2000
    for draw in range(draws):
        world = belief.sample(Rng(draw))
        counts.update(world.players[other].hand)
    # god cards fill their own god's deck first and base cards the base deck, so cards of
    # one deck compare evenly: every unseen copy of a deck lands in the hand equally often
    content = state.config.content
    by_deck: dict[str | None, list[str]] = {}
    for card in unknown:
        by_deck.setdefault(content.cards[card].god, []).append(card)
    compared = 0
    for cards in by_deck.values():
        copies = sum(unknown[card] for card in cards)
        per_copy = sum(counts[card] for card in cards) / copies / draws
        if len(cards) < 3 or per_copy == 0:
            continue
        for card in cards:
            expected = draws * per_copy * unknown[card]
            sigma = (draws * unknown[card] * per_copy * (1 - per_copy)) ** 0.5
            assert abs(counts[card] - expected) < 5 * sigma + 1, (card, counts[card], expected)
            compared += 1
    assert compared > 15


def test_the_evaluation_counts_followers_income_and_an_attack_on_the_way() -> None:
    state = _position("build")
    seat = state.current
    base = evaluate(state, seat)
    richer = state.clone()
    richer.players[seat].followers += 2
    assert evaluate(richer, seat) == pytest.approx(base + 2)
    more_mines = state.clone()
    more_mines.players[seat].mines += 1
    assert evaluate(more_mines, seat) > base  # a mine's dice for the turns left
    assert turns_left(state, seat) > 0
    # an announced attack of power 4 that takes 2 followers: the target expects to lose them
    attacker = (seat + 1) % state.num_players
    attacked = state.clone()
    attacked.players[seat].followers = 6
    before = evaluate(attacked, seat)
    attacked.attack = {"attacker": attacker, "target": seat, "card": "massacre", "power": 4, "defence": 0, "used": []}
    assert evaluate(attacked, seat) < before
    attacked.attack["defence"] = 4  # defended: nothing to fear
    assert evaluate(attacked, seat) == pytest.approx(before)
    ended = state.clone()
    ended.finished = True
    final = ended.players[seat]
    assert evaluate(ended, seat) == pytest.approx(final.followers + 0.01 * final.buildings())


def test_greedy_beats_random_bots() -> None:
    wins = 0
    for game_index in range(8):
        state = GAME.new_game(players=2, seed=700 + game_index)
        greedy_seat = game_index % 2
        bots = [make_bot("greedy" if s == greedy_seat else "random") for s in range(2)]
        rngs = [Rng(game_index * 10 + s) for s in range(2)]
        play_out(state, bots, rngs)
        wins += state.ranking()[greedy_seat] == 1 and state.ranking().count(1) == 1
    assert wins >= 6, wins


def test_the_evaluation_rates_lokis_ability_by_the_packs_white_die() -> None:
    import dataclasses

    from meadhall.games.valda.content import Face, default_content
    from meadhall.games.valda.rates import ability_income

    content = default_content()
    assert ability_income(content)["loki"] == (0.0, 0.5, 1.0)  # +2, +1, +1, +1, -1, -1
    faces = tuple(Face({}, followers) for followers in (2, 1, 1, -1, -1, -1))
    gamble = dataclasses.replace(content, dice={**content.dice, "white": faces})
    assert ability_income(gamble)["loki"] == pytest.approx((0.0, 1 / 6, 2 / 6))
    assert ability_income(gamble)["thor"] == ability_income(content)["thor"]


def test_cards_in_hand_are_worth_what_they_do() -> None:
    from meadhall.games.valda.content import default_content
    from meadhall.games.valda.rates import YELLOW_SHARE, card_values, yellow_worth

    content = default_content()
    values = card_values(content)
    assert set(values) == set(content.cards)
    # Two followers are kept over a raid; a follower over two gold; power counts.
    assert values["thunder-rally"] > values["raid"] > values["cutpurse"]
    assert values["prayer"] > values["gold-vein"]
    assert values["hand-of-tyr"] > values["round-shield"] > values["shield-wall"]
    for card in content.cards.values():
        if card.kind == "yellow":
            worth = yellow_worth(card.effects)
            # Held, a yellow card is worth less than playing it brings, so it gets played.
            assert values[card.id] == pytest.approx(max(0.1, min(2.0, YELLOW_SHARE * worth)))
            assert worth > values[card.id] or worth < 0.2, card.id


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_greedy_keeps_the_god_card_worth_more(seed: int) -> None:
    from meadhall.games.valda.rates import card_values

    state = _position("keep", seed=seed)
    (seat,) = state.to_move()
    legal = state.legal_actions(seat)
    values = card_values(state.config.content)
    assert len({values[action.name] for action in legal}) == len(legal) or len(legal) == 1
    choice = GAME.search_adapter().greedy_in(state, seat, legal, legal, Rng(seed))
    assert isinstance(choice, ValdaAction)
    assert values[choice.name] == max(values[action.name] for action in legal)
