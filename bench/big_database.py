"""What a player's requests cost with 1,000,000 finished and 100,000 active games in
PostgreSQL, against the same requests with 1,000 games: the ratio big / small.

    python bench/big_database.py [--rounds 30] [--reseed] [--explain]

Two databases on the local server (``BENCH_PG``, default
``postgres://postgres@127.0.0.1:5432``), migrated: ``rbank_big_1k`` (900 finished and
100 active games, 150 players) and ``rbank_big_1m`` (1,000,000 finished and 100,000
active, 60,000 players). Both are filled by the same recipe, scaled: rows as the
models store them, bulk-loaded with COPY, their indexes built after the load. A
seeded database is kept (a table ``bench_seed`` says what it holds) and used again
by the next run; ``--reseed`` drops and fills both again. Every run migrates them
first, so a new migration's indexes are built on the big one as a deployment would.

The rows: a few hundred games played with the engine by uniformly random legal moves
(finished ones played to their end, or resigned or timed out on the way; active ones
stopped at a random move), stored by the real ``games.play.store.keep`` (the record
of a finished game, the snapshot of an active one), then copied with other ids,
players and dates. Each game has its two seats, the accepted challenge that made it
(with its seat), and the "your turn" e-mail of an active game, sent; each player
their profile and their standard rating with its record (wins, losses, draws) from
their rated games. The players of a game are drawn with a skew (a few play
thousands of games, most a few dozen); 2% of the games are against the computer.
Twenty open challenges wait in either database. Finished games keep no events (the
retention deletes them after a week).

Two players have the same games in both databases: ``heavy`` (400 finished, 20
active) and ``regular`` (45 finished, 5 active). Timed in one process, alternating
the databases request by request, after untimed ones (Django's test client, no
network; the suite's settings, in-memory cache, a cache key prefix per database):

- **move**: a move POSTed to ``/api/v1/games/{id}/moves/`` (token auth, row lock,
  engine, save) in a new game between ``heavy`` and ``regular``, the moves of a long
  random game (turn ends, which write the next deadline and e-mail, included);
- **lobby**: ``/`` for ``regular``;
- **player page**: ``/players/<the player who signed up last>/`` (a name far into
  the table of players: ``player149`` and ``player59999``);
- **leaderboard**: ``/leaderboard/``;
- **public games**: ``/watch/``, the list of public games being played;
- **sweep**: ``games.sweep.sweep()`` with 10 games due in either database (dealt
  between ``regular`` and another player before each sweep, untimed);
- **floor**: a session GET of a view that reads one row: it should cost the same in
  both, and shows how steady the machine was.

Prints each one's median in both and the ratio big / small, with its queries; the last
line is ``1M games vs 1k: move X×, lobby Y×, leaderboard Z×, sweep W×`` after
``player page P×, public games G×``. ``--explain`` prints, for every query of every
request in the big database, ``EXPLAIN ANALYZE``'s time and its plan's first lines,
slowest first. What the run adds (its games, their e-mails) is deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/big_database.py
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
SMALL, BIG = "rbank_big_1k", "rbank_big_1m"
if __name__ == "__main__":  # imported by a test, it leaves the test's settings alone
    os.environ["DATABASE_URL"] = f"{SERVER}/{SMALL}"
    os.environ["DB_POOL"] = "0"  # one connection per database, swapped by hand
from bench.harness import start_django  # noqa: E402

start_django()

import psycopg  # noqa: E402
from django.contrib.auth.decorators import login_required  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.serializers.json import DjangoJSONEncoder  # noqa: E402
from django.db import connection, connections, models  # noqa: E402
from django.db.backends.base.base import BaseDatabaseWrapper  # noqa: E402
from django.db.utils import load_backend  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import include, path  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from accounts.models import ApiToken, Profile  # noqa: E402
from bench.harness import long_random_game, median_ms  # noqa: E402
from games.engine import Game as EngineGame  # noqa: E402
from games.engine import seed_commitment  # noqa: E402
from games.models import (  # noqa: E402
    Challenge,
    ChallengeSeat,
    Game,
    Notification,
    Rating,
    Seat,
)
from games.play.dealing import start_game  # noqa: E402
from games.play.store import keep, new_engine_game  # noqa: E402
from games.sweep import sweep  # noqa: E402


@dataclass(frozen=True)
class Size:
    database: str
    finished: int
    active: int
    players: int


SIZES = {
    # Enough players for a full leaderboard (100 rows) in the small one too.
    "1k": Size(SMALL, finished=900, active=100, players=150),
    "1m": Size(BIG, finished=1_000_000, active=100_000, players=60_000),
}
#: The two players whose games are the same in both databases: (finished, active).
PROBES = {"heavy": (400, 20), "regular": (45, 5)}
TEMPLATES = 300  # finished and active games played with the engine, each
OPEN_CHALLENGES = 20
DUE = 10
WARM_UP = 5
BOT_SHARE = 0.02
#: Bump when the recipe changes: a database seeded by another recipe is seeded again.
RECIPE = 1


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    """One row read for the signed-in player: the least any page does."""
    assert request.user.pk is not None
    user = User.objects.get(pk=request.user.pk)
    return HttpResponse(f"<p>{user.get_username()}</p>")


urlpatterns = [path("floor/", floor), path("", include("config.urls"))]


# ---------------------------------------------------------------- the two databases

_WRAPPERS: dict[str, BaseDatabaseWrapper] = {}


def use(database: str) -> None:
    """Point the default connection (and the cache's keys) at ``database``."""
    if database not in _WRAPPERS:
        settings_dict = {**connections.settings["default"], "NAME": database}
        backend = load_backend(settings_dict["ENGINE"])
        _WRAPPERS[database] = backend.DatabaseWrapper(settings_dict, alias="default")
    connections["default"] = _WRAPPERS[database]
    caches["default"].key_prefix = database


def admin(sql: str) -> None:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)  # a statement of our own


