"""The computer players' accounts: one per level, made by a migration, never logging in.

Their games are played by ``games.computer.bots`` through the same services as a person's.
"""

from __future__ import annotations

from typing import Final

from django.contrib.auth.models import User

from .models import Profile

#: Level -> (username, display name). The usernames are taken before anyone signs up.
BOT_PLAYERS: Final = {
    "easy": ("computer-easy", "Computer (easy)"),
    "medium": ("computer-medium", "Computer (medium)"),
    "strong": ("computer-strong", "Computer (strong)"),
}


def bot_player(level: str) -> User:
    """The computer player of ``level`` (made if missing: a test that empties the tables,
    say; in a deployment the migration made them)."""
    username, display_name = BOT_PLAYERS[level]
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    Profile.objects.update_or_create(
        user=user, defaults={"bot_level": level, "display_name": display_name}
    )
    return user


def bot_level_of(username: str) -> str | None:
    """The level of the computer player called ``username`` (any case), or None."""
    for level, (name, _) in BOT_PLAYERS.items():
        if name == username.lower():
            return level
    return None


def level_of(user: User | None) -> str:
    """``user``'s level if a computer plays it, else "" (reads the profile with the
    user when the query selected it: ``select_related("user__profile")``)."""
    profile = getattr(user, "profile", None) if user is not None else None
    return profile.bot_level if profile is not None else ""
