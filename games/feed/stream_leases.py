"""The open streams of a player, counted across every web process of the deployment.

Each open stream holds a lease row (``StreamLease``); a player may hold
``settings.STREAM_MAX_PER_USER`` live ones in all. The count and the new row are written
under the player's row lock, so two processes opening at once cannot both take the
last place. A hub renews its leases every ``STREAM_LEASE_SECONDS`` / 3; a web process
that dies stops renewing, and its streams stop counting ``STREAM_LEASE_SECONDS`` later.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.models import StreamLease


def take(user_id: int, hub: str) -> int | None:
    """A lease for one more stream of the player, held by ``hub``: its id, or None when
    they already hold ``STREAM_MAX_PER_USER`` live ones."""
    now = timezone.now()
    with transaction.atomic():
        # One player's opens one at a time, whichever process makes them.
        User.objects.select_for_update().filter(pk=user_id).values_list("pk").first()
        mine = StreamLease.objects.filter(user_id=user_id)
        mine.filter(renewed_at__lt=now - timedelta(seconds=settings.STREAM_LEASE_SECONDS)).delete()
        if mine.count() >= settings.STREAM_MAX_PER_USER:
            return None
        return StreamLease.objects.create(user_id=user_id, hub=hub, renewed_at=now).pk


def release(lease_ids: list[int]) -> None:
    """Closed streams: their places are free at once."""
    StreamLease.objects.filter(pk__in=lease_ids).delete()


def renew(hub: str, held: list[int]) -> None:
    """The leases ``hub`` still holds live on; any other of its rows (a release that
    was lost) goes."""
    StreamLease.objects.filter(hub=hub, pk__in=held).update(renewed_at=timezone.now())
    StreamLease.objects.filter(hub=hub).exclude(pk__in=held).delete()
