"""Production settings pass Django's deployment checks, and the API throttles."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.throttling import UserRateThrottle

from .conftest import client_for

ROOT = Path(__file__).resolve().parents[2]


def test_manage_check_deploy_is_clean_with_production_settings() -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SECURE_", "SESSION_", "CSRF_", "DEBUG"))
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "bank.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


@pytest.mark.django_db
def test_the_api_throttles_a_client_that_asks_too_often(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.clear()
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "3/min"})
    client = client_for(alice)
    codes = [client.get("/api/v1/me/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    body = client.get("/api/v1/me/").json()
    assert body["error"] == "THROTTLED" and "available in" in body["message"]
    cache.clear()
