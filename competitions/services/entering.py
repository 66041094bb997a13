"""Making a competition, entering it and withdrawing before it starts.

Who may make one: any player, at most ``MAX_OPEN_PER_PLAYER`` not yet finished at a
time (staff without limit). Who may enter: while it is open, a player rated within its
bounds (its family's rating), while there is room; a private one only a player it
invites or who follows its link (the token). A computer player may enter a public one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bots import BOT_PLAYERS, bot_level_of, bot_player, level_of
from games.clocks import TimeControl
from games.engine import PRESETS
from games.engine.rules import rules_from_document
from games.lobby import ratings
from games.lobby.challenges import MATCH_TARGET, RATING, check_rule_options
from games.models import StopMode
from lib.bounds import Bounds
from lib.errors import ServiceError

from ..models import Competition, Entry, Format

#: Competitions a player (not staff) may have made and not yet finished.
MAX_OPEN_PER_PLAYER = 3
PLAYERS = Bounds(2, 1000)
SWISS_ROUNDS = Bounds(1, 30)
DIVISION_SIZE = Bounds(4, 12)
PROMOTED = Bounds(1, 4)
REACH = Bounds(1, 20)
NAME_LENGTH = 80
#: The formats a player may join while they run: at a ladder's bottom, in a league's
#: lowest division next season.
JOIN_RUNNING = (Format.LADDER, Format.LEAGUE)
DESCRIPTION_LENGTH = 2000


@dataclass
class Terms:
    """What a competition is, as its maker chooses it (the form's and the API's fields)."""

    name: str
    format: str = Format.SWISS
    description: str = ""
    rules: str = "pagat"
    rule_options: dict[str, Any] = field(default_factory=dict)
    stop_mode: str = StopMode.REFEREE
    clock: TimeControl = field(default_factory=TimeControl)
    rated: bool = True
    min_rating: int | None = None
    max_rating: int | None = None
    starts_at: datetime | None = None
    max_players: int = 16
    min_players: int = 2
    public: bool = True
    invited: list[str] = field(default_factory=list)
    double: bool = False
    rounds: int | None = None
    match_target: int | None = None
    division_size: int = 8
    promoted: int = 2
    reach: int = 3


def _bad(message: str) -> ServiceError:
    return ServiceError(400, "BAD_REQUEST", message)


def check_terms(terms: Terms) -> dict[str, Any]:
    """The terms checked, as the row's fields; the first problem refused (400)."""
    name = terms.name.replace("\x00", "").strip()
    if not name or len(name) > NAME_LENGTH:
        raise _bad(_("a name of 1 to %(count)s characters") % {"count": NAME_LENGTH})
    if len(terms.description) > DESCRIPTION_LENGTH:
        raise _bad(
            _("a description of at most %(count)s characters") % {"count": DESCRIPTION_LENGTH}
        )
    if terms.format not in Format.values:
        raise _bad(_("format must be one of: %(formats)s") % {"formats": ", ".join(Format.values)})
    if terms.rules not in PRESETS:
        raise _bad(_("unknown rules %(rules)s") % {"rules": repr(terms.rules)})
    options = check_rule_options(terms.rules, terms.rule_options)
    rules = rules_from_document({"preset": terms.rules, **options})
    if rules.seats != 2:
        raise ServiceError(
            400,
            "TWO_PLAYER_RULES_ONLY",
            _("competitions are played with two-player rules: %(rules)s is for %(seats)s")
            % {"rules": terms.rules, "seats": rules.seats},
        )
    if terms.stop_mode not in StopMode.values:
        raise _bad(_("stop_mode must be one of: %(modes)s") % {"modes": ", ".join(StopMode.values)})
    problem = terms.clock.validate()
    if problem:
        raise _bad(problem)
    for rating in (terms.min_rating, terms.max_rating):
        if rating is not None and rating not in RATING:
            raise _bad(_("a rating must be from %(low)s to %(high)s") % RATING.words())
    low, high = terms.min_rating, terms.max_rating
    if low is not None and high is not None and low > high:
        low, high = high, low
    if terms.max_players not in PLAYERS or terms.min_players not in PLAYERS:
        raise _bad(_("from %(low)s to %(high)s players") % PLAYERS.words())
    if terms.min_players > terms.max_players:
        raise ServiceError(409, "TERMS_CLASH", _("min_players is more than max_players"))
    if terms.starts_at is not None and terms.starts_at <= timezone.now():
        raise ServiceError(409, "START_PASSED", _("the start date must be in the future"))
    if terms.format == Format.SWISS and terms.rounds not in SWISS_ROUNDS:
        raise _bad(
            _("a Swiss tournament has from %(low)s to %(high)s rounds") % SWISS_ROUNDS.words()
        )
    if terms.match_target is not None and (
        terms.format != Format.KNOCKOUT or terms.match_target not in MATCH_TARGET
    ):
        raise _bad(
            _("match_target (a knockout's ties): from %(low)s to %(high)s points")
            % MATCH_TARGET.words()
        )
    if terms.format == Format.LEAGUE:
        if terms.division_size not in DIVISION_SIZE:
            raise _bad(_("a division has from %(low)s to %(high)s players") % DIVISION_SIZE.words())
        if terms.promoted not in PROMOTED or 2 * terms.promoted > terms.division_size:
            raise ServiceError(
                409,
                "TERMS_CLASH",
                _("from %(low)s to %(high)s players move up and down, at most half a division")
                % PROMOTED.words(),
            )
    if terms.reach not in REACH:
        raise _bad(_("a ladder's reach is from %(low)s to %(high)s places") % REACH.words())
    return {
        "name": name,
        "description": terms.description,
        "format": terms.format,
        "rules": terms.rules,
        "rule_options": options,
        "stop_mode": terms.stop_mode,
        "rated": terms.rated,
        "rating_family": ratings.FAMILIES[rules.family],
        "min_rating": low,
        "max_rating": high,
        "starts_at": terms.starts_at,
        "max_players": terms.max_players,
        "min_players": terms.min_players,
        "public": terms.public,
        "double": terms.double and terms.format in (Format.ROUND_ROBIN, Format.LEAGUE),
        "rounds": terms.rounds if terms.format == Format.SWISS else None,
        "match_target": terms.match_target,
        "division_size": terms.division_size,
        "promoted": terms.promoted,
        "reach": terms.reach,
    }


