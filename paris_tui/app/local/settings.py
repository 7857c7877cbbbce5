"""The player's settings, kept between runs: ``<data dir>/settings.json``.

What is kept: the language chosen in the app and the glyph set; for play by
ear, ``bell on`` (a BEL when it is one's turn) and ``brief`` (a tour in one line). A setting the
player never chose is absent (None), so the next run decides it afresh
(``--lang``, ``PARIS_TUI_LANG``, the locale; ``--glyphs``, the locale). The
file is written atomically; a missing, unreadable or damaged file gives the
defaults and is never fatal to play (it is rewritten at the next change).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from paris_tui.app.local.storage import data_dir
from paris_tui.core.record import write_text_atomic
from paris_tui.glyph_sets import GLYPH_SETS
from paris_tui.i18n import LANGUAGES

__all__ = ["GLYPH_SETS", "SETTINGS_FILE", "Settings", "load_settings", "save_settings"]

SETTINGS_FILE = "settings.json"
_MAX_BYTES = 4096


@dataclass(frozen=True)
class Settings:
    language: str | None = None  # one of i18n.LANGUAGES, or None: not chosen
    glyphs: str | None = None  # one of GLYPH_SETS, or None: chosen from the locale
    bell: bool = False  # play by ear: a BEL when it is one's turn
    brief: bool = False  # play by ear: a grand or special tour in one line

    def with_changes(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def _path(folder: Path | None) -> Path:
    return (folder if folder is not None else data_dir()) / SETTINGS_FILE


def load_settings(folder: Path | None = None) -> Settings:
    """The saved settings; the defaults when there are none or they cannot be read."""
    path = _path(folder)
    try:
        if not path.is_file() or path.stat().st_size > _MAX_BYTES:
            return Settings()
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    language = data.get("language")
    glyphs = data.get("glyphs")
    return Settings(
        language=language if language in LANGUAGES else None,
        glyphs=glyphs if glyphs in GLYPH_SETS else None,
        bell=data.get("bell") is True,
        brief=data.get("brief") is True,
    )


def save_settings(settings: Settings, folder: Path | None = None) -> None:
    """Keep ``settings`` (atomically). Raises OSError when the data directory is not writable."""
    path = _path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(asdict(settings), indent=2) + "\n")
