"""The translation catalogs: extract, update, compile and check them (Babel's tools).

Usage (from the repository root, with the dev tools: ``bash scripts/_venv.sh dev``)::

    .venv/bin/python scripts/i18n.py update    # extract the marked strings, merge into each .po
    .venv/bin/python scripts/i18n.py compile   # .po -> .mo (what the game reads)
    .venv/bin/python scripts/i18n.py check     # what tests/test_i18n.py checks
    .venv/bin/python scripts/i18n.py merge     # a git conflict in a .po: keep both sides

After changing a marked string: ``update``, translate the new or changed
entries in each ``paris_tui/locale/<lang>/LC_MESSAGES/paris_tui.po`` (an
entry whose English changed is marked ``fuzzy``: check it, remove the flag),
then ``compile``. No template (.pot) is kept: it is made from the source each
time. Extraction keeps no source locations, so two branches adding strings
rarely touch the same lines.
"""

from __future__ import annotations

import datetime
import io
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "paris_tui"
LOCALE_DIR = PACKAGE / "locale"
DOMAIN = "paris_tui"
# Catalog folders (gettext's names) of the languages we ship besides English.
CATALOGS = ("de", "zh_TW")
COMMENT_TAGS = ("Translators:",)
# Babel's keywords, and NP_(context, message): a context marked where it is defined.
KEYWORDS = {**DEFAULT_KEYWORDS, "NP_": ((1, "c"), 2)}
# Fixed header fields: a date that changed at each update would make every two
# branches that touch a catalog conflict on it.
_DATE = datetime.datetime(2026, 11, 30, tzinfo=datetime.UTC)
_HEADER = "# {lang} translations of paris-tui (see GLOSSARY.md for the game's words).\n#"
# Placeholders a translation must keep: {name}, {n:>3}, %s, %(name)s.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]|%[sd]")


def extract() -> Catalog:
    """Every marked string of the package, as a fresh template."""
    template = Catalog(
        project="paris-tui", domain=DOMAIN, fuzzy=False, creation_date=_DATE, revision_date=_DATE
    )
    method_map = [("**.py", "python")]
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE),
        method_map=method_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    ):
        template.add(
            message,
            None,
            [(str(Path("paris_tui") / filename), lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def _show(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def write_catalog(lang: str, catalog: Catalog) -> None:
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, no_location=True, omit_header=False, sort_output=True)
    path.write_bytes(buffer.getvalue())


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def update() -> None:
    template = extract()
    for lang in CATALOGS:
        if po_path(lang).is_file():
            catalog = read_catalog(lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="paris-tui", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=False)
        catalog.header_comment = _HEADER.format(lang=catalog.locale_identifier)
        catalog.revision_date = _DATE
        catalog.last_translator = "paris-tui developers"
        catalog.language_team = "paris-tui developers"
        catalog.obsolete.clear()  # stale entries go; git keeps their history
        write_catalog(lang, catalog)
        print(f"{po_path(lang).relative_to(ROOT)}: {len(catalog)} entries")


def compile_all() -> None:
    for lang in CATALOGS:
        mo = po_path(lang).with_suffix(".mo")
        mo.write_bytes(compiled(read_catalog(lang)))
        print(f"{mo.relative_to(ROOT)} written")


def _key(message: Message) -> tuple[str, str | None]:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return msgid, message.context


def _strings(message: Message) -> Iterator[tuple[str, str]]:
    """(English, translation) pairs of an entry: one, or each plural form."""
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strs = [message.string] if isinstance(message.string, str) else list(message.string)
    for i, text in enumerate(strs):
        yield ids[min(i, len(ids) - 1)], text


def problems(langs: Iterable[str] = CATALOGS) -> list[str]:
    """What is wrong with the catalogs: one line per problem (empty: all good)."""
    found: list[str] = []
    template = extract()
    wanted = {_key(m) for m in template if m.id}
    for lang in langs:
        if not po_path(lang).is_file():
            found.append(f"{lang}: no catalog {_show(po_path(lang))}")
            continue
        catalog = read_catalog(lang)
        have = {_key(m): m for m in catalog if m.id}
        for key in sorted(wanted - have.keys(), key=str):
            found.append(f"{lang}: not in the catalog (run update): {key[0]!r}")
        for key in sorted(have.keys() - wanted, key=str):
            found.append(f"{lang}: stale, no longer in the source (run update): {key[0]!r}")
        for key, message in sorted(have.items(), key=lambda kv: str(kv[0])):
            if key not in wanted:
                continue
            if message.fuzzy:
                found.append(f"{lang}: fuzzy (check it, remove the flag): {key[0]!r}")
            for english, text in _strings(message):
                if not text:
                    found.append(f"{lang}: not translated: {english!r}")
                elif sorted(_PLACEHOLDER.findall(english)) != sorted(_PLACEHOLDER.findall(text)):
                    found.append(f"{lang}: placeholders differ: {english!r} -> {text!r}")
        mo = po_path(lang).with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != compiled(catalog):
            found.append(f"{lang}: {_show(mo)} is not compiled from the .po (compile)")
    return found


def merge_conflicts() -> None:
    """After a git merge or rebase stopped on a .po conflict: merge each entry three ways.

    Reads the three versions of each conflicted catalog from git's index (stage 1
    the common ancestor, 2 ours, 3 theirs). For each entry: a side that changed
    its translation since the ancestor wins over one that did not, so a branch
    that corrected wording keeps its corrections however the merge is ordered;
    where both changed it, ours is kept and the entry is listed; an untranslated
    or fuzzy side never wins over a translated one. Then updates and compiles.
    """
    import subprocess

    def stage(n: int, rel: str, lang: str) -> Catalog | None:
        shown = subprocess.run(
            ["git", "show", f":{n}:{rel}"], cwd=ROOT, capture_output=True, check=False
        )
        if shown.returncode != 0:
            return None
        return read_po(io.BytesIO(shown.stdout), locale=lang, domain=DOMAIN)

    def usable(message: Message | None) -> bool:
        return message is not None and not message.fuzzy and all(t for _, t in _strings(message))

    def put(catalog: Catalog, message: Message) -> None:
        # Catalog's [] keeps an existing entry's string: replace it whole.
        catalog.delete(message.id, context=message.context)
        catalog[message.id] = message

    for lang in CATALOGS:
        rel = str(po_path(lang).relative_to(ROOT))
        ours, theirs = stage(2, rel, lang), stage(3, rel, lang)
        if ours is None or theirs is None:
            continue
        base = stage(1, rel, lang) or Catalog(locale=lang, domain=DOMAIN)
        for message in theirs:
            if not message.id or not usable(message):
                continue
            mine = ours.get(message.id, message.context)
            old = base.get(message.id, message.context)
            if not usable(mine):
                put(ours, message)
                continue
            assert mine is not None
            theirs_changed = old is None or old.string != message.string
            ours_changed = old is None or old.string != mine.string
            if theirs_changed and not ours_changed:
                put(ours, message)
            elif theirs_changed and mine.string != message.string:
                print(f"{rel}: both sides changed {message.id!r}; kept ours", file=sys.stderr)
        write_catalog(lang, ours)
        print(f"{rel}: merged three ways")
    update()
    compile_all()


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) == 2 else ""
    if command == "update":
        update()
    elif command == "merge":
        merge_conflicts()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        print(f"{len(found)} problems")
        return 1 if found else 0
    else:
        print("usage: scripts/i18n.py update|compile|check|merge", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
