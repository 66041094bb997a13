"""The admin, as support staff use it: every model is there, every page answers, a
game cannot be edited, and a game's secrets stay hidden while it is played."""

from __future__ import annotations

import re
import tempfile
from datetime import date

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db.models import Model
from django.test import Client, override_settings
from django.urls import reverse

from accounts.conduct import block, never_invite
from accounts.services import create_token, profile_of
from competitions.services.entering import Terms, create_competition, enter
from games.archive.months import write_month
from games.lobby.challenges import create_challenge
from games.lobby.matches import start_match
from games.models import (
    Challenge,
    Game,
    Lock,
    Note,
    Notification,
    PushMessage,
    PushSubscription,
    Rating,
    StreamLease,
)
from games.notify.mail_play import ReplyAddress
from games.play.services import resign, write_message
from games.talk import report_message
from mailplay.receiving import receive
from tests.review_scenes import reviewed_game
from tests.stop_scenes import classic_game
from webhooks.services import create_webhook, ping

from .conftest import browser, client_for, mover_and_other, play_turn, whole_turn
from .mailbox import plain

pytestmark = pytest.mark.django_db

#: Django's own plumbing, and allauth's confirmations, which are signed links, not rows
#: (ACCOUNT_EMAIL_CONFIRMATION_HMAC): nothing support staff look for.
#: A private note is its writer's alone (docs/notes.md): support staff do not read it.
NOT_IN_THE_ADMIN = {LogEntry, Permission, ContentType, Session, Note}
NOT_IN_THE_ADMIN_LABELS = {"account.EmailConfirmation"}


def url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def support(db: None) -> User:
    """A staff user who may look at everything and change nothing but accounts."""
    user = User.objects.create_user("support", "support@example.com", "pw-support-123")
    user.is_staff = True
    user.save()
    user.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    return user


@pytest.fixture
def superuser(db: None) -> User:
    return User.objects.create_superuser("root", "root@example.com", "pw-root-123")


