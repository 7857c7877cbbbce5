"""The SSH door of ``paris-tui host``: ``ssh -p 2222 ann@host`` plays Ann's seat.

An :mod:`asyncssh` server runs in the host's own event loop. Each SSH
session that asks for a terminal gets ONE app process of its own, the same
client app a player runs on their own machine (:mod:`paris_tui.host.child`):
``paris-tui join`` against this host over loopback, on a new pseudo-terminal
of the session's size (:mod:`.ssh_app`), with a ticket saying which key logged
in as which name (:meth:`~paris_tui.host.server.Host.issue_ticket`, revoked when
the session ends) so that it takes that name's seat, or opens the lobby when the
name has none.

The door's parts: :mod:`.ssh_config` (what it listens on and allows),
:mod:`.ssh_keys` (its host key and ``--authorized-keys``), :mod:`.ssh_session`
(a connection's authentication and its one session), :mod:`.ssh_link` (whether
a key may be a name, and the link-code prompt), :mod:`.ssh_app` (a session's app
on a pty) and :class:`SSHDoor` here (the server, its bounds, its end).

Access is by public key only; a name is an account on the host and the key
must be one of its keys (or be linked to it by a link code typed at the
session's prompt); ``--authorized-keys`` admits only the keys it lists
(OpenSSH format, re-read when it changes), refused during authentication as
OpenSSH does: the operator has said those people may not come in at all. An
account still owns its name.

Bounded: connections in all and per address (IPv6: its /64; over the cap a
connection is dropped before authentication), app sessions in all and per
address (``--max-ssh-per-address``), one app session per connection, a login
grace time, keep-alives for dead peers; windows clamped to
:data:`MAX_COLUMNS` x :data:`MAX_ROWS`, keys taken at a person's pace (:mod:`.pacing`).
Each app connects to the host on its private Unix socket
(:data:`~paris_tui.host.child.DOOR_SOCKET_ENV`), in the doors' own pool,
bounded by the door's sessions
(:meth:`~paris_tui.host.server.Host.reserve_door_slot`), so neither many SSH
players nor strangers' connections to the public port keep a player out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
from collections import Counter

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.doors.forks import DoorForks, ForkServer
from paris_tui.doors.ssh_app import MAX_COLUMNS, MAX_ROWS, AppProcess, app_environment, player_dir
from paris_tui.doors.ssh_config import AppCommand, SSHConfig, SSHDoorError, client_app
from paris_tui.doors.ssh_keys import HOST_KEY_FILE, AuthorizedKeys, load_host_key
from paris_tui.doors.ssh_session import INPUT_BURST, INPUT_RATE, SSHConnection
from paris_tui.doors.starts import StartSlots
from paris_tui.host.accounts.names import prepare_names
from paris_tui.host.limits import address_key
from paris_tui.host.server import Host
from paris_tui.host.sshlib import asyncssh

__all__ = [
    "HOST_KEY_FILE",
    "INPUT_BURST",
    "INPUT_RATE",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "AppCommand",
    "SSHConfig",
    "SSHDoor",
    "SSHDoorError",
    "app_environment",
    "load_host_key",
    "player_dir",
    "ssh_join_line",
]

log = logging.getLogger("paris_tui.doors.ssh")


class SSHDoor:
    """The SSH server of a :class:`~paris_tui.host.server.Host` (already started)."""

    def __init__(
        self, host: Host, config: SSHConfig, *, app_port: int, app_address: str | None = None
    ) -> None:
        self.host = host
        self.config = config
        self.app_port = app_port
        self.app_address = app_address or _loopback_for(host.config.bind)
        root = host.store.root
        self.host_key_path = root / HOST_KEY_FILE
        self.authorized: AuthorizedKeys | None = None
        self.fingerprint = ""
        self.port = 0
        self.closing = False
        self._server: asyncssh.SSHAcceptor | None = None
        self._connections: set[SSHConnection] = set()
        self._per_address: Counter[str] = Counter()  # connections, authenticated or not
        self._sessions: Counter[str] = Counter()  # apps running
        self._apps: set[AppProcess] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._forks = DoorForks()
        self.starts = StartSlots()

    async def start(self) -> tuple[str, int]:
        """Read or create the host key, read the authorized keys, listen.

        Raises :class:`SSHDoorError` with one line for the operator."""
        # asyncssh says a dozen lines per connection at INFO: its warnings are enough.
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
        key = load_host_key(self.host_key_path)
        self.fingerprint = key.get_fingerprint("sha256")
        if self.config.authorized_keys is not None:
            self.authorized = AuthorizedKeys(self.config.authorized_keys)
        cfg = self.config
        try:
            self._server = await asyncssh.create_server(
                lambda: SSHConnection(self),
                cfg.bind,
                cfg.port,
                server_host_keys=[key],
                encoding=None,
                line_editor=False,
                login_timeout=cfg.login_timeout,
                keepalive_interval=cfg.keepalive,
                keepalive_count_max=3,
                # Keys arrive in packets of 16 KiB at most, 32 KiB in flight: a huge
                # write comes in pieces the input budget (doors/pacing.py) refuses, and
                # while the door holds a flooding session's reading, at most this waits.
                window=32 * 1024,
                max_pktsize=16 * 1024,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                config=None,
            )
        except OSError as exc:
            raise SSHDoorError(
                f"cannot listen for SSH on {printable(cfg.bind)} port {cfg.port}: "
                f"{exc.strerror or exc} (--ssh-port off: no SSH)"
            ) from None
        if self.config.command is client_app:  # the apps are paris-tui's own: start warm
            self._forks.open(self.host, self.host.store.root)
        prepare_names()  # not at the first login, which every login of a burst waits for
        address = self._server.get_addresses()[0]
        self.port = int(address[1])
        log.debug("SSH door on %s:%d, host key %s", address[0], self.port, self.fingerprint)
        return str(address[0]), self.port

    def track(self, task: asyncio.Task[None]) -> None:
        """A session's start, cancelled if the door closes first."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def app_started(self, app: AppProcess) -> None:
        """A session's app runs: hung up and reaped when the door closes."""
        self._apps.add(app)

    def app_ended(self, app: AppProcess) -> None:
        """A session's app is gone."""
        self._apps.discard(app)

    async def fork_server(self) -> ForkServer | None:
        """The fork server the apps start from (doors/forks.py), once it is ready;
        None: start them by exec (another command, or no fork server: see the log)."""
        return None if self.closing else await self._forks.get()

    # --- bounds ---------------------------------------------------------------------------

    def connect(self, conn: SSHConnection) -> bool:
        """Count a new connection; ``False`` (drop it) over twice the session caps:
        room for people who are still logging in, none for a flood."""
        if self.closing:
            return False
        cfg = self.config
        if (
            len(self._connections) >= 2 * cfg.max_sessions
            or self._per_address[address_key(conn.address)] >= 2 * cfg.max_per_address
        ):
            return False
        self._connections.add(conn)
        self._per_address[address_key(conn.address)] += 1
        return True

    def disconnect(self, conn: SSHConnection) -> None:
        self.release(conn)
        if conn in self._connections:
            self._connections.discard(conn)
            key = address_key(conn.address)
            self._per_address[key] -= 1
            if self._per_address[key] <= 0:
                del self._per_address[key]

    def admit(self, conn: SSHConnection) -> bool:
        """Count an app session for ``conn``; ``False`` over the caps.

        Each admitted session's app connects to the host from :attr:`app_address`:
        the host lets one more connection from there for it."""
        cfg = self.config
        if (
            self.closing
            or not conn.counted
            or sum(self._sessions.values()) >= cfg.max_sessions
            or self._sessions[address_key(conn.address)] >= cfg.max_per_address
        ):
            return False
        self._sessions[address_key(conn.address)] += 1
        conn.admitted = True
        self.host.reserve_door_slot(self.app_address)
        return True

    def address_full(self, conn: SSHConnection) -> bool:
        """Whether ``conn``'s address holds its whole share of the app sessions (what a
        refused login is told: its address, not the host, is full)."""
        return self._sessions[address_key(conn.address)] >= self.config.max_per_address

    def release(self, conn: SSHConnection) -> None:
        """``conn``'s app session is over (once)."""
        if not conn.admitted:
            return
        conn.admitted = False
        key = address_key(conn.address)
        self._sessions[key] -= 1
        if self._sessions[key] <= 0:
            del self._sessions[key]
        self.host.release_door_slot(self.app_address)

    def login_hint(self, user: str, conn: SSHConnection) -> str:
        """``-p PORT USER@ADDRESS`` as the person would type it."""
        where = "<this host>"
        if conn.ssh is not None:
            sock = conn.ssh.get_extra_info("sockname")
            if isinstance(sock, tuple) and sock:
                where = str(sock[0])
        try:
            who = shlex.quote(normalize_name(user))
        except InvalidNameError:
            who = "NAME"
        return ssh_join_line(self.port, who, where)

    # --- the end --------------------------------------------------------------------------

    async def close(self) -> None:
        """Stop listening, hang up every app and reap it, close every connection."""
        if self.closing:
            return
        self.closing = True
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for app in list(self._apps):
            app.hang_up(self.config.hangup_grace)
        for conn in list(self._connections):
            if conn.session is not None:
                conn.session.host_stopped()
        waits = [app.done for app in self._apps]
        if waits:
            await asyncio.wait(waits, timeout=self.config.hangup_grace + 5.0)
        for conn in list(self._connections):
            if conn.ssh is not None:
                conn.ssh.close()
        for app in list(self._apps):  # pragma: no cover - only if SIGKILL did not reap it
            with contextlib.suppress(OSError):
                app.proc.kill()
                app.proc.wait(1.0)
        if self._server is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2.0):
                    await self._server.wait_closed()
        await self._forks.close()
        log.info("SSH door closed")


def _loopback_for(bind: str) -> str:
    """Where a door's app reaches a host bound to ``bind``."""
    if bind in ("", "0.0.0.0", "127.0.0.1", "localhost"):
        return "127.0.0.1"
    if bind in ("::", "::1"):
        return "::1"
    return bind


def ssh_join_line(port: int, user: str, address: str) -> str:
    """``-p PORT USER@ADDRESS`` (no ``-p`` for port 22): the arguments of ``ssh``."""
    if address in ("0.0.0.0", "::", ""):
        address = "<this host>"
    return f"{user}@{address}" if port == 22 else f"-p {port} {user}@{address}"
