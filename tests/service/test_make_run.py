"""``make run`` as a newcomer runs it: the whole service on the port asked for."""

from __future__ import annotations

import os
import re
import signal
import smtplib
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest

from config.run import port

from .conftest import wait_until
from .smtp import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_the_port_comes_from_PORT_else_8000() -> None:
    assert port({}) == 8000
    assert port({"PORT": "8123"}) == 8123
    for wrong in ("http", "0", "70000", "-1"):
        with pytest.raises(SystemExit, match="PORT must be a TCP port number"):
            port({"PORT": wrong})


def wait_for_smtp(port: int, deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                return client.noop()[0] == 250
        except OSError:
            time.sleep(0.5)
    return False


def sign_up_and_find_the_confirmation(site: str, tmp_path: Path, log: Path) -> None:
    """A newcomer signs up: the confirmation e-mail is a file under var/mail/, one line
    in the output names it, and /dev/mail/ shows its link, clickable."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    form = opener.open(f"{site}/accounts/signup/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert token is not None
    fields = {
        "csrfmiddlewaretoken": token[1],
        "email": "dora@example.com",
        "username": "dora",
        "password1": "dora-plays-bank-42",
        "password2": "dora-plays-bank-42",
    }
    request = urllib.request.Request(
        f"{site}/accounts/signup/",
        data=urlencode(fields).encode(),
        headers={"Referer": f"{site}/accounts/signup/"},
    )
    opener.open(request, timeout=30).read()
    folder = tmp_path / "var" / "mail"

    def lines_to_dora() -> list[str]:
        lines = log.read_text().splitlines()
        return [line for line in lines if "e-mail kept" in line and "to=dora@" in line]

    assert wait_until(lines_to_dora, 30), log.read_text()
    (line,) = lines_to_dora()  # one line for the e-mail (the demo's may come too)
    (kept,) = [path for path in folder.iterdir() if str(path) in line]
    assert "confirm" in kept.name
    output = log.read_text()
    assert f"E-mails are kept in {folder}/ and listed at {site}/dev/mail/" in output
    assert "/accounts/confirm-email/" not in output  # the e-mail is not printed
    mailbox = opener.open(f"{site}/dev/mail/", timeout=10).read().decode()
    link = re.search(r'<a href="([^"]*/accounts/confirm-email/[^"]+)">', mailbox)
    assert link is not None, mailbox
    assert link[1].startswith(site)


def test_make_run_serves_on_the_port_asked_for(tmp_path: Path) -> None:
    # The environment of a newcomer's shell: none of the suite's settings.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "REDIS_", "CACHE_", "RBANK_", "EMAIL_", "CELERY_"))
        and k not in ("DATABASE_URL", "DEBUG", "SITE_URL")
    }
    wanted, mail = free_port(), free_port()
    env |= {
        "PORT": str(wanted),
        "MAIL_RECEIVER_PORT": str(mail),
        "RBANK_VAR_DIR": str(tmp_path / "var"),
    }
    log = tmp_path / "run.log"
    with log.open("w") as out:
        run = subprocess.Popen(
            [sys.executable, "-m", "config.run"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert run.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{wanted}/rules/", timeout=5) as r:
                    assert r.status == 200
                    break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.5)
        assert f"running on http://127.0.0.1:{wanted}/" in log.read_text()
        sign_up_and_find_the_confirmation(f"http://127.0.0.1:{wanted}", tmp_path, log)
        # The play-by-mail receiver runs beside them: it takes only its own addresses.
        assert wait_for_smtp(mail, deadline), log.read_text()
        with smtplib.SMTP("127.0.0.1", mail, timeout=10) as client:
            client.ehlo()
            client.mail("someone@example.com")
            code, _ = client.rcpt("someone@elsewhere.example")
            assert code == 550
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        try:
            run.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


@pytest.mark.parametrize("module", ["config.run", "config.cluster"])
def test_the_launchers_stop_on_ctrl_c_even_started_with_it_ignored(module: str) -> None:
    """A shell's background job (a CI run, a test run started so) starts with SIGINT
    ignored: the launcher still takes it as the signal to stop everything."""
    code = (
        "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        f"import {module} as launcher\n"
        "from config.run import stop_on_signals\n"
        "assert launcher.stop_on_signals is stop_on_signals\n"
        "stop_on_signals()\n"
        "try:\n"
        "    signal.raise_signal(signal.SIGINT)\n"
        "except KeyboardInterrupt:\n"
        "    print('stopping')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "stopping", done.stderr
