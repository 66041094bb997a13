"""The lobby's "new game" form, and the forms that report a player or a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.conduct import MAX_DETAILS
from accounts.models import Report
from games.clocks import (
    BANK,
    BANK_INCREMENT_DAYS,
    BANK_INITIAL_DAYS,
    DAYS_PER_TURN,
    PER_TURN,
    TimeControl,
)
from games.lobby import rules_catalog
from games.lobby.challenges import MATCH_TARGET, RATING
from games.models import StopMode


def _coerce_like(default: Any) -> Callable[[Any], Any]:
    """A chosen value read back as the option's own type (``"12"`` -> 12)."""
    kind = type(default)

    def coerce(raw: Any) -> Any:
        return kind(raw)

    return coerce


class NewGameForm(forms.Form):
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
    rules = forms.ChoiceField(
        # Names only: a description in a <select> is cut off on a phone. The form
        # lists what each one is beside it (``presets``).
        choices=rules_catalog.preset_choices(),
        initial="pagat",
        label=gettext_lazy("Rules"),
        help_text=gettext_lazy("Options below change the chosen rules further."),
    )
    stop_mode = forms.ChoiceField(
        choices=[
            (StopMode.REFEREE, gettext_lazy("Referee: the server refuses every illegal move")),
            (
                StopMode.CLASSIC,
                gettext_lazy("Classic: slips stand unless the opponent calls Stop!"),
            ),
        ],
        initial=StopMode.REFEREE,
        required=False,  # a form without it (an older page) makes a refereed game
        widget=forms.RadioSelect,
        label=gettext_lazy("Mistakes"),
    )
    control = forms.ChoiceField(
        choices=[(PER_TURN, gettext_lazy("Days per turn")), (BANK, gettext_lazy("A time bank"))],
        initial=PER_TURN,
        label=gettext_lazy("Time control"),
    )
    days_per_turn = forms.IntegerField(
        **DAYS_PER_TURN.field(),
        initial=TimeControl.days_per_turn,
        label=gettext_lazy("Days per turn"),
    )
    bank_initial_days = forms.IntegerField(
        **BANK_INITIAL_DAYS.field(),
        initial=TimeControl.bank_initial_days,
        label=gettext_lazy("Bank: days at the start"),
    )
    bank_increment_days = forms.IntegerField(
        **BANK_INCREMENT_DAYS.field(),
        initial=TimeControl.bank_increment_days,
        label=gettext_lazy("Bank: days added after each turn"),
    )
    weekend_pause = forms.BooleanField(
        required=False, label=gettext_lazy("Stop the clock on Saturdays and Sundays")
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.presets = rules_catalog.presets_in_plain_words()
        for option in rules_catalog.options():
            # A short name, and what it does in the players' words beneath it.
            label, help_text = option.label, option.help
            if option.is_switch:
                field: forms.Field = forms.BooleanField(
                    required=False, label=label, help_text=help_text
                )
            else:
                field = forms.TypedChoiceField(
                    choices=[("", _("as the rules say")), *((v, str(v)) for v in option.values)],
                    coerce=_coerce_like(option.default),
                    empty_value=None,
                    required=False,
                    label=label,
                    help_text=help_text,
                )
            self.fields[f"opt_{option.name}"] = field

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def plain_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith("opt_")]

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
        return any(field.errors for field in self.more_fields()) or any(
            field.errors for field in self.option_fields()
        )

    def rule_options(self) -> dict[str, Any]:
        """The options ticked or chosen: each changes the preset (the rule options)."""
        return {
            name.removeprefix("opt_"): value
            for name, value in self.cleaned_data.items()
            if name.startswith("opt_") and value not in (None, False)
        }

    def clean_stop_mode(self) -> str:
        return str(self.cleaned_data["stop_mode"] or StopMode.REFEREE)

    def clean_opponent(self) -> str:
        return str(self.cleaned_data["opponent"]).strip()

    def clean_second_opponent(self) -> str:
        return str(self.cleaned_data["second_opponent"]).strip()

    def time_control(self) -> TimeControl:
        data = self.cleaned_data
        initial = data["bank_initial_days"]
        return TimeControl(
            control=data["control"],
            days_per_turn=data["days_per_turn"],
            bank_initial_days=initial,
            bank_increment_days=data["bank_increment_days"],
            bank_cap_days=max(TimeControl.bank_cap_days, initial),
            weekend_pause=data["weekend_pause"],
        )


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
