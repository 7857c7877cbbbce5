"""A warm start for every door: a fork server that has imported the app already.

An SSH or browser player's app used to be a fresh interpreter (``python -m
paris_tui join ...``) that spent about a second of CPU importing Textual and
paris-tui before its first frame; a burst of logins queued behind each
other's imports. The host now keeps one *fork server* (as ``multiprocessing``'s
forkserver does), started by exec, not by forking the host (:mod:`.forks`, the
host's side): a fresh interpreter (``python -m paris_tui.doors.zygote``, this
module) that imports Textual and the app (:data:`PRELOAD`), warms each front end
up once, single-threaded, with no event loop running and the garbage collector
off, and listens on an ``AF_UNIX`` socket of mode 0600 in a 0700 folder of its
own. For each app a door sends it one request on a new connection
(:mod:`.fork_protocol`): the command's arguments, its environment and working
directory, a secret key the server was given at its start, and
(``SCM_RIGHTS``, ``socket.send_fds``) the three descriptors of the app's
standard streams (a pty's slave side, or a browser door's pipes). The server
forks (``gc.freeze()`` first, so that the collector never writes to the pages
the children share), answers ``pid N`` and, once the child has been reaped,
``exit S`` (S as ``Popen.returncode``: the exit code, or minus the signal).

The child is the app a door would have started, just warm (:mod:`.fork_child`):
``paris-tui join`` against the host like every door's app, with its own data
directory, language, glyphs and ticket. The server asks the kernel for
``SIGKILL`` when the host dies, and each child for ``SIGKILL`` when the server
dies, so ``kill -9`` of the host ends every app.

Before it serves, the server fills the holes of its heap and makes its objects
immortal where the interpreter can (:mod:`.heap`), so that the children share
its pages rather than copy them.
"""

from __future__ import annotations

import contextlib
import gc
import os
import selectors
import signal
import socket
import sys
import threading
from collections.abc import Callable, Sequence

from paris_tui.doors.fork_child import become_app, die_with_parent
from paris_tui.doors.fork_protocol import (
    KEY_ENV,
    PARENT_ENV,
    SPAWN_TIMEOUT,
    check_request,
    read_request,
)
from paris_tui.doors.heap import fill_holes, immortalize
from paris_tui.trace import mark

__all__ = ["PRELOAD", "serve"]

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


def serve(path: str, key: str, parent: int, ready: Callable[[], None]) -> None:
    """The server's loop: accept a request, fork, report pid and exit status."""
    die_with_parent(parent)
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
        request, fds = read_request(conn)
        args, env, cwd, tty = check_request(request, key, fds)
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
        become_app(args, env, cwd, tty, fds, me)
    for fd in fds:
        os.close(fd)
    conn.setblocking(True)
    conn.settimeout(SPAWN_TIMEOUT)
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
    key = os.read(int(os.environ.pop(KEY_ENV)), 256).decode("ascii").strip()
    parent = int(os.environ.pop(PARENT_ENV))
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)  # an ImportError stops the server: the host says so
    from paris_tui.i18n import LANGUAGES, set_language

    for tag in LANGUAGES:  # every catalog read once, here
        set_language(tag)
    set_language("en")
    from paris_tui.app.start.warm_up import warm

    warm()  # the app's stylesheets, map layouts and a throwaway game screen, once, here
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_main(sys.argv[1:]))
