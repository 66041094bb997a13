"""The engine's ``Game``: moves all or none, the call window (R7.4), Stop! verdicts
(R7.2, R7.3), wrong calls (R7.5), stalemate offers (R8.5), forfeits (R8.6), replay
from the record, the export and the full record after the end.

Scenes come from real deals (``opening`` finds them): seed 6's opening turn ``T C-W``
commits S2 twice, seed 8's ``H1-F1 T C-W`` commits S3 with its ``T``, seed 1's
``T C-W`` is clean.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings

from games.engine import (
    BY_AGREEMENT,
    CLASSIC,
    PRESETS,
    STALEMATE,
    WON,
    AgreeStalemate,
    BadRecord,
    Game,
    GameError,
    LostTurn,
    MoveEntry,
    MoveRefused,
    OfferStalemate,
    Record,
    Resign,
    Rules,
    StopCall,
    Timeout,
    WrongCall,
    WrongCallError,
    WrongStop,
    call_stop,
    deal,
    parse_entry,
    replay,
    to_document,
)
from games.engine.moves import DISCARD, TURN_MOVE
from games.engine.rules import rules_from_document
from games.engine.shuffle import reshuffle_key
from tests.engine.builders import document
from tests.engine.random_records import Plan, opening, plans, play_random
from tests.engine.rules_support import QUIET, assert_plain
from tests.engine.test_properties import rules_strategy

EVERY_PRESET = [PRESETS[name] for name in sorted(PRESETS)]
S2_S2 = 6  # T C-W: both S2
S3 = 8  # H1-F1 T C-W: the T is S3
CLEAN = 1  # T C-W: clean


def classic_after(seed: int, turn: list[str], rules: Rules = PRESETS["pagat"]) -> Game:
    game = Game(seed, rules, stop_mode=CLASSIC)
    game.play(game.to_move, turn)
    return game


def test_the_scenes_are_what_this_file_says() -> None:
    assert opening(["S2", "S2"]) == (S2_S2, ["T", "C-W"])
    assert opening([None, "S3", None]) == (S3, ["H1-F1", "T", "C-W"])
    assert opening([None, None]) == (CLEAN, ["T", "C-W"])


def same_game(one: Game, other: Game) -> None:
    assert other.entries == one.entries
    assert other.position == one.position
    assert to_document(other.position) == to_document(one.position)
    assert other.last_turn == one.last_turn
    assert other.current_turn == one.current_turn
    assert other.wrong_calls == one.wrong_calls
    assert other.stalemate_offer == one.stalemate_offer
    assert other.export() == one.export()
    for seat in range(one.rules.seats):
        assert window(other, seat) == window(one, seat)


def window(game: Game, seat: int) -> str | None:
    """Why ``seat`` may not call Stop! now (the code), or None when it may."""
    refusal = game.stop_refusal(seat)
    return None if refusal is None else refusal.code


# ------------------------------------------------------------- replay from the record


@settings(max_examples=25, deadline=None)
@given(plan=plans(rules_strategy))
def test_it_keeps_the_position_a_replay_of_its_record_gives(plan: Plan) -> None:
    game = play_random(plan)
    same_game(game, Game.from_record(game.record))
    assert game.position_at(game.entry_count) == game.position


@pytest.mark.parametrize("rules", EVERY_PRESET, ids=lambda r: r.preset)
@pytest.mark.parametrize("classic", [False, True], ids=["referee", "classic"])
def test_it_keeps_the_position_a_replay_gives_under_every_preset(
    rules: Rules, classic: bool
) -> None:
    game = play_random(Plan(seed=21, rng_seed=2, rules=rules, classic=classic))
    assert game.is_over
    same_game(game, Game.from_record(game.record))
    # Each step of the replay is the position after that many entries.
    rng = random.Random(0)
    checks = set(rng.sample(range(game.entry_count), 5))
    for index, entry, position in game.steps():
        assert entry == game.entries[index]
        if index in checks:
            assert position == game.position_at(index + 1)


def test_V13_a_game_set_up_on_a_keyless_table_keys_its_reshuffles_from_its_seed() -> None:
    """V13: a table with no reshuffle key (a hand-made document) set up as a game takes
    the key a deal from the game's seed would have (never one drawn from the operating
    system), so the game replays from its record and every copy of it agrees on the
    new hands."""
    table = document(
        rules={"preset": "pagat", "shuffle_waste": True},
        H=QUIET,
        A={"reserve": "9C", "waste": "AS 2H 3D 4C 5S 6H 7D 8C 9S TH JD QC QS AH 2D 3C"},
        B={"reserve": "6H", "hand": "4C 5D"},
    )
    rules = rules_from_document(table["rules"])
    game = Game(31, rules, setup=table)
    assert game.position.reshuffle_key == reshuffle_key(31)
    game.play(0, [TURN_MOVE])  # the waste becomes the hand, shuffled
    same_game(game, Game.from_record(game.record))
    assert Game(31, rules, setup=table).start() == game.start()


@pytest.mark.parametrize("rules", EVERY_PRESET, ids=lambda r: r.preset)
def test_it_plays_as_the_position_does(rules: Rules) -> None:
    """A refereed game without events is ``replay`` of its moves."""
    game = play_random(Plan(seed=5, rng_seed=9, rules=rules, events=False, steps=400))
    texts = [str(e.move) for e in game.entries if isinstance(e, MoveEntry)]
    assert len(texts) == game.entry_count
    assert replay(5, texts, rules) == game.position
    assert game.position_at(0) == deal(5, rules) == game.start()
    assert game.position_at(200) == replay(5, texts[:200], rules)
    with pytest.raises(ValueError):
        game.position_at(game.entry_count + 1)


def test_it_deals_with_the_named_starter() -> None:
    dealt = Game(S2_S2)
    other = 1 - dealt.first_seat
    named = Game(S2_S2, starter=other)
    assert named.first_seat == named.to_move == other
    assert named.record.starter == other
    assert Game.from_record(named.record).to_move == other


# ------------------------------------------------------------------------ playing


def test_it_plays_a_list_of_moves_all_or_none() -> None:
    game = Game(CLEAN)
    seat = game.to_move
    before = to_document(game.position)
    for moves, code, index in (
        (["T", "H1-H1"], "S4", 1),
        (["T", "X9"], "BAD_NOTATION", 1),
        (["T", "C-W", "T"], "NOT_YOUR_TURN", 2),  # the discard ended the turn
    ):
        with pytest.raises(MoveRefused) as refused:
            game.play(seat, moves)
        assert refused.value.code == code
        assert refused.value.params["index"] == index
        assert refused.value.params["move"] == moves[index]
        assert_plain(refused.value.message)
        assert to_document(game.position) == before
        assert game.entry_count == 0 and game.current_turn == () and game.last_turn is None
    played = game.play(seat, ["T", DISCARD])
    assert played == [MoveEntry(seat, TURN_MOVE), MoveEntry(seat, DISCARD)]
    assert Game(CLEAN).play(seat, "T C-W") == played  # text is split at spaces
    assert game.last_turn is not None and game.last_turn.moves == (TURN_MOVE, DISCARD)
    assert game.last_turn.indexes == (0, 1) and game.last_turn.start == 0
    assert game.to_move == 1 - seat and game.current_turn == ()


def test_it_refuses_a_turn_that_is_not_yours_and_anything_after_the_end() -> None:
    game = Game(CLEAN)
    other = 1 - game.to_move
    with pytest.raises(GameError) as not_yours:
        game.play(other, ["T"])
    assert not_yours.value.code == "NOT_YOUR_TURN"
    assert not_yours.value.params == {"to_move": game.letter(game.to_move)}
    assert game.legal_moves(other) == []
    with pytest.raises(GameError) as empty:
        game.play(game.to_move, [])
    assert empty.value.code == "NO_MOVES"
    with pytest.raises(GameError) as nobody:
        game.play(2, ["T"])
    assert nobody.value.code == "NOT_A_SEAT"
    game.resign(other)
    for action in (
        lambda: game.play(game.to_move, ["T"]),
        lambda: game.resign(0),
        lambda: game.timeout(game.to_move),
        lambda: game.offer_stalemate(0),
    ):
        with pytest.raises(GameError) as over:
            action()
        assert over.value.code == "GAME_OVER"
    assert game.legal_moves(0) == game.legal_moves(1) == []


# -------------------------------------------------------------- R7.4, the window


def test_R7_4_the_window_is_the_next_seats_before_its_first_move() -> None:
    game = Game(S2_S2, stop_mode=CLASSIC)
    offender = game.to_move
    caller = 1 - offender
    assert window(game, offender) == "NOTHING_TO_STOP"
    assert window(game, caller) == "NOT_YOUR_TURN"
    game.play(offender, ["T", "C-W"])
    assert window(game, offender) == "NOT_YOUR_TURN"
    assert game.can_call_stop(caller)
    with pytest.raises(GameError) as out_of_range:
        game.call_stop(caller, 3)
    assert out_of_range.value.code == "NO_SUCH_MOVE" and out_of_range.value.params == {"moves": 2}
    game.play(caller, [game.legal_moves(caller)[0]])
    late = game.stop_refusal(caller)
    assert late is not None and late.code == "STOP_TOO_LATE"
    with pytest.raises(GameError) as too_late:
        game.call_stop(caller, 1)
    assert too_late.value.code == "STOP_TOO_LATE"
    assert game.wrong_calls == (0, 0)


def test_R7_4_a_turn_is_stopped_once() -> None:
    game = classic_after(S2_S2, ["T", "C-W"])
    caller = game.to_move
    game.call_stop(caller, 1)
    again = game.stop_refusal(caller)
    assert again is not None and again.code == "NOTHING_TO_STOP"
    assert again.message == "you have already stopped that turn"


def test_R7_4_a_refereed_game_has_no_stop() -> None:
    game = Game(S2_S2)
    offender = game.to_move
    with pytest.raises(MoveRefused) as refused:
        game.play(offender, ["T"])
    assert refused.value.code == "S2"
    game.play(offender, [game.legal_moves(offender)[0]])
    refusal = game.stop_refusal(1 - offender)
    assert refusal is not None and refusal.code == "STOP_NOT_IN_PLAY"


def test_R7_4_with_three_seats_only_the_next_seat_may_call() -> None:
    rules = PRESETS["three-player"]
    game = Game(3, rules, stop_mode=CLASSIC)
    first = game.to_move
    game.play(first, ["T", "C-W"])
    second = game.to_move
    after_next = (second + 1) % 3
    assert game.can_call_stop(second)
    assert window(game, after_next) == "NOT_YOUR_TURN"
    game.play(second, ["T", "C-W"])  # the window on the first turn is closed
    assert game.to_move == after_next and game.last_turn.seat == second  # type: ignore[union-attr]
    assert game.can_call_stop(after_next)
    for seat in (first, second):
        refusal = game.stop_refusal(seat)
        assert refusal is not None and refusal.code == "NOT_YOUR_TURN"
        with pytest.raises(GameError):
            game.call_stop(seat, 1)


# ----------------------------------------------------------- R7.2, R7.3: the verdict


def test_R7_2_a_right_call_undoes_the_move_and_records_the_verdict() -> None:
    game = classic_after(S2_S2, ["T", "C-W"])
    offender, caller = 1 - game.to_move, game.to_move
    start = deal(S2_S2)
    expected = call_stop(start, [start.parse("T"), start.parse("C-W")], 1)
    entry = game.call_stop(caller, 2)
    assert entry == StopCall(caller, 2, "S2", start.parse("H2-F1"))
    assert str(entry) == f"{game.letter(caller)} stop 2 S2 H2-F1"
    assert game.entries[-1] == entry and game.position == expected
    assert game.to_move == caller and game.current_turn == ()
    last = game.last_turn
    assert last is not None and last.seat == offender
    assert (last.stopped, last.correction) == (2, start.parse("H2-F1"))
    assert game.wrong_calls == (0, 0)
    game.resign(offender)
    violations = [
        (v["index"], v["violation"], v["called"]) for v in game.full_record()["violations"]
    ]
    assert violations == [(0, "S2", False), (1, "S2", True)]


def test_R7_1_the_stopped_violation_is_the_referees_refusal_of_the_stopped_move() -> None:
    """What a right call tells the offender comes from the engine, also after a resume."""
    game = Game(S3, stop_mode=CLASSIC, encoding=True)
    game.play(game.to_move, ["H1-F1", "T", "C-W"])
    caller = game.to_move
    assert game.stopped_violation() is None  # nothing called yet
    before = game.start()
    before.push(before.parse("H1-F1"))
    expected = before.refusal(before.parse("T"))
    game.call_stop(caller, 2)
    violation = game.stopped_violation()
    assert violation is not None and expected is not None
    assert (violation.code, violation.reason, violation.params) == (
        expected.code,
        expected.reason,
        expected.params,
    )
    assert violation.code == "S3" and violation.message == expected.message
    resumed = Game.resume(game.seed, game.rules, game.snapshot(), stop_mode=CLASSIC)
    assert str(resumed.stopped_violation()) == str(violation)
    game.play(caller, [game.legal_moves(caller)[0]])
    while game.to_move == caller:
        game.play(caller, [game.legal_moves(caller)[0]])
    assert game.stopped_violation() is None  # the caller's own turn was not stopped


def test_R7_2_a_choice_that_is_not_compulsory_is_passed_over() -> None:
    """The answer to a call depends on its verdict only: a choice that does not fit is
    not refused, or it would tell the caller the move held a violation."""
    chosen = classic_after(S2_S2, ["T", "C-W"])
    plain = classic_after(S2_S2, ["T", "C-W"])
    caller = chosen.to_move
    assert chosen.call_stop(caller, 1, "H1-H2") == plain.call_stop(caller, 1)
    assert chosen.position == plain.position


def test_R7_2_S3_the_turned_card_goes_back_and_the_reserve_fills_the_space() -> None:
    game = classic_after(S3, ["H1-F1", "T", "C-W"])
    caller = game.to_move
    assert game.call_stop(caller, 2) == StopCall(caller, 2, "S3", deal(S3).parse("R-H1"))
    offender = game.position.seats[1 - caller]
    assert offender.turned is None and offender.waste == []


def test_V14_a_stop_with_no_compulsory_move_records_none_and_passes_the_turn() -> None:
    """Foster p.7: with the stock's top card face down an S3 has no correction."""
    lines = ["A TR", "A R-H8", "A H1-H8", "A T S3", "A H6-H1", "A H5-H6", "A C-W"]
    rules = PRESETS["foster"]
    game = Game.from_record(Record(4, rules, CLASSIC, None, tuple(parse_entry(t) for t in lines)))
    assert game.call_stop(1, 4) == StopCall(1, 4, "S3", None)
    assert game.to_move == 1 and game.last_turn.correction is None  # type: ignore[union-attr]
    assert game.export().endswith("2 B: (stop:4)\n")
    same_game(game, Game.from_record(game.record))


