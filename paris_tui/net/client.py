"""A client's connection to a host, and the seat tokens a client keeps.

:class:`HostClient` speaks the protocol of :mod:`paris_tui.net.protocol`
over asyncio streams: it says hello, answers the host's pings by itself
(also while the program waits for something else: :meth:`HostClient.while_waiting`,
so a player thinking at a prompt is never cut off as silent), and turns
every line the host sends into a typed message (a line it cannot read is a
:class:`~paris_tui.net.protocol.ProtocolError`, never a crash).
:class:`TokenStore` keeps the secret token a host issues on a seat's first
join, in the client's data directory (mode 0600), so the player comes back
to the same seat.

>>> import asyncio
>>> async def demo(port: int) -> None:  # doctest: +SKIP
...     client = await HostClient.connect("127.0.0.1", port)
...     seated = await client.join("Ann")
...     print(seated.view.own_route)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from .. import __version__
from ..core import Move
from ..core.record import write_text_atomic
from .protocol import (
    MAX_HOST_LINE,
    PROTOCOL_VERSION,
    AccountInfo,
    AccountRequest,
    Bye,
    ClientMessage,
    FinishedGame,
    FriendsInfo,
    FriendsRequest,
    Games,
    GetRecord,
    Hello,
    HostMessage,
    Join,
    Leader,
    Leave,
    Left,
    ListGames,
    ListTables,
    Online,
    OpenTable,
    Ping,
    Play,
    Pong,
    ProtocolError,
    RecordSent,
    Refused,
    Seated,
    TableInfo,
    Tables,
    Waiting,
    Watch,
    Watching,
    Welcome,
    decode_host,
    encode,
)
from .tournaments_wire import (
    NewTournament,
    TournamentAction,
    TournamentList,
    TournamentPage,
    TournamentsRequest,
)

__all__ = ["MAX_KEPT", "HostClient", "HostClosedError", "RefusedError", "TokenStore"]

CLIENT_NAME = f"paris-tui {__version__}"

T = TypeVar("T")

# Messages kept for the next receive() at most (what came while waiting for an answer
# or a typed line, with nobody listening): the oldest go first.
MAX_KEPT = 256


class HostClosedError(ConnectionError):
    """The host closed the connection (``reason``: ``shutdown``, ``replaced``, ``idle``,
    or ``closed`` when it just hung up); ``address``: where its table went (its
    new referee's ``HOST:PORT``), when the host said."""

    def __init__(self, reason: str, address: str | None = None) -> None:
        self.reason = reason
        self.address = address
        super().__init__(f"the host closed the connection ({reason})")


class RefusedError(Exception):
    """The host refused a request; ``code`` is the protocol's error code."""

    def __init__(self, refused: Refused) -> None:
        self.code = refused.code
        self.refused = refused
        super().__init__(f"{refused.code}: {refused.message}")


class HostClient:
    """One connection to a host (asyncio). Build it with :meth:`connect`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.welcome: Welcome | None = None
        self.leaderboard: tuple[Leader, ...] = ()  # the last tables answer's (ratings)
        self.online: tuple[Online, ...] = ()  # ... and who is online at the host
        self.endpoint: tuple[str, int] | None = None  # the host and port it connected to
        self._held: list[HostMessage] = []  # what came while waiting (while_waiting, _answer)
        # Who listens for what the host sends unasked (a round opened, a friend here, the
        # lobby's tables) while a request waits for its answer; None: such a message is
        # kept for the next receive() instead, never dropped.
        self.hear: Callable[[HostMessage], None] | None = None
        # Where the table went, as the host's last word said (Bye.address): the
        # host that referees it now, to join there directly.
        self.moved_to: str | None = None

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        *,
        client: str = CLIENT_NAME,
        language: str = "en",
        timeout: float = 10.0,
        path: str | None = None,
    ) -> HostClient:
        """Connect, say hello, and wait for the host's welcome (``path``: over the
        host's Unix socket for doors' apps instead of ``host``:``port``).

        Raises ``OSError`` (cannot connect), ``TimeoutError``,
        :class:`RefusedError` (e.g. ``host_full``), :class:`HostClosedError`
        or :class:`~paris_tui.net.protocol.ProtocolError`.
        """
        async with asyncio.timeout(timeout):
            if path is not None:
                reader, writer = await asyncio.open_unix_connection(path, limit=MAX_HOST_LINE)
            else:
                reader, writer = await asyncio.open_connection(host, port, limit=MAX_HOST_LINE)
        self = cls(reader, writer)
        self.endpoint = (host, port)
        try:
            self.send(Hello(PROTOCOL_VERSION, client, language))
            answer = await self.receive(timeout)
            if isinstance(answer, Refused):
                raise RefusedError(answer)
            if not isinstance(answer, Welcome):
                raise ProtocolError("bad_message", "the host did not answer hello with welcome")
        except BaseException:
            self.abort()
            raise
        self.welcome = answer
        return self

    # --- lines ----------------------------------------------------------------------

    def send(self, message: ClientMessage) -> None:
        """Queue one message (the transport sends it; no waiting)."""
        if not self.writer.is_closing():
            self.writer.write(encode(message))

    async def receive(self, timeout: float | None = None) -> HostMessage:
        """The next message from the host (pings are answered here and not returned).

        Raises :class:`HostClosedError` when the host hangs up, ``TimeoutError``,
        or :class:`~paris_tui.net.protocol.ProtocolError` on a line it cannot read.
        """
        if self._held:
            return self._held.pop(0)
        async with asyncio.timeout(timeout):
            while True:
                try:
                    line = await self.reader.readuntil(b"\n")
                except asyncio.IncompleteReadError:
                    raise HostClosedError("closed") from None
                except asyncio.LimitOverrunError:
                    raise ProtocolError("too_large", "the host sent a line too long") from None
                try:
                    message = decode_host(line)
                except ProtocolError as exc:
                    exc.line = line[:64]
                    raise
                if isinstance(message, Ping):
                    self.send(Pong(message.nonce))
                    continue
                if isinstance(message, Bye):
                    self.moved_to = message.address
                    raise HostClosedError(message.reason, message.address)
                return message

    async def while_waiting(self, waiting: Awaitable[T]) -> T:
        """Await ``waiting`` (a player's answer at a prompt, say) while reading the host:
        its pings are answered, so the host never cuts this connection off as silent,
        and any other message goes to :attr:`hear` at once (when someone listens), else
        is kept for the next :meth:`receive`.

        Raises :class:`HostClosedError` (with the host's reason) if the host hangs up
        meanwhile, or :class:`~paris_tui.net.protocol.ProtocolError`; ``waiting`` is
        then cancelled.
        """
        wanted = asyncio.ensure_future(waiting)
        try:
            while not wanted.done():
                heard = asyncio.ensure_future(self._receive_one())
                await asyncio.wait({wanted, heard}, return_when=asyncio.FIRST_COMPLETED)
                if not heard.done():
                    heard.cancel()  # a line half read stays in the stream's buffer
                    with contextlib.suppress(asyncio.CancelledError):
                        await heard
                    break
                message = heard.result()  # raises HostClosedError when it hung up
                if message is not None and self.hear is not None:
                    self.hear(message)
                elif message is not None:
                    self._keep([message])
            return wanted.result()
        finally:
            if not wanted.done():
                wanted.cancel()

    async def _receive_one(self) -> HostMessage | None:
        """One line from the host: a ping (answered here: None) or a message."""
        try:
            line = await self.reader.readuntil(b"\n")
        except asyncio.IncompleteReadError:
            raise HostClosedError("closed") from None
        except asyncio.LimitOverrunError:
            raise ProtocolError("too_large", "the host sent a line too long") from None
        message = decode_host(line)
        if isinstance(message, Ping):
            self.send(Pong(message.nonce))
            return None
        if isinstance(message, Bye):
            self.moved_to = message.address
            raise HostClosedError(message.reason, message.address)
        return message

    def _keep(self, messages: list[HostMessage], *, first: bool = False) -> None:
        """Keep ``messages`` for the next :meth:`receive` (``first``: before those kept
        already, as they came before them), at most :data:`MAX_KEPT`."""
        self._held = [*messages, *self._held] if first else [*self._held, *messages]
        del self._held[:-MAX_KEPT]

    async def ask(self, request: ClientMessage, *kinds: type[T], timeout: float = 10.0) -> T:
        """Send ``request`` and wait for its answer, one of ``kinds`` (raises
        :class:`RefusedError`, ``TimeoutError`` after ``timeout`` in all).

        What the host sends unasked before the answer (a push: a round opened, a friend
        arrived, the lobby's tables) goes to :attr:`hear` at once, or, with nobody
        listening, is kept for the next :meth:`receive`: never dropped."""
        self.send(request)
        answer: T = await self._answer(timeout, *kinds)
        return answer

    async def _answer(self, timeout: float, *kinds: type[Any]) -> Any:
        passed: list[HostMessage] = []
        try:
            async with asyncio.timeout(timeout):
                while True:
                    message = await self.receive()
                    if isinstance(message, Refused):
                        raise RefusedError(message)
                    if isinstance(message, kinds) and not _pushed(message):
                        return message
                    if self.hear is not None:
                        self.hear(message)
                    else:
                        passed.append(message)
        finally:
            self._keep(passed, first=True)

    # --- requests ---------------------------------------------------------------------

    async def join(
        self,
        name: str,
        token: str | None = None,
        table: str | None = None,
        timeout: float = 10.0,
        *,
        code: str | None = None,
    ) -> Seated:
        """Take the seat reserved for ``name`` (proving the account with ``token`` or a
        link ``code``). Raises :class:`RefusedError`."""
        self.send(Join(name, token, table, code))
        seated: Seated = await self._answer(timeout, Seated)
        return seated

    async def watch(
        self,
        table: str,
        timeout: float = 10.0,
        *,
        name: str | None = None,
        token: str | None = None,
    ) -> Watching:
        """Watch ``table`` (as the account ``name``, proven by ``token``, when given:
        protocol 4). Raises :class:`RefusedError`."""
        self.send(Watch(table, name, token))
        watching: Watching = await self._answer(timeout, Watching)
        return watching

    async def tables(self, timeout: float = 10.0) -> tuple[TableInfo, ...]:
        self.send(ListTables())
        answer: Tables = await self._answer(timeout, Tables)
        self.leaderboard = answer.leaderboard
        self.online = answer.online
        return answer.tables

    async def games(
        self, timeout: float = 10.0, *, player: str | None = None
    ) -> tuple[FinishedGame, ...]:
        """The host's finished games, newest first (protocol 4); only ``player``'s
        when one is named (an older host sends every game: they are filtered here)."""
        self.send(ListGames(player))
        answer: Games = await self._answer(timeout, Games)
        if player is None:
            return answer.games
        key = player.casefold()
        return tuple(g for g in answer.games if any(n.casefold() == key for n in g.names))

    async def friends(self, name: str, token: str | None, timeout: float = 10.0) -> FriendsInfo:
        """``name``'s friends and who of them is here (protocol 4); this connection
        listens for them from now on (and counts as that account, online)."""
        self.send(FriendsRequest(name, token, "show"))
        answer: FriendsInfo = await self._answer(timeout, FriendsInfo)
        return answer

    async def tournaments(
        self, name: str | None = None, token: str | None = None, timeout: float = 10.0
    ) -> TournamentList:
        """The host's tournaments (protocol 6), ``name``'s entries marked; a connection
        that names an account is told when a round seats it (:class:`RoundStart`)."""
        self.send(TournamentsRequest("list", None, name, token))
        answer: TournamentList = await self._answer(timeout, TournamentList)
        return answer

    async def tournament(
        self,
        action: TournamentAction,
        tournament: int | None,
        name: str | None = None,
        token: str | None = None,
        timeout: float = 10.0,
        *,
        create: NewTournament | None = None,
    ) -> TournamentPage:
        """A tournament's page (``show``), or after ``enter``, ``withdraw`` or
        ``create`` (protocol 6). Raises :class:`RefusedError`."""
        self.send(TournamentsRequest(action, tournament, name, token, create))
        answer: TournamentPage = await self._answer(timeout, TournamentPage)
        return answer

    async def record(self, table: str, timeout: float = 10.0) -> RecordSent:
        """A finished game's public record (protocol 4). Raises :class:`RefusedError`."""
        self.send(GetRecord(table))
        answer: RecordSent = await self._answer(timeout, RecordSent)
        return answer

    async def open_table(
        self,
        name: str,
        seats: tuple[str, ...],
        *,
        small_tour: str = "both-lines",
        final_tours: str = "secret",
        timeout: float = 10.0,
        token: str | None = None,
        code: str | None = None,
        move_time: float | None = None,
    ) -> Waiting | Seated:
        """Protocol 2: open a table (seats ``"me"``, ``"open"``, ``"ai:<level>"``),
        timed with ``move_time`` seconds per move when given.

        :class:`Waiting` while seats are free; :class:`Seated` when the game starts at
        once (no seat is ``open``). Raises :class:`RefusedError`."""
        self.send(OpenTable(name, seats, small_tour, final_tours, token, code, move_time))
        answer: Waiting | Seated = await self._answer(timeout, Waiting, Seated)
        return answer

    async def sit(
        self, name: str, table: str, timeout: float = 10.0, *, token: str | None = None
    ) -> Waiting | Seated:
        """Protocol 2: take a free seat of a waiting ``table`` as ``name`` (or a seat
        reserved for ``name`` there): :class:`Waiting` until the game starts."""
        self.send(Join(name, token, table))
        answer: Waiting | Seated = await self._answer(timeout, Waiting, Seated)
        return answer

    async def account(
        self,
        name: str,
        token: str | None,
        action: str = "show",
        key: str | None = None,
        timeout: float = 10.0,
    ) -> AccountInfo:
        """Protocol 3: the account ``name`` (proven by ``token``): ``show``, a link
        ``code``, or ``add_key``. Raises :class:`RefusedError`."""
        self.send(AccountRequest(name, token, action, key))
        answer: AccountInfo = await self._answer(timeout, AccountInfo)
        return answer

    async def leave(self, timeout: float = 10.0) -> str | None:
        """Protocol 2: leave the seat held or the table watched; the table left."""
        self.send(Leave())
        answer: Left = await self._answer(timeout, Left)
        return answer.table

    def play(self, move: Move, move_count: int) -> None:
        """Send a move for the joined seat (the answer comes as an update or a refusal)."""
        self.send(Play(move, move_count))

    # --- closing ----------------------------------------------------------------------

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError, asyncio.CancelledError):
            await self.writer.wait_closed()

    def abort(self) -> None:
        self.writer.transport.abort()


def _pushed(message: HostMessage) -> bool:
    """A message of an answer's type that is never an answer: a friend arrived."""
    return isinstance(message, FriendsInfo) and message.arrived is not None


class TokenStore:
    """The seat tokens this client was issued, one JSON file (mode 0600).

    Keyed by the host's address and the seat's name (ignoring case): a host
    seats a name at one unfinished table at a time.
    """

    FORMAT = "paris-tui-tokens"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            data: Any = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        tokens = data.get("tokens") if isinstance(data, dict) else None
        if not isinstance(tokens, dict):
            return {}
        return {
            str(k): {str(n): str(t) for n, t in v.items() if isinstance(t, str)}
            for k, v in tokens.items()
            if isinstance(v, dict)
        }

    def get(self, address: str, name: str) -> str | None:
        return self._load().get(address, {}).get(name.casefold())

    def put(self, address: str, name: str, token: str) -> None:
        """Remember ``token`` (written atomically, readable by this user only)."""
        tokens = self._load()
        tokens.setdefault(address, {})[name.casefold()] = token
        text = json.dumps({"format": self.FORMAT, "version": 1, "tokens": tokens}, indent=2)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, text + "\n")
