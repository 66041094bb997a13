"""Challenges and invitations: the services that start games between players.

Who may answer:
* a named challenge: only the named opponent accepts or declines;
* an e-mail invitation: whoever follows the link, signed in (the link's token is the
  secret, as with any invitation link); an invitee without an account signs up first;
* an open challenge: any signed-in player but the challenger accepts.
A three-player challenge (G3) names both opponents, each of whom must accept, or is
open, and fills its seats in the order players accept: the game is dealt when the
second one does; until then a player who joined an open one may leave it (decline).
It is never an e-mail invitation (an invitee without an account could not be told
apart from a second stranger following the same link).
Only the challenger cancels. Every answer locks the challenge row, so two players
racing to accept an open challenge start exactly one game.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet
from django.forms import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bots import bot_level_of, bot_player, level_of
from accounts.conduct import (
    accounts_at,
    kept_apart,
    not_taking_challenges,
    not_taking_invitations,
    refuses_challenges,
    refuses_invitations,
)
from games.clocks import TimeControl
from games.engine import OPTION_DESCRIPTIONS, PRESETS, BadPosition, RulesClash, fairdeal
from games.engine.rules import rules_from_document
from games.feed import events
from games.lobby import ratings
from games.lobby.matches import start_match
from games.lobby.rules_catalog import clash_message
from games.models import Challenge, ChallengeSeat, Seat, StopMode
from games.notify.notifications import notify
from games.play.dealing import FairDeal, announce, start_game
from lib.bounds import Bounds
from lib.errors import ServiceError

MAX_PENDING = 50
#: A match's target (R8.7; the engine takes larger ones): the form, the API and
#: ``create_challenge`` read it.
MATCH_TARGET = Bounds(1, 10_000)
#: The ratings an open challenge may be limited to.
RATING = Bounds(0, 4000)
#: E-mail invitations a player may send a day, cancelled ones included (no spam relay).
MAX_INVITATIONS_PER_DAY = 20


def create_challenge(
    challenger: User,
    *,
    opponent: str | None = None,
    second_opponent: str | None = None,
    email: str | None = None,
    is_open: bool = False,
    rules: str = "pagat",
    rule_options: dict[str, Any] | None = None,
    stop_mode: str = StopMode.REFEREE,
    match_target: int | None = None,
    clock: TimeControl | None = None,
    rated: bool = True,
    min_rating: int | None = None,
    max_rating: int | None = None,
    public: bool = True,
    contribution: str | None = None,
) -> Challenge:
    """Challenge a player by username, invite an e-mail address, or open a challenge
    (rated or not; an open one may be for players rated from ``min_rating`` to
    ``max_rating`` only). A ``public`` challenge's game may be watched by anyone
    (docs/spectators.md); a private one's only by its players. ``contribution``: the
    challenger's to the deal (docs/fair-deal.md), drawn by the server when missing;
    the challenge carries the commitment to the server's secret from now on."""
    given = _contribution(contribution)
    if sum((bool(opponent), bool(email), is_open)) != 1:
        raise ServiceError(
            400, "BAD_REQUEST", _("give exactly one of: opponent (a username), email, or open")
        )
    if rules not in PRESETS:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("unknown rules %(rules)s: %(presets)s")
            % {"rules": repr(rules), "presets": ", ".join(PRESETS)},
        )
    rule_options = check_rule_options(rules, rule_options or {})
    seats = rules_from_document({"preset": rules, **rule_options}).seats
    if seats == 3 and (email or (bool(opponent) != bool(second_opponent))):
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _(
                "a three-player challenge names both opponents (opponent and second_opponent) "
                "or is open"
            ),
        )
    if seats == 2 and second_opponent:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("the %(rules)s rules are for two players: no second_opponent") % {"rules": rules},
        )
    if stop_mode not in StopMode.values:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("stop_mode must be one of: %(modes)s") % {"modes": ", ".join(StopMode.values)},
        )
    if (min_rating is not None or max_rating is not None) and not is_open:
        raise ServiceError(400, "BAD_REQUEST", _("only an open challenge has a rating range"))
    if any(rating is not None and rating not in RATING for rating in (min_rating, max_rating)):
        raise ServiceError(
            400, "BAD_REQUEST", _("a rating must be from %(low)s to %(high)s") % RATING.words()
        )
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        min_rating, max_rating = max_rating, min_rating  # a range, from its lower end
    if match_target is not None and match_target not in MATCH_TARGET:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("match_target must be from %(low)s to %(high)s points") % MATCH_TARGET.words(),
        )
    clock = clock or TimeControl()
    problem = clock.validate()
    if problem:
        raise ServiceError(400, "BAD_REQUEST", problem)
    named = _named_player(challenger, opponent) if opponent else None
    second = _named_player(challenger, second_opponent) if second_opponent else None
    if named is not None and second is not None and named.pk == second.pk:
        raise ServiceError(400, "SAME_PLAYER", _("name two different opponents"))
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ServiceError(
                400,
                "BAD_REQUEST",
                _("%(email)s is not an e-mail address") % {"email": repr(email)},
            ) from None
    _check_welcome(challenger, [p for p in (named, second) if p is not None], email=email)
    with transaction.atomic():
        _check_limits(challenger, invitation=bool(email))
        secret = fairdeal.new_secret()
        challenge = Challenge(
            server_secret=secret,
            commitment=fairdeal.commitment(secret),
            contribution=given[0],
            contribution_by=given[1],
            challenger=challenger,
            email=email or "",
            is_open=is_open,
            token=secrets.token_urlsafe(32),
            rules=rules,
            rule_options=rule_options,
            stop_mode=stop_mode,
            match_target=match_target,
            rated=rated,
            min_rating=min_rating,
            max_rating=max_rating,
            public=public,
        )
        challenge.rating_family = ratings.FAMILIES[challenge.game_rules().family]
        challenge.set_clock(clock)
        challenge.save()
        ChallengeSeat.objects.bulk_create(
            ChallengeSeat(challenge=challenge, user=player, invited=True)
            for player in (named, second)
            if player is not None
        )
        if email:
            notify("invitation", email=email, challenge=challenge)
        for player in (named, second):
            if player is not None:
                notify("invitation", user=player, challenge=challenge)
        events.emit(
            "challenge",
            [named, second],
            challenge=challenge,
            by=challenger.get_username(),
            rules=rules,
            rated=rated,
            match_target=match_target,
        )
        for player in (named, second):
            if player is not None and level_of(player):
                # A computer player takes up every challenge at once.
                challenge = accept_challenge(challenge.pk, player)
    return challenge


