"""The lobby's "new game" form, and the forms that report a player or a message."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from accounts.conduct import MAX_DETAILS
from accounts.models import Report
from games.clocks import TimeControlForm
from games.lobby.challenges import MATCH_TARGET, RATING
from games.lobby.rules_form import RulesForm


class NewGameForm(RulesForm, TimeControlForm):
    field_order = (
        "opponent",
        "second_opponent",
        "rules",
        "stop_mode",
        *TimeControlForm.base_fields,
    )

    opponent = forms.CharField(
        required=False,
        max_length=254,
        label=gettext_lazy("Opponent"),
        help_text=gettext_lazy(
            "A username, or an e-mail address to invite someone new. "
            "Leave empty for an open challenge anyone may accept."
        ),
    )
    second_opponent = forms.CharField(
        required=False,
        max_length=150,
        label=gettext_lazy("Second opponent (three-player rules only)"),
        help_text=gettext_lazy(
            "With the three-player rules: the other username. Leave both opponents "
            "empty for an open challenge that the first two takers join."
        ),
    )
    match_target = forms.IntegerField(
        required=False,
        **MATCH_TARGET.field(),
        label=gettext_lazy("Match to (points)"),
        help_text=gettext_lazy("Leave empty for a single game."),
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Rated: the result changes both players' ratings"),
    )
    #: Unticked, the game is public: anyone may watch it (docs/spectators.md).
    private = forms.BooleanField(
        required=False,
        label=gettext_lazy("Private game: only its players can see it"),
        help_text=gettext_lazy(
            "Else anyone may watch it being played, seeing only the cards that lie face up."
        ),
    )
    min_rating = forms.IntegerField(
        required=False,
        **RATING.field(),
        label=gettext_lazy("Open challenge: lowest rating"),
        help_text=gettext_lazy("Only players rated within the range see an open challenge."),
    )
    max_rating = forms.IntegerField(
        required=False,
        **RATING.field(),
        label=gettext_lazy("Open challenge: highest rating"),
    )

    #: What most challenges set: who, which rules, how much time. The rest (a third
    #: player, Stop!, weekends, a match, rating, privacy, an open challenge's range) is
    #: folded away on the page, and opens when one of its fields has an error.
    FIRST_FIELDS = (
        "opponent",
        "rules",
        "control",
        "days_per_turn",
        "bank_initial_days",
        "bank_increment_days",
    )

    def first_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.FIRST_FIELDS if name in self.fields]

    def more_fields(self) -> list[forms.BoundField]:
        return [field for field in self.plain_fields() if field.name not in self.FIRST_FIELDS]

    def more_has_errors(self) -> bool:
        return any(field.errors for field in self.more_fields()) or self.options_have_errors()

    def clean_opponent(self) -> str:
        return str(self.cleaned_data["opponent"]).strip()

    def clean_second_opponent(self) -> str:
        return str(self.cleaned_data["second_opponent"]).strip()


class ReportForm(forms.Form):
    """A report for support staff (docs/conduct.md): why, and for a player, what
    happened. A reported message needs no more than the reason: its words go with it."""

    reason = forms.ChoiceField(
        choices=Report.Reason.choices,
        label=gettext_lazy("Reason"),
    )
    details = forms.CharField(
        required=False,
        max_length=MAX_DETAILS,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": MAX_DETAILS}),
        label=gettext_lazy("What happened (optional)"),
        help_text=gettext_lazy(
            "Only support staff read it; the player is never told who reported them."
        ),
    )
