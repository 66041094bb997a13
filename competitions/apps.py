from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    """Competitions: tournaments, leagues and ladders (docs/competitions.md). Built on
    top of ``games``, which never imports it: it learns a game ended from the
    ``GameEnded`` happening, subscribed here, after the games' own subscribers (so a
    match is settled before its tie is), and it deals games as challenges do."""

    name = "competitions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import notices
        from accounts.signals import account_deleting
        from games.play.happenings import GameEnded, subscribe
        from lib import deadlines, occasions

        # Registered in every process: beat queues the sweep by name.
        from . import tasks  # noqa: F401
        from .services.telling import EMAIL_KINDS, round_deadlines
        from .services.views import game_occasion
        from .subscribers import account_deleted, game_ended

        subscribe(GameEnded, game_ended)
        account_deleting.connect(account_deleted, dispatch_uid="competitions.account_deleted")
        notices.declare(EMAIL_KINDS)
        deadlines.register(round_deadlines)
        occasions.register(game_occasion)
