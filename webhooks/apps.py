from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Webhooks: a player's events POSTed, signed, to the URLs they register
    (docs/webhooks.md). Built on top of ``games``, which never imports it: the
    deliveries are queued by a receiver of ``games.events.event_recorded``."""

    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.events import event_recorded

        # Registered in every process: the outbox queues them by name.
        from . import tasks  # noqa: F401
        from .outbox import queue_deliveries

        event_recorded.connect(queue_deliveries, dispatch_uid="webhooks.queue_deliveries")
