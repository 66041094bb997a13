"""E-mails through the outbox, received by a real SMTP server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import update_profile
from games.engine import view
from games.lobby.challenges import accept_challenge, create_challenge
from games.lobby.matches import start_match
from games.models import Game, Notification
from games.notify.board_text import board_text
from games.play.services import resign
from games.play.stalemate import offer_stalemate
from games.play.store import engine_game
from games.play.sweep import remind
from games.tasks import send_digest, send_digests, send_notification
from tests.hidden_cards import assert_hides
from tests.stored import position_of

from .conftest import mover_and_other, play_turn
from .smtp import Inbox, smtp_inbox, text_of

pytestmark = pytest.mark.django_db
__all__ = ["smtp_inbox"]


def test_your_turn_arrives_with_the_board_the_last_turn_and_the_deadline(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    update_profile(waiting, {"time_zone": "America/New_York"})
    with django_capture_on_commit_callbacks(execute=True):
        moves = play_turn(game, alice, bob)
    (message,) = smtp_inbox.to(waiting.email)
    body = text_of(message)
    assert "your turn" in str(message["Subject"]).lower()
    assert " ".join(moves) in body
    assert "You (" in body and "Opponent (" in body  # the board from the recipient's seat
    assert re.search(r"E[SD]T", body), "the deadline in the recipient's time zone"
    assert f"/games/{game.pk}/" in body and f"/api/v1/games/{game.pk}/" not in body
    assert str(message["List-Unsubscribe"]).strip().startswith("<http")
    assert str(message["List-Unsubscribe-Post"]).strip() == "List-Unsubscribe=One-Click"
    game.refresh_from_db()
    words = [w.strip(",") for w in body.split()]
    assert_hides(words, position_of(game))
    assert Notification.objects.get(user=waiting, kind="your_turn").status == "sent"


@pytest.fixture
def queued_turn_email(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> Notification:
    """A "your turn" e-mail written to the outbox whose sending task has not run yet."""
    with django_capture_on_commit_callbacks(execute=False):
        play_turn(game, alice, bob)
    return Notification.objects.get(kind="your_turn")


def test_a_task_delivered_twice_sends_one_email(
    queued_turn_email: Notification, smtp_inbox: Inbox
) -> None:
    row = queued_turn_email
    assert send_notification(row.pk) is True
    assert send_notification(row.pk) is False
    assert len(smtp_inbox.messages) == 1


def test_a_failing_smtp_server_leaves_the_row_to_retry(
    queued_turn_email: Notification, smtp_inbox: Inbox
) -> None:
    row = queued_turn_email
    smtp_inbox.fail_next = 1
    assert send_notification.run(row.pk) is False  # the attempt is recorded, not raised
    row.refresh_from_db()
    assert row.status == "pending" and row.attempts == 1
    assert row.last_error == "451 try again later"
    assert send_notification.run(row.pk) is True
    assert len(smtp_inbox.messages) == 1


def test_preferences_never_and_digest_send_nothing_now(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    update_profile(waiting, {"notifications": {"your_turn": "never"}})
    update_profile(mover, {"notifications": {"game_over": "daily_digest"}})
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game, alice, bob)
        resign(game_id=game.pk, user=waiting)
    assert not smtp_inbox.to(mover.email)
    assert str(smtp_inbox.to(waiting.email)[0]["Subject"]).startswith("Game")
    assert Notification.objects.get(user=mover, kind="game_over").status == "digest"
    assert not Notification.objects.filter(user=waiting, kind="your_turn").exists()


def test_a_stalemate_offer_is_mailed_to_the_opponent(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        offer_stalemate(game_id=game.pk, user=alice)
    (message,) = smtp_inbox.messages
    assert str(message["To"]) == "bob@example.com"
    assert (
        str(message["Subject"]) == f"alice offers to end game {game.pk} by the counts (0-0, a draw)"
    )


def test_the_unsubscribe_link_works_without_signing_in_and_only_on_post(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game, alice, bob)
    (message,) = smtp_inbox.to(waiting.email)
    link = str(message["List-Unsubscribe"]).strip().strip("<>")
    path = link.split("testserver")[-1].split("8000")[-1]
    anonymous = Client(enforce_csrf_checks=True)
    assert anonymous.get(path).status_code == 200  # a link scanner changes nothing
    waiting.profile.refresh_from_db()
    assert waiting.profile.notifications["your_turn"] == "immediately"
    assert anonymous.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    waiting.profile.refresh_from_db()
    assert waiting.profile.notifications["your_turn"] == "never"
    assert anonymous.post("/unsubscribe/forged-token/").status_code == 404


def test_the_daily_digest_gathers_what_waited_in_one_email(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    for player in (alice, bob):
        update_profile(player, {"notifications": {"your_turn": "daily_digest"}})
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            play_turn(game, alice, bob)
    assert not smtp_inbox.messages
    assert send_digests() == 2
    assert len(smtp_inbox.messages) == 2
    body = text_of(smtp_inbox.to(alice.email)[0])
    assert "your turn" in body and f"game {game.pk}" in body
    assert not Notification.objects.filter(status="digest").exists()
    assert send_digest(alice.pk) == 0  # nothing is sent twice
    # The digest's unsubscribe link stops what the player had put in the digest.
    link = str(smtp_inbox.to(alice.email)[0]["List-Unsubscribe"]).strip().strip("<>")
    Client().post("/unsubscribe/" + link.split("/unsubscribe/")[1])
    alice.profile.refresh_from_db()
    assert alice.profile.notifications["your_turn"] == "never"


def test_it_draws_each_queued_email_at_its_event_and_drops_turns_already_over(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # No worker runs while four turns and a stalemate offer are played; then it starts.
    with django_capture_on_commit_callbacks(execute=False):
        play_turn(game, alice, bob)
        play_turn(game, alice, bob)
        offerer, offered = mover_and_other(game, alice, bob)
        offer_stalemate(game_id=game.pk, user=offerer)
        play_turn(game, alice, bob)
        play_turn(game, alice, bob)
    rows = list(Notification.objects.order_by("pk"))
    assert [row.kind for row in rows].count("your_turn") == 4
    for row in rows:
        send_notification(row.pk)
    turns = [row for row in Notification.objects.order_by("pk") if row.kind == "your_turn"]
    # Only the turn still under way is announced, to the player whose turn it is.
    assert [row.status for row in turns] == ["outdated", "outdated", "outdated", "sent"]
    to_move = game.letters.index(game.to_move)
    (turn_email,) = smtp_inbox.to(game.user_at(to_move).email)
    final = position_of(game)
    assert board_text(view(final, to_move)) in text_of(turn_email).replace("\r\n", "\n")
    # The stalemate offer shows the table as it was when the offer was made.
    offer = Notification.objects.get(kind="stalemate_offer")
    assert offer.status == "sent" and offer.ply is not None and offer.ply < game.ply
    then = engine_game(game).position_at(offer.ply)
    seat = game.seat_of(offered.pk)
    (offer_email,) = smtp_inbox.to(offered.email)
    body = text_of(offer_email).replace("\r\n", "\n")
    assert board_text(view(then, seat)) in body
    assert board_text(view(final, seat)) not in body
    assert_hides([w.strip(",") for w in body.split()], then)


def test_it_sends_no_reminder_for_a_turn_played_before_it_went_out(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    django_capture_on_commit_callbacks: Any,
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    with django_capture_on_commit_callbacks(execute=False):
        assert game.reminder_at is not None
        assert remind(game.pk, now=game.reminder_at)
        play_turn(game, alice, bob)
    row = Notification.objects.get(kind="reminder")
    assert row.user == mover
    assert send_notification(row.pk) is False
    row.refresh_from_db()
    assert row.status == "outdated"
    assert not smtp_inbox.to(mover.email)
    assert send_notification(row.pk) is False  # a second delivery sends nothing either


def test_the_seat_to_move_hears_of_its_first_turn_when_a_challenge_is_accepted(
    alice: User, bob: User, smtp_inbox: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        challenge = create_challenge(alice, opponent="bob")
        challenge = accept_challenge(challenge.pk, bob)
    game = challenge.game
    assert game is not None
    mover = game.user_at(engine_game(game).to_move)
    (row,) = Notification.objects.filter(kind="your_turn")
    assert (row.user, row.status) == (mover, "sent")
    (message,) = [m for m in smtp_inbox.to(mover.email) if "Your turn" in str(m["Subject"])]
    body = text_of(message)
    assert f"Game {game.pk} against" in body and "you play first" in body
    assert "Their turn" not in body and "call Stop!" not in body
    other = bob if mover == alice else alice
    assert not [m for m in smtp_inbox.to(other.email) if "turn" in str(m["Subject"]).lower()]


def test_a_player_who_wants_no_turn_emails_gets_none_at_the_start(alice: User, bob: User) -> None:
    for player in (alice, bob):
        update_profile(player, {"notifications": {"your_turn": "never"}})
    accept_challenge(create_challenge(alice, opponent="bob").pk, bob)
    assert not Notification.objects.filter(kind="your_turn").exists()


def test_the_next_game_of_a_match_is_announced_to_its_first_mover(alice: User, bob: User) -> None:
    match = start_match(alice, bob, target=1000)
    game = match.games.get()
    resign(game_id=game.pk, user=alice)  # bob scores far below the target: a next game
    following = match.games.exclude(pk=game.pk).get()
    mover = following.user_at(engine_game(following).to_move)
    row = Notification.objects.get(kind="your_turn", game=following)
    assert row.user == mover and row.context["first_turn"] is True
