"""The account pages' forms: profile and notifications (and who may challenge the
player), API tokens, vacation, blocking a player."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import notices

from .models import TIME_ZONES, ChallengesFrom

#: What each event is, in the words the profile page uses.
EVENT_LABELS = {
    "invitation": gettext_lazy("Someone invites me to a game"),
    "challenge_declined": gettext_lazy("A player declines my challenge"),
    "your_turn": gettext_lazy("It is my turn"),
    "reminder": gettext_lazy("A deadline is near (reminders)"),
    "timeout": gettext_lazy("A game is lost or won on time"),
    "game_over": gettext_lazy("A game ends"),
    "stalemate_offer": gettext_lazy("My opponent offers a stalemate"),
    "stalemate_declined": gettext_lazy("My stalemate offer is declined"),
    "stop_called": gettext_lazy("My opponent calls Stop! on my move"),
    "vacation": gettext_lazy("An opponent goes on vacation"),
    "message": gettext_lazy("A player writes to me at a game"),
}
MODE_CHOICES = [
    ("immediately", gettext_lazy("E-mail at once")),
    ("push", gettext_lazy("Push notification")),
    ("push_and_email", gettext_lazy("Push and e-mail")),
    ("daily_digest", gettext_lazy("In the daily digest")),
    ("never", gettext_lazy("Never")),
]
MAX_REMINDERS = 5


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=60,
        required=False,
        label=gettext_lazy("Display name"),
        help_text=gettext_lazy("Shown beside your username."),
    )
    time_zone = forms.ChoiceField(
        choices=[(zone, zone) for zone in TIME_ZONES],
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("Deadlines, reminders and weekend pauses follow it."),
    )
    language = forms.ChoiceField(
        choices=[("", gettext_lazy("My browser's")), *settings.LANGUAGES],
        required=False,
        label=gettext_lazy("Language"),
        help_text=gettext_lazy("Of these pages and of your e-mails."),
    )
    reminder_hours = forms.CharField(
        required=False,
        max_length=40,
        label=gettext_lazy("Remind me this many hours before a deadline"),
        help_text=gettext_lazy(
            "Up to five numbers, separated by commas, e.g. 24, 2. Empty: no reminders."
        ),
    )

    play_by_mail = forms.BooleanField(
        required=False,
        label=gettext_lazy("Play by mail"),
        help_text=gettext_lazy(
            "Every turn's e-mail shows the board and your legal moves, and you play by "
            "replying with your moves. Each game's page can say otherwise for that game."
        ),
    )

    computer_turn_emails = forms.BooleanField(
        required=False,
        label=gettext_lazy("E-mail me each turn against the computer"),
        help_text=gettext_lazy(
            "The computer answers within seconds, so its games send no “your turn” e-mail "
            "unless you tick this. In any game, no “your turn” e-mail is sent while you "
            "have the game's page open."
        ),
    )

    #: Not sent (a form from an older page): the setting stays as it is.
    email_after_push_minutes = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=24 * 60,
        label=gettext_lazy(
            "After a “your turn” push, e-mail me if I have not opened the game within (minutes)"
        ),
        help_text=gettext_lazy(
            "For “It is my turn” set to push and e-mail. 0: the e-mail goes with the push."
        ),
    )

    #: Not sent (a form from an older page): the setting stays as it is.
    challenges_from = forms.ChoiceField(
        choices=ChallengesFrom.choices,
        required=False,
        widget=forms.RadioSelect,
        label=gettext_lazy("Who may challenge me"),
        help_text=gettext_lazy(
            "By name or by an e-mail invitation. Open challenges are for anyone, and a "
            "player you block can never challenge you."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for event in notices.kinds():
            self.fields[f"notify_{event}"] = forms.ChoiceField(
                choices=MODE_CHOICES, label=EVENT_LABELS.get(event, event), initial="immediately"
            )

    def event_fields(self) -> list[forms.BoundField]:
        return [self[f"notify_{event}"] for event in notices.kinds()]

    def clean_reminder_hours(self) -> list[int]:
        raw = str(self.cleaned_data["reminder_hours"]).replace(" ", "")
        parts = [part for part in raw.split(",") if part]
        if not all(part.isascii() and part.isdigit() and len(part) <= 3 for part in parts):
            raise forms.ValidationError(_("Write whole numbers of hours, separated by commas."))
        hours = sorted({int(part) for part in parts}, reverse=True)
        if len(hours) > MAX_REMINDERS or not all(1 <= hour <= 336 for hour in hours):
            raise forms.ValidationError(
                _("At most %(most)s reminders, each 1 to 336 hours before the deadline.")
                % {"most": MAX_REMINDERS}
            )
        return hours

    def changes(self) -> dict[str, Any]:
        """The cleaned form as ``accounts.services.update_profile`` takes it."""
        data = self.cleaned_data
        return {
            "display_name": data["display_name"],
            "time_zone": data["time_zone"],
            "language": data["language"],
            "reminder_hours": data["reminder_hours"],
            "notifications": {event: data[f"notify_{event}"] for event in notices.kinds()},
            "play_by_mail": data["play_by_mail"],
            "computer_turn_emails": data["computer_turn_emails"],
            **({"challenges_from": data["challenges_from"]} if data["challenges_from"] else {}),
            **(
                {"email_after_push_minutes": data["email_after_push_minutes"]}
                if data["email_after_push_minutes"] is not None
                else {}
            ),
        }


class TokenForm(forms.Form):
    # Not "name": a control of that name would hide the form's own ``name`` property.
    token_name = forms.CharField(
        max_length=60,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("What the token is for, e.g. “my bot” or “phone app”."),
    )


class BlockForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label=gettext_lazy("Username"),
        help_text=gettext_lazy("The player to block, as their page names them."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class VacationForm(forms.Form):
    days = forms.IntegerField(
        min_value=1, max_value=366, initial=7, label=gettext_lazy("Days away")
    )


class DeleteAccountForm(forms.Form):
    """The player's password, so that nobody else at their screen deletes it."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password
