"""The page's form that makes a competition (the API takes the same terms)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from games.clocks import BANK, DAYS_PER_TURN, PER_TURN, TimeControl
from games.lobby import rules_catalog
from games.lobby.challenges import MATCH_TARGET, RATING
from games.models import StopMode

from .models import Format
from .services.entering import (
    DESCRIPTION_LENGTH,
    DIVISION_SIZE,
    NAME_LENGTH,
    PLAYERS,
    PROMOTED,
    REACH,
    SWISS_ROUNDS,
    Terms,
)


class CompetitionForm(forms.Form):
    name = forms.CharField(max_length=NAME_LENGTH, label=gettext_lazy("Name"))
    format = forms.ChoiceField(
        choices=Format.choices, initial=Format.SWISS, label=gettext_lazy("Format")
    )
    description = forms.CharField(
        required=False,
        max_length=DESCRIPTION_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Description"),
    )
    rules = forms.ChoiceField(
        choices=rules_catalog.preset_choices(), initial="pagat", label=gettext_lazy("Rules")
    )
    stop_mode = forms.ChoiceField(
        choices=StopMode.choices, initial=StopMode.REFEREE, label=gettext_lazy("Illegal moves")
    )
    control = forms.ChoiceField(
        choices=[(PER_TURN, gettext_lazy("Days per turn")), (BANK, gettext_lazy("A time bank"))],
        initial=PER_TURN,
        label=gettext_lazy("Time control"),
    )
    days_per_turn = forms.IntegerField(
        initial=3, **DAYS_PER_TURN.field(), label=gettext_lazy("Days per turn")
    )
    rounds = forms.IntegerField(
        required=False,
        **SWISS_ROUNDS.field(),
        label=gettext_lazy("Rounds (Swiss)"),
    )
    double = forms.BooleanField(
        required=False,
        label=gettext_lazy("Each pair meets twice, seats swapped (round robin, league)"),
    )
    match_target = forms.IntegerField(
        required=False,
        **MATCH_TARGET.field(),
        label=gettext_lazy("Knockout: each tie a match to this many points"),
        help_text=gettext_lazy("Empty: each tie is one game."),
    )
    division_size = forms.IntegerField(
        initial=8, **DIVISION_SIZE.field(), label=gettext_lazy("League: players per division")
    )
    promoted = forms.IntegerField(
        initial=2, **PROMOTED.field(), label=gettext_lazy("League: players moving up and down")
    )
    reach = forms.IntegerField(
        initial=3, **REACH.field(), label=gettext_lazy("Ladder: places above one may challenge")
    )
    max_players = forms.IntegerField(
        initial=16, **PLAYERS.field(), label=gettext_lazy("Most players")
    )
    min_players = forms.IntegerField(
        initial=2, **PLAYERS.field(), label=gettext_lazy("Fewest players")
    )
    starts_at = forms.DateTimeField(
        required=False,
        label=gettext_lazy("Start (your time zone)"),
        help_text=gettext_lazy("Empty: it starts as soon as it is full."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Rated"))
    min_rating = forms.IntegerField(
        required=False, **RATING.field(), label=gettext_lazy("Lowest rating")
    )
    max_rating = forms.IntegerField(
        required=False, **RATING.field(), label=gettext_lazy("Highest rating")
    )
    public = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Public: anyone may enter and watch"),
        help_text=gettext_lazy("Not public: the players you invite, and whoever has its link."),
    )
    invited = forms.CharField(
        required=False,
        max_length=2000,
        label=gettext_lazy("Invited players"),
        help_text=gettext_lazy("Usernames, separated by spaces or commas."),
    )

    def terms(self) -> Terms:
        data = self.cleaned_data
        return Terms(
            name=data["name"],
            format=data["format"],
            description=data["description"],
            rules=data["rules"],
            stop_mode=data["stop_mode"],
            clock=TimeControl(control=data["control"], days_per_turn=data["days_per_turn"]),
            rated=data["rated"],
            min_rating=data["min_rating"],
            max_rating=data["max_rating"],
            starts_at=data["starts_at"],
            max_players=data["max_players"],
            min_players=data["min_players"],
            public=data["public"],
            invited=[n for n in data["invited"].replace(",", " ").split() if n],
            double=data["double"],
            rounds=data["rounds"],
            match_target=data["match_target"],
            division_size=data["division_size"],
            promoted=data["promoted"],
            reach=data["reach"],
        )
