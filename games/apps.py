from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the tasks in every process, the web's too: the outbox queues them
        # by name (games.notifications.dispatch) and never imports them itself.
        from . import tasks  # noqa: F401
