"""The engine's messages in the request's language: ``games.words.engine_messages``.

No translation exists yet: in English the catalogue is the engine's own, and the
generated module that ``makemessages`` reads lists every template of it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation

import games.words.engine_msgids
from games.engine.messages import MESSAGES
from games.models import Game
from games.play import services
from games.words import engine_messages
from lib.errors import ServiceError

from .conftest import mover_and_other


def test_the_generated_msgids_follow_the_engines_catalogue() -> None:
    written = engine_messages.MSGIDS_PATH.read_text(encoding="utf-8")
    assert written == engine_messages.msgids_source(), (
        "games/words/engine_msgids.py no longer matches games.engine.messages.MESSAGES: "
        f"regenerate it with `{engine_messages.REGENERATE}` (and commit it)"
    )


def test_the_generated_msgids_hold_every_template_once_in_order() -> None:
    with translation.override("en"):
        assert [str(msgid) for msgid in games.words.engine_msgids.MSGIDS] == list(MESSAGES.values())


def test_in_english_the_catalogue_is_the_engines() -> None:
    with translation.override("en"):
        catalogue = engine_messages.catalogue()
    assert dict(catalogue) == MESSAGES
    assert list(catalogue) == list(MESSAGES)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_key_is_in_the_catalogue_in_every_language(language: str) -> None:
    with translation.override(language):
        catalogue = engine_messages.catalogue()
    assert set(catalogue) == set(MESSAGES)
    assert all(isinstance(words, str) and words for words in catalogue.values())


def test_a_refusal_speaks_from_the_active_catalogue(
    game: Game, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, other = mover_and_other(game, alice, bob)
    with pytest.raises(ServiceError) as english:
        services.play_moves(game_id=game.pk, user=other, moves=["T"])
    assert english.value.code == "NOT_YOUR_TURN"
    assert english.value.message == "it is your opponent's turn"

    marked = {key: f"» {template}" for key, template in MESSAGES.items()}
    monkeypatch.setattr(services, "catalogue", lambda: marked)
    with pytest.raises(ServiceError) as translated:
        services.play_moves(game_id=game.pk, user=other, moves=["T"])
    assert translated.value.code == "NOT_YOUR_TURN"
    assert translated.value.message == "» it is your opponent's turn"
