"""A timeline of a login, for measuring only: off unless an operator asks.

``PARIS_TUI_TRACE=FILE`` in the environment of ``paris-tui host`` makes the
host, its fork server and every app forked from it append one line per step
of a login to FILE: ``SECONDS PID LABEL`` (``time.monotonic()``, one clock for
every process of the machine), e.g. ``ssh accept``, ``ssh slot``, ``fork
request``, ``child start``, ``app built``, ``join sent``, ``view received``,
``game composed``, ``game first frame``. ``benchmarks/ssh_login.py --trace``
reads it back as a timeline.

``PARIS_TUI_PROFILE=DIR`` (with the fork server) runs each forked app under
:mod:`cProfile` from its fork to :data:`PROFILE_AFTER` seconds after its game
screen's first frame and writes
``DIR/app-PID.prof`` (``python -m pstats`` reads it).

Each line is one ``write`` to a file opened ``O_APPEND``: the lines of many
processes do not mix. Nothing here imports more than the standard library,
and :func:`mark` costs one test of a global when tracing is off. Neither
variable reaches an app started by exec, or a player's own ``paris-tui``.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

__all__ = [
    "PROFILE_AFTER",
    "PROFILE_ENV",
    "TRACE_ENV",
    "mark",
    "profiling",
    "start_profile",
    "stop_profile",
]

TRACE_ENV = "PARIS_TUI_TRACE"
PROFILE_ENV = "PARIS_TUI_PROFILE"

_PATH: str | None = os.environ.get(TRACE_ENV) or None
_PROFILE_DIR: str | None = os.environ.get(PROFILE_ENV) or None
_profiler: Any = None
PROFILE_AFTER = 0.3
"""Seconds a forked app's profile goes on after its game screen's first frame is drawn."""


def mark(label: str) -> None:
    """One step of a login, when tracing (``PARIS_TUI_TRACE``); else nothing."""
    if _PATH is None:
        return
    line = f"{time.monotonic():.6f} {os.getpid()} {label}\n".encode()
    try:
        fd = os.open(_PATH, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.write(fd, line)
    finally:
        os.close(fd)


def profiling() -> bool:
    """Whether this process runs under :func:`start_profile`'s profiler."""
    return _profiler is not None


def start_profile() -> None:
    """In a forked app: profile it until :func:`stop_profile` (``PARIS_TUI_PROFILE``)."""
    global _profiler  # noqa: PLW0603 - one profiler a process
    if _PROFILE_DIR is None or _profiler is not None:
        return
    import cProfile

    _profiler = cProfile.Profile()
    _profiler.enable()


def stop_profile() -> None:
    """The first frame is out: write the profile (once), if one runs."""
    global _profiler
    profiler, _profiler = _profiler, None
    if profiler is None or _PROFILE_DIR is None:
        return
    profiler.disable()
    with contextlib.suppress(OSError):
        profiler.dump_stats(os.path.join(_PROFILE_DIR, f"app-{os.getpid()}.prof"))
