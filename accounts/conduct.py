"""Keeping unwanted players away: blocks, reports, and who may challenge a player;
and strangers invited by e-mail who asked never to be invited again.

A block is private: nothing the blocked player sees tells them. A challenge or an
invitation to someone who does not take them from the challenger is refused with the
same words whatever the reason (a block, or the player's ``challenges_from``), and a
message to someone who blocked its writer is kept from them without a word to the
writer (``games.talk``). docs/conduct.md says it for players.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from lib.errors import ServiceError
from lib.logs import fields

from .bots import level_of
from .models import Block, ChallengesFrom, InvitationOptOut, Report, normalised_address
from .services import profile_of
from .signals import player_blocked

logger = logging.getLogger(__name__)

#: Reports a player may file a day: enough for any real trouble, no flood for the staff.
MAX_REPORTS_PER_DAY = 20
#: The longest explanation a report may carry.
MAX_DETAILS = 2000


def _player(username: str) -> User:
    user = User.objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise ServiceError(
            404,
            "NO_SUCH_PLAYER",
            _("there is no player called %(name)s") % {"name": repr(username[:40])},
        )
    return user


def block(blocker: User, username: str) -> User:
    """``blocker`` blocks the player called ``username`` (blocking twice is harmless)."""
    blocked = _player(username)
    if blocked.pk == blocker.pk:
        raise ServiceError(400, "SAME_PLAYER", _("you cannot block yourself"))
    with transaction.atomic():
        try:
            with transaction.atomic():
                _block, made = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        except IntegrityError:  # the same block, made at the same moment by another request
            made = False
        if made:
            # The games withdraw the blocker's pending challenges to them, in this
            # transaction (accounts never imports games).
            player_blocked.send(sender=Block, blocker=blocker, blocked=blocked)
    return blocked


def unblock(blocker: User, username: str) -> None:
    """Lift a block (none: nothing to do)."""
    Block.objects.filter(blocker=blocker, blocked__username__iexact=username).delete()


def blocked_by_me(user: User) -> list[User]:
    """The players ``user`` blocks, by name."""
    return list(User.objects.filter(blocks_received__blocker=user).order_by("username").distinct())


def blocks(blocker_id: int | None, blocked_id: int | None) -> bool:
    """Whether player ``blocker_id`` blocks player ``blocked_id``."""
    if blocker_id is None or blocked_id is None:
        return False
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_ids(user: User) -> set[int]:
    """The ids of the players ``user`` blocks."""
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blockers_of(user: User) -> set[int]:
    """The ids of the players who block ``user``."""
    return set(Block.objects.filter(blocked=user).values_list("blocker_id", flat=True))


def kept_apart(user: User) -> set[int]:
    """The ids of the players ``user`` blocks or who block ``user``: one query on the
    blocks' own indexes (a filter on the users would pass over every player)."""
    pairs = Block.objects.filter(Q(blocker=user) | Q(blocked=user))
    return {
        blocked if blocker == user.pk else blocker
        for blocker, blocked in pairs.values_list("blocker_id", "blocked_id")
    }


def refuses_challenges(target: User, challenger: User, *, have_played: bool) -> bool:
    """Whether ``target`` takes no challenge or invitation naming them from
    ``challenger``: they block the challenger, or their ``challenges_from`` says no
    (``have_played``: the two have sat at a game together). A computer player takes
    every challenge."""
    if level_of(target):
        return False
    if blocks(target.pk, challenger.pk):
        return True
    wanted = profile_of(target).challenges_from
    if wanted == ChallengesFrom.NOBODY:
        return True
    return wanted == ChallengesFrom.PLAYED and not have_played


def not_taking_challenges(target: User, *, named: str | None = None) -> ServiceError:
    """The one refusal for every reason a player does not take a challenge: a block
    reads as a preference. ``named``: how the challenger named them, when not by their
    username (an e-mail invitation's address: the refusal must not tell whose it is).
    ``player`` in the error says which of the names given it is about."""
    name = named or target.get_username()
    return ServiceError(
        403,
        "NOT_ACCEPTING_CHALLENGES",
        _("%(name)s does not take challenges from you: an open challenge may find them")
        % {"name": name},
        player=name,
    )


def accounts_at(email: str) -> list[User]:
    """The active players whose verified addresses include ``email``: an invitation
    sent there reaches them, so it is theirs to refuse. An address someone typed in
    but never confirmed refuses nothing (it could be anyone's)."""
    return list(
        User.objects.filter(
            is_active=True, emailaddress__email__iexact=email, emailaddress__verified=True
        ).distinct()
    )


def never_invite(address: str) -> None:
    """The owner of ``address`` asks never to be invited again (asking twice is one
    request): every invitation to it is refused from now on, until they sign up."""
    InvitationOptOut.objects.get_or_create(address=normalised_address(address))


def refuses_invitations(address: str) -> bool:
    """Whether an invitation to ``address`` is refused: its owner asked never to be
    invited, and no account has it as a verified address (a player decides for
    themselves, by ``challenges_from``)."""
    if not InvitationOptOut.objects.filter(address=normalised_address(address)).exists():
        return False
    return not accounts_at(address)


def not_taking_invitations(address: str) -> ServiceError:
    return ServiceError(
        403,
        "NOT_ACCEPTING_INVITATIONS",
        _(
            "%(email)s asked never to be invited here again: they may sign up and "
            "challenge you themselves"
        )
        % {"email": address},
        player=address,
    )


def report(
    reporter: User,
    reported: User | None,
    *,
    reason: str,
    details: str = "",
    game_id: int | None = None,
    message_id: int | None = None,
    message_text: str = "",
) -> Report:
    """File a report for support staff (the admin's Reports). A message is reported
    once by each player; a second report of it answers the first."""
    if reason not in Report.Reason.values:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("reason must be one of: %(values)s") % {"values": ", ".join(Report.Reason.values)},
        )
    if reported is not None and reported.pk == reporter.pk:
        raise ServiceError(400, "SAME_PLAYER", _("you cannot report yourself"))
    details = details.strip()
    if len(details) > MAX_DETAILS:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("details hold at most %(limit)s characters") % {"limit": MAX_DETAILS},
        )
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=reporter.pk).first()  # the daily cap
        if message_id is not None:
            earlier = Report.objects.filter(reporter=reporter, message_id=message_id).first()
            if earlier is not None:
                return earlier
        day_ago = timezone.now() - timedelta(days=1)
        if Report.objects.filter(reporter=reporter, created_at__gte=day_ago).count() >= (
            MAX_REPORTS_PER_DAY
        ):
            raise ServiceError(
                429,
                "TOO_MANY_REPORTS",
                _("at most %(count)s reports a day: support staff will read those you sent")
                % {"count": MAX_REPORTS_PER_DAY},
            )
        filed = Report.objects.create(
            reporter=reporter,
            reported=reported,
            reason=reason,
            details=details,
            game_id=game_id,
            message_id=message_id,
            message_text=message_text,
        )
    # For the staff's log watchers; the reporter is named in the admin only.
    logger.info("report filed %s", fields(id=filed.pk, reason=reason, game=game_id or "-"))
    return filed


def report_player(reporter: User, username: str, *, reason: str, details: str = "") -> Report:
    """``reporter`` reports the player called ``username`` (their page, the API)."""
    return report(reporter, _player(username), reason=reason, details=details)
