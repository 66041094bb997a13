"""The rules' fields, for every form that makes games (a challenge, a competition): the
preset, how mistakes are handled, and each option of RULES.md §9 as its own field
(``opt_<name>``), a short name with what it does in the players' words beneath it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.lobby import rules_catalog
from games.models import StopMode

OPTION = "opt_"


def _coerce_like(default: Any) -> Callable[[Any], Any]:
    """A chosen value read back as the option's own type (``"12"`` -> 12)."""
    kind = type(default)

    def coerce(raw: Any) -> Any:
        return kind(raw)

    return coerce


class RulesForm(forms.Form):
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.presets = rules_catalog.presets_in_plain_words()
        for option in rules_catalog.options():
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
            self.fields[f"{OPTION}{option.name}"] = field

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION)]

    def plain_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(OPTION)]

    def options_have_errors(self) -> bool:
        return any(field.errors for field in self.option_fields())

    def rule_options(self) -> dict[str, Any]:
        """The options ticked or chosen: each changes the preset (the rule options)."""
        return {
            name.removeprefix(OPTION): value
            for name, value in self.cleaned_data.items()
            if name.startswith(OPTION) and value not in (None, False)
        }

    def clean_stop_mode(self) -> str:
        return str(self.cleaned_data["stop_mode"] or StopMode.REFEREE)
