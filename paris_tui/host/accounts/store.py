"""Accounts: one identity behind every door of a host.

A name is an account on a host, whichever door it came through. The first
credential that takes a name creates its account; from then on every door
asks for one of that account's credentials:

``ssh``
    an SSH public key, kept as its SHA-256 fingerprint (``SHA256:...``);
``token``
    the secret a ``paris-tui join`` keeps in the player's data directory
    (``tokens.json``), kept as its SHA-256;
``browser``
    the browser door's cookie (``paris_tui_browser``), kept as its SHA-256.

Accounts are keyed by the name's folded form and, uniquely too, by its
confusable skeleton (:mod:`paris_tui.host.accounts.names`), so neither "ａnn" nor a
Cyrillic "аnn" can be an account beside "ann". An account may be locked by
the operator (no door lets it in) and holds at most one *link code* at a
time: eight characters (:data:`CODE_ALPHABET`, no vowels, no ``0 O 1 I``),
good for :data:`CODE_SECONDS`, used once, kept as its SHA-256, that links
another door (a new SSH key, a new ``join`` data directory, a browser) to the
account. An operator's invitation is the same code on an account that has no
credential yet: a reserved seat's account, claimed only with its code.

:class:`AccountStore` is what the host, its doors and the operator's
commands use; :class:`SQLiteAccounts` keeps it in one SQLite file in the
host's data directory (``host/accounts.sqlite``, WAL, each change one
transaction, ``synchronous=FULL``: a change acknowledged survives kill -9).
Another store (PostgreSQL, for several hosts) implements the same protocol
and is given as :attr:`HostConfig.accounts <paris_tui.host.config.HostConfig>`;
nothing else knows which one it talks to. (Seat claims are keyed by table id,
which is unique per data directory: a store shared by several hosts keeps
them per host.)

Bounded: a refused login writes nothing; an account keeps at most
:data:`MAX_CREDENTIALS` credentials of each door (the oldest token or browser
is dropped for a new one; a key beyond the bound is refused); codes are one
per account and expired ones are deleted whenever a code is made.

Fail closed: a store that cannot be read raises :class:`AccountsUnavailable`
(the host then refuses every seat, saying so once in its log), never
"no accounts".
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.host.accounts.names import folded, skeleton
from paris_tui.host.accounts.social import MAX_FRIENDS, Account, SocialRows
from paris_tui.host.store.sqlite_file import open_sqlite
from paris_tui.net.protocol import MAX_MUTES

__all__ = [
    "ACCOUNTS_FILE",
    "CODE_ALPHABET",
    "CODE_SECONDS",
    "INVITE_SECONDS",
    "MAX_CREDENTIALS",
    "MAX_FRIENDS",
    "Account",
    "AccountError",
    "AccountStore",
    "AccountsUnavailable",
    "Credential",
    "Door",
    "NameTakenError",
    "SQLiteAccounts",
    "digest",
    "format_code",
    "normalize_code",
    "open_accounts",
    "ssh_fingerprint",
]

log = logging.getLogger("paris_tui.host.accounts")

ACCOUNTS_FILE = "accounts.sqlite"
Door = Literal["ssh", "token", "browser"]
DOORS: tuple[str, ...] = get_args(Door)
CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ23456789"
"""Link codes' characters: no vowels (no words), none of ``0 O 1 I`` (no misreading)."""
CODE_LENGTH = 8
CODE_SECONDS = 10 * 60.0
"""How long a link code stays good."""
CODE_MISSES = 10
"""Wrong link codes typed for one account (through any door, from any connection)
after which its code is void: guessing one of 28^8 codes is bounded per account."""
INVITE_SECONDS = 7 * 24 * 3600.0
"""How long an operator's invitation code (``host --invite``) stays good."""
MAX_CREDENTIALS = 16
"""Credentials of one door an account keeps at most."""

