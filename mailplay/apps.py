from django.apps import AppConfig


class MailplayConfig(AppConfig):
    """Play by mail, the inbound side: replies received, stored, then acted on once."""

    name = "mailplay"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from anymail.signals import inbound

        # Registered in every process: the receiver and the webhook queue them by name.
        from . import tasks  # noqa: F401
        from .webhooks import received_by_provider

        inbound.connect(received_by_provider, dispatch_uid="mailplay.received_by_provider")
