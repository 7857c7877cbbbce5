"""A warm start for every door: a fork server that has imported the app already.

An SSH or browser player's app used to be a fresh interpreter (``python -m
paris_tui join ...``) that spent about a second of CPU importing Textual and
paris-tui before its first frame; a burst of logins queued behind each
other's imports. The host now keeps one *fork server* (as ``multiprocessing``'s
forkserver does), started by exec, not by forking the host: a fresh
interpreter (``python -m paris_tui.doors.zygote``) that imports Textual and the
app (:data:`PRELOAD`), single-threaded, with no event loop running and the
garbage collector off, and listens on an ``AF_UNIX`` socket of mode 0600 in a
0700 folder of its own. For each app a door sends it one request on a new
connection: the command's arguments, its environment and working directory,
a secret key the server was given at its start, and (``SCM_RIGHTS``,
``socket.send_fds``) the three descriptors of the app's standard streams (a
pty's slave side, or a browser door's pipes). The server forks
(``gc.freeze()`` first, so that the collector never writes to the pages the
children share), answers ``pid N`` and, once the child has been reaped,
``exit S`` (S as ``Popen.returncode``: the exit code, or minus the signal).

The child is the app a door would have started, just warm: it becomes a
session leader (``setsid``), takes the pty as its controlling terminal
(``TIOCSCTTY``), ``dup2``s the descriptors onto 0/1/2 and closes every other,
resets the signals the server changed, asks the kernel for ``SIGKILL`` when
the server dies (``PR_SET_PDEATHSIG``; the server asks the same for itself
when the host dies, so ``kill -9`` of the host ends every app), takes the
request's environment (``os.environ``, the C library's too), working
directory and arguments, re-seeds ``random``, reads Textual's environment
settings again, and runs ``paris-tui`` (:func:`paris_tui.cli.main`): ``join``
against the host like every door's app, with its own data directory,
language, glyphs and ticket. It exits, never returns into the server.

Before it serves, the server fills the holes of its heap (:func:`fill_holes`):
the free blocks its imports and its warm-up left among live objects. A child's
new objects went into them, and each one copied a whole page of the server's
live objects; filled (and never freed), the children's objects go to pages of
their own instead (``benchmarks/ssh_login.py --players 12``: 22.8-23.0 MB PSS per
player before, 21.6-21.7 MB after). What a child still copied was mostly the pages of
the server's objects it only reads: reference counts written and written back (a
diff of a child's copied pages against the server's: a third of them back to their
bytes, another fifth with only counts changed), the bytecode Python specialises in
place. On Python 3.12 and later (PEP 683's immortal objects) the server makes every
object it holds immortal (:func:`immortalize`): a child's references no longer write
to them (13.7 MB PSS per player with 12, on 3.13). Python 3.11 writes every count.

When the server cannot start or dies, :class:`ForkServer` says so in the log
and the doors start their apps by exec as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import hmac
import json
import logging
import os
import secrets
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from paris_tui.trace import PROFILE_ENV, TRACE_ENV, mark

__all__ = [
    "FORK_SERVER_WAIT",
    "PRELOAD",
    "DoorForks",
    "ForkServer",
    "ForkedProcess",
    "PipedProcess",
    "fill_holes",
    "immortal_objects",
    "immortalize",
    "release_shared",
    "serve",
    "shared_fork_server",
]

log = logging.getLogger("paris_tui.host.zygote")

PRELOAD = (
    "textual.app",
    "textual.drivers.linux_driver",
    "paris_tui.cli",
    "paris_tui.app.app",
    "paris_tui.app.start.launch",
    "paris_tui.app.online.remote",
    "paris_tui.app.terminal.driver",
    "paris_tui.app.terminal.web_driver",
    "paris_tui.app.local.history",
    "paris_tui.app.screens.game",
    "paris_tui.app.screens.lobby",
    "paris_tui.app.screens.connection",
    "paris_tui.app.screens.end",
    "paris_tui.app.screens.help",
    "paris_tui.net.client",
    "paris_tui.net.table",
    "paris_tui.host.child",
    "textual.pilot",
    "importlib.readers",
    # What a game needs later (shared by every app rather than imported by each):
    "paris_tui.app.screens.stats",
    "paris_tui.app.screens.review",
    "paris_tui.app.widgets.hint",
    "paris_tui.app.widgets.score_chart",
    "paris_tui.ai.hint",
    "paris_tui.reader",  # a door's app asks whether its player plays by ear
)
"""What the server imports before it serves: what every door's app needs before its
first frame (the lobby or the game screen), and the game screen's own modules."""

_PREFIX = ("-P", "-m", "paris_tui")
"""A door's app command is ``[sys.executable, *_PREFIX, ARGS...]`` (host/child.py)."""

