"""Ladders keep a permutation; a league season moves exactly the stated numbers and loses
no one; newcomers fill the lowest division and open new ones no smaller than stated."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.formats.ladder import after_game, may_challenge
from competitions.formats.league import place_newcomers, season_moves

# -- ladder


def test_a_challenge_reaches_at_most_reach_places_up() -> None:
    ladder = [1, 2, 3, 4, 5]
    assert may_challenge(ladder, 5, 3, reach=2)
    assert not may_challenge(ladder, 5, 2, reach=2)
    assert not may_challenge(ladder, 3, 5, reach=2)  # downwards
    assert not may_challenge(ladder, 3, 3, reach=2)
    assert not may_challenge(ladder, 9, 3, reach=2)  # not on the ladder


def test_the_lower_winner_takes_the_place_and_those_between_move_down() -> None:
    assert after_game([1, 2, 3, 4, 5], winner=5, loser=2) == [1, 5, 2, 3, 4]
    assert after_game([1, 2, 3, 4, 5], winner=2, loser=5) == [1, 2, 3, 4, 5]
    with pytest.raises(ValueError):
        after_game([1, 2], winner=1, loser=3)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=30), st.data())
def test_a_ladder_stays_a_permutation(n: int, data: st.DataObject) -> None:
    ladder = list(range(n))
    for _ in range(data.draw(st.integers(min_value=1, max_value=10))):
        winner, loser = data.draw(
            st.lists(st.sampled_from(ladder), min_size=2, max_size=2, unique=True)
        )
        before = ladder
        ladder = after_game(ladder, winner, loser)
        assert sorted(ladder) == list(range(n))
        if before.index(winner) > before.index(loser):
            assert ladder.index(winner) == before.index(loser)
        else:
            assert ladder == before


# -- league


def test_a_season_moves_the_top_up_and_the_bottom_down() -> None:
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11]]
    assert season_moves(divisions, up=1, down=2) == [[1, 2, 5], [3, 4, 6, 9], [7, 8, 10, 11]]


def test_a_division_too_small_for_its_moves_is_refused() -> None:
    with pytest.raises(ValueError):
        season_moves([[1, 2], [3, 4], [5, 6]], up=2, down=1)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=4, max_value=10), min_size=1, max_size=5),
    st.integers(min_value=0, max_value=2),
    st.integers(min_value=0, max_value=2),
)
def test_a_season_moves_exactly_the_stated_numbers_and_loses_no_one(
    sizes: list[int], up: int, down: int
) -> None:
    divisions, next_id = [], 0
    for size in sizes:
        divisions.append(list(range(next_id, next_id + size)))
        next_id += size
    after = season_moves(divisions, up=up, down=down)
    assert sorted(p for d in after for p in d) == list(range(next_id))
    where = {p: k for k, d in enumerate(divisions) for p in d}
    moved_up = [p for k, d in enumerate(after) for p in d if where[p] == k + 1]
    moved_down = [p for k, d in enumerate(after) for p in d if where[p] == k - 1]
    assert all(abs(where[p] - k) <= 1 for k, d in enumerate(after) for p in d)
    assert len(moved_up) == up * (len(divisions) - 1)
    assert len(moved_down) == down * (len(divisions) - 1)
    for k in range(1, len(divisions)):
        assert sorted(p for p in moved_up if where[p] == k) == sorted(divisions[k][:up])
        assert sorted(p for p in moved_down if where[p] == k - 1) == sorted(
            divisions[k - 1][len(divisions[k - 1]) - down :]
        )


def test_newcomers_fill_the_lowest_division_then_open_one() -> None:
    placed = place_newcomers([[1, 2, 3, 4, 5, 6]], list(range(10, 19)), size=8, smallest=6)
    assert placed == [[1, 2, 3, 4, 5, 6, 10, 11], [12, 13, 14, 15, 16, 17, 18]]


def test_newcomers_who_fit_in_the_lowest_division_open_none() -> None:
    assert place_newcomers([[1, 2, 3, 4, 5, 6]], [7, 8], size=8, smallest=6) == [
        [1, 2, 3, 4, 5, 6, 7, 8]
    ]


def test_too_few_for_a_new_division_means_fewer_in_the_lowest() -> None:
    placed = place_newcomers([[1, 2, 3, 4, 5, 6, 7]], [8, 9, 10, 11, 12, 13], size=8, smallest=6)
    assert placed == [[1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13]]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(min_value=6, max_value=8), max_size=3),
    st.integers(min_value=0, max_value=40),
)
def test_newcomers_lose_no_one_and_divisions_stay_within_bounds(
    sizes: list[int], newcomers: int
) -> None:
    divisions, next_id = [], 0
    for size in sizes:
        divisions.append(list(range(next_id, next_id + size)))
        next_id += size
    arriving = list(range(1000, 1000 + newcomers))
    placed = place_newcomers(divisions, arriving, size=8, smallest=6)
    everyone = [p for d in placed for p in d]
    assert sorted(everyone) == sorted(list(range(next_id)) + arriving)
    for old, new in zip(divisions, placed, strict=False):
        assert new[: len(old)] == old  # nobody already placed moves
    room = 8 - len(divisions[-1]) if divisions else 0
    possible = any(
        6 * m <= newcomers - into <= 8 * m and (newcomers - into > 0) == (m > 0)
        for into in range(min(room, newcomers) + 1)
        for m in range(newcomers // 6 + 1)
    )
    if possible:  # the bounds hold whenever some arrangement allows them
        assert all(6 <= len(d) <= 8 for d in placed), placed
