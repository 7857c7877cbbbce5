"""The host's side of the fork server: start it, have it fork a door's app, follow the app.

:class:`ForkServer` starts the server by exec, not by forking the host (a fresh
interpreter, ``python -m paris_tui.doors.zygote``, that imports and warms up the
app before it serves), sends it one request for each app (:mod:`.fork_protocol`)
and hands back a :class:`ForkedProcess`; :func:`spawn_piped` wraps one on pipes as
``asyncio.create_subprocess_exec`` would (the browser door), and :class:`DoorForks`
is a door's share of its host's one server. When the server cannot start or dies,
:class:`ForkServer` says so in the log and the doors start their apps by exec as
before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from paris_tui.doors.fork_protocol import (
    COMMAND_PREFIX,
    KEY_ENV,
    PARENT_ENV,
    SPAWN_TIMEOUT,
    encode_request,
)
from paris_tui.trace import PROFILE_ENV, TRACE_ENV

__all__ = [
    "FORK_SERVER_WAIT",
    "DoorForks",
    "ForkServer",
    "ForkedProcess",
    "PipedProcess",
    "release_shared",
    "shared_fork_server",
    "spawn_piped",
]

log = logging.getLogger("paris_tui.doors.zygote")

_START_TIMEOUT = 60.0
FORK_SERVER_WAIT = 10.0
"""Seconds a door's login waits for a fork server that is still starting (then: exec)."""


