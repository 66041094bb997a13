"""The development mailbox (lib/mailbox.py): with no SMTP server, each e-mail is a
file under MAIL_FOLDER and one line in the log, and /dev/mail/ lists them with their
links, under DEBUG only."""

from __future__ import annotations

import logging
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from django.core.mail import EmailMultiAlternatives, get_connection
from django.test import Client, override_settings

from lib import mailbox

BACKEND = "lib.mailbox.MailFolderBackend"
LINK = "http://127.0.0.1:8000/accounts/confirm-email/MQ:1v2abc/"


def send(subject: str, text: str, to: str = "alice@example.com") -> None:
    message = EmailMultiAlternatives(subject, text, to=[to])
    message.attach_alternative(f"<p><a href='{LINK}'>Confirm</a></p>", "text/html")
    assert get_connection(BACKEND).send_messages([message]) == 1


def test_it_keeps_each_email_as_a_file_and_logs_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    body = "\n".join([f"Line {n} of a long e-mail." for n in range(40)] + [LINK])
    with override_settings(MAIL_FOLDER=tmp_path / "mail"), caplog.at_level(logging.INFO):
        send("Please confirm your e-mail address", body)
        send("Please confirm your e-mail address", body, to="bob@example.com")
    files = sorted((tmp_path / "mail").iterdir())
    assert len(files) == 2 and files[0] != files[1]
    for path in files:
        assert mailbox.NAME.match(path.name)
        assert path.name.endswith("-please-confirm-your-e-mail-address.eml")
    kept = message_from_bytes(files[0].read_bytes(), policy=policy.default)
    assert kept["Subject"] == "Please confirm your e-mail address"
    assert kept["To"] == "alice@example.com"
    lines = [r.getMessage() for r in caplog.records if r.name == "lib.mailbox"]
    assert len(lines) == 2
    assert all("\n" not in line and "Line 3" not in line for line in lines)
    assert "subject='Please confirm your e-mail address'" in lines[0]
    assert "to=alice@example.com" in lines[0] and str(files[0]) in lines[0]


def test_the_mailbox_page_lists_the_emails_with_their_links(tmp_path: Path) -> None:
    with override_settings(MAIL_FOLDER=tmp_path / "mail", DEBUG=True):
        send("Your turn in game 12", "It is your turn:\nhttp://127.0.0.1:8000/games/12/\n")
        send("Please confirm your e-mail address", f"Confirm it here: {LINK}\n")
        page = Client().get("/dev/mail/")
        assert page.status_code == 200
        html = page.content.decode()
        # Newest first, each with its links clickable.
        assert html.index("Please confirm") < html.index("Your turn in game 12")
        assert f'<a href="{LINK}">{LINK}</a>' in html
        assert '<a href="http://127.0.0.1:8000/games/12/">' in html
        name = next(m.name for m in mailbox.kept() if m.subject.startswith("Please"))
        one = Client().get(f"/dev/mail/{name}/")
        assert one.status_code == 200
        assert f'<a href="{LINK}"' in one.content.decode()
        html_part = Client().get(f"/dev/mail/{name}/", {"part": "html"})
        assert html_part["Content-Type"].startswith("text/html")
        assert "Confirm</a>" in html_part.content.decode()
        # Nothing but the mailbox's own files is ever read.
        for wrong in ("..%2F..%2Fsettings.py", "20260101-000000-000000-nothing.eml", "x.eml"):
            assert Client().get(f"/dev/mail/{wrong}/").status_code == 404


def test_the_mailbox_pages_are_404_without_debug(tmp_path: Path) -> None:
    with override_settings(MAIL_FOLDER=tmp_path / "mail", DEBUG=False):
        send("Please confirm your e-mail address", f"Confirm it here: {LINK}\n")
        (name,) = (m.name for m in mailbox.kept())
        assert Client().get("/dev/mail/").status_code == 404
        assert Client().get(f"/dev/mail/{name}/").status_code == 404
