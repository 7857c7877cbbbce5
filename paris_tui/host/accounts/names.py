"""Names compared as people read them: folded (NFKC, case-folded) and by skeleton.

A host keeps one account per name (:mod:`paris_tui.host.accounts.store`). Two
names are the same account when their *folded* forms are equal: Unicode
NFKC (so the fullwidth "ａnn" is "ann"), then case-folded, then NFKC again
(case folding can undo NFKC). A name is refused beside another when their
*skeletons* are equal (Unicode Technical Standard #39, section 4): each
character of the folded name, decomposed (NFD), replaced by the prototype
Unicode's ``confusables.txt`` gives it, so the Cyrillic "аnn" and the Latin
"ann" have one skeleton, as have "I", "l" and "1". The skeleton is folded
again at the end, so "b0b" and "bob" clash too: a name must differ from
another in more than looks.

The table comes from the PyPI package ``confusable-homoglyphs`` (pinned in
``pyproject.toml``; pure Python, MIT): it ships Unicode's ``confusables.txt``
as JSON and needs no ICU, so a fresh machine with only pip has it. It
answers "is this confusable" but has no skeleton function (PyICU's
``SpoofChecker.getSkeleton`` has, but needs ICU and a compiler), so
:func:`skeleton` computes it from the package's table. The package keeps
each line ``source -> prototype`` of ``confusables.txt`` in both directions;
a source appears in one line only and a prototype is never a source (the
file is a mapping to fixed points), so the prototype of a character is
recovered as: the character itself when several characters map to it, else
its one partner when that partner is several characters long or has several
partners itself, else (a pair seen once each way, which cannot be told
apart) the smaller of the two code points, the same for both.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

from paris_tui.core.text import without_invisible

__all__ = ["folded", "prepare_names", "same_name", "skeleton"]

_MARKS = str.maketrans("", "", "\u200e\u200f")  # the table's comments wrap RTL text in these


def folded(name: str) -> str:
    """The name as an account's key: NFKC, case-folded, NFKC again."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _table() -> dict[str, list[str]]:
    """The package's table: each string -> the strings it is confusable with."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    raw: dict[str, list[dict[str, str]]] = json.loads(data)
    table: dict[str, list[str]] = {}
    for key, entries in raw.items():
        clean = key.translate(_MARKS)
        if clean:
            table.setdefault(clean, []).extend(
                e["c"].translate(_MARKS) for e in entries if e["c"].translate(_MARKS)
            )
    return table


def _prototype_in(table: dict[str, list[str]], char: str) -> str:
    partners = table.get(char)
    if not partners or len(partners) > 1:
        return char  # not in the table, or the prototype of several characters
    (other,) = partners
    if len(other) > 1 or len(table.get(other, ())) > 1:
        return other  # a source: ``other`` is its prototype
    return min(char, other)  # a pair that maps one way: the same choice for both


@functools.cache
def _prototypes() -> dict[str, str]:
    """Character -> its prototype, for the characters that have another (built once;
    the package's whole table is dropped after)."""
    table = _table()
    found = {}
    for key in table:
        if len(key) == 1:
            proto = _prototype_in(table, key)
            if proto != key:
                found[key] = proto
    return found


def _prototype(char: str) -> str:
    return _prototypes().get(char, char)


def _mapped(text: str) -> str:
    return "".join(_prototype(c) for c in unicodedata.normalize("NFD", text))


def prepare_names() -> None:
    """Build the table of look-alike characters now (about 50 ms of CPU the first
    :func:`skeleton` would spend: a door calls this as it opens, not at a login)."""
    _prototypes()


def skeleton(name: str) -> str:
    """The UTS #39 skeleton of the name, folded; mapped once before case folding
    ("I" looks like "l", "i" does not) and once after (see the module's words).
    What draws as nothing (:func:`~paris_tui.core.text.invisible`: default-ignorable
    code points, the braille blank) is dropped first, as UTS #39 says: a name kept
    from before the rule refused them clashes with the name without them."""
    once = folded(_mapped(without_invisible(unicodedata.normalize("NFKC", name))))
    return folded(_mapped(once))


def same_name(a: str, b: str) -> bool:
    """Whether two names would be one account, or one looks like the other."""
    return folded(a) == folded(b) or skeleton(a) == skeleton(b)
