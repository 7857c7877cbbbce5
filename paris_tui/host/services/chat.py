"""Table chat: lines said at a table, checked, limited, kept, and sent.

A player or a watcher says a line (:class:`~paris_tui.net.protocol.Chat`):
free text, which passes the core's chat rule
(:func:`~paris_tui.core.text.normalize_chat`: no control or bidi character,
at most 160 cells and 480 bytes), or a canned phrase's id, which each reader
words in their own language. :class:`TableChat` checks who says it (a seat's
account, a watcher's proven account, or an anonymous watcher), the operator's
mute (kept with the accounts: ``paris-tui host accounts mute NAME``), and the
rate (per account, per address for anonymous watchers, and for the whole
host: :class:`~paris_tui.host.limits.NestedWindow`), keeps the line, and then
sends it as a :class:`~paris_tui.net.protocol.ChatLine` to the table's
protocol-4 connections. While a game runs, a watcher's line goes to the
watchers only (channel ``watchers``, as DCSS keeps spectators apart); players
get those lines when the game is over.

A player's own mutes (``/mute NAME`` in the app: :class:`~paris_tui.net.protocol.MutesRequest`)
are kept with the accounts (SQLite or PostgreSQL, ``chat_mutes``) so that they
survive a restart and follow the player to any door: :meth:`TableChat.mutes`
answers with the list (:class:`~paris_tui.net.protocol.MutesInfo`), which is
sent after ``seated`` and ``watching`` too. The host filters: a muted writer's
lines never reach the muting account's connections (a seat's, or a watcher's
that named its account, in the watch or in a chat or mutes request), whatever
the client, nor does the history sent on a join, a watch or a resume. Each line
said asks the accounts store which of its readers' accounts mute its writer
(:meth:`~paris_tui.host.accounts.store.AccountStore.muting`), in the same I/O job
that keeps the line: a mute made at any host of a database holds at once at
every host, and a relayed connection is filtered at the table's referee like a
direct one. A mute the host cannot keep (an anonymous watcher) stays the
client's, for its run.

A line reaches each reader once: those there when it is kept whose history
was sent, and those who came while it was kept (their accounts asked in one
more I/O job, only when there are some); a connection whose history is read
after the line was kept finds it there instead. A table's lines are kept and
sent one at a time, in order. At a game's end, the players' mutes of the
watchers' writers are one read for all (``muting`` again).

The lines are kept with the table but outside its record, so ``replay``,
``replay --json`` and the record format do not change: behind one
:class:`ChatStore`, a sidecar file per table (:class:`FileChat`:
``tables/t1.chat.jsonl``, append-only, each line fsynced, bounded) or the
``paris_chat`` table of the hosts' database (:class:`PostgresChat`). A table
resumed after a restart shows its recent lines again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Awaitable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from paris_tui.core.record import write_text_atomic
from paris_tui.core.text import (
    InvalidChatError,
    InvalidNameError,
    normalize_chat,
    normalize_name,
    printable,
)
from paris_tui.host.accounts.identity import Claim
from paris_tui.host.accounts.names import folded
from paris_tui.host.accounts.store import AccountsUnavailable
from paris_tui.host.events import EventBus, GameOver, TableEvent, TableResumed
from paris_tui.host.limits import GLOBAL, Quota, Window, owner_key
from paris_tui.host.peers import Peer, Table
from paris_tui.host.ports import AccountsSource
from paris_tui.host.referee import Refusal
from paris_tui.host.store.files import TableStore
from paris_tui.host.store.postgres import PostgresStore
from paris_tui.net.protocol import (
    CHAT_PHRASES,
    Chat,
    ChatChannel,
    ChatLine,
    MutesInfo,
    MutesRequest,
    Watch,
    encode,
)

__all__ = [
    "CHAT_QUOTA",
    "KEEP_LINES",
    "ChatStore",
    "FileChat",
    "PostgresChat",
    "SavedLine",
    "TableChat",
    "chat_store",
]

log = logging.getLogger("paris_tui.host.chat")

CHAT_QUOTA = Quota(per_owner=5, per_address=5, total=400, seconds=10.0)
"""Lines one account, or one address for anonymous watchers (an account's lines
are not counted against its address: players behind one NAT each have their
own), may say in 10 s, and the host in all. A refused line counts nowhere."""
KEEP_LINES = 50
"""The recent lines of a table a newcomer is sent (and that a store must give back)."""
MAX_FILE_BYTES = 256 * 1024
"""A sidecar grows to this size, then is rewritten with its last :data:`KEEP_LINES`."""

MIN_VERSION = 4  # the protocol version that knows chat


@dataclass(frozen=True, slots=True)
class SavedLine:
    """One kept line: what is sent (:meth:`message`), plus the writer's account id."""

    at: int
    name: str
    seat: int | None
    channel: ChatChannel
    text: str | None
    phrase: str | None
    account: int | None = None

    def message(self, table_id: str) -> ChatLine:
        return ChatLine(
            table_id, self.name, self.seat, self.channel, self.text, self.phrase, self.at
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> SavedLine | None:
        """The line, or ``None`` for anything that is not one (a damaged file's line is
        skipped: chat is never a reason not to serve a table)."""
        if not isinstance(data, dict):
            return None
        try:
            phrase = data.get("phrase")
            said = data.get("text")
            if phrase is not None:
                if phrase not in CHAT_PHRASES:
                    return None
                said = None
            else:
                said = normalize_chat(said)
            name, seat, channel = data["name"], data.get("seat"), data["channel"]
            account = data.get("account")
            if not isinstance(name, str) or channel not in ("table", "watchers"):
                return None
            if seat is not None and type(seat) is not int:
                return None
            if account is not None and type(account) is not int:
                return None
            at = data.get("at", 0)
            at = at if type(at) is int else 0
            return cls(at, name, seat, channel, said, phrase, account)
        except (KeyError, InvalidChatError):
            return None


class ChatStore(Protocol):
    """Where a host keeps its tables' chat: beside each record, never in it."""

    def add(self, table_id: str, line: SavedLine) -> None:
        """Keep ``line`` (durably: it is sent only once this returns). Raises ``OSError``."""
        ...

    def recent(self, table_id: str, limit: int = KEEP_LINES) -> list[SavedLine]:
        """The table's last ``limit`` lines, oldest first (none: ``[]``)."""
        ...


class FileChat:
    """:class:`ChatStore` of the data directory: ``tables/<id>.chat.jsonl``.

    Each line is appended and fsynced before it is sent; a kill -9 loses at most a
    line never sent (a torn last line is skipped when read). Past
    :data:`MAX_FILE_BYTES` the file is rewritten, atomically, with its last
    :data:`KEEP_LINES` lines."""

    def __init__(self, tables_dir: Path, *, max_bytes: int = MAX_FILE_BYTES) -> None:
        self.tables_dir = Path(tables_dir)
        self.max_bytes = max_bytes
        # The host's I/O threads: one line at a time, so a rewrite never drops one
        # appended meanwhile.
        self._lock = threading.Lock()

    def path(self, table_id: str) -> Path:
        return self.tables_dir / f"{table_id}.chat.jsonl"

    def add(self, table_id: str, line: SavedLine) -> None:
        with self._lock:
            self._add(table_id, line)

    def _add(self, table_id: str, line: SavedLine) -> None:
        path = self.path(table_id)
        data = json.dumps(line.to_json(), ensure_ascii=True, separators=(",", ":")) + "\n"
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            end = os.fstat(fd).st_size
            if end and os.pread(fd, 1, end - 1) != b"\n":
                data = "\n" + data  # a torn last line (a kill -9 mid-write) stays apart
            os.write(fd, data.encode("ascii"))
            os.fsync(fd)
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > self.max_bytes:
            kept = self.recent(table_id)
            text = "".join(
                json.dumps(k.to_json(), ensure_ascii=True, separators=(",", ":")) + "\n"
                for k in kept
            )
            write_text_atomic(path, text)

    def recent(self, table_id: str, limit: int = KEEP_LINES) -> list[SavedLine]:
        try:
            raw = self.path(table_id).read_bytes()[-self.max_bytes * 2 :]
        except FileNotFoundError:
            return []
        lines: deque[SavedLine] = deque(maxlen=limit)
        for row in raw.split(b"\n"):
            if not row.strip():
                continue
            try:
                data = json.loads(row)
            except ValueError:
                continue
            saved = SavedLine.from_json(data)
            if saved is not None:
                lines.append(saved)
        return list(lines)


class PostgresChat:
    """:class:`ChatStore` of ``--database``: rows of ``paris_chat`` (one line's JSON
    each, made by :func:`~paris_tui.host.store.postgres.ensure_schema`), one insert per
    line, committed before the line is sent."""

    def __init__(self, tables: PostgresStore) -> None:
        self.tables = tables

    def add(self, table_id: str, line: SavedLine) -> None:
        data = json.dumps(line.to_json(), ensure_ascii=True, separators=(",", ":"))
        with self.tables.tx() as conn:
            conn.execute(
                "INSERT INTO paris_chat (table_id, line) VALUES (%s, %s)", (table_id, data)
            )

    def recent(self, table_id: str, limit: int = KEEP_LINES) -> list[SavedLine]:
        with self.tables.tx() as conn:
            rows = conn.execute(
                "SELECT line FROM paris_chat WHERE table_id = %s ORDER BY id DESC LIMIT %s",
                (table_id, limit),
            ).fetchall()
        out: list[SavedLine] = []
        for (row,) in reversed(rows):
            with contextlib.suppress(ValueError):
                saved = SavedLine.from_json(json.loads(row))
                if saved is not None:
                    out.append(saved)
        return out


def _refuse_text(text: str) -> str:
    try:
        return normalize_chat(text)
    except InvalidChatError as exc:
        raise Refusal("bad_chat", str(exc)) from None


class TableChat:
    """The host's chat: who may say what, at which rate, to whom; what is kept."""

    def __init__(
        self,
        host: AccountsSource,
        store: ChatStore,
        *,
        quota: Quota = CHAT_QUOTA,
        events: EventBus | None = None,
    ) -> None:
        self.host = host
        self.store = store
        self.quota = quota
        self.owners = Window(quota.per_owner, quota.seconds)
        self.addresses = Window(quota.per_address, quota.seconds)
        self.total = Window(quota.total, quota.seconds, max_keys=1)
        self._recent: dict[str, deque[SavedLine]] = {}
        # The connections whose history (:meth:`history`) is being read and sent.
        self._joining: set[Peer] = set()
        # Each table's lock while a line of it is kept and sent (gone when unused).
        self._saying: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        if events is not None:
            events.subscribe(self.hear)

    def hear(self, event: TableEvent) -> Awaitable[None] | None:
        """A game over (its players get the watchers' lines), a table served again."""
        match event:
            case GameOver(table):
                return self.game_over(table)
            case TableResumed(table):
                self.forget(table.id)  # lines said meanwhile elsewhere: read them again
        return None

    async def _lines(self, table_id: str) -> deque[SavedLine]:
        lines = self._recent.get(table_id)
        if lines is None:
            loop = asyncio.get_running_loop()
            try:
                kept = await loop.run_in_executor(self.host.io_pool, self.store.recent, table_id)
            except OSError as exc:
                log.error("table %s: could not read its chat: %s", table_id, exc)
                kept = []
            lines = self._recent.setdefault(table_id, deque(kept, maxlen=KEEP_LINES))
        return lines

    def forget(self, table_id: str) -> None:
        """Drop the table's recent lines kept in memory: read from the store again
        when next needed (a table served again, maybe after another host of the
        database served it and kept lines of its own meanwhile)."""
        self._recent.pop(table_id, None)

    async def say(self, conn: Peer, message: Chat) -> None:
        """Check, keep and send one line (raises :class:`Refusal`, never fatal)."""
        room = conn.room
        if room is None:
            raise Refusal("not_seated", "sit at or watch a table to chat")
        said = None if message.text is None else _refuse_text(message.text)
        seat = conn.seat
        account_id: int | None = None
        new: Claim | None = None
        if seat is not None:
            name = room.referee.players[seat].name
            account_id = room.owners.get(seat)
        elif message.name is not None:
            claim = self.host.gate.prove(message.name, message.token, vouched=conn.vouched)
            if claim.account is not None:
                name, account_id = claim.account.name, claim.account.id
                conn.chat_account = account_id  # its lines to read are filtered too
            elif claim.create is not None and claim.create.door != "token":
                # A door proved the name (an SSH key, a browser's cookie) and it is
                # nobody's: the first line makes the account, as a first seat does.
                name, new = claim.name, claim
            else:
                raise Refusal(
                    "name_taken",
                    f"{message.name} is no account on this host: a watcher chats as an "
                    "account (sit at a table once under the name) or as nobody",
                )
        else:
            name = ""
        owner = owner_key(name) if name else None
        if account_id is not None and self.muted(account_id):
            raise Refusal("muted", f"the host's operator muted {name} in every table's chat")
        self._count(owner, conn.address_key)
        if new is not None:
            loop = asyncio.get_running_loop()
            made = await loop.run_in_executor(self.host.io_pool, self.host.gate.commit, new)
            name, account_id = made.name, made.id
            conn.chat_account = account_id
            log.info("a watcher's chat line made the account %s", printable(made.name))
        ref = room.referee
        channel: ChatChannel = "watchers" if seat is None and not ref.is_over else "table"
        line = SavedLine(int(time.time()), name, seat, channel, said, message.phrase, account_id)
        # A table's lines are kept and sent one at a time, in order.
        async with self._saying.setdefault(room.id, asyncio.Lock()):
            lines = await self._lines(room.id)
            only = channel == "watchers"
            asked = {a for a in self._readers(room, watchers_only=only).values() if a is not None}

            def keep() -> set[int]:
                self.store.add(room.id, line)
                return self._muting(account_id, asked)

            loop = asyncio.get_running_loop()
            try:
                muting = await loop.run_in_executor(self.host.io_pool, keep)
            except OSError as exc:
                log.error("table %s: could not keep a chat line: %s", room.id, exc)
                raise Refusal("unavailable", "the host cannot keep chat lines now") from None
            # Kept: from now on a newcomer's history has the line. It is sent to those
            # whose history was sent before, who came while it was kept too (asked then
            # whether they mute its writer: one more I/O job, only when some did).
            lines.append(line)
            log.info("table %s: a chat line from %s", room.id, printable(name) or "a watcher")
            ready = self._ready(room, watchers_only=only)
            late = {a for a, _joins in ready.values() if a is not None and a not in asked}
            if late:
                muting |= await loop.run_in_executor(
                    self.host.io_pool, self._muting, account_id, late
                )
            data = encode(line.message(room.id))
            for reader, (reader_account, joins) in ready.items():
                if reader_account in muting or not self._still(reader, room, joins):
                    continue  # a muting account's connection, or one gone (or back: its history)
                reader.send_bytes(data)

    def _readers(self, room: Table, *, watchers_only: bool) -> dict[Peer, int | None]:
        """The table's connections a line goes to (protocol 4), each with the account
        it reads as (a seat's owner, a watcher's named account, or ``None``)."""
        targets = [*room.watchers] if watchers_only else [*room.seated.values(), *room.watchers]
        return {c: self.reader_account(c) for c in targets if c.protocol >= MIN_VERSION}

    def _ready(self, room: Table, *, watchers_only: bool) -> dict[Peer, tuple[int | None, int]]:
        """:meth:`_readers` whose history was sent (none being read: that one will have
        the lines kept so far), each with its account and its count of histories."""
        return {
            c: (a, c.chat_joins)
            for c, a in self._readers(room, watchers_only=watchers_only).items()
            if c not in self._joining
        }

    def _still(self, conn: Peer, room: Table, joins: int) -> bool:
        """Whether ``conn`` still reads ``room`` as when its :meth:`_ready` was taken
        (not gone, nor gone and back: a history of its own since)."""
        return (
            conn.room is room
            and not conn.closed
            and conn.chat_joins == joins
            and conn not in self._joining
        )

    @staticmethod
    def reader_account(conn: Peer) -> int | None:
        """The account ``conn`` reads the chat as: its seat's owner, else the account
        a watcher named (proven), else ``None`` (no account: nothing filtered)."""
        room = conn.room
        if room is not None and conn.seat is not None:
            return room.owners.get(conn.seat)
        return conn.chat_account

    def _muting(self, writer: int | None, readers: set[int]) -> set[int]:
        """Which of ``readers`` (accounts) mute ``writer`` (in an I/O thread)."""
        if writer is None:
            return set()
        return set(self._hiding({writer}, readers))

    def _hiding(self, writers: set[int], readers: set[int]) -> dict[int, set[int]]:
        """Each of ``readers`` (accounts) that mutes some of ``writers``, with those it
        mutes: one read of the accounts store (in an I/O thread). Accounts that cannot
        be read filter nothing (logged): the clients still hide the writers of the
        lists they were sent."""
        store = self.host.accounts
        if store is None or not writers or not readers:
            return {}
        try:
            return store.muting(writers, readers)
        except AccountsUnavailable as exc:
            log.error("could not read who mutes a chat line's writer: %s", exc)
            return {}

    async def _mutes_of(self, conn: Peer) -> tuple[list[str], set[int]]:
        """:meth:`_muted_by` for the account ``conn`` reads as, in an I/O thread (no
        account, or no accounts store: nothing, and no hop)."""
        account = self.reader_account(conn)
        if account is None or self.host.accounts is None:
            return [], set()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.host.io_pool, self._muted_by, account)

    def _muted_by(self, account_id: int | None) -> tuple[list[str], set[int]]:
        """The names and ids of the writers ``account_id`` mutes (in an I/O thread;
        none, or accounts that cannot be read: nothing)."""
        store = self.host.accounts
        if store is None or account_id is None:
            return [], set()
        try:
            muted = store.chat_mutes(account_id)
        except AccountsUnavailable as exc:
            log.error("could not read an account's chat mutes: %s", exc)
            return [], set()
        return [a.name for a in muted], {a.id for a in muted}

    def _count(self, owner: str | None, address: str) -> None:
        """Count one line of ``owner`` (an account's key; ``None``: an anonymous
        watcher at ``address``), or refuse it (counted nowhere then)."""
        window, key, who = (
            (self.owners, owner, "this account")
            if owner is not None
            else (self.addresses, address, "this address")
        )
        for limit, at, what in ((window, key, who), (self.total, GLOBAL, "the host")):
            if not limit.allows(at):
                wait = max(1, round(limit.retry_after(at)))
                raise Refusal(
                    "chat_limited", f"too many chat lines from {what}: say the next in {wait} s"
                )
        window.add(key)
        self.total.add(GLOBAL)

    def muted(self, account_id: int) -> bool:
        accounts = self.host.accounts
        if accounts is None:
            return False
        try:
            return accounts.is_muted(account_id)
        except AccountsUnavailable as exc:
            raise self.host.gate.broken(exc) from None

    # --- a player's mutes (kept with the accounts) ----------------------------------------

    async def mutes(self, conn: Peer, message: MutesRequest) -> None:
        """Show, add or remove a writer the account hides; answered with the list.

        Never refused: a connection that is no account (an anonymous watcher, a
        name not proven, a host without accounts), a name that is no account, a
        full list or accounts that cannot be read leave the list as it is, and the
        client keeps its mute for the run."""
        account_id = self._account_of(conn, message)
        store = self.host.accounts
        if account_id is None or store is None:
            conn.send(MutesInfo(()))
            return
        muted = None
        if message.action != "show" and message.muted is not None:
            with contextlib.suppress(InvalidNameError):
                muted = normalize_name(message.muted)

        def change() -> list[str]:
            if muted is not None:
                other = store.find(muted)
                if other is not None and folded(other.name) == folded(muted):
                    if other.id == account_id:
                        pass  # one's own lines are never hidden
                    elif message.action == "add":
                        store.add_chat_mute(account_id, other.id)
                    else:
                        store.remove_chat_mute(account_id, other.id)
            return [a.name for a in store.chat_mutes(account_id)]

        loop = asyncio.get_running_loop()
        try:
            names = await loop.run_in_executor(self.host.io_pool, change)
        except AccountsUnavailable as exc:
            log.error("could not keep a chat mute: %s", exc)
            return
        conn.send(MutesInfo(tuple(names)))

    def _account_of(self, conn: Peer, message: MutesRequest) -> int | None:
        """The account a mutes request is of: the seat's owner, or the watcher's
        proven account, else ``None``."""
        room = conn.room
        if room is not None and conn.seat is not None:
            return room.owners.get(conn.seat)
        if message.name is None:
            return None
        try:
            claim = self.host.gate.prove(message.name, message.token, vouched=conn.vouched)
        except Refusal:
            return None
        if claim.account is None:
            return None
        conn.chat_account = claim.account.id  # the lines it reads are that account's
        return claim.account.id

    async def watching(self, conn: Peer, message: Watch) -> None:
        """A watch that names an account (protocol 4): proven as in a join (raises
        :class:`Refusal`: ``bad_token``, ``name_taken``, ``account_locked``), then
        the connection reads the chat as that account. A name a door proved
        that is nobody's yet is watched under (its first line makes the
        account); a name nothing proves is refused."""
        conn.chat_account = None
        if message.name is None or conn.protocol < MIN_VERSION:
            return
        try:
            name = normalize_name(message.name)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        loop = asyncio.get_running_loop()
        claim = await loop.run_in_executor(
            self.host.io_pool, self.host.gate.prove, name, message.token, None, conn.vouched
        )
        if claim.account is not None:
            conn.chat_account = claim.account.id
        elif claim.create is None or claim.create.door == "token":
            raise Refusal(
                "name_taken",
                f"{name} is no account on this host: watch without a name, or sit at a "
                "table once under it",
            )

    async def history(self, conn: Peer, room: Table) -> None:
        """Send a newcomer (just seated, or watching) the recent lines it may read:
        its account's mutes first (when it has some), and none of the lines of the
        writers it mutes."""
        if conn.protocol < MIN_VERSION:
            return
        # Until its history is sent, a line said is not sent to it: the history has it.
        conn.chat_joins += 1
        self._joining.add(conn)
        try:
            names, muted = await self._mutes_of(conn)
            if names:
                conn.send(MutesInfo(tuple(names)))
            lines = await self._lines(room.id)
            hide = conn.seat is not None and not room.referee.is_over
            data = b"".join(
                encode(line.message(room.id))
                for line in lines
                if not (hide and line.channel == "watchers") and line.account not in muted
            )
            if data:
                conn.send_bytes(data)
        finally:
            self._joining.discard(conn)

    async def game_over(self, room: Table) -> None:
        """The game ended: its players get the watchers' lines they were not sent
        (but for the writers each mutes: read in an I/O thread)."""
        lines = self._recent.get(room.id)
        kept = [line for line in lines or () if line.channel == "watchers"]
        if not kept:
            return
        # A player whose history is being read gets them there (the game is over).
        players = {
            c: (self.reader_account(c), c.chat_joins)
            for c in room.seated.values()
            if c.protocol >= MIN_VERSION and c not in self._joining
        }
        writers = {line.account for line in kept if line.account is not None}
        readers = {a for a, _joins in players.values() if a is not None}
        hiding: dict[int, set[int]] = {}
        if writers and readers and self.host.accounts is not None:
            loop = asyncio.get_running_loop()  # every player's mutes: one read
            hiding = await loop.run_in_executor(self.host.io_pool, self._hiding, writers, readers)
        for conn, (account, joins) in players.items():
            if not self._still(conn, room, joins):
                continue
            muted = hiding.get(account, set()) if account is not None else set()
            data = b"".join(
                encode(line.message(room.id)) for line in kept if line.account not in muted
            )
            if data:
                conn.send_bytes(data)


def chat_store(tables: TableStore, tables_dir: Path) -> ChatStore:
    """The chat store beside the host's table store (files, or the database)."""
    if isinstance(tables, PostgresStore):
        return PostgresChat(tables)
    return FileChat(tables_dir)
