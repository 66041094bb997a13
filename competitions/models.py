"""Competitions' rows: an event (tournament, league or ladder), its entries, its rounds
and their pairings; a league's seasons and divisions (docs/competitions.md).

A pairing's game or match is an ordinary one, dealt by ``games.play.dealing`` or
``games.lobby.matches``; the result is copied onto the pairing when the game ends
(``competitions.subscribers``), so standings read one table."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game, Match, RulesFields, TimeControlFields


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", pgettext_lazy("competition format", "Round robin")
    SWISS = "swiss", pgettext_lazy("competition format", "Swiss")
    KNOCKOUT = "knockout", pgettext_lazy("competition format", "Knockout")
    LEAGUE = "league", pgettext_lazy("competition format", "League")
    LADDER = "ladder", pgettext_lazy("competition format", "Ladder")


class Competition(RulesFields, TimeControlFields):
    """A tournament, a league or a ladder: what is played (rules, clock), who may enter,
    when it starts, and where it stands."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("competition status", "Open for entry")
        RUNNING = "running", pgettext_lazy("competition status", "Running")
        FINISHED = "finished", pgettext_lazy("competition status", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("competition status", "Cancelled")

    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), max_length=2000, blank=True)
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    #: Round robin and league: each pair meets twice, seats swapped.
    double = models.BooleanField(_("double"), default=False)
    #: Swiss: the number of rounds.
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    #: Knockout: each tie a match to this many points; None: a single game.
    match_target = models.PositiveIntegerField(_("match target"), null=True, blank=True)
    #: League: players per division, and how many move up and down each season.
    division_size = models.PositiveSmallIntegerField(_("division size"), default=8)
    promoted = models.PositiveSmallIntegerField(_("promoted"), default=2)
    #: Ladder: how many places above oneself one may challenge.
    reach = models.PositiveSmallIntegerField(_("reach"), default=3)
    rated = models.BooleanField(_("rated"), default=True)
    #: The ratings family of its rules (``games.lobby.ratings.FAMILIES``).
    rating_family = models.CharField(_("rating family"), max_length=16, default="standard")
    min_rating = models.PositiveIntegerField(_("min rating"), null=True, blank=True)
    max_rating = models.PositiveIntegerField(_("max rating"), null=True, blank=True)
    #: When it starts; None: as soon as it is full.
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True, db_index=True)
    max_players = models.PositiveSmallIntegerField(_("max players"), default=16)
    min_players = models.PositiveSmallIntegerField(_("min players"), default=2)
    #: Public: anyone may see it, enter it and watch its games. Private: the invited
    #: players and whoever follows the link with ``token``.
    public = models.BooleanField(_("public"), default=True)
    token = models.CharField(_("token"), max_length=64, unique=True)
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="+", verbose_name=_("invited")
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="competitions_created",
        verbose_name=_("creator"),
    )
    by_staff = models.BooleanField(_("by staff"), default=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    #: The round under way (Swiss, knockout); a league's season.
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player in a competition; the player's final place and score once it is over."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="entries", verbose_name=_("competition")
    )
    #: None once the player deleted their account: their results stay.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="competition_entries",
        verbose_name=_("player"),
    )
    #: The name shown, kept: a deleted account's entry still has one.
    name = models.CharField(_("name"), max_length=150)
    #: The player's rating in the competition's family when it started (seeding).
    rating = models.FloatField(_("rating"), default=1500.0)
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    #: Ladder: the place on it (1 at the top); league: the division (1 at the top).
    position = models.PositiveIntegerField(_("position"), null=True, blank=True)
    #: The final standing, kept when the competition (a league's season) is over.
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    points = models.FloatField(_("points"), null=True, blank=True)
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    played = models.PositiveIntegerField(_("played"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="one_entry_a_player"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A league's season: its divisions play a round robin each; when every game is
    over, players move up and down and the next season starts."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("competition")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="one_season_a_number"),
        ]


class Division(models.Model):
    """One division of a season (level 1 at the top), with its players in seed order
    and, once the season is over, in their final order."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("season")
    )
    level = models.PositiveSmallIntegerField(_("level"))
    members = models.JSONField(_("members"), default=list)
    final_order = models.JSONField(_("final order"), default=list, blank=True)

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="one_division_a_level"),
        ]


class Round(models.Model):
    """A round of games dealt together: a Swiss or knockout round, a round robin's
    games (all at once), a league season's, or a ladder's challenges."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="round_rows",
        verbose_name=_("competition"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("season")
    )
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    #: When its last game may at the latest be expected to end (the clock's days per
    #: turn aside, shown in the calendar): the games' own clocks decide.
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="one_round_a_number"),
        ]


class Pairing(models.Model):
    """Two entries of a round at a game or a match (seat A, seat B), or one entry's bye;
    its result once decided, in event points (win 1, stalemate 0.5 each)."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round")
    )
    seat_a = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("seat A")
    )
    seat_b = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat B"),
    )
    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("division")
    )
    game = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pairing",
        verbose_name=_("game"),
    )
    match = models.OneToOneField(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pairing",
        verbose_name=_("match"),
    )
    bye = models.BooleanField(_("bye"), default=False)
    points_a = models.FloatField(_("points A"), null=True, blank=True)
    points_b = models.FloatField(_("points B"), null=True, blank=True)
    score_a = models.IntegerField(_("score A"), default=0)
    score_b = models.IntegerField(_("score B"), default=0)
    #: Decided by a timeout, a resignation or a withdrawal, not by the cards.
    forfeit = models.BooleanField(_("forfeit"), default=False)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")

    @property
    def decided(self) -> bool:
        return self.points_a is not None
