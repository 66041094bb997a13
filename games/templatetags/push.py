"""The account page's push notifications (``{% push_devices %}``): accounts' template
shows them, and knows nothing of the games' devices or keys."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User

from games.push import devices, keys

register = template.Library()


@register.inclusion_tag("push/_account.html", takes_context=True)
def push_devices(context: dict[str, Any]) -> dict[str, Any]:
    user = context["user"]
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "enabled": keys.enabled(),
        "public_key": keys.public_key(),
        "devices": devices.devices_of(user) if isinstance(user, User) else [],
    }
