"""``make run`` as a newcomer runs it: the whole service on the port asked for."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from rbank_site.run import port

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
            [sys.executable, "-m", "rbank_site.run"],
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
