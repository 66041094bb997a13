"""The French and German catalogues (locale/) are whole and current, and every string a
player reads is marked for translation: in templates, and in the Python that writes
messages (errors, forms, page messages, the admin's labels)."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = ("fr", "de")
SOURCES = ("games", "accounts", "mailplay", "webhooks", "competitions", "config", "lib")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


# The catalogues.


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str) -> None:
    po = catalogue(language)
    assert len(po) > 100
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert untranslated == [], f"{len(untranslated)} untranslated in {language}: {untranslated[:5]}"
    assert fuzzy == [], f"{len(fuzzy)} fuzzy in {language}: {fuzzy[:5]}"


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders(language: str) -> None:
    wrong = []
    for entry in catalogue(language).translated_entries():
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        texts = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            if sorted(set(PLACEHOLDER.findall(text))) != sorted(set(wanted)):
                wrong.append((entry.msgid, text))
    assert wrong == []


#: Each language's words for a draw. A stalemate is scored by the counts (R8.3: the
#: lowest count wins the difference): calling it a draw made a player offer one, and
#: lose. Only where the English says it is a draw (V14's rules) may a translation.
DRAW_WORDS = {
    "fr": re.compile(r"\bnulles?\b", re.IGNORECASE),
    "de": re.compile(r"\bremis\b|\bunentschieden\b", re.IGNORECASE),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translation_calls_a_stalemate_a_draw(language: str) -> None:
    wrong = [
        (entry.msgctxt, entry.msgid, entry.msgstr)
        for entry in catalogue(language).translated_entries()
        if "stalemate" in f"{entry.msgctxt or ''} {entry.msgid}".lower()
        and "draw" not in entry.msgid.lower()
        and DRAW_WORDS[language].search(entry.msgstr)
    ]
    assert wrong == [], f"{len(wrong)} in {language}, e.g. {wrong[:3]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translator_comment_swallows_a_string(language: str) -> None:
    """A template's ``{% comment %}Translators: ...{% endcomment %}`` ending on the line
    of the string it explains takes that string into the comment: makemessages never
    sees it, and the e-mail goes out in English whatever the reader's language."""
    swallowed = [entry.comment for entry in catalogue(language) if "gettext(" in entry.comment]
    assert swallowed == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_the_po(language: str) -> None:
    """The .mo files are kept (``make run`` needs no gettext): each is its .po compiled."""
    mo = LOCALE / language / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    for entry in catalogue(language).translated_entries():
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural:
            got = (
                compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, 1)
                if entry.msgctxt
                else compiled.ngettext(entry.msgid, entry.msgid_plural, 1)
            )
            assert got == entry.msgstr_plural[0], f"{language}: run make messages ({key!r})"
        else:
            got = (
                compiled.pgettext(entry.msgctxt, entry.msgid)
                if entry.msgctxt
                else compiled.gettext(entry.msgid)
            )
            assert got == entry.msgstr, f"{language}: run make messages ({key!r})"


def test_the_catalogues_hold_every_marked_string_and_no_other(tmp_path: Path) -> None:
    """``make messages`` would change nothing: extracted again from a copy of the code,
    the catalogues have the same entries."""
    if not shutil.which("xgettext"):
        pytest.fail("GNU gettext is missing: make test installs it (scripts/system-deps.sh)")
    for folder in (*SOURCES, "templates", "locale"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    shutil.copy(ROOT / "manage.py", tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fr", "-l", "de", "-v", "0"],
        cwd=tmp_path,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "config.settings_test", "PATH": "/usr/bin:/bin"},
    )
    for language in LANGUAGES:
        fresh = polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po"))
        ours = {(e.msgctxt, e.msgid) for e in catalogue(language)}
        theirs = {(e.msgctxt, e.msgid) for e in fresh if not e.obsolete}
        assert ours - theirs == set(), f"{language}: entries no code uses; run make messages"
        assert theirs - ours == set(), f"{language}: new strings; run make messages"


# Marked strings: templates.