def _contribution(value: str | None) -> tuple[str, str]:
    """A player's contribution to the deal, checked, and who drew it: the server draws
    one for a player who sent none (an e-mail acceptance, a computer, a client that
    leaves it out) and says so."""
    if value is None or value == "":
        return fairdeal.new_contribution(), fairdeal.SERVER
    try:
        return fairdeal.clean_contribution(value), fairdeal.PLAYER
    except fairdeal.BadContribution:
        raise ServiceError(
            400,
            "BAD_CONTRIBUTION",
            _("a contribution to the deal is 32 to 64 hexadecimal digits (an even number)"),
        ) from None


def fair_deal_of(challenge: Challenge) -> FairDeal | None:
    """The deal's makings once every seat has contributed: the secret the challenge
    committed to and the contributions in seat order. None for a challenge made before
    the fair deal (it has no secret): the game then draws its own."""
    if not challenge.server_secret:
        return None
    seats = sorted(challenge.seats.exclude(letter=""), key=lambda seat: seat.letter)
    return FairDeal(
        challenge.server_secret,
        (
            fairdeal.Contribution("A", challenge.contribution, challenge.contribution_by),
            *(
                fairdeal.Contribution(seat.letter, seat.contribution, seat.contribution_by)
                for seat in seats
            ),
        ),
    )


