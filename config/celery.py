"""The Celery app. Settings come from Django's, under the ``CELERY_`` prefix."""

import logging.config
import os
from typing import Any

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect  # type: ignore[untyped-decorator]
def use_the_settings_logging(**kwargs: Any) -> None:
    """Workers and beat log as the web does (LOGGING: the console at LOG_LEVEL, errors
    to ADMINS), not through Celery's own set-up."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
