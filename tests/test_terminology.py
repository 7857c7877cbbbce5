"""One word per game term: the catalogs say each glossary term as the glossary does.

The table "Checked terms" of ``paris_tui/locale/GLOSSARY.md`` lists, for an
English word, the word each translation must use and the words it must not
(the review of issue 23 found ``Verlauf`` for both trend and history, ``離開`` for
both away and Quit). Every catalog entry whose English holds the word is
checked, and so is each language's help file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "paris_tui" / "locale"
HELP = ROOT / "paris_tui" / "app" / "help"
LANGUAGES = {"zh-TW": "zh_TW", "de": "de"}
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]|%[sdr]")


@dataclass(frozen=True)
class Term:
    english: str
    say: dict[str, tuple[str, ...]]  # language -> one of these (any case, part of a word)
    never: dict[str, tuple[str, ...]]  # language -> none of these
    exceptions: tuple[str, ...]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _words(cell: str, sep: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in cell.split(sep) if word.strip())


def glossary_terms(text: str | None = None) -> list[Term]:
    """The rows of the glossary's "Checked terms" table."""
    if text is None:
        text = (LOCALE / "GLOSSARY.md").read_text(encoding="utf-8")
    section = text.split("## Checked terms", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    head = _cells(rows[0])
    assert head == ["English", "zh-TW", "zh-TW, not", "de", "de, not", "except"], head
    terms = []
    for row in rows[2:]:
        english, zh, zh_not, de, de_not, exceptions = _cells(row)
        terms.append(
            Term(
                english=english,
                say={"zh-TW": _words(zh, "/"), "de": _words(de, "/")},
                never={"zh-TW": _words(zh_not, ","), "de": _words(de_not, ",")},
                exceptions=_words(exceptions, ","),
            )
        )
    return terms


def _pattern(word: str, *, latin: bool) -> re.Pattern[str]:
    stem = word.rstrip("*")
    body = re.escape(stem) + (r"\w*" if word.endswith("*") else "")
    if not latin:
        return re.compile(body)
    return re.compile(rf"(?<!\w){body}(?!\w)")


def _is_latin(word: str) -> bool:
    return all(ord(ch) < 0x2E80 for ch in word)


def _english_holds(term: Term, english: str) -> bool:
    text = _PLACEHOLDER.sub(" ", english)
    if any(phrase.lower() in text.lower() for phrase in term.exceptions):
        return False
    return bool(_pattern(term.english.lower(), latin=True).search(text.lower()))


def _forbidden(word: str, text: str) -> bool:
    return bool(_pattern(word, latin=_is_latin(word)).search(text))


def entries(lang: str) -> list[tuple[str, str]]:
    """(English, translation) for every string and plural form of a catalog."""
    path = LOCALE / LANGUAGES[lang] / "LC_MESSAGES" / "paris_tui.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=LANGUAGES[lang])
    out = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strs = message.string if isinstance(message.string, tuple) else (message.string,)
        english = " ".join(ids)
        for text in strs:
            out.append((english, text))
    return out


def problems(lang: str, pairs: list[tuple[str, str]], terms: list[Term]) -> list[str]:
    found = []
    for term in terms:
        say, never = term.say[lang], term.never[lang]
        for english, text in pairs:
            if not _english_holds(term, english):
                continue
            if say and not any(word.lower() in text.lower() for word in say):
                found.append(f"{term.english!r}: {text!r} says none of {' / '.join(say)}")
            for word in never:
                if _forbidden(word, _PLACEHOLDER.sub(" ", text)):
                    found.append(f"{term.english!r}: {text!r} says {word!r}")
    return found


def help_problems(lang: str, text: str, english: str, terms: list[Term]) -> list[str]:
    words_of_terms = {word for term in terms for word in term.say[lang]}
    found = []
    for term in terms:
        if not _english_holds(term, english):
            continue
        for word in term.never[lang]:
            if word not in words_of_terms and _forbidden(word, text):
                found.append(f"{term.english!r}: the help says {word!r}")
    return found


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_catalog_says_each_glossary_term_one_way(lang: str) -> None:
    found = problems(lang, entries(lang), glossary_terms())
    assert not found, f"{lang}: a glossary term said another way:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_help_says_each_glossary_term_one_way(lang: str) -> None:
    english = (HELP / "en.md").read_text(encoding="utf-8")
    text = (HELP / f"{LANGUAGES[lang]}.md").read_text(encoding="utf-8")
    found = help_problems(lang, text, english, glossary_terms())
    assert not found, f"{lang} help: a glossary term said another way:\n" + "\n".join(found)


def test_the_check_finds_a_term_said_another_way() -> None:
    """The check can fail: the two mix-ups the review found first are named."""
    terms = glossary_terms()
    de = problems("de", [("Trend: your score in each game", "Verlauf: deine Punkte")], terms)
    assert any("'trend'" in line and "'Verlauf'" in line for line in de), de
    zh = problems("zh-TW", [(" (away)", "（離開）")], terms)
    assert any("'away'" in line and "'離開'" in line for line in zh), zh
    # A word the term's row excepts ("3 stops away" is a distance) is not checked.
    assert problems("zh-TW", [("{text}, {n} stops away", "{text}，相距 {n} 站")], terms) == []
    # The help: a word another term owns is allowed, any other is not.
    assert help_problems("zh-TW", "q 離開", "players away", terms) == []
    assert help_problems("zh-TW", "盤上", "on the board", terms) != []
