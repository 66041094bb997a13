"""What players hear of a competition: e-mails (each in the player's language, as their
preferences for its kind say: ``games.notify.notifications.notify``), events for API
clients and webhooks (``games.feed.events``), and round deadlines in their calendar.
All written in the transaction that started, paired or ended it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.feed import events
from games.notify.notifications import notify
from lib.deadlines import Deadline

from ..models import Competition, Entry, Pairing, Round

if TYPE_CHECKING:
    from .standings import Row

#: The e-mails a player may turn off or get in the digest (the account page lists them).
EMAIL_KINDS: dict[str, Promise] = {
    "competition_started": pgettext_lazy("kind of e-mail", "competition started"),
    "competition_round": pgettext_lazy("kind of e-mail", "competition round paired"),
    "competition_finished": pgettext_lazy("kind of e-mail", "competition ended"),
}


def link(competition: Competition) -> str:
    return settings.SITE_URL + reverse("competition", args=[competition.pk])


def _about(competition: Competition) -> dict[str, Any]:
    return {"competition": competition.pk, "name": competition.name}


def _mail(kind: str, user: User | None, competition: Competition, **context: Any) -> None:
    if user is not None:
        notify(
            kind,
            user=user,
            competition_name=competition.name,
            competition_link=link(competition),
            **context,
        )


def started(competition: Competition, entries: Sequence[Entry]) -> None:
    players = [e.player for e in entries if e.player is not None]
    for player in players:
        _mail("competition_started", player, competition, players=len(entries))
    events.emit(
        "tournament_started",
        players,
        **_about(competition),
        format=competition.format,
        players=len(entries),
    )


def cancelled(competition: Competition, entries: Sequence[Entry]) -> None:
    """Too few entries at the start: the players hear it as its end, without a place."""
    players = [e.player for e in entries if e.player is not None]
    for player in players:
        _mail("competition_finished", player, competition, place=None, cancelled=True)
    events.emit("tournament_finished", players, **_about(competition), place=None, points=None)


def round_started(competition: Competition, round_: Round, pairings: Sequence[Pairing]) -> None:
    """Each player of the round hears of their own game (or bye)."""
    for pairing in pairings:
        seats = [(pairing.seat_a, pairing.seat_b), (pairing.seat_b, pairing.seat_a)]
        for me, other in seats:
            if me is None or me.player is None:
                continue
            game = pairing.game
            if game is None and pairing.match is not None:
                game = pairing.match.games.order_by("pk").first()
            opponent = other.name if other is not None else None
            _mail(
                "competition_round",
                me.player,
                competition,
                round=round_.number,
                opponent=opponent,
                bye=pairing.bye,
                game_link=(settings.SITE_URL + reverse("game", args=[game.pk]) if game else None),
            )
            events.emit(
                "round_started",
                [me.player],
                game=game,
                **_about(competition),
                round=round_.number,
                opponent=opponent,
                bye=pairing.bye,
            )


def finished(
    competition: Competition,
    rows: Sequence[Row],
    *,
    season: int | None = None,
    division: int | None = None,
) -> None:
    """Each player hears their final place (a league's: in their division that season)."""
    entries = Entry.objects.select_related("player__profile").in_bulk(
        [row.standing.player for row in rows]
    )
    for row in rows:
        player = entries[row.standing.player].player
        if player is None:
            continue
        _mail(
            "competition_finished",
            player,
            competition,
            place=row.standing.rank,
            points=row.standing.points,
            players=len(rows),
            season=season,
            division=division,
        )
        events.emit(
            "tournament_finished",
            [player],
            **_about(competition),
            place=row.standing.rank,
            points=row.standing.points,
        )


def round_deadlines(user: Any) -> list[Deadline]:
    """The rounds in which ``user`` has a game still to finish (their calendar feed)."""
    if not isinstance(user, User):
        return []
    waiting = (
        Pairing.objects.filter(Q(seat_a__player=user) | Q(seat_b__player=user))
        .filter(decided_at__isnull=True, round__deadline__isnull=False)
        .select_related("round__competition")
    )
    found = []
    for pairing in waiting:
        round_ = pairing.round
        competition = round_.competition
        assert round_.deadline is not None
        found.append(
            Deadline(
                uid=f"competition-{competition.pk}-round-{round_.number}",
                at=round_.deadline,
                summary=_("Russian Bank: round %(round)s of %(name)s is due to end")
                % {"round": round_.number, "name": competition.name},
                description=_(
                    "Round %(round)s of %(name)s: its games are expected to be over by "
                    "now; each game's own clock decides a timeout. %(link)s"
                )
                % {"round": round_.number, "name": competition.name, "link": link(competition)},
                url=link(competition),
            )
        )
    return found
