"""G3 through the service: a three-player challenge, three seats taking turns in order,
views, e-mails, Stop!, stalemate, resignation and matches with three players."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.engine import PRESETS, deal, view
from games.lobby.matches import start_match
from games.models import Challenge, Game, Match, Notification
from games.notify.board_text import board_text
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.play.stops import call_stop_on
from lib.errors import ServiceError
from tests.stored import last_turn_of, position_of, replays

from .conftest import NEW_GAME_FORM, browser, client_for, whole_turn
from .test_hidden_cards_pages import leaks

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", "carol@example.com", "pw-carol-123")


@pytest.fixture
def trio(alice: User, bob: User, carol: User) -> Game:
    return start_game(alice, bob, carol, rules="three-player", seed=7)


def mover(game: Game) -> User:
    game.refresh_from_db()
    user: User = game.user_at(game.letters.index(game.to_move))
    return user


def play_a_turn(game: Game) -> list[str]:
    user = mover(game)
    moves = whole_turn(game)
    play_moves(game_id=game.pk, user=user, moves=moves)
    game.refresh_from_db()
    return moves


def test_G3_a_named_three_player_challenge_starts_when_both_have_accepted(
    alice: User, bob: User, carol: User
) -> None:
    made = client_for(alice).post(
        "/api/v1/challenges/",
        {"rules": "three-player", "opponent": "carol", "second_opponent": "bob"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["second_opponent"] == "bob"
    url = f"/api/v1/challenges/{made.json()['id']}/accept/"
    first = client_for(bob).post(url)
    assert first.status_code == 200
    assert (first.json()["status"], first.json()["game"]) == ("pending", None)
    assert first.json()["accepted_by"] == ["bob"]
    again = client_for(bob).post(url)
    assert again.status_code == 409 and again.json()["error"] == "ALREADY_ACCEPTED"
    second = client_for(carol).post(url)
    assert second.status_code == 200 and second.json()["status"] == "accepted"
    game = Game.objects.get(pk=second.json()["game"])
    # Seats follow the order of acceptance: the challenger, then bob, then carol.
    assert game.players == [alice, bob, carol]
    state = client_for(carol).get(f"/api/v1/games/{game.pk}/").json()
    assert state["players"] == {"A": "alice", "B": "bob", "C": "carol"}
    assert state["seat"] == "C" and set(state["position"]) >= {"A", "B", "C"}
    assert len(state["position"]["houses"]) == 9
    invited = Notification.objects.filter(kind="invitation").values_list("user__username")
    assert sorted(u for (u,) in invited) == ["bob", "carol"]


def test_G3_an_open_three_player_challenge_seats_the_first_two_takers(
    alice: User, bob: User, carol: User, charlie: User
) -> None:
    made = client_for(alice).post(
        "/api/v1/challenges/", {"rules": "three-player", "open": True}, format="json"
    )
    url = f"/api/v1/challenges/{made.json()['id']}/accept/"
    assert client_for(carol).post(url).json()["status"] == "pending"
    # The lobby lists it under "joined" for carol, still open for the others.
    assert "the game starts when a third player accepts" in browser(carol).get("/").content.decode()
    # carol may leave again before the game is dealt, and join once more.
    left = browser(carol).post(reverse("challenge-decline", args=[made.json()["id"]]))
    assert left.status_code == 302
    assert Challenge.objects.get().accepted_by is None
    assert client_for(carol).post(url).json()["accepted_by"] == ["carol"]
    assert client_for(bob).post(url).json()["status"] == "accepted"
    late = client_for(charlie).post(url)
    assert late.status_code == 409 and late.json()["error"] == "ALREADY_ANSWERED"
    game = Game.objects.get()
    assert game.names() == {"A": "alice", "B": "carol", "C": "bob"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "three-player", "opponent": "bob"}, "names both opponents"),
        ({"rules": "three-player", "email": "dora@example.com"}, "names both opponents"),
        ({"rules": "pagat", "opponent": "bob", "second_opponent": "carol"}, "two players"),
        ({"rules": "three-player", "opponent": "bob", "second_opponent": "bob"}, "different"),
        ({"rules": "three-player", "opponent": "bob", "second_opponent": "alice"}, "yourself"),
    ],
)
def test_G3_bad_three_player_challenges_are_refused(
    alice: User, bob: User, carol: User, body: dict[str, object], message: str
) -> None:
    response = client_for(alice).post("/api/v1/challenges/", body, format="json")
    assert response.status_code == 400 and message in response.json()["message"]
    assert not Challenge.objects.exists()


def test_G3_a_game_needs_as_many_players_as_the_rules_have_seats(
    alice: User, bob: User, carol: User
) -> None:
    with pytest.raises(ServiceError) as two:
        start_game(alice, bob, rules="three-player")
    assert two.value.code == "WRONG_PLAYER_COUNT"
    with pytest.raises(ServiceError) as three:
        start_game(alice, bob, carol)
    assert three.value.code == "WRONG_PLAYER_COUNT"
    assert not Game.objects.exists()


def test_G3_turns_pass_A_B_C_and_each_next_player_is_told(
    trio: Game, alice: User, bob: User, carol: User
) -> None:
    order = []
    for _ in range(4):
        order.append(trio.to_move)
        waiting = [u for u in (alice, bob, carol) if u != mover(trio)]
        for other in waiting:  # a seat not to move is refused and nothing changes
            before = trio.version
            with pytest.raises(ServiceError) as refused:
                play_moves(game_id=trio.pk, user=other, moves=["T"])
            assert refused.value.code == "NOT_YOUR_TURN"
            assert refused.value.message == f"it is {mover(trio).username}'s turn"
            trio.refresh_from_db()
            assert trio.version == before
        play_a_turn(trio)
        told = Notification.objects.filter(kind="your_turn").order_by("-pk").first()
        assert told is not None and told.user == mover(trio)
    letters = "ABC"
    start = letters.index(order[0])
    assert order == [letters[(start + i) % 3] for i in range(4)]
    assert replays(trio)
    mine = client_for(mover(trio)).get("/api/v1/games/", {"filter": "my_turn"}).json()
    assert [g["id"] for g in mine["results"]] == [trio.pk]


def test_G3_each_player_sees_a_table_with_both_opponents_and_nothing_hidden(
    trio: Game, alice: User, bob: User, carol: User
) -> None:
    play_a_turn(trio)
    position = position_of(trio)
    for seat, user in enumerate((alice, bob, carol)):
        page = browser(user).get(reverse("game", args=[trio.pk])).content.decode()
        assert leaks(page, position, seat) == []
        assert page.count('class="seat') == 3 and "alice v bob v carol" in page
        for other in {"alice", "bob", "carol"} - {user.username}:
            assert f"{other}&#x27;s reserve" in page
    lobby = browser(carol).get("/").content.decode()
    assert "alice (1500?) and bob (1500?)" in lobby  # with their ratings, new ones


def test_G3_a_stalemate_needs_both_others_to_accept(
    trio: Game, alice: User, bob: User, carol: User
) -> None:
    offer_stalemate(game_id=trio.pk, user=alice)
    answer_stalemate(game_id=trio.pk, user=bob, accept=True)
    trio.refresh_from_db()
    assert trio.status == "playing" and trio.stalemate_offer == "AB"
    page = browser(bob).get(reverse("game", args=[trio.pk])).content.decode()
    assert "You have agreed to end the game now, scored by the counts, as alice offered" in page
    page = browser(carol).get(reverse("game", args=[trio.pk])).content.decode()
    assert "alice and bob agree to end the game now, scored by the counts: " in page
    with pytest.raises(ServiceError):
        answer_stalemate(game_id=trio.pk, user=bob, accept=True)
    answer_stalemate(game_id=trio.pk, user=carol, accept=True)
    trio.refresh_from_db()
    assert trio.status == "stalemate" and trio.ending == "agreed"
    # One refusal withdraws an offer.
    other = start_game(alice, bob, carol, rules="three-player", seed=8)
    offer_stalemate(game_id=other.pk, user=carol)
    answer_stalemate(game_id=other.pk, user=alice, accept=False)
    other.refresh_from_db()
    assert other.stalemate_offer == "" and other.status == "playing"


def test_G3_a_resignation_pays_each_other_player_and_everyone_is_told(
    trio: Game, alice: User, bob: User, carol: User
) -> None:
    count = position_of(trio).seats[1].count
    resign(game_id=trio.pk, user=bob)
    trio.refresh_from_db()
    state = client_for(alice).get(f"/api/v1/games/{trio.pk}/").json()
    owed = 30 + 20 + count
    assert state["position"]["score"] == {"A": owed, "B": 0, "C": owed}
    assert state["position"]["winner"] is None and trio.ending == "resigned"
    over = Notification.objects.filter(kind="game_over", game=trio)
    assert sorted(n.user.username for n in over if n.user) == ["alice", "bob", "carol"]
    page = browser(carol).get(reverse("game", args=[trio.pk])).content.decode()
    assert f"Game over: bob resigned · you {owed}, alice {owed}, bob 0" in page
    record = client_for(carol).get(f"/api/v1/games/{trio.pk}/record/").json()
    assert record["players"] == {"A": "alice", "B": "bob", "C": "carol"}
    assert (
        '[C "carol"]' in client_for(carol).get(f"/api/v1/games/{trio.pk}/export/").content.decode()
    )


def test_G3_stop_is_called_only_by_the_next_player(alice: User, bob: User, carol: User) -> None:
    game = start_game(alice, bob, carol, rules="three-player", seed=7, stop_mode="classic")
    play_a_turn(game)
    first_mover = last_turn_of(game)["seat"]
    play_a_turn(game)
    # The seat now to move may stop the turn just played, not the one before it.
    caller = mover(game)
    assert last_turn_of(game)["seat"] != first_mover
    state = client_for(caller).get(f"/api/v1/games/{game.pk}/").json()
    assert state["can_call_stop"] is True
    for other in {alice, bob, carol} - {caller}:
        with pytest.raises(ServiceError) as refused:
            call_stop_on(game_id=game.pk, user=other, move_number=1)
        assert refused.value.code == "NOT_YOUR_TURN"


def test_G3_a_match_of_three_adds_every_seat_score(alice: User, bob: User, carol: User) -> None:
    match = start_match(alice, bob, carol, target=40, rules="three-player")
    first = match.games.get()
    resign(game_id=first.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    assert match.totals[0] == 0 and match.totals[1] == match.totals[2] >= 50
    # R8.7: a tie on the highest total wins nobody, and another game is dealt.
    assert match.winner == "" and match.finished_at is None
    second = match.games.exclude(pk=first.pk).get()
    resign(game_id=second.pk, user=carol)
    match = Match.objects.get(pk=match.pk)
    totals = dict(zip("ABC", match.totals, strict=True))
    leaders = [letter for letter, total in totals.items() if total == max(totals.values())]
    assert totals["C"] < totals["B"]  # carol paid the others this time
    if len(leaders) == 1:
        assert match.winner == leaders[0] and match.finished_at is not None
    else:
        assert match.winner == "" and match.finished_at is None


def test_G3_the_lobby_form_sends_a_three_player_challenge(
    alice: User, bob: User, carol: User
) -> None:
    response = browser(alice).post(
        reverse("challenge-new"),
        {**NEW_GAME_FORM, "rules": "three-player", "second_opponent": "carol"},
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.opponent, challenge.second_opponent) == (bob, carol)
    page = browser(carol).get("/").content.decode()
    assert "Challenges for you" in page


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_e_mail_table_names_every_pile_once_for_every_preset(preset: str) -> None:
    position = deal(3, PRESETS[preset])
    for seat in range(position.rules.seats):
        text = board_text(view(position, seat))
        words = text.split()
        for kind, count in (("H", position.rules.houses), ("F", position.rules.foundations)):
            assert all(words.count(f"{kind}{i}") == 1 for i in range(1, count + 1)), text
        assert text.count("Opponent (") == position.rules.seats - 1
        assert f"You ({position.seat_name(seat)})" in text