def seeded(size: Size) -> float | None:
    """The seeding time of ``size``'s database if it holds this recipe, else None."""
    try:
        with psycopg.connect(f"{SERVER}/{size.database}") as conn:
            row = conn.execute(
                "SELECT seconds FROM bench_seed WHERE recipe = %s AND finished = %s "
                "AND active = %s AND players = %s",
                (RECIPE, size.finished, size.active, size.players),
            ).fetchone()
    except psycopg.Error:
        return None
    return None if row is None else float(row[0])


# ---------------------------------------------------------------- rows as COPY text


def copy_text(value: Any, model_field: models.Field[Any, Any]) -> str:
    """``value`` of ``model_field`` as a field of COPY's text format."""
    if value is None:
        return "\\N"
    if isinstance(model_field, models.JSONField):
        text = json.dumps(value, cls=model_field.encoder or DjangoJSONEncoder)
    elif isinstance(value, bytes | memoryview):
        return "\\\\x" + bytes(value).hex()
    elif isinstance(value, bool):
        return "t" if value else "f"
    elif isinstance(value, datetime):
        text = value.isoformat()
    elif isinstance(value, timedelta):
        text = f"{value.total_seconds()} seconds"
    else:
        text = str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class Table:
    """A model's table filled by COPY: a template row per instance, and rows made from it
    with some columns changed."""

    def __init__(self, model: type[models.Model]) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.name = model._meta.db_table
        self.at = {f.attname: i for i, f in enumerate(self.fields)}
        self.lines: list[str] = []
        self.count = 0

    def template(self, instance: models.Model) -> list[str]:
        return [copy_text(getattr(instance, f.attname), f) for f in self.fields]

    def add(self, template: list[str], **changes: Any) -> None:
        row = list(template)
        for name, value in changes.items():
            index = self.at[name]
            row[index] = copy_text(value, self.fields[index])
        self.lines.append("\t".join(row))

    def flush(self, cursor: psycopg.Cursor[Any], force: bool = False) -> None:
        if not self.lines or (len(self.lines) < 20_000 and not force):
            return
        columns = ", ".join(f'"{f.column}"' for f in self.fields)
        with cursor.copy(f'COPY "{self.name}" ({columns}) FROM STDIN') as copy:
            copy.write("\n".join(self.lines) + "\n")
        self.count += len(self.lines)
        self.lines = []


