"""Two clients post the same turn at the same moment: exactly one applies."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games.play.dealing import start_game
from games.play.services import play_moves
from lib.errors import ServiceError
from tests.stored import entries_of, position_of


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("with_version", [True, False])
def test_it_applies_one_of_two_racing_posts(with_version: bool) -> None:
    alice = User.objects.create_user("alice", password="pw-alice-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    game = start_game(alice, bob, seed=77)
    mover = alice if game.to_move == "A" else bob
    # A whole turn that ends it, so a second copy can never apply after the first.
    position = position_of(game)
    turn: list[str] = []
    while position.turns == 0:
        legal = position.legal_moves()
        ends = [m for m in legal if str(m) in ("C-W", "E")]
        move = ends[0] if ends else legal[0]
        position.push(move)
        turn.append(str(move))

    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def post() -> None:
        try:
            barrier.wait()
            play_moves(
                game_id=game.pk,
                user=mover,
                moves=turn,
                expected_version=1 if with_version else None,
            )
            outcomes.append("applied")
        except ServiceError as exc:
            outcomes.append((exc.status, exc.code))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)

    assert outcomes.count("applied") == 1, outcomes
    (refusal,) = [o for o in outcomes if o != "applied"]
    expected = (412, "STALE_VERSION") if with_version else (409, "NOT_YOUR_TURN")
    assert refusal == expected
    game.refresh_from_db()
    assert game.version == 2
    assert game.ply == len(turn)
    assert entries_of(game) == turn
