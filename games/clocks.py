"""Time controls: when a turn must be played by, and what a turn costs a time bank.

Two controls, chosen at the challenge (SchemingMind and OGS offer the same):

* ``per_turn``: each turn must be played within ``days_per_turn`` days;
* ``bank``: each seat has a bank of time, ``bank_initial_days`` at the start; a
  turn spends what it took, then ``bank_increment_days`` are added, up to
  ``bank_cap_days``.

With ``weekend_pause`` the clock does not run on Saturdays and Sundays, counted
in the time zone of the player whose clock it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from lib.bounds import Bounds

PER_TURN = "per_turn"
BANK = "bank"
CONTROLS = (PER_TURN, BANK)
DAY = timedelta(days=1)

#: What each setting may be, in days: the new-game form, the API and ``validate`` read
#: these (the defaults are ``TimeControl``'s).
DAYS_PER_TURN = Bounds(1, 14)
BANK_INITIAL_DAYS = Bounds(1, 60)
BANK_INCREMENT_DAYS = Bounds(0, 14)
BANK_CAP_DAYS = Bounds(1, 60)


@dataclass(frozen=True)
class TimeControl:
    control: str = PER_TURN
    days_per_turn: int = 3
    bank_initial_days: int = 7
    bank_increment_days: int = 1
    bank_cap_days: int = 14
    weekend_pause: bool = False

    def validate(self) -> str | None:
        """Why this control is not allowed (in the active language), or None."""
        if self.control not in CONTROLS:
            return _("time control must be one of %(controls)s") % {"controls": ", ".join(CONTROLS)}
        if self.days_per_turn not in DAYS_PER_TURN:
            return _("days_per_turn must be from %(low)s to %(high)s") % DAYS_PER_TURN.words()
        if not (
            self.bank_initial_days in BANK_INITIAL_DAYS
            and self.bank_increment_days in BANK_INCREMENT_DAYS
            and self.bank_cap_days in BANK_CAP_DAYS
            and self.bank_initial_days <= self.bank_cap_days
        ):
            return _(
                "a time bank needs %(initial_low)s-%(initial_high)s initial days, "
                "%(increment_low)s-%(increment_high)s added per turn, a cap of up to %(cap)s"
            ) % {
                "initial_low": BANK_INITIAL_DAYS.low,
                "initial_high": BANK_INITIAL_DAYS.high,
                "increment_low": BANK_INCREMENT_DAYS.low,
                "increment_high": BANK_INCREMENT_DAYS.high,
                "cap": BANK_CAP_DAYS.high,
            }
        return None

    @property
    def initial_bank(self) -> timedelta:
        return timedelta(days=self.bank_initial_days)


def _is_weekend(moment: datetime, zone: ZoneInfo) -> bool:
    return moment.astimezone(zone).weekday() >= 5


def _next_boundary(moment: datetime, zone: ZoneInfo) -> datetime:
    """The next local midnight after ``moment``."""
    local = moment.astimezone(zone)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0) + DAY
    return midnight.astimezone(moment.tzinfo)


def running_time(
    start: datetime, end: datetime, *, weekend_pause: bool, zone: ZoneInfo
) -> timedelta:
    """How much of ``start``..``end`` the clock ran (weekends left out when paused)."""
    if end <= start:
        return timedelta(0)
    if not weekend_pause:
        return end - start
    total = timedelta(0)
    moment = start
    while moment < end:
        step_end = min(_next_boundary(moment, zone), end)
        if not _is_weekend(moment, zone):
            total += step_end - moment
        moment = step_end
    return total


def deadline_after(
    start: datetime, allowance: timedelta, *, weekend_pause: bool, zone: ZoneInfo
) -> datetime:
    """When ``allowance`` of running clock time has passed after ``start``."""
    if not weekend_pause:
        return start + allowance
    left = allowance
    moment = start
    while True:
        boundary = _next_boundary(moment, zone)
        if _is_weekend(moment, zone):
            moment = boundary
            continue
        if moment + left <= boundary:
            return moment + left
        left -= boundary - moment
        moment = boundary


class TimeControlForm(forms.Form):
    """The time control's fields, for every form that sets one (a challenge, a
    competition): the kind, its days within the bounds above, and weekends."""

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
