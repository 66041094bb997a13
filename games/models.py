"""Games, challenges, matches and the outbox.

A game row keeps the rules engine's own state (``games.play.store``): its snapshot while
it is played (one row read, whatever the length of the game), its record in the
engine's compact encoding once it is over. Both hold hidden cards: they never leave
the server except through the engine's per-seat views.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.bots import level_of
from games.engine import Rules
from games.engine.rules import rules_from_document
from games.lobby.rules_catalog import option_label, preset_name
from games.play import clocks


class TimeControlFields(models.Model):
    """The time control chosen at the challenge (games.play.clocks)."""

    time_control = models.CharField(_("time control"), max_length=16, default=clocks.PER_TURN)
    days_per_turn = models.PositiveSmallIntegerField(_("days per turn"), default=3)
    bank_initial_days = models.PositiveSmallIntegerField(_("bank initial days"), default=7)
    bank_increment_days = models.PositiveSmallIntegerField(_("bank increment days"), default=1)
    bank_cap_days = models.PositiveSmallIntegerField(_("bank cap days"), default=14)
    weekend_pause = models.BooleanField(_("weekend pause"), default=False)

    class Meta:
        abstract = True

    def clock(self) -> clocks.TimeControl:
        return clocks.TimeControl(
            control=self.time_control,
            days_per_turn=self.days_per_turn,
            bank_initial_days=self.bank_initial_days,
            bank_increment_days=self.bank_increment_days,
            bank_cap_days=self.bank_cap_days,
            weekend_pause=self.weekend_pause,
        )

    def set_clock(self, control: clocks.TimeControl) -> None:
        self.time_control = control.control
        self.days_per_turn = control.days_per_turn
        self.bank_initial_days = control.bank_initial_days
        self.bank_increment_days = control.bank_increment_days
        self.bank_cap_days = control.bank_cap_days
        self.weekend_pause = control.weekend_pause


class StopMode(models.TextChoices):
    """How a game treats rule violations (RULES.md §7)."""

    #: Every violation is refused with its code and message.
    REFEREE = "referee", _("Referee: every illegal move is refused")
    #: Priority violations (S1-S3; S6, S7 under options V5, V12) stand unless the
    #: opponent calls Stop! (R7.4).
    CLASSIC = "classic", _("Classic: the opponent may call Stop!")


class RulesFields(models.Model):
    """The rules chosen at the challenge: a preset, options changed from it (RULES.md
    §9, ``games.engine.OPTION_DESCRIPTIONS``), and how violations are treated."""

    rules = models.CharField(_("rules"), max_length=32, default="pagat")
    rule_options = models.JSONField(_("rule options"), default=dict, blank=True)
    stop_mode = models.CharField(
        _("stop mode"), max_length=8, choices=StopMode.choices, default=StopMode.REFEREE
    )

    class Meta:
        abstract = True

    def game_rules(self) -> Rules:
        return rules_from_document({"preset": self.rules, **self.rule_options})

    @property
    def rules_label(self) -> str:
        """The rules in a few words, in the active language: ``Standard (pagat.com)``, or
        ``Standard (pagat.com) + Lenient turn, Reserve size 12`` (options in the order of
        their ids)."""
        return rules_label(self.rules, self.rule_options)


def rules_label(preset: str, options: dict[str, Any]) -> str:
    changes = [
        option_label(option) + ("" if value is True else f" {value}")
        for option, value in sorted(options.items())  # PostgreSQL's jsonb reorders keys
        if value is not False
    ]
    return preset_name(preset) + (" + " + ", ".join(changes) if changes else "")


#: How a seat whose player deleted their account is named: their games stay.
DELETED_PLAYER = "deleted player"


class Seated(models.Model):
    """A game or a match whose players sit in seats, rows of its ``seats`` (``Seat``,
    ``MatchSeat``) in turn order: A, B, and C in the three-player game (G3). The
    number of seats is data. The rows are read once per instance (or prefetched) and
    kept until ``refresh_from_db``."""

    class Meta:
        abstract = True

    @property
    def seat_rows(self) -> list[Any]:
        rows: list[Any] | None = self.__dict__.get("_seat_rows")
        if rows is None:
            manager = self.seats  # type: ignore[attr-defined]
            if "seats" in getattr(self, "_prefetched_objects_cache", {}):
                rows = sorted(manager.all(), key=lambda seat: seat.letter)
            else:
                rows = list(manager.select_related("user__profile").order_by("letter"))
            self.__dict__["_seat_rows"] = rows
        return rows

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("_seat_rows", None)
        super().refresh_from_db(*args, **kwargs)

    @property
    def letters(self) -> str:
        """The seats' letters, in turn order: ``AB`` or ``ABC``."""
        return "".join(seat.letter for seat in self.seat_rows)

    @property
    def players(self) -> list[Any]:
        """The users, by seat (None for a player who deleted their account)."""
        return [seat.user for seat in self.seat_rows]

    def user_at(self, seat: int) -> Any:
        return self.seat_rows[seat].user

    def seat_of(self, user_id: int | None) -> int | None:
        """0 for seat A, 1 for B, 2 for C, None for anyone else."""
        if user_id is None:
            return None
        for index, seat in enumerate(self.seat_rows):
            if seat.user_id == user_id:
                return index
        return None

    def names(self) -> dict[str, str]:
        """Seat letter -> username."""
        return {seat.letter: seat.name for seat in self.seat_rows}

    @property
    def title(self) -> str:
        """``alice v bob`` (or ``alice v bob v carol``)."""
        return " v ".join(seat.name for seat in self.seat_rows)


