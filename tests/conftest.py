"""Every test starts in English, whatever the machine's locale or the shell's PARIS_TUI_LANG.

Tests that choose a language set it themselves (monkeypatch.setenv, --lang,
i18n.set_language); the language is English again after each test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from paris_tui import i18n

# What decides a language or a glyph set (i18n.resolve_language, the locale).
_CHOOSERS = ("PARIS_TUI_LANG", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANGUAGE")


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in _CHOOSERS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.set_language("en")
    yield
    i18n.set_language("en")
