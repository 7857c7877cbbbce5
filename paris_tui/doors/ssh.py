"""The SSH door of ``paris-tui host``: ``ssh -p 2222 ann@host`` plays Ann's seat.

An :mod:`asyncssh` server runs in the host's own event loop. Each SSH
session that asks for a terminal gets ONE app process of its own, the same
client app a player runs on their own machine (:mod:`paris_tui.host.child`):
``paris-tui join`` against this host over loopback, on a new pseudo-terminal
of the session's size, with a ticket saying which key logged in as which
name (:meth:`~paris_tui.host.server.Host.issue_ticket`, revoked when the
session ends) so that it takes that name's seat, or opens the lobby when the
name has none. Bytes are copied
both ways; every window resize reaches the pty (and so the app, as
``SIGWINCH``); when the SSH channel closes the app is hung up (pty closed,
``SIGHUP``, ``SIGKILL`` after a grace period) and reaped; when the app exits
the channel closes with its exit status.

Identity is the SSH user name, which must pass the core's name rule, and
access is by public key only (no passwords, no keyboard-interactive). A
name is an account on the host (:mod:`paris_tui.host.accounts.store`): the key
must be one of the account's keys. A name that is nobody's yet is taken by
the key that first takes a seat (or opens a table) with it: the door gives
the app a ticket saying which key it verified (its SHA-256 fingerprint,
looked up when offered but bound only once asyncssh has verified the
signature, in ``auth_completed``), and the host makes the account with that
key then (or at its first chat line as a watcher: a name is an account); a
login that is refused, or only looks at the lobby, makes nothing.
``--authorized-keys`` admits only the keys it lists (OpenSSH format, re-read
when it changes); an account still owns its name.

A login as an account with a key it does not have is answered *after*
authentication, on the terminal: the session says whose name it is and
asks for a link code (made by the account's owner in the app, "Account",
or by the operator); a good code adds the key to the account and the game
starts, anything else ends the session with status 1. A refusal during
authentication would give the person nothing but ``Permission denied
(publickey)``, which reads as a broken key or a typo, not as "that name is
someone else's". The door starts no app for such a session and issues no
ticket until the code is good. Keys that ``--authorized-keys`` does not list
are refused during authentication as OpenSSH does: the operator has said
those people may not come in at all.

Bounded: connections in all and per address (over the cap a connection is
dropped before authentication), one app session per connection, a login
grace time, keep-alives for dead peers; windows clamped to
:data:`MAX_COLUMNS` x :data:`MAX_ROWS`, keys taken at :data:`INPUT_RATE`.
Each app connects to the host on its private Unix socket
(:data:`~paris_tui.host.child.DOOR_SOCKET_ENV`), in the doors' own pool,
bounded by the door's sessions
(:meth:`~paris_tui.host.server.Host.reserve_door_slot`), so neither many SSH
players nor strangers' connections to the public port keep a player out.

Each player's app gets a data directory of its own,
``players/<digest of the name>/`` in the host's data directory (mode 0700):
a language or glyph set switched in the app, and that player's history, are
kept for that player (the name is an account), never in the host
operator's own settings.

The host key, ``ssh_host_ed25519_key``, is created once (mode 0600) in the
host's data directory and reused; its fingerprint is printed at start so
players can check it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import re
import shlex
import signal
import stat
import struct
import subprocess
import termios
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh

from paris_tui.core.record import write_text_atomic
from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.doors.forks import DoorForks, ForkedProcess, ForkServer
from paris_tui.doors.starts import Slot, StartSlots
from paris_tui.glyph_sets import resolve_glyphs
from paris_tui.host.accounts.identity import DoorProof
from paris_tui.host.accounts.names import folded, prepare_names
from paris_tui.host.accounts.store import Account, AccountError, AccountsUnavailable, Credential
from paris_tui.host.child import client_command, client_env
from paris_tui.host.server import Host
from paris_tui.i18n import _
from paris_tui.trace import mark
from paris_tui.wording import in_language, language_of, name_problem

__all__ = [
    "HOST_KEY_FILE",
    "AppCommand",
    "SSHConfig",
    "SSHDoor",
    "SSHDoorError",
    "ssh_join_line",
]

log = logging.getLogger("paris_tui.host.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
PLAYERS_DIR = "players"
DATA_DIR_ENV = "PARIS_TUI_DATA_DIR"  # where the app keeps its files (paris_tui.app.local.storage)
CODE_TRIES = 3  # link codes a session may type
CODE_SECONDS = 180.0  # ... within this long

AppCommand = Callable[[int, "str | None", str], list[str]]
"""``(host port, name, host address) -> argv`` of the app a session runs."""


def _client_app(port: int, name: str | None, address: str) -> list[str]:
    return client_command(port, name, address=address)


@dataclass(frozen=True, slots=True)
class SSHConfig:
    """What the SSH door listens on and allows."""

    port: int = 2222
    bind: str = "127.0.0.1"
    authorized_keys: Path | None = None
    max_sessions: int = 64  # SSH connections (each runs at most one app) at once
    max_per_address: int = 16  # ... from one address
    login_timeout: float = 30.0  # seconds to authenticate
    keepalive: float = 30.0  # a silent peer is probed this often; 3 unanswered: cut off
    hangup_grace: float = 3.0  # seconds between SIGHUP and SIGKILL of a hung-up app
    command: AppCommand = _client_app


class SSHDoorError(Exception):
    """The door cannot start (its files, its port): one line for the operator."""


# --- the host key and the key pins ---------------------------------------------------


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The host key at ``path``, created (ed25519, mode 0600) if there is none.

    Raises :class:`SSHDoorError` if it cannot be read or others may read it.
    """
    where = printable(str(path))
    try:
        info = path.lstat()
    except FileNotFoundError:
        key = asyncssh.generate_private_key("ssh-ed25519")
        text = key.export_private_key("openssh").decode("ascii")
        try:
            write_text_atomic(path, text)  # a temporary file of mode 0600, then renamed
        except OSError as exc:
            raise SSHDoorError(f"cannot write the SSH host key {where}: {exc.strerror}") from None
        log.info("created the SSH host key %s", where)
        return key
    except OSError as exc:
        raise SSHDoorError(f"cannot read the SSH host key {where}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise SSHDoorError(f"the SSH host key {where} is not a regular file")
    if info.st_mode & 0o077:
        raise SSHDoorError(
            f"the SSH host key {where} may be read by others (mode "
            f"{stat.S_IMODE(info.st_mode):04o}): chmod 600 it"
        )
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        raise SSHDoorError(f"cannot read the SSH host key {where}: {exc}") from None


class AuthorizedKeys:
    """``--authorized-keys FILE``: read at start, read again whenever it changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int, int] | None = None
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        self._read(initial=True)

    def _read(self, *, initial: bool = False) -> None:
        where = printable(str(self.path))
        try:
            info = self.path.stat()
            stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
            if stamp == self._stamp:
                return
            keys = asyncssh.read_authorized_keys(str(self.path))
        except (OSError, ValueError, asyncssh.KeyImportError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if initial:
                raise SSHDoorError(f"cannot read --authorized-keys {where}: {why}") from None
            log.error("cannot read %s (%s): the keys read before still count", where, why)
            return
        self._stamp, self._keys = stamp, keys

    def admits(self, key: asyncssh.SSHKey, address: str) -> bool:
        self._read()
        if self._keys is None:
            return False
        return self._keys.validate(key, address, address) is not None


# --- the app on a pty -------------------------------------------------------------------


def _take_terminal() -> None:  # pragma: no cover - runs in the child, before exec
    """Make the pty (stdin) the app's controlling terminal, so that resizes
    reach it as ``SIGWINCH`` and a hang-up as ``SIGHUP``."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


MAX_COLUMNS, MAX_ROWS = 500, 200
"""The largest window a session's app is given (a client asking for more gets this):
more than a real terminal has; its repaint's cost is in benchmarks/ssh_login.py."""

INPUT_BURST = 64 * 1024
"""Keys (bytes) a session may send at once; beyond it they come at :data:`INPUT_RATE`."""
INPUT_RATE = 16 * 1024
"""Bytes a second a session's keys are taken at, after a burst; more is dropped."""


def _set_size(fd: int, columns: int, rows: int) -> None:
    columns = min(max(columns, 1), MAX_COLUMNS) if columns else 80
    rows = min(max(rows, 1), MAX_ROWS) if rows else 24
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


_TRUECOLOR_TERMS = re.compile(
    r"(.*-direct|xterm-kitty|xterm-ghostty|wezterm|alacritty|foot(-extra)?|contour|iterm2?)"
)
_COLOR_SYSTEMS = ("auto", "standard", "256", "truecolor")
_PASSED_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "NO_COLOR", "COLORTERM")
# The host's own language never reaches a player's app (PARIS_TUI_LANG is set anew).
_DROPPED_ENV = ("TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "LC_MESSAGES", "LANGUAGE")
_GLYPHS_ENV = ("PARIS_TUI_GLYPHS", "LC_ALL", "LC_CTYPE", "LANG")


def player_dir(root: Path, name: str) -> Path:
    """The data directory of SSH player ``name`` (a name that passed the name rule):
    ``<root>/players/<sha256 of the name, 16 hex digits>``, made with mode 0700.
    A digest, so that no name (``..``, wide or odd characters) shapes a path."""
    folder = root / PLAYERS_DIR / hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.parent.chmod(0o700)
    return folder


def app_environment(
    ticket: str | None,
    term: str | None,
    client_env_vars: Mapping[str, str],
    language: str | None = None,
    door_socket: str | None = None,
) -> dict[str, str]:
    """The environment of a session's app: the host's, with the session's
    terminal type, the few variables a client may send (``SendEnv``: locale,
    ``NO_COLOR``, ``COLORTERM``, ``TEXTUAL_COLOR_SYSTEM``) and
    ``TEXTUAL_COLOR_SYSTEM=truecolor`` when the client's terminal says it has
    true colour (``COLORTERM`` is not forwarded by default, so the terminal type
    counts too).

    ``language`` (the session's, from what the client sent) becomes the app's
    ``PARIS_TUI_LANG``: never the host's own language, settings or locale."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in _DROPPED_ENV and not k.startswith(("TEXTUAL", "SSH_"))
    }
    if term and re.fullmatch(r"[A-Za-z0-9._+-]{1,64}", term):
        base["TERM"] = term
    else:
        base["TERM"] = "xterm-256color"
    for name in _PASSED_ENV:
        value = client_env_vars.get(name)
        if value is not None and re.fullmatch(r"[A-Za-z0-9._@=+-]{0,64}", value):
            base[name] = value
    if base.get("COLORTERM", "").lower() in ("truecolor", "24bit") or _TRUECOLOR_TERMS.fullmatch(
        base["TERM"]
    ):
        base["TEXTUAL_COLOR_SYSTEM"] = "truecolor"
    # The client's own choice of colours (ssh -o SetEnv=TEXTUAL_COLOR_SYSTEM=standard),
    # when it is one of Textual's.
    system = client_env_vars.get("TEXTUAL_COLOR_SYSTEM")
    if system in _COLOR_SYSTEMS:
        base["TEXTUAL_COLOR_SYSTEM"] = system
    base["PARIS_TUI_LANG"] = language or language_of(client_env_vars)
    # The glyph set is the client's (its PARIS_TUI_GLYPHS, else ascii for a CJK
    # locale), never the host's environment or saved setting.
    glyphs_env = {k: v for k, v in client_env_vars.items() if k in _GLYPHS_ENV}
    base["PARIS_TUI_GLYPHS"] = resolve_glyphs(None, glyphs_env, None)
    # Play by ear (issue 20) only when this client asks: ssh -o SetEnv=PARIS_TUI_SCREEN_READER=1.
    from paris_tui.reader import ENV as SCREEN_READER_ENV
    from paris_tui.reader import wanted

    base.pop(SCREEN_READER_ENV, None)
    if wanted(False, {SCREEN_READER_ENV: client_env_vars.get(SCREEN_READER_ENV, "")[:8]}):
        base[SCREEN_READER_ENV] = "1"
    return client_env(ticket, base, door_socket)


class AppProcess:
    """One app on a new pty, its output copied to ``write``; ``on_exit(status)`` once
    it is gone (reaped) and its last output copied."""

    @classmethod
    async def start(
        cls,
        argv: list[str],
        env: dict[str, str],
        size: tuple[int, int],
        write: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        cwd: Path | None = None,
        fork_server: ForkServer | None = None,
    ) -> AppProcess:
        """The app, forked warm by ``fork_server`` when there is one and it can
        (host/zygote.py), else started by exec as before."""
        if fork_server is not None:
            master, slave = os.openpty()
            forked: ForkedProcess | None = None
            try:
                _set_size(master, *size)
                forked = await fork_server.spawn(
                    argv, env, cwd or Path.cwd(), (slave, slave, slave), tty=True
                )
                if forked is not None:
                    return cls(argv, env, size, write, on_exit, cwd, forked=(forked, master))
            except BaseException:
                if forked is not None:
                    forked.close()  # the fork server ends it
                os.close(master)
                raise
            finally:
                os.close(slave)
            os.close(master)
        return cls(argv, env, size, write, on_exit, cwd)

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        size: tuple[int, int],
        write: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        cwd: Path | None = None,
        *,
        forked: tuple[ForkedProcess, int] | None = None,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._write = write
        self._on_exit = on_exit
        self._pending = bytearray()
        self._reading = False
        self._paused = False
        self._output_done = False
        self._status: int | None = None
        self._kill_timer: asyncio.TimerHandle | None = None
        self._finish_timer: asyncio.TimerHandle | None = None
        self.done: asyncio.Future[int] = self._loop.create_future()
        self.proc: subprocess.Popen[bytes] | ForkedProcess
        if forked is not None:
            self.proc, master = forked
        else:
            master, slave = os.openpty()
            try:
                _set_size(master, *size)
                self.proc = subprocess.Popen(
                    argv,
                    stdin=slave,
                    stdout=slave,
                    stderr=slave,
                    env=env,
                    cwd=cwd,
                    start_new_session=True,
                    preexec_fn=_take_terminal,  # noqa: PLW1509 - one ioctl, no lock, before exec
                    close_fds=True,
                )
            except BaseException:
                os.close(master)
                raise
            finally:
                os.close(slave)
        self.pid = self.proc.pid
        self._master: int | None = master
        os.set_blocking(master, False)
        self._start_reading()
        self._pidfd: int | None = None
        if isinstance(self.proc, ForkedProcess):
            self.proc.add_exit_callback(self._exited)  # the fork server reaps and reports it
            return
        try:
            self._pidfd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):  # not Linux 5.3+: look every so often
            self._loop.call_later(0.2, self._poll)
        else:
            self._loop.add_reader(self._pidfd, self._reap)

    # --- output -----------------------------------------------------------------------

    def _start_reading(self) -> None:
        if self._master is not None and not self._reading and not self._output_done:
            self._loop.add_reader(self._master, self._read)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._master is not None and self._reading:
            self._loop.remove_reader(self._master)
        self._reading = False

    def pause_output(self) -> None:
        """The SSH side is not keeping up: stop reading the app's output for now."""
        self._paused = True
        self._stop_reading()

    def resume_output(self) -> None:
        self._paused = False
        self._start_reading()

    def _read(self) -> None:
        if self._master is None:
            return
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every copy of the pty's other side is closed
            data = b""
        if not data:
            self._output_done = True
            self._stop_reading()
            self._maybe_finish()
            return
        self._write(data)

    # --- input ------------------------------------------------------------------------

    @property
    def input_backlog(self) -> int:
        return len(self._pending)

    def send(self, data: bytes) -> None:
        """Keys for the app; held here while the pty does not take them."""
        if self._master is None or self._status is not None:
            return
        had = bool(self._pending)
        self._pending += data
        if not had:
            self._flush()

    def _flush(self) -> None:
        if self._master is None:
            self._pending.clear()
            return
        while self._pending:
            try:
                written = os.write(self._master, self._pending)
            except BlockingIOError:
                break
            except OSError:
                self._pending.clear()
                break
            del self._pending[:written]
        if self._pending:
            self._loop.add_writer(self._master, self._flush)
        else:
            self._loop.remove_writer(self._master)

    def resize(self, columns: int, rows: int) -> None:
        if self._master is not None:
            _set_size(self._master, columns, rows)

    # --- the end ----------------------------------------------------------------------

    def _poll(self) -> None:
        if self.proc.poll() is None:
            self._loop.call_later(0.2, self._poll)
        else:
            self._exited()

    def _reap(self) -> None:
        if self.proc.poll() is not None:
            self._exited()

    def _exited(self) -> None:
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        if self._kill_timer is not None:
            self._kill_timer.cancel()
        code = self.proc.returncode
        code = 1 if code is None else code
        self._status = code if code >= 0 else 128 - code
        if not self._paused:
            self._read()
        # The last output is read (EIO) unless something else holds the pty open:
        # then the session ends a moment later anyway.
        self._finish_timer = self._loop.call_later(1.0, self._finish)
        self._maybe_finish()

    def _maybe_finish(self) -> None:
        if self._status is not None and (self._output_done or self._master is None):
            self._finish()

    def _finish(self) -> None:
        if self.done.done() or self._status is None:
            return
        if self._finish_timer is not None:
            self._finish_timer.cancel()
        self._close_master()
        self.done.set_result(self._status)
        self._on_exit(self._status)

    def _close_master(self) -> None:
        master, self._master = self._master, None
        if master is None:
            return
        self._loop.remove_reader(master)
        self._loop.remove_writer(master)
        self._reading = False
        self._pending.clear()
        os.close(master)

    def _signal(self, sig: int) -> None:
        if self.proc.returncode is None and self.proc.poll() is None:  # not reaped: pid is ours
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)

    def hang_up(self, grace: float) -> None:
        """The terminal is gone: close the pty (the kernel sends ``SIGHUP``), send
        ``SIGHUP`` ourselves, and ``SIGKILL`` if it is still there after ``grace``."""
        self._close_master()
        if self._status is not None:
            return
        self._signal(signal.SIGHUP)
        if self._kill_timer is None:
            self._kill_timer = self._loop.call_later(grace, self._signal, signal.SIGKILL)


