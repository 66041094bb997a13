"""Property tests over positions reached by random games.

Every example deals a game from a seed under one of the rule presets
(RULES.md §9), or options put on one, of any family (``rules.CLASHES`` names the
combinations refused), and plays uniformly random legal moves for up to 3,000 steps (a
random game lasts about 1,700 steps, so roughly half the examples end in a
finished game). The properties, under every preset:

* the cards never change (R1.1: two packs, pack identity kept);
* views never show a face-down card (R2.2, R2.4; ARCHITECTURE: hidden cards
  never leave the server), nor the key that orders reshuffled hands (V13);
* the deal seed and the move texts replay the game, and position documents
  round-trip (NOTATION.md);
* ``legal_moves`` and ``refusal``/``push`` agree on every syntactically
  possible move (RULES.md §7: every illegal move has a code);
* the Stop! machinery finds exactly the violations classic play committed (R7.2).

Costly checks run on every ``*_EVERY``-th step and on the last position only; the
agreement of ``legal_moves`` and ``refusal`` is checked at every step on the moves
whose card the destination takes (``near_candidates``), and on every candidate each
``LEGAL_EVERY``-th step.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.engine import (
    PLAYING,
    PRESETS,
    STALEMATE,
    WON,
    BadNotation,
    IllegalMove,
    Move,
    Position,
    Rules,
    WrongStop,
    call_stop,
    deal,
    dumps,
    from_document,
    loads,
    replay,
    to_document,
    turn_violations,
    view,
)
from games.engine.cards import (
    ACE,
    FACE_MASK,
    FOUNDATION_NEXT,
    JOKER,
    Card,
    Face,
    card_name,
    house_fits_table,
    load_fits_table,
    make_card,
)
from games.engine.errors import PRIORITY_VIOLATIONS, REFUSALS, VIOLATIONS
from games.engine.families import family_of
from games.engine.moves import (
    CARD,
    DISCARD,
    END_MOVE,
    FOUNDATION,
    HOUSE,
    OPP_RESERVE,
    RESERVE,
    TURN_MOVE,
    TURN_STOCK_MOVE,
    TURNED,
    WASTE,
    parse_move,
)
from games.engine.rules import FACE_DOWN_ROWS, OPTIONS, RELEASES, RESERVE_SIZES, STARTERS, clash
from tests.engine.builders import dealt_cards
from tests.hidden_cards import card_names_in, face_down_cards, face_up_names

MAX_STEPS = 3000
VIEW_EVERY = 10
DOCUMENT_EVERY = 20
LEGAL_EVERY = 100

FOUNDATIONS = tuple(f"F{i}" for i in range(1, 9))
HOUSES = tuple(f"H{i}" for i in range(1, 10))  # nine in the three-player game (G3)
PILES = ("R", "W", "C", "OR", "OW", "OR2", "OW2", *FOUNDATIONS, *HOUSES)
#: Every syntactically possible move of any layout: all SRC-DST pairs (the second
#: opponent's piles and a ninth house for G3), T, TR (V14) and E.
ALL_MOVE_TEXTS = (*(f"{a}-{b}" for a in PILES for b in PILES), "T", "TR", "E")


# ------------------------------------------------------------------ random games


@dataclass(frozen=True)
class RandomGame:
    """A deal seed, the seed of the random move picker, how many moves to play, and
    the rules."""

    seed: int
    rng_seed: int
    steps: int
    rules: Rules = PRESETS["pagat"]


#: The rules of an example: the standard game a third of the time or more, a preset
#: (RULES.md §9), or any combination of the options.
any_options = st.builds(
    Rules,
    own_waste_available=st.booleans(),
    group_moves=st.booleans(),
    reserve_size=st.sampled_from(RESERVE_SIZES),
    starter=st.sampled_from(STARTERS),
    strict_release=st.sampled_from(RELEASES),
    lenient_turn=st.booleans(),
    houses_same_suit=st.booleans(),
    compulsory_loading=st.booleans(),
    make_spaces=st.booleans(),
    face_down_tableau=st.sampled_from(FACE_DOWN_ROWS),
    uncover_compulsory=st.booleans(),
    reserve_face_down=st.booleans(),
    reserve_to_house_compulsory=st.booleans(),
    shuffle_waste=st.booleans(),
    stock_face_down=st.booleans(),
    take_from_opponent=st.booleans(),
    waste_never_fills_spaces=st.booleans(),
    house_loads_first=st.booleans(),
    one_card_first=st.booleans(),
    compulsory_after_runs=st.booleans(),
    stalemate_scores_nothing=st.booleans(),
)
#: Options put on any preset, the other families' included (G2-G4, V14): each option
#: left as the preset has it, or set to any value it allows. Documents and challenges
#: accept such rules unless ``rules.clash`` names a pair that does not combine.
options_on_any_preset = st.builds(
    lambda preset, options: replace(
        PRESETS[preset], **{k: v for k, v in options.items() if v is not None}
    ),
    st.sampled_from(sorted(PRESETS)),
    st.fixed_dictionaries(
        {spec.name: st.none() | st.sampled_from(spec.allowed) for spec in OPTIONS}
    ),
).filter(lambda rules: clash(rules) is None)
rules_strategy = st.one_of(
    st.just(PRESETS["pagat"]),
    st.sampled_from([PRESETS[n] for n in sorted(PRESETS)]),
    any_options,
    options_on_any_preset,
)


random_games = st.builds(
    RandomGame,
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    rng_seed=st.integers(min_value=0, max_value=2**32 - 1),
    # integers() favours small values; the second branch keeps late and finished games common.
    steps=st.one_of(
        st.integers(min_value=0, max_value=MAX_STEPS),
        st.integers(min_value=MAX_STEPS // 2, max_value=MAX_STEPS),
    ),
    rules=rules_strategy,
)


def walk(game: RandomGame, record: list[str] | None = None) -> Iterator[tuple[int, Position]]:
    """Yield (step, position) from the deal on, after every random move.

    The same ``Position`` object is yielded each time (it is played on). The
    walk stops after ``game.steps`` moves or when the game ends. Move texts are
    appended to ``record`` as they are played (relative to the seat to move).
    """
    position = deal(game.seed, game.rules)
    rng = random.Random(game.rng_seed)
    yield 0, position
    for step in range(1, game.steps + 1):
        if position.is_over:
            return
        moves = position.legal_moves()
        assert moves, "legal_moves() is empty while the game is playing"
        move = rng.choice(moves)
        if record is not None:
            record.append(str(move))
        position.push(move)
        yield step, position


def reach(game: RandomGame) -> tuple[Position, list[str]]:
    """The position at the end of ``walk`` and the moves that led there, as text."""
    texts: list[str] = []
    last: Position | None = None
    for _, position in walk(game, texts):
        last = position
    assert last is not None
    return last, texts


def sampled(game: RandomGame, every: int) -> Iterator[Position]:
    """The walk's positions at every ``every``-th step, and always the last one."""
    last_checked = -1
    step = 0
    position = None
    for step, position in walk(game):
        if step % every == 0:
            last_checked = step
            yield position
    if position is not None and last_checked != step:
        yield position


