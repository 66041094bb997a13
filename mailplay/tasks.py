"""Celery tasks of play by mail: thin wrappers that fetch by id and call a service."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import handling
from .models import InboundMail


@shared_task(acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def handle_inbound(inbound_id: int) -> str:
    """Act on a received message; a second delivery of the same task does nothing."""
    return handling.handle(inbound_id)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def sweep_inbound() -> int:
    """Every minute (beat): queue the messages no worker took up."""
    return handling.sweep()


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def prune_inbound() -> int:
    """Once a day (beat): delete the messages handled more than RETENTION_DAYS ago."""
    cutoff = timezone.now() - timedelta(days=settings.RETENTION_DAYS)
    done = InboundMail.objects.filter(
        status__in=[InboundMail.Status.DONE, InboundMail.Status.FAILED], received_at__lt=cutoff
    )
    deleted, _ = done.delete()
    return deleted
