"""A whole game played only by e-mail, with real parts: every e-mail goes out through
a real SMTP server, every reply is delivered by SMTP to the running receiver, and a
real Celery worker (through the settings' broker: files, or Redis in CI) acts on it.

Each player reads their e-mail, decides a whole turn (here: uniformly random legal
moves, worked out on the engine as a player works it out on the board), and replies.
Some turns go in two replies, the second answering the "your turn continues" e-mail;
one line is refused first; one player asks for help; a stalemate is offered and
declined. The game ends by its cards.
"""

from __future__ import annotations

import random
from email.message import EmailMessage

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.db import transaction

from accounts.services import update_profile
from games.engine import bots
from games.models import Game
from games.notify.mail_play import ReplyAddress, read_address
from games.play.dealing import announce, start_game
from games.play.store import engine_game
from mailplay.models import InboundMail

from .conftest import wait_until
from .mailbox import reply, text_of
from .receiver import Receiver, receiver
from .smtp import Inbox, smtp_inbox
from .test_worker import worker

__all__ = ["receiver", "smtp_inbox", "worker"]

#: A one-pack deal (G2) whose random game ends by its cards in a few turns.
SEED = 109


def plan_turn(game: Game, rng: random.Random) -> list[str]:
    """The whole turn the seat to move will play: random legal moves until it ends (the
    easy computer's play, worked out as a player works it out on the board)."""
    engine = engine_game(game)
    return [str(m) for m in bots.turn(bots.EASY, engine.position, engine.to_move, rng)]


class Players:
    """Reads each player's mailbox and answers it over SMTP."""

    def __init__(self, inbox: Inbox, receiver: Receiver) -> None:
        self.inbox = inbox
        self.receiver = receiver
        self.read: dict[str, int] = {}

    def next_mail(self, user: User, timeout: float = 30) -> EmailMessage:
        """The next e-mail to ``user`` with a play-by-mail reply address."""

        def arrived() -> bool:
            mails = [m for m in self.inbox.to(user.email) if m["Reply-To"]]
            return len(mails) > self.read.get(user.email, 0)

        assert wait_until(arrived, timeout), f"no e-mail for {user} within {timeout} s"
        mails = [m for m in self.inbox.to(user.email) if m["Reply-To"]]
        self.read[user.email] = len(mails)
        return mails[-1]

    def answer(self, user: User, mail: EmailMessage, text: str) -> EmailMessage:
        to = str(mail["Reply-To"])
        self.receiver.deliver(reply(mail, text), to, mail_from=user.email)
        return self.next_mail(user)


@pytest.mark.django_db(transaction=True)
def test_two_players_play_a_whole_game_by_email(
    worker: None, smtp_inbox: Inbox, receiver: Receiver
) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    for user in (alice, bob):
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        update_profile(user, {"play_by_mail": True})
    with transaction.atomic():  # as a challenge accepted: dealt, and its first mover told
        game = start_game(alice, bob, rules="one-pack", seed=SEED)
        announce(game)
    players = Players(smtp_inbox, receiver)
    by_seat = {letter: user for letter, user in zip(game.letters, (alice, bob), strict=True)}
    rng = random.Random(SEED)
    turns = 0
    while True:
        game.refresh_from_db()
        if game.status != "playing":
            break
        letter = game.to_move
        user = by_seat[letter]
        current = players.next_mail(user)  # "your turn" (the first: the game has begun)
        assert read_address(str(current["Reply-To"])) == ReplyAddress(game.pk, letter, game.version)
        moves = plan_turn(game, rng)
        if turns == 0:  # a line mixing a legal move and an illegal one: nothing played
            current = players.answer(user, current, f"{moves[0]} H1-H1")
            assert "Nothing was played" in text_of(current)
            current = players.answer(user, current, "help")
            assert "How to play game" in text_of(current)
        if turns == 1:  # a stalemate offered by mail, and declined by mail
            current = players.answer(user, current, "stalemate")
            other = by_seat[next(x for x in game.letters if x != letter)]
            offer = players.next_mail(other)
            assert "offers to end game" in text_of(offer)
            declined = players.answer(other, offer, "decline")
            assert "You declined the stalemate offer" in text_of(declined)
            current = players.next_mail(user)  # told of the refusal, with the moves again
        if turns % 2 and len(moves) > 1:  # half a turn, then the rest
            current = players.answer(user, current, moves[0])
            assert "Your first move, one of:" in text_of(current)
            moves = moves[1:]
        answer = players.answer(user, current, " ".join(moves))
        assert f"Played in game {game.pk}: {' '.join(moves)}" in text_of(answer)
        turns += 1
        assert turns < 60, "the game should have ended by now"
    game.refresh_from_db()
    assert game.ending == "cards" and game.winner in game.letters
    assert "The game is over" in text_of(answer)
    handled = InboundMail.objects.all()
    assert handled.filter(status="done").count() == handled.count() >= turns
    assert not handled.filter(duplicates__gt=0).exists()