# ------------------------------------------------------------------- R7.5


def test_R7_5_every_third_wrong_call_costs_the_caller_the_turn() -> None:
    game = classic_after(S3, ["H1-F1", "T", "C-W"])
    offender, caller = 1 - game.to_move, game.to_move
    for count in (1, 2):
        with pytest.raises(WrongCallError) as wrong:
            game.call_stop(caller, 1)  # H1-F1 was clean
        assert wrong.value.code == "WRONG_STOP"
        assert wrong.value.params["wrong_calls"] == count
        assert wrong.value.params["turn_lost"] is False
        assert_plain(wrong.value.message)
        assert game.entries[-1] == WrongCall(caller, 1)
        assert game.to_move == caller and game.can_call_stop(caller)  # the window stays open
    with pytest.raises(WrongCallError) as third:
        game.call_stop(caller, 3)  # so was the discard
    assert third.value.params["wrong_calls"] == 3 and third.value.params["turn_lost"] is True
    assert "costs you this turn" in third.value.message
    assert isinstance(third.value, WrongStop)  # the engine's one family for a wrong call
    assert game.entries[-2:] == (WrongCall(caller, 3), LostTurn(caller))
    assert game.wrong_calls[caller] == 3
    assert game.to_move == offender
    last = game.last_turn
    assert last is not None and last.lost and last.seat == caller and last.moves == ()
    assert not game.can_call_stop(offender)  # a lost turn has nothing to stop
    same_game(game, Game.from_record(game.record))


