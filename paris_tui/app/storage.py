"""Saved games: one record file per game in the user's data directory.

Every game autosaves after every move (atomically, through
:func:`paris_tui.core.record.save_record`) to ``<data dir>/saves/<id>.json``.
The data directory is ``platformdirs.user_data_dir("paris-tui")``, or
``$PARIS_TUI_DATA_DIR`` (tests). A file that cannot be read as a record is
reported and left exactly as it is: this module never overwrites, renames
or deletes a file it could not read.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from ..core import RecordError
from ..core.record import Record, load_record

__all__ = [
    "SaveInfo",
    "data_dir",
    "find_unfinished",
    "new_save_path",
    "read_save",
    "saves_dir",
]

ENV_DATA_DIR = "PARIS_TUI_DATA_DIR"


def data_dir() -> Path:
    """The user's data directory for paris-tui (``$PARIS_TUI_DATA_DIR`` wins)."""
    override = os.environ.get(ENV_DATA_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("paris-tui", appauthor=False))


def saves_dir() -> Path:
    return data_dir() / "saves"


def new_save_path(prefix: str = "game") -> Path:
    """A fresh, unused file name for a new game's autosave."""
    folder = saves_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{prefix}-{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"{prefix}-{stamp}-{n}.json"
        n += 1
    return path


@dataclass(frozen=True, slots=True)
class SaveInfo:
    """A save file that was read: its record and whether the game is finished."""

    path: Path
    record: Record
    finished: bool
    moves: int
    total_moves: int

    @property
    def title(self) -> str:
        names = ", ".join(p.name for p in self.record.players)
        rounds = self.total_moves // len(self.record.players)
        done = self.moves // len(self.record.players)
        return f"{names} · round {min(done + 1, rounds)} of {rounds}"


def read_save(path: Path) -> SaveInfo:
    """Read and validate a save. Raises :class:`RecordError` (the file is untouched)."""
    record = load_record(path)
    stacks = len(record.setup.stacks)
    total = stacks * len(record.players)
    return SaveInfo(path, record, len(record.moves) >= total, len(record.moves), total)


def find_unfinished() -> tuple[SaveInfo | None, list[tuple[Path, str]]]:
    """The most recently saved unfinished game, and the files that could not be read.

    Unreadable files are listed with the reason and never touched.
    """
    folder = saves_dir()
    if not folder.is_dir():
        return None, []
    problems: list[tuple[Path, str]] = []
    best: tuple[float, SaveInfo] | None = None
    for path in folder.glob("*.json"):
        try:
            info = read_save(path)
            mtime = path.stat().st_mtime
        except RecordError as exc:
            problems.append((path, str(exc)))
            continue
        except OSError as exc:
            problems.append((path, exc.strerror or str(exc)))
            continue
        if info.finished:
            continue
        if best is None or mtime > best[0]:
            best = (mtime, info)
    return (best[1] if best else None), problems
