"""Computer players at three strengths, which see only what their seat sees.

Every decision is made on a *determinization* of the position: a copy in which every
card the seat cannot see (hands, reserves under their top card, the other seats'
wastes under their top card, face-down house cards) is dealt again at random from
those same unseen cards, and V13's secret reshuffle key is replaced. The unseen
cards are sorted before they are shuffled, so the copy, and so the decision, is a
function of the seat's view and the bot's own random generator only: the real
places of the hidden cards never reach it. (Which pack a card comes from is read
from its back, which lies face up on a real table too.)

- ``easy``: uniformly random among the legal moves: it learns the rules with you.
- ``medium``: a priority player: foundation moves first, then what empties its
  reserve, loads that burden an opponent, the turned card, spaces made to be filled
  from the reserve; it turns a card only when nothing better is left.
- ``strong``: a search player (determinized Monte-Carlo): each legal move is tried on
  several determinizations, and the rest of the turn, the next seat's turn after
  it and the turn after that are played out by the medium policy; the move whose
  play-outs leave the best count difference wins.

``choose(level, position, seat, rng)`` returns the move; ``stop_call`` and
``accepts_stalemate`` decide the other questions a game asks a player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .cards import Card
from .moves import (
    CARD,
    END,
    FOUNDATION,
    HOUSE,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    TURN,
    TURN_STOCK,
    TURNED,
    WASTE,
    Move,
)
from .position import Position

EASY: Final = "easy"
MEDIUM: Final = "medium"
STRONG: Final = "strong"
LEVELS: Final = (EASY, MEDIUM, STRONG)

#: Most steps a play-out takes before it is cut short (a turn rarely holds 60).
PLAYOUT_STEPS: Final = 400
#: Most moves a bot's turn may hold: the rules end a turn long before (R7.6's cap).
TURN_MOVES: Final = 5_000


def _hidden_piles(position: Position, seat: int) -> list[tuple[list[Card], int]]:
    """Each pile that holds unseen cards, with how many of its cards (from the bottom)
    ``seat`` cannot see, in a fixed order."""
    piles: list[tuple[list[Card], int]] = []
    for index, piles_of in enumerate(position.seats):
        piles.append((piles_of.reserve_down, len(piles_of.reserve_down)))
        piles.append((piles_of.reserve, max(0, len(piles_of.reserve) - 1)))
        piles.append((piles_of.hand, len(piles_of.hand)))
        if index != seat:
            piles.append((piles_of.waste, max(0, len(piles_of.waste) - 1)))
    piles.extend((pile, len(pile)) for pile in position.houses_down)
    return piles


def hidden_counts(position: Position, seat: int) -> list[int]:
    """How many cards ``seat`` cannot see in each pile that may hold some, in a fixed
    order: a count that drops is a card turned up (``games.engine.review``)."""
    return [hidden for _, hidden in _hidden_piles(position, seat)]


def unseen(position: Position, seat: int) -> list[Card]:
    """The cards ``seat`` cannot see, sorted: the same list for every position that
    shows ``seat`` the same view."""
    return sorted(card for pile, hidden in _hidden_piles(position, seat) for card in pile[:hidden])


def determinize(position: Position, seat: int, rng: random.Random) -> Position:
    """A copy of ``position`` with the cards ``seat`` cannot see dealt again at random."""
    copy = position.copy()
    cards = unseen(copy, seat)
    rng.shuffle(cards)
    at = 0
    for pile, hidden in _hidden_piles(copy, seat):
        pile[:hidden] = cards[at : at + hidden]
        at += hidden
    if copy.rules.shuffle_waste:  # V13: the order of future hands is secret too
        _new_key(copy, rng)
    return copy


def _new_key(position: Position, rng: random.Random) -> None:
    """V13: key ``position``'s reshuffles from ``rng``. Also where the table has no key
    yet (a hand-made one), which would otherwise draw it from the operating system at
    the first reshuffle: what a bot plays depends on its view and ``rng`` only."""
    position.reshuffle_key = f"{rng.getrandbits(64):016x}"


# ---------------------------------------------------------------- the medium policy


def _moves_card_to_space(position: Position, move: Move) -> bool:
    return move.dst == HOUSE and not position.houses[move.di]


#: The medium player's wish for each action that is not a card move.
_ACTIONS: Final = {TURN_STOCK: 45, TURN: 40, END: 5}
#: ... for a card played to a foundation, and for a card loaded on an opponent's pile,
#: by its source.
_TO_FOUNDATION: Final = {RESERVE: 100, OPP_RESERVE: 99, OPP_WASTE: 98, WASTE: 96, TURNED: 94}
_LOADING: Final = {RESERVE: 88, TURNED: 76, WASTE: 74}


def priority(position: Position, move: Move) -> int:
    """How much the medium player wants ``move`` (higher first)."""
    if move.kind != CARD:
        return _ACTIONS.get(move.kind, 0)
    src, dst = move.src, move.dst
    if dst == FOUNDATION:
        return _TO_FOUNDATION.get(src, 90)
    if dst in (OPP_RESERVE, OPP_WASTE):  # loading: a card of ours on an opponent's pile
        return _LOADING.get(src, 55)
    if dst == WASTE:
        return 10  # the discard, which ends the turn: the last resort
    if src == RESERVE:
        return 80 if not _moves_card_to_space(position, move) else 78
    if src in (TURNED, WASTE, OPP_RESERVE, OPP_WASTE):
        return 70 if not _moves_card_to_space(position, move) else 50
    if src == HOUSE:
        # Between houses: only to make a space the reserve can fill (no shuffling).
        houses = position.houses
        emptied = len(houses[move.si]) == 1 and bool(houses[move.di])
        return 60 if emptied and position.seats[position.to_move].reserve else 0
    return 0


def medium_move(position: Position, rng: random.Random) -> Move:
    legal = position.legal_moves()
    wishes = [priority(position, move) for move in legal]
    best = max(wishes)
    return rng.choice([move for move, wish in zip(legal, wishes, strict=True) if wish == best])


def easy_move(position: Position, rng: random.Random) -> Move:
    return rng.choice(position.legal_moves())


# ----------------------------------------------------------------- the strong search


def evaluate(position: Position, seat: int) -> float:
    """``seat``'s standing: the others' counts less its own (R8.2's count: 2 for a
    reserve card, 1 for a hand or waste card), a won game above everything."""
    if position.is_over:
        if position.winner == seat:
            return 1000.0
        if position.winner is not None:
            return -1000.0
    mine = position.seats[seat].count
    others = [piles.count for index, piles in enumerate(position.seats) if index != seat]
    return sum(others) / len(others) - mine + 0.25 * _spaces_for(position, seat)


def _spaces_for(position: Position, seat: int) -> int:
    """Empty houses, good for the seat to move only: the score of leaving them."""
    spaces = sum(1 for pile in position.houses if not pile)
    return spaces if position.to_move == seat else -spaces


#: Determinizations the strong player tries each move on.
SAMPLES: Final = 12
#: Play-out steps the strong player may spend on a whole turn: about a second of one
#: core at most (bench/bots.py prints the time per turn), inside the 2 s budget. A
#: count of steps, not a clock, so that the same view always gives the same play.
#: 80,000 before the plain generator made a step cheaper (README, Speed); the heaviest
#: turns of three-turn play-outs still cost fewer instructions than before (README, the
#: bots).
TURN_STEPS: Final = 120_000


class Work:
    """The play-out steps left to the strong player for the rest of its turn, and the
    turn's last move."""

    def __init__(self, steps: int = TURN_STEPS) -> None:
        self.left = steps
        self.last: Move | None = None


