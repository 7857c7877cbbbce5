"""Every test starts in English, whatever the machine's locale or the shell's PARIS_TUI_LANG,
and with folders of its own, never the user's (``user_dirs``).

Tests that choose a language set it themselves (monkeypatch.setenv, --lang,
i18n.set_language); the language is English again after each test.

``user_dirs`` (a plugin) points ``HOME``, the ``XDG_*`` user folders and
``PARIS_TUI_DATA_DIR`` at the session's own folder and drops the other
``PARIS_TUI_*`` before any test or fixture runs, and fails the run if anything
is written in the user's own paris-tui folders; :func:`_own_folders` gives each
test fresh ones, so that no test sees another's files.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from paris_tui import i18n

pytest_plugins = ["user_dirs"]

# What decides a language or a glyph set (i18n.resolve_language, the locale).
_CHOOSERS = ("PARIS_TUI_LANG", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANGUAGE")


@pytest.fixture(autouse=True)
def _own_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh HOME, XDG user folders and data directory for each test (monkeypatch puts
    the session's back afterwards); subprocesses a test starts inherit them."""
    from user_dirs import clean_environment  # the plugin's, imported by pytest first

    clean = dict(os.environ)
    clean_environment(clean, tmp_path_factory.mktemp("env"))
    for name in [key for key in os.environ if key not in clean]:
        monkeypatch.delenv(name)
    for name, value in clean.items():
        if os.environ.get(name) != value:
            monkeypatch.setenv(name, value)


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in _CHOOSERS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(autouse=True)
def _unicode_drawing() -> Iterator[None]:
    """Each test starts drawing in Unicode: an app in ascii sets two things for its whole
    process (the glyph set and Textual's scrollbar renderer), and a test's app that is
    not a ``ParisApp`` (snapshots of one screen) would draw the scrollbars of the test
    before it. Only what a test imported is put back, so core tests import no Textual."""
    yield
    glyphs = sys.modules.get("paris_tui.app.look.glyphs")
    if glyphs is not None:
        glyphs.set_glyphs("unicode")
    scrollbar = sys.modules.get("textual.scrollbar")
    if scrollbar is not None:
        scrollbar.ScrollBar.renderer = scrollbar.ScrollBarRender
