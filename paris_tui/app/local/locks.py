"""One writer per game: an advisory lock on a lock file beside each save.

A game that is open for play holds an exclusive :func:`fcntl.flock` on
``.<save name>.lock`` in the save's folder (``saves/.game-X.json.lock`` for
``saves/game-X.json``). The operating system drops the lock when the
process ends, however it ends, so a ``kill -9`` or a lost SSH connection
leaves no stale lock behind, only an unlocked lock file that the next
acquirer reuses (or :func:`paris_tui.app.local.storage.clean_saves` removes).

Protocol (the usual one for flock on a file that may be removed):

- acquire: open (create) the lock file, ``flock(LOCK_EX | LOCK_NB)``, then
  check that the path still names the inode that was locked (a releasing
  holder may have unlinked it in between); if not, start again;
- release: unlink the lock file while still holding the lock, then close;
- probe (:func:`is_locked`): open the lock file read-only without creating
  it and try a shared lock for an instant. A probe can make a concurrent
  acquirer see a lock for that instant, so :func:`try_lock` retries a few
  times over ~0.1 s before reporting a game as held.

The lock file holds the holder's process id (for messages only; the lock,
not the number, is what counts).

Locking is advisory: it protects a game from other copies of paris-tui,
not from an editor. Windows is not supported for locking: where
:mod:`fcntl` is missing, :data:`LOCKING` is false, :func:`try_lock` always
succeeds with a lock that holds nothing and :func:`is_locked` is always
false, so the app works as before (one copy at a time is the user's
business there).
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path
from types import ModuleType

from paris_tui.i18n import _

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

__all__ = [
    "LOCKING",
    "GameInUseError",
    "GameLock",
    "acquire",
    "is_locked",
    "lock_holder",
    "lock_path",
    "try_lock",
]

LOCKING = fcntl is not None
_BUSY = (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK)
_TRIES = 5  # attempts over ~0.1 s before a game counts as held by someone else
_RETRY_PAUSE = 0.02
_INODE_RACES = 20  # bound on "the file was replaced under us" restarts


def lock_path(save: Path) -> Path:
    """The lock file of ``save``: ``.<name>.lock`` in the same folder."""
    return save.parent / f".{save.name}.lock"


class GameLock:
    """An exclusive lock on one save, held until :meth:`release` (or the process ends)."""

    def __init__(self, save: Path, fd: int | None) -> None:
        self.save = save
        self.path = lock_path(save)
        self._fd = fd
        self._released = False

    @property
    def held(self) -> bool:
        """Until :meth:`release` (without locking, a lock that holds nothing)."""
        return not self._released

    def release(self) -> None:
        """Remove the lock file and drop the lock (idempotent)."""
        self._released = True
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            if _same_file(fd, self.path):
                os.unlink(self.path)
        os.close(fd)  # closing drops the flock

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.release()

    def __repr__(self) -> str:
        return f"GameLock({str(self.save)!r}, held={self.held})"


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def _try_once(save: Path) -> GameLock | None:
    """One attempt. ``None`` if another holder has it; ``OSError`` if it cannot be made."""
    assert fcntl is not None
    path = lock_path(save)
    for _race in range(_INODE_RACES):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in _BUSY:
                return None
            raise
        if not _same_file(fd, path):
            os.close(fd)  # a releasing holder unlinked it meanwhile: lock the new one
            continue
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        return GameLock(save, fd)
    raise OSError(errno.EAGAIN, "the lock file keeps being replaced", str(path))


def try_lock(save: Path, *, patient: bool = True) -> GameLock | None:
    """Take the lock of ``save``, or ``None`` if another copy of the app holds it.

    ``patient`` retries for ~0.1 s first (a probe may hold it for an instant).
    Raises :class:`OSError` when the lock file cannot be created (a read-only
    folder): such a game could not be saved either.
    """
    if fcntl is None:  # pragma: no cover - Windows: no locking (see the module docstring)
        return GameLock(save, None)
    tries = _TRIES if patient else 1
    for attempt in range(tries):
        lock = _try_once(save)
        if lock is not None:
            return lock
        if attempt + 1 < tries:
            time.sleep(_RETRY_PAUSE)  # perhaps only a probe holding it for an instant
    return None


class GameInUseError(Exception):
    """Another copy of the app has this game open (it holds the lock)."""

    def __init__(self, save: Path) -> None:
        self.save = save
        self.pid = lock_holder(save)
        super().__init__(_("the game is open in another copy of paris-tui"))


def acquire(save: Path) -> GameLock:
    """The lock of ``save``; :class:`GameInUseError` if held, ``OSError`` if it cannot be made."""
    lock = try_lock(save)
    if lock is None:
        raise GameInUseError(save)
    return lock


def is_locked(save: Path) -> bool:
    """Whether a live process holds the lock of ``save`` (never creates anything)."""
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        fd = os.open(lock_path(save), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False  # no lock file: nobody holds it
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        return exc.errno in _BUSY
    finally:
        os.close(fd)  # also drops our shared lock at once
    return False


def lock_holder(save: Path) -> int | None:
    """The process id written in the lock file of ``save``, if any (for messages)."""
    try:
        with open(lock_path(save), "rb") as handle:
            text = handle.read(32)
    except OSError:
        return None
    try:
        pid = int(text.strip() or b"0")
    except ValueError:
        return None
    return pid if pid > 0 else None
