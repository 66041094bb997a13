"""Swiss pairing: named cases, and properties over random fields and whole simulated
events: everyone in play is paired once or has the bye, no repeat pairing while a
pairing without one exists (checked by brute force on small fields), no second bye while
someone has none, seats within one, the same pairing for the same standings."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.formats.swiss import Pairing, SwissPlayer, pair_round, swiss_players


def fresh(n: int) -> list[SwissPlayer]:
    return [
        SwissPlayer(player=p, rating=2000.0 - 10 * p, points=0.0, opponents=frozenset(),
                    seats_a=0, seats_b=0, byes=0)
        for p in range(1, n + 1)
    ]  # fmt: skip


def test_the_first_round_pairs_the_top_half_with_the_bottom_half() -> None:
    pairing = pair_round(fresh(8))
    assert pairing == Pairing(games=[(1, 5), (6, 2), (3, 7), (8, 4)], bye=None)


def test_an_odd_field_gives_the_lowest_the_bye_then_the_lowest_without_one() -> None:
    field = fresh(5)
    assert pair_round(field).bye == 5
    had_one = [
        p if p.player != 5 else SwissPlayer(5, p.rating, 1.0, frozenset(), 0, 0, 1) for p in field
    ]
    assert pair_round(had_one).bye == 4


def test_a_repeat_is_avoided_by_a_transposition_inside_the_group() -> None:
    field = swiss_players(
        {1: 1900, 2: 1800, 3: 1700, 4: 1600}, [(1, 3, 0.5, 0.5), (2, 4, 0.5, 0.5)]
    )
    # 1 v 3 and 2 v 4 have been played: 1 meets 4 and 2 meets 3, who were at B, at A
    assert pair_round(field).games == [(4, 1), (3, 2)]


def test_a_seat_clash_is_avoided_before_the_rating_order() -> None:
    field = swiss_players(
        {1: 1900, 2: 1800, 3: 1700, 4: 1600}, [(1, 3, 0.5, 0.5), (4, 2, 0.5, 0.5)]
    )
    # 1 and 4 both had A, 2 and 3 both B: 1 v 4 would send one of them to A twice
    assert pair_round(field).games == [(2, 1), (3, 4)]


def test_withdrawn_players_are_never_paired() -> None:
    field = [
        p if p.player != 2 else SwissPlayer(2, p.rating, 0, frozenset(), 0, 0, 0, withdrawn=True)
        for p in fresh(6)
    ]
    pairing = pair_round(field)
    assert 2 not in {x for g in pairing.games for x in g} and pairing.bye != 2
    assert len(pairing.games) == 2 and pairing.bye is not None


def test_the_player_with_more_games_at_a_takes_b() -> None:
    field = [
        SwissPlayer(1, 1900, 1, frozenset({9}), 1, 0, 0),
        SwissPlayer(2, 1800, 1, frozenset({8}), 0, 1, 0),
    ]
    assert pair_round(field).games == [(2, 1)]


# -- properties


def perfect_matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        for others in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *others]


def repeat_free_possible(field: list[SwissPlayer]) -> bool:
    active = [p for p in field if not p.withdrawn]
    met = {p.player: p.opponents for p in active}
    byes: list[int | None] = [None]
    if len(active) % 2:
        fewest = min(p.byes for p in active)
        byes = [p.player for p in active if p.byes == fewest]
    for bye in byes:
        rest = [p.player for p in active if p.player != bye]
        if any(all(b not in met[a] for a, b in m) for m in perfect_matchings(rest)):
            return True
    return False


@st.composite
def fields(draw: st.DrawFn) -> list[SwissPlayer]:
    n = draw(st.integers(min_value=1, max_value=9))
    ids = list(range(1, n + 1))
    met = draw(st.sets(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=20))
    opponents: dict[int, set[int]] = {p: set() for p in ids}
    for a, b in met:
        if a != b:
            opponents[a].add(b)
            opponents[b].add(a)
    return [
        SwissPlayer(
            player=p,
            rating=draw(st.sampled_from([1400.0, 1500.0, 1600.0])),
            points=draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0])),
            opponents=frozenset(opponents[p]),
            seats_a=draw(st.integers(0, 2)),
            seats_b=draw(st.integers(0, 2)),
            byes=draw(st.integers(0, 1)),
            withdrawn=draw(st.booleans()) and draw(st.booleans()),
        )
        for p in ids
    ]


@settings(max_examples=200, deadline=None)
@given(fields(), st.randoms(use_true_random=False))
def test_any_field_pairs_everyone_once_and_avoids_repeats_when_it_can(
    field: list[SwissPlayer], shuffler: random.Random
) -> None:
    pairing = pair_round(field)
    active = sorted(p.player for p in field if not p.withdrawn)
    seated = [x for game in pairing.games for x in game]
    assert sorted(seated + ([pairing.bye] if pairing.bye is not None else [])) == active
    assert (pairing.bye is not None) == (len(active) % 2 == 1)
    if pairing.bye is not None:
        fewest = min(p.byes for p in field if not p.withdrawn)
        assert next(p for p in field if p.player == pairing.bye).byes == fewest
    met = {p.player: p.opponents for p in field}
    repeats = [g for g in pairing.games if g[1] in met[g[0]]]
    if repeat_free_possible(field):
        assert repeats == []
    shuffled = list(field)
    shuffler.shuffle(shuffled)
    assert pair_round(shuffled) == pairing  # the standings decide, not the order given


def play(n: int, rounds: int, seed: int) -> Iterator[tuple[list[SwissPlayer], Pairing]]:
    """A whole event with random results; yields each round's field and pairing."""
    rng = random.Random(seed)
    ratings = {p: float(rng.randrange(1200, 1800)) for p in range(1, n + 1)}
    games: list[tuple[int, int, float, float]] = []
    byes: dict[int, int] = {}
    for _ in range(rounds):
        field = swiss_players(ratings, games, byes)
        pairing = pair_round(field)
        yield field, pairing
        if pairing.bye is not None:
            byes[pairing.bye] = byes.get(pairing.bye, 0) + 1
        for a, b in pairing.games:
            games.append((a, b, *rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])))
    yield swiss_players(ratings, games, byes), Pairing([], None)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=41), st.integers(min_value=0, max_value=2**32))
def test_a_simulated_event_keeps_seats_within_one_and_never_repeats(n: int, seed: int) -> None:
    # rounds up to half the field: late in a field nearly everyone has met, a pairing
    # with no repeat and no seat clash may not exist, and the repeat is avoided first
    for field, pairing in play(n, max(1, n // 2), seed):
        assert all(abs(p.seats_a - p.seats_b) <= 1 for p in field)
        met = {p.player: p.opponents for p in field}
        assert [g for g in pairing.games if g[1] in met[g[0]]] == []


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1, max_value=15), st.integers(min_value=0, max_value=2**32))
def test_no_second_bye_while_someone_has_none(half: int, seed: int) -> None:
    n = 2 * half + 1
    for field, pairing in play(n, n + 2, seed):
        counts = {p.player: p.byes for p in field}
        assert max(counts.values()) - min(counts.values()) <= 1
        if pairing.bye is not None:
            assert counts[pairing.bye] == min(counts.values())
