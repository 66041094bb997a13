"""Pile names beyond one move (``games.engine.piles``): the largest layout a move may
name, how a seat names every seat's piles (docs/notation.md, Piles), the piles a turn
touched; and what a finished game reveals (``revealed_view``)."""

from __future__ import annotations

import pytest

from games.engine import (
    LARGEST_LAYOUT,
    PRESETS,
    Game,
    Layout,
    moved_piles,
    parse_move,
    reads_as_move,
    revealed_view,
    seat_pile_names,
    view,
)
from games.engine.encoder import all_moves


def test_the_largest_layout_is_the_presets_largest() -> None:
    assert Layout(seats=3, foundations=8, houses=9) == LARGEST_LAYOUT
    for rules in PRESETS.values():
        layout = Layout.of(rules)
        assert layout.seats <= LARGEST_LAYOUT.seats
        assert layout.foundations <= LARGEST_LAYOUT.foundations
        assert layout.houses <= LARGEST_LAYOUT.houses


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_move_of_every_preset_reads_as_a_move(name: str) -> None:
    rules = PRESETS[name]
    assert all(reads_as_move(str(move)) for move in all_moves(rules))
    assert all(reads_as_move(str(move), Layout.of(rules)) for move in all_moves(rules))


@pytest.mark.parametrize("text", ["H10-F1", "F9-H1", "OR3-H1", "RD-H1", "X", "H1", "resign"])
def test_what_no_preset_names_is_no_move(text: str) -> None:
    assert not reads_as_move(text)


def test_a_smaller_layout_reads_fewer_moves() -> None:
    two = Layout.of(PRESETS["pagat"])
    assert reads_as_move("OR2-H1") and not reads_as_move("OR2-H1", two)
    assert reads_as_move("H9-F1") and not reads_as_move("H9-F1", two)


def test_pile_names_for_two_seats() -> None:
    assert seat_pile_names(0, 2) == {"RA": "R", "WA": "W", "CA": "C", "RB": "OR", "WB": "OW"}
    assert seat_pile_names(1, 2) == {"RB": "R", "WB": "W", "CB": "C", "RA": "OR", "WA": "OW"}


def test_pile_names_for_three_seats_count_the_distance_in_turn_order() -> None:
    names = seat_pile_names(1, 3)  # B: C is next, A after next
    assert names == {
        "RB": "R",
        "WB": "W",
        "CB": "C",
        "RC": "OR",
        "WC": "OW",
        "RA": "OR2",
        "WA": "OW2",
    }


@pytest.mark.parametrize("seats", [2, 3])
def test_a_relative_name_reads_as_the_pile_it_names(seats: int) -> None:
    """The names agree with the notation's reader, which takes both forms."""
    for seat in range(seats):
        for table, relative in seat_pile_names(seat, seats).items():
            if table.startswith("C"):
                continue  # the turned card has no absolute name in a move
            as_table = parse_move(f"H1-{table}", seat, seats=seats)
            assert parse_move(f"H1-{relative}", seat, seats=seats) == as_table


def test_moved_piles_name_each_pile_by_its_seat() -> None:
    three = Layout.of(PRESETS["three-player"])
    # B moves: OR is C's reserve, OR2 A's; T takes from B's hand to B's turned card.
    assert moved_piles(["T", "OR2-H1", "C-W", "R-F3", "H2-OW", "TR", "E"], 1, three) == {
        "HANDB",
        "CB",
        "RA",
        "H1",
        "WB",
        "RB",
        "F3",
        "H2",
        "WC",
    }
    two = Layout.of(PRESETS["pagat"])
    assert moved_piles(["H5-OR"], 1, two) == {"H5", "RA"}
    assert moved_piles(["resigns", "stop 2 S3 H2-F1"], 0, two) == set()  # events
    game = Game(1)
    played = [game.position.parse("T"), game.position.parse("C-W")]
    assert moved_piles(played, game.to_move, two) == moved_piles(["T", "C-W"], game.to_move, two)


def test_a_revealed_view_names_every_card_a_view_hides() -> None:
    game = Game(1, PRESETS["pagat-face-down"])
    game.resign(game.to_move)
    seen, revealed = view(game.position), revealed_view(game.position)
    for letter, seat in zip("AB", game.position.seats, strict=True):
        assert "cards" not in seen[letter]["hand"]
        assert len(revealed[letter]["hand"]["cards"]) == len(seat.hand)
        assert len(revealed[letter]["reserve"]["cards"]) == seen[letter]["reserve"]["count"]
    assert [len(pile) for pile in revealed["houses_down_cards"]] == seen["houses_down"]
    assert "houses_down_cards" not in seen
