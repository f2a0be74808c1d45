from __future__ import annotations

from collections import Counter

import pytest

from meadhall.core.rng import Rng


def test_same_seed_same_sequence() -> None:
    assert [Rng(42).next64() for _ in range(3)] == [Rng(42).next64() for _ in range(3)]
    one, two = Rng(42), Rng(42)
    assert [one.below(1000) for _ in range(50)] == [two.below(1000) for _ in range(50)]


def test_known_first_values_are_stable_across_versions() -> None:
    # Records replay on any machine only if the generator never changes: pin it.
    rng = Rng(0)
    assert [rng.below(100) for _ in range(8)] == [76, 95, 13, 53, 93, 54, 68, 14]


def test_seeding_uses_reference_splitmix64() -> None:
    from meadhall.core.rng import _splitmix64

    # First output of SplitMix64 seeded with 0 (Vigna's reference implementation).
    assert _splitmix64(0)[1] == 0xE220A8397B1DCDAF


def test_different_seeds_differ() -> None:
    assert Rng(1).next64() != Rng(2).next64()
    assert Rng(2**64 + 1).next64() != Rng(1).next64()


def test_below_is_uniform_enough() -> None:
    rng = Rng(7)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    for value in range(6):
        assert 9_400 < counts[value] < 10_600


def test_shuffle_is_a_permutation_and_uniform() -> None:
    rng = Rng(3)
    orders = Counter(tuple(_shuffled(rng)) for _ in range(24_000))
    assert len(orders) == 24  # every order of 4 items appears
    assert min(orders.values()) > 800


def _shuffled(rng: Rng) -> list[int]:
    items = [0, 1, 2, 3]
    rng.shuffle(items)
    return items


def test_clone_and_state_restore() -> None:
    rng = Rng(9)
    rng.next64()
    copy = rng.clone()
    saved = rng.getstate()
    first = [rng.next64() for _ in range(5)]
    assert [copy.next64() for _ in range(5)] == first
    rng.setstate(saved)
    assert [rng.next64() for _ in range(5)] == first


def test_bounds() -> None:
    rng = Rng(5)
    with pytest.raises(ValueError):
        rng.below(0)
    assert rng.below(1) == 0
    assert all(1 <= rng.randint(1, 6) <= 6 for _ in range(200))
    assert all(0.0 <= rng.random() < 1.0 for _ in range(200))
    assert rng.choice("abc") in "abc"


def test_fast_shuffle_is_a_reproducible_uniform_permutation() -> None:
    first, second = Rng(5), Rng(5)
    a, b = list(range(50)), list(range(50))
    first.shuffle_fast(a)
    second.shuffle_fast(b)
    assert a == b and sorted(a) == list(range(50)) and a != list(range(50))
    assert first.getstate() == second.getstate()  # it drew exactly one number from the generator
    counts = [0] * 4
    rng = Rng(9)
    for _ in range(4000):
        items = [0, 1, 2, 3]
        rng.shuffle_fast(items)
        counts[items[0]] += 1
    assert all(abs(c - 1000) < 150 for c in counts), counts
