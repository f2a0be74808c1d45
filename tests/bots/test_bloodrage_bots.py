"""Blood Rage bots: honest (a seat's hidden cards do not change their choices), sampling
worlds consistent with the view and uniform over the unseen cards, and greedy worth playing."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from meadhall.bots import make_bot
from meadhall.core.rng import Rng
from meadhall.games.bloodrage_valhalla import BLOODRAGE, BloodRageState, BRAction
from meadhall.lab.selfplay import play_out


def _position(phase: str, seed: int = 4, players: int = 4) -> BloodRageState:
    """A seeded random game stopped at the first decision of ``phase``."""
    state = BLOODRAGE.new_game(players=players, seed=seed, options={"preset": "first-game"})
    rng = Rng(seed)
    while state.phase != phase or (phase == "draft" and state.clans[0].drafted == []):
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        choices = [a for a in legal if a.kind != "pass"] or legal
        state.apply(seat, choices[rng.below(len(choices))])
        assert not state.is_terminal()
    return state


@pytest.mark.parametrize("phase", ["draft", "action", "battle"])
@pytest.mark.parametrize("spec", ["random", "greedy", "ismcts:60"])
def test_decisions_do_not_depend_on_hidden_cards(phase: str, spec: str) -> None:
    real = _position(phase)
    seat = real.to_move()[0]
    for trial in range(3):
        other = real.sample_world(seat, Rng(100 + trial))
        assert isinstance(other, BloodRageState)
        assert other.view(seat) == real.view(seat)
        assert [c.hand for c in other.clans] != [c.hand for c in real.clans] or other.deck != real.deck
        assert other.legal_actions(seat) == real.legal_actions(seat)
        chosen = [
            make_bot(spec).choose(BLOODRAGE, world.view(seat), world.legal_actions(seat), Rng(trial))
            for world in (real, other)
        ]
        assert chosen[0] == chosen[1], f"{spec} decided differently on hidden cards"


@pytest.mark.parametrize("phase", ["draft", "action", "battle", "keep"])
def test_sampled_worlds_show_every_seat_its_view(phase: str) -> None:
    state = _position(phase)
    for seat in [*range(state.num_players), None]:
        belief = BLOODRAGE.belief(state.view(seat))
        for draw in range(4):
            world = belief.sample(Rng(draw))
            assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(state.view(seat), sort_keys=True)
            # every card is somewhere exactly once
            cards = list(world.deck) + list(world.removed) + list(world.spent)
            for index, clan in enumerate(world.clans):
                cards += clan.hand + clan.drafted + clan.saved + clan.discards + clan.upgrades + clan.quests
                cards += world.packs[index]
            assert len(cards) == len(set(cards))


def test_unseen_cards_are_spread_uniformly() -> None:
    state = _position("action")
    seat = 0
    view = state.view(seat)
    belief = BLOODRAGE.belief(view)
    hand_size = len(state.clans[1].hand)
    unseen = len(belief.unseen_fixed)
    assert hand_size and unseen > hand_size
    counts: Counter[str] = Counter()
    draws = 3000
    for draw in range(draws):
        world = belief.sample(Rng(draw))
        counts.update(world.clans[1].hand)
    expected = draws * hand_size / unseen
    # each unseen card lands in seat 1's hand with probability hand/unseen (within 5 sigma)
    sigma = (draws * (hand_size / unseen) * (1 - hand_size / unseen)) ** 0.5
    for card in set(belief.unseen_fixed):
        copies = belief.unseen_fixed.count(card)
        assert abs(counts[card] - copies * expected) < 5 * sigma * copies, card


def test_greedy_beats_random_bots() -> None:
    wins = 0
    for game_index in range(6):
        state = BLOODRAGE.new_game(players=3, seed=500 + game_index)
        greedy_seat = game_index % 3
        bots = [make_bot("greedy" if s == greedy_seat else "random") for s in range(3)]
        rngs = [Rng(game_index * 10 + s) for s in range(3)]
        play_out(state, bots, rngs)
        wins += state.ranking()[greedy_seat] == 1
    assert wins >= 5, wins


def test_a_cards_price_adds_nothing_to_its_worth_for_the_bots() -> None:
    # A battle card's drawbacks (spent when it wins, Rage lost when revealed) are not
    # counted as effects that make it worth more: only gains are.
    from importlib import resources

    from meadhall.games.bloodrage_valhalla.search import card_value

    data = resources.files("meadhall.games.bloodrage_valhalla").joinpath("data/default.json")
    pack = json.loads(data.read_text("utf-8"))
    cards = {card["id"]: card for card in pack["cards"]}
    cards["tyr-01"]["effects"] = []  # +6, plain
    cards["loki-01"]["effects"] = [{"do": "lose_rage", "when": "reveal", "amount": 2}]
    cards["thor-01"]["effects"] = [{"do": "spent", "when": "win"}, {"do": "glory", "when": "win", "amount": 1}]
    state = BLOODRAGE.new_game(players=3, seed=1, options={"content": pack})
    assert isinstance(state, BloodRageState)
    plain = card_value(state, "tyr-01")
    assert card_value(state, "loki-01") == plain
    assert card_value(state, "freya-01") == plain  # the default pack's +6: spent when it wins
    assert card_value(state, "thor-01") > plain  # its Glory is a gain


def test_greedy_counts_the_neighbours_who_may_answer_a_contest() -> None:
    # Seat 0 stands alone in Folkvang (reward: a stat of choice). With nobody near, greedy
    # contests it: a free reward. With two enemy Elites next door in Bilskirnir, one of
    # them would answer the Call to Battle and win; greedy no longer counts the contest as
    # won. (Counting only the figures already in the region, a bot contested a region it
    # always lost, at no cost, again and again: a game that never ended.)
    from tests.bloodrage_valhalla.helpers import action_state, arrange

    def choice(neighbours: list[tuple[str, int, str]]) -> str:
        state = action_state(3, seed=7)
        arrange(state, figures=[("folkvang", 0, "warrior"), *neighbours], tokens=("sokkvabekk", "glitnir"))
        legal = state.legal_actions(0)
        assert BRAction("contest", "folkvang") in legal
        return str(make_bot("greedy").choose(BLOODRAGE, state.view(0), legal, Rng(1)))

    assert choice([]) == "contest:folkvang"
    assert choice([("bilskirnir", 1, "elite"), ("bilskirnir", 1, "elite")]) != "contest:folkvang"