# --- the SSH server ------------------------------------------------------------------------


# What a full-screen app sets in the player's terminal and undoes when it ends: mouse
# reporting (1000, 1002, 1003, 1006, 1015), focus events (1004), bracketed paste (2004),
# a hidden cursor (25) and the alternate screen (1049). A hung-up app cannot undo them
# (its pty is closed first), so the door does, when the host stops.
TERMINAL_RESET = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    "\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[?1049l"
)


def _line(text: str, pty: bool) -> bytes:
    return (text + ("\r\n" if pty else "\n")).encode("utf-8", "replace")


class _Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session: a line and exit 1, or the app on a pty."""

    def __init__(self, conn: _Connection) -> None:
        self.conn = conn
        self.door = conn.door
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._bucket = float(INPUT_BURST)  # bytes of keys it may send now
        self._bucket_at = asyncio.get_running_loop().time()
        self._dropped_said = False
        self.term: str | None = None
        self.size = (80, 24)
        self.pty = False
        self.app: AppProcess | None = None
        self.ticket: str | None = None
        self._typed: asyncio.Queue[str | None] | None = None  # lines typed at a prompt
        self._line = bytearray()
        self._early: bytearray = bytearray()
        self._task: asyncio.Task[None] | None = None
        self._gone = False
        self._slot: Slot | None = None  # its turn to start the app (host/starts.py)
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
        self.door._tasks.add(self._task)
        self._task.add_done_callback(self.door._tasks.discard)

    async def _start(self) -> None:
        try:
            await self._begin()
        except Exception:  # a bug ends this session, never the host
            log.exception("SSH session of %s: internal error", self.conn)
            with in_language(self.language):
                self._refuse(_("paris-tui: something went wrong on the host; try again"))

    @property
    def language(self) -> str:
        """The language of this session: what the client sent (``PARIS_TUI_LANG``,
        its locale: ``ssh -o SetEnv`` / ``SendEnv``), else English."""
        return language_of(self._client_env())

    def _refuse(self, text: str) -> None:
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
                self._refuse(
                    _("paris-tui needs a terminal: {command}").format(
                        command=f"ssh -t {door.login_hint(user, conn)}"
                    )
                )
            return
        try:
            name = normalize_name(user)
        except InvalidNameError as exc:
            with in_language(language):
                self._refuse(
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
                self._refuse(_("paris-tui: log in with a public key"))
            return
        if not await self._prove(name, fingerprint, language):
            return
        if self._gone:
            return
        if not door.admit(conn):
            log.warning("SSH %s: too many SSH players: refused", conn)
            with in_language(language):
                self._refuse(
                    _("paris-tui: the host has too many players over SSH; try again later")
                )
            return
        # Logins take turns to start their apps, fairly by address (host/starts.py).
        slot = await door.starts.acquire(conn.address)
        if self.gone():
            slot.release()
            door.release(conn)
            return
        self._slot = slot
        mark("ssh slot")
        self.ticket = ticket = door.host.issue_ticket(
            DoorProof("ssh", fingerprint, folded(name), conn.key_label)
        )
        env = app_environment(
            ticket, self.term, self._client_env(), language, door.host.door_socket
        )
        argv = door.config.command(door.app_port, name, door.app_address)
        try:
            env[DATA_DIR_ENV] = str(player_dir(door.host.store.root, name))
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
                self._refuse(
                    _("paris-tui: the host cannot start the game right now; try again later")
                )
            return
        door._apps.add(self.app)
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

    async def _prove(self, name: str, fingerprint: str, language: str) -> bool:
        """Whether this key may be ``name``: the name is nobody's account yet, or
        the key is one of its keys, or a link code typed here links it. Says why
        not (and ends the session) when not."""
        door = self.door
        store = door.host.accounts
        try:
            if store is None:
                raise AccountsUnavailable(door.host.gate.problem or "no accounts store")
            account = store.find(name)
            if account is None or not store.verify(account.id, "ssh", fingerprint):
                holder = store.owner("ssh", fingerprint)
                if holder is not None and (account is None or holder.id != account.id):
                    self._refuse_anothers(holder, language)
                    return False
            if account is None:
                return True
            if folded(account.name) != folded(name):
                with in_language(language):
                    self._refuse(
                        _(
                            "paris-tui: the name {name} looks like the account {account}: "
                            "log in as another name"
                        ).format(name=name, account=account.name)
                    )
                return False
            if account.locked:
                with in_language(language):
                    self._refuse(
                        _(
                            "paris-tui: the account {name} is locked; ask the host's operator"
                        ).format(name=account.name)
                    )
                return False
            if store.verify(account.id, "ssh", fingerprint):
                return True
        except AccountsUnavailable as exc:
            log.error("SSH %s: %s", self.conn, exc)
            with in_language(language):
                self._refuse(_("paris-tui: the host cannot read its accounts; try again later"))
            return False
        return await self._link(account, fingerprint, language)

    def _refuse_anothers(self, holder: Account, language: str) -> None:
        """This key is ``holder``'s: it logs in as that name only (a key is one
        account's), so say so before any app or link code."""
        log.warning(
            "SSH %s: as %s with a key of the account %s: refused",
            self.conn,
            printable((self.conn.username or "")[:40]),
            holder.name,
        )
        with in_language(language):
            self._refuse(
                _(
                    "paris-tui: this key belongs to the account {account}: log in as "
                    "{account} ({command}), or as another name with another key"
                ).format(
                    account=holder.name,
                    command=f"ssh {self.door.login_hint(holder.name, self.conn)}",
                )
            )

    async def _link(self, account: Account, fingerprint: str, language: str) -> bool:
        """Ask for a link code of ``account`` on the terminal; a good one adds this key."""
        door = self.door
        store = door.host.accounts
        assert store is not None
        log.info(
            "SSH %s: %s with a key the account has not: asks for a code", self.conn, account.name
        )
        with in_language(language):
            self._say(
                _(
                    "paris-tui: {name} is an account on this host, and this key ({fingerprint}) "
                    "is not one of its keys."
                ).format(name=account.name, fingerprint=fingerprint)
            )
            self._say(
                _(
                    "If you are {name}: in paris-tui where you are {name}, open Account "
                    "(in the command palette or the lobby) for a link code, and type it here."
                ).format(name=account.name)
            )
            prompt = _("Link code (Enter alone to leave): ")
        self._typed = asyncio.Queue()
        try:
            async with asyncio.timeout(CODE_SECONDS):
                for _try in range(CODE_TRIES):
                    self._write(prompt)
                    line = await self._typed.get()
                    if not line:
                        break
                    try:
                        if door.host.gate.take_code(store, line, account):
                            store.add_credential(
                                account.id, Credential("ssh", fingerprint, self.conn.key_label)
                            )
                            log.info("SSH %s: a key linked to %s", self.conn, account.name)
                            with in_language(language):
                                self._say(
                                    _("paris-tui: this key is now one of {name}'s keys.").format(
                                        name=account.name
                                    )
                                )
                            return True
                    except AccountError as exc:
                        log.warning("SSH %s: linking a key failed: %s", self.conn, exc)
                    with in_language(language):
                        self._say(_("That code is wrong, used or expired."))
        except TimeoutError:
            pass
        finally:
            self._typed = None
        log.warning("SSH %s: %s with a key the account has not: refused", self.conn, account.name)
        with in_language(language):
            self._refuse(
                _(
                    "paris-tui: not linked; log in with one of {name}'s keys, bring a new "
                    "link code, or log in as another name"
                ).format(name=account.name)
            )
        return False

    def _write(self, text: str) -> None:
        if self.chan is not None and not self._gone:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write(text.encode("utf-8", "replace"))

    def _say(self, text: str) -> None:
        self._write(text + "\r\n")

    def _typing(self, data: bytes) -> None:
        """Keys at a prompt: a line of at most 64 characters, echoed; Enter ends it."""
        queue = self._typed
        if queue is None:
            return
        for byte in data:
            if byte in (13, 10):
                self._write("\r\n")
                queue.put_nowait(self._line.decode("ascii", "replace"))
                self._line.clear()
            elif byte in (3, 4):  # Ctrl-C, Ctrl-D
                self._write("\r\n")
                queue.put_nowait(None)
                self._line.clear()
            elif byte in (8, 127):
                if self._line:
                    del self._line[-1]
                    self._write("\b \b")
            elif 32 <= byte < 127 and len(self._line) < 64:
                self._line.append(byte)
                self._write(chr(byte))

    def _client_env(self) -> Mapping[str, str]:
        if self.chan is None:
            return {}
        with contextlib.suppress(Exception):
            return dict(self.chan.get_environment())
        return {}

    def _output(self, data: bytes) -> None:
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
            self.door._apps.discard(self.app)
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
        if self.chan is not None and not self._gone:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.exit(status)

    def _within_rate(self, data: bytes) -> bytes:
        """What of ``data`` the bucket lets through (no paste, say 4 MiB, balloons the
        app: a person types a few bytes a second); the rest is dropped."""
        now = asyncio.get_running_loop().time()
        self._bucket = min(float(INPUT_BURST), self._bucket + (now - self._bucket_at) * INPUT_RATE)
        self._bucket_at = now
        taken = data[: int(self._bucket)]
        self._bucket -= len(taken)
        if len(taken) < len(data) and not self._dropped_said:
            self._dropped_said = True
            log.warning("SSH %s sends keys too fast: the excess is dropped", self.conn)
        return taken

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        data = self._within_rate(data)
        if not data:
            return
        if self.app is not None:
            self.app.send(data)
            if self.app.input_backlog > 65536 and self.chan is not None:
                self.chan.pause_reading()
                self._loop_resume()
        elif self._typed is not None:
            self._typing(data)
        elif len(self._early) < 4096:
            self._early += data

    def _loop_resume(self) -> None:
        def check() -> None:
            if self.app is None or self.chan is None or self._gone:
                return
            if self.app.input_backlog <= 16384:
                self.chan.resume_reading()
            else:
                asyncio.get_running_loop().call_later(0.05, check)

        asyncio.get_running_loop().call_later(0.05, check)

    def eof_received(self) -> bool:
        # The terminal's input is over: the app goes as when a terminal closes.
        if self._typed is not None:
            self._typed.put_nowait(None)
        self.hang_up()
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.app is not None:
            self.app.resize(width, height)

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
            self._say("\r\n" + _("paris-tui: the host stopped; every game is saved"))