def _named_player(challenger: User, username: str) -> User:
    level = bot_level_of(username)
    if level is not None:
        return bot_player(level)
    named = User.objects.filter(username__iexact=username, is_active=True).first()
    if named is None:
        raise ServiceError(
            404,
            "NO_SUCH_PLAYER",
            _("there is no player called %(name)s") % {"name": repr(username)},
        )
    if named.pk == challenger.pk:
        raise ServiceError(400, "SAME_PLAYER", _("you cannot challenge yourself"))
    return named


def _check_welcome(challenger: User, named: list[User], *, email: str | None) -> None:
    """Refuse a challenge to a player who takes none from ``challenger`` (they block
    them, or their ``challenges_from`` says no), and an invitation to an address that
    is such a player's: one refusal whatever the reason (docs/conduct.md). An
    invitation to an address whose owner asked never to be invited is refused too."""
    for player in named:
        if refuses_challenges(player, challenger, have_played=have_played(player, challenger)):
            raise not_taking_challenges(player)
    for player in accounts_at(email) if email else []:
        if player.pk != challenger.pk and refuses_challenges(
            player, challenger, have_played=have_played(player, challenger)
        ):
            raise not_taking_challenges(player, named=email)
    if email and refuses_invitations(email):
        raise not_taking_invitations(email)


def have_played(one: User, other: User) -> bool:
    """Whether the two players have sat at a game together (finished or not)."""
    return Seat.objects.filter(user=one, game__seats__user=other).exists()


