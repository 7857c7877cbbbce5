"""The SSH door's keys: its own host key, and the keys ``--authorized-keys`` admits.

The host key, ``ssh_host_ed25519_key``, is created once (mode 0600) in the
host's data directory and reused; its fingerprint is printed at start so
players can check it.
"""

from __future__ import annotations

import logging
import stat
from pathlib import Path

from paris_tui.core.record import write_text_atomic
from paris_tui.core.text import printable
from paris_tui.doors.ssh_config import SSHDoorError
from paris_tui.host.sshlib import asyncssh

__all__ = ["HOST_KEY_FILE", "AuthorizedKeys", "load_host_key"]

log = logging.getLogger("paris_tui.doors.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"


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
