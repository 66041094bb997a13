"""The review of a finished game: what each turn missed, and what the strong player
would have played from the same view (docs/review.md).

The record is replayed. Each turn is cut into *decisions*: a decision begins at the
turn's first move and again after every move that turned up a card the seat could
not see (a hand card turned, a reserve or waste card uncovered, a face-down house
card): up to there the seat played from one view. For each decision:

- the compulsory moves missed (classic games: the priority slips, each with the moves
  the rules in force required instead, as ``stop.compulsory_moves`` lists them; a
  referee refuses slips, so a referee game has none);
- the strong player's line from the same view: its turn played on a determinization
  of the decision's position (``bots.determinize``: the unseen cards dealt again from
  a generator keyed by the record index), up to and including the first move that
  would turn up an unseen card, since what follows depends on that card;
- both lines scored by the count difference they are expected to leave: on
  ``SAMPLES`` determinizations, the line, then the medium player until three turns
  from the decision's start have ended, with the same random choices for both lines;
  ``loss`` is how much better the strong line scores (0 when the played one scores
  as well or better).

Nothing reads a card the seat could not see: every decision starts from a
determinization, so two positions with the same view give the same review of that
decision (the twin-positions test). A Stop! chance missed (classic games) is public:
the turn before held a slip, and the next seat moved without calling.

CPU is bounded: ``GAME_STEPS`` play-out steps of the strong search for the whole game,
shared among its decisions (``DECISION_STEPS`` at most each), and ``SAMPLES`` play-outs
of at most ``bots.PLAYOUT_STEPS`` steps for each line scored.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .bots import (
    PLAYOUT_STEPS,
    PLAYOUT_TURNS,
    STRONG,
    determinize,
    hidden_counts,
    medium_move,
    turn,
)
from .errors import GameError, IllegalMove
from .game import Game
from .moves import TURN, TURN_STOCK, Move
from .position import Position
from .record import MoveEntry
from .stop import compulsory_moves

FORMAT: Final = "rbank-review/1"
#: Most strong-search play-out steps for one decision (a strong turn in play has
#: ``bots.TURN_STEPS``, 120,000).
DECISION_STEPS: Final = 12_000
#: Most strong-search play-out steps for a whole game, shared among its decisions.
GAME_STEPS: Final = 2_000_000
#: Determinizations each line is scored on.
SAMPLES: Final = 8
#: A decision that loses this much count (expected) is marked as a big loss.
BIG_LOSS: Final = 3.0
#: The loss (in count) that halves a decision's accuracy: 100 for no loss, 50 for 4.
HALF_LOSS: Final = 4.0

#: The marks a turn may carry.
COMPULSORY: Final = "compulsory"
STOP: Final = "stop"
LOSS: Final = "loss"


@dataclass(frozen=True, slots=True)
class Missed:
    """A priority slip: the move at record ``index`` broke ``violation`` while
    ``compulsory`` were required."""

    index: int
    move: Move
    violation: str
    compulsory: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class MissedStop:
    """A Stop! chance let pass: move ``number`` of the turn before broke ``violation``."""

    number: int
    violation: str


@dataclass(frozen=True, slots=True)
class Decision:
    """The moves played from one view (from record ``index``) against the strong
    player's line, each with the count difference it is expected to leave."""

    index: int
    played: tuple[Move, ...]
    better: tuple[Move, ...]
    played_score: float
    better_score: float

    @property
    def loss(self) -> float:
        return max(0.0, self.better_score - self.played_score)


@dataclass(slots=True)
class TurnReview:
    """One turn: its number (0-based), seat, first record index and what was found."""

    turn: int
    seat: int
    index: int
    moves: list[Move] = field(default_factory=list)
    missed: list[Missed] = field(default_factory=list)
    missed_stop: MissedStop | None = None
    decisions: list[Decision] = field(default_factory=list)

    @property
    def loss(self) -> float:
        return sum(decision.loss for decision in self.decisions)

    @property
    def marks(self) -> list[str]:
        marks = [COMPULSORY] if self.missed else []
        if self.missed_stop is not None:
            marks.append(STOP)
        if any(decision.loss >= BIG_LOSS for decision in self.decisions):
            marks.append(LOSS)
        return marks


@dataclass(slots=True)
class _Pending:
    """A decision found by the replay, to be judged: where it starts and what was played."""

    turn: TurnReview
    index: int
    start: Position
    played: list[Move]