#: What may stand unmarked in a template: the notation (piles, seats, moves), rule ids
#: (R2.1, S4, V14, G3, P1) and CSS names (a page's ``body`` class).
NOTATION = re.compile(
    r"^(?:[HF][1-8]|[ABC]|C-W|TR|T|E|R|W|OW|OR|SRC-DST|[RSVGP]\d+(?:\.\d+)*|[a-z]+(?:-[a-z]+)+)$"
)
MOVES = re.compile(r"^(?:[A-Z]{1,2}\d?(?:-[A-Z]{1,2}\d?)?\s*)+$")
TEMPLATE_TAGS = re.compile(
    r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}"
    r"|\{%\s*blocktranslate.*?\{%\s*endblocktranslate\s*%\}"
    r"|\{%\s*blocktrans\b.*?\{%\s*endblocktrans\s*%\}"
    r"|\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}",
    re.S,
)
HTML = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->|<[^>]*>|&[#\w]+;", re.S | re.I)
SHOWN_ATTRIBUTES = re.compile(r'\b(?:title|alt|aria-label|placeholder)="([^"{]*[A-Za-z][^"{]*)"')


def unmarked_words(source: str) -> list[str]:
    shown = SHOWN_ATTRIBUTES.findall(TEMPLATE_TAGS.sub(" ", source))
    attributes = [value for value in shown if not MOVES.match(value)]  # e.g. "H3-F1 R-H3"
    text = HTML.sub(" ", TEMPLATE_TAGS.sub(" ", source))
    words = [w for w in re.findall(r"[A-Za-zÀ-ÿ][\wÀ-ÿ'’-]*", text) if not NOTATION.match(w)]
    return [*words, *attributes]


def templates() -> list[Path]:
    found = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "templates").rglob("*.txt")]
    for app in SOURCES:
        found.extend((ROOT / app).glob("templates/**/*.html"))
    return sorted(found)


def test_every_word_of_every_template_is_marked() -> None:
    unmarked = {
        str(path.relative_to(ROOT)): words[:6]
        for path in templates()
        if (words := unmarked_words(path.read_text()))
    }
    assert unmarked == {}


def test_the_template_check_finds_what_it_must() -> None:
    assert unmarked_words("<p>Your turn</p>") == ["Your", "turn"]
    assert unmarked_words('<img alt="the reserve">') == ["the reserve"]
    assert unmarked_words("{% translate 'Your turn' %} H3 C-W {{ name }}") == []
    assert unmarked_words("{% blocktranslate %}Hello {{ name }}{% endblocktranslate %}") == []


# Marked strings: Python.

#: Calls whose argument is read by a player: the message, label or help of each.
MESSAGE_ARGUMENT = {
    "ServiceError": 2,
    "ValidationError": 0,
    "success": 1,
    "error": 1,
    "info": 1,
    "warning": 1,
}
#: Calls whose words are for programmers: the schema's documentation, Python's warnings.
NOT_SHOWN = {
    "OpenApiParameter",
    "OpenApiExample",
    "OpenApiResponse",
    "extend_schema",
    "filterwarnings",
}
SHOWN_KEYWORDS = {
    "label",
    "help_text",
    "verbose_name",
    "verbose_name_plural",
    "description",
    "message",
}
TRANSLATORS = {
    "_",
    "gettext",
    "gettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "format_lazy",
}


def _marked(node: ast.expr) -> bool:
    """A literal is unmarked; a call of a translation function (or anything computed) is
    taken as marked."""
    if isinstance(node, ast.Constant):
        return not (isinstance(node.value, str) and re.search(r"[A-Za-z]{2}", node.value))
    if isinstance(node, ast.JoinedStr):
        return False
    if isinstance(node, ast.BinOp):  # "..." % {...}
        return _marked(node.left)
    return True


def unmarked_calls(source: str, where: str, *, keywords: bool = True) -> list[str]:
    """``keywords``: also labels and help (not in the API's modules, whose help texts
    document the schema for programmers, in English)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = (
            node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        )
        position = MESSAGE_ARGUMENT.get(name)
        is_messages = (
            isinstance(node.func, ast.Attribute)
            and getattr(node.func.value, "id", "") == "messages"
        )
        sink = name in ("ServiceError", "ValidationError") or is_messages
        if (
            position is not None
            and sink
            and len(node.args) > position
            and not _marked(node.args[position])
        ):
            found.append(f"{where}:{node.lineno}")
        checked = keywords and name not in NOT_SHOWN
        shown = [k for k in node.keywords if checked and k.arg in SHOWN_KEYWORDS]
        found += [f"{where}:{node.lineno} {k.arg}=" for k in shown if not _marked(k.value)]
    return found


def test_every_message_in_python_is_marked() -> None:
    unmarked = []
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts or "engine" in path.parts:
                continue
            # The API's help texts are its schema's, in English (docs/languages.md).
            schema = "api" in path.parts or path.name in ("api.py", "openapi.py", "serializers.py")
            where = str(path.relative_to(ROOT))
            unmarked += unmarked_calls(path.read_text(), where, keywords=not schema)
    assert unmarked == []


def test_the_python_check_finds_what_it_must() -> None:
    assert unmarked_calls('ServiceError(404, "NOT_FOUND", "no such game")', "x") == ["x:1"]
    assert unmarked_calls('ServiceError(404, "NOT_FOUND", _("no such game"))', "x") == []
    assert unmarked_calls('forms.CharField(label="Opponent")', "x") == ["x:1 label="]
    assert unmarked_calls('messages.success(request, f"Saved {x}")', "x") == ["x:1"]
    assert unmarked_calls('messages.success(request, _("Saved %(x)s") % {"x": x})', "x") == []
