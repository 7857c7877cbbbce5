"""Saved games: one record file per game in the user's data directory.

Every game autosaves after every move (atomically, through
:func:`paris_tui.core.record.save_record`) to ``<data dir>/saves/<id>.json``.
The data directory is ``platformdirs.user_data_dir("paris-tui")``, or
``$PARIS_TUI_DATA_DIR`` (tests). A file that cannot be read as a record is
reported and left exactly as it is: this module never overwrites, renames
or deletes a file it could not read.

One writer per game (:mod:`paris_tui.app.local.locks`): a new game's file is
created with an exclusive create (``O_CREAT | O_EXCL``) under a name no
other game has, and an open game holds the lock of its file for as long as
it is open. :func:`open_save` takes that lock before a game is resumed;
a game locked by another copy of the app is marked ``in_use`` and can only
be watched. :func:`clean_saves` removes what dead writers left in
``saves/`` (their ``.<save>.<random>.tmp`` files and unlocked lock files),
never a save.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from paris_tui.app.local.locks import (
    LOCKING,
    GameInUseError,
    GameLock,
    is_locked,
    lock_path,
    try_lock,
)
from paris_tui.app.local.seats import check_app_record
from paris_tui.core import RecordError
from paris_tui.core.record import Record, load_record
from paris_tui.i18n import _

__all__ = [
    "SaveInfo",
    "clean_saves",
    "create_save",
    "data_dir",
    "find_unfinished",
    "open_save",
    "read_save",
    "save_problem",
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


_MAX_NAMES = 10_000  # bound on the names tried for one second's games


def _candidates(folder: Path, prefix: str) -> Iterator[Path]:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    yield folder / f"{prefix}-{stamp}.json"
    for n in range(2, _MAX_NAMES):
        yield folder / f"{prefix}-{stamp}-{n}.json"


def create_save(prefix: str = "game") -> tuple[Path, GameLock]:
    """A new game's save file, created empty under a unique name, and its lock.

    Each name is reserved by taking its lock and then creating the file with
    ``O_CREAT | O_EXCL``: of any number of copies of the app starting games
    in the same second, each gets a file of its own. The file stays empty
    (and locked, so readers skip it) until the game's first autosave.
    Raises :class:`OSError` when the saves folder cannot be written.
    """
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for path in _candidates(folder, prefix):
        if path.exists():
            continue
        lock = try_lock(path, patient=False)
        if lock is None:
            continue  # another copy is creating this very name
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            lock.release()
            continue
        except BaseException:
            lock.release()
            raise
        os.close(fd)
        return path, lock
    raise OSError(errno.EEXIST, "no free file name for a new game", str(folder))


def save_problem() -> str | None:
    """Why new games cannot be saved here (a read-only data directory), or ``None``.

    Checked for real: the saves folder is made if missing and a probe file
    created and removed (named like a save's temporary file, so that
    :func:`clean_saves` removes it if the process dies in between).
    """
    folder = saves_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-test.json.", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return _("games cannot be saved in {folder}: {reason}").format(
            folder=folder, reason=exc.strerror or exc
        )
    return None


# What :func:`paris_tui.core.record.save_record` names its temporary files.
_TMP_FILE = re.compile(r"\.(?P<save>.+\.json)\.[A-Za-z0-9_]+\.tmp")
_LOCK_FILE = re.compile(r"\.(?P<save>.+\.json)\.lock")
TMP_GRACE = 60.0  # seconds, where locks cannot tell whether a writer is alive


def clean_saves(now: float | None = None) -> list[Path]:
    """Remove what dead writers left in ``saves/``; the paths removed.

    A temporary file ``.<save>.<random>.tmp`` is removed when nobody holds
    the lock of ``<save>``: every writer holds it while it writes, so its
    writer is gone (killed mid-save). Without locking (Windows) it must
    also be older than :data:`TMP_GRACE`. An unlocked lock file (its holder
    was killed) is removed too. Nothing else is ever touched: not a save,
    not a file of another pattern, not a symbolic link.
    """
    folder = saves_dir()
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        tmp = _TMP_FILE.fullmatch(entry.name)
        stale_lock = _LOCK_FILE.fullmatch(entry.name)
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if tmp:
                save = folder / tmp["save"]
                if is_locked(save):
                    continue
                if not LOCKING and now - entry.stat(follow_symlinks=False).st_mtime < TMP_GRACE:
                    continue
                os.unlink(entry.path)
                removed.append(Path(entry.path))
            elif stale_lock and LOCKING:
                save = folder / stale_lock["save"]
                lock = try_lock(save, patient=False)
                if lock is not None:
                    lock.release()  # removes the lock file
                    if not lock_path(save).exists():
                        removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


@dataclass(frozen=True, slots=True)
class SaveInfo:
    """A save file that was read: its record and whether the game is finished."""

    path: Path
    record: Record
    finished: bool
    moves: int
    total_moves: int
    in_use: bool = False  # another copy of the app holds it (see locks)

    @property
    def title(self) -> str:
        names = ", ".join(p.name for p in self.record.players)
        rounds = self.total_moves // len(self.record.players)
        done = self.moves // len(self.record.players)
        return f"{names} · round {min(done + 1, rounds)} of {rounds}"


def read_save(path: Path) -> SaveInfo:
    """Read and validate a save. Raises :class:`RecordError` (the file is untouched).

    Beyond the record format, the app's own needs are checked here, once, for
    every way a save comes in (``resume FILE``, the resume offer): each AI
    level must exist in this installation and the ``"app"`` metadata must be
    well formed (:func:`~paris_tui.app.local.seats.check_app_record`).
    """
    record = load_record(path)
    check_app_record(record)
    stacks = len(record.setup.stacks)
    total = stacks * len(record.players)
    return SaveInfo(path, record, len(record.moves) >= total, len(record.moves), total)


def open_save(path: Path) -> tuple[SaveInfo, GameLock]:
    """A save to resume, read under its lock: the caller becomes its only writer.

    Raises :class:`RecordError` (the file is untouched),
    :class:`~paris_tui.app.local.locks.GameInUseError` when another copy holds it,
    or :class:`OSError` when no lock can be made beside it (read-only folder).
    """
    read_save(path)  # refuse an invalid file before making anything beside it
    lock = try_lock(path)
    if lock is None:
        raise GameInUseError(path)
    try:
        return read_save(path), lock  # again: the latest version, now that it is ours
    except BaseException:
        lock.release()
        raise


def find_unfinished() -> tuple[SaveInfo | None, list[tuple[Path, str]]]:
    """The most recently saved unfinished game, and the files that could not be read.

    Unreadable files are listed with the reason and never touched. A game
    open in another copy of the app comes only when there is no other, with
    ``in_use`` set; a file being created by another copy is skipped.
    """
    folder = saves_dir()
    if not folder.is_dir():
        return None, []
    problems: list[tuple[Path, str]] = []
    best: tuple[float, SaveInfo] | None = None
    busy: tuple[float, SaveInfo] | None = None
    for path in folder.glob("*.json"):
        in_use = is_locked(path)
        try:
            info = read_save(path)
            mtime = path.stat().st_mtime
        except RecordError as exc:
            if not in_use:  # in use and unreadable: being created right now
                problems.append((path, str(exc)))
            continue
        except OSError as exc:
            problems.append((path, exc.strerror or str(exc)))
            continue
        if info.finished:
            continue
        if in_use:
            if busy is None or mtime > busy[0]:
                busy = (mtime, replace(info, in_use=True))
        elif best is None or mtime > best[0]:
            best = (mtime, info)
    chosen = best or busy
    return (chosen[1] if chosen else None), problems
