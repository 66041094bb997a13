"""The lobby's "new game" form."""

from __future__ import annotations

from django import forms

from games.engine import PRESETS

from .clocks import BANK, PER_TURN, TimeControl
from .models import StopMode


class NewGameForm(forms.Form):
    opponent = forms.CharField(
        required=False,
        max_length=254,
        label="Opponent",
        help_text="A username, or an e-mail address to invite someone new. "
        "Leave empty for an open challenge anyone may accept.",
    )
    rules = forms.ChoiceField(
        choices=[(name, name) for name in sorted(PRESETS)], initial="pagat", label="Rules"
    )
    stop_mode = forms.ChoiceField(
        choices=[
            (StopMode.REFEREE, "Referee: the server refuses every illegal move"),
            (StopMode.CLASSIC, "Classic: slips stand unless the opponent calls Stop!"),
        ],
        initial=StopMode.REFEREE,
        required=False,  # a form without it (an older page) makes a refereed game
        widget=forms.RadioSelect,
        label="Mistakes",
    )
    control = forms.ChoiceField(
        choices=[(PER_TURN, "Days per turn"), (BANK, "A time bank")],
        initial=PER_TURN,
        label="Time control",
    )
    days_per_turn = forms.IntegerField(min_value=1, max_value=14, initial=3, label="Days per turn")
    bank_initial_days = forms.IntegerField(
        min_value=1, max_value=60, initial=7, label="Bank: days at the start"
    )
    bank_increment_days = forms.IntegerField(
        min_value=0, max_value=14, initial=1, label="Bank: days added after each turn"
    )
    weekend_pause = forms.BooleanField(
        required=False, label="Stop the clock on Saturdays and Sundays"
    )
    match_target = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=10_000,
        label="Match to (points)",
        help_text="Leave empty for a single game.",
    )

    def clean_stop_mode(self) -> str:
        return str(self.cleaned_data["stop_mode"] or StopMode.REFEREE)

    def clean_opponent(self) -> str:
        return str(self.cleaned_data["opponent"]).strip()

    def time_control(self) -> TimeControl:
        data = self.cleaned_data
        initial = data["bank_initial_days"]
        return TimeControl(
            control=data["control"],
            days_per_turn=data["days_per_turn"],
            bank_initial_days=initial,
            bank_increment_days=data["bank_increment_days"],
            bank_cap_days=max(14, initial),
            weekend_pause=data["weekend_pause"],
        )
