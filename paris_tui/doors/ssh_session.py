"""One SSH connection and its session: who logs in with which key, then a line and
exit 1, or the app on a pty.

Identity is the SSH user name, which must pass the core's name rule, and access
is by public key only (no passwords, no keyboard-interactive). The door gives the
app a ticket saying which key it verified (its SHA-256 fingerprint, looked up when
offered but bound only once asyncssh has verified the signature, in
``auth_completed``), and the host makes the account with that key when it first
takes a seat (or opens a table, or says a chat line as a watcher: a name is an
account); a login that is refused, or only looks at the lobby, makes nothing.
Whether the key may be the name, and the link code asked for when it may not yet,
are :mod:`.ssh_link`'s. The door starts no app for such a session and issues no
ticket until the code is good. When the SSH channel closes the app is hung up;
when the app exits the channel closes with its exit status.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.doors.forks import ForkedProcess, ForkServer
from paris_tui.doors.pacing import (
    BYTES_BURST,
    BYTES_RATE,
    NOTICE_QUIET,
    NOTICE_SECONDS,
    NOTICE_WAIT,
    RESIZE_EVENTS,
    InputBudget,
    notice,
    too_fast_words,
)
from paris_tui.doors.ssh_app import (
    DATA_DIR_ENV,
    MAX_COLUMNS,
    MAX_ROWS,
    AppProcess,
    app_environment,
    player_dir,
    plays_by_ear,
)
from paris_tui.doors.ssh_config import SSHConfig
from paris_tui.doors.ssh_keys import AuthorizedKeys
from paris_tui.doors.ssh_link import KeyProof, TypedLines
from paris_tui.doors.starts import Slot, StartSlots
from paris_tui.host.accounts.identity import DoorProof
from paris_tui.host.accounts.names import folded
from paris_tui.host.server import Host
from paris_tui.host.sshlib import asyncssh
from paris_tui.i18n import _, ngettext
from paris_tui.trace import mark
from paris_tui.wording import in_language, language_of, name_problem

__all__ = [
    "INPUT_BURST",
    "INPUT_RATE",
    "TERMINAL_RESET",
    "SSHConnection",
    "SSHSession",
    "SessionDoor",
]

log = logging.getLogger("paris_tui.doors.ssh")

INPUT_BURST = BYTES_BURST
"""Keys (bytes) a session may send at once; beyond it they come at :data:`INPUT_RATE`
(and key events at :data:`~paris_tui.doors.pacing.EVENTS_RATE`: doors/pacing.py)."""
INPUT_RATE = BYTES_RATE
"""Bytes a second a session's keys are taken at, after a burst; more is dropped."""


class SessionDoor(Protocol):
    """What a connection and its session ask of their door (:class:`~.ssh.SSHDoor`)."""

    host: Host
    config: SSHConfig
    app_port: int
    app_address: str
    closing: bool
    authorized: AuthorizedKeys | None
    starts: StartSlots

    def connect(self, conn: SSHConnection) -> bool:
        """Count a new connection; False: drop it."""

    def disconnect(self, conn: SSHConnection) -> None:
        """``conn`` is lost."""

    def admit(self, conn: SSHConnection) -> bool:
        """Count an app session for ``conn``; False over the caps."""

    def address_full(self, conn: SSHConnection) -> bool:
        """Whether ``conn``'s address holds its whole share of the app sessions."""

    def release(self, conn: SSHConnection) -> None:
        """``conn``'s app session is over (once)."""

    def login_hint(self, user: str, conn: SSHConnection) -> str:
        """``-p PORT USER@ADDRESS`` as the person would type it."""

    async def fork_server(self) -> ForkServer | None:
        """The fork server the apps start from, or None: by exec."""

    def track(self, task: asyncio.Task[None]) -> None:
        """A session's start, cancelled if the door closes first."""

    def app_started(self, app: AppProcess) -> None:
        """A session's app runs (hung up if the door closes)."""

    def app_ended(self, app: AppProcess) -> None:
        """A session's app is gone."""


# reporting (1000, 1002, 1003, 1006, 1015), focus events (1004), bracketed paste (2004),
# a hidden cursor (25) and the alternate screen (1049). A hung-up app cannot undo them
# (its pty is closed first), so the door does, when the host stops.
TERMINAL_RESET = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    "\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[?1049l"
)


def _line(text: str, pty: bool) -> bytes:
    return (text + ("\r\n" if pty else "\n")).encode("utf-8", "replace")


class SSHSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: a line and exit 1, or the app on a pty."""

    def __init__(self, conn: SSHConnection) -> None:
        self.conn = conn
        self.door = conn.door
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.budget = InputBudget(asyncio.get_running_loop().time())  # keys at a person's pace
        self._last_output = 0.0  # when the app last wrote (the notice waits for a pause)
        self._pending_size: tuple[int, int] | None = None  # a resize the budget held back
        self._held = False  # input dropped: the channel is not read for a while
        self.term: str | None = None
        self.size = (80, 24)
        self.pty = False
        self.app: AppProcess | None = None
        self.ticket: str | None = None
        self.typed = TypedLines(self._write)  # lines typed at a prompt (a link code)
        self._early: bytearray = bytearray()
        self._task: asyncio.Task[None] | None = None
        self._gone = False
        self._slot: Slot | None = None  # its turn to start the app (doors/starts.py)
        self._folder: Path | None = None  # the player's folder (players/<hash>)
        self._player = ""  # whose app runs (for the log), and since when
        self._started = 0.0

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def gone(self) -> bool:
        """Is the SSH connection lost (asked again after each wait)?"""
        return self._gone

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self.pty = True
        self.term = term_type
        self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True  # the command is not run: the session gets the app or one line

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no sftp, no anything else

    def session_started(self) -> None:
        mark("ssh session")
        self._task = asyncio.get_running_loop().create_task(self._start())
        self.door.track(self._task)

    async def _start(self) -> None:
        try:
            await self._begin()
        except Exception:  # a bug ends this session, never the host
            log.exception("SSH session of %s: internal error", self.conn)
            with in_language(self.language):
                self.refuse(_("paris-tui: something went wrong on the host; try again"))

    @property
    def language(self) -> str:
        """The language of this session: what the client sent (``PARIS_TUI_LANG``,
        its locale: ``ssh -o SetEnv`` / ``SendEnv``), else English."""
        return language_of(self._client_env())

    def refuse(self, text: str) -> None:
        """``text`` on the session's standard error, and the session ends with status 1."""
        chan = self.chan
        if chan is None or self._gone:
            return
        with contextlib.suppress(OSError, asyncssh.Error):
            chan.write_stderr(_line(text, self.pty))
            chan.exit(1)

    async def _begin(self) -> None:
        door, conn = self.door, self.conn
        user = conn.username or ""
        language = self.language
        if not self.pty:
            with in_language(language):
                self.refuse(
                    _("paris-tui needs a terminal: {command}").format(
                        command=f"ssh -t {door.login_hint(user, conn)}"
                    )
                )
            return
        try:
            name = normalize_name(user)
        except InvalidNameError as exc:
            with in_language(language):
                self.refuse(
                    _(
                        "paris-tui: the user name {user} cannot be a player's name ({problem}); "
                        "log in as your name, e.g. {command}"
                    ).format(
                        user=printable(user[:80]),
                        problem=name_problem(exc),
                        command=f"ssh {door.login_hint('ann', conn)}",
                    )
                )
            return
        fingerprint = conn.fingerprint
        if fingerprint is None:  # pragma: no cover - public keys are the only way in
            with in_language(language):
                self.refuse(_("paris-tui: log in with a public key"))
            return
        proof = KeyProof(
            door.host,
            self,
            conn,
            conn.username or "",
            conn.key_label,
            lambda who: door.login_hint(who, conn),
        )
        if not await proof.check(name, fingerprint, language):
            return
        if self._gone:
            return
        if not door.admit(conn):
            log.warning("SSH %s: too many SSH players: refused", conn)
            with in_language(language):
                if door.address_full(conn) and not door.closing:
                    most = door.config.max_per_address
                    self.refuse(
                        ngettext(
                            "paris-tui: {n} SSH player from your address is here already, "
                            "the most this host allows from one address; try again later",
                            "paris-tui: {n} SSH players from your address are here already, "
                            "the most this host allows from one address; try again later",
                            most,
                        ).format(n=most)
                    )
                else:
                    self.refuse(
                        _("paris-tui: the host has too many players over SSH; try again later")
                    )
            return
        # Logins take turns to start their apps, fairly by address (doors/starts.py).
        slot = await door.starts.acquire(conn.address)
        if self.gone():
            slot.release()
            door.release(conn)
            return
        self._slot = slot
        mark("ssh slot")
        self.ticket = ticket = door.host.issue_ticket(
            DoorProof("ssh", fingerprint, folded(name), conn.key_label, conn.address)
        )
        env = app_environment(
            ticket, self.term, self._client_env(), language, door.host.door_socket
        )
        argv = door.config.command(door.app_port, name, door.app_address)
        try:
            self._folder = player_dir(door.host.store.root, name)
            env[DATA_DIR_ENV] = str(self._folder)
            # In the host's own 0700 directory: ``python -m`` looks for modules in
            # the working directory first, and the host's may be anyone's (/tmp).
            self.app = await AppProcess.start(
                argv,
                env,
                self.size,
                self._output,
                self._app_exited,
                cwd=door.host.store.root,
                fork_server=await door.fork_server(),
            )
        except OSError as exc:
            slot.release()
            door.release(conn)
            log.error("SSH %s: cannot start the app: %s", conn, exc)
            with in_language(language):
                self.refuse(
                    _("paris-tui: the host cannot start the game right now; try again later")
                )
            return
        door.app_started(self.app)
        mark(f"ssh app {self.app.pid}")
        warm = "warm" if isinstance(self.app.proc, ForkedProcess) else "exec"
        log.info("SSH %s: %s plays (app %d, %s)", conn, name, self.app.pid, warm)
        self._player, self._started = name, asyncio.get_running_loop().time()
        if self.gone():  # the connection went while the app started
            self.hang_up()
            return
        if self._early:
            self.app.send(bytes(self._early))
            self._early.clear()

    def _write(self, text: str) -> None:
        if self.chan is not None and not self._gone:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write(text.encode("utf-8", "replace"))

    def say(self, text: str) -> None:
        """``text`` as a line on the session's terminal."""
        self._write(text + "\r\n")

    def _client_env(self) -> Mapping[str, str]:
        if self.chan is None:
            return {}
        with contextlib.suppress(Exception):
            return dict(self.chan.get_environment())
        return {}

    def _output(self, data: bytes) -> None:
        self._last_output = asyncio.get_running_loop().time()
        if self._slot is not None:
            self._slot.output(len(data))
            if self._slot.done:
                mark("ssh slot freed")
                self._slot = None
        if self.chan is not None and not self._gone:
            self.chan.write(data)

    def _app_exited(self, status: int) -> None:
        if self._slot is not None:
            self._slot.release()
        if self.app is not None:
            self.door.app_ended(self.app)
            how = f"killed by signal {-status}" if status < 0 else f"exit status {status}"
            lasted = asyncio.get_running_loop().time() - self._started
            log.info(
                "SSH %s: %s's session ended after %d s (app %d, %s)",
                self.conn,
                self._player,
                lasted,
                self.app.pid,
                how,
            )
        self._revoke()
        self.door.release(self.conn)
        if self._folder is not None:
            # A look at the lobby writes nothing: the folder made for the app goes
            # when the app left nothing in it (an app of the same name running now
            # makes it again when it writes: the app makes its data directory).
            with contextlib.suppress(OSError):
                self._folder.rmdir()
        if self.chan is not None and not self._gone:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.exit(status)

    def _within_rate(self, data: bytes) -> bytes:
        """What of ``data`` the budget lets through (no paste, say 4 MiB, balloons the
        app or keeps it busy: a person types a few keys a second); the rest is
        dropped, and the session told so once."""
        loop = asyncio.get_running_loop()
        taken = self.budget.take(data, loop.time())
        if self.budget.last_dropped and self.chan is not None and not self._held:
            # A flood waits in the client (SSH's window), not in the host's loop.
            self._held = True
            self.chan.pause_reading()
            loop.call_later(self.budget.hold, self._unhold)
        if self.budget.dropped_once:
            log.warning("SSH %s sends keys too fast: the excess is dropped", self.conn)
            if self.app is not None and self.pty:
                asyncio.get_running_loop().create_task(self._tell_too_fast())
        return taken

    def _unhold(self) -> None:
        self._held = False
        if self.chan is None or self._gone:
            return
        if self.app is None or self.app.input_backlog <= 16384:
            self.chan.resume_reading()  # else the backlog's check resumes it

    async def _tell_too_fast(self) -> None:
        """Say once, on the bottom row, that input was dropped: between two of the
        app's frames (after a pause in its output), then let the app repaint over it
        (played by ear: a line of its own, between two of the app's lines)."""
        loop = asyncio.get_running_loop()
        waited = 0.0
        while loop.time() - self._last_output < NOTICE_QUIET and waited < NOTICE_WAIT:
            await asyncio.sleep(NOTICE_QUIET / 2)
            waited += NOTICE_QUIET / 2
        if self._gone or self.app is None:
            return
        if plays_by_ear(self._client_env()):
            # Plain lines: a line of its own (drawn over the bottom row, the next line
            # the app wrote ran into it), and nothing to repaint.
            self._write_bytes(f"\r\n{too_fast_words(self.language)}\r\n".encode())
            return
        columns, rows = min(self.size[0], MAX_COLUMNS), min(self.size[1], MAX_ROWS)
        self._write_bytes(notice(too_fast_words(self.language), columns, rows))
        await asyncio.sleep(NOTICE_SECONDS)
        if not self._gone and self.app is not None:
            # A repaint: a size the app has not, then its own.
            self.app.resize(columns, max(1, min(self.size[1], MAX_ROWS) - 1))
            await asyncio.sleep(0.2)
            if not self._gone and self.app is not None:
                self.app.resize(*self.size)

    def _write_bytes(self, data: bytes) -> None:
        if self.chan is not None and not self._gone:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write(data)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        data = self._within_rate(data)
        if not data:
            return
        if self.app is not None:
            self.app.send(data)
            if self.app.input_backlog > 65536 and self.chan is not None:
                self.chan.pause_reading()
                self._loop_resume()
        elif self.typed.asking:
            self.typed.keys(data)
        elif len(self._early) < 4096:
            self._early += data

    def _loop_resume(self) -> None:
        def check() -> None:
            if self.app is None or self.chan is None or self._gone:
                return
            if self._held:
                return  # _unhold resumes
            if self.app.input_backlog <= 16384:
                self.chan.resume_reading()
            else:
                asyncio.get_running_loop().call_later(0.05, check)

        asyncio.get_running_loop().call_later(0.05, check)

    def eof_received(self) -> bool:
        # The terminal's input is over: the app goes as when a terminal closes.
        self.typed.end()
        self.hang_up()
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        """A resize repaints the app's whole screen: it costs key events
        (:data:`~paris_tui.doors.pacing.RESIZE_EVENTS`); one the budget cannot pay now
        is applied (the last size asked) once it can, so the screen ends at the right size."""
        self.size = (width, height)
        if self.app is None:
            return
        loop = asyncio.get_running_loop()
        if self._pending_size is None and self.budget.spend(RESIZE_EVENTS, loop.time()):
            self.app.resize(width, height)
            return
        if self._pending_size is None:
            loop.call_later(RESIZE_EVENTS / self.budget.events_rate, self._resize_later)
        self._pending_size = (width, height)

    def _resize_later(self) -> None:
        size, self._pending_size = self._pending_size, None
        if size is None or self.app is None or self._gone:
            return
        self.budget.spend(RESIZE_EVENTS, asyncio.get_running_loop().time())  # owed or not
        self.app.resize(*size)

    def pause_writing(self) -> None:
        if self.app is not None:
            self.app.pause_output()

    def resume_writing(self) -> None:
        if self.app is not None:
            self.app.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone = True
        self.conn.session_ended(self)
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self.hang_up()
        self._revoke()

    def _revoke(self) -> None:
        ticket, self.ticket = self.ticket, None
        if ticket is not None:
            self.door.host.revoke_ticket(ticket)

    def hang_up(self) -> None:
        if self.app is not None:
            self.app.hang_up(self.door.config.hangup_grace)

    def host_stopped(self) -> None:
        """The host stops and has hung up this session's app: give the terminal back as
        the app found it, and say why the session ends (before the app's exit closes the
        channel: its pty is closed, so nothing of the app comes after)."""
        if self.app is None or not self.pty:
            return
        self._write(TERMINAL_RESET)
        with in_language(self.language):
            self.say("\r\n" + _("paris-tui: the host stopped; every game is saved"))


