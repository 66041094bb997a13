"""Messages at a game through the services (docs/messages.md): what is stored, who is
told and when, in which e-mails and events, and what each reader reads. The API's and
the pages' sides are in test_api_talk.py and test_pages_talk.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.conduct import block
from accounts.models import Report
from accounts.services import delete_account, update_profile
from games import talk
from games.models import Event, Game, Message, Notification
from games.play.dealing import start_game
from games.play.selectors import export_game
from games.play.services import play_moves, resign, write_message
from games.talk import messages_for
from lib.errors import ServiceError
from mailplay.commands import Moves, read_command
from mailplay.models import InboundMail

from .conftest import mover_and_other, play_turn, whole_turn
from .mailbox import reply
from .smtp import Inbox, smtp_inbox, text_of
from .test_play_by_mail import deliver, turn_mail

pytestmark = pytest.mark.django_db
__all__ = ["smtp_inbox"]

#: A message a hostile player could write: every output must show it as text.
HOSTILE = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>'


def html_of(message: Any) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def kinds_for(user: User) -> list[str]:
    return list(Event.objects.filter(user=user).order_by("pk").values_list("kind", flat=True))


# ------------------------------------------------------------------ what is stored


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("  good luck!  ", "good luck!"),
        ("one\r\ntwo\rthree", "one\ntwo\nthree"),
        ("a\n\n\n\n\nb", "a\n\nb"),
        ("tab\there   \nnext", "tab here\nnext"),
        ("bell\x07 and nul\x00 go", "bell and nul go"),
        ("abc\u202edcba\u2066x\u2069", "abcdcbax"),  # no reversed text after it
        ("é ü ♠ 🂡", "é ü ♠ 🂡"),
    ],
)
def test_it_stores_plain_text_cleaned(written: str, stored: str) -> None:
    assert talk.clean(written) == stored


@pytest.mark.parametrize("written", ["", "   ", "\n\n\t", "\x00\x01", "\u202e"])
def test_an_empty_message_is_refused(written: str) -> None:
    with pytest.raises(ServiceError) as refused:
        talk.clean(written)
    assert (refused.value.status, refused.value.code) == (400, "EMPTY_MESSAGE")


def test_a_message_too_long_is_refused_not_cut() -> None:
    assert talk.clean("x" * talk.MAX_LENGTH) == "x" * talk.MAX_LENGTH
    with pytest.raises(ServiceError) as refused:
        talk.clean("x" * (talk.MAX_LENGTH + 1))
    assert (refused.value.status, refused.value.code) == (400, "MESSAGE_TOO_LONG")
    assert refused.value.extra == {"limit": talk.MAX_LENGTH}


def test_a_message_is_stored_at_the_record_length_and_leaves_the_version_alone(
    game: Game, alice: User, bob: User
) -> None:
    play_turn(game, alice, bob)
    version, ply = game.version, game.ply
    _mover, waiting = mover_and_other(game, alice, bob)
    message = write_message(game_id=game.pk, user=waiting, text=HOSTILE)
    game.refresh_from_db()
    assert (game.version, game.message_count) == (version, 1)
    assert (message.ply, message.seat, message.author, message.text) == (
        ply,
        game.letters[game.seat_of(waiting.pk)],  # type: ignore[index]
        waiting,
        HOSTILE,
    )


def test_a_stranger_cannot_write_at_a_game(game: Game, charlie: User) -> None:
    with pytest.raises(ServiceError) as refused:
        write_message(game_id=game.pk, user=charlie, text="hello")
    assert (refused.value.status, refused.value.code) == (404, "NOT_FOUND")
    assert not Message.objects.exists()


def test_moves_and_their_message_are_stored_all_or_none(game: Game, alice: User, bob: User) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    with pytest.raises(ServiceError):
        play_moves(game_id=game.pk, user=mover, moves=["H9-F9"], message="with a bad move")
    with pytest.raises(ServiceError) as refused:
        play_moves(game_id=game.pk, user=mover, moves=whole_turn(game), message=" ")
    assert refused.value.code == "EMPTY_MESSAGE"
    game.refresh_from_db()
    assert (game.ply, game.message_count, Message.objects.count()) == (0, 0, 0)


def test_a_player_may_write_after_the_game_is_over(game: Game, alice: User, bob: User) -> None:
    resign(game_id=game.pk, user=alice)
    message = write_message(game_id=game.pk, user=bob, text="good game")
    assert message.delivered  # nobody's turn: told at once


# ------------------------------------------------------------- the rate of writing


def test_at_most_five_messages_a_minute_at_a_game(game: Game, alice: User) -> None:
    for number in range(talk.PER_MINUTE):
        write_message(game_id=game.pk, user=alice, text=f"message {number}")
    with pytest.raises(ServiceError) as refused:
        write_message(game_id=game.pk, user=alice, text="one more")
    assert (refused.value.status, refused.value.code) == (429, "TOO_MANY_MESSAGES")
    with time_machine.travel(timezone.now() + timedelta(minutes=1, seconds=1)):
        write_message(game_id=game.pk, user=alice, text="a minute later")
    assert Message.objects.count() == talk.PER_MINUTE + 1


def test_at_most_so_many_messages_a_day_over_every_game(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    Message.objects.bulk_create(
        Message(game=game, author=alice, seat="A", text="old", ply=0) for _ in range(talk.PER_DAY)
    )
    other = start_game(alice, charlie, seed=3)
    with pytest.raises(ServiceError) as refused:
        write_message(game_id=other.pk, user=alice, text="hello charlie")
    assert refused.value.code == "TOO_MANY_MESSAGES"
    with time_machine.travel(timezone.now() + timedelta(days=1, seconds=1)):
        write_message(game_id=other.pk, user=alice, text="a day later")


def test_a_move_request_whose_message_is_over_the_rate_plays_nothing(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    for number in range(talk.PER_MINUTE):
        write_message(game_id=game.pk, user=mover, text=f"message {number}")
    with pytest.raises(ServiceError) as refused:
        play_moves(game_id=game.pk, user=mover, moves=whole_turn(game), message="and this")
    assert refused.value.code == "TOO_MANY_MESSAGES"
    game.refresh_from_db()
    assert game.ply == 0


# ----------------------------------------------------- who is told, when, and how


def test_a_message_with_the_turn_reaches_the_next_player_in_their_your_turn_email(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    run: Callable[..., Any],
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    run(play_moves, game_id=game.pk, user=mover, moves=whole_turn(game), message=HOSTILE)
    (email,) = smtp_inbox.to(waiting.email)
    assert "your turn" in str(email["Subject"]).lower()
    text, html = text_of(email), html_of(email)
    assert f"{mover.username} writes:" in text and HOSTILE in text  # plain text as written
    assert HOSTILE not in html and "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in html
    assert not smtp_inbox.to(mover.email), "the writer is not told of their own message"
    assert Message.objects.get().delivered
    assert not Notification.objects.filter(kind="message").exists()  # one e-mail, not two
    # The stream: the message at once, then the turn carrying it.
    assert kinds_for(waiting) == ["move", "message", "your_turn"]
    turn = Event.objects.get(user=waiting, kind="your_turn")
    (carried,) = turn.data["messages"]
    assert (carried["text"], carried["author"]) == (HOSTILE, mover.username)
    assert "message" not in kinds_for(mover)


@pytest.mark.parametrize("kind", ["your_turn", "message", "game_over"])
def test_every_email_carrying_a_message_shows_it_as_text(
    kind: str,
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    run: Callable[..., Any],
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    if kind == "your_turn":
        run(play_moves, game_id=game.pk, user=mover, moves=whole_turn(game), message=HOSTILE)
    elif kind == "message":
        run(write_message, game_id=game.pk, user=mover, text="first")
        run(play_moves, game_id=game.pk, user=mover, moves=whole_turn(game))
        run(write_message, game_id=game.pk, user=mover, text=HOSTILE)  # while waiting
    else:
        run(write_message, game_id=game.pk, user=mover, text=HOSTILE)
        run(resign, game_id=game.pk, user=mover)
    (email,) = [
        m for m in smtp_inbox.to(waiting.email) if HOSTILE in text_of(m)
    ]  # one e-mail carries it, and its text part has it as written
    assert Notification.objects.get(user=waiting, ply__isnull=False, kind=kind).status == "sent"
    html = html_of(email)
    assert "<script" not in html and "<img" not in html and "<b>bold" not in html
    assert html.count("&lt;script&gt;") == 1
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_a_message_written_early_in_a_turn_waits_for_the_turns_end(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    run(write_message, game_id=game.pk, user=mover, text="thinking...")
    assert not smtp_inbox.messages, "no e-mail before the turn ends"
    assert "message" in kinds_for(waiting), "but the stream says it at once"
    assert not Message.objects.get().delivered
    run(play_moves, game_id=game.pk, user=mover, moves=whole_turn(game))
    (email,) = smtp_inbox.to(waiting.email)
    assert "thinking..." in text_of(email)
    assert Message.objects.get().delivered


def test_a_message_written_while_waiting_is_emailed_at_once(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    run(write_message, game_id=game.pk, user=waiting, text="take your time")
    (email,) = smtp_inbox.to(mover.email)
    assert str(email["Subject"]) == f"{waiting.username} wrote to you (game {game.pk})"
    assert "take your time" in text_of(email) and "take your time" in html_of(email)
    assert f"/games/{game.pk}/" in text_of(email)
    assert email["List-Unsubscribe"], "a kind of e-mail a player may turn off"
    # Told once: the mover's own "your turn" later does not carry it again.
    run(play_moves, game_id=game.pk, user=mover, moves=whole_turn(game))
    assert "take your time" not in text_of(smtp_inbox.to(waiting.email)[-1])


def test_the_message_emails_follow_the_players_preference(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    update_profile(mover, {"notifications": {"message": "never"}})
    run(write_message, game_id=game.pk, user=waiting, text="hello?")
    assert not smtp_inbox.messages
    assert "message" in kinds_for(mover), "the stream still tells it"


def test_the_last_turns_message_goes_with_the_game_over_email(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    run(write_message, game_id=game.pk, user=mover, text="I give up, well played")
    run(resign, game_id=game.pk, user=mover)
    (email,) = smtp_inbox.to(waiting.email)
    assert "I give up, well played" in text_of(email) and "ended" in text_of(email)
    assert "I give up" not in text_of(smtp_inbox.to(mover.email)[0])


def test_a_third_player_hears_the_turns_message_when_the_turn_ends(
    alice: User, bob: User, charlie: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game = start_game(alice, bob, charlie, rules="three-player", seed=7)
    mover = game.user_at(game.letters.index(game.to_move))
    run(play_moves, game_id=game.pk, user=mover, moves=whole_turn(game), message="hi both")
    game.refresh_from_db()
    others = [p for p in (alice, bob, charlie) if p != mover]
    for player in others:
        (email,) = smtp_inbox.to(player.email)
        assert "hi both" in text_of(email)
    kinds = {player.username: Notification.objects.get(user=player).kind for player in others}
    assert sorted(kinds.values()) == ["message", "your_turn"]


# ------------------------------------------------------------------------ blocks


def test_a_blocked_writer_is_accepted_and_never_read_by_the_blocker(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    block(mover, waiting.username)
    message = run(write_message, game_id=game.pk, user=waiting, text="you there?")
    assert message.pk  # the writer is told nothing
    assert not smtp_inbox.messages
    assert "message" not in kinds_for(mover)
    seat = game.seat_of(mover.pk)
    assert list(messages_for(game, mover, seat)) == []
    assert list(messages_for(game, waiting, game.seat_of(waiting.pk))) == [message]
    # Nor in the turn's e-mail or event: the blocked player's message with moves.
    run(play_moves, game_id=game.pk, user=mover, moves=whole_turn(game))
    run(play_moves, game_id=game.pk, user=waiting, moves=whole_turn(game), message="and now?")
    email = smtp_inbox.to(mover.email)[-1]
    assert "and now?" not in text_of(email) and "writes:" not in text_of(email)
    assert Event.objects.filter(user=mover, kind="your_turn").last().data["messages"] == []  # type: ignore[union-attr]
    assert "{" not in export_game(game, mover, seat).split("\n\n", 1)[1]


def test_a_message_email_is_not_sent_once_its_reader_has_blocked_the_writer(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games.notify.notifications import send

    mover, waiting = mover_and_other(game, alice, bob)
    with django_capture_on_commit_callbacks(execute=False):
        write_message(game_id=game.pk, user=waiting, text="spam spam")
    row = Notification.objects.get(kind="message")
    block(mover, waiting.username)
    assert send(row.pk) is False
    row.refresh_from_db()
    assert row.status == Notification.Status.OUTDATED
    assert not smtp_inbox.messages


# ------------------------------------------------------------ who reads, and where


def test_spectators_read_no_message_while_the_game_is_played_and_all_once_over(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    write_message(game_id=game.pk, user=waiting, text="good luck")
    assert list(messages_for(game, charlie, None)) == []
    assert "good luck" not in export_game(game, charlie, None)
    assert "{" not in export_game(game).split("\n\n", 1)[1]
    assert "good luck" in export_game(game, mover, game.seat_of(mover.pk))
    resign(game_id=game.pk, user=mover)
    game.refresh_from_db()
    assert [m.text for m in messages_for(game, charlie, None)] == ["good luck"]
    assert "good luck" in export_game(game, charlie, None)


def test_the_export_writes_each_message_after_the_turn_it_followed(
    game: Game, alice: User, bob: User
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    letter = game.letters[game.seat_of(waiting.pk)]  # type: ignore[index]
    write_message(game_id=game.pk, user=waiting, text="before {anything}")
    play_turn(game, alice, bob)
    write_message(game_id=game.pk, user=mover, text="after\nthe first turn")
    lines = export_game(game, mover, game.seat_of(mover.pk)).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1 "))
    assert lines[first - 1] == "{" + letter + ": before {anything\\}}"
    mover_letter = game.letters[game.seat_of(mover.pk)]  # type: ignore[index]
    assert lines[first + 1] == "{" + mover_letter + ": after the first turn}"


def test_a_deleted_players_messages_stay_with_the_game(game: Game, alice: User, bob: User) -> None:
    write_message(game_id=game.pk, user=bob, text="see you")
    delete_account(bob)
    game.refresh_from_db()
    (message,) = messages_for(game, alice, 0)
    assert (message.author, message.text) == (None, "see you")
    assert talk.as_data(message, game)["author"] == game.names()[message.seat]


# -------------------------------------------------------------------------- reports


def test_a_player_reports_a_message_and_its_words_are_kept(
    game: Game, alice: User, bob: User
) -> None:
    message = write_message(game_id=game.pk, user=bob, text="nasty words")
    report = talk.report_message(alice, message.pk, reason="abuse", details="again")
    assert (report.reporter, report.reported, report.message_text, report.game_id) == (
        alice,
        bob,
        "nasty words",
        game.pk,
    )
    Message.objects.filter(pk=message.pk).update(text="edited away")
    report.refresh_from_db()
    assert report.message_text == "nasty words"
    assert talk.report_message(alice, message.pk, reason="spam") == report  # once each
    assert Report.objects.count() == 1


def test_only_what_one_may_read_can_be_reported(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    message = write_message(game_id=game.pk, user=bob, text="words")
    for reporter, code in ((bob, "SAME_PLAYER"), (charlie, "NOT_FOUND")):
        with pytest.raises(ServiceError) as refused:
            talk.report_message(reporter, message.pk, reason="abuse")
        assert refused.value.code == code
    with pytest.raises(ServiceError) as refused:
        talk.report_message(alice, 10**9, reason="abuse")
    assert refused.value.code == "NOT_FOUND"
    with pytest.raises(ServiceError) as refused:
        talk.report_message(alice, message.pk, reason="boredom")
    assert refused.value.code == "BAD_REQUEST"
    resign(game_id=game.pk, user=alice)
    assert talk.report_message(charlie, message.pk, reason="abuse").reporter == charlie
    Game.objects.filter(pk=game.pk).update(public=False)
    with pytest.raises(ServiceError):
        talk.report_message(charlie, message.pk, reason="spam")


# ---------------------------------------------------------------------- play by mail


def test_text_under_the_moves_of_a_reply_is_a_message() -> None:
    assert read_command("H3-F1 T\nC-W\nnice one!\nsee you") == Moves(
        ("H3-F1", "T", "C-W"), "nice one!\nsee you"
    )
    assert read_command("h3-f1\n\nwell played\n\nbob") == Moves(("H3-F1",), "well played\n\nbob")
    assert read_command("H3-F1") == Moves(("H3-F1",))


@pytest.fixture
def by_mail_started(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Callable[..., Any]
) -> tuple[Game, User, User]:
    for user in (alice, bob):
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        update_profile(user, {"play_by_mail": True})
    run(play_turn, game, alice, bob)
    mover, other = mover_and_other(game, alice, bob)
    return game, mover, other


def test_a_reply_with_a_message_plays_the_moves_and_the_opponent_reads_it(
    by_mail_started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, other = by_mail_started
    moves = whole_turn(game)
    deliver(run, reply(turn_mail(smtp_inbox, mover), " ".join(moves) + "\n\n" + HOSTILE))
    row = InboundMail.objects.get()
    assert row.outcome == InboundMail.Outcome.PLAYED
    assert Message.objects.get().text == HOSTILE
    answer = [m for m in smtp_inbox.to(mover.email) if "Re: " in str(m["Subject"])][-1]
    assert f"Your message went with your moves:\n    {HOSTILE}" in text_of(answer).replace("\r", "")
    turn = turn_mail(smtp_inbox, other)
    assert HOSTILE in text_of(turn) and "<script" not in html_of(turn)
    assert "A message to your opponent goes under your moves" in text_of(turn)


def test_a_reply_whose_message_is_too_long_plays_nothing_and_says_why(
    by_mail_started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = by_mail_started
    ply = game.ply
    long = "word " * 150
    deliver(run, reply(turn_mail(smtp_inbox, mover), " ".join(whole_turn(game)) + "\n\n" + long))
    assert InboundMail.objects.get().outcome == InboundMail.Outcome.REFUSED
    game.refresh_from_db()
    assert (game.ply, Message.objects.count()) == (ply, 0)
    answer = [m for m in smtp_inbox.to(mover.email) if "Re: " in str(m["Subject"])][-1]
    assert f"at most {talk.MAX_LENGTH} characters" in text_of(answer)
