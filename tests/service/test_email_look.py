"""The e-mails wear the site's look: the colours, fonts and spacing of
games/static/games/site.css, read from it (games/templatetags/look.py), never typed
again in a template."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.template import Context, Template, TemplateSyntaxError

from games.lobby.challenges import create_challenge, decline_challenge
from games.templatetags.look import tokens

from .smtp import Inbox, smtp_inbox

__all__ = ["smtp_inbox"]

ROOT = Path(__file__).resolve().parents[2]
EMAILS = ROOT / "templates" / "emails"
#: A colour, a font or a length typed into a template instead of taken from a token.
TYPED = re.compile(
    r"#[0-9a-fA-F]{3,8}\b|rgba?\(|font-family:(?!\{% look)|\b(Georgia|Arial|serif)\b"
)


def test_the_tokens_are_the_stylesheets_light_theme() -> None:
    css = (ROOT / "games" / "static" / "games" / "site.css").read_text()
    found = tokens()
    assert found["ink"] == "#1d1d1b" and f"--ink: {found['ink']};" in css
    assert found["font-ui"].startswith("system-ui") and found["felt"] == "#1f5f3a"
    assert found["bg"] != "#141618"  # the dark theme's background stands later


def test_an_unknown_token_fails_the_rendering() -> None:
    with pytest.raises(TemplateSyntaxError, match="no --inkk"):
        Template('{% load look %}{% look "inkk" %}').render(Context())


def test_no_email_template_types_a_colour_or_a_font_of_its_own() -> None:
    typed = {
        path.name: TYPED.findall(
            re.sub(r"\{% comment %\}.*?\{% endcomment %\}", "", text, flags=re.S)
        )
        for path in sorted(EMAILS.glob("*.html"))
        if TYPED.search(
            re.sub(
                r"\{% comment %\}.*?\{% endcomment %\}", "", text := path.read_text(), flags=re.S
            )
        )
    }
    assert typed == {}


@pytest.mark.django_db
def test_a_sent_email_wears_the_sites_look(
    smtp_inbox: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    with django_capture_on_commit_callbacks(execute=True):
        challenge = create_challenge(alice, opponent="bob")
    with django_capture_on_commit_callbacks(execute=True):
        decline_challenge(challenge.pk, bob)
    (message,) = smtp_inbox.to(alice.email)
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    body = html.unescape(str(part.get_content()))
    for name in ("font-ui", "bg", "surface", "ink", "link"):
        assert tokens()[name] in body, name
    assert "Georgia" not in body