class SSHConnection(asyncssh.SSHServer):
    """One SSH connection: who logs in, with which key; at most one app session."""

    def __init__(self, door: SessionDoor) -> None:
        self.door = door
        self.ssh: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.username: str | None = None
        self.key: asyncssh.SSHKey | None = None
        self.fingerprint: str | None = None  # the key's, once asyncssh verified it
        self._offered: asyncssh.SSHKey | None = None
        self.counted = False
        self.admitted = False  # runs an app (counted in the session caps)
        self.session: SSHSession | None = None

    def __str__(self) -> str:
        return f"connection from {self.address}"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        mark("ssh accept")
        self.ssh = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.door.connect(self):
            log.warning("SSH %s refused: too many connections", self)
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections")
            return
        self.counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.disconnect(self)

    # --- authentication: public keys only ---------------------------------------------

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        admitted = self.door.authorized is None or self.door.authorized.admits(key, self.address)
        if admitted:
            # asyncssh verifies the signature right after this answer (this also runs
            # for keys a client only offers): the key verified last before
            # auth_completed is the one that logged in, and only then is it bound.
            self._offered = key
        return admitted

    def auth_completed(self) -> None:
        self.key = self._offered
        if self.key is not None:
            self.fingerprint = str(self.key.get_fingerprint("sha256"))

    @property
    def key_label(self) -> str:
        """What an operator's list shows of the key: its type and comment."""
        if self.key is None:
            return ""
        comment = self.key.get_comment() or ""
        return printable(f"{self.key.get_algorithm()} {comment}".strip())[:100]

    # --- sessions -----------------------------------------------------------------------

    def session_requested(self) -> SSHSession | bool:
        if self.session is not None or self.door.closing:
            return False  # one session at a time per connection
        self.session = SSHSession(self)
        return self.session

    def session_ended(self, session: SSHSession) -> None:
        if self.session is session:
            self.session = None