SCHEMA_VERSION = 5  # 2: turn_clocks; 3: muted, friends; 4: chat_mutes; 5: code_misses
_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    skeleton TEXT NOT NULL UNIQUE,
    locked INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS credentials (
    id INTEGER PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    door TEXT NOT NULL CHECK (door IN ('ssh', 'token', 'browser')),
    digest TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    UNIQUE (door, digest)
);
CREATE INDEX IF NOT EXISTS credentials_account ON credentials(account);
CREATE TABLE IF NOT EXISTS codes (
    account INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    digest TEXT NOT NULL UNIQUE,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Turn-based tables (paris_tui.host.services.turns): whose turn each timed table
-- waits for, since when (the host's clock), and whether that player was notified.
CREATE TABLE IF NOT EXISTS turn_clocks (
    table_id TEXT PRIMARY KEY,
    seat INTEGER NOT NULL,
    move_no INTEGER NOT NULL,
    since REAL NOT NULL,
    notified INTEGER NOT NULL DEFAULT 0
);
-- Table chat (schema 3): the operator's mutes, each account's friends.
CREATE TABLE IF NOT EXISTS muted (
    account INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    since REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS friends (
    account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    friend INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    PRIMARY KEY (account, friend)
);
-- A player's chat mutes (schema 4): the writers an account hides in every
-- table's chat (/mute NAME), kept across restarts and doors.
CREATE TABLE IF NOT EXISTS chat_mutes (
    account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    muted INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    PRIMARY KEY (account, muted)
);
-- Wrong link codes typed for an account since its last good one (schema 5): kept
-- here so that every host of a database counts them, and a restart forgets none.
CREATE TABLE IF NOT EXISTS code_misses (
    account INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    misses INTEGER NOT NULL
);
"""


class AccountError(Exception):
    """An account change that cannot be made; ``str()`` is one line for the operator."""


class AccountsUnavailable(AccountError):
    """The store cannot be read or written: refuse, never guess."""


class NameTakenError(AccountError):
    """The name, or one that looks like it, is another account's."""

    def __init__(self, name: str, holder: str) -> None:
        self.name = name
        self.holder = holder
        same = folded(name) == folded(holder)
        super().__init__(
            f"{name} is an account already"
            if same
            else f"{name} looks like the account {holder} (names must differ in more than looks)"
        )


@dataclass(frozen=True, slots=True)
class Credential:
    door: Door
    digest: str
    label: str = ""
    created: float = 0.0


def digest(secret: str) -> str:
    """The SHA-256 (hex) a token or cookie is kept as."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def ssh_fingerprint(key_line: str) -> str:
    """The ``SHA256:...`` fingerprint of an OpenSSH public key line
    (``ssh-ed25519 AAAA... [comment]``). Raises ``ValueError``."""
    from paris_tui.host.sshlib import asyncssh

    try:
        key = asyncssh.import_public_key(key_line.strip())
    except (asyncssh.KeyImportError, ValueError, TypeError) as exc:
        raise ValueError(f"not an SSH public key: {exc}") from None
    return str(key.get_fingerprint("sha256"))


def normalize_code(text: str) -> str:
    """A typed code as it is looked up: capitals, no spaces or dashes."""
    return re.sub(r"[\s\-_.]", "", text).upper()[:32]


def format_code(code: str) -> str:
    """``ABCD-EFGH``: as a code is shown (easier to read out and type)."""
    return f"{code[:4]}-{code[4:]}" if len(code) == CODE_LENGTH else code


def _marks(values: Collection[object]) -> str:
    """A statement's ``?`` for each of ``values`` (``IN (...)``)."""
    return ", ".join("?" for _ in values)


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class AccountStore(Protocol):
    """What the host, its doors and the operator's commands ask of accounts.

    Every method raises :class:`AccountsUnavailable` when the store cannot
    answer; names passed in have passed the core's name rule."""

    def find(self, name: str) -> Account | None:
        """The account whose name folds to ``name``'s, else one whose skeleton is
        ``name``'s (a look-alike: the caller refuses ``name`` beside it)."""

    def get(self, account_id: int) -> Account | None: ...

    def accounts(self) -> list[Account]: ...

    def create(self, name: str, credential: Credential | None) -> Account:
        """A new account (raises :class:`NameTakenError`)."""

    def verify(self, account_id: int, door: Door, digest: str) -> bool: ...

    def credentials(self, account_id: int) -> list[Credential]: ...

    def add_credential(self, account_id: int, credential: Credential) -> None:
        """Link a door (raises :class:`AccountError` when it is another account's,
        or a key beyond :data:`MAX_CREDENTIALS`)."""

    def remove_credential(self, account_id: int, door: Door, digest: str) -> bool: ...

    def owner(self, door: Door, digest: str) -> Account | None:
        """The account that holds this credential, if any (a door asks before it lets
        a name that is nobody's in with a key or cookie that is another account's)."""

    def locked_accounts(self) -> set[int]:
        """The ids of the locked accounts (the host ends their open sessions)."""

    def new_code(self, account_id: int, seconds: float = CODE_SECONDS) -> str:
        """A new link code for the account (its previous one no longer counts)."""

    def take_code(self, code: str, account_id: int | None = None) -> Account | None:
        """The account of a live code, which is used up; ``None`` if there is none
        (with ``account_id``: only a code of that account counts, and is used)."""

    def has_code(self, account_id: int) -> bool: ...

    def void_codes(self, account_id: int) -> bool:
        """The account's link code no longer counts; whether it had one."""

    def rename(self, account_id: int, name: str) -> Account: ...

    def set_locked(self, account_id: int, locked: bool) -> None: ...

    def remove(self, account_id: int) -> None: ...

    def seat_owners(self, table_id: str) -> dict[int, int]:
        """Seat -> account id, for the seats of ``table_id`` already claimed."""

    def claim_seat(self, table_id: str, seat: int, account_id: int) -> bool:
        """Claim the seat for the account; ``False`` if another account has it."""

    def forget_table(self, table_id: str) -> None:
        """No seat of ``table_id`` is claimed (a new table of that id)."""

    def done(self, key: str) -> bool:
        """Whether a one-time step (a migration) called ``key`` was done."""

    def mark_done(self, key: str) -> None: ...

    def close(self) -> None: ...

    # Table chat: the operator's mute.
    def set_muted(self, account_id: int, muted: bool) -> None:
        """Mute the account in every table's chat (the operator's), or unmute it."""
        ...

    def is_muted(self, account_id: int) -> bool: ...

    # Friends: "tell me when NAME is here", only between two accounts that both asked.
    def add_friend(self, account_id: int, friend_id: int) -> bool:
        """Ask for ``friend_id`` (``False``: the list holds :data:`MAX_FRIENDS` already)."""
        ...

    def remove_friend(self, account_id: int, friend_id: int) -> None: ...

    def friends(self, account_id: int) -> list[Account]:
        """The accounts this account asked for, by name (friends when they asked back)."""
        ...

    def askers(self, account_id: int) -> list[Account]:
        """The accounts that asked for this one, by name."""
        ...

    # Wrong link codes, counted per account across hosts and restarts.
    def count_miss(self, account_id: int) -> int:
        """One more wrong code for the account: how many since its last good one."""
        ...

    def clear_misses(self, account_id: int) -> None: ...

    # A player's chat mutes (/mute NAME, kept with the account).
    def add_chat_mute(self, account_id: int, muted_id: int) -> bool:
        """Hide ``muted_id``'s chat lines from the account (``False``: it hides
        :data:`~paris_tui.net.protocol.MAX_MUTES` writers already)."""
        ...

    def remove_chat_mute(self, account_id: int, muted_id: int) -> None: ...

    def chat_mutes(self, account_id: int) -> list[Account]:
        """The writers the account hides, by name."""
        ...

    def muting(self, writers: Collection[int], readers: Collection[int]) -> dict[int, set[int]]:
        """Each of ``readers`` that hides some of ``writers``' chat lines (the host sends
        it none of theirs), with the ids of those it hides; one read for them all."""
        ...


class SQLiteAccounts(SocialRows):
    """:class:`AccountStore` in one SQLite file (WAL; one transaction per change).

    Safe to call from several threads (one connection behind a lock)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = open_sqlite(
            self.path,
            _SCHEMA,
            SCHEMA_VERSION,
            AccountsUnavailable,
            "the accounts store",
            foreign_keys=True,
            check="SELECT count(*) FROM accounts",
        )

    # --- plumbing ---------------------------------------------------------------------

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as exc:
                raise AccountsUnavailable(f"the accounts store failed: {exc}") from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise AccountsUnavailable(f"the accounts store failed: {exc}") from None

    # --- accounts ---------------------------------------------------------------------

    def find(self, name: str) -> Account | None:
        rows = self._read(
            "SELECT id, name, locked, created FROM accounts WHERE folded = ? "
            "UNION ALL SELECT id, name, locked, created FROM accounts WHERE skeleton = ?",
            (folded(name), skeleton(name)),
        )
        return self._account(rows[0]) if rows else None

    def get(self, account_id: int) -> Account | None:
        rows = self._read(
            "SELECT id, name, locked, created FROM accounts WHERE id = ?", (account_id,)
        )
        return self._account(rows[0]) if rows else None

    def accounts(self) -> list[Account]:
        rows = self._read("SELECT id, name, locked, created FROM accounts ORDER BY folded")
        return [self._account(r) for r in rows]

    def create(self, name: str, credential: Credential | None) -> Account:
        now = time.time()
        try:
            with self._tx() as db:
                clash = db.execute(
                    "SELECT name FROM accounts WHERE folded = ? OR skeleton = ?",
                    (folded(name), skeleton(name)),
                ).fetchone()
                if clash is not None:
                    raise NameTakenError(name, str(clash[0]))
                cur = db.execute(
                    "INSERT INTO accounts (name, folded, skeleton, locked, created) "
                    "VALUES (?, ?, ?, 0, ?)",
                    (name, folded(name), skeleton(name), now),
                )
                account_id = int(cur.lastrowid or 0)
                if credential is not None:
                    self._insert_credential(db, account_id, credential, now)
        except sqlite3.IntegrityError:
            raise AccountError(f"{name}: that credential belongs to another account") from None
        return Account(account_id, name, False, now)

    def rename(self, account_id: int, name: str) -> Account:
        try:
            with self._tx() as db:
                clash = db.execute(
                    "SELECT name FROM accounts WHERE (folded = ? OR skeleton = ?) AND id != ?",
                    (folded(name), skeleton(name), account_id),
                ).fetchone()
                if clash is not None:
                    raise NameTakenError(name, str(clash[0]))
                cur = db.execute(
                    "UPDATE accounts SET name = ?, folded = ?, skeleton = ? WHERE id = ?",
                    (name, folded(name), skeleton(name), account_id),
                )
                if cur.rowcount != 1:
                    raise AccountError(f"there is no account {account_id}")
        except sqlite3.IntegrityError:  # pragma: no cover - the SELECT above decided
            raise NameTakenError(name, name) from None
        account = self.get(account_id)
        assert account is not None
        return account

    def set_locked(self, account_id: int, locked: bool) -> None:
        with self._tx() as db:
            db.execute("UPDATE accounts SET locked = ? WHERE id = ?", (int(locked), account_id))

    def remove(self, account_id: int) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM accounts WHERE id = ?", (account_id,))

    # --- the operator's mute (table chat) ----------------------------------------------

    def set_muted(self, account_id: int, muted: bool) -> None:
        with self._tx() as db:
            if muted:
                db.execute(
                    "INSERT INTO muted (account, since) VALUES (?, ?) "
                    "ON CONFLICT (account) DO NOTHING",
                    (account_id, time.time()),
                )
            else:
                db.execute("DELETE FROM muted WHERE account = ?", (account_id,))

    def is_muted(self, account_id: int) -> bool:
        return bool(self._read("SELECT 1 FROM muted WHERE account = ?", (account_id,)))

    # --- a player's chat mutes ------------------------------------------------------------

    def add_chat_mute(self, account_id: int, muted_id: int) -> bool:
        with self._tx() as db:
            count = db.execute(
                "SELECT count(*) FROM chat_mutes WHERE account = ?", (account_id,)
            ).fetchone()[0]
            if int(count) >= MAX_MUTES:
                return False
            db.execute(
                "INSERT INTO chat_mutes (account, muted) VALUES (?, ?) "
                "ON CONFLICT (account, muted) DO NOTHING",
                (account_id, muted_id),
            )
        return True

    def remove_chat_mute(self, account_id: int, muted_id: int) -> None:
        with self._tx() as db:
            db.execute(
                "DELETE FROM chat_mutes WHERE account = ? AND muted = ?", (account_id, muted_id)
            )

    def chat_mutes(self, account_id: int) -> list[Account]:
        rows = self._read(
            "SELECT a.id, a.name, a.locked, a.created FROM chat_mutes m "
            "JOIN accounts a ON a.id = m.muted WHERE m.account = ? ORDER BY a.folded",
            (account_id,),
        )
        return [self._account(r) for r in rows]

    def muting(self, writers: Collection[int], readers: Collection[int]) -> dict[int, set[int]]:
        hide: dict[int, set[int]] = {}
        heard, said = sorted(set(readers)), sorted(set(writers))
        step = 400  # a table's readers and writers: a few, bounded anyway (SQLite's ? limit)
        for start in range(0, len(heard), step):
            some = heard[start : start + step]
            for at in range(0, len(said), step):
                others = said[at : at + step]
                rows = self._read(
                    f"SELECT account, muted FROM chat_mutes WHERE account IN ({_marks(some)}) "
                    f"AND muted IN ({_marks(others)})",
                    (*some, *others),
                )
                for reader, writer in rows:
                    hide.setdefault(int(reader), set()).add(int(writer))
        return hide

    # --- credentials ------------------------------------------------------------------

    def _insert_credential(
        self, db: sqlite3.Connection, account_id: int, credential: Credential, now: float
    ) -> None:
        owner = db.execute(
            "SELECT account FROM credentials WHERE door = ? AND digest = ?",
            (credential.door, credential.digest),
        ).fetchone()
        if owner is not None:
            if int(owner[0]) == account_id:
                return
            raise AccountError("that credential belongs to another account")
        count = int(
            db.execute(
                "SELECT count(*) FROM credentials WHERE account = ? AND door = ?",
                (account_id, credential.door),
            ).fetchone()[0]
        )
        if count >= MAX_CREDENTIALS:
            if credential.door == "ssh":
                raise AccountError(f"an account has {MAX_CREDENTIALS} SSH keys at most")
            db.execute(
                "DELETE FROM credentials WHERE id IN (SELECT id FROM credentials WHERE "
                "account = ? AND door = ? ORDER BY created, id LIMIT ?)",
                (account_id, credential.door, count - MAX_CREDENTIALS + 1),
            )
        db.execute(
            "INSERT INTO credentials (account, door, digest, label, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (account_id, credential.door, credential.digest, credential.label[:200], now),
        )

    def add_credential(self, account_id: int, credential: Credential) -> None:
        with self._tx() as db:
            self._insert_credential(db, account_id, credential, time.time())

    def verify(self, account_id: int, door: Door, digest: str) -> bool:
        rows = self._read(
            "SELECT digest FROM credentials WHERE account = ? AND door = ?", (account_id, door)
        )
        found = False
        for (stored,) in rows:  # every row compared, in constant time each
            found |= hmac.compare_digest(str(stored).encode(), digest.encode())
        return found

    def credentials(self, account_id: int) -> list[Credential]:
        rows = self._read(
            "SELECT door, digest, label, created FROM credentials WHERE account = ? "
            "ORDER BY door, created",
            (account_id,),
        )
        return [Credential(r[0], str(r[1]), str(r[2]), float(r[3])) for r in rows]

    def owner(self, door: Door, digest: str) -> Account | None:
        rows = self._read(
            "SELECT a.id, a.name, a.locked, a.created FROM credentials c "
            "JOIN accounts a ON a.id = c.account WHERE c.door = ? AND c.digest = ?",
            (door, digest),
        )
        return self._account(rows[0]) if rows else None

    def locked_accounts(self) -> set[int]:
        return {int(r[0]) for r in self._read("SELECT id FROM accounts WHERE locked = 1")}

    def remove_credential(self, account_id: int, door: Door, digest: str) -> bool:
        with self._tx() as db:
            cur = db.execute(
                "DELETE FROM credentials WHERE account = ? AND door = ? AND digest = ?",
                (account_id, door, digest),
            )
            return cur.rowcount > 0

    # --- link codes -------------------------------------------------------------------

    def new_code(self, account_id: int, seconds: float = CODE_SECONDS) -> str:
        code = _new_code()
        now = time.time()
        with self._tx() as db:
            db.execute("DELETE FROM codes WHERE expires <= ?", (now,))
            db.execute(
                "INSERT OR REPLACE INTO codes (account, digest, expires) VALUES (?, ?, ?)",
                (account_id, digest(code), now + seconds),
            )
        return code

    def take_code(self, code: str, account_id: int | None = None) -> Account | None:
        wanted = normalize_code(code)
        if len(wanted) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in wanted):
            return None
        with self._tx() as db:
            row = db.execute(
                "SELECT account, expires FROM codes WHERE digest = ?", (digest(wanted),)
            ).fetchone()
            if row is None or (account_id is not None and int(row[0]) != account_id):
                return None
            db.execute("DELETE FROM codes WHERE account = ?", (int(row[0]),))
            if float(row[1]) <= time.time():
                return None
            found = db.execute(
                "SELECT id, name, locked, created FROM accounts WHERE id = ?", (int(row[0]),)
            ).fetchone()
        return None if found is None else self._account(found)

    def has_code(self, account_id: int) -> bool:
        rows = self._read(
            "SELECT 1 FROM codes WHERE account = ? AND expires > ?", (account_id, time.time())
        )
        return bool(rows)

    def void_codes(self, account_id: int) -> bool:
        with self._tx() as db:
            cur = db.execute("DELETE FROM codes WHERE account = ?", (account_id,))
            return cur.rowcount > 0

    # --- seats ------------------------------------------------------------------------

    def seat_owners(self, table_id: str) -> dict[int, int]:
        rows = self._read("SELECT seat, account FROM seats WHERE table_id = ?", (table_id,))
        return {int(seat): int(account) for seat, account in rows}

    def claim_seat(self, table_id: str, seat: int, account_id: int) -> bool:
        with self._tx() as db:
            row = db.execute(
                "SELECT account FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)
            ).fetchone()
            if row is not None:
                return int(row[0]) == account_id
            db.execute(
                "INSERT INTO seats (table_id, seat, account) VALUES (?, ?, ?)",
                (table_id, seat, account_id),
            )
        return True

    def forget_table(self, table_id: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))

    # --- one-time steps -----------------------------------------------------------------

    def done(self, key: str) -> bool:
        return bool(self._read("SELECT 1 FROM meta WHERE key = ?", (key,)))

    def mark_done(self, key: str) -> None:
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, "done"))

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()


def open_accounts(root: Path) -> SQLiteAccounts:
    """The accounts store of a host's data folder (``root`` is ``<data dir>/host``)."""
    root.mkdir(parents=True, exist_ok=True)
    return SQLiteAccounts(root / ACCOUNTS_FILE)


# --- from the files of earlier versions ---------------------------------------------------

LEGACY_KEYS_FILE = "ssh_keys.json"
LEGACY_KEYS_FORMAT = "paris-tui-ssh-keys"


def migrate_ssh_pins(store: AccountStore, root: Path) -> list[str]:
    """Move ``ssh_keys.json`` (name -> the first key that logged in) into accounts:
    each pinned name becomes an account with that key. Done once; the file is
    renamed ``ssh_keys.json.migrated``. Returns notes for the operator.

    A file that cannot be read raises :class:`AccountsUnavailable`: migrating
    nothing would give every pinned name away."""
    path = root / LEGACY_KEYS_FILE
    where = printable(str(path))
    notes: list[str] = []
    if store.done("ssh_keys.json") or not path.exists():
        return notes
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        keys = data.get("keys") if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get("format") != LEGACY_KEYS_FORMAT:
            raise ValueError("not a paris-tui-ssh-keys file")
        if not isinstance(keys, dict):
            raise ValueError("no keys")
    except (OSError, ValueError) as exc:
        raise AccountsUnavailable(
            f"cannot read {where} to move its keys into the accounts store ({exc}): "
            "repair or remove it"
        ) from None
    for name, line in keys.items():
        try:
            clean = normalize_name(str(name))
            fingerprint = ssh_fingerprint(str(line))
        except (InvalidNameError, ValueError) as exc:
            notes.append(f"{where}: skipped the entry {printable(str(name)[:40])}: {exc}")
            continue
        credential = Credential("ssh", fingerprint, "migrated from ssh_keys.json")
        account = store.find(clean)
        try:
            if account is None:
                store.create(clean, credential)
            elif folded(account.name) == folded(clean):
                store.add_credential(account.id, credential)
            else:
                notes.append(f"{where}: skipped {clean}: it looks like the account {account.name}")
        except AccountError as exc:
            notes.append(f"{where}: skipped {clean}: {exc}")
    store.mark_done("ssh_keys.json")
    with contextlib.suppress(OSError):
        path.rename(path.with_name(LEGACY_KEYS_FILE + ".migrated"))
    log.info("moved the SSH key pins of %s into the accounts store", where)
    return notes
