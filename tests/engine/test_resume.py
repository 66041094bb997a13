"""A game stored between two requests: ``Game.snapshot()`` and ``Game.resume`` go on
without a replay, and the encoding is written as the game goes.

Every random game of every preset is played again entry by entry, stored (through
JSON, as a server keeps it) and resumed at random points: it ends in the same
position, with the same record, log, export and encoding as the game never stored."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, Game, encode
from games.engine.position import Position
from games.engine.record import Entry, MoveEntry

from .random_records import Plan, play_random


def stored(game: Game) -> Game:
    """The game as a server would have it back: its snapshot through JSON, resumed."""
    snapshot = json.loads(json.dumps(game.snapshot()))
    return Game.resume(
        game.seed, game.rules, snapshot, stop_mode=game.stop_mode, starter=game.starter
    )


def after(replay: Iterator[tuple[int, Entry, Position]], n: int) -> Position:
    """A replay (``Game.steps``) advanced to the position after the first ``n`` entries:
    one replay for a whole game, where ``position_at`` replays from the deal each time."""
    for index, _, position in replay:
        if index == n - 1:
            return position
    raise AssertionError(f"the record has fewer than {n} entries")


@settings(max_examples=12, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(min_value=0, max_value=2**32),
    classic=st.booleans(),
    every=st.integers(min_value=1, max_value=400),
)
def test_it_resumes_anywhere_and_ends_as_the_game_never_stored(
    preset: str, seed: int, classic: bool, every: int
) -> None:
    played = play_random(Plan(seed, seed + 1, PRESETS[preset], classic=classic))
    entries = played.entries
    game = Game(
        played.seed, played.rules, stop_mode=played.stop_mode, starter=played.starter, encoding=True
    )
    rng = random.Random(seed)
    replay = played.steps()  # the game never stored, entry by entry
    i = 0
    while i < len(entries):
        written = game.act(entries[i])
        assert written[0] == entries[i] or not isinstance(entries[i], MoveEntry)
        i += len(written)
        if rng.randrange(every) == 0:
            game = stored(game)
            assert game.position == after(replay, i)
    assert game.position == played.position
    assert game.encoded() == encode(played.record)
    resumed = stored(game)
    assert resumed.entries == played.entries
    assert resumed.log() == played.log()
    assert resumed.export() == played.export()
    assert resumed.last_turn == played.last_turn
    assert resumed.current_turn == played.current_turn
    assert resumed.wrong_calls == played.wrong_calls


def test_it_plays_on_after_resuming_and_refuses_as_before() -> None:
    game = Game(7, encoding=True)
    seat = game.to_move
    game.play(seat, [str(game.legal_moves(seat)[0])])
    resumed = stored(game)
    assert resumed.to_move == game.to_move and resumed.entry_count == game.entry_count
    move = resumed.legal_moves(resumed.to_move)[0]
    resumed.play(resumed.to_move, [move])
    game.play(game.to_move, [move])
    assert resumed.encoded() == game.encoded()
    assert resumed.snapshot() == game.snapshot()


def test_it_needs_encoding_to_store_a_game() -> None:
    with pytest.raises(ValueError, match="encoding"):
        Game(7).snapshot()
