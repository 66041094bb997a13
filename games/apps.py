from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the tasks in every process, the web's too: the outbox queues them
        # by name (games.notifications.dispatch) and never imports them itself.
        # What an account tells the games (accounts never imports games).
        from accounts.signals import account_deleting, vacation_started

        from . import tasks  # noqa: F401
        from .services import resign_every_game
        from .vacations import pause_clocks

        vacation_started.connect(pause_clocks, dispatch_uid="games.pause_clocks")
        account_deleting.connect(resign_every_game, dispatch_uid="games.resign_every_game")
