"""Each kind of event has one JSON Schema (games/feed/schemas.py): every event the
games write is valid by it (here for every kind, and in every test of the suite by the
autouse check of tests/conftest.py), and docs/api-events.md lists the same fields."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from competitions.services.entering import Terms, create_competition, enter
from games.feed.events import KINDS
from games.feed.schemas import ABOUT_GAME, ENVELOPE, MESSAGE, SCHEMAS
from games.lobby.challenges import (
    accept_challenge,
    cancel_challenge,
    create_challenge,
    decline_challenge,
)
from games.models import Event, Game
from games.play.services import resign, write_message
from games.play.stalemate import offer_stalemate
from games.play.stops import call_stop_on
from tests.event_schemas import problems
from tests.stop_scenes import classic_game

from .conftest import mover_and_other, play_turn

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "api-events.md"


def test_it_has_one_schema_for_every_kind_of_event() -> None:
    assert set(SCHEMAS) == set(KINDS)


def test_it_writes_every_kind_of_event_as_its_schema_says(
    alice: User, bob: User, charlie: User
) -> None:
    decline_challenge(create_challenge(alice, opponent="bob").pk, bob)
    cancel_challenge(create_challenge(alice, opponent="charlie").pk, alice)
    three = create_challenge(alice, opponent="bob", second_opponent="charlie", rules="three-player")
    accept_challenge(three.pk, bob)  # answered, no game yet: it waits for charlie
    accept_challenge(create_challenge(alice, opponent="bob").pk, bob)  # the first your_turn
    game, offender, caller, _moves = classic_game(alice, bob, ["S1", "S1"])
    call_stop_on(game_id=game.pk, user=caller, move_number=1)
    game.refresh_from_db()
    mover, other = mover_and_other(game, alice, bob)
    write_message(game_id=game.pk, user=other, text="between turns: told at once")
    write_message(game_id=game.pk, user=mover, text="with my turn")
    play_turn(game, alice, bob)  # its your_turn carries the message
    offer_stalemate(game_id=game.pk, user=offender)
    resign(game_id=game.pk, user=caller)
    # A competition: started, its round paired, over (docs/competitions.md).
    cup = create_competition(charlie, Terms(name="Cup", format="knockout", max_players=2))
    enter(cup.pk, alice)
    enter(cup.pk, bob)
    final = Game.objects.get(pairing__round__competition=cup)
    resign(game_id=final.pk, user=final.user_at(1))

    events = [event.as_json() for event in Event.objects.order_by("pk")]
    assert [problem for event in events for problem in problems(event)] == []
    assert {event["kind"] for event in events} == set(SCHEMAS)
    turns = [e for e in events if e["kind"] == "your_turn"]
    assert turns[0]["messages"] == [] and any(e["messages"] for e in turns)


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda e: e.pop("messages"), "'messages' is a required property"),
        (lambda e: e.update(mood="happy"), "Additional properties are not allowed"),
        (lambda e: e.update(version="7"), "'7' is not of type 'integer'"),
        (lambda e: e.update(at="yesterday"), "'yesterday' is not a 'date-time'"),
        (lambda e: e.update(kind="your_tune"), "no schema for the kind 'your_tune'"),
    ],
)
def test_it_refuses_an_event_that_departs_from_its_schema(
    game: Game, alice: User, bob: User, change: Callable[[dict[str, Any]], object], complaint: str
) -> None:
    play_turn(game, alice, bob)
    turn = Event.objects.get(kind="your_turn")
    event = turn.as_json()
    assert problems(event) == []
    change(event)
    assert any(complaint in problem for problem in problems(event)), problems(event)


def doc_fields() -> dict[str, tuple[set[str], str]]:
    """The table of docs/api-events.md: each kind's fields (the names in backquotes
    outside parentheses, which explain them) and the whole cell."""
    rows = re.findall(r"^\| `(\w+)` \| [^|]* \| (.*) \|$", DOC.read_text(encoding="utf-8"), re.M)
    table = {}
    for kind, cell in rows:
        bare, previous = cell, ""
        while bare != previous:
            previous, bare = bare, re.sub(r"\([^()]*\)", "", bare)
        table[kind] = (set(re.findall(r"`(\w+)`", bare)), cell)
    return table


def test_the_doc_lists_the_fields_of_each_kind_s_schema() -> None:
    table = doc_fields()
    assert set(table) == set(SCHEMAS)
    # The envelope (id, kind, at) and a game's id and version are said above the table.
    implied = set(ENVELOPE) | set(ABOUT_GAME)
    for kind, (named, _cell) in table.items():
        properties = set(SCHEMAS[kind]["properties"])
        assert named <= properties, (kind, named - properties)
        assert properties - named <= implied, (kind, properties - named - implied)
    message_cell = table["message"][1]
    assert all(f"`{name}`" in message_cell for name in MESSAGE["properties"])