#: Turns a play-out plays: the rest of the strong player's, the next seat's, and the one
#: after (its own again, with two seats). Two until the engine's plain generator paid
#: for the third: 77.75% against medium over 400 mirrored games, where two won 65.0% (of 200)
#: (README, "The event stream and bots").
PLAYOUT_TURNS: Final = 3


def playout(
    position: Position, seat: int, rng: random.Random, work: Work, turns: int = PLAYOUT_TURNS
) -> Position:
    """Play ``position`` on with the medium policy until ``turns`` turns have ended
    (the rest of ``seat``'s, then the next seats'), or the game does."""
    start = position.turns
    for _ in range(PLAYOUT_STEPS):
        if position.is_over or position.turns - start >= turns:
            break
        position.push(medium_move(position, rng))
        work.left -= 1
    return position


def strong_move(
    position: Position, seat: int, rng: random.Random, work: Work | None = None
) -> Move:
    """The legal move whose play-outs, over up to ``SAMPLES`` determinizations, leave
    ``seat`` best placed. It plays the medium player's move unless the search finds one
    clearly better (by ``MARGIN`` a sample), so that it never shuffles cards to and fro
    on the noise of its play-outs; and it never moves a card straight back. Once the
    turn's steps are spent it plays as the medium player."""
    work = work or Work()
    legal = [move for move in position.legal_moves() if not _undoes(work.last, move)]
    legal = legal or position.legal_moves()
    baseline = max(legal, key=lambda move: priority(position, move))
    if len(legal) == 1 or work.left <= 0:
        return baseline
    totals = dict.fromkeys(legal, 0.0)
    samples = 0
    for _ in range(SAMPLES):
        world = determinize(position, seat, rng)
        # Every move of a sample is played out with the same random choices (common
        # random numbers): the moves are compared, not the luck of their play-outs.
        luck = rng.getrandbits(32)
        for move in legal:  # the same moves in the world: they read only seen cards
            after = world.copy()
            after.push(move)
            totals[move] += evaluate(playout(after, seat, random.Random(luck), work), seat)
        samples += 1
        if work.left <= 0:
            break
    best = max(legal, key=lambda move: (totals[move], priority(position, move)))
    return best if totals[best] - totals[baseline] > MARGIN * samples else baseline


