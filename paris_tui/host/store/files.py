"""The host's data directory: table records, seat owners, and the one-host lock.

Layout, under ``<data dir>/host/`` (mode 0700)::

    host.lock            held (flock) by the running host: one host per data dir
    accounts.sqlite      accounts, their credentials, who owns which seat
                         (paris_tui.host.accounts.store)
    tables/t1.json       table t1's game: an ordinary paris-paris-record
    tables/t1.seats.json an earlier version's seat owners (the SHA-256 of each
                         seat's token): taken into the accounts once, then
                         renamed t1.seats.json.migrated
    archive/t7.json      a table archived as abandoned (untouched for long): out of
                         the lobby and the caps, still an ordinary record to replay

The host is the only writer of these files. Records are written atomically
(a temporary file, fsync, rename), so a kill -9 leaves the old version or
the new one. Tokens themselves are never stored: a client keeps its token,
the host keeps its hash and compares hashes with :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
from pathlib import Path
from typing import IO, Any, Protocol

from paris_tui.core import RecordError
from paris_tui.core.record import Record, load_record, save_record, write_text_atomic
from paris_tui.core.text import printable

__all__ = [
    "HostBusyError",
    "HostStore",
    "Saved",
    "SeatsFileError",
    "TableStore",
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


class SeatsFileError(ValueError):
    """A seat file of an earlier version that cannot be read (one line)."""


class Saved(Protocol):
    """What a store writes of a table: its referee (:class:`~paris_tui.host.referee.Referee`)."""

    @property
    def table_id(self) -> str: ...

    @property
    def is_over(self) -> bool: ...

    def record(self) -> Record: ...

    def record_text(self) -> str: ...

    def record_json(self) -> dict[str, Any]: ...


class TableStore(Protocol):
    """Where a host keeps its tables: each an append-only move log (a record).

    Two implementations: :class:`HostStore` (files in the data directory, one
    host) and :class:`~paris_tui.host.store.postgres.PostgresStore` (PostgreSQL, any
    number of hosts); the referee, the doors and the lobby do not know which.
    ``OSError`` is every failure to read or write."""

    @property
    def where(self) -> str:
        """For the operator's messages: a folder, or the database (no password)."""

    def open(self) -> None: ...

    def close(self) -> None: ...

    def table_ids(self) -> list[str]: ...

    def new_table_id(self) -> str: ...

    def load_tables(self) -> tuple[list[tuple[str, Record]], list[tuple[str, str]]]: ...

    def create(self, ref: Saved) -> None:
        """A new table's record, saved at once."""

    def append(self, ref: Saved) -> None:
        """The table's latest move, saved before anyone hears of it."""

    def save(self, ref: Saved) -> None:
        """Everything of the table saved (the host is closing)."""

    def record_text(self, table_id: str) -> str | None: ...

    def load_record(self, table_id: str) -> Record | None:
        """The table's record, ``None`` if it has none (raises ``RecordError``)."""

    def put_record(self, table_id: str, data: dict[str, Any], *, finished: bool = False) -> None:
        """A whole record (its JSON object), written as it is (tests, ``host migrate``)."""

    def touched(self, table_id: str) -> float: ...

    def archive(self, table_id: str) -> None:
        """An abandoned table: out of the lobby, the caps (and, in a database, the
        takeovers), still a record to replay. Raises ``OSError``."""

    def archived_where(self, table_id: str) -> str:
        """Where an archived table's record is, for the operator's log."""

    def load_seats(self, table_id: str) -> dict[int, str]: ...

    def retire_seats(self, table_id: str) -> None: ...


class HostStore:
    """The files of one host under ``data_dir/host`` (the :class:`TableStore` of files)."""

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

    # --- the table store of files ----------------------------------------------------

    @property
    def where(self) -> str:
        return printable(str(self.tables_dir))

    def open(self) -> None:
        """Nothing more to open (:meth:`lock` made the folders)."""

    def close(self) -> None:
        return None

    def create(self, ref: Saved) -> None:
        save_record(ref.record(), self.record_path(ref.table_id))

    def append(self, ref: Saved) -> None:
        write_text_atomic(self.record_path(ref.table_id), ref.record_text())

    def save(self, ref: Saved) -> None:
        save_record(ref.record(), self.record_path(ref.table_id))

    def record_text(self, table_id: str) -> str | None:
        try:
            return self.record_path(table_id).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def load_record(self, table_id: str) -> Record | None:
        path = self.record_path(table_id)
        return load_record(path) if path.exists() else None

    def put_record(self, table_id: str, data: dict[str, Any], *, finished: bool = False) -> None:
        self.tables_dir.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.record_path(table_id), json.dumps(data, ensure_ascii=False) + "\n")

    def touched(self, table_id: str) -> float:
        """When the table's record was last written (its last move), wall clock."""
        try:
            return self.record_path(table_id).stat().st_mtime
        except OSError:
            return 0.0

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

    def archived_path(self, table_id: str) -> Path:
        return self.archive_dir / f"{table_id}.json"

    def archived_where(self, table_id: str) -> str:
        return printable(str(self.archived_path(table_id)))

    def archive(self, table_id: str) -> None:
        """Move an abandoned table's record (and its seat owners) to ``archive/``:
        no longer served, listed or counted, still a record to replay. Raises
        ``OSError``."""
        self.archive_dir.mkdir(mode=0o700, exist_ok=True)
        for beside in (self.seats_path(table_id), self.tables_dir / f"{table_id}.chat.jsonl"):
            if beside.exists():  # its seat owners (an earlier version's), its chat
                os.replace(beside, self.archive_dir / beside.name)
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

    # --- seat owners of earlier versions ---------------------------------------------

    def load_seats(self, table_id: str) -> dict[int, str]:
        """Seat -> token hash from a seat file of an earlier version (``{}`` when there
        is none). Its owners now live in the accounts store
        (:mod:`paris_tui.host.accounts.store`), which takes them in once.

        Raises :class:`SeatsFileError` when the file is there but cannot be read
        or is not a seat file: its seats must then count as claimed, never free."""
        path = self.seats_path(table_id)
        where = printable(path.name)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            raise SeatsFileError(f"cannot read {where}: {exc}") from None
        try:
            data: Any = json.loads(text)
        except ValueError:
            raise SeatsFileError(f"{where} is not JSON: repair or remove it") from None
        seats = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get("format") != SEATS_FORMAT:
            raise SeatsFileError(f"{where} is not a {SEATS_FORMAT} file: repair or remove it")
        if not isinstance(seats, dict):
            raise SeatsFileError(f"{where} has no seats: repair or remove it")
        out: dict[int, str] = {}
        for key, value in seats.items():
            if not (
                isinstance(key, str)
                and key.isdigit()
                and len(key) == 1
                and isinstance(value, str)
                and re.fullmatch(r"[0-9a-f]{64}", value)
            ):
                raise SeatsFileError(f"{where} has a bad entry: repair or remove it")
            out[int(key)] = value
        return out

    def retire_seats(self, table_id: str) -> None:
        """The seat file was taken in: kept beside, renamed ``*.seats.json.migrated``."""
        path = self.seats_path(table_id)
        with contextlib.suppress(OSError):
            path.rename(path.with_name(path.name + ".migrated"))