def test_R7_5_the_count_runs_on_and_the_sixth_call_costs_another_turn() -> None:
    game = classic_after(S3, ["H1-F1", "T", "C-W"])
    offender, caller = 1 - game.to_move, game.to_move
    for _ in range(3):
        with pytest.raises(WrongCallError):
            game.call_stop(caller, 1)
    while game.to_move == offender:  # the offender plays a clean turn
        game.play(offender, [game.legal_moves(offender)[0]])
    lost = []
    for _ in range(3):
        with pytest.raises(WrongCallError) as wrong:
            game.call_stop(caller, 1)
        lost.append(wrong.value.params["turn_lost"])
    assert lost == [False, False, True]
    assert game.wrong_calls[caller] == 6
    assert sum(isinstance(e, LostTurn) for e in game.entries) == 2


def test_R7_5_a_wrong_call_does_not_close_the_window_for_a_right_one() -> None:
    game = classic_after(S3, ["H1-F1", "T", "C-W"])
    caller = game.to_move
    with pytest.raises(WrongCallError):
        game.call_stop(caller, 1)
    assert game.call_stop(caller, 2).violation == "S3"
    assert game.wrong_calls[caller] == 1


# -------------------------------------------------------------- R7.4: secrecy


def test_R7_4_a_slip_is_hidden_from_views_the_log_and_the_export_until_the_end() -> None:
    game = classic_after(S2_S2, ["T", "C-W"])
    offender = 1 - game.to_move
    assert [e.violation for e in game.entries if isinstance(e, MoveEntry)] == ["S2", "S2"]
    public = game.public_entries()
    assert all(isinstance(e, MoveEntry) and e.violation is None for e in public)
    shown = json.dumps([game.view(0), game.view(1), game.view(None), game.log()])
    assert "S2" not in shown and "violation" not in shown
    assert "S2" not in game.export()
    with pytest.raises(GameError) as hidden:
        game.full_record()
    assert hidden.value.code == "GAME_NOT_OVER"
    game.resign(offender)
    assert game.public_entries() == game.entries
    assert [row["violation"] for row in game.log()[:2]] == ["S2", "S2"]
    assert "S2" not in game.export()  # the notation has no place for slips


