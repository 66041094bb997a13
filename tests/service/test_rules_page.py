"""The public "How to play" page: served to anyone, complete, and in the product's own words."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import PRESETS


def _shared() -> Path:
    """The workspace's ``shared/`` folder (the source texts), beside the clone or above
    the worktree it is in; absent in a plain clone."""
    for parent in Path(__file__).resolve().parents[2:]:
        if (parent / "shared" / "seeds").is_dir():
            return parent / "shared"
    return Path(__file__).resolve().parents[3] / "shared"


SHARED = _shared()
SEEDS = SHARED / "seeds"
RULES_MD = SHARED / "spec" / "RULES.md"

SECTIONS = {
    "the-game": "The game in brief",
    "layout": "The layout and who starts",
    "turn": "Your turn",
    "building": "Where a card may go",
    "priorities": "Moves that must come first",
    "stop": "“Stop!” and how the server referees",
    "end": "End of the game and scoring",
    "site": "Playing on this site",
    "presets": "Rule presets",
}

#: Every rule id of RULES.md sections 4-8; the page cites each of them.
IDS_4_TO_8 = (
    *(f"R4.{n}" for n in range(1, 10)),
    *(f"R5.{n}" for n in range(1, 6)),
    "P1",
    "P2",
    "P3",
    "R6.1",
    *(f"S{n}" for n in range(1, 6)),
    *(f"R7.{n}" for n in range(1, 7)),
    *(f"R8.{n}" for n in range(1, 8)),
)
#: The ids of sections 1-3, which the page may cite too.
IDS_1_TO_3 = (
    *(f"R1.{n}" for n in range(1, 4)),
    *(f"R2.{n}" for n in range(1, 5)),
    *(f"R3.{n}" for n in range(1, 4)),
)
RULE_ID = re.compile(r"(?<![\w.])(?:R\d\.\d+|P\d|S\d)(?![\w.]*\d)")

#: Each "Stop!" code with words its one-line meaning must use.
STOP_CODES = {
    "S1": ("reserve", "foundation"),
    "S2": ("available card", "foundation"),
    "S3": ("turn", "house", "empty", "reserve"),
    "S4": ("does not fit",),
    "S5": ("not available",),
}

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
NGRAM = 12


class Page(HTMLParser):
    """What the checks need from the page: visible text, headings, ids, links, nesting."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.headings: list[tuple[str, str]] = []
        self.ids: set[str] = set()
        self.contents_links: list[str] = []
        self.help_notes: list[str] = []
        self.problems: list[str] = []
        self._open: list[str] = []
        self._heading: list[str] | None = None
        self._help: list[str] | None = None
        self._help_depth = 0
        self._hidden = 0
        self._in_contents = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag in VOID:
            return
        self._open.append(tag)
        if tag in ("head", "script", "style", "template"):
            self._hidden += 1
        elif tag in ("h1", "h2", "h3"):
            self._heading = []
        elif tag == "nav" and values.get("aria-label") == "Contents":
            self._in_contents = True
        elif tag == "a" and self._in_contents and values.get("href"):
            self.contents_links.append(str(values["href"]))
        if self._help is None and "help" in (values.get("class") or "").split():
            self._help, self._help_depth = [], len(self._open)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self._open or self._open[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self._open[-1] if self._open else ''}>")
            return
        if self._help is not None and len(self._open) == self._help_depth:
            self.help_notes.append("".join(self._help))
            self._help = None
        self._open.pop()
        if tag in ("head", "script", "style", "template"):
            self._hidden -= 1
        elif tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append((tag, " ".join("".join(self._heading).split())))
            self._heading = None
        elif tag == "nav":
            self._in_contents = False
        if tag in ("p", "li", "dt", "dd", "td", "th", "h1", "h2", "h3", "caption", "div"):
            self.text.append("\n")

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)
        if self._help is not None:
            self._help.append(data)

    @property
    def visible_text(self) -> str:
        return " ".join("".join(self.text).split())


def words(text: str) -> list[str]:
    text = text.lower().replace("’", "'").replace("‘", "'")
    return re.findall(r"[a-z0-9]+(?:'[a-z0-9]+)*", text)


def ngrams(tokens: list[str], n: int = NGRAM) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


@pytest.fixture
def html(client: Client) -> str:
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def page(html: str) -> Page:
    parser = Page()
    parser.feed(html)
    parser.close()
    return parser


def test_it_is_served_to_a_logged_out_visitor(client: Client) -> None:
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    assert response.context["user"].is_anonymous
    assert "How to play" in response.content.decode()


def test_the_markup_is_balanced(page: Page) -> None:
    assert page.problems == []
    assert page._open == []


def test_it_names_every_section(page: Page) -> None:
    assert ("h1", "How to play Russian Bank") in page.headings
    h2 = [text for tag, text in page.headings if tag == "h2"]
    for title in SECTIONS.values():
        assert title in h2
    for section in SECTIONS:
        assert section in page.ids


def test_the_contents_link_to_every_section(page: Page) -> None:
    assert page.contents_links == [f"#{section}" for section in SECTIONS]
    for link in page.contents_links:
        assert link.removeprefix("#") in page.ids