# ---------------------------------------------------------------- the recipe


@dataclass
class Template:
    game: list[str]
    seats: list[list[str]]
    winner: int | None  # the seat that won, None for none
    forfeiter: int | None


def play_template(number: int, finished: bool) -> tuple[Game, list[Seat]]:
    """A game dealt and played by random legal moves, stored by ``keep``: a finished one
    to its end, or resigned or timed out on the way; an active one stopped at a random
    move."""
    rng = random.Random(number)
    seed = 1_000_000 + number
    game = Game(seed=str(seed), seed_hash=seed_commitment(seed), rated=True)
    engine: EngineGame = new_engine_game(game, None)
    game.starter = engine.first_seat
    seats = [Seat(letter=letter) for letter in engine.rules.seat_names]
    game.__dict__["_seat_rows"] = seats
    stop = rng.randrange(20, 2_500) if finished else rng.randrange(0, 600)
    while not engine.is_over and engine.entry_count < stop:
        seat = engine.to_move
        engine.play(seat, [rng.choice(engine.legal_moves(seat))])
    if finished and not engine.is_over:
        if rng.random() < 0.6:
            engine.resign(rng.randrange(2))
        else:
            engine.timeout(engine.to_move)
    keep(game, engine)
    return game, seats


class Seeder:
    """Fills a migrated database with ``size``'s games."""

    def __init__(self, size: Size, templates: tuple[list[Template], list[Template]]) -> None:
        self.size = size
        self.finished_templates, self.active_templates = templates
        self.rng = random.Random(size.players)
        self.now = timezone.now()
        self.tables = {
            model: Table(model)
            for model in (User, Profile, Game, Seat, Challenge, ChallengeSeat, Rating, Notification)
        }
        self.results: dict[int, Counter[str]] = {}

    def run(self) -> None:
        with connection.cursor() as wrapped:
            cursor: psycopg.Cursor[Any] = wrapped.cursor
            cursor.execute("SET session_replication_role = replica")  # no FK triggers
            kept = self.drop_indexes(cursor)
            self.fill(cursor)
            for table in self.tables.values():
                table.flush(cursor, force=True)
            cursor.execute("SET session_replication_role = DEFAULT")
            for statement in kept:
                cursor.execute(statement)
            for table in self.tables.values():
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                    f'(SELECT max(id) FROM "{table.name}"))'
                )
        for table in self.tables.values():
            with connection.cursor() as vacuum:
                vacuum.execute(f'VACUUM ANALYZE "{table.name}"')

    def drop_indexes(self, cursor: psycopg.Cursor[Any]) -> list[str]:
        """Drops the tables' unique constraints and indexes but their primary keys;
        returns the statements that make them again."""
        again = []
        for table in self.tables.values():
            for name, definition in cursor.execute(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype = 'u'",
                (table.name,),
            ).fetchall():
                cursor.execute(f'ALTER TABLE "{table.name}" DROP CONSTRAINT "{name}"')
                again.append(f'ALTER TABLE "{table.name}" ADD CONSTRAINT "{name}" {definition}')
            for name, definition in cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND "
                "indexname NOT IN (SELECT conname FROM pg_constraint)",
                (table.name,),
            ).fetchall():
                cursor.execute(f'DROP INDEX "{name}"')
                again.append(definition)
        return again

    def player_pick(self) -> int:
        """A crowd player's number: a few play thousands of games, most a few dozen."""
        return int(self.size.players * self.rng.random() ** 2)

    def fill(self, cursor: psycopg.Cursor[Any]) -> None:
        users, profiles = self.tables[User], self.tables[Profile]
        with connection.cursor() as c:
            c.execute("SELECT max(id) FROM auth_user")
            first_user = (c.fetchone() or [0])[0] + 1
        computers = Profile.objects.exclude(bot_level="").order_by("user_id")
        bots = list(computers.values_list("user_id", flat=True))
        user_template = users.template(User(password="!", is_active=True))
        profile_template = profiles.template(Profile(user_id=0))
        crowd = [first_user + 2 + n for n in range(self.size.players)]
        probes = {"heavy": first_user, "regular": first_user + 1}
        names = [*probes, *(f"player{n}" for n in range(self.size.players))]
        for n, name in enumerate(names):
            joined = self.now - timedelta(days=1_200 - n % 1_000)
            users.add(
                user_template,
                id=first_user + n,
                username=name,
                email=f"{name}@example.com",
                date_joined=joined,
            )
            profiles.add(profile_template, id=n + 1_000, user_id=first_user + n)
            users.flush(cursor)
            profiles.flush(cursor)

        # Every game: (finished?, seat A's user, seat B's user).
        pairs: list[tuple[bool, int, int]] = []
        for probe, (done, playing) in PROBES.items():
            for n in range(done + playing):
                pairs.append((n < done, probes[probe], crowd[self.player_pick()]))
        finished = self.size.finished - sum(done for done, _ in PROBES.values())
        active = self.size.active - sum(playing for _, playing in PROBES.values())
        for n in range(finished + active):
            a = crowd[self.player_pick()]
            # The computer plays within seconds: its games here are finished ones.
            if n < finished and self.rng.random() < BOT_SHARE:
                b = bots[n % len(bots)]
            else:
                b = a
                while b == a:
                    b = crowd[self.player_pick()]
            pairs.append((n < finished, a, b))
        self.rng.shuffle(pairs)
        for game_id, (done, a, b) in enumerate(pairs, start=1):
            self.add_game(cursor, game_id, done, (a, b), bots)
        self.add_ratings(cursor, bots)
        self.add_open_challenges(cursor, crowd)

    def add_game(
        self,
        cursor: psycopg.Cursor[Any],
        game_id: int,
        done: bool,
        users: tuple[int, int],
        bots: list[int],
    ) -> None:
        rng = self.rng
        pool = self.finished_templates if done else self.active_templates
        template = pool[game_id % len(pool)]
        if done:
            finished_at = self.now - timedelta(seconds=rng.randrange(8 * 86400, 3 * 365 * 86400))
            created_at = finished_at - timedelta(seconds=rng.randrange(86400, 60 * 86400))
            dates = {"created_at": created_at, "updated_at": finished_at}
            dates["finished_at"] = finished_at
        else:
            # Deadlines and reminders ahead: the sweep finds only the games it is given.
            started = self.now - timedelta(seconds=rng.randrange(600, 36 * 3600))
            deadline = started + timedelta(days=3)
            dates = {
                "created_at": started - timedelta(days=rng.randrange(0, 60)),
                "updated_at": started,
                "turn_started_at": started,
                "deadline": deadline,
                "reminder_at": deadline - timedelta(hours=24),
            }
        public = rng.random() < 0.9
        self.tables[Game].add(template.game, id=game_id, public=public, **dates)
        for index, seat in enumerate(template.seats):
            self.tables[Seat].add(
                seat, id=2 * game_id + index, game_id=game_id, user_id=users[index]
            )
        challenge = self.challenge_template
        self.tables[Challenge].add(
            challenge,
            id=game_id,
            challenger_id=users[0],
            token=f"bench-{game_id}",
            game_id=game_id,
            public=public,
            created_at=dates["created_at"],
            answered_at=dates["created_at"],
        )
        self.tables[ChallengeSeat].add(
            self.challenge_seat_template, id=game_id, challenge_id=game_id, user_id=users[1]
        )
        if not done:
            mover = users["AB".index(template_to_move(template))]
            self.tables[Notification].add(
                self.notification_template,
                id=game_id,
                user_id=mover,
                email=f"{mover}@example.com",
                game_id=game_id,
                created_at=dates["updated_at"],
                sent_at=dates["updated_at"],
                next_attempt_at=None,
            )
        elif users[1] not in bots:
            for place, user in enumerate(users):
                result = Counter[str]()
                if template.winner is not None or template.forfeiter is not None:
                    won = template.winner == place or (
                        template.forfeiter is not None and template.forfeiter != place
                    )
                    result["wins" if won else "losses"] += 1
                else:
                    result["draws"] += 1
                self.results.setdefault(user, Counter()).update(result)
        for table in self.tables.values():
            table.flush(cursor)

    @property
    def challenge_template(self) -> list[str]:
        if not hasattr(self, "_challenge"):
            self._challenge = self.tables[Challenge].template(
                Challenge(
                    challenger_id=0, status=Challenge.Status.ACCEPTED, rating_family="standard"
                )
            )
            self._challenge_seat = self.tables[ChallengeSeat].template(
                ChallengeSeat(challenge_id=0, user_id=0, invited=True, letter="B")
            )
            self._notification = self.tables[Notification].template(
                Notification(kind="your_turn", status=Notification.Status.SENT, context={"ply": 0})
            )
        return self._challenge

    @property
    def challenge_seat_template(self) -> list[str]:
        return self._challenge_seat

    @property
    def notification_template(self) -> list[str]:
        return self._notification

    def add_ratings(self, cursor: psycopg.Cursor[Any], bots: list[int]) -> None:
        table = self.tables[Rating]
        template = table.template(Rating(user_id=0, family="standard"))
        for number, (user, results) in enumerate(sorted(self.results.items()), start=1):
            games = sum(results.values())
            rating = 1500 + 400 * (results["wins"] - results["losses"]) / (games + 4)
            table.add(
                template,
                id=number,
                user_id=user,
                rating=round(rating + self.rng.gauss(0, 60), 3),
                deviation=round(max(45.0, 350 / (1 + games / 4) ** 0.5), 3),
                games=games,
                wins=results["wins"],
                losses=results["losses"],
                draws=results["draws"],
                rated_at=self.now - timedelta(days=self.rng.randrange(8, 400)),
            )
            table.flush(cursor)

    def add_open_challenges(self, cursor: psycopg.Cursor[Any], crowd: list[int]) -> None:
        table = self.tables[Challenge]
        template = table.template(
            Challenge(challenger_id=0, is_open=True, rating_family="standard")
        )
        first = self.size.finished + self.size.active + 1
        for n in range(OPEN_CHALLENGES):
            table.add(
                template,
                id=first + n,
                challenger_id=crowd[self.player_pick()],
                token=f"bench-open-{n}",
                created_at=self.now - timedelta(hours=n),
            )


