"""Round robin by Berger tables: every pair once (twice, seats swapped, when double),
nobody twice in a round, seats within one, and the known first rounds."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.formats.roundrobin import rounds


def test_four_players_play_three_rounds_the_held_player_alternating_seats() -> None:
    assert rounds([1, 2, 3, 4]) == [
        [(1, 4), (2, 3)],
        [(4, 2), (3, 1)],
        [(3, 4), (1, 2)],
    ]


def test_an_odd_count_sits_one_out_each_round() -> None:
    table = rounds([1, 2, 3])
    assert len(table) == 3
    sitting_out = [({1, 2, 3} - {p for game in games for p in game}).pop() for games in table]
    assert sorted(sitting_out) == [1, 2, 3]


def test_fewer_than_two_players_play_nothing() -> None:
    assert rounds([]) == []
    assert rounds([7]) == []


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        rounds([1, 2, 1])


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=21), st.booleans())
def test_every_pair_meets_exactly_once_or_twice_with_seats_swapped(n: int, double: bool) -> None:
    players = list(range(100, 100 + n))
    table = rounds(players, double=double)
    assert len(table) == (n - 1 + n % 2) * (2 if double else 1)
    for games in table:
        seated = [p for game in games for p in game]
        assert len(seated) == len(set(seated)) and len(games) == n // 2
    meetings = Counter(game for games in table for game in games)
    for a in players:
        for b in players:
            if a < b:
                if double:
                    assert meetings[(a, b)] == 1 and meetings[(b, a)] == 1
                else:
                    assert meetings[(a, b)] + meetings[(b, a)] == 1
    at_a = Counter(a for games in table for a, _ in games)
    at_b = Counter(b for games in table for _, b in games)
    assert all(abs(at_a[p] - at_b[p]) <= 1 for p in players)
    if double:
        assert all(at_a[p] == at_b[p] for p in players)
