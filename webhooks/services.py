"""A player's webhooks: registered, changed, turned off and on, deleted; a secret
replaced; a delivery sent again; a ping. The API and the page both call these."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.feed.events import KINDS
from lib.errors import ServiceError
from lib.outbox import dispatch_on_commit

from . import addresses
from .models import Delivery, Webhook
from .outbox import DELIVER, queue

#: Webhooks one account may have.
MAX_WEBHOOKS = 5
#: What a ping delivery's ``Rbank-Event`` says; no event kind has this name.
PING = "ping"


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def webhook_of(user: User, webhook_id: int) -> Webhook:
    """The player's webhook; 404 for another's, as for none."""
    webhook = Webhook.objects.filter(user=user, pk=webhook_id).first()
    if webhook is None:
        raise ServiceError(404, "NOT_FOUND", _("no such webhook"))
    return webhook


def _url(url: str) -> str:
    url = url.strip()
    try:
        addresses.check_syntax(url)
    except addresses.Refused as exc:
        # Translators: "url" is the name of the field (of the API and the form).
        raise ServiceError(400, "BAD_REQUEST", _("url: %(why)s") % {"why": exc}) from exc
    try:
        addresses.check_url(url)
    except addresses.Refused as exc:
        # Translators: "url" is the name of the field (of the API and the form).
        raise ServiceError(409, "URL_REFUSED", _("url: %(why)s") % {"why": exc}) from exc
    return url


def _kinds(kinds: Iterable[str]) -> list[str]:
    chosen = list(dict.fromkeys(kinds))
    unknown = [kind for kind in chosen if kind not in KINDS]
    if unknown or not chosen:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("kinds: choose one or more of %(kinds)s") % {"kinds": ", ".join(KINDS)},
        )
    return chosen


def create_webhook(user: User, url: str, kinds: Iterable[str], *, active: bool = True) -> Webhook:
    """A new webhook with a new secret (which its owner is shown this once)."""
    url, chosen = _url(url), _kinds(kinds)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # counts under a lock
        if Webhook.objects.filter(user=user).count() >= MAX_WEBHOOKS:
            raise ServiceError(
                409,
                "TOO_MANY_WEBHOOKS",
                _("at most %(count)s webhooks: delete one first") % {"count": MAX_WEBHOOKS},
            )
        return Webhook.objects.create(
            user=user, url=url, kinds=chosen, active=active, secret=new_secret()
        )


def update_webhook(user: User, webhook_id: int, changes: dict[str, Any]) -> Webhook:
    """Change the URL, the kinds, or turn the webhook off or on. Turned on again, or
    given another URL, it starts afresh (no failures counted, no wait) and resumes
    with its pending deliveries."""
    values: dict[str, Any] = {}
    if "url" in changes:
        values["url"] = _url(changes["url"])
    if "kinds" in changes:
        values["kinds"] = _kinds(changes["kinds"])
    with transaction.atomic():
        webhook = webhook_of(user, webhook_id)
        if "active" in changes and changes["active"] != webhook.active:
            values["active"] = bool(changes["active"])
            if values["active"]:
                values |= {
                    "disabled_at": None,
                    "disabled_reason": "",
                    "consecutive_failures": 0,
                    "retry_at": None,
                }
                dispatch_on_commit(DELIVER, webhook.pk)
        if values.get("url", webhook.url) != webhook.url and webhook.active:
            # Another receiver: its predecessor's failures are not its own, and it is
            # tried at once.
            values |= {"consecutive_failures": 0, "retry_at": None}
            dispatch_on_commit(DELIVER, webhook.pk)
        for name, value in values.items():
            setattr(webhook, name, value)
        if values:
            webhook.save(update_fields=list(values))
        return webhook


def delete_webhook(user: User, webhook_id: int) -> None:
    """Delete the webhook and its delivery log; nothing more is sent."""
    deleted, _rows = Webhook.objects.filter(user=user, pk=webhook_id).delete()
    if not deleted:
        raise ServiceError(404, "NOT_FOUND", _("no such webhook"))


def rotate_secret(user: User, webhook_id: int) -> Webhook:
    """A new secret, in force at once: the next delivery is signed with it."""
    webhook = webhook_of(user, webhook_id)
    webhook.secret = new_secret()
    webhook.save(update_fields=["secret"])
    return webhook


def _queue_one(webhook: Webhook, row: Delivery) -> Delivery:
    if not webhook.active:
        raise ServiceError(409, "WEBHOOK_OFF", _("the webhook is off: turn it on first"))
    with transaction.atomic():
        (row,) = queue([row])
    return row


def redeliver(user: User, webhook_id: int, delivery_id: int) -> Delivery:
    """Send a delivery's event (or ping) again, as a new delivery at the end of the
    queue: the receiver knows it by the event's id."""
    webhook = webhook_of(user, webhook_id)
    old = Delivery.objects.filter(webhook=webhook, pk=delivery_id).first()
    if old is None:
        raise ServiceError(404, "NOT_FOUND", _("no such delivery"))
    return _queue_one(
        webhook, Delivery(webhook=webhook, event=old.event, kind=old.kind, game_id=old.game_id)
    )


def ping(user: User, webhook_id: int) -> Delivery:
    """Queue a ping delivery (``{"kind": "ping", ...}``), to try the receiver."""
    webhook = webhook_of(user, webhook_id)
    return _queue_one(webhook, Delivery(webhook=webhook, kind=PING))