class SeatFields(models.Model):
    """Who sits in a seat, and which seat it is."""

    #: The seat's letter: A, B or C, the turn order.
    letter = models.CharField(_("letter"), max_length=1)
    #: The player; None once they deleted their account (their games stay).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="%(class)s_set",
        verbose_name=_("user"),
    )

    class Meta:
        abstract = True

    @property
    def name(self) -> str:
        return DELETED_PLAYER if self.user is None else self.user.get_username()

    @property
    def index(self) -> int:
        return "ABC".index(self.letter)

    @property
    def bot_level(self) -> str:
        """The level of the computer player in this seat, or "" for a person."""
        return level_of(self.user)


class Match(Seated, RulesFields, TimeControlFields):
    """Games between the same players until one reaches the target score (R8.7)."""

    target = models.PositiveIntegerField(_("target"), default=300)
    winner = models.CharField(_("winner"), max_length=1, blank=True)
    #: Whether its games change the players' ratings (each game is rated on its own).
    rated = models.BooleanField(_("rated"), default=False)
    #: Whether anyone may watch its games (``Game.public``).
    public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"Match {self.pk}: {'-'.join(map(str, self.totals))} of {self.target}"

    @property
    def totals(self) -> list[int]:
        return [seat.total for seat in self.seat_rows]


