"""Languages: choosing one, the catalogs being complete and compiled, lookups."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from paris_tui import i18n

ROOT = Path(__file__).resolve().parent.parent


def _tools() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_tools", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("i18n_tools", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("de", "de"),
        ("de_DE.UTF-8", "de"),
        ("de-AT", "de"),
        ("zh-TW", "zh-TW"),
        ("zh_TW.UTF-8", "zh-TW"),
        ("zh_HK.Big5", "zh-TW"),
        ("zh-Hant", "zh-TW"),
        ("ZH_tw", "zh-TW"),
        ("en_GB.UTF-8", "en"),
        ("C", "en"),
        ("POSIX", "en"),
        ("C.UTF-8", "en"),
        ("zh_CN.UTF-8", None),
        ("fr_FR.UTF-8", None),
        ("", None),
    ],
)
def test_normalize_language(text: str, tag: str | None) -> None:
    assert i18n.normalize_language(text) == tag


def test_resolve_order_flag_env_settings_locale_english() -> None:
    env = {"PARIS_TUI_LANG": "de", "LANG": "zh_TW.UTF-8"}
    assert i18n.resolve_language("zh-TW", env, saved="de") == "zh-TW"
    assert i18n.resolve_language(None, env, saved="zh-TW") == "de"
    assert i18n.resolve_language(None, {"LANG": "de_DE.UTF-8"}, saved="zh-TW") == "zh-TW"
    assert i18n.resolve_language(None, {"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.resolve_language(None, {}) == "en"
    # A language we lack anywhere is passed over, never an error.
    assert i18n.resolve_language(None, {"PARIS_TUI_LANG": "xx", "LANG": "fr_FR"}) == "en"


def test_locale_variables_in_posix_order() -> None:
    env = {"LANG": "de_DE.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8", "LC_ALL": ""}
    assert i18n.language_from_locale(env) == "zh-TW"
    env["LC_ALL"] = "C"
    assert i18n.language_from_locale(env) == "en"


def test_unknown_flag_is_one_line_error() -> None:
    with pytest.raises(
        ValueError, match=r"unknown language 'klingon' \(choose from en, zh-TW, de\)"
    ):
        i18n.resolve_language("klingon", {})


def test_lookup_follows_the_current_language() -> None:
    msg = "unknown language {lang!r} (choose from {choices})"
    assert i18n._(msg) == msg
    i18n.set_language("de")
    assert i18n.current_language() == "de"
    assert i18n._(msg).startswith("unbekannte Sprache")
    i18n.set_language("zh-TW")
    assert i18n._(msg).startswith("不支援的語言")
    i18n.set_language("en")
    assert i18n._(msg) == msg
    with pytest.raises(ValueError):
        i18n.set_language("fr")


def test_plural_forms_come_from_each_catalog() -> None:
    # German has two forms, Traditional Chinese one (the catalogs' headers say).
    assert i18n.translations("de").ngettext("a", "b", 1) == "a"
    assert i18n.translations("de").ngettext("a", "b", 2) == "b"
    plural = i18n.translations("zh-TW").plural  # type: ignore[attr-defined]
    assert {plural(n) for n in (0, 1, 2, 5)} == {0}
    de_plural = i18n.translations("de").plural  # type: ignore[attr-defined]
    assert [de_plural(n) for n in (0, 1, 2)] == [1, 0, 1]


def test_gettext_finds_the_singular_of_a_plural_entry_on_every_python() -> None:
    """A string marked with both _() and ngettext() is one plural entry of the catalog;
    Python 3.11.2 (Debian 12's python3) found it by ngettext only (issue 18)."""
    import io

    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    source = Catalog(locale="de", domain="test")
    source.add(("a tile", "{n} tiles"), ("eine Karte", "{n} Karten"))
    source.add(("a stop", "{n} stops"), ("ein Halt", "{n} Halte"), context="bus")
    compiled = io.BytesIO()
    write_mo(compiled, source)
    compiled.seek(0)
    catalog = i18n._Catalog(compiled)
    assert catalog.gettext("a tile") == "eine Karte"
    assert catalog.ngettext("a tile", "{n} tiles", 2) == "{n} Karten"
    assert catalog.pgettext("bus", "a stop") == "ein Halt"
    assert catalog.gettext("not in it") == "not in it"
    assert catalog.pgettext("bus", "not in it") == "not in it"
    # The shipped catalogs are read this way: argparse's "expected %s argument" is one.
    assert i18n.translations("de").gettext("expected %s argument") == "%s Argument erwartet"


def test_catalogs_complete_current_and_compiled() -> None:
    """Every marked string is translated in every catalog, none is stale or fuzzy,
    placeholders are kept, and each .mo is compiled from its .po."""
    problems = _tools().problems()
    assert problems == [], (
        "\n".join(problems[:40]) + f"\n({len(problems)} in all; see scripts/i18n.py)"
    )


def test_check_finds_a_missing_translation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog check can fail: an emptied translation and a stale entry are reported."""
    tools = _tools()
    fake = tmp_path / "locale"
    for lang in tools.CATALOGS:
        src = tools.po_path(lang)
        dst = fake / lang / "LC_MESSAGES" / src.name
        dst.parent.mkdir(parents=True)
        text = src.read_text(encoding="utf-8")
        if lang == "de":
            text = re.sub(r'msgstr "unbekannte Sprache[^\n]*', 'msgstr ""', text)
            text += '\nmsgid "a string no code has"\nmsgstr "x"\n'
        dst.write_text(text, encoding="utf-8")
        dst.with_suffix(".mo").write_bytes(src.with_suffix(".mo").read_bytes())
    monkeypatch.setattr(tools, "LOCALE_DIR", fake)
    found = "\n".join(tools.problems())
    assert "de: not translated: 'unknown language" in found
    assert "de: stale, no longer in the source (run update): 'a string no code has'" in found
    assert "de.mo" not in found
    assert f"de: {fake / 'de' / 'LC_MESSAGES' / 'paris_tui.mo'} is not compiled" in found
    assert "zh_TW:" not in found
