"""Times on the pages are in the player's own time zone (the profile's), named, whatever
the browser's zone: the script only counts down, it never rewrites the time."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from accounts.services import update_profile
from games.models import Game
from games.play.dealing import start_game

from .conftest import Console, sign_in


def on_the_clock(when: Any, zone: str) -> str:
    """``Thu 26 Nov, 20:11 CET``: how the pages write a time."""
    local = when.astimezone(ZoneInfo(zone))
    return f"{local:%a} {local.day} {local:%b, %H:%M %Z}"


def test_it_shows_the_deadline_in_the_profiles_zone_not_the_browsers(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    update_profile(alice, {"time_zone": "Europe/Paris"})
    game = start_game(alice, bob, seed=20261122)
    deadline_at = timezone.now().replace(second=0, microsecond=0) + timedelta(days=2, hours=3)
    Game.objects.filter(pk=game.pk).update(deadline=deadline_at)
    in_paris = on_the_clock(deadline_at, "Europe/Paris")
    in_new_york = on_the_clock(deadline_at, "America/New_York").split(", ")[1][:5]
    page = new_page(1280, timezone_id="America/New_York")
    sign_in(page, "alice")
    expect(page.locator(f"a[href='/games/{game.pk}/'] ~ time")).to_have_text(in_paris)
    page.goto(f"/games/{game.pk}/")
    deadline = page.locator(".status time.deadline")
    countdown = page.locator(".status .countdown")
    first = countdown.inner_text()
    # The countdown ticks (the script runs every second) and the time stays Paris time.
    expect(countdown).not_to_have_text(first, timeout=5_000)
    expect(countdown).to_have_text(re.compile(r"2 d \d\d:\d\d:\d\d left"))
    expect(deadline).to_have_text(in_paris)
    assert in_new_york not in page.locator(".status").inner_text()
    assert console.errors == []
