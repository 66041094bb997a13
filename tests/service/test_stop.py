"""Stop! by correspondence (RULES.md R7.1-R7.5) in ``classic`` games.

Each scenario finds a real deal where the violation can be made, plays the
offender's turn through the service (which accepts the slip silently), and has
the opponent call Stop!. Positions come from deals, not hand-built documents, so
every game also rebuilds from its seed and log.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template.loader import render_to_string
from django.urls import reverse

from games.engine import Position, call_stop, compulsory_moves, deal
from games.models import Challenge, Game, Notification, StopMode
from games.notify.notifications import notify
from games.notify.writing import email_context
from games.play import selectors
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from games.play.stops import call_stop_on
from games.play.store import engine_game
from lib.errors import ServiceError
from tests.stop_scenes import classic_game, deal_with, violations_of
from tests.stored import current_turn_of, entries_of, last_turn_of, position_of, replays

from .conftest import NEW_GAME_FORM, browser, client_for

pytestmark = pytest.mark.django_db


def assert_rebuilds(game: Game) -> None:
    game.refresh_from_db()
    assert replays(game)


def test_R7_4_a_referee_game_refuses_the_slip_and_has_no_stop(alice: User, bob: User) -> None:
    seed, moves = deal_with(["S2", "S2"])
    game = start_game(alice, bob, seed=seed)
    mover, other = (alice, bob) if game.to_move == "A" else (bob, alice)
    with pytest.raises(ServiceError) as refused:
        play_moves(game_id=game.pk, user=mover, moves=moves)
    assert refused.value.code == "S2"
    game.refresh_from_db()
    assert game.ply == 0
    with pytest.raises(ServiceError) as no_stop:
        call_stop_on(game_id=game.pk, user=other, move_number=1)
    assert no_stop.value.code == "STOP_NOT_IN_PLAY"


def test_R7_4_classic_accepts_the_slip_and_tells_nobody(alice: User, bob: User) -> None:
    game, offender, caller, moves = classic_game(alice, bob, ["S2", "S2"])
    assert game.ply == len(moves) and game.to_move == "AB"[game.seat_of(caller.pk) or 0]
    state = client_for(caller).get(f"/api/v1/games/{game.pk}/").json()
    assert state["can_call_stop"] is True
    assert "S2" not in str(state)  # the caller is not told the turn held a violation
    log = client_for(caller).get(f"/api/v1/games/{game.pk}/log/").json()["results"]
    assert log and all("violation" not in entry for entry in log)
    # The offender's own view says nothing either.
    assert "S2" not in str(client_for(offender).get(f"/api/v1/games/{game.pk}/").json())


def test_R7_2_S1_stopped_the_reserve_card_goes_to_the_foundation(alice: User, bob: User) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, ["S1", "S1"])
    before = position_of(game)
    offender_seat = 1 - (game.seat_of(caller.pk) or 0)
    reserve_top = deal(int(game.seed)).seats[offender_seat].reserve[-1]
    outcome = call_stop_on(game_id=game.pk, user=caller, move_number=1)
    assert outcome.violation == "S1" and outcome.correction.startswith("R-F")
    after = outcome.engine.position
    assert reserve_top in [f[-1] for f in after.foundations if f]
    assert after.to_move == game.seat_of(caller.pk)
    assert after.seats[offender_seat].turned is None and after != before
    assert_rebuilds(game)


def test_R7_2_S2_stopped_the_card_that_fitted_goes_to_the_foundation(
    alice: User, bob: User
) -> None:
    game, offender, caller, _moves = classic_game(alice, bob, ["S2", "S2"])
    outcome = call_stop_on(game_id=game.pk, user=caller, move_number=1)
    assert outcome.violation == "S2"
    assert outcome.correction.startswith("H") and "-F" in outcome.correction
    game.refresh_from_db()
    last = last_turn_of(game)
    assert last["stopped"] == 1 and last["correction"] == outcome.correction
    assert current_turn_of(game) == [] and game.to_move == "AB"[game.seat_of(caller.pk) or 0]
    # The offender's turned card went back on the hand: the hand is as dealt.
    offender_seat = game.seat_of(offender.pk) or 0
    dealt = deal(int(game.seed)).seats[offender_seat]
    assert outcome.engine.position.seats[offender_seat].hand == dealt.hand
    assert_rebuilds(game)


def test_R7_3_a_discard_that_fitted_a_foundation_goes_there_instead(alice: User, bob: User) -> None:
    game, offender, caller, _moves = classic_game(alice, bob, [None, "S2"])
    offender_seat = game.seat_of(offender.pk) or 0
    turned = deal(int(game.seed)).seats[offender_seat].hand[-1]
    outcome = call_stop_on(game_id=game.pk, user=caller, move_number=2)
    assert outcome.correction.startswith("C-F")
    assert turned in [f[-1] for f in outcome.engine.position.foundations if f]
    assert outcome.engine.position.seats[offender_seat].waste == []
    assert_rebuilds(game)


def test_R7_2_S3_stopped_the_turned_card_goes_back_and_the_reserve_fills_the_space(
    alice: User, bob: User
) -> None:
    game, offender, caller, moves = classic_game(alice, bob, [None, "S3", None])
    offender_seat = game.seat_of(offender.pk) or 0
    dealt = deal(int(game.seed)).seats[offender_seat]
    outcome = call_stop_on(game_id=game.pk, user=caller, move_number=2)
    assert outcome.violation == "S3" and outcome.correction.startswith("R-H")
    seat = outcome.engine.position.seats[offender_seat]
    assert seat.hand == dealt.hand and seat.waste == []  # T and C-W undone
    emptied = int(moves[0].split("-")[0][1:]) - 1
    assert outcome.engine.position.houses[emptied] == [dealt.reserve[-1]]
    assert_rebuilds(game)


def test_R7_2_the_caller_chooses_among_several_compulsory_moves(alice: User, bob: User) -> None:
    game, _offender, caller, moves = classic_game(alice, bob, ["S2", "S2"])
    dealt = deal(int(game.seed))
    options = [str(m) for m in compulsory_moves(dealt, "S2", dealt.parse(moves[0]))]
    assert len(options) > 1  # this deal's first turn had a choice of foundation moves
    with pytest.raises(ServiceError) as unreadable:
        call_stop_on(game_id=game.pk, user=caller, move_number=1, choice="H9-F1")
    assert unreadable.value.code == "BAD_NOTATION"
    outcome = call_stop_on(game_id=game.pk, user=caller, move_number=1, choice=options[-1])
    assert outcome.correction == options[-1]
    assert_rebuilds(game)


def test_a_choice_that_is_not_compulsory_reveals_nothing(alice: User, bob: User) -> None:
    """Answers depend only on the verdict: a wrong call with any choice is a wrong call,
    a right one with a move that was not compulsory carries out the first that was."""
    game, _offender, caller, _moves = classic_game(alice, bob, [None, "S2"])
    with pytest.raises(ServiceError) as wrong:
        call_stop_on(game_id=game.pk, user=caller, move_number=1, choice="T")
    assert wrong.value.code == "WRONG_STOP"
    outcome = call_stop_on(game_id=game.pk, user=caller, move_number=2, choice="T")
    assert outcome.correction.startswith("C-F")
    assert_rebuilds(game)


def test_the_offender_is_emailed_which_move_was_stopped_and_why(alice: User, bob: User) -> None:
    game, offender, caller, _moves = classic_game(alice, bob, ["S2", "S2"])
    call_stop_on(game_id=game.pk, user=caller, move_number=2)
    row = Notification.objects.get(kind="stop_called")
    assert row.user == offender
    assert row.context["move_number"] == 2 and row.context["move"] == "C-W"
    assert row.context["code"] == "S2" and row.context["reason"]
    assert not Notification.objects.filter(kind="stop_called", user=caller).exists()


def test_R7_4_a_call_after_the_callers_first_move_is_too_late(alice: User, bob: User) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, ["S2", "S2"])
    position = position_of(game)
    first = str(position.legal_moves()[0])
    play_moves(game_id=game.pk, user=caller, moves=[first])
    with pytest.raises(ServiceError) as late:
        call_stop_on(game_id=game.pk, user=caller, move_number=1)
    assert late.value.code == "STOP_TOO_LATE"
    game.refresh_from_db()
    assert current_turn_of(game) == [first]  # nothing changed


def test_R7_4_the_offender_cannot_stop_and_a_turn_is_stopped_once(alice: User, bob: User) -> None:
    game, offender, caller, moves = classic_game(alice, bob, ["S2", "S2"])
    with pytest.raises(ServiceError) as not_yours:
        call_stop_on(game_id=game.pk, user=offender, move_number=1)
    assert not_yours.value.code == "NOT_YOUR_TURN"
    with pytest.raises(ServiceError) as out_of_range:
        call_stop_on(game_id=game.pk, user=caller, move_number=len(moves) + 1)
    assert out_of_range.value.status == 409
    call_stop_on(game_id=game.pk, user=caller, move_number=1)
    with pytest.raises(ServiceError) as again:
        call_stop_on(game_id=game.pk, user=caller, move_number=2)
    assert again.value.code == "NOTHING_TO_STOP"


def test_R7_5_every_third_wrong_call_costs_the_caller_the_turn(alice: User, bob: User) -> None:
    game, offender, caller, _moves = classic_game(alice, bob, [None, "S3", None])
    codes = []
    for _ in range(3):
        with pytest.raises(ServiceError) as wrong:
            call_stop_on(game_id=game.pk, user=caller, move_number=1)  # move 1 was clean
        codes.append((wrong.value.code, wrong.value.extra["turn_lost"]))
    assert codes == [("WRONG_STOP", False), ("WRONG_STOP", False), ("WRONG_STOP", True)]
    game.refresh_from_db()
    caller_letter = "AB"[game.seat_of(caller.pk) or 0]
    assert game.wrong_calls == {caller_letter: 3}
    assert game.to_move != caller_letter  # the turn went back to the offender
    assert entries_of(game)[-1] == "loses-turn"
    assert Notification.objects.filter(kind="your_turn", user=offender).exists()
    # The violation nobody called stands; the game rebuilds from its log.
    assert_rebuilds(game)


def test_a_stop_by_the_api_and_a_wrong_call_by_the_api(alice: User, bob: User) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, [None, "S2"])
    api = client_for(caller)
    wrong = api.post(f"/api/v1/games/{game.pk}/stop/", {"move": 1}, format="json")
    assert wrong.status_code == 409
    assert wrong.json()["error"] == "WRONG_STOP" and wrong.json()["wrong_calls"] == 1
    stale = api.post(
        f"/api/v1/games/{game.pk}/stop/", {"move": 2, "expected_version": 1}, format="json"
    )
    assert stale.status_code == 412
    for bad in ({"move": 0}, {"move": "two"}, {}, {"move": 2, "choice": "X" * 40}):
        assert api.post(f"/api/v1/games/{game.pk}/stop/", bad, format="json").status_code == 400
    stranger = User.objects.create_user("charlie")
    assert (
        client_for(stranger)
        .post(f"/api/v1/games/{game.pk}/stop/", {"move": 2}, format="json")
        .status_code
        == 404
    )
    ok = api.post(f"/api/v1/games/{game.pk}/stop/", {"move": 2}, format="json")
    assert ok.status_code == 200
    body = ok.json()
    assert body["last_turn"]["stopped"] == 2 and body["your_turn"] is True
    assert body["can_call_stop"] is False and body["wrong_calls"][body["seat"]] == 1


def test_the_record_shows_every_violation_once_the_game_is_over(alice: User, bob: User) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, ["S2", "S2"])
    call_stop_on(game_id=game.pk, user=caller, move_number=2)  # move 1 is never called
    resign(game_id=game.pk, user=caller)
    game.refresh_from_db()
    record = selectors.game_record(game)
    assert [(v["index"], v["violation"], v["called"]) for v in record["violations"]] == [
        (0, "S2", False),
        (1, "S2", True),
    ]
    assert record["stop_mode"] == "classic"
    export = selectors.export_game(game)
    assert "(stop:2:" in export
    assert_rebuilds(game)


@pytest.mark.django_db(transaction=True)
def test_two_racing_calls_stop_the_turn_once() -> None:
    alice = User.objects.create_user("alice", password="pw-alice-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    game, _offender, caller, _moves = classic_game(alice, bob, ["S2", "S2"])
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def call(number: int) -> None:
        try:
            barrier.wait()
            call_stop_on(game_id=game.pk, user=caller, move_number=number)
            outcomes.append("stopped")
        except ServiceError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=call, args=(n,)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(map(str, outcomes)) == ["NOTHING_TO_STOP", "stopped"]
    game.refresh_from_db()
    assert sum(entry.startswith("stop ") for entry in entries_of(game)) == 1
    assert_rebuilds(game)


def test_the_game_page_offers_stop_on_each_move_to_the_caller_only(alice: User, bob: User) -> None:
    game, offender, caller, moves = classic_game(alice, bob, [None, "S2"])
    page = browser(caller).get(reverse("game", args=[game.pk])).content.decode()
    for number, move in enumerate(moves, 1):
        assert f'aria-label="Stop! on move {number}, {move}"' in page
    assert "classic" in page
    assert (
        'class="stop"'
        not in browser(offender).get(reverse("game", args=[game.pk])).content.decode()
    )
    # A wrong call by the page: refused in words, the count shown, nothing undone.
    refused = browser(caller).post(
        reverse("game-stop", args=[game.pk]), {"move": "1", "version": str(game.version)}
    )
    assert refused.status_code == 409
    text = refused.content.decode()
    assert "broke no rule" in text and "you have made 1" in text
    game.refresh_from_db()
    done = browser(caller).post(
        reverse("game-stop", args=[game.pk]),
        {"move": "2", "version": str(game.version)},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert done.status_code == 200 and "X-Refused" not in done
    fragment = done.content.decode()
    assert 'id="stopped"' in fragment and "Stop! was called on move 2" in fragment
    assert 'class="stop"' not in fragment  # one call per turn


@pytest.mark.parametrize("raw", ["", "x", "-1", "٣", "9999", "0"])
def test_a_malformed_stop_from_the_page_changes_nothing(alice: User, bob: User, raw: str) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, [None, "S2"])
    version = game.version
    response = browser(caller).post(reverse("game-stop", args=[game.pk]), {"move": raw})
    assert response.status_code == (409 if raw == "0" else 400)  # move 0: no such move, 409
    game.refresh_from_db()
    assert game.version == version and game.wrong_calls == {}


def test_a_refereed_game_page_has_no_stop_button(alice: User, bob: User, game: Game) -> None:
    mover, other = (alice, bob) if game.to_move == "A" else (bob, alice)
    position = position_of(game)
    turn: list[str] = []
    while position.turns == 0:
        legal = [str(m) for m in position.legal_moves()]
        move = next((m for m in ("C-W", "T") if m in legal), legal[0])
        position.play(move)
        turn.append(move)
    play_moves(game_id=game.pk, user=mover, moves=turn)
    page = browser(other).get(reverse("game", args=[game.pk])).content.decode()
    assert "last turn" in page and 'class="stop"' not in page and "refereed" in page


def test_the_new_game_form_makes_a_classic_challenge(alice: User, bob: User) -> None:
    response = browser(alice).post(
        reverse("challenge-new"),
        {**NEW_GAME_FORM, "stop_mode": "classic"},
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert challenge.stop_mode == "classic"
    accept = browser(bob).post(reverse("challenge-accept", args=[challenge.pk]))
    assert accept.status_code == 302
    assert Game.objects.get().stop_mode == "classic"


def test_emails_say_which_rules_a_game_uses(alice: User, bob: User) -> None:
    _game, _offender, caller, _moves = classic_game(alice, bob, [None, "S2"])
    row = Notification.objects.filter(kind="your_turn", user=caller).latest("pk")
    body = render_to_string("emails/your_turn-body.txt", email_context(row))
    assert "Rules: Standard (pagat.com), classic: you may call Stop!" in body


def test_R7_4_the_turn_email_offers_stop_when_the_engine_says_the_window_is_open(
    alice: User, bob: User
) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, [None, "S2"])
    row = Notification.objects.filter(kind="your_turn", user=caller).latest("pk")
    assert engine_game(game).can_call_stop(game.letters.index(game.to_move))
    assert email_context(row)["stop_window"] is True
    fresh = start_game(alice, bob, seed=1, stop_mode=StopMode.CLASSIC)
    mover = alice if fresh.to_move == "A" else bob
    first = notify("your_turn", user=mover, game=fresh, last_turn=[], first_turn=True)
    assert first is not None
    assert email_context(first)["stop_window"] is False  # the first turn: nothing to stop
    call_stop_on(game_id=game.pk, user=caller, move_number=2)
    # Stopped before the e-mail went: the window is closed, and the e-mail says so.
    assert email_context(Notification.objects.get(pk=row.pk))["stop_window"] is False


@pytest.mark.parametrize("template", ["emails/your_turn-body.txt", "emails/your_turn-body.html"])
def test_R7_4_the_turn_email_words_the_window_it_is_given(
    alice: User, bob: User, template: str
) -> None:
    """The template decides nothing: the sentence follows ``stop_window`` alone."""
    game, *_ = classic_game(alice, bob, [None, "S2"])
    for first_turn, lost_turn in ((True, False), (False, True), (False, False)):
        context = {"game": game, "first_turn": first_turn, "lost_turn": lost_turn}
        offered = render_to_string(template, {**context, "stop_window": True})
        assert "you may call Stop!" in offered
        closed = render_to_string(template, {**context, "stop_window": False})
        assert "you may call Stop!" not in closed and "classic." in closed


def test_the_replay_marks_violations_only_once_the_game_is_over(alice: User, bob: User) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, ["S2", "S2"])
    replay = reverse("game-replay", args=[game.pk])
    assert "⚠" not in browser(caller).get(replay).content.decode()
    resign(game_id=game.pk, user=caller)
    page = browser(caller).get(replay).content.decode()
    assert page.count('class="violation"') == 2 and "⚠ S2" in page


@pytest.mark.parametrize("mode", [StopMode.CLASSIC, StopMode.REFEREE])
def test_a_classic_page_lets_a_player_turn_past_a_compulsory_move(
    alice: User, bob: User, mode: str
) -> None:
    seed, _moves = deal_with(["S2", "S2"])  # an available card fits a foundation
    game = start_game(alice, bob, seed=seed, stop_mode=mode)
    mover = alice if game.to_move == "A" else bob
    page = browser(mover).get(reverse("game", args=[game.pk])).content.decode()
    turn_button = page.split('value="T"', 1)[1].split(">", 1)[0]
    assert ("disabled" in turn_button) == (mode == StopMode.REFEREE)


SLIP = ["T", "C-W"]  # turn and discard while a card fits a foundation: S2, S2


def slips(position: Position, moves: list[str]) -> bool:
    codes = violations_of(position, moves)
    return bool(codes) and codes[0] is not None  # type: ignore[index]


def test_a_stop_after_a_stop_marks_both_stopped_moves_in_the_record(alice: User, bob: User) -> None:
    """Each turn after a successful call begins with the call's log entry; the record
    still names the right moves."""
    seed = next(
        seed
        for seed in range(1, 3000)
        if slips(deal(seed), SLIP)
        and slips(call_stop(deal(seed), [deal(seed).parse(m) for m in SLIP], 0), SLIP)
    )
    game = start_game(alice, bob, seed=seed, stop_mode=StopMode.CLASSIC)
    first, second = (alice, bob) if game.to_move == "A" else (bob, alice)
    play_moves(game_id=game.pk, user=first, moves=SLIP)
    call_stop_on(game_id=game.pk, user=second, move_number=1)
    play_moves(game_id=game.pk, user=second, moves=SLIP)
    call_stop_on(game_id=game.pk, user=first, move_number=1)
    assert_rebuilds(game)
    resign(game_id=game.pk, user=first)
    game.refresh_from_db()
    log = selectors.move_log(engine_game(game))
    assert [entry["move"] for entry in log[:2]] == SLIP
    assert log[2]["move"].startswith("stop 1 ") and log[3]["move"] == "T"
    record = selectors.game_record(game)
    assert {v["index"] for v in record["violations"] if v["called"]} == {0, 3}
    assert all(not v["move"].startswith("stop ") for v in record["violations"])


def test_a_lost_turn_is_told_and_exported_in_its_own_turn(alice: User, bob: User) -> None:
    game, offender, caller, moves = classic_game(alice, bob, [None, "S3", None])
    for _ in range(3):
        with pytest.raises(ServiceError):
            call_stop_on(game_id=game.pk, user=caller, move_number=1)
    game.refresh_from_db()
    state = client_for(offender).get(f"/api/v1/games/{game.pk}/").json()
    assert state["last_turn"]["lost"] is True and state["your_turn"] is True
    row = Notification.objects.filter(kind="your_turn", user=offender).latest("pk")
    body = render_to_string("emails/your_turn-body.txt", email_context(row))
    assert "third wrong Stop! call" in body and "call Stop! on one of these" not in body
    lines = selectors.export_game(game).splitlines()
    caller_letter = "AB"[game.seat_of(caller.pk) or 0]
    assert f"2 {caller_letter}: (loses-turn)" in lines
    offender_letter = "AB"[game.seat_of(offender.pk) or 0]
    assert f"1 {offender_letter}: {' '.join(moves)}" in lines