@pytest.fixture
def everything(alice: User, bob: User, charlie: User) -> Game:
    """A row of every model: a match's game with a turn of each player (one sent with an
    Idempotency-Key), their e-mails, a message and its report, a block, a challenge, a
    token, a profile, an e-mail address, a group, a webhook and its ping, an address
    never to invite, a push device and a push."""
    game = start_match(alice, bob, target=100).games.get()
    mover, _ = mover_and_other(game, alice, bob)
    client_for(mover).post(
        f"/api/v1/games/{game.pk}/moves/",
        {"moves": whole_turn(game)},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    play_turn(game, alice, bob)
    said = write_message(game_id=game.pk, user=alice, text="well played")
    report_message(bob, said.pk, reason="spam")
    block(charlie, "bob")
    create_challenge(alice, email="dora@example.com")
    never_invite("erin@example.com")
    create_token(charlie, "laptop")
    StreamLease.objects.create(user=bob, hub="web-1")
    Lock.take("beat", "beat-1", 60)
    profile_of(charlie)
    EmailAddress.objects.create(user=alice, email=alice.email, verified=True, primary=True)
    Group.objects.create(name="support")
    game.refresh_from_db()
    Rating.objects.create(user=alice, family="standard", rating=1612)
    # A league of two under way: its season, division, round, entries and pairing.
    league = create_competition(charlie, Terms(name="League", format="league", max_players=2))
    for name in ("erin", "frank"):
        enter(league.pk, User.objects.create_user(name, f"{name}@example.com", "pw-x-12345"))
    address = str(ReplyAddress(game.pk, game.to_move, game.version))
    receive(
        plain(alice.email, address, "help"),
        source="smtp",
        envelope_from=alice.email,
        envelope_to=[address],
    )  # a reply by mail, stored (its task waits for the commit)
    ping(alice, create_webhook(alice, "https://hooks.example.com/rbank", ["move"]).pk)
    device = PushSubscription.objects.create(
        user=bob, endpoint="https://push.example.net/x", p256dh="k", auth="a"
    )
    PushMessage.objects.create(user=bob, subscription=device, kind="your_turn", game=game)
    gina, hank = (
        User.objects.create_user(n, f"{n}@example.com", "pw-x-12345") for n in ("gina", "hank")
    )
    reviewed_game(gina, hank)  # a finished game and its review
    with tempfile.TemporaryDirectory() as folder, override_settings(OPEN_DATABASE_DIR=folder):
        write_month(date(2026, 1, 1))  # a month of the open database
    return game


def test_it_registers_every_model_in_the_admin() -> None:
    """Each model has its pages, or is shown on another's (a game's seats on the game's)."""
    inlines = {
        inline.model
        for model_admin in admin.site._registry.values()
        for inline in model_admin.inlines
    }
    missing = [
        model._meta.label
        for model in apps.get_models()
        if model not in NOT_IN_THE_ADMIN
        and model._meta.label not in NOT_IN_THE_ADMIN_LABELS
        and not admin.site.is_registered(model)
        and model not in inlines
    ]
    assert missing == []


def test_it_answers_every_list_search_and_change_page_for_support_staff(
    support: User, everything: Game
) -> None:
    client = browser(support)
    assert client.get("/admin/").status_code == 200
    for model in admin.site._registry:
        assert client.get(url(model, "changelist")).status_code == 200, model
        for query in ("alice", "dora@example.com", str(everything.pk)):
            response = client.get(url(model, "changelist"), {"q": query})
            assert response.status_code == 200, (model, query)
        first = model._default_manager.order_by("pk").first()
        assert first is not None, f"no {model._meta.label} to show"
        assert client.get(url(model, "change", first.pk)).status_code == 200, model


def test_it_lets_nobody_edit_a_game_or_an_e_mail_through_a_form(
    superuser: User, everything: Game
) -> None:
    client = browser(superuser)
    page = client.get(url(Game, "change", everything.pk))
    assert page.status_code == 200 and b'type="submit" name="_save"' not in page.content
    version = everything.version
    posted = client.post(url(Game, "change", everything.pk), {"status": "won", "version": 1})
    assert posted.status_code == 403
    everything.refresh_from_db()
    assert everything.status == Game.Status.PLAYING and everything.version == version
    assert client.get(url(Game, "add")).status_code == 403
    row = Notification.objects.first()
    assert row is not None
    assert client.post(url(Notification, "change", row.pk), {"status": "sent"}).status_code == 403


def shown(client: Client, game: Game) -> str:
    """The game's admin page, without its forms' random CSRF tokens (one held "S3" once,
    which a test looking for a slip's code read as the slip)."""
    page = client.get(url(Game, "change", game.pk)).content.decode()
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def test_it_hides_a_played_games_seed_and_state_from_everyone_until_it_ends(
    alice: User, superuser: User, everything: Game
) -> None:
    client = browser(superuser)
    page = shown(client, everything)
    assert everything.seed not in page and "field-state" not in page
    assert everything.server_secret not in page and "field-server_secret" not in page
    assert "field-record_entries" not in page
    assert everything.seed_hash in page  # the commitment is public
    assert "field-export" in page  # what the players may read

    resign(game_id=everything.pk, user=alice)
    everything.refresh_from_db()
    page = shown(client, everything)
    assert everything.seed in page and "field-record_entries" in page
    assert everything.server_secret in page


def test_it_hides_a_classic_games_slips_until_it_ends(
    alice: User, bob: User, superuser: User
) -> None:
    game, offender, _, moves = classic_game(alice, bob, [None, "S3", None])
    client = browser(superuser)
    page = shown(client, game)
    assert "S3" not in page and "shown when the game ends" in page

    resign(game_id=game.pk, user=offender)
    game.refresh_from_db()
    page = shown(client, game)
    assert f"{game.letters[game.seat_of(offender.pk) or 0]} {moves[1]} S3" in page


@pytest.mark.parametrize(
    ("model", "lookup"),
    [
        (Game, "seed__startswith"),
        (Game, "state__contains"),
        (Game, "server_secret__startswith"),
        (Challenge, "token__startswith"),
        (Challenge, "server_secret__startswith"),
    ],
)
def test_it_refuses_to_filter_a_list_by_a_secret(
    superuser: User, everything: Game, model: type[Model], lookup: str
) -> None:
    """Counting the rows found for ``seed__startswith=4``, then 41, ... would read the
    seed of a game in play one character at a time."""
    answer = browser(superuser).get(url(model, "changelist"), {lookup: "4"})
    assert answer.status_code == 400


def test_a_challenge_s_server_secret_is_shown_to_nobody(superuser: User, everything: Game) -> None:
    challenge = Challenge.objects.get()
    page = browser(superuser).get(url(Challenge, "change", challenge.pk)).content.decode()
    assert challenge.server_secret and challenge.server_secret not in page
    assert challenge.commitment in page  # the commitment is public


def test_it_finds_a_game_by_id_or_player_and_a_failed_e_mail_by_address(
    support: User, bob: User, everything: Game
) -> None:
    client = browser(support)
    by_id = client.get(url(Game, "changelist"), {"q": str(everything.pk)})
    assert list(by_id.context["cl"].result_list) == [everything]
    by_player = client.get(url(Game, "changelist"), {"q": "bob"})
    assert list(by_player.context["cl"].result_list) == [everything]
    assert client.get(url(Game, "changelist"), {"q": "charlie"}).context["cl"].result_count == 0

    row = Notification.objects.filter(user=bob).first()
    assert row is not None
    Notification.objects.filter(pk=row.pk).update(status=Notification.Status.FAILED)
    failed = client.get(
        url(Notification, "changelist"), {"status__exact": "failed", "q": "bob@example.com"}
    )
    assert list(failed.context["cl"].result_list) == [row]
    page = failed.content.decode()
    assert url(Game, "change", everything.pk) in page and url(User, "change", bob.pk) in page


def test_it_links_a_player_to_their_games_and_e_mails(
    support: User, bob: User, everything: Game
) -> None:
    page = browser(support).get(url(User, "change", bob.pk)).content.decode()
    assert f"{url(Game, 'changelist')}?q=bob" in page
    assert f"{url(Notification, 'changelist')}?user__id__exact={bob.pk}" in page
    emails = browser(support).get(url(Notification, "changelist"), {"user__id__exact": bob.pk})
    assert {row.user for row in emails.context["cl"].result_list} == {bob}
