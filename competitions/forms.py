"""The page's form that makes a competition (the API takes the same terms)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from games.clocks import TimeControlForm
from games.lobby.challenges import MATCH_TARGET, RATING
from games.lobby.rules_form import RulesForm

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


class CompetitionForm(RulesForm, TimeControlForm):
    """Shown in parts (templates/competitions/new.html): what everyone sets first, what
    the chosen format asks (the page shows that format's part only), who may enter and
    when, then the rules' and the clock's details folded away."""

    ESSENTIALS = ("name", "format", "rules", "description")
    #: Each part a format asks for: the formats it belongs to, its fields.
    FORMAT_PARTS = (
        (("swiss",), ("rounds",)),
        (("round_robin", "league"), ("double",)),
        (("knockout",), ("match_target",)),
        (("league",), ("division_size", "promoted")),
        (("ladder",), ("reach",)),
    )
    ENTRY = ("max_players", "min_players", "starts_at", "public", "invited")
    field_order = (*ESSENTIALS, "stop_mode", *TimeControlForm.base_fields)

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
    rounds = forms.IntegerField(
        required=False,
        initial=5,
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

    def essentials(self) -> list[forms.BoundField]:
        return [self[name] for name in self.ESSENTIALS]

    def format_parts(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each format's part: the formats it serves (a data attribute), its fields."""
        return [
            (" ".join(formats), [self[name] for name in names])
            for formats, names in self.FORMAT_PARTS
        ]

    def entry_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.ENTRY]

    def more_fields(self) -> list[forms.BoundField]:
        """The rest: mistakes, the clock, rating; folded unless one has an error."""
        shown = {*self.ESSENTIALS, *self.ENTRY}
        shown.update(name for _formats, names in self.FORMAT_PARTS for name in names)
        return [field for field in self.plain_fields() if field.name not in shown]

    def more_has_errors(self) -> bool:
        return any(field.errors for field in self.more_fields())

    def terms(self) -> Terms:
        data = self.cleaned_data
        return Terms(
            name=data["name"],
            format=data["format"],
            description=data["description"],
            rules=data["rules"],
            stop_mode=data["stop_mode"],
            clock=self.time_control(),
            rule_options=self.rule_options(),
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
