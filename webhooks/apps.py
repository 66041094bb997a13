from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Webhooks: a player's events POSTed, signed, to the URLs they register
    (docs/webhooks.md). Built on top of ``games``, which never imports it: the
    deliveries are queued by a receiver of ``games.feed.events.event_recorded``."""

    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from games.feed.events import event_recorded

        # Registered in every process: the outbox queues them by name.
        from . import tasks  # noqa: F401
        from .models import Webhook
        from .outbox import queue_deliveries, webhook_changed

        event_recorded.connect(queue_deliveries, dispatch_uid="webhooks.queue_deliveries")
        # A webhook made, changed or deleted (its owner's account with it): the cache
        # of who has webhooks forgets its owner.
        post_save.connect(webhook_changed, sender=Webhook, dispatch_uid="webhooks.saved")
        post_delete.connect(webhook_changed, sender=Webhook, dispatch_uid="webhooks.deleted")
