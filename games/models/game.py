"""Games and matches, with their seats, and the bases every seated row shares."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.bots import level_of
from games import clocks
from games.engine import Rules
from games.engine.rules import rules_from_document


class TimeControlFields(models.Model):
    """The time control chosen at the challenge (games.clocks)."""

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
    #: The commitment shown to the players from the deal on (docs/fair-deal.md): in
    #: scheme 1 the SHA-256 of the seed, in scheme 2 that of the server's secret.
    seed_hash = models.CharField(_("seed hash"), max_length=64)
    #: How the seed was made (``games.engine.fairdeal``): 1, drawn by the server alone
    #: (the games dealt before scheme 2); 2, derived from the server's secret and the
    #: seats' contributions.
    deal_scheme = models.PositiveSmallIntegerField(_("deal scheme"), default=1)
    #: Scheme 2: the server's secret (revealed when the game ends) and each seat's
    #: contribution, in seat order: ``{"seat": "A", "value": "...", "by": "player"}``.
    server_secret = models.CharField(_("server secret"), max_length=64, blank=True)
    contributions = models.JSONField(_("contributions"), default=list, blank=True)
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
        indexes = [
            # The minute sweep reads these two: each must find due games without a scan.
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["status", "reminder_at"]),
            # The public games being played, newest activity first (/watch/): a page is
            # the index's first entries, never a sort of every game being played.
            models.Index(
                fields=["-updated_at", "-id"],
                condition=Q(status="playing", public=True),
                name="game_public_newest",
            ),
            # The open database reads a month's games in the order they ended.
            models.Index(fields=["finished_at", "id"]),
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
    #: The game's end, copied from it: a player's finished games are read in that
    #: order from the index below (``games.archive.stream``), whatever their number.
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    #: Play this game by mail (True), by notices only (False), or as the player's
    #: preference says (None): ``games.notify.mail_play.plays_by_mail``.
    play_by_mail = models.BooleanField(_("play by mail"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [models.UniqueConstraint(fields=["game", "letter"], name="unique_game_seat")]
        indexes = [
            # A player's games: the lobby and the API list them by joining seats.
            models.Index(fields=["user", "game"]),
            # A player's finished games, in the order they ended (the export's keyset).
            models.Index(fields=["user", "finished_at", "game"]),
            # A player's seats in games being played (a seat's score is null until its
            # game ends): the sweep finds the computer's among millions of finished ones.
            models.Index(fields=["user"], condition=Q(score__isnull=True), name="seat_in_play"),
            # The seats of pending stalemate offers (a few at any time).
            models.Index(fields=["game"], condition=Q(offer__isnull=False), name="seat_offering"),
        ]

    @classmethod
    def from_db(cls, *args: Any, **kwargs: Any) -> Seat:
        seat = super().from_db(*args, **kwargs)
        seat.__dict__["_read"] = seat.values()  # to save only what changes
        return seat

    def values(self) -> tuple[Any, ...]:
        """What the game's actions change in a seat."""
        return (self.bank, self.wrong_calls, self.offer, self.score, self.finished_at)


#: Prefetch a game's seats and their players with it: ``prefetch_related(SEATS)``.
SEATS = models.Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))


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
