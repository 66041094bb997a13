"""The computer players (games/engine/bots.py): they never see a hidden card, play only
legal moves, and each level does what it says."""

from __future__ import annotations

import random
import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, deal, from_document, view
from games.engine.bots import (
    EASY,
    LEVELS,
    MEDIUM,
    STRONG,
    accepts_stalemate,
    choose,
    determinize,
    priority,
    stop_call,
    turn,
    unseen,
)
from games.engine.moves import TURN_MOVE
from games.engine.position import Position
from tests.engine.builders import document
from tests.engine.rules_support import houses

from .test_properties import RandomGame, random_games, sampled


def positions(game: RandomGame, every: int = 97) -> list[Position]:
    return [p.copy() for p in sampled(game, every) if not p.is_over]


@settings(max_examples=40, deadline=None)
@given(game=random_games, salt=st.integers(0, 2**32))
def test_a_determinization_shows_the_seat_the_same_view_and_keeps_every_card(
    game: RandomGame, salt: int
) -> None:
    for position in positions(game):
        for seat in range(position.rules.seats):
            world = determinize(position, seat, random.Random(salt))
            assert view(world, seat) == view(position, seat)
            assert sorted(world.cards()) == sorted(position.cards())
            assert unseen(world, seat) == unseen(position, seat)


@settings(max_examples=25, deadline=None)
@given(game=random_games, salt=st.integers(0, 2**32), level=st.sampled_from(LEVELS))
def test_the_same_view_with_the_unseen_cards_shuffled_gives_the_same_move(
    game: RandomGame, salt: int, level: str
) -> None:
    for position in positions(game, every=211):
        seat = position.to_move
        shuffled = determinize(position, seat, random.Random(salt))  # another deal, same view
        assert view(shuffled, seat) == view(position, seat)
        mine = choose(level, position, seat, random.Random(7))
        again = choose(level, shuffled, seat, random.Random(7))
        assert mine == again


@settings(max_examples=20, deadline=None)
@given(game=random_games, level=st.sampled_from(LEVELS))
def test_a_bot_plays_only_legal_moves_and_a_turn_ends(game: RandomGame, level: str) -> None:
    for position in positions(game, every=313):
        seat = position.to_move
        moves = turn(level, position, seat, random.Random(game.seed))
        copy = position.copy()
        for move in moves:
            assert move in copy.legal_moves()
            copy.push(move)
        assert copy.is_over or copy.to_move != seat


def play(levels: tuple[str, str], seed: int, preset: str = "pagat") -> Position:
    position = deal(seed, PRESETS[preset])
    rng = random.Random(seed)
    while not position.is_over:
        seat = position.to_move
        position.push(choose(levels[seat], position, seat, rng))
    return position


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bots_finish_a_game_under_every_preset(preset: str) -> None:
    seats = PRESETS[preset].seats
    levels = (MEDIUM, EASY, MEDIUM)[:seats] if seats == 3 else (MEDIUM, EASY)
    position = deal(3, PRESETS[preset])
    rng = random.Random(3)
    while not position.is_over:
        seat = position.to_move
        position.push(choose(levels[seat], position, seat, rng))
    assert position.is_over


def test_the_medium_player_beats_the_random_one_on_mirrored_deals() -> None:
    wins = 0
    for seed in range(1, 4):
        wins += play((MEDIUM, EASY), seed).winner == 0
        wins += play((EASY, MEDIUM), seed).winner == 1
    assert wins >= 5  # of 6; bench/bots.py measures it over hundreds of games


def test_the_medium_player_puts_foundations_first_and_discards_last() -> None:
    position = deal(7)
    moves = position.legal_moves()
    ranked = sorted(moves, key=lambda m: -priority(position, m))
    assert str(ranked[0]).endswith(("-F1", "-F2", "-F3", "-F4", "-F5", "-F6", "-F7", "-F8"))
    assert all(priority(position, m) >= priority(position, position.parse("T")) for m in ranked[:1])


def test_stop_calls_by_level() -> None:
    slips = [None, "S3", None]
    assert stop_call(EASY, slips, random.Random(1)) is None
    assert stop_call(STRONG, slips, random.Random(1)) == 2
    assert stop_call(STRONG, [None, None], random.Random(1)) is None
    calls = [stop_call(MEDIUM, slips, random.Random(n)) for n in range(200)]
    assert 0.6 < calls.count(2) / 200 < 0.9 and set(calls) == {2, None}


def test_a_stalemate_is_accepted_when_the_count_does_not_lose() -> None:
    position = deal(5)
    a, b = position.seats
    assert accepts_stalemate(position, 0) == (a.count <= b.count)
    b.hand.extend(a.hand[:5])
    del a.hand[:5]
    assert accepts_stalemate(position, 0) and not accepts_stalemate(position, 1)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="no bot level"):
        choose("grandmaster", deal(1), 0, random.Random(1))


def keyless_shuffled_waste_table() -> dict[str, object]:
    """V13 with no reshuffle key (a hand-made table): A's hand is used up, so its next
    ``T`` shuffles the waste into a new hand; its reserve 9C may go on the 10D first."""
    return document(
        rules={"preset": "pagat", "shuffle_waste": True},
        H=houses(H3="TD"),
        A={"reserve": "3S 9C", "waste": "AS 2H 3D 4C 5S 6H 7D 8C 9S TH JD QC QS AH 2D 3C"},
        B={"reserve": "6H", "hand": "4C 5D"},
    )


@pytest.mark.parametrize("level", LEVELS)
def test_V13_a_keyless_shuffled_waste_never_reaches_the_operating_system(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """V13: a bot's decisions are a function of its view and its generator, even on a
    table whose reshuffle key is missing: its play-outs and the turn it plays out shuffle
    from the generator, never from ``secrets``."""
    table = from_document(keyless_shuffled_waste_table())
    assert table.reshuffle_key is None
    monkeypatch.setattr(secrets, "token_hex", _no_secrets)
    first = turn(level, table, 0, random.Random(11))
    assert first[0] == table.parse("R-H3") or TURN_MOVE in first
    assert turn(level, table, 0, random.Random(11)) == first
    assert choose(level, table, 0, random.Random(11)) == choose(level, table, 0, random.Random(11))
    assert table.reshuffle_key is None  # the table itself is left as it was


def _no_secrets(nbytes: int | None = None) -> str:
    raise AssertionError("a bot drew from the operating system")
