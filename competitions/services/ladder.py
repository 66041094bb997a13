"""A ladder: its players in order (position 1 at the top). A player challenges one up
to ``reach`` places above; the winner, if below, takes the loser's place and those
between move down one; a stalemate changes nothing. One challenge at a time each.
A newcomer starts at the bottom; a player who leaves leaves a gap the others close."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from lib.errors import ServiceError

from ..formats import ladder
from ..models import Competition, Entry, Format, Pairing, Round
from .dealing import new_round, pair


def first_positions(competition: Competition, entries: Sequence[Entry]) -> None:
    ordered = sorted(entries, key=lambda e: (-e.rating, e.pk))
    _set([e.pk for e in ordered])
    # One open-ended round holds its challenges: it has no deadline to show.
    Round.objects.filter(pk=new_round(competition, 1).pk).update(deadline=None)


def order(competition: Competition) -> list[int]:
    return list(
        competition.entries.filter(withdrawn_at__isnull=True, position__isnull=False)
        .order_by("position")
        .values_list("pk", flat=True)
    )


def _set(ordered: Sequence[int]) -> None:
    entries = Entry.objects.in_bulk(list(ordered))
    for position, entry_id in enumerate(ordered, start=1):
        entries[entry_id].position = position
    Entry.objects.bulk_update(entries.values(), ["position"])


def join_running_ladder(competition: Competition, entry: Entry) -> None:
    entry.position = len(order(competition)) + 1
    entry.save(update_fields=["position"])


def leave(competition: Competition, entry: Entry) -> None:
    rest = [e for e in order(competition) if e != entry.pk]
    Entry.objects.filter(pk=entry.pk).update(position=None)
    _set(rest)


def challenge(competition_id: int, user: User, target: str) -> Pairing:
    """``user`` challenges the player called ``target``: their game is dealt at once."""
    with transaction.atomic():
        competition = Competition.objects.select_for_update().filter(pk=competition_id).first()
        if competition is None or competition.format != Format.LADDER:
            raise ServiceError(404, "NOT_FOUND", _("no such ladder"))
        if competition.status != Competition.Status.RUNNING:
            raise ServiceError(409, "NOT_RUNNING", _("this ladder has not started"))
        active = competition.entries.filter(withdrawn_at__isnull=True)
        mine = active.filter(player=user).first()
        theirs = active.filter(player__username__iexact=target).first()
        if mine is None:
            raise ServiceError(409, "NOT_ENTERED", _("you are not in this competition"))
        if theirs is None:
            raise ServiceError(
                404, "NO_SUCH_PLAYER", _("%(name)s is not on this ladder") % {"name": repr(target)}
            )
        busy = Pairing.objects.filter(
            Q(seat_a__in=[mine, theirs]) | Q(seat_b__in=[mine, theirs]),
            round__competition=competition,
            decided_at__isnull=True,
        )
        if busy.exists():
            raise ServiceError(
                409, "BUSY", _("one of you is already playing a challenge on this ladder")
            )
        if not ladder.may_challenge(
            order(competition), mine.pk, theirs.pk, reach=competition.reach
        ):
            raise ServiceError(
                409,
                "OUT_OF_REACH",
                _("you may challenge a player up to %(reach)s places above you")
                % {"reach": competition.reach},
            )
        round_ = Round.objects.get(competition=competition, number=1)
        return pair(competition, round_, [(mine.pk, theirs.pk)])[0]


def decided(competition: Competition, pairing: Pairing) -> None:
    """A challenge's result moves the ladder (a stalemate leaves it as it is)."""
    if pairing.seat_b_id is None or pairing.points_a == pairing.points_b:
        return
    a, b = pairing.seat_a_id, pairing.seat_b_id
    winner, loser = (a, b) if (pairing.points_a or 0) > (pairing.points_b or 0) else (b, a)
    current = order(competition)
    if winner in current and loser in current:
        _set(ladder.after_game(current, winner, loser))