class _Connection(asyncssh.SSHServer):
    """One SSH connection: who logs in, with which key; at most one app session."""

    def __init__(self, door: SSHDoor) -> None:
        self.door = door
        self.ssh: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.username: str | None = None
        self.key: asyncssh.SSHKey | None = None
        self.fingerprint: str | None = None  # the key's, once asyncssh verified it
        self._offered: asyncssh.SSHKey | None = None
        self.counted = False
        self.admitted = False  # runs an app (counted in the session caps)
        self.session: _Session | None = None

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

    def session_requested(self) -> _Session | bool:
        if self.session is not None or self.door.closing:
            return False  # one session at a time per connection
        self.session = _Session(self)
        return self.session

    def session_ended(self, session: _Session) -> None:
        if self.session is session:
            self.session = None


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
        self._connections: set[_Connection] = set()
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
                lambda: _Connection(self),
                cfg.bind,
                cfg.port,
                server_host_keys=[key],
                encoding=None,
                line_editor=False,
                login_timeout=cfg.login_timeout,
                keepalive_interval=cfg.keepalive,
                keepalive_count_max=3,
                # Keys arrive in packets of 32 KiB at most, 256 KiB in flight: a huge
                # write comes in pieces the input bucket (INPUT_RATE) can refuse.
                window=256 * 1024,
                max_pktsize=32 * 1024,
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
        if self.config.command is _client_app:  # the apps are paris-tui's own: start warm
            self._forks.open(self.host, self.host.store.root)
        prepare_names()  # not at the first login, which every login of a burst waits for
        address = self._server.get_addresses()[0]
        self.port = int(address[1])
        log.debug("SSH door on %s:%d, host key %s", address[0], self.port, self.fingerprint)
        return str(address[0]), self.port

    async def fork_server(self) -> ForkServer | None:
        """The fork server the apps start from (host/zygote.py), once it is ready;
        None: start them by exec (another command, or no fork server: see the log)."""
        return None if self.closing else await self._forks.get()

    # --- bounds ---------------------------------------------------------------------------

    def connect(self, conn: _Connection) -> bool:
        """Count a new connection; ``False`` (drop it) over twice the session caps:
        room for people who are still logging in, none for a flood."""
        if self.closing:
            return False
        cfg = self.config
        if (
            len(self._connections) >= 2 * cfg.max_sessions
            or self._per_address[conn.address] >= 2 * cfg.max_per_address
        ):
            return False
        self._connections.add(conn)
        self._per_address[conn.address] += 1
        return True

    def disconnect(self, conn: _Connection) -> None:
        self.release(conn)
        if conn in self._connections:
            self._connections.discard(conn)
            self._per_address[conn.address] -= 1
            if self._per_address[conn.address] <= 0:
                del self._per_address[conn.address]

    def admit(self, conn: _Connection) -> bool:
        """Count an app session for ``conn``; ``False`` over the caps.

        Each admitted session's app connects to the host from :attr:`app_address`:
        the host lets one more connection from there for it."""
        cfg = self.config
        if (
            self.closing
            or not conn.counted
            or sum(self._sessions.values()) >= cfg.max_sessions
            or self._sessions[conn.address] >= cfg.max_per_address
        ):
            return False
        self._sessions[conn.address] += 1
        conn.admitted = True
        self.host.reserve_door_slot(self.app_address)
        return True

    def release(self, conn: _Connection) -> None:
        """``conn``'s app session is over (once)."""
        if not conn.admitted:
            return
        conn.admitted = False
        self._sessions[conn.address] -= 1
        if self._sessions[conn.address] <= 0:
            del self._sessions[conn.address]
        self.host.release_door_slot(self.app_address)

    def login_hint(self, user: str, conn: _Connection) -> str:
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
