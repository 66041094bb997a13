"""Standings: named cases for each tie-break, and a property: any set of results gives
the order a plain recomputation (written here apart, player by player) gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.formats.results import BYE_POINTS, Entrant, GameResult
from competitions.formats.standings import TIEBREAKS, standings

WIN, LOSS, HALF = (1.0, 0.0), (0.0, 1.0), (0.5, 0.5)


def test_sonneborn_berger_parts_two_players_level_on_points() -> None:
    # alice and bob both score 1.5; alice beat carol (2 points), bob beat dave (0.5)
    entrants = [Entrant(p, 1500.0) for p in (1, 2, 3, 4)]
    results = [
        GameResult(1, 3, WIN),
        GameResult(2, 4, WIN),
        GameResult(1, 2, HALF),
        GameResult(3, 4, WIN),
        GameResult(1, 4, LOSS),
        GameResult(2, 3, LOSS),
    ]
    table = standings("round_robin", entrants, results)
    assert [s.player for s in table] == [3, 1, 2, 4]
    alice, bob = table[1], table[2]
    assert alice.points == bob.points == 1.5
    assert alice.tiebreaks[0] == 2.0 + 0.5 * 1.5 and bob.tiebreaks[0] == 1.0 + 0.5 * 1.5


def test_direct_encounter_among_the_tied_then_count() -> None:
    entrants = [Entrant(1, 1400.0), Entrant(2, 1600.0)]
    # one win each in a double round robin: level on everything but the count
    results = [GameResult(1, 2, WIN, scores=(30, 10)), GameResult(2, 1, WIN, scores=(20, 5))]
    table = standings("round_robin", entrants, results)
    assert [s.player for s in table] == [1, 2]  # a count of 35 against 30
    assert table[0].tiebreaks == (1.0, 1.0, 1.0, 35.0)


def test_the_rating_then_the_lower_id_break_what_is_left() -> None:
    entrants = [Entrant(3, 1500.0), Entrant(2, 1500.0), Entrant(1, 1400.0)]
    assert [s.player for s in standings("swiss", entrants, [])] == [2, 3, 1]
    assert [s.rank for s in standings("swiss", entrants, [])] == [1, 2, 3]


def test_a_bye_counts_as_a_win_in_points_and_nothing_in_buchholz() -> None:
    entrants = [Entrant(1, 1500.0), Entrant(2, 1500.0), Entrant(3, 1500.0)]
    table = standings("swiss", entrants, [GameResult(1, 2, WIN)], byes={3: 1})
    by_player = {s.player: s for s in table}
    assert by_player[3].points == BYE_POINTS and by_player[3].played == 0
    assert by_player[3].tiebreaks[0] == 0.0  # no opponent, no Buchholz
    assert by_player[2].tiebreaks[0] == 1.0  # its opponent's score


def test_a_knockout_orders_by_the_stage_reached() -> None:
    entrants = [Entrant(p, 1500.0 - p) for p in (1, 2, 3, 4)]
    results = [
        GameResult(1, 4, LOSS, round=1),
        GameResult(2, 3, WIN, round=1),
        GameResult(4, 2, WIN, round=2),
    ]
    table = standings("knockout", entrants, results)
    assert [s.player for s in table] == [4, 2, 1, 3]
    assert [s.tiebreaks[0] for s in table] == [3.0, 2.0, 1.0, 1.0]


# -- the property: a plain recomputation


def reference(
    system: str, entrants: list[Entrant], results: list[GameResult], byes: dict[int, int]
) -> list[tuple[int, float, tuple[float, ...]]]:
    """Player by player, over every game, as a person would with a pencil."""
    names = TIEBREAKS[system]
    points: dict[int, float] = {}
    for e in entrants:
        total = BYE_POINTS * byes.get(e.player, 0)
        for g in results:
            if g.first == e.player:
                total += g.points[0]
            if g.second == e.player:
                total += g.points[1]
        points[e.player] = total
    rows: dict[int, dict[str, float]] = {}
    for e in entrants:
        p = e.player
        own = [(g.points[0], g.second, g.scores[0]) for g in results if g.first == p] + [
            (g.points[1], g.first, g.scores[1]) for g in results if g.second == p
        ]
        rows[p] = {
            "buchholz": sum(points[o] for _, o, _ in own),
            "sonneborn_berger": sum(s * points[o] for s, o, _ in own),
            "wins": float(sum(1 for s, _, _ in own if s == 1.0)),
            "count": float(sum(c for _, _, c in own)),
        }
    if "direct" in names:
        before = names[: names.index("direct")]
        for e in entrants:
            p = e.player
            mates = [
                q.player
                for q in entrants
                if q.player != p
                and points[q.player] == points[p]
                and all(rows[q.player][n] == rows[p][n] for n in before)
            ]
            rows[p]["direct"] = sum(
                g.points[0] if g.first == p else g.points[1]
                for g in results
                if {g.first, g.second} <= {p, *mates} and p in (g.first, g.second) and mates
            )
    order = sorted(
        entrants,
        key=lambda e: (
            -points[e.player],
            *(-rows[e.player][n] for n in names),
            -e.rating,
            e.player,
        ),
    )
    return [(e.player, points[e.player], tuple(rows[e.player][n] for n in names)) for e in order]


@st.composite
def events(draw: st.DrawFn) -> tuple[str, list[Entrant], list[GameResult], dict[int, int]]:
    system = draw(st.sampled_from(["round_robin", "swiss", "league"]))
    n = draw(st.integers(min_value=2, max_value=9))
    ratings = draw(st.lists(st.sampled_from([1400.0, 1500.0, 1600.0]), min_size=n, max_size=n))
    entrants = [Entrant(p, r) for p, r in zip(range(1, n + 1), ratings, strict=True)]
    games = draw(
        st.lists(
            st.tuples(
                st.lists(st.integers(1, n), min_size=2, max_size=2, unique=True),
                st.sampled_from([WIN, LOSS, HALF]),
                st.tuples(st.integers(0, 40), st.integers(0, 40)),
            ),
            max_size=20,
        )
    )
    results = [GameResult(a, b, pts, scores) for (a, b), pts, scores in games]
    byes = draw(st.dictionaries(st.integers(1, n), st.integers(1, 2), max_size=2))
    return system, entrants, results, byes


@settings(max_examples=150, deadline=None)
@given(events())
def test_standings_equal_a_plain_recomputation(
    event: tuple[str, list[Entrant], list[GameResult], dict[int, int]],
) -> None:
    system, entrants, results, byes = event
    table = standings(system, entrants, results, byes)
    assert [(s.player, s.points, s.tiebreaks) for s in table] == reference(
        system, entrants, results, byes
    )
    assert [s.rank for s in table] == list(range(1, len(entrants) + 1))
    played = {e.player: sum(e.player in (g.first, g.second) for g in results) for e in entrants}
    assert {s.player: s.played for s in table} == played


def test_a_knockout_tie_level_on_points_is_won_on_the_count() -> None:
    entrants = [Entrant(1, 1500.0), Entrant(2, 1400.0)]
    results = [
        GameResult(1, 2, WIN, scores=(10, 0), round=1),
        GameResult(2, 1, WIN, scores=(40, 5), round=1),
    ]
    table = standings("knockout", entrants, results)
    assert [(s.player, s.tiebreaks[0]) for s in table] == [(2, 2.0), (1, 1.0)]
