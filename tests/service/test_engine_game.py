"""The engine's ``Game`` against the service, action for action: the same random games
(moves, priority slips, Stop! calls right and wrong, lost turns, stalemate offers,
resignations and timeouts) played through the service and through a ``Game`` of its
own give the same export, byte for byte, the same record and position, the same last
turn and turn under way, the same call window and the same record of violations, and
the stored record replays to the stored game.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.engine import CLASSIC, REFEREE, Game, GameError, get_rules
from games.models import Game as GameRow
from games.play import selectors
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.play.stops import call_stop_on
from games.play.store import engine_game
from games.play.sweep import timeout_game
from lib.errors import ServiceError
from tests.engine.random_records import a_slip
from tests.stored import replays

pytestmark = pytest.mark.django_db


class Twin:
    """One game played through the service and through the engine's ``Game``."""

    def __init__(self, users: list[User], seed: int, rules: str, stop_mode: str) -> None:
        self.users = users
        self.row = start_game(
            *users,
            rules=rules,
            seed=seed,
            stop_mode=stop_mode,
        )
        self.game = Game(seed, get_rules(rules), stop_mode=stop_mode)
        assert self.game.to_move == self.row.game_rules().seat_names.index(self.row.to_move)

    # ------------------------------------------------------------------ actions

    def play_turn(self, rng: random.Random) -> None:
        """The seat to move plays a random turn, with a slip now and then (classic)."""
        game = self.game
        seat = game.to_move
        texts = []
        while not game.is_over and game.to_move == seat:
            move = a_slip(game, rng) if game.classic and rng.random() < 0.1 else None
            if move is None:
                move = rng.choice(game.legal_moves(seat))
            game.play(seat, [move])
            texts.append(str(move))
        play_moves(game_id=self.row.pk, user=self.users[seat], moves=texts)

    def call_stop(self, seat: int, number: int) -> str:
        """Stop! by ``seat`` through both; they must answer alike. Returns the answer."""
        try:
            outcome = call_stop_on(game_id=self.row.pk, user=self.users[seat], move_number=number)
        except ServiceError as exc:
            with pytest.raises(GameError) as refused:
                self.game.call_stop(seat, number)
            assert refused.value.code == exc.code
            if exc.code == "WRONG_STOP":
                assert refused.value.params["wrong_calls"] == exc.extra["wrong_calls"]
                assert refused.value.params["turn_lost"] == exc.extra["turn_lost"]
            return exc.code
        entry = self.game.call_stop(seat, number)
        assert (entry.violation, str(entry.correction)) == (outcome.violation, outcome.correction)
        return "STOPPED"

    def talk_stalemate(self, rng: random.Random) -> None:
        game = self.game
        offer = game.stalemate_offer
        if not offer:
            seat = rng.randrange(game.rules.seats)
            offer_stalemate(game_id=self.row.pk, user=self.users[seat])
            game.offer_stalemate(seat)
            return
        seat = rng.choice([s for s in range(game.rules.seats) if s not in offer])
        accept = rng.random() < 0.3
        answer_stalemate(game_id=self.row.pk, user=self.users[seat], accept=accept)
        (game.agree_stalemate if accept else game.decline_stalemate)(seat)

    def end(self, how: int) -> None:
        game = self.game
        if how == 0:
            seat = game.to_move ^ 1 if game.rules.seats == 2 else game.to_move
            resign(game_id=self.row.pk, user=self.users[seat])
            game.resign(seat)
        elif how == 1:
            GameRow.objects.filter(pk=self.row.pk).update(
                deadline=timezone.now() - timedelta(minutes=1)
            )
            assert timeout_game(self.row.pk)
            game.timeout(game.to_move)

    # ------------------------------------------------------------------ checks

    def check(self) -> None:
        row, game = self.row, self.game
        row.refresh_from_db()
        stored = engine_game(row)
        letters = row.letters
        header = [("Game", str(row.pk)), ("Rules", row.rules), *row.names().items()]
        assert game.export(header, row.rule_options) == selectors.export_game(row)
        assert stored.position == game.position and stored.entries == game.entries
        assert replays(row)
        assert (game.status, game.ending or "") == (row.status, row.ending)
        assert (stored.current_turn, stored.last_turn) == (game.current_turn, game.last_turn)
        for seat in range(len(letters)):
            assert game.can_call_stop(seat) == stored.can_call_stop(seat)
        assert {
            letter: count for letter, count in zip(letters, game.wrong_calls, strict=True) if count
        } == {letter: count for letter, count in row.wrong_calls.items() if count}
        assert "".join(letters[s] for s in game.stalemate_offer) == row.stalemate_offer
        if game.is_over:
            self.check_record()

    def check_record(self) -> None:
        record = selectors.game_record(self.row)
        full = self.game.full_record()
        assert [
            (v["index"], v["move"], v["violation"], v["called"]) for v in full["violations"]
        ] == [(v["index"], v["move"], v["violation"], v["called"]) for v in record["violations"]]
        assert (full["score"], full["winner"], full["start"], full["final"]) == (
            record["score"],
            record["winner"],
            record["start"],
            record["final"],
        )


def play_twin(twin: Twin, rng: random.Random, turns: int, end: int) -> None:
    game = twin.game
    for _ in range(turns):
        if game.is_over:
            break
        seat = game.to_move
        last = game.last_turn
        if game.classic and last is not None and last.moves and rng.random() < 0.4:
            slips = [
                n + 1
                for n, i in enumerate(last.indexes)
                if getattr(game.entries[i], "violation", None)
            ]
            number = rng.choice(slips) if slips and rng.random() < 0.5 else 1
            twin.call_stop(seat, number)
            twin.check()
            if game.is_over or game.to_move != seat:
                continue
        if rng.random() < 0.05:
            twin.talk_stalemate(rng)
            twin.check()
            continue
        twin.play_turn(rng)
        twin.check()
    if not game.is_over:
        twin.end(end)
    twin.check()


def users(count: int) -> list[User]:
    names = ("alice", "bob", "charlie")[:count]
    return [User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-1") for name in names]


@pytest.mark.parametrize(
    ("rules", "stop_mode", "seed", "end"),
    [
        ("pagat", CLASSIC, 1, 0),
        ("pagat", CLASSIC, 2, 1),
        ("pagat", REFEREE, 3, 0),
        ("pagat-strict", CLASSIC, 4, 1),
        ("wikipedia", CLASSIC, 5, 2),
        ("one-pack", CLASSIC, 6, 0),
        ("three-player", CLASSIC, 7, 0),
        ("three-player", CLASSIC, 8, 1),
    ],
)
def test_it_keeps_the_game_the_service_keeps(
    rules: str, stop_mode: str, seed: int, end: int
) -> None:
    rng = random.Random(seed)
    twin = Twin(users(get_rules(rules).seats), seed, rules, stop_mode)
    play_twin(twin, rng, turns=40, end=end)


def test_the_offers_answers_and_calls_leave_the_same_game() -> None:
    """A classic game with every kind of entry, to its end."""
    rng = random.Random(11)
    twin = Twin(users(2), 11, "pagat", CLASSIC)
    play_twin(twin, rng, turns=400, end=0)
    kinds = {type(e).__name__ for e in twin.game.entries}
    assert {"MoveEntry", "StopCall", "WrongCall", "LostTurn", "OfferStalemate"} <= kinds
