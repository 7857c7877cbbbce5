"""Helpers of the host tests: a host on a loopback port, bot clients, raw sockets.

Every wait is bounded: a receive has a timeout and every loop a step limit,
so a broken host fails a test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from paris_tui.core import Move, SeatView
from paris_tui.core.record import Record
from paris_tui.host.accounts.postgres import PostgresAccounts
from paris_tui.host.accounts.store import AccountStore, open_accounts
from paris_tui.host.referee import APP_KEY, TOURNAMENT_KEY, parse_seats
from paris_tui.host.server import Host, HostConfig, Limits
from paris_tui.host.store.files import HostStore, TableStore
from paris_tui.host.store.postgres import PostgresStore
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import (
    HostMessage,
    Presence,
    Refused,
    Seated,
    Update,
    decode_host,
)

TIMEOUT = 10.0
MAX_STEPS = 2000
# The database running_host serves from by default (None: the data directory's files);
# set per test by conftest.py's --host-store postgres.
DATABASE: str | None = None


@asynccontextmanager
async def running_host(
    data_dir: Path,
    tables: Sequence[str] = (),
    *,
    seed: int = 1,
    limits: Limits | None = None,
    ai_delay: float = 0.0,
    ai_takeover: float | None = None,
    database: str | None = None,
    rated_addresses: tuple[str, ...] = (),
) -> AsyncIterator[tuple[Host, int]]:
    """A host serving ``tables`` (and the store's unfinished ones) on 127.0.0.1, from
    ``database`` (else :data:`DATABASE`, else ``data_dir``'s files). Every client of
    a test is at 127.0.0.1: its games are rated only with ``rated_addresses``
    ``("127.0.0.1",)`` (the operator's ``--rated-address``)."""
    host = Host(
        HostConfig(
            data_dir=data_dir,
            port=0,
            ai_delay=ai_delay,
            ai_takeover=ai_takeover,
            limits=limits or Limits(),
            database=database or DATABASE,
            rated_addresses=rated_addresses,
        )
    )
    host.load()
    for i, text in enumerate(tables):
        host.open_table(parse_seats(text), seed=seed + i)
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.close()


def a_round_table(record: Record) -> Record:
    """``record`` as a tournament round's table (the Winter Cup's), as the host opens one."""
    meta = dict(record.extra.get(APP_KEY) or {})
    meta[TOURNAMENT_KEY] = "Winter Cup"
    return replace(record, extra={**record.extra, APP_KEY: meta})


def put_record(data_dir: Path, table_id: str, record: Record) -> None:
    """Give the store running_host serves from a record: ``data_dir``'s files (a new
    folder each time: a new store), or :data:`DATABASE`, emptied first likewise (every
    table of it: moves, accounts, chat, ratings; the schema made again on open)."""
    tables: TableStore = HostStore(data_dir)
    if DATABASE is not None:
        tables = PostgresStore(DATABASE)
        wipe = PostgresStore(DATABASE)
        wipe.open()
        try:
            with wipe.pool.connection() as conn:
                conn.execute("DROP SCHEMA public CASCADE")
                conn.execute("CREATE SCHEMA public")
        finally:
            wipe.close()
    tables.open()
    try:
        tables.put_record(table_id, record.to_json_dict())
    finally:
        tables.close()


def store_args(data_dir: Path) -> list[str]:
    """The operator's commands' options (host accounts, host ratings) for the store
    running_host serves from: ``--data-dir``, or ``--database`` :data:`DATABASE`."""
    if DATABASE is not None:
        return ["--database", DATABASE]
    return ["--data-dir", str(data_dir)]


@contextmanager
def stored_tables(data_dir: Path) -> Iterator[TableStore]:
    """The tables of the store running_host serves from, opened by a store of their
    own (no host need run)."""
    tables: TableStore = HostStore(data_dir) if DATABASE is None else PostgresStore(DATABASE)
    tables.open()
    try:
        yield tables
    finally:
        tables.close()


def stored_table_ids(data_dir: Path) -> list[str]:
    """The tables with a record in the store running_host serves from (archived
    ones left out)."""
    with stored_tables(data_dir) as tables:
        return tables.table_ids()


def stored_record(data_dir: Path, table_id: str) -> Record:
    """The table's record in the store running_host serves from (no host need run)."""
    with stored_tables(data_dir) as tables:
        record = tables.load_record(table_id)
    assert record is not None, f"no record of {table_id}"
    return record


def stored_record_file(data_dir: Path, table_id: str) -> Path:
    """A file of the table's record, for ``paris-tui replay``: the data directory's
    own, or the database's text of it written beside (as ``host migrate`` reads it)."""
    if DATABASE is None:
        return HostStore(data_dir).record_path(table_id)
    with stored_tables(data_dir) as tables:
        assert isinstance(tables, PostgresStore)
        text = tables.record_text(table_id)
    assert text is not None, f"no record of {table_id}"
    path = data_dir / f"{table_id}.from-database.json"
    path.write_text(text, encoding="utf-8")
    return path


@contextmanager
def stored_accounts(data_dir: Path) -> Iterator[AccountStore]:
    """The accounts of the store running_host serves from, opened apart from any host
    (the operator's commands do the same): ``data_dir``'s accounts.sqlite, or
    :data:`DATABASE`'s."""
    if DATABASE is None:
        accounts: AccountStore = open_accounts(data_dir / "host")
        try:
            yield accounts
        finally:
            accounts.close()
        return
    tables = PostgresStore(DATABASE)
    tables.open()
    try:
        yield PostgresAccounts(tables.pool)
    finally:
        tables.close()


def saved(host: Host, table_id: str) -> Record:
    """The table's record as the host's store holds it."""
    record = host.tables.load_record(table_id)
    assert record is not None, f"no record of {table_id}"
    return record


def first_legal(view: SeatView) -> Move:
    return view.legal_moves[0]


def random_player(seed: int) -> Callable[[SeatView], Move]:
    rng = random.Random(seed)
    return lambda view: rng.choice(view.legal_moves)


@dataclass
class Bot:
    """A remote player driven by the test: it moves when the view says it is its turn."""

    client: HostClient
    seated: Seated
    choose: Callable[[SeatView], Move] = first_legal
    view: SeatView = field(init=False)
    received: list[HostMessage] = field(default_factory=list)
    sent_at: int = -1

    def __post_init__(self) -> None:
        self.view = self.seated.view

    def _maybe_move(self) -> None:
        view = self.view
        if view.my_turn and self.sent_at != len(view.moves):
            self.sent_at = len(view.moves)
            self.client.play(self.choose(view), len(view.moves))

    async def step(self) -> HostMessage:
        self._maybe_move()
        message = await self.client.receive(TIMEOUT)
        self.received.append(message)
        if isinstance(message, Update):
            self.view = message.view
        elif isinstance(message, Refused):
            raise AssertionError(f"refused: {message}")
        return message

    async def play_until(self, done: Callable[[SeatView], bool]) -> SeatView:
        for _ in range(MAX_STEPS):
            if done(self.view):
                return self.view
            await self.step()
        raise AssertionError("the game did not get there")

    async def play_to_end(self) -> SeatView:
        return await self.play_until(lambda v: v.is_over)


async def join_bot(
    port: int, name: str, choose: Callable[[SeatView], Move] = first_legal, **join: Any
) -> Bot:
    client = await HostClient.connect("127.0.0.1", port)
    try:
        seated = await client.join(name, **join)
    except BaseException:  # a refused join leaves no connection behind (retry loops)
        await client.close()
        raise
    return Bot(client, seated, choose)


async def wait_presence(bot: Bot, seat: int, status: str) -> None:
    """Read (and play) until a presence message shows ``seat`` as ``status``."""
    for _ in range(MAX_STEPS):
        message = await bot.step()
        if isinstance(message, Presence) and message.seats[seat].status == status:
            return
    raise AssertionError(f"seat {seat} never became {status}")


class RawClient:
    """A socket speaking bytes, for hostile clients and for recording what the host sends."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.lines: list[bytes] = []

    @classmethod
    async def open(cls, port: int) -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 23)
        return cls(reader, writer)

    def send(self, data: bytes) -> None:
        self.writer.write(data)

    async def line(self, timeout: float = TIMEOUT) -> bytes:
        """The next line, or ``b""`` once the host closed the connection."""
        async with asyncio.timeout(timeout):
            try:
                data = await self.reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                data = exc.partial
        if data:
            self.lines.append(data)
        return data

    async def message(self, timeout: float = TIMEOUT) -> HostMessage | None:
        data = await self.line(timeout)
        return decode_host(data) if data else None

    async def closed(self, timeout: float = TIMEOUT) -> list[HostMessage]:
        """Every message until the host closes the connection (bounded)."""
        out: list[HostMessage] = []
        for _ in range(MAX_STEPS):
            try:
                message = await self.message(timeout)
            except ConnectionResetError:
                return out
            if message is None:
                return out
            out.append(message)
        raise AssertionError("the host never closed the connection")

    def close(self) -> None:
        self.writer.transport.abort()


HELLO = b'{"type":"hello","protocol":1,"client":"test"}\n'
