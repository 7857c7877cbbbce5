"""A session's app: its environment and data directory, and the process on a new pty.

Each SSH session that asks for a terminal gets ONE app process of its own, the
same client app a player runs on their own machine (:mod:`paris_tui.host.child`),
on a new pseudo-terminal of the session's size: forked warm by the host's fork
server (:mod:`.forks`) when it can, else started by exec. Bytes are copied both
ways; every window resize reaches the pty (and so the app, as ``SIGWINCH``);
a hung-up app gets its pty closed, ``SIGHUP``, ``SIGKILL`` after a grace period,
and is reaped.

Each player's app gets a data directory of its own,
``players/<digest of the name>/`` in the host's data directory (mode 0700):
a language or glyph set switched in the app, and that player's history, are
kept for that player (the name is an account), never in the host
operator's own settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import re
import signal
import struct
import subprocess
import termios
from collections.abc import Callable, Mapping
from pathlib import Path

from paris_tui.doors.forks import ForkedProcess, ForkServer
from paris_tui.glyph_sets import resolve_glyphs
from paris_tui.host.child import client_env
from paris_tui.wording import language_of

__all__ = [
    "DATA_DIR_ENV",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "AppProcess",
    "app_environment",
    "player_dir",
    "plays_by_ear",
]

PLAYERS_DIR = "players"
DATA_DIR_ENV = "PARIS_TUI_DATA_DIR"  # where the app keeps its files (paris_tui.app.local.storage)


def _take_terminal() -> None:  # pragma: no cover - runs in the child, before exec
    """Make the pty (stdin) the app's controlling terminal, so that resizes
    reach it as ``SIGWINCH`` and a hang-up as ``SIGHUP``."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


MAX_COLUMNS, MAX_ROWS = 500, 200
"""The largest window a session's app is given (a client asking for more gets this):
more than a real terminal has; its repaint's cost is in benchmarks/ssh_login.py."""


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
    from paris_tui.reader import ENV as SCREEN_READER_ENV

    base.pop(SCREEN_READER_ENV, None)
    if plays_by_ear(client_env_vars):
        base[SCREEN_READER_ENV] = "1"
    return client_env(ticket, base, door_socket)


def plays_by_ear(client_env_vars: Mapping[str, str]) -> bool:
    """Whether the app plays by ear (plain lines for a screen reader): only when this
    client asks, ``ssh -o SetEnv=PARIS_TUI_SCREEN_READER=1``."""
    from paris_tui.reader import ENV, wanted

    return wanted(False, {ENV: client_env_vars.get(ENV, "")[:8]})


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
        (doors/forks.py), else started by exec as before."""
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
