"""The open game database's months (docs/open-database.md): every public game that
ended in a closed month, in the notation, in one gzip file written once; the same games
give the same bytes; the page lists the months and serves their files."""

from __future__ import annotations

import gzip
import hashlib
import io
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.celery import app
from games.archive import months
from games.engine import seed_commitment
from games.models import DatabaseMonth
from games.play.dealing import start_game
from games.tasks import write_database_months

from .archive import finished
from .conftest import browser, wait_until
from .test_worker import worker

__all__ = ["worker"]

pytestmark = pytest.mark.django_db

OCTOBER = date(2026, 10, 1)
#: A moment after October is closed, before November is.
LATER = datetime(2026, 11, 2, tzinfo=UTC)


@pytest.fixture(autouse=True)
def folder(settings: Any, tmp_path: Path) -> Iterator[Path]:
    settings.OPEN_DATABASE_DIR = tmp_path / "database"
    yield settings.OPEN_DATABASE_DIR


def october(day: int, hour: int = 12) -> datetime:
    return datetime(2026, 10, day, hour, tzinfo=UTC)


def games_in(row: DatabaseMonth) -> list[str]:
    """The games of a month's file, each as the notation writes it."""
    text = gzip.decompress(months.file_path(row).read_bytes()).decode()
    return [] if not text else re.split(r"\n(?=\[Game )", text)