def create_competition(creator: User, terms: Terms) -> Competition:
    """A new competition, open for entry; its maker does not enter it by making it."""
    values = check_terms(terms)
    invited = [_player(name) for name in terms.invited]
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=creator.pk).first()  # the count below
        if not creator.is_staff:
            running = Competition.objects.filter(
                creator=creator, status__in=(Competition.Status.OPEN, Competition.Status.RUNNING)
            ).count()
            if running >= MAX_OPEN_PER_PLAYER:
                raise ServiceError(
                    409,
                    "TOO_MANY_COMPETITIONS",
                    _("at most %(count)s competitions of yours open or running at once")
                    % {"count": MAX_OPEN_PER_PLAYER},
                )
        competition = Competition(
            **values, creator=creator, by_staff=creator.is_staff, token=secrets.token_urlsafe(24)
        )
        competition.set_clock(terms.clock)
        competition.save()
        competition.invited.set(invited)
    return competition


def _player(username: str) -> User:
    level = bot_level_of(username)
    if level is not None:
        return bot_player(level)
    player = User.objects.filter(username__iexact=username, is_active=True).first()
    if player is None:
        raise ServiceError(
            404,
            "NO_SUCH_PLAYER",
            _("there is no player called %(name)s") % {"name": repr(username)},
        )
    return player


def visible(user: User | None) -> QuerySet[Competition]:
    """The competitions ``user`` may see: the public ones, and the private ones they
    made, are invited to or entered."""
    if user is None or not user.is_authenticated:
        return Competition.objects.filter(public=True)
    theirs = Competition.objects.filter(
        Q(public=True) | Q(creator=user) | Q(invited=user) | Q(entries__player=user)
    ).values("pk")
    # By id, without the joins: a count annotated on the result counts every entry.
    return Competition.objects.filter(pk__in=theirs)


def competition_for(
    competition_id: int, user: User | None, token: str | None = None
) -> Competition:
    """The competition, if ``user`` may see it (or holds its link's token); else 404."""
    found = Competition.objects.filter(pk=competition_id).first()
    if found is not None and token and same_token(token, found.token):
        return found
    if found is None or not visible(user).filter(pk=competition_id).exists():
        raise ServiceError(404, "NOT_FOUND", _("no such competition"))
    return found


