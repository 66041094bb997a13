"""The engine's command line, ``python -m games.engine deal|legal|play|selfplay``
(NOTATION.md, "The engine's command line"), run as a separate process."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    PRESETS,
    IllegalMove,
    Position,
    deal,
    dumps,
    from_document,
    replay,
    to_document,
)
from games.engine.selfplay import selfplay
from tests.engine.builders import document

ROOT = Path(__file__).resolve().parents[2]
RANKS = "A23456789TJQK"
SUITS = "SHDC"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUTF8": "1", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def ok(*args: str, stdin: str | None = None) -> str:
    result = run(*args, stdin=stdin)
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert result.stderr == ""
    return result.stdout


def all_card_names(doc: dict[str, Any]) -> list[str]:
    names = [c for pile in doc["foundations"] for c in pile]
    names += [c for pile in doc["houses"] for c in pile]
    for seat in ("A", "B"):
        for pile in ("reserve", "hand", "waste"):
            names += doc[seat][pile]
        if doc[seat]["turned"] is not None:
            names.append(doc[seat]["turned"])
    return names


def random_position(seed: int, steps: int) -> tuple[Position, list[str]]:
    position = deal(seed)
    rng = random.Random(seed)
    texts = []
    for _ in range(steps):
        if position.is_over:
            break
        move = rng.choice(position.legal_moves())
        texts.append(str(move))
        position.push(move)
    return position, texts


# ---------------------------------------------------------------------- deal


@pytest.mark.parametrize("seed", [0, 7, 123456789])
def test_deal_prints_a_valid_position_document(seed: int) -> None:
    doc = json.loads(ok("deal", "--seed", str(seed)))
    assert doc["format"] == "rbank-position/1"
    assert doc["rules"] == "pagat"
    assert doc["to_move"] in ("A", "B")
    assert (doc["status"], doc["winner"], doc["score"]) == ("playing", None, None)
    names = all_card_names(doc)
    assert len(names) == 104
    assert Counter(names) == Counter({r + s: 2 for r in RANKS for s in SUITS})  # two packs
    assert doc["foundations"] == [[]] * 8
    assert all(len(house) == 1 for house in doc["houses"])  # R2.3
    for seat in ("A", "B"):
        assert len(doc[seat]["reserve"]) == 13  # R2.2
        assert len(doc[seat]["hand"]) == 35  # R2.4
        assert doc[seat]["waste"] == []
        assert doc[seat]["turned"] is None
    # The same deal as the library's, packs included.
    assert from_document(doc) == deal(seed)
    assert doc == to_document(deal(seed))


def test_deal_is_deterministic_for_a_seed_and_differs_for_another() -> None:
    first = ok("deal", "--seed", "42")
    assert ok("deal", "--seed", "42") == first
    other = ok("deal", "--seed", "43")
    assert json.loads(other) != json.loads(first)
    assert all_card_names(json.loads(other)) != all_card_names(json.loads(first))


def test_deal_with_an_unknown_preset_is_a_clear_error() -> None:
    result = run("deal", "--seed", "1", "--rules", "no-such-rules")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    error = json.loads(result.stdout)
    assert error["error"] == "BAD_POSITION"
    assert "no-such-rules" in error["message"]


def test_deal_takes_options_on_a_preset_as_json() -> None:
    doc = json.loads(
        ok("deal", "--seed", "1", "--rules", '{"preset": "pagat", "lenient_turn": true}')
    )
    assert doc["rules"] == {"preset": "pagat", "lenient_turn": True}
    result = run("deal", "--seed", "1", "--rules", '{"preset": "pagat"')
    assert result.returncode == 2 and json.loads(result.stdout)["error"] == "BAD_POSITION"


def test_options_that_do_not_combine_are_a_clear_error() -> None:
    """``rules.CLASHES``: options the preset's game cannot be played with are refused by
    every command, on ``--rules`` and in a document alike, naming the clash."""
    rules = {"preset": "foster-one-pack", "reserve_size": 12}
    deal_it = run("deal", "--seed", "1", "--rules", json.dumps(rules))
    doc = to_document(deal(1, PRESETS["foster-one-pack"]))
    legal = run("legal", stdin=json.dumps({**doc, "rules": rules}))
    for result in (deal_it, legal):
        assert result.returncode == 2 and "Traceback" not in result.stderr
        error = json.loads(result.stdout)
        assert error["error"] == "RULES_CLASH"
        assert "foster-one-pack rules do not combine with reserve_size 12" in error["message"]


def test_deal_without_a_seed_is_a_usage_error() -> None:
    result = run("deal")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "--seed" in result.stderr


# --------------------------------------------------------------------- legal


@pytest.mark.parametrize(("seed", "steps"), [(1, 0), (2, 1), (3, 37), (4, 250), (5, 900)])
def test_legal_prints_the_sorted_legal_moves(seed: int, steps: int) -> None:
    position, _ = random_position(seed, steps)
    lines = ok("legal", stdin=dumps(position)).splitlines()
    assert lines == sorted(str(m) for m in position.legal_moves())
    assert lines == sorted(set(lines))
    assert lines  # a game in progress always has a move


def test_legal_names_every_distinct_pair() -> None:
    # NOTATION.md: both H3-F1 and H3-F2 when both are empty.
    doc = document(
        H={1: "KD", 2: "QC", 3: "AS", 4: "9C", 5: "JD", 6: "3S", 7: "8H", 8: "5D"},
        A={"reserve": "4C TD 7S", "hand": "2H QC"},
        B={"reserve": "6C KH", "hand": "9D", "waste": "3C 4D"},
    )
    lines = ok("legal", stdin=json.dumps(doc)).splitlines()
    assert lines == [f"H3-F{i}" for i in range(1, 9)]  # P2: only foundation moves


def test_legal_of_a_finished_game_prints_nothing() -> None:
    position, _ = random_position(6, 10**6)
    assert position.is_over
    assert ok("legal", stdin=dumps(position)) == ""


# ---------------------------------------------------------------------- play


def test_play_applies_the_moves_and_prints_the_document() -> None:
    start = deal(8)
    _, texts = random_position(8, 60)
    doc = json.loads(ok("play", *texts, stdin=dumps(start)))
    assert doc == to_document(replay(8, texts))


def test_play_accepts_a_turn_written_as_one_argument() -> None:
    start = deal(9)
    _, texts = random_position(9, 25)
    one = json.loads(ok("play", " ".join(texts), stdin=dumps(start)))
    assert one == to_document(replay(9, texts))


def test_play_without_moves_prints_the_position() -> None:
    position, _ = random_position(10, 333)
    assert json.loads(ok("play", stdin=dumps(position))) == to_document(position)


# A table with every house built and no ace in sight: A may turn.
HOUSES = {1: "KD", 2: "7C", 3: "9H", 4: "5S", 5: "JD", 6: "3S", 7: "8S", 8: "5D"}
A_SEAT = {"reserve": "4C TD 7S", "hand": "2H QC"}
B_SEAT = {"reserve": "6C KH", "hand": "9D", "waste": "3C 4D"}


def table(**changes: Any) -> str:
    kwargs: dict[str, Any] = {"H": dict(HOUSES), "A": dict(A_SEAT), "B": dict(B_SEAT)}
    for key, value in changes.items():
        if key in ("H", "A", "B"):
            kwargs[key].update(value)
        else:
            kwargs[key] = value
    kwargs["H"] = {k: v for k, v in kwargs["H"].items() if v}
    return json.dumps(document(**kwargs))


REFUSED = [
    # (code, position, moves, index of the refused move)
    pytest.param("S4", table(), ["H2-H7"], 0, id="S4-7C-on-8S"),
    pytest.param("S4", table(), ["R-F1"], 0, id="S4-7S-on-empty-foundation"),
    pytest.param("S5", table(), ["OR-H3"], 0, id="S5-from-opponent-reserve"),
    pytest.param("S5", table(), ["W-H1"], 0, id="S5-from-own-waste"),
    pytest.param("S5", table(H={2: ""}), ["H2-H7"], 0, id="S5-empty-house"),
    pytest.param("S1", table(A={"reserve": "4C AS"}), ["T"], 0, id="S1"),
    pytest.param("S1", table(A={"reserve": "4C AS"}), ["H7-H3"], 0, id="S1-house-move"),
    pytest.param("S2", table(H={1: "AH"}), ["T"], 0, id="S2"),
    pytest.param("S3", table(H={8: ""}), ["T"], 0, id="S3"),
    pytest.param("BAD_NOTATION", table(), ["R-H9"], 0, id="BAD_NOTATION-pile"),
    pytest.param("BAD_NOTATION", table(), ["T", "XYZ"], 1, id="BAD_NOTATION-text"),
    pytest.param("NO_TURNED_CARD", table(), ["C-W"], 0, id="NO_TURNED_CARD"),
    pytest.param("ALREADY_TURNED", table(), ["T", "T"], 1, id="ALREADY_TURNED"),
    pytest.param("CANNOT_END", table(), ["E"], 0, id="CANNOT_END"),
    pytest.param("S5", table(), ["T", "C-W", "OR-H1"], 2, id="S5-after-a-turn"),
]


@pytest.mark.parametrize(("code", "doc", "moves", "index"), REFUSED)
def test_play_reports_the_first_refused_move(
    code: str, doc: str, moves: list[str], index: int
) -> None:
    result = run("play", *moves, stdin=doc)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout  # one JSON line, no document
    error = json.loads(lines[0])
    assert list(error) == ["error", "move", "index", "message"]
    assert error["error"] == code
    assert error["move"] == moves[index]
    assert error["index"] == index
    assert isinstance(error["message"], str) and error["message"]
    # The library refuses the same move with the same code.
    position = from_document(json.loads(doc))
    for text in moves[:index]:
        position.play(text)
    with pytest.raises(IllegalMove) as refused:
        position.play(moves[index])
    assert refused.value.code == code


def test_play_on_a_finished_game_is_refused() -> None:
    position, _ = random_position(11, 10**6)
    result = run("play", "T", stdin=dumps(position))
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"] == "GAME_OVER"


# ------------------------------------------------------------ card spellings


def test_input_cards_may_be_lower_case_10_or_suit_symbols() -> None:
    doc = document(
        H={1: "10♥", 2: "js", 3: "10h", 4: "9♣", 5: "qD", 6: "T♠", 7: "8d", 8: "kc"},
        A={"reserve": "4c td 7♠", "hand": "2h QC"},
        B={"reserve": "6C kh", "hand": "9d", "waste": "3c 4♦"},
    )
    text = json.dumps(doc, ensure_ascii=False)
    out = json.loads(ok("play", stdin=text))
    assert out["houses"] == [["TH"], ["JS"], ["TH"], ["9C"], ["QD"], ["TS"], ["8D"], ["KC"]]
    assert out["A"]["reserve"] == ["4C", "TD", "7S"]
    assert out["A"]["hand"] == ["2H", "QC"]
    assert out["B"]["reserve"] == ["6C", "KH"]
    assert out["B"]["waste"] == ["3C", "4D"]

    legal = ok("legal", stdin=text).splitlines()
    assert "H1-H2" in legal  # the red ten on the black jack
    assert legal == sorted(str(m) for m in from_document(doc).legal_moves())

    moved = json.loads(ok("play", "h1-h2", stdin=text))  # moves may be lower case too
    assert moved["houses"][:2] == [[], ["JS", "TH"]]


# ------------------------------------------------------- malformed documents


def _doc(**changes: Any) -> str:
    doc = document(H={1: "8S"}, A={"reserve": "4C", "hand": "2H"}, B={"reserve": "6C"})
    doc.update(changes)
    return json.dumps(doc)


MALFORMED = [
    pytest.param("", id="empty"),
    pytest.param("hello", id="not-json"),
    pytest.param('{"format": "rbank-position/1", "houses": [', id="truncated"),
    pytest.param("[]", id="a-list"),
    pytest.param("null", id="null"),
    pytest.param(_doc(format="chess/1"), id="format"),
    pytest.param(_doc(houses=[["8S"]] * 7), id="seven-houses"),
    pytest.param(_doc(houses=None), id="no-houses"),
    pytest.param(_doc(houses=[["1X"]] + [[]] * 7), id="bad-card"),
    pytest.param(_doc(houses=[[5]] + [[]] * 7), id="card-is-a-number"),
    pytest.param(_doc(houses=["8S"] + [[]] * 7), id="pile-is-a-string"),
    pytest.param(_doc(houses=[["AS"], ["AS"], ["AS"]] + [[]] * 5), id="three-copies"),
    pytest.param(_doc(foundations=[["2S"]] + [[]] * 7), id="foundation-without-ace"),
    pytest.param(_doc(to_move="C"), id="to-move"),
    pytest.param(_doc(status="finished"), id="status"),
    pytest.param(_doc(rules="chess"), id="unknown-preset"),
    pytest.param(_doc(rules={"preset": "pagat", "speed": 3}), id="unknown-option"),
    pytest.param(_doc(rules={"seats": 4}), id="seats-option"),
    pytest.param(_doc(B=None), id="seat-missing"),
    pytest.param(_doc(A={"reserve": "4C"}), id="reserve-is-a-string"),
    pytest.param(_doc(score={"A": "x", "B": 1}), id="score"),
    pytest.param(_doc(engine={"turn_moves": -1}), id="negative-counter"),
    pytest.param(_doc(engine={"packs": {"houses": ["Z", "", "", "", "", "", "", ""]}}), id="pack"),
    # These four once escaped the reader as a traceback (fixed in 83b8d08).
    pytest.param(_doc(winner=5), id="winner-is-a-number"),
    pytest.param(_doc(rules={"preset": ["pagat"]}), id="preset-is-a-list"),
    pytest.param(_doc(rules={"foundations": 10**30}), id="huge-option"),
    pytest.param("[" * 100_000 + "]" * 100_000, id="deeply-nested"),
]


@pytest.mark.parametrize("command", ["legal", "play"])
@pytest.mark.parametrize("text", MALFORMED)
def test_a_malformed_document_is_a_clear_error_not_a_traceback(command: str, text: str) -> None:
    args = [command, "T"] if command == "play" else [command]
    result = run(*args, stdin=text)
    assert "Traceback" not in result.stderr, result.stderr[-600:]
    assert result.returncode not in (0, 1)  # 1 is a refused move
    error = json.loads(result.stdout)
    assert error["error"] == "BAD_POSITION"
    assert isinstance(error["message"], str) and error["message"]


# ------------------------------------------------------------------ selfplay


def test_selfplay_prints_a_summary() -> None:
    summary = json.loads(ok("selfplay", "--games", "5", "--seed", "1"))
    assert summary["games"] == 5
    assert set(summary["results"]) <= {"A", "B", "stalemate"}
    assert sum(summary["results"].values()) == 5
    assert set(summary["turns"]) == {"mean", "max"}
    assert set(summary["moves"]) == {"mean", "max"}
    assert 0 < summary["turns"]["mean"] <= summary["turns"]["max"] <= 2000
    assert 0 < summary["moves"]["mean"] <= summary["moves"]["max"]
    assert summary["games_per_second"] > 0
    # The same games as the library plays from the same seed.
    expected = selfplay(5, 1).as_dict()
    for key in ("games", "results", "turns", "moves"):
        assert summary[key] == expected[key]