class ForkedProcess:
    """An app the fork server started: ``pid``, and ``returncode`` (None while it runs)
    as :class:`subprocess.Popen` has them; :meth:`add_exit_callback` for its end."""

    def __init__(self, sock: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
        self._sock: socket.socket | None = sock
        self._loop = loop
        self._buffer = b""
        self._callbacks: list[Callable[[], None]] = []
        self.pid = 0
        self.returncode: int | None = None
        self.started: asyncio.Future[int] = loop.create_future()
        loop.add_reader(sock, self._readable)

    def poll(self) -> int | None:
        return self.returncode

    def add_exit_callback(self, callback: Callable[[], None]) -> None:
        if self.returncode is not None:
            self._loop.call_soon(callback)
        else:
            self._callbacks.append(callback)

    def _readable(self) -> None:
        sock = self._sock
        if sock is None:
            return
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            # The server is gone: its apps die with it (PR_SET_PDEATHSIG).
            self._ended(-signal.SIGKILL, "the fork server closed the connection")
            return
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            word, _, value = line.decode("ascii", "replace").partition(" ")
            if word == "pid" and value.isdigit() and not self.started.done():
                self.pid = int(value)
                self.started.set_result(self.pid)
            elif word == "exit":
                try:
                    code = int(value)
                except ValueError:
                    code = 1
                self._ended(code, None)
                return
            else:
                self._ended(1, f"the fork server refused: {line[:80]!r}")
                return

    def _ended(self, code: int, problem: str | None) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            self._loop.remove_reader(sock)
            sock.close()
        if not self.started.done():
            self.started.set_exception(OSError(problem or "the fork server did not start the app"))
            return
        self.returncode = code
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def kill(self) -> None:
        if self.returncode is None and self.pid:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int | None:
        """The exit status if known (the fork server reports it: nothing to wait for here)."""
        return self.returncode

    def close(self) -> None:
        """Stop following the app (the server then ends it, if it still runs)."""
        sock, self._sock = self._sock, None
        if sock is not None:
            self._loop.remove_reader(sock)
            sock.close()


class ForkServer:
    """The host's fork server: :meth:`start` it, :meth:`spawn` apps, :meth:`close` it."""

    def __init__(self, proc: subprocess.Popen[bytes], folder: Path, key: str) -> None:
        self._proc = proc
        self._folder = folder
        self._key = key
        self.path = str(folder / "s")
        self.alive = True

    @classmethod
    async def start(cls, cwd: Path, timeout: float = _START_TIMEOUT) -> ForkServer | None:
        """A new fork server, or None (and a warning in the log) when it cannot start."""
        folder = Path(tempfile.mkdtemp(prefix="paris-tui-fork-"))  # 0700; short: AF_UNIX paths
        key = secrets.token_hex(32)
        key_r, key_w = os.pipe()
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("TEXTUAL", "PARIS_TUI", "SSH_"))
        }
        for name in (TRACE_ENV, PROFILE_ENV):  # measuring only (paris_tui/trace.py)
            if os.environ.get(name):
                env[name] = os.environ[name]
        env[PARENT_ENV] = str(os.getpid())
        env[KEY_ENV] = str(key_r)
        try:
            proc = subprocess.Popen(
                [sys.executable, "-P", "-m", "paris_tui.doors.zygote", str(folder / "s")],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                env=env,
                cwd=cwd,
                pass_fds=(key_r,),
                start_new_session=True,
            )
        except OSError as exc:
            os.close(key_r)
            os.close(key_w)
            shutil.rmtree(folder, ignore_errors=True)
            log.warning("fork server unavailable (%s): each app starts by exec", exc)
            return None
        os.close(key_r)
        os.write(key_w, key.encode("ascii") + b"\n")
        os.close(key_w)
        server = cls(proc, folder, key)
        assert proc.stdout is not None
        loop = asyncio.get_running_loop()
        try:
            line = await asyncio.wait_for(loop.run_in_executor(None, proc.stdout.readline), timeout)
        except TimeoutError:
            line = b""
        if line != b"ready\n":
            code = proc.poll()
            why = f"exit status {code}" if code is not None else f"no answer in {timeout:.0f} s"
            log.warning("fork server unavailable (%s): each app starts by exec", why)
            server.close()
            return None
        log.info("fork server %d ready: apps start warm", proc.pid)
        return server

    @property
    def pid(self) -> int:
        return self._proc.pid

    def command_args(self, argv: Sequence[str]) -> list[str] | None:
        """The ``paris-tui`` arguments of a door's app command, or None for another one."""
        head = [sys.executable, *COMMAND_PREFIX]
        if list(argv[: len(head)]) != head:
            return None
        return list(argv[len(head) :])

    async def spawn(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: Path | str,
        fds: tuple[int, int, int],
        *,
        tty: bool,
    ) -> ForkedProcess | None:
        """Start ``argv`` (a door's app command) warm on ``fds``, or None: then start it
        by exec (another command, or the server is gone: said in the log)."""
        args = self.command_args(argv)
        if args is None or not self.alive:
            return None
        if self._proc.poll() is not None:
            self.alive = False
            log.warning(
                "fork server gone (exit status %s): each app starts by exec", self._proc.returncode
            )
            return None
        loop = asyncio.get_running_loop()
        # Absolute: the fork server's own directory is not the caller's.
        message = encode_request(self._key, args, env, str(Path(cwd).absolute()), tty=tty)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.setblocking(False)
            await asyncio.wait_for(loop.sock_connect(sock, self.path), SPAWN_TIMEOUT)
            sock.setblocking(True)
            sock.settimeout(SPAWN_TIMEOUT)
            sent = socket.send_fds(sock, [message], list(fds))
            if sent < len(message):
                sock.sendall(message[sent:])
            sock.setblocking(False)
            child = ForkedProcess(sock, loop)
        except (OSError, TimeoutError) as exc:
            sock.close()
            log.warning("fork server failed (%s): this app starts by exec", exc)
            return None
        try:
            await asyncio.wait_for(asyncio.shield(child.started), SPAWN_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            child.close()
            log.warning("fork server failed (%s): this app starts by exec", exc or "timeout")
            return None
        except BaseException:  # cancelled: the server ends the app when the socket closes
            child.close()
            raise
        return child

    def close(self) -> None:
        """End the server (the apps it started die with it)."""
        self.alive = False
        if self._proc.poll() is None:
            with contextlib.suppress(OSError):
                self._proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5)
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        shutil.rmtree(self._folder, ignore_errors=True)


