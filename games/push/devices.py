"""The devices a player allowed to notify them: each browser's push subscription,
stored from the account page (``games.pages.app``), removed by the player or when
its push service reports it gone."""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import PushSubscription
from lib.errors import ServiceError

#: Devices one player may have (a phone, a tablet, a few browsers).
MAX_DEVICES = 20


def _key_bytes(value: str) -> bytes:
    if len(value) > 200:
        raise ValueError
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def _checked(endpoint: object, p256dh: object, auth: object) -> tuple[str, str, str]:
    """A subscription as a browser sends it, or a refusal."""
    parts = urlsplit(endpoint) if isinstance(endpoint, str) and len(endpoint) <= 1000 else None
    schemes = ("https",) if settings.PUSH_REQUIRE_HTTPS else ("https", "http")
    if parts is None or parts.scheme not in schemes or not parts.hostname:
        raise ServiceError(400, "BAD_REQUEST", _("the endpoint must be a push service's URL"))
    if not isinstance(p256dh, str) or not isinstance(auth, str):
        raise ServiceError(400, "BAD_REQUEST", _("the subscription's keys are not a browser's"))
    try:
        point, secret = _key_bytes(p256dh), _key_bytes(auth)
    except (ValueError, binascii.Error):
        point, secret = b"", b""
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        raise ServiceError(400, "BAD_REQUEST", _("the subscription's keys are not a browser's"))
    assert isinstance(endpoint, str)
    return endpoint, p256dh, auth


def subscribe(
    user: User, endpoint: object, p256dh: object, auth: object, device: str = ""
) -> PushSubscription:
    """Store a browser's subscription for ``user`` (taken over from another account
    that signed in on the same browser before). Refuses what no browser sends."""
    endpoint, p256dh, auth = _checked(endpoint, p256dh, auth)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # counts under a lock
        mine = PushSubscription.objects.filter(user=user)
        if mine.count() >= MAX_DEVICES and not mine.filter(endpoint=endpoint).exists():
            raise ServiceError(
                409,
                "TOO_MANY_DEVICES",
                _("at most %(count)s devices: remove one first") % {"count": MAX_DEVICES},
            )
        subscription, _made = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device[:200]},
        )
    return subscription


def unsubscribe(user: User, *, endpoint: str | None = None, pk: int | None = None) -> bool:
    """Forget one of the player's devices, by its endpoint or its id."""
    mine = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        mine = mine.filter(endpoint=endpoint)
    elif pk is not None:
        mine = mine.filter(pk=pk)
    else:
        return False
    deleted, _rows = mine.delete()
    return bool(deleted)


def devices_of(user: User) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user))


def renew(old: object, endpoint: object, p256dh: object, auth: object) -> bool:
    """The browser replaced its subscription (the worker's ``pushsubscriptionchange``):
    the device whose endpoint was ``old`` takes the new one. The old endpoint, known
    only to that browser and to us, is what proves it is that browser's."""
    endpoint, p256dh, auth = _checked(endpoint, p256dh, auth)
    if not isinstance(old, str) or old == endpoint:
        return False
    with transaction.atomic():
        PushSubscription.objects.filter(endpoint=endpoint).exclude(endpoint=old).delete()
        changed = PushSubscription.objects.filter(endpoint=old).update(
            endpoint=endpoint, p256dh=p256dh, auth=auth
        )
    return bool(changed)