def test_R7_4_a_slip_is_accepted_only_in_a_classic_game() -> None:
    classic = Game(S2_S2, stop_mode=CLASSIC)
    referee = Game(S2_S2)
    seat = classic.to_move
    assert classic.refusal(seat, TURN_MOVE) is None
    refused = referee.refusal(seat, TURN_MOVE)
    assert refused is not None and refused.code == "S2"
    assert classic.refusal(seat, classic.position.parse("H1-H1")) is not None  # S4 never


# ---------------------------------------------------------- R8.5, R8.6: the end


def test_R8_5_an_offer_ends_the_game_when_the_other_seat_agrees() -> None:
    game = Game(CLEAN)
    a, b = 0, 1
    assert game.offer_stalemate(a) == OfferStalemate(a)
    for seat, code in ((a, "ALREADY_OFFERED"), (b, "OFFER_PENDING")):
        with pytest.raises(GameError) as refused:
            game.offer_stalemate(seat)
        assert refused.value.code == code
    with pytest.raises(GameError) as own:
        game.agree_stalemate(a)
    assert own.value.code == "NO_OFFER"
    assert game.agree_stalemate(b) == AgreeStalemate(b)
    assert (game.status, game.ending) == (STALEMATE, BY_AGREEMENT)
    assert game.stalemate_offer == ()
    assert game.export().splitlines()[-1] == "B agrees-stalemate"


