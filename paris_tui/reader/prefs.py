"""What play by ear remembers between runs: ``bell on|off`` and ``brief``/``verbose``, kept
in the player's settings (``settings.json`` in the data directory, beside the language)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Prefs"]


@dataclass
class Prefs:
    """The reader's two settings, and where they are kept (None: not kept, a test's)."""

    bell: bool = False
    brief: bool = False
    folder: Path | None = None
    kept: bool = False

    @classmethod
    def load(cls, folder: Path | None = None) -> Prefs:
        """The saved settings (``folder``: the data directory, else the default one)."""
        from paris_tui.app.local.settings import load_settings

        settings = load_settings(folder)
        return cls(bell=settings.bell, brief=settings.brief, folder=folder, kept=True)

    def save(self) -> bool:
        """Keep the settings, if they are kept anywhere; False if they could not be."""
        if not self.kept:
            return True
        from paris_tui.app.local.settings import load_settings, save_settings

        with contextlib.suppress(OSError):
            settings = load_settings(self.folder).with_changes(bell=self.bell, brief=self.brief)
            save_settings(settings, self.folder)
            return True
        return False
