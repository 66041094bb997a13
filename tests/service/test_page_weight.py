"""The table page is light: the page, its styles and its scripts weigh under 150 KB
compressed, halfway through a game with the last turn's playback in it."""

from __future__ import annotations

import gzip
import re

from django.contrib.auth.models import User
from django.contrib.staticfiles import finders

from games.models import Game

from .conftest import browser, play_turn

ASSETS = re.compile(r'<(?:link rel="stylesheet" href|script src)="/static/([^"]+)"')
MOST = 150_000


def test_the_table_page_with_its_styles_and_scripts_is_under_150_kb_compressed(
    game: Game, alice: User, bob: User
) -> None:
    for _turn in range(12):
        play_turn(game, alice, bob)
    me = alice if game.to_move == "A" else bob
    page = browser(me).get(f"/games/{game.pk}/").content
    assert b'id="turn-frames"' in page  # the opponent's last turn, to play out
    assets = ASSETS.findall(page.decode())
    assert {"games/site.css", "games/table.js", "games/theme.js"} <= set(assets)
    weight = len(gzip.compress(page))
    for asset in assets:
        found = finders.find(asset)
        assert isinstance(found, str), asset
        with open(found, "rb") as file:
            weight += len(gzip.compress(file.read()))
    assert weight < MOST, f"{weight} bytes compressed"