_TO_MOVE = Table(Game).at["to_move"]


def template_to_move(template: Template) -> str:
    return template.game[_TO_MOVE]


def make_templates() -> tuple[list[Template], list[Template]]:
    games, seats = Table(Game), Table(Seat)
    kinds: list[list[Template]] = [[], []]
    for finished, pool in ((True, kinds[0]), (False, kinds[1])):
        for number in range(TEMPLATES):
            game, rows = play_template(number + (0 if finished else TEMPLATES), finished)
            letters = "AB"
            pool.append(
                Template(
                    game=games.template(game),
                    seats=[seats.template(row) for row in rows],
                    winner=letters.index(game.winner) if game.winner else None,
                    forfeiter=letters.index(game.forfeiter) if game.forfeiter else None,
                )
            )
    return kinds[0], kinds[1]


def seed(size: Size, templates: tuple[list[Template], list[Template]]) -> float:
    t0 = time.perf_counter()
    if size.database in _WRAPPERS:
        _WRAPPERS[size.database].close()
    admin(f'DROP DATABASE IF EXISTS "{size.database}" WITH (FORCE)')
    admin(f'CREATE DATABASE "{size.database}"')
    use(size.database)
    call_command("migrate", verbosity=0)
    Seeder(size, templates).run()
    seconds = time.perf_counter() - t0
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_seed (recipe int, finished int, active int, players int, "
            "seconds float)"
        )
        cursor.execute(
            "INSERT INTO bench_seed VALUES (%s, %s, %s, %s, %s)",
            [RECIPE, size.finished, size.active, size.players, seconds],
        )
    return seconds


