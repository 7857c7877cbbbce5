"""Settings survive a restart, and a damaged file never stops the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from paris_tui.app.local.settings import SETTINGS_FILE, Settings, load_settings, save_settings


def test_round_trip(tmp_path: Path) -> None:
    assert load_settings(tmp_path) == Settings()
    save_settings(Settings(language="zh-TW", glyphs="ascii"), tmp_path)
    assert load_settings(tmp_path) == Settings(language="zh-TW", glyphs="ascii")
    assert (tmp_path / SETTINGS_FILE).stat().st_mode & 0o077 == 0
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[]",
        '{"language": 7, "glyphs": "braille"}',
        '{"language": "fr"}',
        "\x00\xff",
        '{"language": "de", "pad": "' + "x" * 5000 + '"}',
    ],
)
def test_damaged_file_gives_defaults(tmp_path: Path, text: str) -> None:
    (tmp_path / SETTINGS_FILE).write_text(text, encoding="utf-8", errors="surrogateescape")
    assert load_settings(tmp_path) == Settings()


def test_unknown_keys_and_one_bad_value_keep_the_good_one(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text('{"language": "de", "glyphs": 1, "x": 2}')
    assert load_settings(tmp_path) == Settings(language="de")


def test_a_folder_in_its_place_is_not_fatal(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).mkdir()
    assert load_settings(tmp_path) == Settings()
    with pytest.raises(OSError):
        save_settings(Settings(language="de"), tmp_path)
