"""Seats are rows: a ``Seat`` per player of a game (its clock bank, wrong calls, place
in a stalemate offer and points), a ``MatchSeat`` per player of a match (its total),
a ``ChallengeSeat`` per player a challenge names or who accepted it. The columns per
seat letter go; a player who deletes their account leaves their seats empty."""

from __future__ import annotations

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def to_rows(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Match = apps.get_model("games", "Match")
    MatchSeat = apps.get_model("games", "MatchSeat")
    Challenge = apps.get_model("games", "Challenge")
    ChallengeSeat = apps.get_model("games", "ChallengeSeat")
    for game in Game.objects.iterator(chunk_size=500):
        users = [game.player_a_id, game.player_b_id, game.player_c_id]
        banks = [game.bank_a, game.bank_b, game.bank_c]
        offer = game.stalemate_offer
        Seat.objects.bulk_create(
            Seat(
                game=game,
                letter=letter,
                user_id=user,
                bank=bank,
                wrong_calls=int((game.wrong_calls or {}).get(letter, 0)),
                offer=offer.index(letter) if letter in offer else None,
                score=None if game.score is None else game.score.get(letter),
            )
            for letter, user, bank in zip("ABC", users, banks, strict=True)
            if user is not None
        )
    for match in Match.objects.iterator(chunk_size=500):
        users = [match.player_a_id, match.player_b_id, match.player_c_id]
        totals = [match.total_a, match.total_b, match.total_c]
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, letter=letter, user_id=user, total=total)
            for letter, user, total in zip("ABC", users, totals, strict=True)
            if user is not None
        )
    for challenge in Challenge.objects.iterator(chunk_size=500):
        seats: dict[int, Any] = {}
        for user in (challenge.opponent_id, challenge.second_opponent_id):
            if user is not None:
                seats[user] = ChallengeSeat(challenge=challenge, user_id=user, invited=True)
        for letter, user in (
            ("B", challenge.accepted_by_id),
            ("C", challenge.second_accepted_by_id),
        ):
            if user is not None:
                seat = seats.setdefault(user, ChallengeSeat(challenge=challenge, user_id=user))
                seat.letter = letter
        ChallengeSeat.objects.bulk_create(seats.values())


SEAT_USER = models.ForeignKey(
    blank=True,
    null=True,
    on_delete=django.db.models.deletion.SET_NULL,
    related_name="%(class)s_set",
    to=settings.AUTH_USER_MODEL,
)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_outbox_gives_up"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Seat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("letter", models.CharField(max_length=1)),
                ("bank", models.DurationField(blank=True, null=True)),
                ("wrong_calls", models.PositiveSmallIntegerField(default=0)),
                ("offer", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("score", models.IntegerField(blank=True, null=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.game",
                    ),
                ),
                ("user", SEAT_USER),
            ],
            options={
                "indexes": [
                    models.Index(fields=["user", "game"], name="games_seat_user_id_cf1fc5_idx")
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("game", "letter"), name="unique_game_seat")
                ],
            },
        ),
        migrations.CreateModel(
            name="MatchSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("letter", models.CharField(max_length=1)),
                ("total", models.PositiveIntegerField(default=0)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.match",
                    ),
                ),
                ("user", SEAT_USER.clone()),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("match", "letter"), name="unique_match_seat")
                ],
            },
        ),
        migrations.CreateModel(
            name="ChallengeSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("invited", models.BooleanField(default=False)),
                ("letter", models.CharField(blank=True, max_length=1)),
                (
                    "challenge",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.challenge",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="challenge_seats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("challenge", "user"), name="unique_challenge_seat"
                    )
                ],
            },
        ),
        migrations.RunPython(to_rows, migrations.RunPython.noop),
        *[
            migrations.RemoveField(model_name=model, name=field)
            for model, fields in (
                (
                    "game",
                    (
                        "player_a",
                        "player_b",
                        "player_c",
                        "bank_a",
                        "bank_b",
                        "bank_c",
                        "wrong_calls",
                        "stalemate_offer",
                        "score",
                    ),
                ),
                ("match", ("player_a", "player_b", "player_c", "total_a", "total_b", "total_c")),
                ("challenge", ("opponent", "second_opponent", "accepted_by", "second_accepted_by")),
            )
            for field in fields
        ],
    ]