@dataclass(frozen=True, slots=True)
class Review:
    """The review of a finished game (``review``)."""

    seats: tuple[str, ...]
    turns: tuple[TurnReview, ...]
    decision_steps: int
    samples: int

    def accuracy(self, seat: int) -> float | None:
        """100 times the mean over ``seat``'s decisions of 2^(-loss / HALF_LOSS), or None
        when it made none."""
        figures = [
            accuracy_of(decision.loss)
            for turn_review in self.turns
            if turn_review.seat == seat
            for decision in turn_review.decisions
        ]
        return round(sum(figures) / len(figures), 1) if figures else None

    def to_document(self) -> dict[str, Any]:
        """The review as JSON-ready data, seats by letter, moves in the notation."""
        letters = self.seats

        def moves(line: Sequence[Move]) -> list[str]:
            return [str(move) for move in line]

        turns = []
        for t in self.turns:
            turns.append(
                {
                    "turn": t.turn + 1,
                    "seat": letters[t.seat],
                    "index": t.index,
                    "moves": moves(t.moves),
                    "marks": t.marks,
                    "loss": round(t.loss, 2),
                    "missed_compulsory": [
                        {
                            "index": m.index,
                            "move": str(m.move),
                            "violation": m.violation,
                            "compulsory": moves(m.compulsory),
                        }
                        for m in t.missed
                    ],
                    "missed_stop": None if t.missed_stop is None else _stop_document(t.missed_stop),
                    "decisions": [
                        {
                            "index": d.index,
                            "played": moves(d.played),
                            "better": moves(d.better),
                            "played_score": round(d.played_score, 2),
                            "better_score": round(d.better_score, 2),
                            "loss": round(d.loss, 2),
                        }
                        for d in t.decisions
                    ],
                }
            )
        players = {}
        for seat, letter in enumerate(letters):
            mine = [t for t in self.turns if t.seat == seat]
            players[letter] = {
                "accuracy": self.accuracy(seat),
                "decisions": sum(len(t.decisions) for t in mine),
                "loss": round(sum(t.loss for t in mine), 2),
                "missed_compulsory": sum(len(t.missed) for t in mine),
                "missed_stops": sum(t.missed_stop is not None for t in mine),
            }
        return {
            "format": FORMAT,
            "budget": {"decision_steps": self.decision_steps, "samples": self.samples},
            "players": players,
            "turns": turns,
        }


def _stop_document(missed: MissedStop) -> dict[str, Any]:
    return {"move_number": missed.number, "violation": missed.violation}


def accuracy_of(loss: float) -> float:
    """One decision's accuracy: 100 for no loss, halved every ``HALF_LOSS`` of count."""
    return 100.0 * math.pow(2.0, -loss / HALF_LOSS)


# ------------------------------------------------------------------ the replay


