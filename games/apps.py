from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.models import User
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_delete, post_save

        from accounts import notices
        from accounts.invitations import find_invitations_with
        from accounts.models import ApiToken
        from accounts.signals import account_deleting, player_blocked, vacation_started

        # Register the tasks in every process, the web's too: the outbox queues them
        # by name (lib.outbox.dispatch) and never imports them itself.
        from games import tasks  # noqa: F401
        from games.feed.stream import credentials_changed
        from games.lobby.challenges import pending_invitation, withdraw_challenges
        from games.models import Game
        from games.notify import channels
        from games.notify.kinds import KINDS
        from games.pages.poll import game_changed
        from games.play.services import resign_every_game
        from games.play.vacations import pause_clocks
        from games.push import sending
        from games.subscriptions import subscribe_all

        # What happens in a game reaches the features that follow it (e-mails, events,
        # ratings, matches, the computer players).
        subscribe_all()

        # A game's new version reaches the cache its pages' polls read.
        post_save.connect(game_changed, sender=Game, dispatch_uid="games.pages.poll.game_changed")
        # What an account tells the games (accounts never imports games).
        vacation_started.connect(pause_clocks, dispatch_uid="games.pause_clocks")
        account_deleting.connect(resign_every_game, dispatch_uid="games.resign_every_game")
        player_blocked.connect(withdraw_challenges, dispatch_uid="games.withdraw_challenges")
        # The games' e-mails a player sets a preference for (on their profile), and
        # the push each may go by instead or as well.
        notices.declare(KINDS)
        channels.push_with(sending.queue)
        # The sign-up page names who invites a newcomer who followed an invitation.
        find_invitations_with(pending_invitation)
        # A revoked token, a deleted or changed account, a logout: the event streams
        # they signed in are checked at once, in every web process (games/feed/stream.py).
        for signal, sender, uid in (
            (post_delete, ApiToken, "token_deleted"),
            (post_delete, User, "user_deleted"),
            (post_save, User, "user_saved"),
            (user_logged_out, None, "logged_out"),
        ):
            signal.connect(
                credentials_changed, sender=sender, dispatch_uid=f"games.feed.stream.{uid}"
            )