class MatchSeat(SeatFields):
    """A player's seat in a match, and its total (R8.7)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    total = models.PositiveIntegerField(_("total"), default=0)

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        constraints = [
            models.UniqueConstraint(fields=["match", "letter"], name="unique_match_seat"),
        ]


class Game(Seated, RulesFields, TimeControlFields):
    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("game status", "Playing")
        WON = "won", pgettext_lazy("game status", "Won")
        STALEMATE = "stalemate", pgettext_lazy("game status", "Stalemate")

    #: The seat that started (0 = A). The deal chooses it (R3, V3), except in a match
    #: whose seats start in turn (V3 ``alternate``), where the service names it.
    starter = models.PositiveSmallIntegerField(_("starter"), null=True, blank=True)
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("match"),
    )
    #: The deal seed: secret while the game is played, revealed when it ends.
    seed = models.CharField(_("seed"), max_length=64)
    #: SHA-256 commitment to the seed, shown to both players from the deal on.
    seed_hash = models.CharField(_("seed hash"), max_length=64)
    #: While the game is played, the engine's snapshot (``games.engine.Game.snapshot``):
    #: the position, the turns, the counts and the record's encoding so far. It holds
    #: the hidden cards: referee only. None once the game is over (``games.play.store``).
    state = models.JSONField(_("state"), null=True, blank=True)
    #: Once the game is over, its record in the engine's compact encoding
    #: (``games.engine.encoding``): the whole game replays from it.
    record = models.BinaryField(_("record"), null=True, blank=True)
    #: Bumped by every event; clients send it back (If-Match / expected_version).
    version = models.PositiveIntegerField(_("version"), default=1)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLAYING
    )
    to_move = models.CharField(_("to move"), max_length=1, default="A")
    #: How a finished game ended (games.engine: cards, stalemate, agreed, resigned...).
    ending = models.CharField(_("ending"), max_length=16, blank=True)
    #: Copied from the engine by ``games.play.store.keep`` for lists and queries (with the
    #: seats' own copies): the number of entries in the record, the winner's letter (""
    #: for none: a stalemate, or a forfeit with three seats).
    ply = models.PositiveIntegerField(_("ply"), default=0)
    winner = models.CharField(_("winner"), max_length=1, blank=True)
    #: The seat that resigned or ran out of time (R8.6), or "".
    forfeiter = models.CharField(_("forfeiter"), max_length=1, blank=True)
    #: Whether its end changes the players' ratings (``games.lobby.ratings``).
    rated = models.BooleanField(_("rated"), default=False)
    #: Anyone may watch a public game, from the spectator's seat (no hidden card, no
    #: message while it is played: docs/spectators.md); a private one is its players'.
    public = models.BooleanField(_("public"), default=True)
    #: How many messages its players have written at it (``games.talk``): the game
    #: page's poll compares it as it compares the version, which a message leaves alone
    #: (a message is no move: it must not make anyone's ``If-Match`` stale).
    message_count = models.PositiveIntegerField(_("message count"), default=0)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    #: When the seat to move is next reminded of its deadline (swept every minute).
    reminder_at = models.DateTimeField(_("reminder at"), null=True, blank=True, db_index=True)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        # The minute sweep reads these two: each must find due games without a scan.
        indexes = [
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["status", "reminder_at"]),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}: {self.title}"

    @property
    def score(self) -> dict[str, int] | None:
        """Each seat's points once the game is over: ``{"A": 111, "B": 0}``."""
        if self.status == self.Status.PLAYING:
            return None
        return {seat.letter: seat.score or 0 for seat in self.seat_rows}

    @property
    def wrong_calls(self) -> dict[str, int]:
        """Each seat's wrong Stop! calls (R7.5), the seats that made none left out."""
        return {seat.letter: seat.wrong_calls for seat in self.seat_rows if seat.wrong_calls}

    @classmethod
    def locked(cls, game_id: int, **filters: Any) -> Game | None:
        """The game, its row locked until the transaction ends, read with its seats
        (their players and profiles) in one query: the seats joined to the game, the
        lock on the game's row only. None when no game matches."""
        seats = list(
            Seat.objects.select_related("game", "user__profile")
            .select_for_update(of=("game",))
            .filter(game_id=game_id, **{f"game__{name}": value for name, value in filters.items()})
            .order_by("letter")
        )
        if not seats:
            return None  # every game has its seats
        game = seats[0].game
        for seat in seats:
            seat.game = game
        game.__dict__["_seat_rows"] = seats
        return game

    def changed_seats(self) -> list[Seat]:
        """The seats whose bank, calls, offer or points changed since they were read."""
        return [seat for seat in self.seat_rows if seat.values() != seat.__dict__.get("_read")]

    @property
    def stalemate_offer(self) -> str:
        """The seats that agree to a pending stalemate offer, the offerer first ("A",
        "AC"), or ""."""
        agreeing = sorted((s for s in self.seat_rows if s.offer is not None), key=lambda s: s.offer)
        return "".join(seat.letter for seat in agreeing)


