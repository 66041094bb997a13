"""The kinds of notice a player sets a preference for (by e-mail at once, by push, by
push and e-mail, in a daily digest, or never), which accounts stores on the profile
and knows nothing else of: the app that sends the notices declares its kinds, with
their names, when it is ready
(``declare``; ``games.apps`` declares the games' e-mails)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise

#: How a player may be told of a kind of notice: "immediately" is an e-mail at once;
#: "push" a push notification to each of their devices (an e-mail when they have none);
#: "push_and_email" both, a "your turn" e-mail waiting ``Profile.email_after_push_minutes``
#: for the game to be opened first (docs/notifications.md).
NOTIFICATION_MODES = ("immediately", "push", "push_and_email", "daily_digest", "never")
#: The modes that push.
PUSH_MODES = ("push", "push_and_email")

_kinds: dict[str, Promise | str] = {}


def declare(kinds: Mapping[str, Promise | str]) -> None:
    """Declare kinds of notice, each with its name as a player reads it ("your turn")."""
    _kinds.update(kinds)


def kinds() -> tuple[str, ...]:
    """The kinds declared, in the order they were."""
    return tuple(_kinds)


def name_of(kind: str) -> str:
    return str(_kinds[kind])