def tags(game_text: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', game_text, re.MULTILINE))


def test_a_month_holds_its_public_finished_games_in_the_order_they_ended(
    alice: User, bob: User, charlie: User
) -> None:
    late = finished(alice, bob, october(20), seed=1)
    early = finished(bob, charlie, october(3), seed=2, rules="foster")
    same_time = finished(charlie, alice, october(20), seed=3)  # ties go by id
    finished(alice, bob, october(4), public=False, seed=4)  # private: never published
    start_game(alice, charlie, seed=5)  # in play: not over, not published
    finished(alice, charlie, datetime(2026, 9, 30, 23, 59, 59, tzinfo=UTC), seed=6)  # September
    finished(bob, alice, datetime(2026, 11, 1, tzinfo=UTC), seed=8)  # November, still open

    written = months.write_closed_months(LATER)

    assert [row.label for row in written] == ["2026-09", "2026-10"]
    row = DatabaseMonth.objects.get(month=OCTOBER)
    texts = games_in(row)
    assert [tags(t)["Game"] for t in texts] == [str(g.pk) for g in (early, late, same_time)]
    assert row.count == 3
    data = months.file_path(row).read_bytes()
    assert row.size == len(data) and row.sha256 == hashlib.sha256(data).hexdigest()
    for game, text in zip((early, late, same_time), texts, strict=True):
        found = tags(text)
        # The seed revealed, and the one the players were shown the hash of at the deal.
        assert found["Seed"] == game.seed
        assert seed_commitment(int(found["Seed"])) == found["SeedHash"] == game.seed_hash
        assert found["Status"] == "won" and found["Ending"] == "resigned"
        assert (
            found["Rules"] == game.rules
            and found["Ended"] == f"{game.finished_at:%Y-%m-%dT%H:%M:%SZ}"
        )
        assert found["A"] == game.names()["A"] and "Score" in found
        assert text.rstrip("\n").endswith(" resigns")
    assert not any("{" in text for text in texts), "no message goes into the database"


def test_the_same_games_give_the_same_bytes(alice: User, bob: User, folder: Path) -> None:
    finished(alice, bob, october(5), seed=11)
    finished(bob, alice, october(6), seed=12)
    (row,) = months.write_closed_months(LATER)
    stored = months.file_path(row).read_bytes()
    assert stored[4:8] == b"\0\0\0\0", "the gzip header holds no time"
    out = io.BytesIO()
    months.build(OCTOBER, months.Digest(out))  # a rebuild, as anyone may make one
    assert out.getvalue() == stored
    check = months.check_month(row)
    assert check.same and check.sha256 == row.sha256
    assert [p.name for p in folder.iterdir()] == [row.file_name], "no temporary file is left"


def test_a_written_month_is_never_written_again(alice: User, bob: User) -> None:
    finished(alice, bob, october(5))
    (row,) = months.write_closed_months(LATER)
    before = months.file_path(row).read_bytes()
    # A game that would belong to October appears after it was written.
    finished(bob, alice, october(9), seed=21)
    assert months.write_closed_months(LATER + timedelta(days=40)) != []  # November and on
    assert months.write_month(OCTOBER) is None
    assert months.file_path(row).read_bytes() == before
    assert DatabaseMonth.objects.get(month=OCTOBER).sha256 == row.sha256
    assert not months.check_month(row).same  # the rebuild tells that the games moved
    with pytest.raises(CommandError, match="differs"):
        call_command("open_database", check="2026-10", stdout=io.StringIO())


def test_a_month_is_written_only_once_closed(alice: User, bob: User, settings: Any) -> None:
    settings.OPEN_DATABASE_CLOSE_AFTER = timedelta(hours=6)
    finished(alice, bob, october(31, 23))
    end = datetime(2026, 11, 1, tzinfo=UTC)
    assert months.write_closed_months(october(31, 23)) == []  # the current month
    assert months.write_closed_months(end + timedelta(hours=5, minutes=59)) == []
    (row,) = months.write_closed_months(end + timedelta(hours=6))
    assert row.label == "2026-10" and row.count == 1


def test_a_closed_month_with_no_game_is_published_empty(alice: User, bob: User) -> None:
    finished(alice, bob, datetime(2026, 8, 10, tzinfo=UTC))
    finished(bob, alice, october(10))
    written = months.write_closed_months(LATER)
    assert [(row.label, row.count) for row in written] == [
        ("2026-08", 1),
        ("2026-09", 0),
        ("2026-10", 1),
    ]
    assert games_in(written[1]) == []


def test_no_public_game_publishes_nothing(alice: User, bob: User) -> None:
    finished(alice, bob, october(10), public=False)
    assert months.write_closed_months(LATER) == []
    assert not DatabaseMonth.objects.exists()


def test_the_command_writes_and_checks_a_month(alice: User, bob: User) -> None:
    finished(alice, bob, datetime(2020, 1, 15, tzinfo=UTC))
    out = io.StringIO()
    call_command("open_database", stdout=out)
    assert out.getvalue().startswith("2020-01: 1 games, ")
    assert DatabaseMonth.objects.filter(month__lt=date(2020, 2, 1)).count() == 1
    out = io.StringIO()
    call_command("open_database", check="2020-01", stdout=out)
    assert out.getvalue().rstrip().endswith("2020-01: the same bytes")
    with pytest.raises(CommandError, match="not published"):
        call_command("open_database", check="1999-01", stdout=io.StringIO())
    with pytest.raises(CommandError, match="YYYY-MM"):
        call_command("open_database", check="October", stdout=io.StringIO())


def test_the_command_tells_a_file_changed_on_disk(alice: User, bob: User) -> None:
    finished(alice, bob, october(2))
    (row,) = months.write_closed_months(LATER)
    months.file_path(row).write_bytes(gzip.compress(b"something else", mtime=0))
    with pytest.raises(CommandError, match="differs"):
        call_command("open_database", check="2026-10", stdout=io.StringIO())


def test_beat_writes_the_closed_months_every_day() -> None:
    schedule = [
        e for e in app.conf.beat_schedule.values() if e["task"] == write_database_months.name
    ]
    assert len(schedule) == 1


@pytest.mark.django_db(transaction=True)
def test_a_worker_writes_the_months_through_the_beat_task(worker: None, tmp_path: Path) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    game = finished(alice, bob, datetime(2021, 3, 4, tzinfo=UTC))
    result = write_database_months.delay()
    assert wait_until(lambda: DatabaseMonth.objects.filter(month=date(2021, 3, 1)).exists())
    row = DatabaseMonth.objects.get(month=date(2021, 3, 1))
    assert [tags(t)["Game"] for t in games_in(row)] == [str(game.pk)]
    assert result.id


def test_the_page_lists_the_months_and_serves_their_files(alice: User, bob: User) -> None:
    page = browser(None).get("/database/")
    assert page.status_code == 200 and b"No month has been published yet" in page.content
    finished(alice, bob, october(2))
    finished(bob, alice, october(3), seed=31)
    (row,) = months.write_closed_months(LATER)
    html = browser(None).get("/database/").content.decode()
    assert "2026-10" in html and row.sha256 in html and "2 games" in html
    assert "CC0" in html
    (link,) = re.findall(r'href="(/database/[^"]+)"', html)
    assert link == "/database/rbank-2026-10.txt.gz"
    response = browser(None).get(link)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert 'filename="rbank-2026-10.txt.gz"' in response["Content-Disposition"]
    assert response["ETag"] == f'"{row.sha256}"'
    body = response.getvalue()
    assert hashlib.sha256(body).hexdigest() == row.sha256


@pytest.mark.parametrize(
    "url",
    [
        "/database/rbank-2026-09.txt.gz",  # not published
        "/database/rbank-2026-13.txt.gz",
        "/database/rbank-0000-10.txt.gz",
        "/database/rbank-2026-1.txt.gz",
        "/database/../db.sqlite3",
    ],
)
def test_a_month_not_published_is_404(alice: User, bob: User, url: str) -> None:
    finished(alice, bob, october(2))
    months.write_closed_months(LATER)
    assert browser(None).get(url).status_code == 404


def test_a_month_whose_file_is_gone_is_404(alice: User, bob: User) -> None:
    finished(alice, bob, october(2))
    (row,) = months.write_closed_months(LATER)
    months.file_path(row).unlink()
    assert browser(None).get("/database/rbank-2026-10.txt.gz").status_code == 404


def test_a_month_costs_the_same_queries_however_many_games(alice: User, bob: User) -> None:
    def queries(month: date) -> int:
        with CaptureQueriesContext(connection) as captured:
            months.build(month, months.Digest())
        return len(captured.captured_queries)

    finished(alice, bob, datetime(2026, 7, 3, tzinfo=UTC))
    for n in range(12):
        finished(bob, alice, datetime(2026, 8, 1 + n, tzinfo=UTC), seed=50 + n)
    # The games, then their seats and players: two queries a chunk of games.
    assert queries(date(2026, 7, 1)) == queries(date(2026, 8, 1)) == 2
