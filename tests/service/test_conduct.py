"""Keeping unwanted players away through the services (docs/conduct.md): blocks, who
may challenge a player, and how both act on challenges and invitations. Messages and a
block: test_talk.py; the API and the pages: test_api_conduct.py, test_conduct_pages.py."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User

from accounts.bots import bot_player
from accounts.conduct import block, blocked_by_me, report_player, unblock
from accounts.models import Block, ChallengesFrom, Report
from accounts.services import update_profile
from games.lobby.challenges import (
    accept_challenge,
    cancel_challenge,
    challenges_for,
    create_challenge,
)
from games.models import Challenge
from games.play.dealing import start_game
from lib.errors import ServiceError

pytestmark = pytest.mark.django_db


def refusal(**kwargs: object) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        create_challenge(**kwargs)  # type: ignore[arg-type]
    return refused.value


# ----------------------------------------------------------------------- blocking


def test_it_blocks_once_and_unblocks(alice: User, bob: User) -> None:
    assert block(alice, "BOB") == bob  # a name in any case
    block(alice, "bob")
    assert Block.objects.count() == 1
    assert blocked_by_me(alice) == [bob] and blocked_by_me(bob) == []
    unblock(alice, "bob")
    unblock(alice, "bob")  # nothing to lift: nothing happens
    assert not Block.objects.exists()


def test_one_cannot_block_oneself_or_nobody(alice: User) -> None:
    for name, code in (("alice", "SAME_PLAYER"), ("nobody-here", "NO_SUCH_PLAYER")):
        with pytest.raises(ServiceError) as refused:
            block(alice, name)
        assert refused.value.code == code


def test_a_blocked_player_cannot_challenge_the_blocker_and_reads_a_preference(
    alice: User, bob: User, charlie: User
) -> None:
    block(bob, "alice")
    blocked = refusal(challenger=alice, opponent="bob")
    update_profile(charlie, {"challenges_from": ChallengesFrom.NOBODY})
    unwilling = refusal(challenger=alice, opponent="charlie")
    # The same status, code and words whatever the reason: a block is private.
    assert (blocked.status, blocked.code) == (unwilling.status, unwilling.code)
    assert (blocked.status, blocked.code) == (403, "NOT_ACCEPTING_CHALLENGES")
    assert blocked.message.replace("bob", "charlie") == unwilling.message
    assert not Challenge.objects.exists()
    # The blocker may still challenge: a block keeps the other away, not oneself.
    assert create_challenge(bob, opponent="alice").challenger == bob


def test_a_three_player_challenge_naming_a_blocker_is_refused(
    alice: User, bob: User, charlie: User
) -> None:
    block(charlie, "alice")
    refused = refusal(
        challenger=alice, opponent="bob", second_opponent="charlie", rules="three-player"
    )
    assert (refused.code, refused.extra["player"]) == ("NOT_ACCEPTING_CHALLENGES", "charlie")


def test_an_invitation_to_a_blockers_verified_address_is_refused_without_naming_them(
    alice: User, bob: User
) -> None:
    EmailAddress.objects.create(user=bob, email="bob@example.com", verified=True, primary=True)
    EmailAddress.objects.create(user=bob, email="bob@work.example", verified=False)
    block(bob, "alice")
    refused = refusal(challenger=alice, email="Bob@Example.com")
    assert refused.code == "NOT_ACCEPTING_CHALLENGES"
    assert "bob" not in refused.message.lower().replace("bob@example.com", "")
    # An address never confirmed could be anyone's: it refuses nothing.
    assert create_challenge(alice, email="bob@work.example").email == "bob@work.example"


def test_blocking_withdraws_the_blockers_pending_challenges_to_the_blocked(
    alice: User, bob: User, charlie: User
) -> None:
    to_bob = create_challenge(alice, opponent="bob")
    to_charlie = create_challenge(alice, opponent="charlie")
    from_bob = create_challenge(bob, opponent="alice")
    block(alice, "bob")
    statuses = {c.pk: c.status for c in Challenge.objects.all()}
    assert statuses == {
        to_bob.pk: Challenge.Status.CANCELLED,
        to_charlie.pk: Challenge.Status.PENDING,
        # Bob's own challenge stays his to withdraw, and is hidden from alice.
        from_bob.pk: Challenge.Status.PENDING,
    }
    assert from_bob not in challenges_for(alice)
    assert from_bob in challenges_for(bob)
    with pytest.raises(ServiceError) as refused:
        accept_challenge(from_bob.pk, alice)
    assert refused.value.code == "NOT_FOUND"
    cancel_challenge(from_bob.pk, bob)


def test_open_challenges_are_hidden_both_ways_and_cannot_be_taken(
    alice: User, bob: User, charlie: User
) -> None:
    alices = create_challenge(alice, is_open=True, rated=False)
    bobs = create_challenge(bob, is_open=True, rated=False)
    block(alice, "bob")
    assert bobs not in challenges_for(alice)
    assert alices not in challenges_for(bob)
    for challenge, taker in ((alices, bob), (bobs, alice)):
        with pytest.raises(ServiceError) as refused:
            accept_challenge(challenge.pk, taker)
        assert (refused.value.status, refused.value.code) == (404, "NOT_FOUND")
    assert {alices, bobs} <= set(challenges_for(charlie))
    accept_challenge(alices.pk, charlie)


def test_an_open_three_player_challenge_joined_by_a_blocker_is_hidden(
    alice: User, bob: User, charlie: User
) -> None:
    challenge = create_challenge(alice, is_open=True, rules="three-player", rated=False)
    accept_challenge(challenge.pk, bob)
    block(bob, "charlie")
    assert challenge not in challenges_for(charlie)
    with pytest.raises(ServiceError):
        accept_challenge(challenge.pk, charlie)


def test_a_block_leaves_a_game_in_play_alone(alice: User, bob: User) -> None:
    game = start_game(alice, bob, seed=5)
    block(bob, "alice")
    game.refresh_from_db()
    assert game.status == "playing"


# -------------------------------------------------------- who may challenge me


def test_played_takes_challenges_only_from_past_opponents(
    alice: User, bob: User, charlie: User
) -> None:
    update_profile(bob, {"challenges_from": ChallengesFrom.PLAYED})
    assert refusal(challenger=alice, opponent="bob").code == "NOT_ACCEPTING_CHALLENGES"
    start_game(bob, alice, seed=1)
    assert create_challenge(alice, opponent="bob").challenger == alice
    assert refusal(challenger=charlie, opponent="bob").code == "NOT_ACCEPTING_CHALLENGES"


def test_nobody_takes_only_open_challenges(alice: User, bob: User) -> None:
    update_profile(bob, {"challenges_from": ChallengesFrom.NOBODY})
    start_game(bob, alice, seed=1)  # even an old opponent
    assert refusal(challenger=alice, opponent="bob").code == "NOT_ACCEPTING_CHALLENGES"
    open_one = create_challenge(alice, is_open=True, rated=False)
    assert accept_challenge(open_one.pk, bob).game is not None


def test_an_unknown_setting_is_refused(alice: User) -> None:
    with pytest.raises(ServiceError) as refused:
        update_profile(alice, {"challenges_from": "friends"})
    assert refused.value.code == "BAD_REQUEST"


def test_the_computer_takes_every_challenge(alice: User) -> None:
    computer = bot_player("easy")
    update_profile(computer, {"challenges_from": ChallengesFrom.NOBODY})
    block(computer, "alice")
    assert create_challenge(alice, opponent=computer.username).game is not None


# ------------------------------------------------------------------------- reports


def test_a_player_reports_a_player_for_the_staff(alice: User, bob: User) -> None:
    report = report_player(alice, "bob", reason="cheating", details="  moves too fast  ")
    assert (report.reporter, report.reported, report.details, report.handled_at) == (
        alice,
        bob,
        "moves too fast",
        None,
    )
    with pytest.raises(ServiceError) as refused:
        report_player(alice, "alice", reason="spam")
    assert refused.value.code == "SAME_PLAYER"
    with pytest.raises(ServiceError) as refused:
        report_player(alice, "bob", reason="spam", details="x" * 2001)
    assert refused.value.code == "BAD_REQUEST"


def test_at_most_twenty_reports_a_day(alice: User, bob: User) -> None:
    for _ in range(20):
        report_player(alice, "bob", reason="spam")
    with pytest.raises(ServiceError) as refused:
        report_player(alice, "bob", reason="spam")
    assert (refused.value.status, refused.value.code) == (429, "TOO_MANY_REPORTS")
    assert Report.objects.count() == 20