_MAX_REQUEST = 1 << 20
_PR_SET_PDEATHSIG = 1
_KEY_ENV = "PARIS_TUI_ZYGOTE_KEY_FD"
_PARENT_ENV = "PARIS_TUI_PARENT_PID"  # host/child.py's PARENT_ENV (not imported: keep it light)
_SPAWN_TIMEOUT = 10.0
_START_TIMEOUT = 60.0
FORK_SERVER_WAIT = 10.0
"""Seconds a door's login waits for a fork server that is still starting (then: exec)."""


def _die_with_parent(parent: int) -> None:
    """SIGKILL when the process that started this one dies (Linux), or exit now if it has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


# --- the server (runs in its own interpreter) ---------------------------------------------


def _pymalloc_holes() -> dict[int, int]:
    """pymalloc's free blocks in its used pools, by block size: ``{size: count}`` (from
    ``sys._debugmallocstats``, CPython's, which prints to the C standard error)."""
    debug = getattr(sys, "_debugmallocstats", None)
    if debug is None:
        return {}
    with tempfile.TemporaryFile() as out:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            debug()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode("ascii", "replace")
    holes: dict[int, int] = {}
    for line in text.splitlines():  # class, size, pools, blocks in use, available blocks
        fields = line.split()
        if len(fields) == 5 and all(f.isdigit() for f in fields) and int(fields[4]):
            holes[int(fields[1])] = int(fields[4])
    return holes


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


_LARGEST_HOLE = 1 << 16  # below glibc's mmap threshold: the heap's, never an mmap
_MAX_PLUGS = 200_000


def _fill_pymalloc() -> int:
    """Allocate (for good) every free block of pymalloc's used pools; the blocks filled."""
    malloc = ctypes.pythonapi.PyObject_Malloc
    malloc.restype = None  # the block is kept: its address is not needed
    malloc.argtypes = [ctypes.c_size_t]
    filled = 0
    for _ in range(2):  # the second time: the holes the first one's own work left
        for size, count in _pymalloc_holes().items():
            plugs = min(count, _MAX_PLUGS - filled)
            for _ in range(plugs):
                malloc(size)
            filled += plugs
    return filled


def _fill_glibc() -> int:
    """Allocate (for good) glibc's free chunks below its top chunk (of the main arena:
    the server is single-threaded), the largest first; the chunks filled."""
    try:
        libc = ctypes.CDLL(None)
        mallinfo2 = libc.mallinfo2  # glibc 2.33 and later
    except (OSError, AttributeError):
        return 0
    mallinfo2.restype = _MallInfo2
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    filled = 0
    size = _LARGEST_HOLE
    while size >= 16 and filled < _MAX_PLUGS:
        while filled < _MAX_PLUGS:
            before = mallinfo2()
            block = libc.malloc(size)
            after = mallinfo2()
            if block is None:
                return filled
            if (
                after.keepcost < before.keepcost  # cut from the top chunk: no hole this big
                or after.arena != before.arena  # the heap grew
                or after.hblks != before.hblks  # an mmap
            ):
                libc.free(block)
                break
            filled += 1
        size //= 2
    return filled


def fill_holes() -> tuple[int, int]:
    """Fill the free blocks of this process's heap that lie among its live objects,
    for good: pymalloc's (objects of up to 512 bytes) and glibc's (larger ones, on
    Linux). A forked child's new objects would fill them, each copying a whole page
    of this process's objects; then they take new pages of their own. Returns the
    blocks filled: (pymalloc's, glibc's)."""
    small = _fill_pymalloc()
    large = _fill_glibc() if sys.platform.startswith("linux") else 0
    return small, large


_IMMORTAL = 0xFFFFFFFF
"""The low 32 bits of an immortal object's reference count (PEP 683: CPython 3.12 to
3.14, 64-bit, with the GIL): an increment wraps to 0 and is not stored, a decrement
of a count whose low half is negative as an int32 is not made."""


def immortal_objects() -> bool:
    """Whether this interpreter leaves alone the reference counts :func:`immortalize`
    writes: CPython 3.12 to 3.14 (PEP 683's layout, known), 64-bit, little-endian, with
    the GIL (a free-threaded build counts references otherwise); probed on an object
    of its own, whose count is put back when the probe fails."""
    if sys.implementation.name != "cpython" or not (3, 12) <= sys.version_info[:2] <= (3, 14):
        return False
    import sysconfig

    if sys.byteorder != "little" or sys.maxsize < 1 << 32:
        return False
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        return False
    probe = [0.5 + len(sys.argv)]  # a float of its own: no cache, no constant holds it
    count = ctypes.c_uint32.from_address(id(probe[0]))
    before = count.value
    count.value = _IMMORTAL
    more = [probe[0] for _ in range(3)]  # three references taken ...
    taken = count.value
    del more  # ... and dropped
    if taken == _IMMORTAL and count.value == _IMMORTAL:
        return True
    count.value = before
    return False