# ---------------------------------------------------------------- the requests


@dataclass
class Setup:
    """What the timed requests of one database need."""

    database: str
    heavy: User
    regular: User
    browser: Client
    api: dict[str, APIClient]
    game: Game
    moves: list[str]
    last_seeded_game: int
    newest: str
    counts: dict[str, int] = field(default_factory=dict)


def prepare(size: Size, seed_number: int, moves: list[str]) -> Setup:
    database = size.database
    use(database)
    heavy = User.objects.get(username="heavy")
    regular = User.objects.get(username="regular")
    last = Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    browser = Client()
    browser.force_login(regular)
    api = {}
    for seat, user in (("A", heavy), ("B", regular)):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user, 'bench')[1]}")
        api[seat] = client
    game = start_game(heavy, regular, seed=seed_number)
    newest = f"player{size.players - 1}"
    return Setup(database, heavy, regular, browser, api, game, moves, last, newest)


def requests(setup: Setup) -> dict[str, Callable[[], None]]:
    def get(url: str) -> Callable[[], None]:
        def request() -> None:
            response: Any = setup.browser.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return request

    def move() -> None:
        game = setup.game
        game.refresh_from_db()
        response: Any = setup.api[game.to_move].post(
            f"/api/v1/games/{game.pk}/moves/", {"moves": [setup.moves[game.ply]]}, format="json"
        )
        assert response.status_code == 200, response.content

    return {
        "floor": get("/floor/"),
        "move": move,
        "lobby": get("/"),
        "player page": get(f"/players/{setup.newest}/"),
        "leaderboard": get("/leaderboard/"),
        "public games": get("/watch/"),
        "sweep": lambda: due_sweep(setup),
    }


