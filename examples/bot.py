"""A Russian Bank bot: it follows its account's event stream and plays its games with
the API. Standard library only; docs/bots.md explains each part.

    python examples/bot.py --server http://127.0.0.1:8000 --token rb_...
    python examples/bot.py ... --accept       # also take up every challenge it gets
    python examples/bot.py ... --games 1      # stop once a game has ended

Change ``choose`` to play better: it gets the game as the API shows it to this seat
(``legal_moves`` among it) and returns one move.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

log = logging.getLogger("bot")


class Api:
    """The few calls a bot needs, with its token."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.server + path, data=data, method=method, headers=self.headers
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:  # a refusal: its JSON says why
            return error.code, json.load(error)

    def events(self, last_id: str) -> Any:
        """The account's event stream, one JSON object per line, from after ``last_id``."""
        headers = {**self.headers, "Accept": "application/x-ndjson"}
        if last_id:
            headers["Last-Event-ID"] = last_id
        request = urllib.request.Request(self.server + "/api/v1/stream/events/", headers=headers)
        return urllib.request.urlopen(request, timeout=60)  # a heartbeat comes every 20 s


def choose(game: dict[str, Any], played: list[str]) -> str:
    """One of ``game["legal_moves"]``: to a foundation first, then from the reserve, then
    anything but a move that undoes the last one; turn a card or discard last."""

    def score(move: str) -> int:
        source, _, target = move.partition("-")
        if target.startswith("F"):
            return 4
        if source == "R":
            return 3
        if move in ("T", "TR"):
            return 1
        if move in ("C-W", "E"):
            return 0
        undoes = played and played[-1] == f"{target}-{source}"
        return -1 if undoes or len(played) > 40 else 2

    moves: list[str] = game["legal_moves"]
    best = max(score(move) for move in moves)
    return random.choice([move for move in moves if score(move) == best])


def play(api: Api, game_id: int) -> None:
    """Play this seat's turn in the game, a move at a time, until it passes."""
    status, game = api.call("GET", f"/api/v1/games/{game_id}/")
    played: list[str] = []
    while status == 200 and game["status"] == "playing" and game["your_turn"]:
        move = choose(game, played)
        body = {"moves": [move], "expected_version": game["version"]}
        status, answer = api.call("POST", f"/api/v1/games/{game_id}/moves/", body)
        if status == 200:
            game, played = answer, [*played, move]
        else:  # the game moved on meanwhile, or the move was refused: look again
            log.warning("game %s: %s refused: %s", game_id, move, answer.get("message"))
            status, game = api.call("GET", f"/api/v1/games/{game_id}/")
    log.info("game %s: played %s", game_id, " ".join(played) or "nothing")


def accept_challenge(api: Api, challenge_id: int) -> None:
    """Take a challenge up with our own random share of the deal (docs/fair-deal.md):
    with it, neither the server nor the challenger can choose the deal."""
    body = {"contribution": secrets.token_hex(16)}
    api.call("POST", f"/api/v1/challenges/{challenge_id}/accept/", body)


def catch_up(api: Api, *, accept: bool) -> None:
    """What came before the stream was open: the challenges naming this player, and
    the games waiting for it."""
    if accept:
        _, me = api.call("GET", "/api/v1/me/")
        _, page = api.call("GET", "/api/v1/challenges/")
        for challenge in page.get("results", []):
            if challenge["status"] == "pending" and me["username"] in (
                challenge["opponent"],
                challenge["second_opponent"],
            ):
                accept_challenge(api, challenge["id"])
    status, page = api.call("GET", "/api/v1/games/?filter=my_turn")
    for game in page.get("results", []) if status == 200 else []:
        play(api, game["id"])


def run(api: Api, *, accept: bool, games: int | None) -> None:
    last_id, ended, pause = "", 0, 1.0
    while games is None or ended < games:
        try:
            with api.events(last_id) as stream:
                pause = 1.0
                if not last_id:
                    catch_up(api, accept=accept)  # the stream is open: nothing is missed
                for line in stream:
                    if not line.strip():
                        continue  # a heartbeat
                    event = json.loads(line)
                    last_id = str(event["id"])
                    if event["kind"] == "your_turn":
                        play(api, event["game"])
                    elif event["kind"] == "challenge" and accept:
                        accept_challenge(api, event["challenge"])
                    elif event["kind"] == "game_over":
                        ended += 1
                        log.info("game %s over: %s", event["game"], event["score"])
                        if games is not None and ended >= games:
                            return
        except urllib.error.HTTPError as error:
            if error.code == 401:  # the token was revoked, or the account deleted
                refusal = json.load(error)["message"]
                raise SystemExit(f"the server refuses the token: {refusal}") from None
            log.warning("stream refused (%s); again in %.0f s", error, pause)
            time.sleep(pause)
            pause = min(pause * 2, 60)
        except (OSError, ValueError) as error:  # the server restarted, the network blinked
            log.warning("stream lost (%s); again in %.0f s", error, pause)
            time.sleep(pause)
            pause = min(pause * 2, 60)  # what it missed meanwhile comes first (Last-Event-ID)


def main() -> None:
    parser = argparse.ArgumentParser(description="A Russian Bank bot.")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="an API token of the bot's account")
    parser.add_argument("--accept", action="store_true", help="accept every challenge")
    parser.add_argument("--games", type=int, help="stop after this many games have ended")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    run(Api(args.server, args.token), accept=args.accept, games=args.games)


if __name__ == "__main__":
    main()