class Seat(SeatFields):
    """A player's place at a game: who sits there, and what the seat holds off the table."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    #: Time-bank control: the seat's time left when its turn starts.
    bank = models.DurationField(_("bank"), null=True, blank=True)
    #: Copied from the engine by ``games.play.store.keep``: the seat's wrong Stop! calls
    #: (R7.5), its place in a pending stalemate offer (0: it offered; 1, 2: it agreed),
    #: and its points once the game is over.
    wrong_calls = models.PositiveSmallIntegerField(_("wrong calls"), default=0)
    offer = models.PositiveSmallIntegerField(_("offer"), null=True, blank=True)
    score = models.IntegerField(_("score"), null=True, blank=True)
    #: Play this game by mail (True), by notices only (False), or as the player's
    #: preference says (None): ``games.notify.mail_play.plays_by_mail``.
    play_by_mail = models.BooleanField(_("play by mail"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [models.UniqueConstraint(fields=["game", "letter"], name="unique_game_seat")]
        # A player's games: the lobby and the API list them by joining seats.
        indexes = [models.Index(fields=["user", "game"])]

    @classmethod
    def from_db(cls, *args: Any, **kwargs: Any) -> Seat:
        seat = super().from_db(*args, **kwargs)
        seat.__dict__["_read"] = seat.values()  # to save only what changes
        return seat

    def values(self) -> tuple[Any, ...]:
        """What the game's actions change in a seat."""
        return (self.bank, self.wrong_calls, self.offer, self.score)


#: Prefetch a game's seats and their players with it: ``prefetch_related(SEATS)``.
SEATS = models.Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))


class Message(models.Model):
    """What a player wrote to the others at a game (``games.talk``): plain text, part
    of the game's history. Its players read it while the game is played; once it is
    over, whoever may see the game does."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="messages", verbose_name=_("game")
    )
    #: The writer; None once they deleted their account (the message stays).
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="game_messages",
        verbose_name=_("author"),
    )
    #: The writer's seat letter.
    seat = models.CharField(_("seat"), max_length=1)
    text = models.TextField(_("text"))
    #: The number of entries in the game's record when it was written: where the replay
    #: and the export show it.
    ply = models.PositiveIntegerField(_("ply"))
    #: Whether the other players have been told of it: at once when it was written
    #: outside its writer's turn, else with the "your turn" (or "game over") that ends
    #: the turn (``games.talk.deliver``).
    delivered = models.BooleanField(_("delivered"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        indexes = [
            models.Index(fields=["game", "id"]),
            models.Index(fields=["author", "created_at"]),  # the rate limit
        ]

    def __str__(self) -> str:
        return f"Message {self.pk} in game {self.game_id}"


class Rating(models.Model):
    """A player's Glicko-2 rating in one family of rules (``games.lobby.ratings``), and their
    record of rated games in it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("user"),
    )
    #: ``games.lobby.ratings.FAMILIES``: standard, one-pack, three-player, foster.
    family = models.CharField(_("family"), max_length=16)
    rating = models.FloatField(_("rating"), default=1500.0)
    deviation = models.FloatField(_("deviation"), default=350.0)
    volatility = models.FloatField(_("volatility"), default=0.06)
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    #: When the last rated game ended: the deviation grows with the time since.
    rated_at = models.DateTimeField(_("rated at"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="unique_rating_family"),
        ]
        indexes = [models.Index(fields=["family", "rating"])]  # the leaderboard

    def __str__(self) -> str:
        return f"{self.user} {self.family} {self.rating:.0f}"


