"""Play by mail, the outgoing side: the signed addresses replies go to, and what an
e-mail shows a player who plays a game by mail (docs/play-by-mail.md).

A reply address names one game, one seat and one version of the game, and carries an
HMAC of the three under the site's secret::

    play+12.b.57.k2x7q4m9c3vd8ahz@play.example.com

A reply to it acts on that game for that seat, and only while the game is still at
that version: a reply to an e-mail the game has moved past applies nothing. Every
e-mail the outbox sends leaves from a bounce address of the same kind (VERP), which
names the outbox row, so a bounce tells which address fails.

The inbound side (reading, checking and applying replies) is the ``mailplay`` app.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.models import Profile
from games.engine import Game as EngineGame
from games.models import SEATS, Game, Seat
from lib.errors import ServiceError
from lib.logs import without_signatures

PLAY = "play"
BOUNCE = "bounce"

#: ``play+<game>.<seat>.<version>.<signature>`` and ``bounce+<row>.<signature>``, read
#: case-insensitively (some mail systems fold local parts to lower case).
_PLAY_LOCAL = re.compile(r"play\+(\d{1,12})\.([abc])\.(\d{1,9})\.([a-z2-7]{16})", re.I)
_BOUNCE_LOCAL = re.compile(r"bounce\+(\d{1,12})\.([a-z2-7]{16})", re.I)


def _signature(purpose: str, value: str) -> str:
    """80 bits of an HMAC-SHA256 under SECRET_KEY, as 16 lower-case base32 letters."""
    digest = salted_hmac(f"rbank.mail.{purpose}", value, algorithm="sha256").digest()
    return base64.b32encode(digest[:10]).decode().lower()


@dataclass(frozen=True)
class ReplyAddress:
    """Where a player's reply about ``game_id`` goes, for ``seat`` at ``version``."""

    game_id: int
    seat: str  # the seat's letter
    version: int

    def __str__(self) -> str:
        value = f"{self.game_id}.{self.seat.lower()}.{self.version}"
        return f"{PLAY}+{value}.{_signature(PLAY, value)}@{settings.MAIL_DOMAIN}"


@dataclass(frozen=True)
class BounceAddress:
    """The envelope sender of outbox row ``notification_id``: bounces come back here."""

    notification_id: int

    def __str__(self) -> str:
        value = str(self.notification_id)
        return f"{BOUNCE}+{value}.{_signature(BOUNCE, value)}@{settings.MAIL_DOMAIN}"


class Tampered:
    """An address of ours whose signature does not match what it names."""

    def __init__(self, address: str) -> None:
        self.address = address


def read_address(address: str) -> ReplyAddress | BounceAddress | Tampered | None:
    """What ``address`` names: a reply or bounce address with a valid signature, a
    ``Tampered`` one, or None for an address that is not one of ours at all."""
    local, _, domain = address.strip().strip("<>").rpartition("@")
    if domain.lower() != settings.MAIL_DOMAIN.lower():
        return None
    if match := _PLAY_LOCAL.fullmatch(local):
        game, seat, version, signature = match.groups()
        reply = ReplyAddress(int(game), seat.upper(), int(version))
        value = f"{reply.game_id}.{seat.lower()}.{reply.version}"
        ok = constant_time_compare(_signature(PLAY, value), signature.lower())
        return reply if ok else Tampered(address)
    if match := _BOUNCE_LOCAL.fullmatch(local):
        row, signature = match.groups()
        bounce = BounceAddress(int(row))
        expected = _signature(BOUNCE, str(bounce.notification_id))
        ok = constant_time_compare(expected, signature.lower())
        return bounce if ok else Tampered(address)
    if local.lower().startswith((f"{PLAY}+", f"{BOUNCE}+")):
        return Tampered(address)
    return None


def address_label(address: str) -> str:
    """What an address names, for a log line or a record, never its signature:
    ``play 12.b.57`` (game, seat, version), ``bounce 812`` (the outbox row), with
    ``tampered`` before it when its signature is wrong, or ``not ours``."""
    found = read_address(address)
    if found is None:
        return "not ours"
    if isinstance(found, Tampered):
        local = found.address.strip().strip("<>").rpartition("@")[0]
        return "tampered " + without_signatures(local)[:60]
    if isinstance(found, BounceAddress):
        return f"bounce {found.notification_id}"
    return f"play {found.game_id}.{found.seat.lower()}.{found.version}"