def review(
    game: Game,
    *,
    decision_steps: int = DECISION_STEPS,
    game_steps: int = GAME_STEPS,
    samples: int = SAMPLES,
) -> Review:
    """The review of ``game``, which must be over (``GAME_NOT_OVER`` otherwise). Each
    decision gets ``decision_steps`` of the strong search, fewer when the game's
    decisions would spend more than ``game_steps`` together."""
    if not game.is_over:
        raise GameError("GAME_NOT_OVER")
    turns, pending = _replay(game)
    steps = min(decision_steps, game_steps // len(pending)) if pending else 0
    for found in pending:
        found.turn.decisions.append(
            judge(found.start, found.played, found.index, steps=steps, samples=samples)
        )
    return Review(tuple(game.rules.seat_names), tuple(turns), steps, samples)


def _replay(game: Game) -> tuple[list[TurnReview], list[_Pending]]:
    """The game's turns with their slips and Stop! chances missed, and its decisions."""
    record = game.record
    again = Game(
        record.seed,
        record.rules,
        stop_mode=record.stop_mode,
        starter=record.starter,
        setup=record.setup,
    )
    turns: list[TurnReview] = []
    pending: list[_Pending] = []
    revealed = True  # the next move starts a decision
    for index, entry in enumerate(record.entries):
        if not isinstance(entry, MoveEntry):
            again.act(entry)
            revealed = True
            continue
        seat, move = entry.seat, entry.move
        before = again.position
        missed_stop = _missed_stop(again, record.entries, seat)
        hidden = hidden_counts(before, seat)
        start = before.copy()
        again.act(entry)
        number = again.turn_of(index)
        if not turns or turns[-1].turn != number:
            turns.append(TurnReview(number, seat, index, missed_stop=missed_stop))
            revealed = True
        current = turns[-1]
        current.moves.append(move)
        if entry.violation is not None:
            compulsory = compulsory_moves(start, entry.violation, move)
            current.missed.append(Missed(index, move, entry.violation, tuple(compulsory)))
        if revealed:
            pending.append(_Pending(current, index, start, []))
        pending[-1].played.append(move)
        revealed = turns_up(move, hidden, again.position, seat)
    return turns, pending


def _missed_stop(game: Game, entries: Sequence[object], seat: int) -> MissedStop | None:
    """The slip of the turn before that ``seat`` could call Stop! on and, by moving,
    lets pass (classic games, R7.4), or None."""
    if not game.classic or not game.can_call_stop(seat):
        return None
    last = game.last_turn
    assert last is not None  # a call is possible, so a turn came before
    for number, index in enumerate(last.indexes, 1):
        entry = entries[index]
        if isinstance(entry, MoveEntry) and entry.violation is not None:
            return MissedStop(number, entry.violation)
    return None


def turns_up(move: Move, hidden_before: list[int], after: Position, seat: int) -> bool:
    """Whether ``move`` showed ``seat`` a card it could not see before: a card turned
    from a hand or a stock (whose order a reshuffle may also have hidden), or a pile's
    unseen cards fewer by one."""
    if move.kind in (TURN, TURN_STOCK):
        return True
    return any(
        now < then for now, then in zip(hidden_counts(after, seat), hidden_before, strict=True)
    )


# ------------------------------------------------------------ judging a decision


def judge(
    start: Position,
    played: Sequence[Move],
    index: int,
    *,
    steps: int = DECISION_STEPS,
    samples: int = SAMPLES,
) -> Decision:
    """The moves ``played`` from ``start`` (the seat to move's, up to the first card
    turned up) against the strong player's line from the same view, each scored by
    the count difference it is expected to leave. A function of the seat's view of
    ``start``, ``played`` and ``index`` only."""
    seat = start.to_move
    rng = random.Random(f"review:{index}")
    better = strong_line(determinize(start, seat, rng), seat, rng, steps)
    played_score, better_score = scores(start, seat, [played, better], rng, samples)
    return Decision(index, tuple(played), tuple(better), played_score, better_score)


def strong_line(world: Position, seat: int, rng: random.Random, steps: int) -> list[Move]:
    """The strong player's turn on ``world`` up to and including its first move that
    turns up a card ``seat`` could not see."""
    line = []
    position = world.copy()
    for move in turn(STRONG, world, seat, rng, steps):
        hidden = hidden_counts(position, seat)
        position.push(move)
        line.append(move)
        if turns_up(move, hidden, position, seat):
            break
    return line


def scores(
    start: Position,
    seat: int,
    lines: Sequence[Sequence[Move]],
    rng: random.Random,
    samples: int,
) -> list[float]:
    """Each line's expected count difference for ``seat`` (the others' mean count less
    its own, R8.2) once ``PLAYOUT_TURNS`` turns from ``start`` have ended: over
    ``samples`` determinizations, the line, then the medium player, with the same
    world and the same random choices for every line."""
    totals = [0.0] * len(lines)
    for _ in range(samples):
        world = determinize(start, seat, rng)
        luck = rng.getrandbits(32)
        for n, line in enumerate(lines):
            after = world.copy()
            for move in line:
                try:
                    after.push(move, classic=True)  # a slip is what was played
                except IllegalMove:
                    break  # cannot happen before a card turns up: kept safe all the same
                if after.is_over:
                    break
            totals[n] += count_difference(_play_on(after, start.turns, luck), seat)
    return [total / samples for total in totals]


def _play_on(position: Position, start_turns: int, luck: int) -> Position:
    """The medium player plays on until ``PLAYOUT_TURNS`` turns from ``start_turns``
    have ended, or the game does (at most ``bots.PLAYOUT_STEPS`` moves)."""
    rng = random.Random(luck)
    for _ in range(PLAYOUT_STEPS):
        if position.is_over or position.turns - start_turns >= PLAYOUT_TURNS:
            break
        position.push(medium_move(position, rng))
    return position


def count_difference(position: Position, seat: int) -> float:
    """The others' mean count less ``seat``'s (R8.2: 2 a reserve card, 1 a hand or
    waste card): the more the better for ``seat``."""
    mine = position.seats[seat].count
    others = [piles.count for n, piles in enumerate(position.seats) if n != seat]
    return sum(others) / len(others) - mine


# ------------------------------------------------------------------ in the export

#: The writer a review's comments name in an export, where the players' seats stand.
REVIEWER: Final = "review"


def export_comments(document: dict[str, Any]) -> list[tuple[int, str, str]]:
    """A review document's notes as the export's comments (``Game.export``): one after
    each turn it marks, (record length, ``REVIEWER``, words), and the accuracies last."""
    notes: list[tuple[int, str, str]] = []
    last = 0
    for row in document["turns"]:
        end = row["index"] + len(row["moves"])
        last = max(last, end)
        said = [
            f"{m['move']} broke {m['violation']}, required {' or '.join(m['compulsory'])}"
            if m["compulsory"]
            else f"{m['move']} broke {m['violation']}"
            for m in row["missed_compulsory"]
        ]
        stop = row["missed_stop"]
        if stop is not None:
            said.append(f"Stop! not called on move {stop['move_number']} ({stop['violation']})")
        said += [
            f"better {' '.join(d['better'])} than {' '.join(d['played'])} ({d['loss']:.2f} lost)"
            for d in row["decisions"]
            if d["loss"] >= BIG_LOSS
        ]
        if said:
            notes.append((end, REVIEWER, f"{row['seat']}: " + "; ".join(said)))
    figures = [
        f"{letter} " + ("-" if player["accuracy"] is None else f"{player['accuracy']}%")
        for letter, player in document["players"].items()
    ]
    notes.append((last + 1, REVIEWER, "accuracy " + ", ".join(figures)))
    return notes
