"""The glyph sets: what each draws, and which one a run picks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from rich.cells import cell_len

from paris_tui.app.local.settings import GLYPH_SETS as SETTINGS_GLYPH_SETS
from paris_tui.app.look import glyphs
from paris_tui.app.look.glyphs import (
    ASCII,
    GLYPH_SETS,
    UNICODE,
    current_glyphs,
    glyphs_for,
    glyphs_from_locale,
    resolve_glyphs,
    set_glyphs,
)
from paris_tui.core.board import classic_board


@pytest.fixture(autouse=True)
def unicode_after() -> Iterator[None]:
    yield
    set_glyphs("unicode")


def _chars(value: object) -> str:
    return "".join(value) if isinstance(value, tuple) else str(value)


def test_the_sets() -> None:
    assert GLYPH_SETS == ("unicode", "ascii")
    assert SETTINGS_GLYPH_SETS is GLYPH_SETS  # one list, kept in one place
    assert glyphs_for("unicode") is UNICODE and glyphs_for("ascii") is ASCII
    with pytest.raises(ValueError):
        glyphs_for("emoji")


def test_ascii_draws_only_ascii() -> None:
    for f in fields(ASCII):
        assert _chars(getattr(ASCII, f.name)).isascii(), f.name


def test_unicode_set_is_the_one_drawn_so_far() -> None:
    assert UNICODE.players == ("●", "▲", "■", "◆")
    assert (UNICODE.arrow, UNICODE.ellipsis, UNICODE.laps) == ("→", "…", "↻")


def test_map_characters_take_one_cell_in_both_sets() -> None:
    # the layout swaps them cell for cell: each must be one character of one cell
    for unicode in UNICODE.map_table():
        assert len(unicode) == 1 and cell_len(unicode) == 1
    for unicode, other in ASCII.map_table().items():
        assert len(other) == 1 and other.isascii(), (unicode, other)
    assert len(ASCII.map_table()) == len(UNICODE.map_table())


def test_players_told_apart_without_colour() -> None:
    for g in (UNICODE, ASCII):
        assert len(set(g.players)) == len(g.players) == 4
        assert g.bus not in g.players and g.slot not in g.players
        # no player looks like a line letter or a track
        assert not set(g.players) & set("BYRPG")
        others = {v for k, v in g.map_table().items() if k not in UNICODE.players}
        assert not set(g.players) & others


def test_stop_names_lose_their_accents_in_ascii_only() -> None:
    assert ASCII.name_of("Opéra") == "Opera"
    assert ASCII.name_of("Étoile") == "Etoile"
    assert ASCII.name_of("Gare de l’Est") == "Gare de l'Est"
    assert ASCII.name_of("Hôtel de Ville") == "Hotel de Ville"
    assert ASCII.name_of("Straße") == "Strasse"
    assert ASCII.name_of("東京") == "東京"  # wide everywhere: kept
    assert ASCII.name_of("a\u0301") == "a"  # decomposed input too
    assert UNICODE.name_of("Ope\u0301ra") == "Opéra"  # Unicode: NFC, accents kept
    for stop in classic_board().stops:
        assert ASCII.name_of(stop.name).isascii()


def test_translate_map() -> None:
    assert ASCII.translate_map("─│╭╮╰╯╱╲┼╳━┃╋·▣●▲■◆(x)") == "-|++++/\\+X=|+.&@*#%(x)"
    assert UNICODE.translate_map("─╳●") == "─╳●"


def test_current_glyphs() -> None:
    assert current_glyphs() is UNICODE
    set_glyphs("ascii")
    assert current_glyphs() is ASCII
    with pytest.raises(ValueError):
        set_glyphs("nope")
    assert current_glyphs() is ASCII


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "unicode"),
        ({"LANG": "en_US.UTF-8"}, "unicode"),
        ({"LANG": "de_DE.UTF-8"}, "unicode"),
        ({"LANG": "zh_TW.UTF-8"}, "ascii"),
        ({"LANG": "zh_CN.UTF-8"}, "ascii"),
        ({"LANG": "ja_JP.UTF-8"}, "ascii"),
        ({"LANG": "ko_KR.eucKR"}, "ascii"),
        ({"LANG": "zh-Hant"}, "ascii"),
        ({"LANG": "C"}, "unicode"),
        ({"LC_CTYPE": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}, "ascii"),
        ({"LC_ALL": "en_US.UTF-8", "LC_CTYPE": "ja_JP.UTF-8"}, "unicode"),
        ({"LC_ALL": "", "LC_CTYPE": "", "LANG": "ko_KR"}, "ascii"),
        # LC_MESSAGES says which words, not how wide characters are
        ({"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "unicode"),
    ],
)
def test_glyphs_from_locale(environ: dict[str, str], expected: str) -> None:
    assert glyphs_from_locale(environ) == expected
    assert resolve_glyphs(None, environ, None) == expected


def test_resolve_order() -> None:
    cjk = {"LANG": "zh_TW.UTF-8"}
    # --glyphs beats everything
    env = {"PARIS_TUI_GLYPHS": "ascii", **cjk}
    assert resolve_glyphs("unicode", env, "ascii") == "unicode"
    assert resolve_glyphs("ASCII", {}, "unicode") == "ascii"
    # then the environment variable, then the settings, then the locale
    assert resolve_glyphs(None, {"PARIS_TUI_GLYPHS": "unicode", **cjk}, "ascii") == "unicode"
    assert resolve_glyphs(None, cjk, "unicode") == "unicode"
    assert resolve_glyphs(None, {"LANG": "en_US.UTF-8"}, "ascii") == "ascii"
    # names that are no set are passed over
    assert resolve_glyphs(None, {"PARIS_TUI_GLYPHS": "fancy", **cjk}, "bogus") == "ascii"
    assert resolve_glyphs(None, {"PARIS_TUI_GLYPHS": ""}, None) == "unicode"


def test_resolve_reads_os_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_CTYPE", "PARIS_TUI_GLYPHS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ko_KR.UTF-8")
    assert resolve_glyphs() == "ascii"


def test_a_bad_request_is_one_line() -> None:
    with pytest.raises(ValueError) as caught:
        resolve_glyphs("emoji", {}, None)
    message = str(caught.value)
    assert "\n" not in message and "emoji" in message and "unicode, ascii" in message


def test_module_state_is_one_set() -> None:
    assert glyphs.DEFAULT_GLYPHS in GLYPH_SETS


def test_cuts_end_with_the_sets_ellipsis() -> None:
    from rich.text import Text

    from paris_tui.app.terminal.fit import Fit, cut, cut_text

    assert cut("Gare du Nord", 8) == "Gare du…"
    set_glyphs("ascii")
    assert cut("Gare du Nord", 8) == "Gare..."  # the space before the dots is dropped
    assert cut("Gare du Nord", 3) == "Gar" and cut("Gare", 4) == "Gare"
    two = cut_text(Text("abcdefgh\nxy"), 6)
    assert two.plain == "abc...\nxy"
    assert cell_len(cut("王小明王小明", 7)) <= 7
    from rich.console import Console

    console = Console(width=7, color_system=None, legacy_windows=False)
    with console.capture() as captured:
        console.print(Fit([Text("a long line")]))
    assert captured.get().rstrip("\n") == "a lo..."


def test_ascii_words_leave_no_glyph_a_cjk_terminal_draws_wide() -> None:
    """Every sentence of every catalog (the English too), in ASCII words, holds no
    character of ambiguous width but the Latin letters of Latin-1 (a CJK terminal
    draws the ambiguous ones two cells wide: what the ascii set is for); the rating's
    "3σ" was one."""
    import unicodedata

    from babel.messages.pofile import read_po

    from paris_tui.i18n import LOCALE_DIR

    left: set[str] = set()
    for po in sorted(Path(LOCALE_DIR).glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in (*ids, *strings):
                for ch in ASCII.words(text or ""):
                    latin = "\u00a0" <= ch <= "\u00ff" and ch.isalpha()
                    if unicodedata.east_asian_width(ch) == "A" and not latin:
                        left.add(f"{ch} U+{ord(ch):04X} in {po.parent.parent.name}: {text[:40]}")
    assert not left, sorted(left)
    assert ASCII.words("mu − 3σ") == "mu - 3 sigma"


def test_words_borrow_the_sets_glyphs() -> None:
    from paris_tui import i18n
    from paris_tui.app.look.glyphs import _WORDS

    text = "Tiles · round 2/3 — Ann → sack… ●+1 ↻2 ±0 ★"
    assert UNICODE.words(text) == text
    assert ASCII.words(text) == "Tiles - round 2/3 - Ann -> sack... @+1 ~2 +-0 *"
    assert ASCII.words("王小明：開店…") == "王小明：開店..."  # letters and wide marks stay
    assert ASCII.words("巴士出發……") == "巴士出發..."  # the Chinese ellipsis: one "..."
    assert ASCII.words("„Louvre“") == '"Louvre"'  # German quotes
    assert ASCII.words("Größe") == "Größe"
    # the same characters as the set's own fields
    for f in fields(UNICODE):
        mine, theirs = getattr(UNICODE, f.name), getattr(ASCII, f.name)
        if isinstance(mine, tuple):
            for a, b in zip(mine, theirs, strict=True):
                assert _WORDS[ord(a)] == b
        elif f.name in ("slot", "track_space"):
            assert _WORDS[ord(mine)] == ASCII.dot  # "·" in a sentence separates: "-"
        elif len(mine) == 1 and ord(mine) in _WORDS:
            assert _WORDS[ord(mine)] == theirs, f.name
    # every word looked up is shown so, in any language, while ascii is in use
    set_glyphs("ascii")
    i18n.set_language("de")
    try:
        assert i18n._("Map needs {need} cells (have {have})").isascii()
        assert i18n.gettext("a → b") == "a -> b"  # no catalog entry: the English, shown so
    finally:
        i18n.set_language("en")
    set_glyphs("unicode")
    assert i18n.gettext("a → b") == "a → b"


def test_the_hints_margins_in_ascii() -> None:
    from paris_tui.app.widgets.hint import margin_text

    assert (margin_text(0.01), margin_text(-1.44), margin_text(3.2)) == ("±0.0", "−1.4", "+3.2")
    set_glyphs("ascii")
    assert (margin_text(0.01), margin_text(-1.44), margin_text(3.2)) == ("+-0.0", "-1.4", "+3.2")


def _glyphs_in_a_fresh_process(tmp_path: Path, **env: str) -> tuple[str, str]:
    """(LC_CTYPE as Python left it, the glyph set chosen) in a new interpreter."""
    import subprocess
    import sys

    code = (
        "import os; from paris_tui.app.look.glyphs import choose_glyphs; "
        "print(os.environ.get('LC_CTYPE', ''), choose_glyphs())"
    )
    base = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PARIS_TUI_DATA_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    return (out[0], out[1]) if len(out) == 2 else ("", out[0])


def test_a_cjk_locale_the_machine_lacks_draws_ascii(tmp_path: Path) -> None:
    """LANG=zh_TW.UTF-8 where that locale is not installed: Python coerces
    LC_CTYPE to C.UTF-8 at start-up; the glyphs follow what the user set, not that."""
    ctype, glyphs = _glyphs_in_a_fresh_process(tmp_path, LANG="zh_TW.UTF-8")
    # On a machine without zh_TW (this one, CI's) Python coerced it; with it, LANG decides.
    assert ctype in ("", "C.UTF-8", "C.utf8", "UTF-8")
    assert glyphs == "ascii"
    # What the user set still decides: LC_CTYPE as given, LC_ALL above all.
    assert _glyphs_in_a_fresh_process(tmp_path, LANG="zh_TW.UTF-8", LC_CTYPE="C.UTF-8")[1] == (
        "unicode"
    )
    assert _glyphs_in_a_fresh_process(tmp_path, LANG="en_US.UTF-8", LC_CTYPE="ja_JP.UTF-8")[1] == (
        "ascii"
    )
    assert _glyphs_in_a_fresh_process(tmp_path, LANG="zh_TW.UTF-8", LC_ALL="C.UTF-8")[1] == (
        "unicode"
    )
    assert _glyphs_in_a_fresh_process(tmp_path, LANG="de_DE.UTF-8")[1] == "unicode"


def test_given_environ_without_proc() -> None:
    """Where the start-up environment cannot be read, a coerced-looking LC_CTYPE without
    LC_ALL is passed over (coercion's own condition); anything else stays."""
    from paris_tui.glyph_sets import given_environ

    assert "LC_CTYPE" not in given_environ({"LC_CTYPE": "C.UTF-8", "LANG": "zh_TW.UTF-8"})
    kept = {"LC_CTYPE": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}
    assert given_environ(kept) == kept
    with_all = {"LC_ALL": "C.UTF-8", "LC_CTYPE": "C.UTF-8"}
    assert given_environ(with_all) == with_all
