"""The host's data directory: table records, seat owners, and the one-host lock.

Layout, under ``<data dir>/host/`` (mode 0700)::

    host.lock            held (flock) by the running host: one host per data dir
    tables/t1.json       table t1's game: an ordinary paris-paris-record
    tables/t1.seats.json who owns which seat: the SHA-256 of each seat's token
    archive/t7.json      a table archived as abandoned (untouched for long): out of
                         the lobby and the caps, still an ordinary record to replay

The host is the only writer of these files. Records and seat files are
written atomically (a temporary file, fsync, rename), so a kill -9 leaves
the old version or the new one. Tokens themselves are never stored: a
client keeps its token, the host keeps its hash and compares hashes with
:func:`hmac.compare_digest`.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
from pathlib import Path
from typing import IO, Any

from ..core import RecordError
from ..core.record import Record, load_record, write_text_atomic
from ..core.text import printable

__all__ = [
    "HostBusyError",
    "HostStore",
    "default_data_dir",
    "token_hash",
    "token_matches",
]

ENV_DATA_DIR = "PARIS_TUI_DATA_DIR"
SEATS_FORMAT = "paris-tui-host-seats"
_TABLE_FILE = re.compile(r"(t[0-9]{1,6})\.json")


def default_data_dir() -> Path:
    """``$PARIS_TUI_DATA_DIR``, else the user's data directory (as the app's saves)."""
    override = os.environ.get(ENV_DATA_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("paris-tui", appauthor=False))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` is the one whose hash is stored (constant time)."""
    return hmac.compare_digest(token_hash(token).encode(), stored_hash.encode())


class HostBusyError(OSError):
    """Another host process holds this data directory."""


class HostStore:
    """The files of one host under ``data_dir/host``."""

    def __init__(self, data_dir: Path) -> None:
        self.root = Path(data_dir) / "host"
        self.tables_dir = self.root / "tables"
        self.archive_dir = self.root / "archive"
        self._lock: IO[bytes] | None = None

    # --- the lock --------------------------------------------------------------

    def lock(self) -> None:
        """Create the folders and take the one-host lock (released by the OS if we die).

        Raises :class:`HostBusyError` if another host holds it, ``OSError`` if the
        directory cannot be created.
        """
        self.tables_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            os.chmod(self.root, 0o700)
        handle = open(self.root / "host.lock", "a+b")  # noqa: SIM115 - held open while serving
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no lock, one host by convention
            self._lock = handle
            return
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise HostBusyError(
                f"another paris-tui host is serving from {printable(str(self.root.parent))}"
            ) from None
        self._lock = handle

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # --- tables ------------------------------------------------------------------

    def record_path(self, table_id: str) -> Path:
        return self.tables_dir / f"{table_id}.json"

    def seats_path(self, table_id: str) -> Path:
        return self.tables_dir / f"{table_id}.seats.json"

    def table_ids(self, folder: Path | None = None) -> list[str]:
        """The ids of the tables with a record (in ``folder``, default the served
        tables'), in numeric order."""
        folder = self.tables_dir if folder is None else folder
        if not folder.is_dir():
            return []
        found = []
        for path in folder.iterdir():
            match = _TABLE_FILE.fullmatch(path.name)
            if match:
                found.append(match.group(1))
        return sorted(found, key=lambda t: int(t[1:]))

    def new_table_id(self) -> str:
        """A table id with no record yet, served or archived (``t1``, ``t2``, ...)."""
        ids = self.table_ids() + self.table_ids(self.archive_dir)
        return f"t{max(int(t[1:]) for t in ids) + 1 if ids else 1}"

    def touched(self, table_id: str) -> float:
        """When the table's record was last written (its last move), wall clock."""
        try:
            return self.record_path(table_id).stat().st_mtime
        except OSError:
            return 0.0

    def archived_path(self, table_id: str) -> Path:
        return self.archive_dir / f"{table_id}.json"

    def archive(self, table_id: str) -> None:
        """Move an abandoned table's record (and its seat owners) to ``archive/``:
        no longer served, listed or counted, still a record to replay. Raises
        ``OSError``."""
        self.archive_dir.mkdir(mode=0o700, exist_ok=True)
        seats = self.seats_path(table_id)
        if seats.exists():
            os.replace(seats, self.archive_dir / seats.name)
        os.replace(self.record_path(table_id), self.archived_path(table_id))

    def load_tables(self) -> tuple[list[tuple[str, Record]], list[tuple[str, str]]]:
        """Every table's record, and the files that could not be read (left untouched)."""
        tables: list[tuple[str, Record]] = []
        problems: list[tuple[str, str]] = []
        for table_id in self.table_ids():
            path = self.record_path(table_id)
            try:
                tables.append((table_id, load_record(path)))
            except RecordError as exc:
                problems.append((path.name, str(exc)))
        return tables, problems

    # --- seat owners ---------------------------------------------------------------

    def load_seats(self, table_id: str) -> dict[int, str]:
        """Seat -> token hash for the seats already claimed (empty if none or unreadable)."""
        try:
            data: Any = json.loads(self.seats_path(table_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        seats = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(seats, dict):
            return {}
        out: dict[int, str] = {}
        for key, value in seats.items():
            if (
                isinstance(key, str)
                and key.isdigit()
                and len(key) == 1
                and isinstance(value, str)
                and re.fullmatch(r"[0-9a-f]{64}", value)
            ):
                out[int(key)] = value
        return out

    def save_seats(self, table_id: str, seats: dict[int, str]) -> None:
        """Write the seat owners atomically (mode 0600: hashes, but nobody's business)."""
        data = {
            "format": SEATS_FORMAT,
            "version": 1,
            "seats": {str(seat): digest for seat, digest in sorted(seats.items())},
        }
        write_text_atomic(self.seats_path(table_id), json.dumps(data, indent=2) + "\n")
