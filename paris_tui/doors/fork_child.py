"""A child of the fork server: it becomes the app a door would have started by exec.

It becomes a session leader (``setsid``), takes the pty as its controlling
terminal (``TIOCSCTTY``), ``dup2``s the descriptors onto 0/1/2 and closes every
other, resets the signals the server changed, asks the kernel for ``SIGKILL``
when the server dies (``PR_SET_PDEATHSIG``), takes the request's environment
(``os.environ``, the C library's too), working directory and arguments, re-seeds
``random``, reads Textual's environment settings again, and runs the command's
module (``paris_tui``, the last of :data:`~paris_tui.doors.fork_protocol.COMMAND_PREFIX`)
as ``python -m`` runs it: its ``__main__``, with ``sys.argv`` the command's. The
door's command names what runs; the fork server only makes it start warm. It
exits, never returns into the server.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

from paris_tui.doors.fork_protocol import COMMAND_PREFIX, PARENT_ENV

__all__ = ["become_app", "die_with_parent", "max_fd"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """SIGKILL when the process that started this one dies (Linux), or exit now if it has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def max_fd() -> int:
    """One more than the highest descriptor this process may have open."""
    try:
        return int(os.sysconf("SC_OPEN_MAX"))
    except (ValueError, OSError):
        return 1024


def become_app(
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
        os.closerange(3, max_fd())  # the listener, the other connections, the wake-up pipe
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        die_with_parent(server)
        os.environ.clear()  # os.environ's own putenv/unsetenv: the C library's too
        os.environ.update(env)
        os.environ[PARENT_ENV] = str(server)  # die_with_parent in the app: with the server
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
        import runpy

        trace.mark("child main")

        # The command's own entry, as `python -m paris_tui` runs it (its __main__ ends
        # with sys.exit of the command's status): imported by the server already.
        runpy.run_module(COMMAND_PREFIX[-1], run_name="__main__")
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
