"""What one host is told to be: its limits (:class:`Limits`) and its settings
(:class:`HostConfig`), and the error of a table whose players sit elsewhere."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paris_tui.host.accounts.store import AccountStore, open_accounts
from paris_tui.host.limits import Quota
from paris_tui.net.protocol import MAX_CLIENT_LINE as _MAX_LINE

__all__ = ["HostConfig", "Limits", "TableConflictError"]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one host allows. Every limit cuts off only the connection that breaks it."""

    max_connections: int = 256
    max_per_address: int = 32
    # Tables opened by clients (open_table, protocol 2), unfinished or waiting, together;
    # the operator's own tables (--table) never count and are never refused.
    max_tables: int = 64
    tables_per_owner: int = 2  # ... of them one person's, unfinished or waiting
    tables_per_address: int = 4  # ... of them opened from one address (IPv6: its /64)
    # Tables opened (each open_table that is not refused), per person, address, host.
    opens: Quota = field(default_factory=lambda: Quota(6, 12, 120, 3600.0))
    # A table a client opened that nobody has moved at or joined for this long, with
    # nobody at it, is archived as abandoned: out of the lobby and the caps, still
    # replayable. The operator's own tables (--table) are never archived.
    abandon_after: float = 14 * 86400.0
    keep_finished: int = 16  # finished tables kept in the lobby (the latest ones)
    line_bytes: int = _MAX_LINE
    rate: float = 20.0  # messages per second a client may send, sustained
    burst: int = 40  # ... and in a burst
    hello_timeout: float = 10.0  # the first line must come this soon
    # Connections that have proven nobody yet (no seat, no table held): a pool of their
    # own, so they never starve the players and the doors' apps; a shorter hello.
    max_anonymous: int = 64
    anonymous_per_address: int = 8  # ... from one address (IPv6: its /64)
    anonymous_hello_timeout: float = 5.0
    ping_interval: float = 15.0  # a silent client is pinged this often
    idle_timeout: float = 45.0  # a client silent this long (no pong) is cut off
    send_buffer: int = 4 * 1024 * 1024  # bytes queued for a client that does not read
    # Unfinished turn-based tables (hours or days per move) one account sits
    # at, waiting ones included, as BGA's 21; they do not count in tables_per_owner.
    turn_tables_per_account: int = 21
    # The operator locks an account from another process (host accounts lock): the host
    # reads the locks this often and ends the locked accounts' seats (docs/security.md).
    lock_check: float = 2.0


@dataclass(slots=True)
class HostConfig:
    data_dir: Path
    bind: str = "127.0.0.1"
    port: int = 7337
    ai_delay: float = 0.8  # an AI's move is played no sooner than this after its turn began
    ai_takeover: float | None = None  # seconds away before an AI plays for a player
    limits: Limits = field(default_factory=Limits)
    ai_threads: int = 2
    ai_budget: float | None = None  # --budget: seconds a move of a searching AI (None: 1 s)
    hints: bool = False  # players may ask for a hint (worked out by their own terminal)
    # The accounts store, given the host's folder (<data dir>/host): SQLite there by
    # default; any AccountStore (one shared by several hosts) fits.
    accounts: Callable[[Path], AccountStore] = open_accounts
    # PostgreSQL (host --database URL): tables and accounts there, shared by several
    # hosts; None keeps them in data_dir (files and SQLite).
    database: str | None = None
    db_pool: int = 4  # connections this host keeps to the database at most
    # A stopped or dead host's tables are taken over after about this (its writes
    # are fenced: a takeover too early costs a reconnect, never a second referee).
    lease_seconds: float = 1.0
    advertise: str | None = None  # HOST:PORT where the other hosts reach this one
    # Timed tables (services/turns.py): the clock of their move times (the wall
    # clock; a test's own runs a table over days), and --notify-command.
    clock: Callable[[], float] = time.time
    notify_command: str | None = None
    # Addresses whose seats may play rated games with each other (--rated-address:
    # a club behind one address); elsewhere two seats from one address are unrated.
    rated_addresses: tuple[str, ...] = ()
    # Who may create a tournament from the lobby (--tournament-makers NAME,...), or
    # every account (--tournaments-open); nobody by default: the operator's commands.
    tournament_makers: tuple[str, ...] = ()
    tournaments_open: bool = False

    def __post_init__(self) -> None:
        # Absolute once, here: the doors' apps and the fork server run in other
        # directories (the fork server in this one), where a relative path points nowhere.
        self.data_dir = Path(self.data_dir).absolute()


class TableConflictError(ValueError):
    """A new table's players already sit at an unfinished table."""

    def __init__(self, table_id: str, names: Sequence[str]) -> None:
        self.table_id = table_id
        self.names = tuple(names)
        super().__init__(
            f"{', '.join(names)} already {'sits' if len(names) == 1 else 'sit'} at unfinished "
            f"table {table_id}: not opening a second table"
        )
