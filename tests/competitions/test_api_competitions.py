"""The competitions' REST API: made, listed, read, entered, withdrawn from, standings
and pairings, a ladder's challenge; refusals in the API's one error shape."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from competitions.models import Competition

from .entrants import lose, open_games, players

pytestmark = pytest.mark.django_db


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def make(user: User, **body: Any) -> dict[str, Any]:
    answer = client_for(user).post(
        "/api/v1/competitions/",
        {"name": "Cup", "format": "swiss", "rounds": 2, **body},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    return dict(answer.json())


def test_a_swiss_made_entered_and_played_over_the_api() -> None:
    maker, *entrants = players(5, "a")
    made = make(maker, max_players=4)
    assert made["status"] == "open" and made["players"] == 0 and made["creator"] == "a0001"
    for player in entrants:
        entered = client_for(player).post(
            f"/api/v1/competitions/{made['id']}/enter/", {}, format="json"
        )
        assert entered.status_code == 201 and entered.json()["withdrawn"] is False
    detail = client_for(None).get(f"/api/v1/competitions/{made['id']}/").json()
    assert detail["status"] == "running" and detail["players"] == 4 and detail["current_round"] == 1
    pairings = client_for(None).get(f"/api/v1/competitions/{made['id']}/pairings/").json()
    assert pairings["count"] == 2 and all(p["game"] for p in pairings["results"])
    competition = Competition.objects.get(pk=made["id"])
    for _ in range(2):
        for game in open_games(competition):
            lose(game)
    table = client_for(None).get(f"/api/v1/competitions/{made['id']}/standings/").json()
    assert [row["rank"] for row in table["results"]] == [1, 2, 3, 4]
    assert set(table["results"][0]["tiebreaks"]) == {
        "buchholz",
        "sonneborn_berger",
        "direct",
        "count",
    }
    first_round = (
        client_for(None).get(f"/api/v1/competitions/{made['id']}/pairings/?round=1").json()
    )
    assert first_round["count"] == 2 and all(p["points_a"] == 1.0 for p in first_round["results"])
    listed = client_for(None).get("/api/v1/competitions/?status=finished").json()
    assert [c["id"] for c in listed["results"]] == [made["id"]]


def test_refusals_have_the_api_s_shape() -> None:
    maker, other = players(2, "r")
    three = client_for(maker).post(
        "/api/v1/competitions/",
        {"name": "Three", "format": "round_robin", "rules": "three-player"},
        format="json",
    )
    assert three.status_code == 400 and "three-player" in three.json()["message"]
    unknown = client_for(maker).post(
        "/api/v1/competitions/", {"name": "X", "format": "swiss", "roundz": 3}, format="json"
    )
    assert unknown.status_code == 400 and unknown.json()["error"] == "BAD_REQUEST"
    private = make(maker, public=False)
    hidden = client_for(other).get(f"/api/v1/competitions/{private['id']}/")
    assert hidden.status_code == 404 and hidden.json()["error"] == "NOT_FOUND"
    with_link = client_for(other).get(f"/api/v1/competitions/{private['id']}/?token=wrong")
    assert with_link.status_code == 404
    twice = client_for(other).post(
        f"/api/v1/competitions/{make(maker)['id']}/withdraw/", {}, format="json"
    )
    assert twice.status_code == 409 and twice.json()["error"] == "NOT_ENTERED"
    anonymous = client_for(None).post(
        "/api/v1/competitions/", {"name": "A", "format": "swiss"}, format="json"
    )
    assert anonymous.status_code in (401, 403)
    bad_status = client_for(None).get("/api/v1/competitions/?status=later")
    assert bad_status.status_code == 400 and bad_status.json()["error"] == "BAD_REQUEST"


def test_a_ladder_challenge_over_the_api() -> None:
    maker, *climbers = players(4, "l")
    made = make(maker, format="ladder", max_players=3, reach=1)
    for player in climbers:
        client_for(player).post(f"/api/v1/competitions/{made['id']}/enter/", {}, format="json")
    competition = Competition.objects.get(pk=made["id"])
    ordered = list(competition.entries.order_by("position"))
    last, above = ordered[-1], ordered[-2]
    answer = client_for(last.player).post(
        f"/api/v1/competitions/{made['id']}/challenge/", {"opponent": above.name}, format="json"
    )
    assert answer.status_code == 201 and answer.json()["game"] is not None
    again = client_for(last.player).post(
        f"/api/v1/competitions/{made['id']}/challenge/", {"opponent": above.name}, format="json"
    )
    assert again.status_code == 409 and again.json()["error"] == "BUSY"


def test_its_maker_enters_a_computer_player_over_the_api() -> None:
    maker, other = players(2, "b")
    made = make(maker)
    entered = client_for(maker).post(
        f"/api/v1/competitions/{made['id']}/enter/", {"computer": "medium"}, format="json"
    )
    assert entered.status_code == 201 and entered.json()["player"] == "computer-medium"
    refused = client_for(other).post(
        f"/api/v1/competitions/{made['id']}/enter/", {"computer": "easy"}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["error"] == "NOT_THE_MAKER"


def test_its_maker_starts_it_over_the_api_once_enough_have_entered() -> None:
    maker, first, second = players(3, "s")
    made = make(maker, max_players=8, min_players=2)
    start = f"/api/v1/competitions/{made['id']}/start/"
    client_for(first).post(f"/api/v1/competitions/{made['id']}/enter/", {}, format="json")
    few = client_for(maker).post(start, {}, format="json")
    assert few.status_code == 409 and few.json()["error"] == "TOO_FEW_PLAYERS"
    client_for(second).post(f"/api/v1/competitions/{made['id']}/enter/", {}, format="json")
    assert client_for(first).post(start, {}, format="json").status_code == 403
    started = client_for(maker).post(start, {}, format="json")
    assert started.status_code == 200 and started.json()["status"] == "running"
    assert len(open_games(Competition.objects.get(pk=made["id"]))) == 1
