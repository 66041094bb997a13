"""A deal nobody can choose (docs/fair-deal.md): the commitment comes with the
challenge, the contributions with the answers, and every way a game starts carries it."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.bots import bot_player
from games.engine import fairdeal, seed_commitment
from games.engine.cli import main as engine_main
from games.lobby.challenges import accept_challenge, create_challenge
from games.lobby.matches import start_match
from games.models import Challenge, Game
from games.play.dealing import start_game
from games.play.services import resign
from games.play.store import engine_game, seed_of
from lib.errors import ServiceError
from tests.stored import position_of

from .conftest import NEW_GAME_FORM, client_for

pytestmark = pytest.mark.django_db

A_GIVES = "0123456789abcdef0123456789abcdef"
B_GIVES = "FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210"


def post(user: User, path: str, data: Any = None) -> Any:
    return client_for(user).post(f"/api/v1/{path}", data or {}, format="json")


def test_the_secret_is_fixed_and_committed_before_the_contribution_arrives(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    happened: list[str] = []
    draw = fairdeal.new_secret

    def drawn() -> str:
        happened.append("secret drawn")
        return draw()

    monkeypatch.setattr(fairdeal, "new_secret", drawn)
    created = post(alice, "challenges/", {"opponent": "bob", "contribution": A_GIVES})
    assert created.status_code == 201
    published = created.json()["commitment"]
    challenge = Challenge.objects.get(pk=created.json()["id"])
    secret = challenge.server_secret
    # Bound now: the commitment is public, the secret stored, and B has given nothing.
    assert happened == ["secret drawn"] and fairdeal.commitment(secret) == published
    assert not challenge.seats.exclude(contribution="").exists()
    assert client_for(bob).get("/api/v1/challenges/").json()["results"][0]["commitment"] == (
        published
    )
    accepted = post(bob, f"challenges/{challenge.pk}/accept/", {"contribution": B_GIVES})
    assert accepted.status_code == 200 and accepted.json()["commitment"] == published
    assert happened == ["secret drawn"]  # no secret drawn after B's contribution
    game = Game.objects.get(pk=accepted.json()["game"])
    assert (game.deal_scheme, game.seed_hash, game.server_secret) == (2, published, secret)
    assert game.contributions == [
        {"seat": "A", "value": A_GIVES, "by": "player"},
        {"seat": "B", "value": B_GIVES.lower(), "by": "player"},
    ]
    assert game.seed == fairdeal.derive_seed(secret, [A_GIVES, B_GIVES.lower()])
    assert position_of(game).seats[0].reserve == engine_game(game).position_at(0).seats[0].reserve


def test_the_contributions_decide_the_deal(alice: User, bob: User) -> None:
    """The same secret with another contribution from B deals another game."""
    first = create_challenge(alice, opponent="bob", contribution=A_GIVES)
    second = create_challenge(alice, opponent="bob", contribution=A_GIVES)
    Challenge.objects.filter(pk=second.pk).update(
        server_secret=first.server_secret, commitment=first.commitment
    )
    one = accept_challenge(first.pk, bob, contribution=B_GIVES).game
    other = accept_challenge(second.pk, bob, contribution=B_GIVES[::-1]).game
    assert one is not None and other is not None
    assert one.seed_hash == other.seed_hash and one.seed != other.seed
    assert position_of(one).houses != position_of(other).houses


@pytest.mark.parametrize(
    "value", ["abc", "xyz" * 12, "a" * 33, "a" * 66, 12, ["a" * 32], True, "é" * 32]
)
def test_a_bad_contribution_is_a_clear_400_and_makes_nothing(
    alice: User, bob: User, value: Any
) -> None:
    refused = post(alice, "challenges/", {"opponent": "bob", "contribution": value})
    assert refused.status_code == 400, refused.content
    assert "contribution" in refused.content.decode()
    assert not Challenge.objects.exists()
    challenge = create_challenge(alice, opponent="bob")
    refused = post(bob, f"challenges/{challenge.pk}/accept/", {"contribution": value})
    assert refused.status_code == 400 and "contribution" in refused.content.decode()
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.PENDING and not Game.objects.exists()


def test_the_service_refuses_a_bad_contribution_by_name(alice: User, bob: User) -> None:
    with pytest.raises(ServiceError) as refused:
        create_challenge(alice, opponent="bob", contribution="not hex at all, not at all")
    assert refused.value.code == "BAD_CONTRIBUTION" and refused.value.status == 400


def test_a_missing_contribution_is_drawn_by_the_server_and_marked(alice: User, bob: User) -> None:
    challenge_id = post(alice, "challenges/", {"opponent": "bob"}).json()["id"]
    game = Game.objects.get(pk=post(bob, f"challenges/{challenge_id}/accept/").json()["game"])
    assert [c["by"] for c in game.contributions] == ["server", "server"]
    assert all(fairdeal.clean_contribution(c["value"]) for c in game.contributions)
    state = client_for(alice).get(f"/api/v1/games/{game.pk}/").json()
    assert state["fair_deal"]["contributions"] == game.contributions


def test_a_computer_opponent_s_contribution_is_the_server_s(alice: User) -> None:
    challenge = create_challenge(alice, opponent=bot_player("easy").username, contribution=A_GIVES)
    game = challenge.game
    assert game is not None and game.deal_scheme == 2
    assert game.contributions[0] == {"seat": "A", "value": A_GIVES, "by": "player"}
    assert game.contributions[1]["by"] == "server"
    assert game.seed_hash == challenge.commitment


def test_the_pages_send_the_contributions(alice: User, bob: User) -> None:
    page = Client()
    page.force_login(alice)
    page.post("/challenges/new/", {**NEW_GAME_FORM, "opponent": "bob", "contribution": A_GIVES})
    challenge = Challenge.objects.get()
    assert (challenge.contribution, challenge.contribution_by) == (A_GIVES, "player")
    page.force_login(bob)
    # The commitment is before the opponent as they decide, whole in its title.
    assert f'title="{challenge.commitment}">{challenge.commitment[:16]}…' in (
        page.get("/").content.decode()
    )
    answered = page.post(f"/challenges/{challenge.pk}/accept/", {"contribution": B_GIVES})
    game = Game.objects.get()
    assert answered["Location"] == f"/games/{game.pk}/"
    assert [c["by"] for c in game.contributions] == ["player", "player"]


def test_an_e_mail_invitation_accepted_without_a_script_is_drawn_by_the_server(
    alice: User, bob: User
) -> None:
    challenge = create_challenge(alice, email="bob@example.com", contribution=A_GIVES)
    page = Client()
    page.force_login(bob)
    page.post(f"/invitations/{challenge.token}/", {"answer": "accept", "contribution": ""})
    game = Game.objects.get()
    assert [c["by"] for c in game.contributions] == ["player", "server"]
    assert game.seed_hash == challenge.commitment


def test_a_match_s_later_games_and_a_lone_start_get_a_fresh_commitment(
    alice: User, bob: User
) -> None:
    challenge = create_challenge(alice, opponent="bob", match_target=500, contribution=A_GIVES)
    challenge = accept_challenge(challenge.pk, bob, contribution=B_GIVES)
    first = challenge.game
    assert first is not None and first.seed_hash == challenge.commitment
    resign(game_id=first.pk, user=alice)
    later = Game.objects.exclude(pk=first.pk).get()
    assert later.deal_scheme == 2 and later.seed_hash not in (first.seed_hash, "")
    assert [c["by"] for c in later.contributions] == ["server", "server"]
    assert later.seed == fairdeal.derive_seed(
        later.server_secret, [c["value"] for c in later.contributions]
    )
    lone = start_game(alice, bob)  # a competition's game: nobody at hand
    assert lone.deal_scheme == 2 and lone.seed_hash == fairdeal.commitment(lone.server_secret)
    match = start_match(alice, bob, target=100)
    assert match.games.get().deal_scheme == 2


def test_the_secret_stays_hidden_until_the_end_then_everything_verifies(
    alice: User, bob: User, charlie: User
) -> None:
    challenge = create_challenge(alice, opponent="bob", contribution=A_GIVES)
    game = accept_challenge(challenge.pk, bob, contribution=B_GIVES).game
    assert game is not None
    secret = game.server_secret
    for who in (alice, bob, charlie, None):
        seen = client_for(who).get(f"/api/v1/games/{game.pk}/").content.decode()
        export = client_for(who).get(f"/api/v1/games/{game.pk}/export/").content.decode()
        page = Client()
        if who is not None:
            page.force_login(who)
        verify_page = page.get(f"/games/{game.pk}/verify/").content.decode()
        for text in (seen, export, verify_page):
            assert secret not in text and game.seed not in text
        assert challenge.commitment in verify_page
    resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    fair = client_for(charlie).get(f"/api/v1/games/{game.pk}/").json()["fair_deal"]
    assert (fair["server_secret"], fair["seed"], fair["commitment"]) == (
        secret,
        game.seed,
        challenge.commitment,
    )
    record = client_for(bob).get(f"/api/v1/games/{game.pk}/record/").json()
    assert record["seed_hash"] == challenge.commitment and record["fair_deal"] == fair
    export = client_for(alice).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    for tag in (
        '[DealScheme "2"]',
        f'[Commitment "{challenge.commitment}"]',
        f'[Contributions "A={A_GIVES}:player B={B_GIVES.lower()}:player"]',
        f'[Secret "{secret}"]',
        f'[Seed "{game.seed}"]',
    ):
        assert tag in export
    assert "SeedHash" not in export
    replay = Client().get(f"/games/{game.pk}/replay/").content.decode()
    assert "✓" in replay and f"/games/{game.pk}/verify/" in replay
    verify_page = Client().get(f"/games/{game.pk}/verify/").content.decode()
    assert secret in verify_page and 'id="verify-data"' in verify_page


def test_the_command_verifies_the_service_s_export(alice: User, bob: User, tmp_path: Any) -> None:
    challenge = create_challenge(alice, opponent="bob", contribution=A_GIVES)
    game = accept_challenge(challenge.pk, bob).game
    assert game is not None
    resign(game_id=game.pk, user=alice)
    path = tmp_path / "game.txt"
    path.write_text(client_for(bob).get(f"/api/v1/games/{game.pk}/export/").content.decode())
    out = io.StringIO()
    with redirect_stdout(out):
        assert engine_main(["verify", str(path)]) == 0
    assert "scheme 2" in out.getvalue() and out.getvalue().count("ok ") == 2


def test_a_game_dealt_before_keeps_its_commitment_and_verifies(
    alice: User, bob: User, tmp_path: Any
) -> None:
    game = start_game(alice, bob, seed=8)
    # As the migration leaves a game dealt before it: scheme 1, no secret.
    assert (game.deal_scheme, game.server_secret, game.contributions) == (1, "", [])
    assert game.seed_hash == seed_commitment(8)
    resign(game_id=game.pk, user=alice)
    export = client_for(bob).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    assert f'[SeedHash "{seed_commitment(8)}"]' in export and "DealScheme" not in export
    path = tmp_path / "old.txt"
    path.write_text(export)
    out = io.StringIO()
    with redirect_stdout(out):
        assert engine_main(["verify", str(path)]) == 0
    assert "scheme 1" in out.getvalue()
    fair = client_for(bob).get(f"/api/v1/games/{game.pk}/").json()["fair_deal"]
    assert fair == {
        "scheme": 1,
        "commitment": seed_commitment(8),
        "contributions": [],
        "server_secret": None,
        "seed": "8",
    }
    replay = Client().get(f"/games/{game.pk}/replay/").content.decode()
    assert "✓" in replay and "rbank-deal/1:" in replay
    assert Client().get(f"/games/{game.pk}/verify/").status_code == 200


def test_a_pending_challenge_made_before_deals_with_a_secret_of_its_own(
    alice: User, bob: User
) -> None:
    challenge = create_challenge(alice, opponent="bob")
    Challenge.objects.filter(pk=challenge.pk).update(server_secret="", commitment="")
    game = accept_challenge(challenge.pk, bob, contribution=B_GIVES).game
    assert game is not None and game.deal_scheme == 2
    assert [c["by"] for c in game.contributions] == ["server", "server"]


def test_a_private_game_s_verify_page_is_its_players_only(
    alice: User, bob: User, charlie: User
) -> None:
    game = start_game(alice, bob, public=False)
    assert Client().get(f"/games/{game.pk}/verify/").status_code == 302  # to log in
    stranger = Client()
    stranger.force_login(charlie)
    assert stranger.get(f"/games/{game.pk}/verify/").status_code == 404
    page = Client()
    page.force_login(bob)
    assert page.get(f"/games/{game.pk}/verify/").status_code == 200


def test_a_scheme_2_seed_deals_by_its_text_even_when_it_reads_as_a_number() -> None:
    digits = "0" + "7" * 63  # a derived seed may, rarely, be all digits
    assert seed_of(Game(deal_scheme=2, seed=digits)) == digits
    assert seed_of(Game(deal_scheme=1, seed="8")) == 8


def test_verify_games_checks_every_game_s_commitment(alice: User, bob: User) -> None:
    honest, old, changed = (
        start_game(alice, bob),
        start_game(alice, bob, seed=8),
        start_game(alice, bob),
    )
    resign(game_id=old.pk, user=bob)
    Game.objects.filter(pk=changed.pk).update(server_secret=fairdeal.new_secret())
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match=f"games that differ: {changed.pk}$"):
        call_command("verify_games", stdout=out, stderr=err)
    assert "3 games checked, 1 differ" in out.getvalue() and honest.pk != changed.pk
    assert f"game {changed.pk}: the seed does not match its commitment" in err.getvalue()
