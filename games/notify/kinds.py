"""The kinds of e-mail the games send that a player sets a preference for (at once, in
a daily digest, or never; ``accounts.notices``), each with its name as the player reads
it on the account page and the unsubscribe page."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

#: Each kind's e-mails, as they are called, e.g. on the unsubscribe page ("your turn").
KINDS: dict[str, Promise] = {
    "invitation": pgettext_lazy("kind of e-mail", "invitation"),
    "challenge_declined": pgettext_lazy("kind of e-mail", "challenge declined"),
    "your_turn": pgettext_lazy("kind of e-mail", "your turn"),
    "reminder": pgettext_lazy("kind of e-mail", "reminder"),
    "timeout": pgettext_lazy("kind of e-mail", "timeout"),
    "game_over": pgettext_lazy("kind of e-mail", "game over"),
    "stalemate_offer": pgettext_lazy("kind of e-mail", "stalemate offer"),
    "stalemate_declined": pgettext_lazy("kind of e-mail", "stalemate declined"),
    "stop_called": pgettext_lazy("kind of e-mail", "stop called"),
    "vacation": pgettext_lazy("kind of e-mail", "vacation"),
    "message": pgettext_lazy("kind of e-mail", "message from a player"),
}
