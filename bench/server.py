"""The image's web server under many clients at once: latency, errors, connections.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/server.py
    python bench/server.py --clients 8 --seconds 10 --workers 3      # SQLite
    python bench/server.py --env DB_POOL=0 --env DB_CONN_MAX_AGE=60    # the old setting
    python bench/server.py --sync                                      # sync WSGI workers

Starts the image's own command (``gunicorn --config python:config.gunicorn_conf
config.asgi:application``) with ``--workers`` workers on a fresh test database,
then ``--clients`` clients each play a game of their own over keep-alive HTTP
connections for ``--seconds``: the floor request (``GET /api/v1/me/``: token, one
profile read, a small body), the game (``GET /api/v1/games/{id}/``), a move (``POST
.../moves/``), again and again (``bench/load.py``). Every request is timed by its client
from send to the whole answer read. Prints the requests made, the 5xx and broken
connections, the median, 99th percentile and maximum of each kind and its median as a
ratio to the floor's, and the most connections PostgreSQL held to the database
(``pg_stat_activity``, sampled every 0.1 s) during the load and after it.
The clients and the server share the machine's cores: compare ratios, not times.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/server.py
from bench.harness import start_django

start_django()

from django.db import connection  # noqa: E402

from bench.harness import database, test_database  # noqa: E402
from bench.load import drive, image_server, make_players  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=3, help="WEB_CONCURRENCY")
    parser.add_argument(
        "--sync", action="store_true", help="sync WSGI workers (gthread), no event streams"
    )
    parser.add_argument(
        "--env", action="append", default=[], help="KEY=VALUE for the server (repeatable)"
    )
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    env["WEB_CONCURRENCY"] = str(args.workers)
    extra = ("--worker-class", "gthread", "--threads", "8") if args.sync else ()
    with test_database(), tempfile.TemporaryDirectory() as var:
        players = make_players(args.clients)
        name = str(connection.settings_dict["NAME"])
        with image_server(name, *extra, RBANK_VAR_DIR=var, **env) as server:
            figures = drive(server, players, args.seconds, name)
    server_kind = "sync (gthread, WSGI)" if args.sync else "image's (uvicorn workers, ASGI)"
    print(f"database        {database()}")
    print(f"server          {server_kind}, {args.workers} workers; {' '.join(args.env)}")
    print(
        f"load            {args.clients} clients for {figures.seconds:.1f} s: "
        f"{figures.requests} requests, {figures.requests / figures.seconds:.0f}/s"
    )
    print(f"5xx             {figures.server_errors}   broken: {len(figures.failures)}")
    for failure in figures.failures[:5]:
        print(f"                {failure}")
    floor = figures.median_ms("floor")
    for kind in ("floor", "game", "move"):
        if kind in figures.times:
            print(
                f"{kind:<15} median {figures.median_ms(kind):7.1f} ms   "
                f"p99 {figures.percentile_ms(kind, 0.99):7.1f} ms   "
                f"max {max(figures.times[kind]) * 1e3:7.1f} ms   "
                f"ratio {figures.median_ms(kind) / floor:4.2f}   (n={len(figures.times[kind])})"
            )
    if figures.connections:
        print(
            f"connections     at most {max(figures.connections)} during the load, "
            f"{figures.connections[-1]} after it"
        )


if __name__ == "__main__":
    main()