class IdempotentRequest(models.Model):
    """A write with an ``Idempotency-Key`` (``games/api/writes.py``): a retry gets the
    stored answer, and nothing is done again."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    key = models.CharField(_("key"), max_length=128)
    #: The game the write was about, if any (support staff find a game's writes).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("game")
    )
    status_code = models.PositiveSmallIntegerField(_("status code"))
    #: The request's fingerprint, and the answer's body and ETag.
    response = models.JSONField(_("response"), encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="unique_idempotency_key"),
        ]
        indexes = [models.Index(fields=["created_at"])]  # the retention's daily prune


class Challenge(RulesFields, TimeControlFields):
    """An offer to play: to a named player, to an e-mail address, or open to anyone."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("challenge status", "Pending")
        ACCEPTED = "accepted", pgettext_lazy("challenge status", "Accepted")
        DECLINED = "declined", pgettext_lazy("challenge status", "Declined")
        CANCELLED = "cancelled", pgettext_lazy("challenge status", "Cancelled")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    email = models.EmailField(_("email"), blank=True)
    is_open = models.BooleanField(_("is open"), default=False)
    #: The secret of the invitation link (e-mail invitations).
    token = models.CharField(_("token"), max_length=64, unique=True)
    #: Play a match to this many points (R8.7), or a single game when null.
    match_target = models.PositiveIntegerField(_("match target"), null=True, blank=True)
    #: Whether its games change the players' ratings (``games.lobby.ratings``).
    rated = models.BooleanField(_("rated"), default=True)
    #: An open challenge's rating range: only players whose rating in its family
    #: (``games.lobby.ratings.FAMILIES``) lies within it see it and may accept it.
    min_rating = models.PositiveSmallIntegerField(_("min rating"), null=True, blank=True)
    max_rating = models.PositiveSmallIntegerField(_("max rating"), null=True, blank=True)
    rating_family = models.CharField(_("rating family"), max_length=16, blank=True)
    #: Whether its game may be watched by anyone (``Game.public``).
    public = models.BooleanField(_("public"), default=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("game")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [models.Index(fields=["status", "is_open"])]

    def __str__(self) -> str:
        to = self.opponent or self.email or "anyone"
        return f"Challenge {self.pk}: {self.challenger} -> {to} ({self.status})"

    @property
    def seat_rows(self) -> list[Any]:
        """The players it names and those who accepted it, as ``ChallengeSeat`` rows,
        in the order they were written (read once per instance, or prefetched)."""
        rows: list[Any] | None = self.__dict__.get("_seat_rows")
        if rows is None:
            if "seats" in getattr(self, "_prefetched_objects_cache", {}):
                rows = sorted(self.seats.all(), key=lambda seat: seat.pk)
            else:
                rows = list(self.seats.select_related("user").order_by("pk"))
            self.__dict__["_seat_rows"] = rows
        return rows

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("_seat_rows", None)
        super().refresh_from_db(*args, **kwargs)

    @property
    def invited(self) -> list[Any]:
        """The opponents the challenger named, in the order named."""
        return [seat.user for seat in self.seat_rows if seat.invited]

    @property
    def opponent(self) -> Any:
        """The first opponent named, or None (an invitation by e-mail, or open)."""
        invited = self.invited
        return invited[0] if invited else None

    @property
    def second_opponent(self) -> Any:
        """G3: the second opponent named, or None."""
        invited = self.invited
        return invited[1] if len(invited) > 1 else None

    @property
    def accepted(self) -> list[Any]:
        """The players who accepted, in the order of their seats (B, then C)."""
        return [seat.user for seat in sorted(self.seat_rows, key=lambda s: s.letter) if seat.letter]

    @property
    def accepted_by(self) -> Any:
        accepted = self.accepted
        return accepted[0] if accepted else None

    @property
    def second_accepted_by(self) -> Any:
        accepted = self.accepted
        return accepted[1] if len(accepted) > 1 else None


class ChallengeSeat(models.Model):
    """A player a challenge names, or one who accepted it and takes a seat in its game
    (in the order of acceptance: B, then C; the challenger is A)."""

    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, related_name="seats", verbose_name=_("challenge")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenge_seats",
        verbose_name=_("user"),
    )
    #: Named by the challenger.
    invited = models.BooleanField(_("invited"), default=False)
    #: The seat taken on accepting it ("" until then).
    letter = models.CharField(_("letter"), max_length=1, blank=True)

    class Meta:
        verbose_name = _("challenge seat")
        verbose_name_plural = _("challenge seats")
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="unique_challenge_seat"),
        ]


#: An outbox row is queued when its transaction commits; if it is still pending this
#: long after it was written (the broker was down, the task was lost), the minute
#: sweep queues it again.
OUTBOX_RESEND_AFTER = timedelta(minutes=2)