def candidates(position: Position) -> list[Move]:
    """Every distinct move the notation can name in this layout, in a fixed order
    (the one-pack layouts have fewer houses and foundations than the texts name)."""
    r = position.rules
    return list(_candidates(r.seats, r.foundations, r.houses))


@cache
def _candidates(seats: int, foundations: int, houses: int) -> tuple[Move, ...]:
    moves = []
    for text in ALL_MOVE_TEXTS:
        try:
            moves.append(parse_move(text, seats=seats, foundations=foundations, houses=houses))
        except BadNotation:
            continue
    return tuple(dict.fromkeys(moves))


# ---------------------------------------------------------------- a. the cards


@settings(max_examples=100, deadline=None)
@given(game=random_games)
def test_the_cards_never_change(game: RandomGame) -> None:
    dealt = sorted(deal(game.seed, game.rules).cards())
    assert dealt == dealt_cards(game.rules)  # both packs (or the one pack), each card once
    for _, position in walk(game):
        assert sorted(position.cards()) == dealt


# ---------------------------------------------------------------- b. views hide


def keys_in(node: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{path}.{key}" if path else key
            yield here, value
            yield from keys_in(value, here)
    elif isinstance(node, list):
        for item in node:
            yield from keys_in(item, path)


def check_view(position: Position, viewer: int | None) -> None:
    seen = view(position, viewer)
    text = json.dumps(seen)  # a view is plain JSON
    if position.reshuffle_key is not None:  # V13: the key that orders reshuffled hands
        assert position.reshuffle_key not in text
        assert "reshuffle" not in text
    letters = position.rules.seat_names

    # Nothing face down: per face, no more copies than lie face up on the table.
    shown: Counter[str] = Counter()
    card_names_in(seen, shown)
    up = face_up_names(position)
    for face, n in shown.items():
        assert n <= up[face], f"{face} shown {n} times, face up {up[face]} times"
    hidden = face_down_cards(position) + [c for pile in position.houses_down for c in pile]
    hidden += [c for seat in position.seats for c in seat.reserve_down]  # V9
    for card in hidden:
        if up[card_name(card)] == 0:
            assert card_name(card) not in shown
    # V7: the face-down house cards appear as counts only.
    if position.rules.face_down_tableau or any(position.houses_down):
        assert seen["houses_down"] == [len(p) for p in position.houses_down]
    else:
        assert "houses_down" not in seen

    # No key lists hand cards; only the viewer's own waste is listed in full.
    for path, value in keys_in(seen):
        if path.rsplit(".", 1)[-1] == "hand":
            assert value == {"count": value["count"]}, path
        if path.endswith(".cards"):
            assert viewer is not None and path == f"{letters[viewer]}.waste.cards", path

    # What is shown is right.
    assert seen["viewer"] == (None if viewer is None else letters[viewer])
    assert seen["to_move"] == letters[position.to_move]
    assert seen["foundations"] == [[card_name(c) for c in p] for p in position.foundations]
    assert seen["houses"] == [[card_name(c) for c in p] for p in position.houses]
    for i, seat in enumerate(position.seats):
        mine = seen[letters[i]]
        assert mine["hand"] == {"count": len(seat.hand)}
        assert mine["reserve"] == {
            "count": len(seat.reserve) + len(seat.reserve_down),
            "top": card_name(seat.reserve[-1]) if seat.reserve else None,
        }
        if not position.rules.stock_face_down:  # V14: face-up cards on a face-down stock
            assert not (seat.reserve and seat.reserve_down)  # V9: all face down, or none
        assert mine["waste"]["count"] == len(seat.waste)
        assert mine["waste"]["top"] == (card_name(seat.waste[-1]) if seat.waste else None)
        if i == viewer:
            assert mine["waste"]["cards"] == [card_name(c) for c in seat.waste]
        else:
            assert "cards" not in mine["waste"]
        assert mine["turned"] == (None if seat.turned is None else card_name(seat.turned))
        assert mine["count"] == seat.count
    assert seen["status"] == position.status


@settings(max_examples=60, deadline=None)
@given(game=random_games)
def test_views_show_no_face_down_card(game: RandomGame) -> None:
    for position in sampled(game, VIEW_EVERY):
        for viewer in (0, 1, None):
            check_view(position, viewer)


# ------------------------------------------------------ c. replay and documents


def check_documents(position: Position) -> None:
    doc = to_document(position)
    assert doc["format"] == "rbank-position/1"
    again = from_document(doc)
    assert again == position
    assert to_document(again) == doc
    assert from_document(json.loads(json.dumps(doc))) == position
    assert loads(dumps(position)) == position
    assert loads(dumps(position, indent=2)) == position
    assert position.copy() == position


@settings(max_examples=50, deadline=None)
@given(game=random_games)
def test_documents_round_trip_at_every_stage(game: RandomGame) -> None:
    for position in sampled(game, DOCUMENT_EVERY):
        check_documents(position)


@settings(max_examples=50, deadline=None)
@given(game=random_games, more=st.integers(min_value=0, max_value=300))
def test_replay_rebuilds_the_game_and_the_document_is_complete(game: RandomGame, more: int) -> None:
    position, texts = reach(game)
    assert len(texts) == game.steps or position.is_over
    assert replay(game.seed, texts, game.rules) == position
    check_documents(position)

    # The document holds everything the rules need (R7.6/R8.4 counters included):
    # play on from the original and from the re-read copy alike, and they stay equal.
    copy = from_document(to_document(position))
    assert sorted(map(str, copy.legal_moves())) == sorted(map(str, position.legal_moves()))
    rng_a, rng_b = random.Random(more), random.Random(more)
    for _ in range(more):
        if position.is_over:
            break
        a, b = rng_a.choice(position.legal_moves()), rng_b.choice(copy.legal_moves())
        assert a == b
        position.push(a)
        copy.push(b)
    assert copy == position


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_round_trip_covers_finished_games(preset: str) -> None:
    for seed in range(3):
        game = RandomGame(seed, seed, 10**6, PRESETS[preset])
        position, texts = reach(game)
        assert position.status in (WON, STALEMATE)
        assert replay(seed, texts, game.rules) == position
        check_documents(position)


# ------------------------------------------------------- d. legal versus refusal


def check_legal_agrees_with_refusal(position: Position) -> None:
    legal = position.legal_moves()
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "legal_moves() lists a move twice"
    if position.status == PLAYING:
        assert legal
    else:
        assert legal == []
    for move in legal:
        assert position.parse(str(move)) == move  # the text form round-trips
        position.copy().push(move)  # accepted
    every = candidates(position)
    assert legal_set <= set(every)
    for move in every:
        refusal = position.refusal(move)
        if move in legal_set:
            assert refusal is None, f"{move} is generated but refused: {refusal!r}"
        else:
            assert isinstance(refusal, IllegalMove), f"{move} is not generated but accepted"
            assert refusal.code in VIOLATIONS or refusal.code in REFUSALS
    # ``push`` asks ``refusal`` for any move it did not just list: a few suffice.
    for move in [m for m in near_candidates(position) if m not in legal_set][:8]:
        with pytest.raises(IllegalMove):
            position.copy().push(move)


LENIENT_LATE_PLAY = replace(PRESETS["pagat"], lenient_turn=True, compulsory_after_runs=True)


def _face_up(position: Position, kind: int, index: int) -> list[Card]:
    """The cards of a pile as the mover names it, whatever the rules make available."""
    seat = position.seats[position.to_move]
    if kind == FOUNDATION:
        return position.foundations[index]
    if kind == HOUSE:
        return position.houses[index]
    if kind == TURNED:
        return [] if seat.turned is None else [seat.turned]
    if kind in (RESERVE, WASTE):
        return seat.reserve if kind == RESERVE else seat.waste
    other = position.seats[(position.to_move + index) % len(position.seats)]
    return other.reserve if kind == OPP_RESERVE else other.waste


#: The moves that are no card move to a foundation, a house or a load: T, TR, E, C-W.
_ACTIONS = (TURN_MOVE, TURN_STOCK_MOVE, END_MOVE, DISCARD)
_ACES = tuple(make_card(ACE, suit) for suit in range(4))


@cache
def _fit_tables(rules: Rules) -> tuple[tuple[tuple[Face, ...], ...], tuple[tuple[Face, ...], ...]]:
    """The faces each face takes on a house and as a load, under ``rules`` (R5.2, R5.4)."""
    family = family_of(rules)
    houses = house_fits_table(rules.houses_same_suit, family.both_ways, family.wrap_ranks)
    return houses, load_fits_table(family.wrap_ranks)


#: A pile as a move names it: (kind, index).
Pile = tuple[int, int]


@cache
def _card_moves(
    seats: int, foundations: int, houses: int
) -> tuple[list[Pile], list[Pile], dict[tuple[Pile, Pile], Move]]:
    """The sources and destinations of the candidate card moves onto foundations,
    houses and opponents' piles (no rule takes a card off a foundation), and the move
    from each source to each destination."""
    moves = {
        ((m.src, m.si), (m.dst, m.di)): m
        for m in _candidates(seats, foundations, houses)
        if m.kind == CARD and m.src != FOUNDATION and m.dst not in (RESERVE, WASTE, TURNED)
    }
    sources = list(dict.fromkeys(src for src, _ in moves))
    targets = list(dict.fromkeys(dst for _, dst in moves))
    return sources, targets, moves


def near_candidates(position: Position) -> list[Move]:
    """The candidates whose card the destination takes (R5): ``T``, ``TR``, ``E``, the
    discard, and the card moves onto a pile whose top takes the card (under V10, any
    card of a house: runs move), into an empty house, or of an ace onto an empty
    foundation; the joker (G3) is never taken, so its moves are all asked about. What
    ``legal_moves`` and ``refusal`` may disagree on is whether a card is available and
    whether the priorities let it go: every candidate left out fails on building
    alone, which the full check (``check_legal_agrees_with_refusal``) covers."""
    r = position.rules
    sources, targets, moves = _card_moves(r.seats, r.foundations, r.houses)
    house_fits, load_fits = _fit_tables(r)
    holding: dict[Face, list[Pile]] = {}  # face -> the sources that could move it
    present: list[Pile] = []
    for src in sources:
        cards = _face_up(position, *src)
        if cards:
            present.append(src)
            for card in cards if src[0] == HOUSE and r.group_moves else cards[-1:]:
                holding.setdefault(card & FACE_MASK, []).append(src)
    jokers = holding.pop(JOKER, [])
    out = [*_ACTIONS]
    for dst in targets:
        target = _face_up(position, *dst)
        if not target:
            if dst[0] == HOUSE:
                froms = present
            else:  # an empty foundation takes an ace; an empty pile takes no load
                froms = [s for ace in _ACES if dst[0] == FOUNDATION for s in holding.get(ace, ())]
        else:
            top = target[-1] & FACE_MASK
            wanted = (
                (FOUNDATION_NEXT[top],)
                if dst[0] == FOUNDATION
                else house_fits[top]
                if dst[0] == HOUSE
                else load_fits[top]
            )
            froms = [s for face in wanted for s in holding.get(face, ())]
        for src in dict.fromkeys([*froms, *jokers]):
            move = moves.get((src, dst))
            if move is not None:
                out.append(move)
    return out


def check_near_moves_agree(position: Position) -> None:
    """The cheap check of every step: the legal moves are among the near candidates,
    and among those ``refusal`` accepts exactly the legal ones, with a known code."""
    legal = set(position.legal_moves())
    assert bool(legal) == (position.status == PLAYING)
    near = near_candidates(position)
    assert legal <= set(near), f"legal but not near: {legal - set(near)}"
    for move in near:
        refusal = position.refusal(move)
        if move in legal:
            assert refusal is None, f"{move} is generated but refused: {refusal!r}"
        else:
            assert refusal is not None, f"{move} is not generated but accepted"
            assert refusal.code in VIOLATIONS or refusal.code in REFUSALS


@settings(max_examples=60, deadline=None)
@given(game=random_games, capped=st.booleans())
# V8 with S11 (V14): the lenient first T was accepted but not generated.
@example(game=RandomGame(9, 9, 731, LENIENT_LATE_PLAY), capped=False)
def test_legal_moves_and_refusal_agree(game: RandomGame, capped: bool) -> None:
    last = None
    for step, last in walk(game):
        if step % LEGAL_EVERY == 0:
            check_legal_agrees_with_refusal(last)
        else:
            check_near_moves_agree(last)
    assert last is not None
    if capped and not last.is_over:
        # The same, once the turn has reached the R7.6 cap of moves.
        doc = to_document(last)
        doc["engine"]["turn_moves"] = last.rules.max_turn_moves
        check_legal_agrees_with_refusal(from_document(doc))


# ------------------------------------------------------------- e. Stop! machinery


@dataclass
class ClassicTurn:
    start: Position
    moves: list[Move]
    codes: list[str | None]


def classic_turns(
    position: Position, rng: random.Random, turns: int, any_rate: float
) -> list[ClassicTurn]:
    """Play ``turns`` turns in classic mode: with probability ``any_rate`` a move is
    picked among every move classic play accepts (clean, or an S1-S3 violation),
    otherwise among the legal moves."""
    played = []
    for _ in range(turns):
        if position.is_over:
            break
        turn = ClassicTurn(position.copy(), [], [])
        mover = position.to_move
        while not position.is_over and position.to_move == mover and len(turn.moves) < 2000:
            if rng.random() < any_rate:
                options = []
                for move in candidates(position):
                    refusal = position.refusal(move)
                    if refusal is None or refusal.code in PRIORITY_VIOLATIONS:
                        options.append(move)
            else:
                options = position.legal_moves()
            move = rng.choice(options)
            turn.codes.append(position.push(move, classic=True))
            turn.moves.append(move)
        played.append(turn)
    return played


@settings(max_examples=40, deadline=None)
@given(
    game=random_games,
    picker=st.integers(min_value=0, max_value=2**32 - 1),
    turns=st.integers(min_value=1, max_value=3),
    any_rate=st.sampled_from([0.1, 0.3, 0.7]),
)
def test_turn_violations_match_classic_push(
    game: RandomGame, picker: int, turns: int, any_rate: float
) -> None:
    position, _ = reach(game)
    for turn in classic_turns(position, random.Random(picker), turns, any_rate):
        assert set(turn.codes) <= {None, *game.rules.priority_violations}
        assert turn_violations(turn.start, turn.moves) == turn.codes

        # Stop! on a violation undoes it and passes the turn (R7.2); on a clean move
        # it is a wrong call (R7.5). Checked on a few moves: each call replays the turn.
        mover = turn.start.to_move
        flagged = [i for i, code in enumerate(turn.codes) if code is not None][:4]
        clean = [i for i, code in enumerate(turn.codes) if code is None][:2]
        for i in flagged:
            after = call_stop(turn.start, turn.moves, i)
            assert after.is_over or after.to_move != mover
            assert sorted(after.cards()) == sorted(turn.start.cards())
        for i in clean:
            with pytest.raises(WrongStop):
                call_stop(turn.start, turn.moves, i)

    # Violations that nobody called stand (R7.4): legal and refusal still agree after them.
    check_legal_agrees_with_refusal(position)


@pytest.mark.parametrize(
    "rules",
    [
        *(PRESETS[name] for name in sorted(PRESETS)),
        replace(PRESETS["pagat"], compulsory_loading=True),
        replace(PRESETS["pagat"], compulsory_loading=True, reserve_to_house_compulsory=True),
        replace(PRESETS["pagat"], strict_release="on"),
        replace(PRESETS["pagat"], strict_release="fewest", group_moves=True),
        replace(PRESETS["pagat"], make_spaces=True, lenient_turn=True),
        replace(PRESETS["pagat"], face_down_tableau=2, uncover_compulsory=True),
    ],
    ids=lambda rules: rules.preset + "".join(f"+{k}" for k in _options(rules)),
)
def test_classic_turns_commit_every_priority_violation(rules: Rules) -> None:
    """The generator of the property above does reach every priority violation the
    rules have: S1, S2 and S3, and S6-S11 under V5/V12/V4/V6/V7/V14."""
    assert rules.priority_violations <= PRIORITY_VIOLATIONS
    seen: set[str | None] = set()
    for seed in range(60):
        # Positions from all stages of a game (one-pack games are a quarter as long).
        steps = 40 * seed % (600 if rules.packs == 1 else 2400)
        position, _ = reach(RandomGame(seed, seed, steps, rules))
        if rules.compulsory_after_runs and seed % 2:
            # V14 (S11): as late in a long game, after three runs through each hand.
            position.new_hands = [3] * rules.seats
        for turn in classic_turns(position, random.Random(seed), 3, 0.7):
            seen.update(turn.codes)
            assert turn_violations(turn.start, turn.moves) == turn.codes
        if seen >= rules.priority_violations:
            break
    assert seen - {None} == rules.priority_violations


def _options(rules: Rules) -> list[str]:
    """The options where ``rules`` differs from its preset, for test ids."""
    preset = PRESETS[rules.preset]
    return [f.name for f in fields(Rules) if getattr(rules, f.name) != getattr(preset, f.name)]
