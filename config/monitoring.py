"""Error reports to Sentry, started by the settings only when ``SENTRY_DSN`` is set.

Web requests (Django) and tasks (Celery: the worker and beat load the same settings)
report their unhandled exceptions; no personal data is sent, and no performance
traces unless ``SENTRY_TRACES_SAMPLE_RATE`` asks for them.
"""

from __future__ import annotations

import os

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration


def start_sentry(dsn: str) -> None:
    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        send_default_pii=False,
    )
