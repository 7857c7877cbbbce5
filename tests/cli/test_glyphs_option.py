"""``--glyphs unicode|ascii`` (issue 10): every command that opens the app takes it,
before or after the command, and the app draws with the set decided before it opens:
``--glyphs``, ``PARIS_TUI_GLYPHS``, the saved setting, ascii for a CJK locale, unicode."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paris_tui.app.local.settings import Settings, save_settings
from paris_tui.app.look.glyphs import current_glyphs, set_glyphs
from paris_tui.app.start import launch
from paris_tui.cli import main


@pytest.fixture(autouse=True)
def plain_locale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[str]]:
    """An English locale, no PARIS_TUI_GLYPHS, a fresh data directory; each launch
    records the glyph set it would open the app with instead of opening it."""
    for name in ("PARIS_TUI_GLYPHS", "LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(tmp_path / "data"))
    opened: list[str] = []

    def record(*args: Any, **kwargs: Any) -> int:
        opened.append(current_glyphs().name)
        return 0

    for name in ("run_play", "run_resume", "run_default", "run_join", "run_replay"):
        monkeypatch.setattr(launch, name, record)
    yield opened
    set_glyphs("unicode")


PLAY = ["play", "--players", "Ann,Bob"]
JOIN = ["join", "127.0.0.1:7337", "--name", "Ann"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--glyphs", "ascii", *PLAY],
        [*PLAY, "--glyphs", "ascii"],
        [*PLAY, "--glyphs=ascii"],
        ["--glyphs", "ascii"],  # no command: the new-game screen
        ["resume", "--glyphs", "ascii"],
        [*JOIN, "--glyphs", "ascii"],
        ["--glyphs", "ascii", *JOIN],
    ],
)
def test_every_app_command_takes_it(argv: list[str], plain_locale: list[str]) -> None:
    assert main(argv) == 0
    assert plain_locale == ["ascii"]


def test_default_is_unicode_and_a_cjk_locale_gives_ascii(
    plain_locale: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(PLAY) == 0
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert main(PLAY) == 0
    assert main([*PLAY, "--glyphs", "unicode"]) == 0  # the user says otherwise
    monkeypatch.setenv("PARIS_TUI_GLYPHS", "unicode")
    assert main(PLAY) == 0
    assert plain_locale == ["unicode", "ascii", "unicode", "unicode"]


def test_the_saved_setting(plain_locale: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    save_settings(Settings(glyphs="ascii"))
    assert main(PLAY) == 0  # the setting beats the locale
    monkeypatch.setenv("PARIS_TUI_GLYPHS", "unicode")
    assert main(PLAY) == 0  # the environment beats the setting
    monkeypatch.delenv("PARIS_TUI_GLYPHS")
    assert main([*PLAY, "--glyphs", "unicode"]) == 0  # and --glyphs beats both
    assert plain_locale == ["ascii", "unicode", "unicode"]


def test_a_wrong_set_is_refused(
    plain_locale: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*PLAY, "--glyphs", "emoji"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "--glyphs" in err and "emoji" in err and "Traceback" not in err
    assert plain_locale == []


def test_commands_that_open_no_app_do_not_take_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--glyphs", "ascii"])
    assert "unrecognized arguments" in capsys.readouterr().err
