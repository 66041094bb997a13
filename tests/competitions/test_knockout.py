"""Knockout brackets: seeds in the standard order, the byes to the top seeds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.formats.knockout import bracket, next_round, seed_order


def test_eight_seeds_in_the_standard_order() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket([1, 2, 3, 4, 5, 6, 7, 8]) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_five_players_give_the_top_three_seeds_a_bye() -> None:
    assert bracket([11, 12, 13, 14, 15]) == [(11, None), (14, 15), (12, None), (13, None)]


def test_one_player_has_a_bye_and_nobody_has_nothing() -> None:
    assert bracket([5]) == [(5, None)]
    assert bracket([]) == []


def test_the_next_round_pairs_neighbouring_ties() -> None:
    assert next_round([1, 4, 2, 3]) == [(1, 4), (2, 3)]
    with pytest.raises(ValueError):
        next_round([1, 2, 3])


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=70))
def test_every_player_once_byes_to_the_best_seeds_and_seeds_one_and_two_apart(n: int) -> None:
    seeded = list(range(1, n + 1))
    ties = bracket(seeded)
    places = len(ties) * 2
    assert places >= n > places // 2
    placed = [p for tie in ties for p in tie if p is not None]
    assert sorted(placed) == seeded
    with_bye = sorted(a for a, b in ties if b is None)
    assert with_bye == seeded[: places - n]
    half = len(ties) // 2
    if half:
        upper = {p for tie in ties[:half] for p in tie}
        assert 1 in upper and 2 not in upper  # the top two seeds meet only in the final
