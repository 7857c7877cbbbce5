"""What the SSH door listens on and allows, and what it says when it cannot start."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from paris_tui.host.child import client_command

__all__ = ["AppCommand", "SSHConfig", "SSHDoorError", "client_app"]

AppCommand = Callable[[int, "str | None", str], list[str]]
"""``(host port, name, host address) -> argv`` of the app a session runs."""


def client_app(port: int, name: str | None, address: str) -> list[str]:
    """paris-tui's own app, ``paris-tui join`` (the one the fork server starts warm)."""
    return client_command(port, name, address=address)


@dataclass(frozen=True, slots=True)
class SSHConfig:
    """What the SSH door listens on and allows."""

    port: int = 2222
    bind: str = "127.0.0.1"
    authorized_keys: Path | None = None
    max_sessions: int = 64  # SSH connections (each runs at most one app) at once
    max_per_address: int = 4  # ... from one address (IPv6: its /64); twice that logging in
    login_timeout: float = 30.0  # seconds to authenticate
    keepalive: float = 30.0  # a silent peer is probed this often; 3 unanswered: cut off
    hangup_grace: float = 3.0  # seconds between SIGHUP and SIGKILL of a hung-up app
    command: AppCommand = client_app


class SSHDoorError(Exception):
    """The door cannot start (its files, its port): one line for the operator."""
