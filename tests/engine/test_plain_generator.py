"""The plain generator (``Generator.plain_legal_moves``, ``Position.plain_push``) of the
classes no option changes lists the same moves in the same order as the generic
generator, at every step of random games, and keeps its view of the houses right from
move to move: the generic generator, asked on a copy, is the referee."""

from __future__ import annotations

import random

import pytest

from games.engine import PLAYING, PRESETS, Position, Rules, deal
from games.engine.cards import FACE_MASK
from games.engine.families import position_class
from games.engine.generate import Generator

PLAIN = ("pagat", "one-pack")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_plain_generator_is_used_exactly_where_no_option_is(preset: str) -> None:
    cls = position_class(PRESETS[preset])
    plain = cls.legal_moves is Generator.plain_legal_moves
    assert plain == (preset in PLAIN)
    assert (cls._masks is not None) == plain
    assert (cls.push is Position.plain_push) == plain


@pytest.mark.parametrize("preset", PLAIN)
@pytest.mark.parametrize("seed", range(4))
def test_the_plain_generator_lists_what_the_generic_one_does(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    position = deal(rng.getrandbits(64), PRESETS[preset])
    steps = 0
    while not position.is_over:
        moves = position.legal_moves()
        other = position.copy()  # no kept view of the houses: made afresh
        assert Generator.legal_moves(other) == moves
        assert other.legal_moves() == moves
        assert other.foundation_moves() == position.foundation_moves()
        assert other._p1 == position._p1
        position.push(rng.choice(moves))
        steps += 1
    assert steps > 100


def test_the_plain_generator_stops_at_the_cap() -> None:
    """R7.6: past the cap the generic generator decides (the reserve filling spaces)."""
    rules = Rules(max_turn_moves=3)
    rng = random.Random(7)
    position = deal(11, rules)
    assert position._masks is not None
    for _ in range(2000):
        if position.is_over:
            break
        moves = position.legal_moves()
        assert Generator.legal_moves(position.copy()) == moves
        position.push(rng.choice(moves))


@pytest.mark.parametrize("preset", PLAIN)
def test_the_loads_kept_by_the_opponents_tops_are_those_made_afresh(preset: str) -> None:
    """R5.4 by the opponent's reserve and waste tops (``_load_cache``): each kept entry is
    what the position's own tops make, and a game meets far fewer pairs than the bound."""
    rng = random.Random(7)
    position = deal(rng.getrandbits(64), PRESETS[preset])
    cls = type(position)
    masks = cls._masks
    assert masks is not None
    while not position.is_over:
        moves = position.legal_moves()
        opp = position.seats[1 - position.to_move]
        key = tuple(pile[-1] & FACE_MASK if pile else 0 for pile in (opp.reserve, opp.waste))
        if position.status == PLAYING and key in cls._load_cache:
            assert cls._load_cache[key] == position._plain_loads(masks, position.to_move)
        position.push(rng.choice(moves))
    assert 0 < len(cls._load_cache) <= 64 * 64


def test_three_seats_keep_the_generic_generator() -> None:
    """A plain class has two seats: a third one's twelve houses are past a mask table."""
    assert position_class(Rules(seats=3))._masks is None