#: How much better (in count, per sample) the searched move must look than the medium
#: player's choice to be played instead.
MARGIN: Final = 0.25


def _undoes(last: Move | None, move: Move) -> bool:
    """Whether ``move`` carries straight back, between the same two houses, the card
    the turn's last move brought."""
    return (
        last is not None
        and move.kind == last.kind == CARD
        and move.src == last.dst == HOUSE
        and move.dst == last.src == HOUSE
        and (move.si, move.di) == (last.di, last.si)
    )


# ------------------------------------------------------------------ the bots' face


def choose(
    level: str, position: Position, seat: int, rng: random.Random, work: Work | None = None
) -> Move:
    """The move ``level``'s bot plays for ``seat`` (the seat to move). It looks at a
    determinization only: what it plays is a function of its view and ``rng`` (and of
    ``work``, the strong player's steps left for its turn)."""
    if level not in LEVELS:
        raise ValueError(f"no bot level {level!r}")
    world = determinize(position, seat, rng)
    if level == EASY:
        move = easy_move(world, rng)
    elif level == MEDIUM:
        move = medium_move(world, rng)
    else:
        move = strong_move(world, seat, rng, work)
    return _same_move(position, move)


def _same_move(position: Position, move: Move) -> Move:
    """``move`` as listed for ``position`` itself (equal, not merely alike)."""
    for listed in position.legal_moves():
        if listed == move:
            return listed
    raise AssertionError(f"{move} is not legal in the real position")


def turn(
    level: str, position: Position, seat: int, rng: random.Random, steps: int = TURN_STEPS
) -> list[Move]:
    """A whole turn for ``seat``: the bot's moves until its turn ends (on a copy).
    ``steps``: the strong player's play-out steps for the turn (``Work``)."""
    copy = position.copy()
    if copy.rules.shuffle_waste and copy.reshuffle_key is None:
        _new_key(copy, rng)  # a keyless table: the bot's own guess at its new hands
    moves: list[Move] = []
    work = Work(steps)
    while not copy.is_over and copy.to_move == seat and len(moves) < TURN_MOVES:
        move = choose(level, copy, seat, rng, work)
        copy.push(move)
        moves.append(move)
        work.last = move
    return moves


def stop_call(level: str, violations: Sequence[str | None], rng: random.Random) -> int | None:
    """Classic games (R7.4): the move of the opponent's last turn to call Stop! on, from
    the violations each move held (which a player sees by watching the turn), or None.
    Strong always calls, medium usually, easy never."""
    first = next((n for n, code in enumerate(violations, 1) if code is not None), None)
    if first is None or level == EASY:
        return None
    if level == MEDIUM and rng.random() >= 0.75:
        return None
    return first


def accepts_stalemate(position: Position, seat: int) -> bool:
    """A stalemate offer is accepted when the game is blocked for the bot's seat or
    when it would not lose by the count (R8.3: the lower count scores the difference)."""
    mine = position.seats[seat].count
    others = min(piles.count for index, piles in enumerate(position.seats) if index != seat)
    return mine <= others


__all__ = [
    "EASY",
    "LEVELS",
    "MEDIUM",
    "STRONG",
    "accepts_stalemate",
    "choose",
    "determinize",
    "hidden_counts",
    "stop_call",
    "turn",
    "unseen",
]