def plays_by_mail(game: Game, seat: int, profile: Profile | None = None) -> bool:
    """Whether the seat's player gets this game's turns with the moves menu: the game's
    own choice when the player made one, else their preference (``profile``, when the
    caller has read it already)."""
    row = game.seat_rows[seat]
    if row.play_by_mail is not None:
        return bool(row.play_by_mail)
    if row.user is None:
        return False
    if profile is None:
        profile = Profile.objects.filter(user=row.user).only("play_by_mail").first()
    return profile is not None and profile.play_by_mail


#: The words a reply may hold instead of moves (docs/play-by-mail.md).
WORDS = ("resign", "stalemate", "accept", "decline", "stop", "help")


def pile_names(moves: list[str], seats: int) -> list[tuple[str, str]]:
    """What the names in ``moves`` beyond the reminder's own (``R``, ``C``, ``W``, the
    houses and foundations, ``T``, ``C-W``) mean, each with its words, in the order of
    the notation: ``[("OR", "your opponent's reserve"), ...]``. The opponent's moves
    name the piles from their side (their ``OR`` is your reserve): the words say so."""
    used = {part for move in moves for part in move.split("-")}
    two = seats == 2
    # Translators: the meaning of a pile's name of the notation, after the name
    # itself in a play-by-mail e-mail: "OR your opponent's reserve".
    words = {
        "OR": pgettext("pile name", "your opponent's reserve (in their moves: yours)")
        if two
        else pgettext("pile name", "the reserve of the next player in turn"),
        "OW": pgettext("pile name", "your opponent's waste (in their moves: yours)")
        if two
        else pgettext("pile name", "the waste of the next player in turn"),
        "OR2": pgettext("pile name", "the reserve of the player after next"),
        "OW2": pgettext("pile name", "the waste of the player after next"),
        "TR": pgettext("pile name", "turns the top card of your face-down stock"),
        "E": pgettext("pile name", "ends a turn with neither hand nor waste cards"),
    }
    return [(name, meaning) for name, meaning in words.items() if name in used]


def menu(game: Game, engine: EngineGame, seat: int) -> dict[str, Any]:
    """What a play-by-mail e-mail offers ``seat`` in the game as it stands: the reply
    address for this version, the legal moves when it is the seat's turn, the Stop!
    calls it may make, and a stalemate offer to answer."""
    my_turn = not engine.is_over and engine.to_move == seat
    last = engine.last_turn
    can_stop = my_turn and engine.can_call_stop(seat)
    legal = sorted(str(m) for m in engine.legal_moves(seat)) if my_turn else []
    shown = legal + ([str(m) for m in last.moves] if last is not None else [])
    return {
        "reply_to": str(ReplyAddress(game.pk, game.letters[seat], game.version)),
        "my_turn": my_turn,
        "to_move": game.names()[game.letters[engine.to_move]] if not engine.is_over else "",
        "legal_moves": legal,
        # The names the e-mail's moves use (its own, the last turn's) beyond those
        # every reminder explains.
        "pile_names": pile_names(shown, engine.rules.seats),
        "stop_moves": (
            [f"{n}: {move}" for n, move in enumerate(last.moves, 1)]
            if can_stop and last is not None
            else []
        ),
        "answer_offer": engine.may_answer_stalemate(seat),
        "houses": f"H1-H{engine.rules.houses}",
        "foundations": f"F1-F{engine.rules.foundations}" if engine.rules.foundations else "",
        "can_offer": engine.may_offer_stalemate(seat),
        "over": engine.is_over,
    }


def set_play_by_mail(*, game_id: int, user: User, play_by_mail: bool | None) -> bool:
    """Choose how ``user`` plays this game: by mail (True), by notices only (False), or
    as their preference says (None). Returns whether they now play it by mail."""
    with transaction.atomic():
        game = Game.objects.prefetch_related(SEATS).filter(pk=game_id).first()
        seat = None if game is None else game.seat_of(user.pk)
        if game is None or seat is None:
            raise ServiceError(404, "NOT_FOUND", _("no such game"))
        Seat.objects.filter(pk=game.seat_rows[seat].pk).update(play_by_mail=play_by_mail)
        game.seat_rows[seat].play_by_mail = play_by_mail
        return plays_by_mail(game, seat)