def same_token(given: str, kept: str) -> bool:
    """Compared in constant time, as bytes (any text may come in a query string)."""
    return secrets.compare_digest(given.encode(), kept.encode())


def _locked(competition_id: int) -> Competition:
    found = Competition.objects.select_for_update().filter(pk=competition_id).first()
    if found is None:
        raise ServiceError(404, "NOT_FOUND", _("no such competition"))
    return found


def enter(competition_id: int, user: User, *, token: str | None = None) -> Entry:
    """``user`` enters; a competition that starts when full starts with its last entry."""
    from .starting import start

    with transaction.atomic():
        competition = _locked(competition_id)
        invited = competition.invited.filter(pk=user.pk).exists()
        holds_link = bool(token) and same_token(token or "", competition.token)
        if not (competition.public or invited or holds_link or competition.creator_id == user.pk):
            raise ServiceError(404, "NOT_FOUND", _("no such competition"))
        if level_of(user) and not competition.public:
            raise ServiceError(
                409, "NOT_OPEN", _("computer players enter public competitions only")
            )
        if competition.status != Competition.Status.OPEN and competition.format not in JOIN_RUNNING:
            raise ServiceError(409, "NOT_OPEN", _("this competition is no longer open for entry"))
        if competition.status not in (Competition.Status.OPEN, Competition.Status.RUNNING):
            raise ServiceError(409, "NOT_OPEN", _("this competition is no longer open for entry"))
        if competition.entries.filter(player=user).exists():
            raise ServiceError(409, "ALREADY_ENTERED", _("you have entered this competition"))
        rating = ratings.standings([user], competition.rating_family)[user.pk].rating
        low, high = competition.min_rating, competition.max_rating
        if (low is not None and rating < low) or (high is not None and rating > high):
            raise ServiceError(
                409,
                "RATING_OUT_OF_RANGE",
                _("this competition is for players rated %(low)s to %(high)s")
                % {"low": low if low is not None else 0, "high": high if high is not None else "∞"},
            )
        count = competition.entries.filter(withdrawn_at__isnull=True).count()
        if count >= competition.max_players:
            raise ServiceError(409, "FULL", _("this competition is full"))
        entry = Entry.objects.create(
            competition=competition, player=user, name=user.get_username(), rating=rating
        )
        if competition.status == Competition.Status.RUNNING:
            if competition.format == Format.LADDER:
                from .ladder import join_running_ladder

                join_running_ladder(competition, entry)
            # A league's newcomer waits for the next season (services.league).
        elif competition.starts_at is None and count + 1 == competition.max_players:
            start(competition)
        return entry


def enter_computer(competition_id: int, by: User, level: str) -> Entry:
    """The competition's maker (or staff) enters a computer player of ``level`` (easy,
    medium, strong) in a public competition: it plays its games as it plays any."""
    if level not in BOT_PLAYERS:
        raise _bad(_("a computer player is easy, medium or strong"))
    competition = competition_for(competition_id, by)
    if competition.creator_id != by.pk and not by.is_staff:
        raise ServiceError(
            403, "NOT_THE_MAKER", _("only its maker enters computer players in a competition")
        )
    return enter(competition_id, bot_player(level))


def start_now(competition_id: int, by: User) -> Competition:
    """Start it at once: its maker's choice (``starting.start_now`` says when it may)."""
    from .starting import start_now as start_locked

    competition_for(competition_id, by)  # 404 to one who may not see it
    with transaction.atomic():
        return start_locked(_locked(competition_id), by)


def withdraw(competition_id: int, user: User) -> Entry:
    """``user`` leaves: before the start, the entry goes; after it, the remaining games
    are forfeited as the format's policy says (``starting.withdraw_entry``)."""
    from .running import withdraw_entry

    with transaction.atomic():
        competition = _locked(competition_id)
        entry = competition.entries.filter(player=user, withdrawn_at__isnull=True).first()
        if entry is None:
            raise ServiceError(409, "NOT_ENTERED", _("you are not in this competition"))
        if competition.status == Competition.Status.OPEN:
            entry.delete()
            return entry
        if competition.status != Competition.Status.RUNNING:
            raise ServiceError(409, "FINISHED", _("this competition is over"))
        withdraw_entry(competition, entry)
        return entry
