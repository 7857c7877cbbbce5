"""What the host's side and the fork server say to each other on the server's socket.

A request, on a new ``AF_UNIX`` connection for each app: a 4-byte length, that
many bytes of JSON (the server's secret key, the ``paris-tui`` arguments, the
environment, the working directory, whether the streams are a terminal) and, in
the same message (``SCM_RIGHTS``), the three descriptors of the app's standard
streams. The answers are lines: ``pid N`` once the app is forked, ``exit S`` once
it has been reaped (S as ``Popen.returncode``), ``error KIND`` for a refused
request.
"""

from __future__ import annotations

import hmac
import json
import os
import socket
from collections.abc import Mapping, Sequence

__all__ = [
    "COMMAND_PREFIX",
    "KEY_ENV",
    "PARENT_ENV",
    "SPAWN_TIMEOUT",
    "check_request",
    "encode_request",
    "read_request",
]

COMMAND_PREFIX = ("-P", "-m", "paris_tui")
"""A door's app command is ``[sys.executable, *COMMAND_PREFIX, ARGS...]`` (host/child.py):
the fork server runs the module named last, as ``python -m`` would."""

MAX_REQUEST = 1 << 20
KEY_ENV = "PARIS_TUI_ZYGOTE_KEY_FD"
"""The descriptor the server reads its secret key from (a pipe, then closed)."""
PARENT_ENV = "PARIS_TUI_PARENT_PID"  # host/child.py's PARENT_ENV (not imported: keep it light)
SPAWN_TIMEOUT = 10.0
"""Seconds either side waits for the other during one request."""


def encode_request(
    key: str, args: Sequence[str], env: Mapping[str, str], cwd: str, *, tty: bool
) -> bytes:
    """One request's bytes (its descriptors go with them, :func:`socket.send_fds`)."""
    request = {"key": key, "args": list(args), "env": dict(env), "cwd": cwd, "tty": tty}
    body = json.dumps(request).encode("utf-8")
    return len(body).to_bytes(4, "big") + body


def read_request(conn: socket.socket) -> tuple[dict[str, object], list[int]]:
    """One request: a 4-byte length, that many bytes of JSON, and the descriptors."""
    conn.settimeout(SPAWN_TIMEOUT)
    data, fds, _flags, _addr = socket.recv_fds(conn, 65536, 3)
    try:
        if len(data) < 4:
            raise ValueError("short request")
        size = int.from_bytes(data[:4], "big")
        if size > MAX_REQUEST:
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


def check_request(
    request: dict[str, object], key: str, fds: list[int]
) -> tuple[list[str], dict[str, str], str, bool]:
    """A request's arguments, environment, working directory and whether its streams
    are a terminal; ValueError for a wrong key or anything malformed."""
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
