"""The production compose file, read as a deployer would (no Docker engine runs here)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yml"
SETTINGS = (ROOT / "rbank_site" / "settings.py").read_text()


def services() -> dict[str, Any]:
    doc = yaml.safe_load(COMPOSE.read_text())
    result: dict[str, Any] = doc["services"]
    return result


def test_it_has_web_worker_one_beat_postgres_redis_and_a_mail_catcher() -> None:
    svc = services()
    assert {"web", "worker", "beat", "postgres", "redis", "mailpit", "migrate"} <= set(svc)
    assert "gunicorn" in (ROOT / "docker" / "Dockerfile").read_text()
    assert "beat" in svc["beat"]["command"] and "deploy" not in svc["beat"]  # never scaled
    assert "worker" in svc["worker"]["command"]


def test_the_app_services_share_one_configuration_read_by_the_settings() -> None:
    svc = services()
    env = svc["web"]["environment"]
    for name in ("worker", "beat", "migrate"):
        assert svc[name]["environment"] == env
    for variable in env:
        assert f'"{variable}"' in SETTINGS, f"{variable} is not read by rbank_site/settings.py"
    assert env["DATABASE_URL"].startswith("postgres://") and env["REDIS_URL"].startswith("redis://")
    assert re.fullmatch(r"\$\{SECRET_KEY:\?.+\}", env["SECRET_KEY"])  # refuses to start without


def test_the_app_waits_for_migrations_and_healthy_data_stores() -> None:
    svc = services()
    assert svc["migrate"]["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    for name in ("web", "worker", "beat"):
        assert svc[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"}
        }
    for store in ("postgres", "redis"):
        assert "healthcheck" in svc[store]