def make_due(setup: Setup) -> None:
    """``DUE`` games whose deadline has passed (untimed, before a sweep)."""
    crowd = User.objects.filter(username__startswith="player").order_by("pk")[:DUE]
    past = timezone.now() - timedelta(minutes=1)
    for other in crowd:
        game = start_game(setup.regular, other)
        Game.objects.filter(pk=game.pk).update(deadline=past)


def due_sweep(setup: Setup) -> None:
    result = sweep()
    assert result["timed_out"] == DUE, result


def clean(setup: Setup) -> None:
    """Deletes what the run added."""
    use(setup.database)
    Game.objects.filter(pk__gt=setup.last_seeded_game).delete()
    ApiToken.objects.filter(name="bench").delete()


def time_all(setups: list[Setup], rounds: int) -> dict[str, dict[str, list[float]]]:
    """Every request ``rounds`` times in each database, alternating."""
    calls = {setup.database: requests(setup) for setup in setups}
    times: dict[str, dict[str, list[float]]] = {s.database: {} for s in setups}
    for label in calls[setups[0].database]:
        for i in range(WARM_UP + rounds):
            for setup in setups:
                use(setup.database)
                if label == "sweep":
                    make_due(setup)
                t0 = time.perf_counter()
                calls[setup.database][label]()
                seconds = time.perf_counter() - t0
                if i >= WARM_UP:
                    times[setup.database].setdefault(label, []).append(seconds)
        for setup in setups:
            use(setup.database)
            if label == "sweep":
                make_due(setup)
            with CaptureQueriesContext(connection) as captured:
                calls[setup.database][label]()
            setup.counts[label] = len(captured.captured_queries)
    return times


