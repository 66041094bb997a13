"""The engine's messages in the request's language: ``games.words.engine_messages``.

No translation exists yet: in English the catalogue is the engine's own, and the
generated module that ``makemessages`` reads lists every template of it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation

import games.words.engine_msgids
from games.engine import OPTION_DESCRIPTIONS, PRESET_DESCRIPTIONS
from games.engine.messages import MESSAGES
from games.lobby import rules_catalog
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


def test_the_rules_are_described_once_in_the_engine_and_translated_here() -> None:
    """The pages' descriptions of the presets and options are the engine's, in plain
    words: the generated module lists each for the translators, and French reads them
    translated."""
    plain = [
        engine_messages.in_plain_words(text)
        for text in (*PRESET_DESCRIPTIONS.values(), *OPTION_DESCRIPTIONS.values())
    ]
    with translation.override("en"):
        assert [str(msgid) for msgid in games.words.engine_msgids.RULE_MSGIDS] == plain
        english = {option.name: option.help for option in rules_catalog.options()}
        presets = [preset["description"] for preset in rules_catalog.presets_in_plain_words()]
    assert english == {
        name: engine_messages.in_plain_words(text) for name, text in OPTION_DESCRIPTIONS.items()
    }
    assert sorted(presets) == sorted(plain[: len(PRESET_DESCRIPTIONS)])
    with translation.override("fr"):
        french = {option.name: option.help for option in rules_catalog.options()}
    assert [name for name in french if french[name] == english[name]] == []
