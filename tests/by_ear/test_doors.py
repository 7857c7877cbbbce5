"""Play by ear through the doors: the SSH door turns it on only when the client
sends PARIS_TUI_SCREEN_READER (``ssh -o SetEnv=...``), never from the host's own environment;
the browser door's page turns on xterm.js's screen-reader mode with ``?screen-reader=1``."""

from __future__ import annotations

import pytest

from paris_tui.doors.ssh import app_environment
from paris_tui.doors.web import _PAGE
from paris_tui.reader import ENV


def test_the_ssh_door_passes_the_clients_wish_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert app_environment(None, "xterm", {ENV: "1"})[ENV] == "1"
    assert ENV not in app_environment(None, "xterm", {})
    assert ENV not in app_environment(None, "xterm", {ENV: "0"})
    assert app_environment(None, "xterm", {ENV: "yes\x1b[2J"}).get(ENV) in (None, "1")
    monkeypatch.setenv(ENV, "1")  # the host's own setting is not every player's
    assert ENV not in app_environment(None, "xterm", {})


def test_the_browser_page_can_turn_on_xterms_screen_reader_mode() -> None:
    assert "screen-reader" in _PAGE and "screenReaderMode:!0" in _PAGE
    assert '"allowProposedApi:!0,"' in _PAGE  # the option textual.js is patched beside
    # Unless asked, the page loads textual.js itself, unchanged.
    assert """document.write('<script src="/static/js/textual.js"><\\/script>');""" in _PAGE


def test_the_pinned_textual_serve_still_has_the_option_the_page_patches() -> None:
    from importlib import resources

    script = resources.files("textual_serve") / "static" / "js" / "textual.js"
    assert script.read_text(encoding="utf-8").count("allowProposedApi:!0,") == 1