def test_R8_5_a_decline_or_a_move_by_the_other_seat_withdraws_the_offer() -> None:
    game = Game(CLEAN)
    mover = game.to_move
    other = 1 - mover
    game.offer_stalemate(other)
    game.decline_stalemate(mover)
    assert not game.stalemate_offer
    with pytest.raises(GameError) as nothing:
        game.decline_stalemate(mover)
    assert nothing.value.code == "NO_OFFER"
    game.offer_stalemate(mover)
    game.play(mover, ["T"])  # the offerer plays on: the offer stands
    assert game.stalemate_offer == (mover,)
    game.play(mover, ["C-W"])
    game.play(other, [game.legal_moves(other)[0]])  # the other plays on: declined
    assert not game.stalemate_offer
    same_game(game, Game.from_record(game.record))


def test_R8_5_with_three_seats_both_others_must_agree() -> None:
    game = Game(3, PRESETS["three-player"])
    game.offer_stalemate(0)
    game.agree_stalemate(1)
    assert not game.is_over and game.stalemate_offer == (0, 1)
    game.agree_stalemate(2)
    assert game.status == STALEMATE
    assert game.export().splitlines()[-1] == "C agrees-stalemate"


def test_R8_6_a_resignation_at_any_time_and_a_timeout_of_the_seat_to_move() -> None:
    game = Game(CLEAN)
    other = 1 - game.to_move
    with pytest.raises(GameError) as not_running:
        game.timeout(other)  # only the seat to move has a clock running
    assert not_running.value.code == "NOT_YOUR_TURN"
    resigned = Game(CLEAN)
    assert resigned.resign(other) == Resign(other)
    assert resigned.status == WON and resigned.winner == 1 - other
    count = resigned.position.seats[other].count
    assert resigned.score == [30 + 20 + count if s != other else 0 for s in range(2)]
    timed = Game(CLEAN)
    assert timed.timeout(timed.to_move) == Timeout(timed.to_move)
    assert timed.ending == "timeout" and timed.winner == other