def immortalize(objects: Sequence[object] | None = None) -> int:
    """Make ``objects`` (by default: every object the collector tracks, and the
    objects they refer to directly: strings, numbers, bytes) immortal, for good; the
    objects changed, 0 where :func:`immortal_objects` says no.

    A forked child copied every page on which it only took a reference and dropped it
    again: a reference count written and written back (on Python 3.11, about half of
    the pages a child copies). The server calls this once, after its warm-up's garbage
    is collected and before it forks: a child's references then leave the server's
    objects' pages shared (``benchmarks/ssh_login.py --players 12`` on Python 3.13:
    21.1 MB PSS per player before, 13.7 MB after). An immortal object is never freed:
    what a child drops of the server's stays where it was, shared."""
    if not immortal_objects():
        return 0
    todo = gc.get_objects() if objects is None else list(objects)
    seen: set[int] = set()
    for obj in todo:
        for item in (obj, *gc.get_referents(obj)):
            address = id(item)
            if address not in seen:
                seen.add(address)
                ctypes.c_uint32.from_address(address).value = _IMMORTAL
    return len(seen)


def _read_request(conn: socket.socket) -> tuple[dict[str, object], list[int]]:
    """One request: a 4-byte length, that many bytes of JSON, and the descriptors."""
    conn.settimeout(_SPAWN_TIMEOUT)
    data, fds, _flags, _addr = socket.recv_fds(conn, 65536, 3)
    try:
        if len(data) < 4:
            raise ValueError("short request")
        size = int.from_bytes(data[:4], "big")
        if size > _MAX_REQUEST:
            raise ValueError("request too long")
        body = bytearray(data[4:])
        while len(body) < size:
            more = conn.recv(size - len(body))
            if not more:
                raise ValueError("short request")
            body += more
        request = json.loads(bytes(body))
        if not isinstance(request, dict):
            raise ValueError("not a request")
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return request, fds


def _check(
    request: dict[str, object], key: str, fds: list[int]
) -> tuple[list[str], dict[str, str], str, bool]:
    given = request.get("key")
    if not isinstance(given, str) or not hmac.compare_digest(given, key):
        raise ValueError("bad key")
    args, env, cwd, tty = (
        request.get("args"),
        request.get("env"),
        request.get("cwd"),
        request.get("tty"),
    )
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        raise ValueError("bad args")
    if not (
        isinstance(env, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
    ):
        raise ValueError("bad env")
    if not isinstance(cwd, str) or not isinstance(tty, bool) or len(fds) != 3:
        raise ValueError("bad request")
    return args, env, cwd, tty


def _child(
    args: list[str], env: dict[str, str], cwd: str, tty: bool, fds: list[int], server: int
) -> None:
    """In the forked child: become the app, run it, exit (never returns)."""
    code = 1
    try:
        from paris_tui import trace

        trace.mark("child start")
        trace.start_profile()
        os.setsid()
        stdin = fds[0]
        if tty:
            import fcntl
            import termios

            fcntl.ioctl(stdin, termios.TIOCSCTTY, 0)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, _max_fd())  # the listener, the other connections, the wake-up pipe
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _die_with_parent(server)
        os.environ.clear()  # os.environ's own putenv/unsetenv: the C library's too
        os.environ.update(env)
        os.environ[_PARENT_ENV] = str(server)  # die_with_parent in the app: with the server
        os.chdir(cwd)
        import locale

        with contextlib.suppress(locale.Error):  # as a fresh interpreter sets it from the env
            locale.setlocale(locale.LC_CTYPE, "")
        import random

        random.seed()  # not the server's state: every child its own
        import importlib

        import textual.constants

        importlib.reload(textual.constants)  # TEXTUAL_* of this app's environment
        sys.argv = ["paris-tui", *args]
        from paris_tui.cli import main

        trace.mark("child main")

        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        with contextlib.suppress(BaseException):
            import traceback

            traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code & 0xFF if code >= 0 else 1)


def _max_fd() -> int:
    try:
        return int(os.sysconf("SC_OPEN_MAX"))
    except (ValueError, OSError):
        return 1024


