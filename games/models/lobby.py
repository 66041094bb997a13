"""The lobby's rows: challenges and invitations with their seats, and ratings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models.game import Game, RulesFields, TimeControlFields


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
    #: The fair deal (docs/fair-deal.md): the server's secret, drawn and committed to
    #: when the challenge is made, before any contribution; revealed with the game's end.
    server_secret = models.CharField(_("server secret"), max_length=64, blank=True)
    commitment = models.CharField(_("commitment"), max_length=64, blank=True)
    #: The challenger's contribution (seat A), and who drew it: "player" or "server".
    contribution = models.CharField(_("contribution"), max_length=64, blank=True)
    contribution_by = models.CharField(_("contribution drawn by"), max_length=8, blank=True)
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
    #: The contribution given on accepting it, and who drew it ("player" or "server").
    contribution = models.CharField(_("contribution"), max_length=64, blank=True)
    contribution_by = models.CharField(_("contribution drawn by"), max_length=8, blank=True)

    class Meta:
        verbose_name = _("challenge seat")
        verbose_name_plural = _("challenge seats")
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="unique_challenge_seat"),
        ]