def outbox_first_sweep() -> datetime:
    """A new outbox row's ``next_attempt_at``: when the sweep takes it up if the task
    queued on commit has not sent it."""
    return timezone.now() + OUTBOX_RESEND_AFTER


class Notification(models.Model):
    """The outbox: one e-mail to send, written in the transaction of the event it tells.

    A sending task claims a row with a conditional UPDATE, so a task delivered twice
    sends one e-mail. The minute sweep queues again the rows whose ``next_attempt_at``
    has come: never sent, back-off over, or a claim whose lease ran out. Each row has
    at most ``settings.EMAIL_MAX_ATTEMPTS`` attempts, then ends failed.
    """

    class Status(models.TextChoices):
        #: To send now, or at next_attempt_at after a failed attempt.
        PENDING = "pending", pgettext_lazy("e-mail status", "Pending")
        #: Claimed by a worker (until next_attempt_at, its lease's end).
        SENDING = "sending", pgettext_lazy("e-mail status", "Sending")
        SENT = "sent", pgettext_lazy("e-mail status", "Sent")
        #: Waits for the player's daily digest.
        DIGEST = "digest", pgettext_lazy("e-mail status", "Digest")
        #: Given up: a permanent refusal, or every attempt failed.
        FAILED = "failed", pgettext_lazy("e-mail status", "Failed")
        #: Not sent: the turn it announced was over before it went out, or its player
        #: was looking at the game when it was to go (games.play.presence).
        OUTDATED = "outdated", pgettext_lazy("e-mail status", "Outdated")

    #: The player told, or None for an invitee without an account (``email`` only).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
        verbose_name=_("user"),
    )
    email = models.EmailField(_("email"))
    kind = models.CharField(_("kind"), max_length=32)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("game")
    )
    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("challenge")
    )
    #: What the e-mail says beyond the game itself (e.g. the opponent's last turn).
    context = models.JSONField(_("context"), default=dict)
    #: The game's log length at the event: the e-mail shows the table as it was then,
    #: rebuilt from the deal and the log (None: no game, or a row from before this field).
    ply = models.PositiveIntegerField(_("ply"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    #: Attempts so far (one per claim); never more than settings.EMAIL_MAX_ATTEMPTS.
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: When the last attempt started.
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    #: When the minute sweep queues the row (again): the fallback for the task queued
    #: on commit, the end of a claim's lease, or the end of the back-off after a failed
    #: attempt. None when nothing is to be tried (sent, failed, outdated, or a digest
    #: row waiting for its day).
    next_attempt_at = models.DateTimeField(
        _("next attempt at"), null=True, blank=True, default=outbox_first_sweep
    )
    #: Why the last failed attempt failed (the SMTP server's answer, or the error); kept
    #: once a later attempt succeeds, to tell why the e-mail was late.
    last_error = models.CharField(_("last error"), max_length=500, blank=True, default="")

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [
            models.Index(fields=["status", "created_at"]),  # the retention's daily prune
            models.Index(fields=["status", "next_attempt_at"]),  # the minute sweep
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} ({self.status})"


class Event(models.Model):
    """Something that happened, as one player is told it: what the event stream
    (``games.feed.stream``) and the webhooks carry. Written in the transaction of what it
    tells, published once that commits; kept ``settings.EVENT_RETENTION_DAYS`` for
    clients that reconnect with ``Last-Event-ID``. ``data`` holds nothing hidden: moves
    as played (which every seat saw), never a face-down card."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="events",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=32)
    #: The game it is about, if any (webhooks deliver one game's events in order).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("game")
    )
    data = models.JSONField(_("data"), default=dict, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        indexes = [
            models.Index(fields=["user", "id"]),  # a stream's catch-up after Last-Event-ID
            models.Index(fields=["created_at"]),  # the daily prune
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} (#{self.pk})"

    def as_json(self) -> dict[str, Any]:
        """The event as clients read it: its id, kind and time, then what it tells."""
        return {"id": self.pk, "kind": self.kind, "at": self.created_at, **self.data}