def test_it_cites_every_rule_id_of_sections_4_to_8(page: Page, html: str) -> None:
    """Ids are cited in small print (class "help"); the S codes head their own list."""
    cited = set(RULE_ID.findall(" ".join(page.help_notes)))
    cited |= set(re.findall(r"<dt>(S\d)</dt>", html))
    assert set(IDS_4_TO_8) <= cited
    # Nothing is cited that the reference does not define.
    assert cited <= set(IDS_1_TO_3) | set(IDS_4_TO_8)
    if RULES_MD.exists():  # in this workspace: the list above is the reference's own
        reference = RULES_MD.read_text(encoding="utf-8")
        body = reference.split("\n## 4.", 1)[1].split("\n## 9.", 1)[0]
        defined = set(re.findall(r"^- \*{0,2}(R\d\.\d+|P\d|S\d)\b", body, re.M))
        assert defined == set(IDS_4_TO_8)


def test_every_cited_id_appears_in_the_text(page: Page) -> None:
    text = page.visible_text
    for rule_id in IDS_4_TO_8:
        assert re.search(rf"(?<![\w.]){re.escape(rule_id)}(?![\w]|\.\d)", text), rule_id


def test_it_lists_every_preset(page: Page, html: str) -> None:
    presets = re.search(r'<section id="presets".*?</section>', html, re.S)
    assert presets is not None
    for name in PRESETS:
        assert f"<code>{name}</code>" in presets.group(0)
    assert "pagat" in PRESETS
    assert re.search(r"<code>pagat</code>[^<]*modern standard[^<]*default", presets.group(0))
    assert "RULES.md" not in presets.group(0) and "seed 00" not in presets.group(0)


def test_it_explains_each_stop_code(html: str) -> None:
    codes = re.search(r'<dl class="codes" id="stop-codes">(.*?)</dl>', html, re.S)
    assert codes is not None
    meanings = dict(re.findall(r"<dt>(S\d)</dt>\s*<dd>(.*?)</dd>", codes.group(1), re.S))
    assert sorted(meanings) == sorted(STOP_CODES)
    for code, needed in STOP_CODES.items():
        for phrase in needed:
            assert phrase in meanings[code], (code, phrase)


def test_the_classic_stop_call_is_explained(html: str) -> None:
    notice = re.search(r'<h3 id="classic">(.*?)</section>', html, re.S)
    assert notice is not None
    text = notice.group(1)
    for rule in ("R7.1", "R7.2", "R7.3", "R7.4", "R7.5"):
        assert rule in text, rule
    assert "every third" in text
    assert "classic" in text and "referee" in text


def test_it_shows_the_notation_and_an_example_turn(page: Page, html: str) -> None:
    for name in ("F1", "F8", "H1", "H8", "R", "W", "C", "OR", "OW", "SRC-DST", "T", "C-W", "E"):
        assert f"<code>{name}</code>" in html, name
    assert "<code>H3-F1 R-H3 T C-H6 T C-W</code>" in html
    for key in ("Tab", "Enter", "Escape", "T"):
        assert f"<kbd>{key}</kbd>" in html, key
    assert "drag" in page.visible_text


def test_it_gives_the_scoring_arithmetic(page: Page) -> None:
    text = page.visible_text
    assert "30 + 18 + 8 = 56" in text
    assert 30 + 12 + 6 + 2 * 4 == 56  # the example's own sum: 12 hand, 6 waste, 4 reserve
    assert "(26)" in text and "(25)" in text and "B scores 1" in text
    assert "30 + 20" in text
    assert "300 points" in text


def test_suit_symbols_come_with_words(page: Page) -> None:
    text = page.visible_text
    for symbol, name in (("♠", "spades"), ("♥", "hearts"), ("♦", "diamonds"), ("♣", "clubs")):
        assert f"{symbol} {name}" in text
        assert re.search(rf"[0-9AKQJ]+{symbol} \([a-z]+ of {name}", text), symbol


def test_no_sentence_is_copied_from_a_seed_text(page: Page) -> None:
    if not SEEDS.is_dir():
        pytest.skip(f"the source texts are not here ({SEEDS}): nothing to compare against")
    seeds = sorted(SEEDS.glob("*.txt"))
    assert seeds
    ours = ngrams(words(page.visible_text))
    assert len(ours) > 1000
    for seed in seeds:
        copied = ours & ngrams(words(seed.read_text(encoding="utf-8", errors="replace")))
        assert not copied, (seed.name, [" ".join(gram) for gram in sorted(copied)[:5]])


@pytest.mark.parametrize("name", ["rules.md", "notation.md"])
def test_no_sentence_of_the_docs_is_copied_from_a_seed_text(name: str) -> None:
    """docs/rules.md and docs/notation.md, the project's own rules reference and
    notation, are in its own words too."""
    if not SEEDS.is_dir():
        pytest.skip(f"the source texts are not here ({SEEDS}): nothing to compare against")
    text = (Path(__file__).resolve().parents[2] / "docs" / name).read_text(encoding="utf-8")
    ours = ngrams(words(text))
    assert len(ours) > 500
    for seed in sorted(SEEDS.glob("*.txt")):
        copied = ours & ngrams(words(seed.read_text(encoding="utf-8", errors="replace")))
        assert not copied, (seed.name, [" ".join(gram) for gram in sorted(copied)[:5]])