def serve(path: str, key: str, parent: int, ready: Callable[[], None]) -> None:
    """The server's loop: accept a request, fork, report pid and exit status."""
    _die_with_parent(parent)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    old = os.umask(0o177)
    try:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    listener.listen(128)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(wake_r, selectors.EVENT_READ, "wake")
    children: dict[int, socket.socket] = {}
    me = os.getpid()
    ready()
    while True:
        for item, _ in selector.select():
            if item.data == "accept":
                _accept(listener, key, children, selector, me)
            elif item.data == "wake":
                with contextlib.suppress(OSError):
                    while os.read(wake_r, 512):
                        pass
                _reap(children, selector)
            else:  # a door closed its connection before its app ended: end the app
                pid = item.data
                conn = children.get(pid)
                if conn is None:
                    continue
                try:
                    gone = not conn.recv(1, socket.MSG_PEEK)
                except OSError:
                    gone = True
                if gone:
                    selector.unregister(conn)
                    with contextlib.suppress(OSError):
                        os.killpg(pid, signal.SIGKILL)
        _reap(children, selector)


def _accept(
    listener: socket.socket,
    key: str,
    children: dict[int, socket.socket],
    selector: selectors.BaseSelector,
    me: int,
) -> None:
    conn, _ = listener.accept()
    fds: list[int] = []
    try:
        request, fds = _read_request(conn)
        args, env, cwd, tty = _check(request, key, fds)
    except (OSError, ValueError) as exc:
        with contextlib.suppress(OSError):
            conn.sendall(f"error {type(exc).__name__}\n".encode())
        conn.close()
        for fd in fds:
            os.close(fd)
        return
    mark("fork request")
    gc.freeze()  # the pages the children share stay untouched by every collection
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        _child(args, env, cwd, tty, fds, me)
    for fd in fds:
        os.close(fd)
    conn.setblocking(True)
    conn.settimeout(_SPAWN_TIMEOUT)
    try:
        conn.sendall(f"pid {pid}\n".encode())
    except OSError:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
    children[pid] = conn
    selector.register(conn, selectors.EVENT_READ, pid)


def _reap(children: dict[int, socket.socket], selector: selectors.BaseSelector) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is None:
            continue
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(conn)
        with contextlib.suppress(OSError):
            conn.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
        conn.close()


def _main(argv: Sequence[str]) -> int:  # pragma: no cover - the server's own process
    gc.disable()  # on again in each app at its first frame (ParisApp._first_frame)
    path = argv[0]
    key = os.read(int(os.environ.pop(_KEY_ENV)), 256).decode("ascii").strip()
    parent = int(os.environ.pop(_PARENT_ENV))
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)  # an ImportError stops the server: the host says so
    from paris_tui.i18n import LANGUAGES, set_language

    for tag in LANGUAGES:  # every catalog read once, here
        set_language(tag)
    set_language("en")
    from paris_tui.app.app import ParisApp
    from paris_tui.app.start.warm_css import prefill

    prefill(ParisApp().get_css_variables())  # every stylesheet parsed once, here
    from paris_tui.app.map.layout import prepare_layouts

    prepare_layouts()  # the map's hand-made layouts drawn once, here
    from rich.cells import cell_len

    cell_len("\u00e9\u4e2d")  # rich's table of cell widths, imported at the first width
    from paris_tui.app.start.warm_up import warm_up

    warm_up()  # a throwaway game screen drawn once: every lazy cache filled, here
    gc.unfreeze()  # (the throwaway app froze what it made at its first frame)
    gc.collect()  # the throwaway app, its table and its loop, gone before any fork
    gc.disable()
    immortalize()  # (Python 3.12 and later) a child's references leave the pages shared
    fill_holes()  # the children's objects on pages of their own, not in the server's holes
    if threading.active_count() != 1:
        print("paris-tui fork server: a thread runs after the imports", file=sys.stderr)
        return 1

    def ready() -> None:
        os.write(1, b"ready\n")

    serve(path, key, parent, ready)
    return 0


# --- the host's side ----------------------------------------------------------------------


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
        env[_PARENT_ENV] = str(os.getpid())
        env[_KEY_ENV] = str(key_r)
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
        head = [sys.executable, *_PREFIX]
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
        request = {"key": self._key, "args": args, "env": dict(env), "cwd": str(cwd), "tty": tty}
        body = json.dumps(request).encode("utf-8")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.setblocking(False)
            await asyncio.wait_for(loop.sock_connect(sock, self.path), _SPAWN_TIMEOUT)
            sock.setblocking(True)
            sock.settimeout(_SPAWN_TIMEOUT)
            message = len(body).to_bytes(4, "big") + body
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
            await asyncio.wait_for(asyncio.shield(child.started), _SPAWN_TIMEOUT)
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
    (what textual-serve's session uses: the browser door, host/web.py)."""

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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_main(sys.argv[1:]))