def check_rule_options(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options a player changed from the preset (RULES.md §9), checked; only those
    that differ from the preset are kept, so equal rules are stored alike."""
    unknown = sorted(str(key)[:40] for key in set(options) - set(OPTION_DESCRIPTIONS))
    if unknown:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("unknown rule options %(unknown)s: choose among %(options)s")
            % {"unknown": ", ".join(unknown), "options": ", ".join(OPTION_DESCRIPTIONS)},
        )
    try:
        chosen = rules_from_document({"preset": preset, **options})
    except RulesClash as clash:
        raise ServiceError(400, "RULES_CLASH", clash_message(clash)) from None
    except BadPosition as exc:
        raise ServiceError(400, "BAD_REQUEST", exc.message) from None
    document = chosen.to_document()
    return {} if isinstance(document, str) else {k: v for k, v in document.items() if k != "preset"}


def _check_limits(challenger: User, *, invitation: bool) -> None:
    """Caps on pending challenges and daily invitations, counted under the user's row
    lock so that concurrent requests cannot slip past them."""
    User.objects.select_for_update().filter(pk=challenger.pk).first()
    sent = Challenge.objects.filter(challenger=challenger)
    if sent.filter(status=Challenge.Status.PENDING).count() >= MAX_PENDING:
        raise ServiceError(
            409,
            "TOO_MANY_CHALLENGES",
            _("at most %(count)s pending challenges") % {"count": MAX_PENDING},
        )
    day_ago = timezone.now() - timedelta(days=1)
    if invitation and (
        sent.exclude(email="").filter(created_at__gte=day_ago).count() >= MAX_INVITATIONS_PER_DAY
    ):
        raise ServiceError(
            409,
            "TOO_MANY_INVITATIONS",
            _("at most %(count)s e-mail invitations a day") % {"count": MAX_INVITATIONS_PER_DAY},
        )


def _locked(challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise ServiceError(404, "NOT_FOUND", _("no such challenge"))
    return challenge


def _pending(challenge: Challenge) -> None:
    if challenge.status != Challenge.Status.PENDING:
        # One sentence for each status, for languages that agree the word with its noun.
        answered: dict[str, str] = {
            Challenge.Status.ACCEPTED: _("this challenge is accepted"),
            Challenge.Status.DECLINED: _("this challenge is declined"),
            Challenge.Status.CANCELLED: _("this challenge is cancelled"),
        }
        raise ServiceError(409, "ALREADY_ANSWERED", answered[challenge.status])


def _may_answer(challenge: Challenge, user: User, token: str | None) -> None:
    if user.pk == challenge.challenger_id:
        raise ServiceError(409, "SAME_PLAYER", _("you cannot answer your own challenge"))
    allowed = (
        user in challenge.invited
        or challenge.is_open
        or (
            bool(challenge.email)
            and token is not None
            and secrets.compare_digest(token, challenge.token)
        )
    )
    if not allowed or _kept_from(challenge, user):
        raise ServiceError(404, "NOT_FOUND", _("no such challenge"))


def _kept_from(challenge: Challenge, user: User) -> bool:
    """Whether ``user`` is kept apart (a block, either way) from the challenger or a
    player who accepted: to them the challenge does not exist (``challenges_for``).
    A computer player is never kept from a challenge."""
    if level_of(user):
        return False
    others = {challenge.challenger_id, *(p.pk for p in challenge.accepted if p is not None)}
    return not kept_apart(user).isdisjoint(others)


def accept_challenge(
    challenge_id: int, user: User, *, token: str | None = None, contribution: str | None = None
) -> Challenge:
    """Accept: the game (or the match's first game) is dealt at once; the challenger is A.
    A three-player challenge waits for its second acceptance (G3). ``contribution``:
    the player's to the deal, drawn by the server when missing (docs/fair-deal.md)."""
    given = _contribution(contribution)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        _may_answer(challenge, user, token)
        _pending(challenge)
        if not ratings.within(challenge, user):
            raise ServiceError(
                409,
                "RATING_OUT_OF_RANGE",
                # Translators: %(range)s is a rating range: 1200-1500, 1200 or more, up to 1500.
                _("this challenge is for players rated %(range)s")
                % {"range": ratings.range_words(challenge)},
            )
        accepted = challenge.accepted
        if user in accepted:
            raise ServiceError(
                409,
                "ALREADY_ACCEPTED",
                _("you have accepted: the game starts when a third player does"),
            )
        players = [challenge.challenger, *accepted, user]
        seat, _created = ChallengeSeat.objects.get_or_create(challenge=challenge, user=user)
        seat.letter = "ABC"[len(players) - 1]  # seats follow the order of acceptance
        seat.contribution, seat.contribution_by = given
        seat.save(update_fields=["letter", "contribution", "contribution_by"])
        challenge.refresh_from_db()
        answered = partial(events.emit, "challenge_answered", players[:-1], challenge=challenge)
        if len(players) < challenge.game_rules().seats:
            answered(accepted=True, by=user.get_username(), game=None)
            return challenge  # G3: the game waits for its third player
        if challenge.match_target:
            match = start_match(
                *players,
                target=challenge.match_target,
                rules=challenge.rules,
                rule_options=challenge.rule_options,
                stop_mode=challenge.stop_mode,
                clock=challenge.clock(),
                rated=challenge.rated,
                public=challenge.public,
                fair=fair_deal_of(challenge),
            )
            game = match.games.get()
        else:
            game = start_game(
                *players,
                rules=challenge.rules,
                rule_options=challenge.rule_options,
                stop_mode=challenge.stop_mode,
                clock=challenge.clock(),
                rated=challenge.rated,
                public=challenge.public,
                fair=fair_deal_of(challenge),
            )
        answered(accepted=True, by=user.get_username(), game=game)
        announce(game)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.game = game
        challenge.answered_at = timezone.now()
        challenge.save()
        return challenge


def _close(challenge: Challenge, status: str) -> Challenge:
    _pending(challenge)
    challenge.status = status
    challenge.answered_at = timezone.now()
    challenge.save()
    return challenge


def decline_challenge(challenge_id: int, user: User, *, token: str | None = None) -> Challenge:
    with transaction.atomic():
        challenge = _locked(challenge_id)
        _may_answer(challenge, user, token)
        if challenge.is_open and user in challenge.accepted:
            _pending(challenge)
            # G3: a player who joined leaves again.
            ChallengeSeat.objects.filter(challenge=challenge, user=user).delete()
            challenge.refresh_from_db()
            return challenge
        if challenge.is_open:
            raise ServiceError(
                409, "OPEN_CHALLENGE", _("an open challenge is not declined: leave it")
            )
        _close(challenge, Challenge.Status.DECLINED)
        # The challenger, and a player who had accepted a three-player one, wait for it.
        waiting = [p for p in (challenge.challenger, *challenge.accepted) if p.pk != user.pk]
        for player in waiting:
            notify(
                "challenge_declined",
                user=player,
                challenge=challenge,
                declined_by=user.get_username(),
            )
        events.emit(
            "challenge_answered",
            waiting,
            challenge=challenge,
            accepted=False,
            by=user.get_username(),
            game=None,
        )
        return challenge


def cancel_challenge(challenge_id: int, user: User) -> Challenge:
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.challenger_id != user.pk:
            raise ServiceError(404, "NOT_FOUND", _("no such challenge"))
        _close(challenge, Challenge.Status.CANCELLED)
        told = [*challenge.invited, *challenge.accepted]
        events.emit("challenge_cancelled", told, challenge=challenge, by=user.get_username())
        return challenge


def challenges_for(user: User) -> QuerySet[Challenge]:
    """Challenges the user sent or received, and open ones by others whose rating range
    holds the user's rating, newest first. A pending challenge by someone else whose
    challenger, or a player who accepted it, blocks the user or is blocked by them is
    left out: to the user it does not exist (docs/conduct.md)."""
    mine = Challenge.objects.filter(
        Q(challenger=user)
        | Q(seats__user=user)
        | (Q(is_open=True, status=Challenge.Status.PENDING) & ratings.in_range(user))
    )
    apart = kept_apart(user)
    if apart:
        hidden = (
            Challenge.objects.filter(status=Challenge.Status.PENDING)
            .filter(Q(challenger__in=apart) | Q(seats__user__in=apart, seats__letter__gt=""))
            .exclude(challenger=user)
        )
        mine = mine.exclude(pk__in=hidden.values("pk"))
    return (
        mine.distinct()
        .select_related("challenger")
        .prefetch_related(Prefetch("seats", queryset=ChallengeSeat.objects.select_related("user")))
        .order_by("-created_at", "-pk")
    )


def withdraw_challenges(sender: object, *, blocker: User, blocked: User, **kwargs: Any) -> None:
    """``blocker`` has blocked ``blocked`` (``accounts.signals.player_blocked``): the
    blocker's pending challenges that name the blocked player, or that they joined,
    are cancelled as the blocker could cancel them, so the blocked player sees an
    ordinary cancel. Their challenges to the blocker stay pending for them, hidden
    from the blocker (``challenges_for``), until they cancel them."""
    pending = Challenge.objects.filter(
        challenger=blocker, status=Challenge.Status.PENDING, seats__user=blocked
    )
    for challenge_id in pending.values_list("pk", flat=True).distinct():
        cancel_challenge(challenge_id, blocker)


def challenge_by_token(token: str) -> Challenge:
    challenge = Challenge.objects.select_related("challenger").filter(token=token).first()
    if challenge is None or challenge.is_open:
        raise ServiceError(404, "NOT_FOUND", _("this invitation does not exist"))
    return challenge


def pending_invitation(token: str) -> Challenge | None:
    """The e-mail invitation ``token`` names, while it awaits an answer (the sign-up
    page's, ``accounts.invitations``)."""
    return (
        Challenge.objects.select_related("challenger")
        .filter(token=token, status=Challenge.Status.PENDING, is_open=False)
        .exclude(email="")
        .first()
    )
