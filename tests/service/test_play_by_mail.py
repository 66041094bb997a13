"""Play by mail through the services: replies stored, checked, acted on once and
answered, e-mails received by a real SMTP server (the receiver process and a real
worker: test_mail_game.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.db import DatabaseError
from django.utils import timezone

from accounts.services import mail_bounced, profile_of, update_profile
from games.engine import Game as EngineGame
from games.models import Game, Message, Notification
from games.notify.mail_play import (
    BounceAddress,
    ReplyAddress,
    pile_names,
    read_address,
    set_play_by_mail,
)
from games.notify.notifications import SEND_NOTIFICATION
from games.notify.writing import build_message
from games.play.dealing import announce, start_game
from games.play.store import engine_game
from lib import outbox
from mailplay.commands import NOT_A_MOVE, Moves, Stop, Unreadable, Word, read_command
from mailplay.handling import UNREADABLE_ANSWERS, handle, sweep
from mailplay.models import InboundMail
from mailplay.reading import new_text, parse, recipients_of
from mailplay.receiving import STORED, over_the_limit, receive
from tests.stop_scenes import classic_game

from .conftest import browser, client_for, mover_and_other, play_turn, whole_turn
from .mailbox import delivery_report, plain, reply
from .smtp import Inbox, smtp_inbox, text_of

pytestmark = pytest.mark.django_db
__all__ = ["smtp_inbox"]

Outcome = InboundMail.Outcome


@pytest.fixture
def by_mail(alice: User, bob: User) -> None:
    """Alice and bob play by mail, from their verified addresses."""
    for user in (alice, bob):
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        update_profile(user, {"play_by_mail": True})


def deliver(run: Callable[..., Any], raw: bytes, envelope_from: str = "x@example.com") -> Any:
    """``raw`` as the SMTP receiver takes it: stored, then handled by the (eager) task."""
    to = [address for address in _addresses(raw)]
    return run(receive, raw, source="smtp", envelope_from=envelope_from, envelope_to=to)


def _addresses(raw: bytes) -> list[str]:
    return list(recipients_of(parse(raw), []))


def engine(game: Game) -> EngineGame:
    game.refresh_from_db()
    return engine_game(game)


def turn_mail(inbox: Inbox, user: User) -> EmailMessage:
    """The last e-mail ``user`` got that has a reply address of play by mail."""
    found = [m for m in inbox.to(user.email) if m["Reply-To"]]
    assert found, f"no play-by-mail e-mail to {user}"
    return found[-1]


@pytest.fixture
def started(
    game: Game, alice: User, bob: User, by_mail: None, smtp_inbox: Inbox, run: Callable[..., Any]
) -> tuple[Game, User, User]:
    """A game whose mover has had their "your turn" e-mail: the opponent's turn played."""
    run(play_turn, game, alice, bob)
    mover, other = mover_and_other(game, alice, bob)
    return game, mover, other


def test_it_sends_the_board_the_legal_moves_and_a_signed_reply_address(
    started: tuple[Game, User, User], smtp_inbox: Inbox
) -> None:
    game, mover, _ = started
    message = turn_mail(smtp_inbox, mover)
    body = text_of(message).replace("\r\n", "\n")
    address = read_address(str(message["Reply-To"]))
    seat = game.letters[game.seat_of(mover.pk) or 0]
    assert address == ReplyAddress(game.pk, seat, game.version)
    legal = sorted(str(m) for m in engine(game).legal_moves(game.seat_of(mover.pk) or 0))
    menu = body.split("Your first move, one of: ")[1].split("\n\n")[0]
    assert " ".join(menu.split()).split(", ") == legal
    assert max(len(line) for line in menu.splitlines()) <= 72
    assert "R-H3 puts your reserve's top card on\nhouse H3" in body  # the notation, in short
    assert "H1-H8 the\nhouses, F1-F8 the foundations" in body
    assert str(message["Auto-Submitted"]) == "auto-generated"
    assert "bounce+" in str(message["Return-Path"] or "") or smtp_inbox.messages  # envelope


