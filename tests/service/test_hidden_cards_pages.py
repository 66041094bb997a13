"""Hidden cards never reach a page: whole games played with random legal moves, and
after every post the game page, the table fragment and every replay step offered,
read by both players, checked against what that seat may see.

Two packs hold two copies of each face, so a card in the HTML proves nothing by
itself: a page hides the face-down cards when it shows no face more often than
the seat's view has it face up, names no face that is only face down, and writes
card codes nowhere but in ``data-card`` attributes.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.engine import Position, card_name, deal, get_rules, view
from games.models import Game
from games.play.dealing import start_game
from games.play.services import play_moves
from tests.hidden_cards import (
    card_names_in,
    face_down_cards,
    face_up_names,
    named_face_down,
    turn_frames_of,
)
from tests.stored import current_turn_of, last_turn_of

pytestmark = pytest.mark.django_db

DATA_CARD = re.compile(r'data-card="([^"]*)"')
#: A card code standing alone between quotes or tags: in an attribute, a text node, JSON.
CARD_TOKEN = re.compile(r"""(?<=["'>])([A2-9TJQK][SHDC])(?=["'<])""")
SPREAD = re.compile(r'<details class="spread">.*?</details>', re.DOTALL)


def face_up_for(position: Position, seat: int) -> Counter[str]:
    """The faces ``seat`` may see, counted by copies: what lies face up on the table,
    but of the opponent's waste only its top (the view's rule; a seat sees its own)."""
    up = face_up_names(position)
    for i, piles in enumerate(position.seats):
        if i != seat:
            up.subtract(card_name(c) for c in piles.waste[:-1])
    return up


def leaks(html: str, position: Position, seat: int) -> list[str]:
    """Every way ``html`` shows more than ``seat`` may see of ``position``; [] if none.
    The last turn's frames are left out: each shows an earlier step (``check_pages``
    holds them to theirs)."""
    html = turn_frames_of(html)[0]
    problems = []
    spread_block = "".join(SPREAD.findall(html))
    spread = DATA_CARD.findall(spread_block)
    table = Counter(DATA_CARD.findall(SPREAD.sub("", html)))
    own_waste = [card_name(c) for c in position.seats[seat].waste]
    if spread and spread != own_waste:
        problems.append(f"the spread waste shows {spread}, the waste is {own_waste}")
    up = face_up_for(position, seat)
    for face, n in sorted(table.items()):
        if n > up[face]:
            problems.append(f"{face} drawn {n} times, face up {up[face]} times")
    codes = Counter(CARD_TOKEN.findall(html))
    drawn = table + Counter(spread)
    if codes != drawn:
        problems.append(f"card codes outside data-card: {sorted((codes - drawn).elements())}")
    return problems + named_face_down(html, position, up)


def a_random_turn(position: Position, rng: random.Random) -> list[str]:
    """A turn of random legal moves, mostly useful ones (to a foundation, from the
    reserve, onto the opponent's piles) so that a game ends within a few hundred moves."""
    turns = position.turns
    moves: list[str] = []
    while position.turns == turns and not position.is_over:
        legal = [str(m) for m in position.legal_moves()]
        enders = [m for m in legal if m in ("C-W", "E", "T")]
        useful = [
            m
            for m in legal
            if "-F" in m
            or (m.startswith(("R-", "C-")) and m != "C-W")
            or m.endswith(("-OR", "-OW"))
        ]
        if useful and rng.random() < 0.8:
            move = rng.choice(useful)
        elif enders and rng.random() < 0.7:
            move = rng.choice(enders)
        else:
            move = rng.choice(legal)
        position.play(move)
        moves.append(move)
    return moves


def check_pages(
    game: Game, clients: list[Client], positions: list[Position], checked: list[set[int]]
) -> None:
    """Every page of a game under way that each player may open now, checked against
    that seat's view; each replay step once per player (its table never changes)."""
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.ply == len(positions) - 1
    first = game.ply - len(current_turn_of(game)) - len(last_turn_of(game)["moves"])
    for seat, client in enumerate(clients):
        seen: Counter[str] = Counter()
        card_names_in(view(positions[-1], seat), seen)
        assert seen == face_up_for(positions[-1], seat)  # the rule here is the view's
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/table/"):
            response = client.get(url)
            assert response.status_code == 200
            table, frames = turn_frames_of(response.text)
            assert leaks(table, positions[-1], seat) == [], url
            # The last turn played out: each frame as the seat saw the table then.
            start = game.ply - len(current_turn_of(game)) - len(last_turn_of(game)["moves"])
            for k, frame in enumerate(frames):
                assert leaks(frame, positions[start + k], seat) == [], f"{url} frame {k}"
        for step in range(first, game.ply + 1):
            if step in checked[seat]:
                continue
            checked[seat].add(step)
            html = client.get(f"/games/{game.pk}/replay/", {"step": step}).text
            assert f"Step {step} of {game.ply}" in html
            page, frames = turn_frames_of(html)
            assert leaks(page, positions[step], seat) == [], f"replay step {step}"
            # The steps after it, played out: each frame as the seat saw the table then.
            for k, frame in enumerate(frames):
                assert leaks(frame, positions[step + k], seat) == [], f"replay {step}+{k}"


def drawn(html: str) -> Counter[str]:
    return Counter(DATA_CARD.findall(html))


#: A seed whose random game ends by cards in under 300 moves, in which both a waste is
#: turned over into a hand (face-up cards going face down again) and every kind of page
#: is seen by both players.
SEED = 69


def test_no_page_shows_a_face_down_card(alice: User, bob: User) -> None:
    game = start_game(alice, bob, seed=SEED)
    players = [alice, bob]
    clients = [Client(), Client()]
    for player, client in zip(players, clients, strict=True):
        client.force_login(player)
    rng = random.Random(SEED)
    position = deal(SEED, get_rules("pagat"))
    positions = [position.copy()]
    checked: list[set[int]] = [set(), set()]
    refills = 0
    check_pages(game, clients, positions, checked)
    while not position.is_over:
        seat = position.to_move
        hands = [len(piles.hand) for piles in position.seats]
        turn = a_random_turn(position.copy(), rng)
        cut = rng.randint(1, len(turn))
        # The first part as the page's script posts it, the rest through the service.
        response = clients[seat].post(
            f"/games/{game.pk}/play/",
            {"moves": " ".join(turn[:cut]), "version": str(game.version)},
            headers={"X-Requested-With": "fetch"},
        )
        assert response.status_code == 200 and "X-Refused" not in response, response.text
        for move in turn[:cut]:
            position.play(move)
            positions.append(position.copy())
        assert leaks(turn_frames_of(response.text)[0], position, seat) == []
        if not position.is_over:
            check_pages(game, clients, positions, checked)
        if turn[cut:]:
            play_moves(game_id=game.pk, user=players[seat], moves=turn[cut:])
            for move in turn[cut:]:
                position.play(move)
                positions.append(position.copy())
            if not position.is_over:
                check_pages(game, clients, positions, checked)
        refills += sum(len(p.hand) > n for p, n in zip(position.seats, hands, strict=True))
    assert refills, "the game should turn a waste over into a hand at least once"
    # Every step up to the last turn was replayed by both players while the game was on.
    assert all(set(range(len(positions) - len(turn))) <= steps for steps in checked)

    # Over: the table still shows what each seat sees; the replay reveals everything.
    game.refresh_from_db()
    assert game.status == Game.Status.WON and game.ply == len(positions) - 1
    for seat, client in enumerate(clients):
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/table/"):
            assert leaks(turn_frames_of(client.get(url).text)[0], position, seat) == [], url
        for step in (0, len(positions) // 2):
            html = client.get(f"/games/{game.pk}/replay/", {"step": step}).text
            # Every card but those under a foundation's top (a foundation shows its top).
            under = [c for pile in positions[step].foundations for c in pile[:-1]]
            every_card = Counter(card_name(c) for c in positions[step].cards())
            every_card.subtract(card_name(c) for c in under)
            assert len(face_down_cards(positions[step])) > 20
            assert not every_card - drawn(html), "a finished game's replay shows every card"
            found = leaks(html, positions[step], seat)  # so the check above can fail
            assert any("face up" in problem for problem in found), found
            assert any("face down only" in problem for problem in found), found