# ------------------------------------------------------------------ bad records


@pytest.mark.parametrize(
    ("lines", "why"),
    [
        (["B T S2"], "a slip the move did not commit"),
        (["B T", "B C-W", "A T S2"], "a move by the wrong seat"),
        (["B resigns", "A resigns"], "an event after the end"),
        (["B loses-turn"], "a lost turn on its own"),
        (["A offers-stalemate", "A agrees-stalemate"], "the offerer agrees"),
    ],
)
def test_it_refuses_a_record_the_rules_do_not_allow(lines: list[str], why: str) -> None:
    record = Record(CLEAN, stop_mode=CLASSIC, entries=tuple(parse_entry(t) for t in lines))
    with pytest.raises(BadRecord) as bad:
        Game.from_record(record)
    assert bad.value.code == "BAD_RECORD", why


def test_it_refuses_a_record_with_a_wrong_verdict_or_cut_before_the_lost_turn() -> None:
    game = classic_after(S3, ["H1-F1", "T", "C-W"])
    caller = game.to_move
    for _ in range(3):
        with pytest.raises(WrongCallError):
            game.call_stop(caller, 1)
    entries = game.entries
    cut = Record(S3, stop_mode=CLASSIC, entries=entries[:-1])
    with pytest.raises(BadRecord, match="loses-turn"):
        Game.from_record(cut)
    right = classic_after(S3, ["H1-F1", "T", "C-W"])
    call = right.call_stop(caller, 2)
    for wrong in (
        StopCall(caller, 2, "S2", call.correction),
        StopCall(caller, 2, "S3", None),
        WrongCall(caller, 2),
    ):
        with pytest.raises(BadRecord):
            Game.from_record(Record(S3, stop_mode=CLASSIC, entries=(*right.entries[:3], wrong)))


# --------------------------------------------------------- the export and the record