def test_the_moves_read_as_a_list_to_choose_from_and_each_pile_name_is_explained(
    alice: User, bob: User, by_mail: None, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    """Seed 3's first mover may load the opponent's reserve (H2-OR): the e-mail lists
    the moves as a choice, not as a line to send, and says what OR is."""
    game = start_game(alice, bob, seed=3)
    run(announce, game)
    mover = game.user_at(game.letters.index(game.to_move))
    email = turn_mail(smtp_inbox, mover)
    body = " ".join(text_of(email).split())
    assert "Your first move, one of: H2-H5, H2-OR, H7-H5, T" in body
    assert "In these moves: OR your opponent's reserve (in their moves: yours)." in body
    html = email.get_body(preferencelist=("html",))
    assert html is not None and "<code>OR</code> your opponent" in str(html.get_content())
    assert pile_names(["C-OR2", "H1-OW", "TR", "E", "R-H3"], seats=3) == [
        ("OW", "the waste of the next player in turn"),
        ("OR2", "the reserve of the player after next"),
        ("TR", "turns the top card of your face-down stock"),
        ("E", "ends a turn with neither hand nor waste cards"),
    ]


def test_a_player_who_wants_notices_gets_no_menu_and_no_reply_address(
    game: Game, alice: User, bob: User, by_mail: None, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    update_profile(waiting, {"play_by_mail": False})
    run(play_turn, game, alice, bob)
    (message,) = smtp_inbox.to(waiting.email)
    assert message["Reply-To"] is None and "Your first move, one of:" not in text_of(message)
    # ... unless this one game says otherwise.
    assert set_play_by_mail(game_id=game.pk, user=waiting, play_by_mail=True)
    run(play_turn, game, alice, bob)
    run(play_turn, game, alice, bob)
    assert smtp_inbox.to(waiting.email)[-1]["Reply-To"] is not None


def test_an_unverified_address_gets_no_menu(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    update_profile(waiting, {"play_by_mail": True})  # but no verified address
    run(play_turn, game, alice, bob)
    (message,) = smtp_inbox.to(waiting.email)
    assert message["Reply-To"] is None


def test_a_reply_plays_the_moves_and_answers_with_whose_turn_it_is(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, other = started
    moves = whole_turn(game)
    receipt = deliver(run, reply(turn_mail(smtp_inbox, mover), " ".join(moves)))
    assert receipt.status == STORED
    row = InboundMail.objects.get()
    assert (row.status, row.outcome, row.user, row.game) == ("done", Outcome.PLAYED, mover, game)
    assert (
        engine(game).last_turn is not None
        and [
            str(m)
            for m in engine(game).last_turn.moves  # type: ignore[union-attr]
        ]
        == moves
    )
    answer = [m for m in smtp_inbox.to(mover.email) if "Re: " in str(m["Subject"])][-1]
    body = text_of(answer)
    assert f"Played in game {game.pk}: {' '.join(moves)}" in body
    assert f"It is {other.username}'s turn now" in body
    assert str(answer["In-Reply-To"]).strip().strip("<>") == row.message_id
    assert str(answer["Auto-Submitted"]) == "auto-replied"
    # The opponent is told, as after a move on the site, with their own menu.
    assert "Your first move, one of:" in text_of(turn_mail(smtp_inbox, other))


def test_the_handling_sends_the_answer_itself_and_queues_only_the_opponents_email(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The answer is what the player waits for: sent by the worker that handled the
    reply, right after its commit, never queued behind a burst of other replies'
    tasks (a second hop through the broker)."""
    game, mover, other = started
    queued: list[tuple[str, int]] = []
    queue = outbox.dispatch

    def dispatch(task: str, pk: int, **kwargs: Any) -> bool:
        if task != SEND_NOTIFICATION:
            return queue(task, pk, **kwargs)  # the reply's own handling
        queued.append((task, pk))
        return True

    monkeypatch.setattr("lib.outbox.dispatch", dispatch)
    deliver(run, reply(turn_mail(smtp_inbox, mover), " ".join(whole_turn(game))))
    answer = Notification.objects.get(kind="mail_answer")
    assert answer.status == "sent" and answer.attempts == 1
    assert [m for m in smtp_inbox.to(mover.email) if "Re: " in str(m["Subject"])]
    turn = Notification.objects.filter(kind="your_turn", user=other).latest("pk")
    assert queued == [("games.tasks.send_notification", turn.pk)]


def test_a_part_of_a_turn_answers_with_the_moves_now_and_a_fresh_address(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    first = whole_turn(game)[0]
    deliver(run, reply(turn_mail(smtp_inbox, mover), first.lower()))
    answer = turn_mail(smtp_inbox, mover)
    game.refresh_from_db()
    assert read_address(str(answer["Reply-To"])) == ReplyAddress(
        game.pk, game.to_move, game.version
    )
    assert "Your first move, one of:" in text_of(answer)
    assert f"Played in game {game.pk}: {first}" in text_of(answer)


def test_a_line_mixing_legal_and_illegal_moves_plays_nothing_and_says_why(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    before = (game.version, engine(game).entry_count)
    legal = whole_turn(game)[0]
    deliver(run, reply(turn_mail(smtp_inbox, mover), f"{legal} H1-H1"))
    game.refresh_from_db()
    assert (game.version, engine(game).entry_count) == before
    row = InboundMail.objects.get()
    assert row.outcome == Outcome.REFUSED
    body = text_of(turn_mail(smtp_inbox, mover))
    assert "Nothing was played" in body and "H1-H1 (move 2 of your line) is refused" in body
    assert f"Your line: {legal} H1-H1" in body and "Your first move, one of:" in body


def test_a_reply_to_an_old_email_plays_nothing_and_says_the_game_moved_on(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    old = turn_mail(smtp_inbox, mover)
    first = whole_turn(game)[0]
    deliver(run, reply(old, first))
    before = engine(game).entry_count
    deliver(run, reply(old, whole_turn(game)[0]))  # the same e-mail answered again
    assert engine(game).entry_count == before
    assert InboundMail.objects.order_by("pk").last().outcome == Outcome.STALE  # type: ignore[union-attr]
    assert "has moved on since the e-mail you answered" in text_of(turn_mail(smtp_inbox, mover))


def test_the_same_message_delivered_twice_is_acted_on_once(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    raw = reply(turn_mail(smtp_inbox, mover), whole_turn(game)[0])
    deliver(run, raw)
    after = engine(game).entry_count
    answers = len(smtp_inbox.to(mover.email))
    assert deliver(run, raw).status == "duplicate"
    # A relay's copy: the same message with one more Received header.
    deliver(
        run, b"Received: from relay.example.net by mx; Tue, 24 Nov 2026 10:13:00 +0000\r\n" + raw
    )
    assert engine(game).entry_count == after and len(smtp_inbox.to(mover.email)) == answers
    row = InboundMail.objects.get()
    assert row.duplicates == 2
    assert handle(row.pk) == ""  # a redelivered task finds it done


def test_a_forged_sender_changes_nothing_and_is_not_answered(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    version = game.version
    email = turn_mail(smtp_inbox, mover)
    sent = len(smtp_inbox.messages)
    for _ in range(3):
        deliver(run, reply(email, whole_turn(game)[0], sender="victim@example.org"))
    game.refresh_from_db()
    assert game.version == version
    assert {r.outcome for r in InboundMail.objects.all()} == {Outcome.WRONG_SENDER}
    # The address is nobody's here: writing to it would make this server a spammer's.
    assert len(smtp_inbox.messages) == sent


def test_another_player_who_answers_a_game_e_mail_is_told_once_a_day(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any], charlie: User
) -> None:
    game, mover, _ = started
    EmailAddress.objects.create(user=charlie, email=charlie.email, verified=True)
    email = turn_mail(smtp_inbox, mover)
    for _ in range(3):
        deliver(run, reply(email, "resign", sender=charlie.email))
    game.refresh_from_db()
    assert game.status == "playing"
    (answer,) = smtp_inbox.to(charlie.email)
    assert "Nothing was played" in text_of(answer) and answer["Reply-To"] is None
    assert str(answer["Subject"]) == f"Nothing was played in game {game.pk}"
    assert str(answer["Auto-Submitted"]) == "auto-replied"


def test_an_unverified_second_address_of_the_player_is_a_stranger(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    EmailAddress.objects.create(user=mover, email="work@example.com", verified=False)
    deliver(run, reply(turn_mail(smtp_inbox, mover), "resign", sender="work@example.com"))
    assert InboundMail.objects.get().outcome == Outcome.WRONG_SENDER
    game.refresh_from_db()
    assert game.status == "playing"


def test_a_tampered_address_changes_nothing_and_is_not_answered(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    address = str(email["Reply-To"])
    version = game.version
    sent = len(smtp_inbox.messages)
    other_game = address.replace(f"play+{game.pk}.", f"play+{game.pk + 1}.")
    older = address.replace(f".{version}.", f".{version - 1}.")
    for forged in (other_game, older, address.replace(address.split(".")[-2][-4:], "aaaa")):
        assert forged != address
        deliver(run, reply(email, "resign", to=forged))
    game.refresh_from_db()
    assert game.version == version and game.status == "playing"
    assert {r.outcome for r in InboundMail.objects.all()} == {Outcome.TAMPERED}
    assert len(smtp_inbox.messages) == sent


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"X-Autoreply": "yes"},
        {"Precedence": "bulk"},
        {"From": "MAILER-DAEMON@mx.example.net"},
    ],
)
def test_an_auto_reply_is_recorded_and_never_answered(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    headers: dict[str, str],
) -> None:
    game, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    sent = len(smtp_inbox.messages)
    version = game.version
    raw = reply(email, "I am out of the office until Monday.\nresign", headers=headers)
    if "From" in headers:
        raw = raw.replace(f"From: {mover.email}".encode(), f"From: {headers['From']}".encode(), 1)
        raw = raw.replace(f"\nFrom: {headers['From']}\n".encode(), b"\n", 1)
    deliver(run, raw)
    assert InboundMail.objects.get().outcome == Outcome.AUTOMATIC
    game.refresh_from_db()
    assert game.version == version and len(smtp_inbox.messages) == sent


def test_an_out_of_office_from_outlook_in_german_is_not_answered(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    _, mover, _ = started
    sent = len(smtp_inbox.messages)
    raw = plain(
        mover.email,
        str(turn_mail(smtp_inbox, mover)["Reply-To"]),
        "Ich bin bis Montag nicht im Büro.",
        subject="Automatische Antwort: Your turn",
        Auto_Submitted="auto-generated",
        X_Auto_Response_Suppress="All",
    )
    deliver(run, raw)
    assert InboundMail.objects.get().outcome == Outcome.AUTOMATIC
    assert len(smtp_inbox.messages) == sent


def test_a_bounce_marks_the_address_failing_and_the_outbox_stops_sending_there(
    started: tuple[Game, User, User],
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    run: Callable[..., Any],
) -> None:
    game, mover, _ = started
    row = Notification.objects.filter(user=mover, kind="your_turn").latest("pk")
    bounce_to = str(BounceAddress(row.pk))
    deliver(run, delivery_report(mover.email, bounce_to), envelope_from="")
    inbound = InboundMail.objects.get()
    assert inbound.outcome == Outcome.BOUNCE and "permanent" in inbound.detail
    profile = profile_of(mover)
    assert profile.bounced_at is not None and "5.1.1" in profile.bounce_reason
    sent = len(smtp_inbox.to(mover.email))
    run(play_turn, game, alice, bob)  # the mover plays on the site ...
    run(play_turn, game, alice, bob)  # ... and the other too: the mover's turn again
    assert len(smtp_inbox.to(mover.email)) == sent
    assert Notification.objects.filter(user=mover).latest("pk").status == "failed"


def test_a_temporary_delivery_report_marks_nothing(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    _, mover, _ = started
    row = Notification.objects.filter(user=mover, kind="your_turn").latest("pk")
    raw = delivery_report(mover.email, str(BounceAddress(row.pk)), status="4.2.2", action="delayed")
    deliver(run, raw, envelope_from="")
    assert InboundMail.objects.get().outcome == Outcome.BOUNCE
    assert profile_of(mover).bounced_at is None


@pytest.mark.parametrize(
    ("style", "signature"),
    [
        ("gmail-fr", "Marie Dupont\nEnvoyé de mon iPhone"),
        ("thunderbird-fr", "Cordialement,\nMarie"),
        ("outlook-fr", ""),
        ("gmail-de", "Mit freundlichen Grüßen\nHans Müller"),
        ("apple-de", "Von meinem iPhone gesendet"),
        ("outlook-de", "Viele Grüße, Hans"),
    ],
)
def test_only_the_new_text_is_read_whatever_the_quoting_and_signature(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    style: str,
    signature: str,
) -> None:
    game, mover, _ = started
    moves = whole_turn(game)
    email = turn_mail(smtp_inbox, mover)
    # The quoted e-mail holds the whole menu (moves, "resign", "stop 3"...): none of it is read.
    deliver(run, reply(email, " ".join(moves), style=style, signature=signature))
    assert InboundMail.objects.get().outcome == Outcome.PLAYED
    assert [str(m) for m in engine(game).last_turn.moves] == moves  # type: ignore[union-attr]


def answer_to(inbox: Inbox, user: User) -> str:
    """The text of the last answer to one of ``user``'s replies."""
    answer = [m for m in inbox.to(user.email) if "Re: " in str(m["Subject"])][-1]
    return text_of(answer).replace("\r\n", "\n")


@pytest.mark.parametrize("lines", [60, 2])
def test_quoted_lines_without_an_attribution_are_never_read(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any], lines: int
) -> None:
    """A mail program that quotes with "> " but writes no "On ... wrote:" line: the quote
    is neither the message (a long one would refuse the moves) nor table talk."""
    game, mover, _ = started
    moves = whole_turn(game)
    email = turn_mail(smtp_inbox, mover)
    quote = "\n".join(f"> {line}" for line in text_of(email).splitlines()[:lines])
    raw = plain(mover.email, str(email["Reply-To"]), " ".join(moves) + "\n\n" + quote)
    deliver(run, raw)
    row = InboundMail.objects.get()
    assert row.outcome == Outcome.PLAYED, row.detail
    assert not Message.objects.exists()
    answer = answer_to(smtp_inbox, mover)
    assert "The e-mail you quoted was not read." in answer
    assert "Your message went with your moves" not in answer


@pytest.mark.parametrize(
    "message", ["Thanks, great game!", "Grüße aus Köln, bis morgen", "Best, move ever"]
)
def test_a_message_that_opens_like_a_closing_goes_with_the_moves_and_is_shown(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any], message: str
) -> None:
    game, mover, _ = started
    moves = whole_turn(game)
    deliver(run, reply(turn_mail(smtp_inbox, mover), " ".join(moves) + "\n\n" + message))
    assert InboundMail.objects.get().outcome == Outcome.PLAYED
    assert Message.objects.get().text == message
    answer = answer_to(smtp_inbox, mover)
    assert f"Your message went with your moves:\n    {message}\n" in answer
    assert "signature" not in answer


def test_what_was_left_out_as_a_signature_is_said_in_the_answer(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    moves = whole_turn(game)
    text = " ".join(moves) + "\n\nGood luck with that one.\nViele Grüße\nHans"
    deliver(run, reply(turn_mail(smtp_inbox, mover), text, signature="Hans Müller\nACME"))
    assert Message.objects.get().text == "Good luck with that one."
    answer = answer_to(smtp_inbox, mover)
    assert "Your message went with your moves:\n    Good luck with that one.\n" in answer
    left_out = "Left out as your signature:\n    Viele Grüße\n    Hans\n\n    --\n    Hans Müller\n"
    assert left_out in answer
    assert "The e-mail you quoted was not read." in answer


def test_an_html_only_reply_is_read_as_text(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    moves = whole_turn(game)
    half = len(moves) // 2 or 1
    text = " ".join(moves[:half]) + "\n" + " ".join(moves[half:])  # two lines: <br> between
    deliver(run, reply(turn_mail(smtp_inbox, mover), text, html_only=True))
    assert InboundMail.objects.get().outcome == Outcome.PLAYED
    assert [str(m) for m in engine(game).last_turn.moves] == moves  # type: ignore[union-attr]


@pytest.mark.parametrize("charset", ["iso-8859-1", "windows-1252", "iso-8859-15", "utf-16"])
def test_a_reply_in_another_charset_is_read(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any], charset: str
) -> None:
    game, mover, _ = started
    first = whole_turn(game)[0]
    raw = reply(
        turn_mail(smtp_inbox, mover),
        f"{first}\n\nÀ bientôt, très chère partie !",
        style="gmail-fr",
        signature="Gérard",
        charset=charset,
    )
    assert b"\xe0" in raw or b"=E0" in raw or charset == "utf-16" or b"4A=" in raw
    deliver(run, raw)
    assert InboundMail.objects.get().outcome == Outcome.PLAYED
    assert str(engine(game).current_turn[0]) == first


def test_an_unknown_charset_is_read_as_utf8_not_refused(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    first = whole_turn(game)[0]
    raw = reply(turn_mail(smtp_inbox, mover), first).replace(b"utf-8", b"x-klingon", 1)
    deliver(run, raw)
    assert InboundMail.objects.get().outcome == Outcome.PLAYED


def test_help_and_unreadable_replies_answer_with_the_menu_and_play_nothing(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    version = game.version
    email = turn_mail(smtp_inbox, mover)
    deliver(run, reply(email, "help"))
    assert "How to play game" in text_of(turn_mail(smtp_inbox, mover))
    deliver(run, reply(email, "Good move! I'll think about it."))
    body = text_of(turn_mail(smtp_inbox, mover))
    assert "Nothing was played" in body and "'Good' is not a move in the notation" in body
    deliver(run, reply(email, "H99-F1"))  # another try, unreadable too: answered
    assert "'H99-F1' is not a move in the notation" in text_of(turn_mail(smtp_inbox, mover))
    game.refresh_from_db()
    assert game.version == version
    assert [r.outcome for r in InboundMail.objects.order_by("pk")] == [Outcome.HELP] * 3


def test_words_and_lines_that_are_not_commands() -> None:
    assert read_command("H99-F1") == Unreadable("'H99-F1' is not a move in the notation", "H99-F1")
    assert read_command("resign please") == Unreadable(
        "write resign alone on its line", "resign please"
    )
    # The moves go to the blank line; what follows is a message (docs/messages.md).
    assert read_command("r-h3, t\nc-w\n\nT") == Moves(("R-H3", "T", "C-W"), "T")
    assert read_command("Resign!") == Word("resign")


def test_resign_by_mail_ends_the_game_and_says_so(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _other = started
    deliver(run, reply(turn_mail(smtp_inbox, mover), "Resign"))
    game.refresh_from_db()
    assert game.status == "won" and game.forfeiter == game.letters[game.seat_of(mover.pk) or 0]
    body = text_of(turn_mail(smtp_inbox, mover))
    assert f"You resigned game {game.pk}" in body and "The game is over: you resigned" in body
    assert "Your first move, one of:" not in body


def test_a_stalemate_offered_and_declined_by_mail(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, other = started
    deliver(run, reply(turn_mail(smtp_inbox, mover), "stalemate"))
    game.refresh_from_db()
    assert game.stalemate_offer == game.letters[game.seat_of(mover.pk) or 0]
    offer = turn_mail(smtp_inbox, other)
    assert "offers to end game" in text_of(offer) and 'reply "accept" or "decline"' in text_of(
        offer
    )
    deliver(run, reply(offer, "decline"))
    game.refresh_from_db()
    assert game.stalemate_offer == "" and game.status == "playing"
    assert f"You declined the stalemate offer in game {game.pk}" in text_of(
        turn_mail(smtp_inbox, other)
    )


def test_a_stalemate_accepted_by_mail_ends_the_game(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, other = started
    deliver(run, reply(turn_mail(smtp_inbox, mover), "stalemate"))
    deliver(run, reply(turn_mail(smtp_inbox, other), "accept"))
    game.refresh_from_db()
    assert game.status == "stalemate" and game.ending == "agreed"


def test_stop_by_mail_in_a_classic_game(
    alice: User, bob: User, by_mail: None, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, _, caller, _moves = run(classic_game, alice, bob, [None, "S3", None])
    email = turn_mail(smtp_inbox, caller)
    assert "stop N" in text_of(email) and "2: T" in text_of(email)
    deliver(run, reply(email, "stop 2"))
    row = InboundMail.objects.get()
    assert row.outcome == Outcome.ACTED, row.detail
    body = text_of(turn_mail(smtp_inbox, caller))
    assert "Stop! on move 2 of their turn was right (S3)" in body
    assert "Your first move, one of:" in body
    game.refresh_from_db()
    assert game.to_move == game.letters[game.seat_of(caller.pk) or 0]


def test_a_wrong_stop_by_mail_is_refused_and_counted(
    alice: User, bob: User, by_mail: None, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, _, caller, _ = run(classic_game, alice, bob, [None, "S3", None])
    deliver(run, reply(turn_mail(smtp_inbox, caller), "stop 1"))  # move 1 was right
    assert InboundMail.objects.get().outcome == Outcome.REFUSED
    game.refresh_from_db()
    assert game.wrong_calls == {game.letters[game.seat_of(caller.pk) or 0]: 1}
    body = text_of(turn_mail(smtp_inbox, caller))
    assert "Your Stop! call (stop 1) was wrong" in body and "Nothing was played" not in body


def test_a_reply_when_it_is_not_your_turn_is_refused_with_whose_turn_it_is(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    _game, mover, other = started
    # The waiting player answers the stalemate e-mail with moves.
    deliver(run, reply(turn_mail(smtp_inbox, mover), "stalemate"))
    deliver(run, reply(turn_mail(smtp_inbox, other), "H1-F1"))
    row = InboundMail.objects.order_by("pk").last()
    assert row is not None and row.outcome == Outcome.REFUSED and "NOT_YOUR_TURN" in row.detail
    assert f"It is {mover.username}'s turn now" in text_of(turn_mail(smtp_inbox, other))


def test_a_sender_over_the_hourly_limit_is_not_stored_or_only_recorded(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any], settings: Any
) -> None:
    game, mover, _ = started
    settings.MAIL_RATE_PER_HOUR = 2
    email = turn_mail(smtp_inbox, mover)
    for _ in range(2):
        assert deliver(run, reply(email, "help")).status == STORED
    assert deliver(run, reply(email, "help")).status == "throttled"  # SMTP: try later
    # Counted by sender and reply address: a flood under the player's name leaves the
    # address of their next e-mail free.
    assert not over_the_limit(mover.email, str(ReplyAddress(game.pk, game.to_move, 99)))
    assert InboundMail.objects.count() == 2
    kept = run(
        receive,
        reply(email, "resign"),
        source="mailgun",
        envelope_from=None,
        envelope_to=[],
        keep_throttled=True,
    )
    assert kept.row.outcome == Outcome.THROTTLED and kept.row.status == "done"
    game.refresh_from_db()
    assert game.status == "playing"


def test_nothing_is_lost_when_the_broker_is_down_at_arrival(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, mover, _ = started
    raw = reply(turn_mail(smtp_inbox, mover), whole_turn(game)[0])
    # The broker is down: the task is never queued.
    monkeypatch.setattr("mailplay.receiving.dispatch_on_commit", lambda *args: None)
    receipt = deliver(run, raw)
    assert receipt.status == STORED and InboundMail.objects.get().status == "received"
    InboundMail.objects.update(next_attempt_at=timezone.now())
    assert run(sweep) == 1  # the minute sweep queues it
    assert InboundMail.objects.get().outcome == Outcome.PLAYED
    assert run(sweep) == 0


def test_a_worker_that_died_mid_reply_applied_nothing_and_the_next_applies_once(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, mover, _ = started
    first = whole_turn(game)[0]
    raw = reply(turn_mail(smtp_inbox, mover), first)
    monkeypatch.setattr("mailplay.receiving.dispatch_on_commit", lambda *args: None)
    deliver(run, raw)
    row = InboundMail.objects.get()
    before = engine(game).entry_count

    def dies(*args: Any, **kwargs: Any) -> None:
        raise DatabaseError("the worker's connection died")

    # The answer is written after the moves, in the same transaction: a death there
    # takes the moves back with it.
    monkeypatch.setattr("mailplay.handling.notify", dies)
    with pytest.raises(DatabaseError):
        handle(row.pk)
    assert engine(game).entry_count == before
    row.refresh_from_db()
    assert row.status == "handling"  # claimed: another worker waits for the lease
    monkeypatch.undo()
    assert handle(row.pk) == ""
    InboundMail.objects.update(next_attempt_at=timezone.now())  # the lease has run out
    assert run(handle, row.pk) == Outcome.PLAYED
    assert engine(game).entry_count == before + 1
    assert run(handle, row.pk) == ""
    row.refresh_from_db()
    assert row.attempts == 2


def test_a_message_that_breaks_the_handling_is_a_failed_attempt_tried_a_minute_later(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing of it applied, the error kept; then the one outbox's retries and giving
    up (tests/service/test_outbox_lib.py)."""
    game, mover, _ = started
    before = engine(game).entry_count
    monkeypatch.setattr("mailplay.handling.read_command", lambda text: 1 / 0)
    deliver(run, reply(turn_mail(smtp_inbox, mover), whole_turn(game)[0]))
    row = InboundMail.objects.get()
    assert (row.status, row.attempts, row.outcome) == ("received", 1, "")
    assert row.detail.startswith("ZeroDivisionError") and row.last_error == row.detail
    assert row.claimed_at is not None and row.next_attempt_at is not None
    assert timedelta(minutes=1) <= row.next_attempt_at - row.claimed_at < timedelta(minutes=2)
    assert engine(game).entry_count == before
    monkeypatch.undo()
    InboundMail.objects.update(next_attempt_at=timezone.now())
    assert run(sweep) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts, row.outcome) == ("done", 2, Outcome.PLAYED)


def test_the_api_chooses_play_by_mail_per_game_and_by_default(
    game: Game, alice: User, bob: User, by_mail: None
) -> None:
    api = client_for(alice)
    me = api.get("/api/v1/me/").json()
    assert me["play_by_mail"] is True
    assert api.patch("/api/v1/me/", {"play_by_mail": False}, format="json").status_code == 200
    assert profile_of(alice).play_by_mail is False
    url = f"/api/v1/games/{game.pk}/play-by-mail/"
    answer = api.put(url, {"play_by_mail": True}, format="json")
    assert answer.status_code == 200 and answer.json() == {
        "play_by_mail": True,
        "plays_by_mail": True,
    }
    answer = api.put(url, {"play_by_mail": None}, format="json")
    assert answer.json() == {"play_by_mail": None, "plays_by_mail": False}  # the preference
    assert api.put(url, {"play_by_mail": "yes please"}, format="json").status_code == 400
    assert client_for(bob).put(url, {"play_by_mail": True}, format="json").status_code == 200
    charlie = User.objects.create_user("charlie", "charlie@example.com", "pw-charlie-123")
    assert client_for(charlie).put(url, {"play_by_mail": True}, format="json").status_code == 404


def test_the_pages_choose_play_by_mail_per_game_and_by_default(
    game: Game, alice: User, bob: User
) -> None:
    page = browser(alice)
    html = page.get(f"/games/{game.pk}/").content.decode()
    assert "Play this game by e-mail" in html
    response = page.post(f"/games/{game.pk}/mail/", {"play_by_mail": "on"})
    assert response.status_code == 302
    html = page.get(f"/games/{game.pk}/").content.decode()
    assert "You play this game by mail" in html and "E-mail notices only" in html
    assert page.post(f"/games/{game.pk}/mail/", {"play_by_mail": "maybe"}).status_code == 400
    account = page.get("/account/").content.decode()
    assert 'name="play_by_mail"' in account


def test_the_account_page_says_when_mail_bounces_and_takes_it_back(
    alice: User, run: Callable[..., Any]
) -> None:
    mail_bounced(alice.email, "smtp; 550 5.1.1 user unknown")
    page = browser(alice)
    html = page.get("/account/").content.decode()
    assert "come back undelivered" in html and "5.1.1" in html
    assert page.post("/account/mail-works/").status_code == 302
    assert profile_of(alice).bounced_at is None
    assert "come back undelivered" not in page.get("/account/").content.decode()


def test_the_envelope_sender_is_the_bounce_address_unless_turned_off(
    started: tuple[Game, User, User], settings: Any
) -> None:
    _, mover, _ = started
    row = Notification.objects.filter(user=mover, kind="your_turn").latest("pk")
    message = build_message(row)
    assert read_address(message.from_email) == BounceAddress(row.pk)
    assert message.extra_headers["From"] == settings.DEFAULT_FROM_EMAIL
    settings.MAIL_BOUNCE_ADDRESSES = False
    assert build_message(row).from_email == settings.DEFAULT_FROM_EMAIL


def test_the_html_part_offers_the_same_moves(
    started: tuple[Game, User, User], smtp_inbox: Inbox
) -> None:
    game, mover, _ = started
    html = turn_mail(smtp_inbox, mover).get_body(preferencelist=("html",))
    assert html is not None
    content = str(html.get_content())
    legal = sorted(str(m) for m in engine(game).legal_moves(game.seat_of(mover.pk) or 0))
    assert "Play by replying" in content
    assert all(f'<code style="white-space:nowrap">{move}</code>' in content for move in legal)


def test_a_forged_delivery_report_marks_nothing(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any], bob: User
) -> None:
    _, mover, other = started
    reply_to = str(turn_mail(smtp_inbox, mover)["Reply-To"])
    deliver(run, delivery_report(other.email, reply_to), envelope_from="")  # at a play address
    row = Notification.objects.filter(user=mover, kind="your_turn").latest("pk")
    # At a real bounce address, but about somebody else's address.
    deliver(run, delivery_report(other.email, str(BounceAddress(row.pk))), envelope_from="")
    assert [r.outcome for r in InboundMail.objects.all()] == [Outcome.BOUNCE] * 2
    assert profile_of(other).bounced_at is None and profile_of(mover).bounced_at is None


def test_a_bounce_address_in_capitals_is_still_ours() -> None:
    address = str(BounceAddress(42))
    local, _, domain = address.partition("@")
    assert read_address(local.upper() + "@" + domain) == BounceAddress(42)


def test_a_hostile_message_is_read_within_bounds(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    first = whole_turn(game)[0]
    email = turn_mail(smtp_inbox, mover)
    # Thousands of line breaks, blanks and empty lines: folded, and the text cut short.
    html = reply(email, first + "\n" * 5000 + " " * 20000 + "T", html_only=True)
    deliver(run, html)
    assert InboundMail.objects.get().outcome == Outcome.PLAYED
    assert str(engine(game).current_turn[-1]) == first
    later = " " * 10 + "x" * 5000 + "\nresign"  # a command past the limit is not read
    assert "resign" not in new_text(later).text


def test_headers_the_parser_cannot_read_still_store_the_message(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    _, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    broken = reply(email, "T", headers={"Cc": "x <"})
    deliver(run, broken)
    nested = (
        b"Content-Type: multipart/mixed; boundary=b\n\n"
        + b"--b\nContent-Type: multipart/mixed; boundary=b\n\n" * 3000
    )
    receipt = run(
        receive,
        b"From: "
        + mover.email.encode()
        + b"\nTo: "
        + str(email["Reply-To"]).encode()
        + b"\n"
        + nested,
        source="smtp",
        envelope_from=mover.email,
        envelope_to=[str(email["Reply-To"])],
    )
    assert receipt.status == STORED
    outcomes = [r.outcome for r in InboundMail.objects.order_by("pk")]
    assert outcomes[0] in (Outcome.PLAYED, Outcome.REFUSED)
    assert outcomes[1] in (Outcome.MALFORMED, Outcome.HELP, Outcome.AUTOMATIC)


def test_a_players_second_unreadable_try_is_answered(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    """A player who mistypes twice in answer to the same e-mail hears twice."""
    _game, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    deliver(run, reply(email, "H99-F1"))
    assert "'H99-F1' is not a move" in answer_to(smtp_inbox, mover)
    deliver(run, reply(email, "H99-F2 T"))
    assert "'H99-F2' is not a move" in answer_to(smtp_inbox, mover)
    assert InboundMail.objects.filter(answered=True).count() == 2


def test_an_unreadable_text_sent_again_or_too_often_is_not_answered(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    """No loop with an auto-responder that adds no header: the same text again gets no
    answer (a machine repeats itself), nor does any after UNREADABLE_ANSWERS answers to
    the same reply address."""
    _game, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    before = len(smtp_inbox.to(mover.email))
    for _ in range(3):
        deliver(run, reply(email, "Thank you for your message."))
    assert len(smtp_inbox.to(mover.email)) == before + 1
    for n in range(UNREADABLE_ANSWERS + 2):  # a machine whose text changes each time
        deliver(run, reply(email, f"Thank you for your message number {n}."))
    assert len(smtp_inbox.to(mover.email)) == before + UNREADABLE_ANSWERS
    assert InboundMail.objects.filter(answered=True).count() == UNREADABLE_ANSWERS
    subjects = plain(
        mover.email, str(email["Reply-To"]), "away", subject="Out of Office: Your turn"
    )
    deliver(run, subjects)
    assert InboundMail.objects.order_by("pk").last().outcome == Outcome.AUTOMATIC  # type: ignore[union-attr]


def test_stop_with_a_number_that_is_no_ascii_digit_is_unreadable() -> None:
    assert isinstance(read_command("stop ²"), Unreadable)
    assert read_command("stop 2") == Stop(2)


def test_a_reply_names_piles_of_any_presets_layout_and_no_more() -> None:
    """What a reply may name is the engine's largest layout (three seats, nine houses):
    whether the game's own layout has the pile is the game's to say."""
    assert read_command("H9-F1 OR2-H1") == Moves(("H9-F1", "OR2-H1"))
    for beyond in ("H10-F1", "F9-H1", "OR3-H1"):
        unreadable = read_command(beyond)
        assert isinstance(unreadable, Unreadable)
        assert unreadable.message == NOT_A_MOVE
