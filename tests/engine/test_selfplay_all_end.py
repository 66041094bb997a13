"""Random self-play games all end, and end the way RULES.md §8 says.

Every game's seed (the deal seed, and the seed of the random move picker) is its
number, so a failure names a game anyone can replay. The default suite plays a fixed
sample of 250 games spread over the numbers 0-9,999; ``make selfplay`` (marker
``long``) plays all 10,000, in 20 chunks of 500 that ``pytest -n auto`` runs in
parallel (a random game takes about 30 ms).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from games.engine import STALEMATE, WON, Position, deal
from games.engine.selfplay import play_random_game
from tests.engine.builders import dealt_cards

CHUNKS = 20
GAMES_PER_CHUNK = 500


@dataclass
class Game:
    seed: int
    first: int  # the seat that started (R3)
    steps: int
    position: Position


def play(seed: int) -> Game:
    position = deal(seed)
    first = position.to_move
    steps = play_random_game(position, random.Random(seed))
    return Game(seed, first, steps, position)


def check_the_end(game: Game) -> None:
    """Status, winner and score agree with each other and with R8."""
    p = game.position
    rules = p.rules
    where = f"game {game.seed}"
    assert p.status in (WON, STALEMATE), where
    assert p.score is not None and len(p.score) == rules.seats, where
    assert all(isinstance(s, int) and s >= 0 for s in p.score), where
    assert 0 <= p.turns <= rules.max_turns, where
    assert p.legal_moves() == [], where
    assert sorted(p.cards()) == dealt_cards(rules), where
    counts = [seat.count for seat in p.seats]
    if p.status == WON:
        # R8.1: the winner has no cards left; R8.2: 30 + the losers' counts, losers 0
        # (G3: both losers' counts, the bonus once).
        assert p.winner is not None and 0 <= p.winner < rules.seats, where
        losers = [s for s in range(rules.seats) if s != p.winner]
        assert p.ending == "cards", where
        assert not p.seats[p.winner].has_cards, where
        assert all(p.seats[s].has_cards for s in losers), where
        assert p.score[p.winner] == rules.win_bonus + sum(counts[s] for s in losers), where
        assert all(p.score[s] == 0 for s in losers), where
    else:
        # R8.3/R8.4: no winner; the lower count scores the difference, no bonus.
        assert p.winner is None, where
        assert p.ending in ("stalemate", "turn_limit"), where
        if p.ending == "turn_limit":
            assert p.turns == rules.max_turns, where
        if rules.stalemate_scores_nothing:  # V14: a draw, whatever the counts
            assert p.score == [0] * rules.seats, where
            return
        # G3: the single lowest count scores its differences to both others.
        low = min(counts)
        lowest = [s for s, c in enumerate(counts) if c == low]
        expected = [0] * rules.seats
        if len(lowest) == 1:
            expected[lowest[0]] = sum(c - low for c in counts)
        assert p.score == expected, where


#: The default suite's games: every 40th of the long run's, the same each run.
SAMPLE = range(0, CHUNKS * GAMES_PER_CHUNK, 40)


def test_a_fixed_sample_of_random_games_all_end() -> None:
    play_and_check(SAMPLE)


@pytest.mark.long
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_all_end(chunk: int) -> None:
    play_and_check(range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK))


def play_and_check(seeds: range) -> None:
    """Each game ends as R8 says, and the games together look like random play."""
    results: Counter[str] = Counter()
    starters: Counter[int] = Counter()
    turns: list[int] = []
    steps: list[int] = []
    for seed in seeds:
        game = play(seed)
        check_the_end(game)
        p = game.position
        results["stalemate" if p.winner is None else p.seat_name(p.winner)] += 1
        starters[game.first] += 1
        turns.append(p.turns)
        steps.append(game.steps)

    # Figures of the standard game under uniform random play (measured: each seat
    # wins 44-56% of 500 games, about 1 game in 5,000 is a stalemate, games last
    # 74 turns and 1,700 moves on average). The bounds are many deviations wide, for
    # 250 games as for 500.
    n = len(seeds)
    assert sum(results.values()) == n
    assert results["A"] >= 0.3 * n and results["B"] >= 0.3 * n, results
    assert results["stalemate"] <= 0.05 * n, results
    assert starters[0] >= 0.3 * n and starters[1] >= 0.3 * n, starters  # R3 favours no seat
    assert max(turns) <= 2000
    assert 40 <= sum(turns) / n <= 150, sum(turns) / n
    assert 1000 <= sum(steps) / n <= 3000, sum(steps) / n
