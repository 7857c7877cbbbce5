"""The app processes a door (SSH, browser) starts for its sessions.

Every door session runs the same client app as a player's own machine:
``paris-tui join`` against this host over loopback (:func:`client_command`).
The door has already proved a credential of the person (an SSH key, a
browser's cookie), so it gets a *ticket* saying which from
:meth:`paris_tui.host.server.Host.issue_ticket` (good while the session
lasts) and hands it to the app in the environment (:data:`TICKET_ENV`),
never on the command line (where ``ps`` shows it).

No orphans: the app calls :func:`die_with_parent` first thing. On Linux it
asks the kernel to kill it when the process that started it dies, even by
``kill -9`` (``PR_SET_PDEATHSIG``); everywhere it exits at once if that
process is already gone.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

from ..core.text import normalize_name
from ..trace import PROFILE_ENV, TRACE_ENV

__all__ = [
    "DOOR_SOCKET_ENV",
    "PARENT_ENV",
    "TICKET_ENV",
    "client_command",
    "client_env",
    "die_with_parent",
]

TICKET_ENV = "PARIS_TUI_TICKET"
"""The environment variable that carries a door session's ticket."""

DOOR_SOCKET_ENV = "PARIS_TUI_DOOR_SOCKET"
"""Set by a door to the host's private Unix socket: its app connects there, in the
doors' own pool, never starved by strangers' connections to the TCP port."""

PARENT_ENV = "PARIS_TUI_PARENT_PID"
"""Set by a door to its own process id: the app dies with that process."""

_PR_SET_PDEATHSIG = 1


def client_command(port: int, name: str | None = None, *, address: str = "127.0.0.1") -> list[str]:
    """The argv of the client app for a door session (no shell is involved).

    ``name`` must pass the core's name rule (raises
    :class:`~paris_tui.core.text.InvalidNameError`); it is given as
    ``--name=NAME`` so that a name starting with ``-`` stays a name.
    """
    if not 0 < port < 65536:
        raise ValueError(f"port {port} is not a TCP port")
    where = f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
    # -P: the working directory is not put first on the module path, so a door
    # started from a folder others can write to never imports their "paris_tui".
    argv = [sys.executable, "-P", "-m", "paris_tui", "join", where]
    if name is not None:
        argv.append(f"--name={normalize_name(name)}")
    return argv


def client_env(
    ticket: str | None, base: dict[str, str] | None = None, door_socket: str | None = None
) -> dict[str, str]:
    """The environment of a door session's app: ``base`` (default: this process's)
    with the ticket, this process as the parent to die with, no stale ticket, and
    the host's private socket for doors' apps (:data:`DOOR_SOCKET_ENV`) if it has one;
    never the host's ``PARIS_TUI_TRACE`` or ``PARIS_TUI_PROFILE``."""
    env = dict(os.environ if base is None else base)
    env.pop(TICKET_ENV, None)
    env.pop(DOOR_SOCKET_ENV, None)
    for name in (TRACE_ENV, PROFILE_ENV):  # a host's measuring (trace.py): its fork server's
        env.pop(name, None)
    if ticket is not None:
        env[TICKET_ENV] = ticket
    if door_socket is not None:
        env[DOOR_SOCKET_ENV] = door_socket
    env[PARENT_ENV] = str(os.getpid())
    return env


def die_with_parent() -> None:
    """If a door started this process, die when the door's process dies.

    Does nothing unless :data:`PARENT_ENV` is set (removed from the
    environment here, so the app's own children do not inherit it).
    """
    value = os.environ.pop(PARENT_ENV, None)
    if value is None:
        return
    try:
        parent = int(value)
    except ValueError:
        return
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    # The parent may have died before the request above was made.
    if os.getppid() != parent:
        os._exit(1)
