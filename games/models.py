"""Games, challenges, matches and the outbox.

A game row keeps the rules engine's own state (``games.store``): its snapshot while
it is played (one row read, whatever the length of the game), its record in the
engine's compact encoding once it is over. Both hold hidden cards: they never leave
the server except through the engine's per-seat views.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.engine import Rules
from games.engine.rules import rules_from_document

from . import clocks


class TimeControlFields(models.Model):
    """The time control chosen at the challenge (games.clocks)."""

    time_control = models.CharField(max_length=16, default=clocks.PER_TURN)
    days_per_turn = models.PositiveSmallIntegerField(default=3)
    bank_initial_days = models.PositiveSmallIntegerField(default=7)
    bank_increment_days = models.PositiveSmallIntegerField(default=1)
    bank_cap_days = models.PositiveSmallIntegerField(default=14)
    weekend_pause = models.BooleanField(default=False)

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
    REFEREE = "referee", "Referee: every illegal move is refused"
    #: Priority violations (S1-S3; S6, S7 under options V5, V12) stand unless the
    #: opponent calls Stop! (R7.4).
    CLASSIC = "classic", "Classic: the opponent may call Stop!"


class RulesFields(models.Model):
    """The rules chosen at the challenge: a preset, options changed from it (RULES.md
    §9, ``games.engine.OPTION_DESCRIPTIONS``), and how violations are treated."""

    rules = models.CharField(max_length=32, default="pagat")
    rule_options = models.JSONField(default=dict, blank=True)
    stop_mode = models.CharField(max_length=8, choices=StopMode.choices, default=StopMode.REFEREE)

    class Meta:
        abstract = True

    def game_rules(self) -> Rules:
        return rules_from_document({"preset": self.rules, **self.rule_options})

    @property
    def rules_label(self) -> str:
        """The rules in a few words: ``pagat``, or ``pagat + lenient turn, reserve size
        12`` (options in alphabetical order)."""
        return rules_label(self.rules, self.rule_options)


def rules_label(preset: str, options: dict[str, Any]) -> str:
    changes = [
        option.replace("_", " ") + ("" if value is True else f" {value}")
        for option, value in sorted(options.items())  # PostgreSQL's jsonb reorders keys
        if value is not False
    ]
    return preset + (" + " + ", ".join(changes) if changes else "")


class SeatsFields(models.Model):
    """The players by seat: A and B, and C in the three-player game (G3)."""

    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="%(class)s_as_a"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="%(class)s_as_b"
    )
    player_c = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="%(class)s_as_c",
    )

    class Meta:
        abstract = True

    @property
    def letters(self) -> str:
        """The seats' letters, in turn order: ``AB`` or ``ABC``."""
        return "ABC" if self.player_c_id is not None else "AB"

    @property
    def players(self) -> list[Any]:
        """The users, by seat."""
        users = [self.player_a, self.player_b]
        return users if self.player_c_id is None else [*users, self.player_c]

    def user_at(self, seat: int) -> Any:
        return self.players[seat]

    def player(self, seat: int) -> int:
        ids = [self.player_a_id, self.player_b_id, self.player_c_id]
        player = ids[seat]
        assert player is not None
        return player

    def seat_of(self, user_id: int | None) -> int | None:
        """0 for seat A, 1 for B, 2 for C, None for anyone else."""
        if user_id is None:
            return None
        for seat, player in enumerate((self.player_a_id, self.player_b_id, self.player_c_id)):
            if player == user_id:
                return seat
        return None

    def names(self) -> dict[str, str]:
        """Seat letter -> username."""
        return {
            letter: user.get_username()
            for letter, user in zip(self.letters, self.players, strict=True)
        }

    @property
    def title(self) -> str:
        """``alice v bob`` (or ``alice v bob v carol``)."""
        return " v ".join(user.get_username() for user in self.players)


class Match(SeatsFields, RulesFields, TimeControlFields):
    """Games between the same players until one reaches the target score (R8.7)."""

    target = models.PositiveIntegerField(default=300)
    total_a = models.PositiveIntegerField(default=0)
    total_b = models.PositiveIntegerField(default=0)
    total_c = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=1, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Match {self.pk}: {'-'.join(map(str, self.totals))} of {self.target}"

    @property
    def totals(self) -> list[int]:
        return [self.total_a, self.total_b, self.total_c][: len(self.letters)]

    def set_totals(self, totals: list[int]) -> None:
        for letter, total in zip(self.letters, totals, strict=True):
            setattr(self, f"total_{letter.lower()}", total)