def test_it_exports_turn_lines_calls_lost_turns_and_the_ending() -> None:
    game = classic_after(S3, ["H1-F1", "T", "C-W"])  # A's turn
    game.call_stop(1, 2)  # B is right: B's turn opens with the call
    game.offer_stalemate(1)  # not in the notation
    b_moves = []
    while game.to_move == 1:  # B plays a clean turn
        b_moves.append(str(game.play(1, [game.legal_moves(1)[0]])[0].move))
    for _ in range(3):  # A's wrong calls are not in the notation; the turn they cost is
        with pytest.raises(WrongCallError):
            game.call_stop(0, 1)
    game.resign(0)
    seed_hash = game.full_record()["seed_hash"]
    assert game.export(header=[("Game", "7"), ("A", "alice"), ("B", "bob")]) == (
        '[Game "7"]\n[A "alice"]\n[B "bob"]\n'
        f'[SeedHash "{seed_hash}"]\n[Stop "classic"]\n[Seed "8"]\n[Status "won"]\n'
        f'[Score "A=0 B={game.position.score[1]}"]\n[Ending "resigned"]\n'  # type: ignore[index]
        f"\n1 A: H1-F1 T C-W\n2 B: (stop:2:R-H1) {' '.join(b_moves)}\n3 A: (loses-turn)\n"
        "A resigns\n"
    )


def test_it_exports_the_players_words_as_comments_after_the_turn_they_followed() -> None:
    game = classic_after(S3, ["H1-F1", "T", "C-W"])  # A's turn: entries 0-2
    game.call_stop(1, 2)  # B's turn opens with the call
    while game.to_move == 1:
        game.play(1, [game.legal_moves(1)[0]])
    game.resign(0)
    end = game.entry_count
    comments = [
        (end, "B", "good game"),  # after the resignation
        (0, "B", "good luck"),  # before the first move
        (2, "A", "oops {sorry}\ntwo lines\\"),  # during A's turn
        (end - 1, "A", "I give up"),  # before the resignation
    ]
    lines = game.export(comments=comments).split("\n\n", 1)[1].splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "{B",
        "1 A",
        "{A",
        "2 B",
        "{A",
        "A resigns",
        "{B",
    ]
    assert lines[2] == "{A: oops {sorry\\} two lines\\\\}"
    assert lines[0] == "{B: good luck}" and lines[-1] == "{B: good game}"
    assert game.export(comments=[]) == game.export()


def test_it_exports_the_options_as_the_game_was_made_with_them() -> None:
    rules = Rules(reserve_size=12, lenient_turn=True)
    game = Game(CLEAN, rules)
    assert '[Options "{\\"lenient_turn\\": true, \\"reserve_size\\": 12}"]' in game.export()
    assert '[Options "{\\"reserve_size\\": 13}"]' in game.export(options={"reserve_size": 13})
    assert "[Options" not in Game(CLEAN).export()


def test_it_reveals_the_deal_and_the_result_in_the_full_record_after_the_end() -> None:
    game = play_random(Plan(seed=3, rng_seed=3, classic=True, events=False))
    assert game.is_over
    record = game.full_record()
    assert record["seed"] == "3"
    assert record["start"] == to_document(deal(3))
    assert record["final"] == to_document(game.position)
    assert record["starter"] == game.letter(game.first_seat)
    assert record["status"] == game.status and record["ending"] == game.ending
    assert record["score"] == dict(zip("AB", game.score or [], strict=True))
    slips = [i for i, e in enumerate(game.entries) if isinstance(e, MoveEntry) and e.violation]
    assert [v["index"] for v in record["violations"]] == slips
    # A call opens the caller's turn: it names a move of the turn before.
    called = set()
    for j, call in enumerate(game.entries):
        if isinstance(call, StopCall):
            stopped_turn = [
                i
                for i, e in enumerate(game.entries)
                if isinstance(e, MoveEntry) and game.turn_of(i) == game.turn_of(j) - 1
            ]
            called.add(stopped_turn[call.move_number - 1])
    assert called
    assert {v["index"] for v in record["violations"] if v["called"]} == called
    json.dumps(record)  # every value is JSON


def test_R8_5_an_offer_ends_with_the_game_however_it_ends() -> None:
    game = Game(3, PRESETS["three-player"])
    game.offer_stalemate(2)
    game.resign(0)
    assert game.is_over and not game.stalemate_offer
