"""The README and docs/ are true for someone who has only the repository: every
relative link lands on a file of it, and every rule id the tests name has its home in
docs/rules.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]
RULES = ROOT / "docs" / "rules.md"

#: A rule id as the tests write it in prose: R4.4, R3 (a section), P2, S10, V14, G3.
RULE_ID = re.compile(r"(?<![\w.])(R\d\.\d+|R\d|P\d|S\d{1,2}|V\d{1,2}|G\d)(?![\w])")
#: A test named after a rule: test_R4_4_..., test_P2_..., test_G3_...
TEST_NAME = re.compile(r"\bdef test_(R\d_\d+|P\d|S\d{1,2}|V\d{1,2}|G\d)_")
#: A Markdown link or image: [text](target "title").
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def ids_the_tests_name() -> set[str]:
    ids: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        ids |= set(RULE_ID.findall(text))
        ids |= {name.replace("_", ".") for name in TEST_NAME.findall(text)}
    return ids


def defined_ids(text: str) -> set[str]:
    """The ids docs/rules.md gives a home: a bold list entry (**R4.4**, **S3**), a
    section heading's "(R4)" or "(P1-P3, R6.1)", or the first cell of a table row."""
    ids = set(re.findall(r"\*\*([RPSVG][\d.]+)\*\*", text))
    for heading in re.findall(r"^## .*$", text, re.M):
        ids |= set(RULE_ID.findall(heading))
    ids |= set(re.findall(r"^\| ([VG]\d{1,2}) \|", text, re.M))
    return ids


def test_it_finds_the_ids_the_tests_name() -> None:
    """The scan itself: ids from prose and from test names, and nothing that is not one."""
    prose = "OR2-H1 F8 (R4.4), R3; AS3 S11-S5 x_V2 V14. R7.1-R7.6 G3's"
    assert RULE_ID.findall(prose) == ["R4.4", "R3", "S11", "S5", "V14", "R7.1", "R7.6", "G3"]
    assert TEST_NAME.findall("def test_R4_4_turns(): ...\ndef test_S10_x(): ...") == [
        "R4_4",
        "S10",
    ]
    assert {"R4.4", "R8.6", "P3", "S11", "V14", "G3", "R3"} <= ids_the_tests_name()


def test_every_rule_id_the_tests_name_has_its_home_in_rules_md() -> None:
    text = RULES.read_text(encoding="utf-8")
    missing = sorted(ids_the_tests_name() - defined_ids(text))
    assert missing == [], f"docs/rules.md does not define {missing}"


def test_rules_md_defines_every_rule_of_the_standard_game_once() -> None:
    text = RULES.read_text(encoding="utf-8")
    bold = re.findall(r"\*\*([RPS][\d.]+)\*\*", text)
    numbered = {
        **{f"R1.{n}": 1 for n in range(1, 4)},
        **{f"R2.{n}": 1 for n in range(1, 5)},
        **{f"R3.{n}": 1 for n in range(1, 4)},
        **{f"R4.{n}": 1 for n in range(1, 10)},
        **{f"R5.{n}": 1 for n in range(1, 6)},
        **{f"P{n}": 1 for n in range(1, 4)},
        "R6.1": 1,
        **{f"S{n}": 1 for n in range(1, 12)},
        **{f"R7.{n}": 1 for n in range(1, 7)},
        **{f"R8.{n}": 1 for n in range(1, 8)},
    }
    for rule_id in numbered:
        assert bold.count(rule_id) == 1, rule_id


def relative_links(page: Path) -> list[str]:
    targets = LINK.findall(page.read_text(encoding="utf-8"))
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_relative_link_is_dead(page: Path) -> None:
    for target in relative_links(page):
        path = (page.parent / target.split("#", 1)[0]).resolve()
        assert path.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        assert path.exists(), f"{page.name}: {target} is not in the repository"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_nothing_points_at_files_outside_the_repository(page: Path) -> None:
    """The specification and the source texts the project started from are not in a
    clone: the README and docs/ name docs/rules.md and docs/notation.md instead."""
    text = page.read_text(encoding="utf-8")
    for name in ("shared/spec", "shared/seeds", "RULES.md", "NOTATION.md"):
        assert name not in text, f"{page.name} names {name}"


def test_the_readme_and_docs_link_the_rules_and_the_notation() -> None:
    readme = relative_links(ROOT / "README.md")
    assert "docs/rules.md" in readme and "docs/notation.md" in readme
    for page in ("engine.md", "variants.md", "stop.md"):
        assert "rules.md" in relative_links(ROOT / "docs" / page), page


def test_the_link_check_sees_a_dead_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "See [the rules](../shared/spec/RULES.md), [here](#top), [site](https://x.org/a),\n"
        '![board](img/board.png "the board") and [notes](notes.md#part).\n'
    )
    assert relative_links(page) == ["../shared/spec/RULES.md", "img/board.png", "notes.md#part"]