def explain(setup: Setup) -> None:
    """Every query of every request in ``setup``'s database under EXPLAIN ANALYZE,
    slowest first."""
    use(setup.database)
    for label, call in requests(setup).items():
        if label == "sweep":
            make_due(setup)
        with CaptureQueriesContext(connection) as captured:
            call()
        plans = []
        for query in captured.captured_queries:
            sql = query["sql"]
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
                lines = [row[0] for row in cursor.fetchall()]
            total = float(lines[-1].split()[2]) if lines[-1].startswith("Execution") else 0.0
            plans.append((total, sql, lines))
        print(f"\n=== {label}: {len(captured.captured_queries)} queries")
        for total, sql, lines in sorted(plans, key=lambda p: -p[0])[:6]:
            print(f"--- {total:.3f} ms  {sql[:300]}")
            for line in lines[:14]:
                print("    " + line)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30, help="requests timed per figure")
    parser.add_argument("--reseed", action="store_true", help="drop and fill both again")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE the big one")
    parser.add_argument(
        "--finished", type=int, default=SIZES["1m"].finished, help="the big one's finished games"
    )
    args = parser.parse_args()
    if args.finished != SIZES["1m"].finished:  # a trial at another size
        players = max(100, args.finished * 3 // 50)
        SIZES["1m"] = Size(BIG, args.finished, args.finished // 10, players)
    templates: tuple[list[Template], list[Template]] | None = None
    seconds = {}
    for key, size in SIZES.items():
        known = None if args.reseed else seeded(size)
        if known is None:
            if templates is None:
                t0 = time.perf_counter()
                templates = make_templates()
                seconds_played = time.perf_counter() - t0
                print(f"templates       {2 * TEMPLATES} games played in {seconds_played:.1f} s")
            known = seed(size, templates)
            print(f"seeded {key:<8} {size.database} in {known:.0f} s", flush=True)
        else:
            use(size.database)
            t0 = time.perf_counter()
            call_command("migrate", verbosity=0)
            print(
                f"kept {key:<10} {size.database} (seeded in {known:.0f} s), migrated in "
                f"{time.perf_counter() - t0:.1f} s",
                flush=True,
            )
        seconds[key] = known
    number, moves = long_random_game(WARM_UP + 2 * args.rounds + 50)
    with override_settings(ROOT_URLCONF=__name__, DEBUG=False):
        setups = [prepare(size, number, moves) for size in SIZES.values()]
        try:
            if args.explain:
                explain(setups[1])
            times = time_all(setups, args.rounds)
        finally:
            for setup in setups:
                clean(setup)
    small, big = (times[s.database] for s in setups)
    print(f"databases       {', '.join(f'{s.database} ({k})' for k, s in SIZES.items())}")
    print(
        f"requests        {args.rounds} per figure and database after {WARM_UP} untimed, "
        "alternating; medians"
    )
    ratios = {}
    for label in small:
        ratio = statistics.median(big[label]) / statistics.median(small[label])
        ratios[label] = ratio
        print(
            f"{label:<14} 1k {median_ms(small[label]):8.2f} ms "
            f"({setups[0].counts[label]:>3} queries)   "
            f"1M {median_ms(big[label]):8.2f} ms ({setups[1].counts[label]:>3} queries)   "
            f"ratio {ratio:5.2f}"
        )
    print(f"player page {ratios['player page']:.2f}×, public games {ratios['public games']:.2f}×")
    print(
        f"1M games vs 1k: move {ratios['move']:.2f}×, lobby {ratios['lobby']:.2f}×, "
        f"leaderboard {ratios['leaderboard']:.2f}×, sweep {ratios['sweep']:.2f}×"
    )


if __name__ == "__main__":
    main()