class PipedProcess:
    """A forked app on pipes, as ``asyncio.create_subprocess_exec`` gives one: ``stdin``,
    ``stdout``, ``stderr`` streams, ``pid``, ``returncode``, :meth:`wait`, :meth:`kill`
    (what textual-serve's session uses: the browser door, doors/web.py)."""

    def __init__(
        self,
        child: ForkedProcess,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
    ) -> None:
        self._child = child
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.pid = child.pid
        self._ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        child.add_exit_callback(self._end)

    def _end(self) -> None:
        if not self._ended.done():
            self._ended.set_result(None)

    @property
    def returncode(self) -> int | None:
        return self._child.returncode

    async def wait(self) -> int:
        await asyncio.shield(self._ended)
        code = self._child.returncode
        return 1 if code is None else code

    def kill(self) -> None:
        self._child.kill()

    def send_signal(self, sig: int) -> None:
        if self._child.returncode is None:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, sig)


async def spawn_piped(
    server: ForkServer, argv: Sequence[str], env: Mapping[str, str], cwd: Path | str
) -> PipedProcess | None:
    """``argv`` forked warm on three new pipes, or None (start it by exec)."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        child = await server.spawn(argv, env, cwd, (in_r, out_w, err_w), tty=False)
    except BaseException:
        for fd in (in_w, out_r, err_r):
            os.close(fd)
        raise
    finally:
        for fd in (in_r, out_w, err_w):
            os.close(fd)
    if child is None:
        for fd in (in_w, out_r, err_r):
            os.close(fd)
        return None
    loop = asyncio.get_running_loop()
    readers = []
    for fd in (out_r, err_r):
        reader = asyncio.StreamReader(limit=2**16)
        await loop.connect_read_pipe(
            lambda r=reader: asyncio.StreamReaderProtocol(r),  # type: ignore[misc]
            os.fdopen(fd, "rb", 0),
        )
        readers.append(reader)
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(in_w, "wb", 0)
    )
    stdin = asyncio.StreamWriter(transport, protocol, None, loop)
    return PipedProcess(child, stdin, readers[0], readers[1])


class DoorForks:
    """A door's share of its host's fork server (the SSH and browser doors share one):
    :meth:`open` as the door starts listening, :meth:`get` for each app, :meth:`close`
    as the door closes."""

    def __init__(self) -> None:
        self._owner: object | None = None
        self._task: asyncio.Task[ForkServer | None] | None = None

    def open(self, owner: object, cwd: Path) -> None:
        """Use ``owner``'s (a host's) fork server, started now if it is not yet."""
        if self._task is None:
            self._owner = owner
            self._task = shared_fork_server(owner, cwd)

    async def get(self) -> ForkServer | None:
        """The fork server the apps start from, once it is ready; None: start them by
        exec (not opened, or no fork server: see the log)."""
        task = self._task
        if task is None:
            return None
        try:  # a login waits for a starting fork server, not for ever
            server = await asyncio.wait_for(asyncio.shield(task), FORK_SERVER_WAIT)
        except TimeoutError:
            log.warning("the fork server is not ready yet: this app starts by exec")
            return None
        return server if server is not None and server.alive else None

    async def close(self) -> None:
        """This door is done with the fork server (the last user ends it)."""
        owner, self._task, self._owner = self._owner, None, None
        if owner is not None:
            await release_shared(owner)


_SHARED: dict[int, tuple[asyncio.Task[ForkServer | None], int]] = {}


def shared_fork_server(owner: object, cwd: Path) -> asyncio.Task[ForkServer | None]:
    """The fork server of ``owner`` (a host: its SSH and browser doors share one),
    started on first use; each user calls :func:`release_shared` once."""
    key = id(owner)
    found = _SHARED.get(key)
    if found is None:
        task = asyncio.get_running_loop().create_task(ForkServer.start(cwd))
        _SHARED[key] = (task, 1)
        return task
    task, users = found
    _SHARED[key] = (task, users + 1)
    return task


async def release_shared(owner: object) -> None:
    """One user of ``owner``'s fork server is done; the last one ends it."""
    key = id(owner)
    found = _SHARED.get(key)
    if found is None:
        return
    task, users = found
    if users > 1:
        _SHARED[key] = (task, users - 1)
        return
    del _SHARED[key]
    server = await task
    if server is not None:
        server.close()
