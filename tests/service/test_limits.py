"""The number limits of a challenge are said once: the new-game form, the API and the
services read the same bounds (games/clocks.py, games/lobby/challenges.py)."""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.auth.models import User
from rest_framework import serializers

from games.api.challenges import ChallengeSerializer
from games.clocks import (
    BANK_CAP_DAYS,
    BANK_INCREMENT_DAYS,
    BANK_INITIAL_DAYS,
    DAYS_PER_TURN,
    TimeControl,
)
from games.lobby.challenges import MATCH_TARGET, RATING, create_challenge
from games.pages.forms import NewGameForm
from lib.bounds import Bounds
from lib.errors import ServiceError

LIMITS = {
    "days_per_turn": DAYS_PER_TURN,
    "bank_initial_days": BANK_INITIAL_DAYS,
    "bank_increment_days": BANK_INCREMENT_DAYS,
    "bank_cap_days": BANK_CAP_DAYS,
    "match_target": MATCH_TARGET,
    "min_rating": RATING,
    "max_rating": RATING,
}


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_the_form_and_the_api_take_each_limit_from_its_one_place(name: str) -> None:
    bounds = LIMITS[name]
    api = ChallengeSerializer().fields[name]
    assert isinstance(api, serializers.IntegerField)
    assert (api.min_value, api.max_value) == (bounds.low, bounds.high)
    form = NewGameForm().fields.get(name)
    if form is not None:  # the form's bank cap follows its initial days
        assert isinstance(form, forms.IntegerField)
        assert (form.min_value, form.max_value) == (bounds.low, bounds.high)


def test_the_defaults_are_the_time_controls() -> None:
    fields = ChallengeSerializer().fields
    form = NewGameForm().fields
    for name in ("days_per_turn", "bank_initial_days", "bank_increment_days"):
        assert fields[name].default == form[name].initial == getattr(TimeControl(), name)
    assert fields["bank_cap_days"].default == TimeControl().bank_cap_days


@pytest.mark.parametrize("name", ["days_per_turn", "bank_initial_days", "bank_increment_days"])
def test_a_time_control_is_checked_against_the_same_bounds(name: str) -> None:
    bounds: Bounds = LIMITS[name]
    cap = {"bank_cap_days": BANK_CAP_DAYS.high}
    assert TimeControl(**{name: bounds.high}, **cap).validate() is None  # type: ignore[arg-type]
    assert TimeControl(**{name: bounds.high + 1}, **cap).validate() is not None  # type: ignore[arg-type]
    assert TimeControl(**{name: bounds.low - 1}, **cap).validate() is not None  # type: ignore[arg-type]


@pytest.mark.django_db
def test_the_service_refuses_a_match_target_or_a_rating_out_of_bounds(
    alice: User, bob: User
) -> None:
    for wrong in ({"match_target": MATCH_TARGET.high + 1}, {"match_target": MATCH_TARGET.low - 1}):
        with pytest.raises(ServiceError) as refused:
            create_challenge(alice, opponent="bob", **wrong)  # type: ignore[arg-type]
        assert refused.value.status == 400
        assert f"from {MATCH_TARGET.low} to {MATCH_TARGET.high}" in refused.value.message
    for wrong in ({"min_rating": RATING.low - 1}, {"max_rating": RATING.high + 1}):
        with pytest.raises(ServiceError) as refused:
            create_challenge(alice, is_open=True, **wrong)  # type: ignore[arg-type]
        assert f"from {RATING.low} to {RATING.high}" in refused.value.message
    made = create_challenge(
        alice, is_open=True, match_target=MATCH_TARGET.high, min_rating=RATING.low
    )
    assert made.pk is not None
