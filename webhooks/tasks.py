"""Celery tasks of the webhooks: thin wrappers around ``webhooks.delivery``."""

from __future__ import annotations

from celery import shared_task

from . import delivery


@shared_task(acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def deliver(webhook_id: int) -> int:
    """Make a webhook's due deliveries, in order; a second task for the same webhook
    finds it claimed and does nothing."""
    return delivery.deliver(webhook_id)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def sweep() -> int:
    """Every minute (beat): queue the webhooks whose deliveries are due again."""
    return delivery.sweep()


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def prune() -> int:
    """Once a day (beat): delete the deliveries older than RETENTION_DAYS."""
    return delivery.prune()