class Game(SeatsFields, RulesFields, TimeControlFields):
    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        STALEMATE = "stalemate"

    #: The seat that started (0 = A). The deal chooses it (R3, V3), except in a match
    #: whose seats start in turn (V3 ``alternate``), where the service names it.
    starter = models.PositiveSmallIntegerField(null=True, blank=True)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="games"
    )
    #: The deal seed: secret while the game is played, revealed when it ends.
    seed = models.CharField(max_length=64)
    #: SHA-256 commitment to the seed, shown to both players from the deal on.
    seed_hash = models.CharField(max_length=64)
    #: While the game is played, the engine's snapshot (``games.engine.Game.snapshot``):
    #: the position, the turns, the counts and the record's encoding so far. It holds
    #: the hidden cards: referee only. None once the game is over (``games.store``).
    state = models.JSONField(null=True, blank=True)
    #: Once the game is over, its record in the engine's compact encoding
    #: (``games.engine.encoding``): the whole game replays from it.
    record = models.BinaryField(null=True, blank=True)
    #: Bumped by every event; clients send it back (If-Match / expected_version).
    version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    to_move = models.CharField(max_length=1, default="A")
    #: How a finished game ended (games.engine: cards, stalemate, agreed, resigned...).
    ending = models.CharField(max_length=16, blank=True)
    #: Copied from the engine by ``games.store.keep`` for lists and queries: the number
    #: of entries in the record, each seat's wrong Stop! calls (R7.5, {"A": 2}), and the
    #: seats that agree to a pending stalemate offer, the offerer first ("A", "AC").
    ply = models.PositiveIntegerField(default=0)
    wrong_calls = models.JSONField(default=dict)
    stalemate_offer = models.CharField(max_length=3, blank=True)
    #: Once the game is over: each seat's points ({"A": 111, "B": 0}), the winner's
    #: letter ("" for none: a stalemate, or a forfeit with three seats).
    score = models.JSONField(null=True, blank=True)
    winner = models.CharField(max_length=1, blank=True)
    #: The seat that resigned or ran out of time (R8.6), or "".
    forfeiter = models.CharField(max_length=1, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: When the seat to move is next reminded of its deadline (swept every minute).
    reminder_at = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    #: Time-bank control: each seat's time left, when its turn starts.
    bank_a = models.DurationField(null=True, blank=True)
    bank_b = models.DurationField(null=True, blank=True)
    bank_c = models.DurationField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The minute sweep reads these two: each must find due games without a scan.
        indexes = [
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["status", "reminder_at"]),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}: {self.title}"

    def bank(self, seat: int) -> timedelta | None:
        """Time-bank control: seat's time left when its turn starts."""
        value: timedelta | None = getattr(self, f"bank_{self.letters[seat].lower()}")
        return value

    def set_bank(self, seat: int, value: timedelta | None) -> None:
        setattr(self, f"bank_{self.letters[seat].lower()}", value)

    def previous_seat(self, seat: int) -> int:
        """The seat that played just before ``seat`` (its opponent, with two seats)."""
        return (seat - 1) % len(self.letters)


class IdempotentRequest(models.Model):
    """A POST with an ``Idempotency-Key``: a retry gets the stored response, not a new move."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=128)
    game = models.ForeignKey(Game, on_delete=models.CASCADE)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="unique_idempotency_key"),
        ]
        indexes = [models.Index(fields=["created_at"])]  # the retention's daily prune


class Challenge(RulesFields, TimeControlFields):
    """An offer to play: to a named player, to an e-mail address, or open to anyone."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    #: A named opponent; None for an e-mail invitation or an open challenge.
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    #: G3: the second named opponent of a three-player challenge.
    second_opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received_second",
    )
    email = models.EmailField(blank=True)
    is_open = models.BooleanField(default=False)
    #: The secret of the invitation link (e-mail invitations).
    token = models.CharField(max_length=64, unique=True)
    #: Play a match to this many points (R8.7), or a single game when null.
    match_target = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenges_accepted",
    )
    #: G3: who took the third seat. A three-player challenge stays pending, with
    #: ``accepted_by`` set, until a second player accepts; seats follow acceptance order.
    second_accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenges_accepted_second",
    )
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "is_open"])]

    def __str__(self) -> str:
        to = self.opponent or self.email or "anyone"
        return f"Challenge {self.pk}: {self.challenger} -> {to} ({self.status})"


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
        PENDING = "pending"  # to send now, or at next_attempt_at after a failed attempt
        SENDING = "sending"  # claimed by a worker (until next_attempt_at, its lease's end)
        SENT = "sent"
        DIGEST = "digest"  # waits for the player's daily digest
        FAILED = "failed"  # given up: a permanent refusal, or every attempt failed
        OUTDATED = "outdated"  # not sent: the turn it announced was over before it went out

    #: The player told, or None for an invitee without an account (``email`` only).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
    )
    email = models.EmailField()
    kind = models.CharField(max_length=32)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True)
    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, null=True, blank=True)
    #: What the e-mail says beyond the game itself (e.g. the opponent's last turn).
    context = models.JSONField(default=dict)
    #: The game's log length at the event: the e-mail shows the table as it was then,
    #: rebuilt from the deal and the log (None: no game, or a row from before this field).
    ply = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    #: Attempts so far (one per claim); never more than settings.EMAIL_MAX_ATTEMPTS.
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When the last attempt started.
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    #: When the minute sweep queues the row (again): the fallback for the task queued
    #: on commit, the end of a claim's lease, or the end of the back-off after a failed
    #: attempt. None when nothing is to be tried (sent, failed, outdated, or a digest
    #: row waiting for its day).
    next_attempt_at = models.DateTimeField(null=True, blank=True, default=outbox_first_sweep)
    #: Why the last failed attempt failed (the SMTP server's answer, or the error); kept
    #: once a later attempt succeeds, to tell why the e-mail was late.
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["status", "created_at"]),  # the retention's daily prune
            models.Index(fields=["status", "next_attempt_at"]),  # the minute sweep
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} ({self.status})"
