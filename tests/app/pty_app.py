"""Run the real ``paris-tui`` under a pseudo-terminal and keep every byte it writes.

For tests about what reaches the terminal: the raw output (to search for
escape sequences that must never be there) and the screen it draws (rendered
by ``pyte``, a terminal emulator, to find text on it). Every wait has a
deadline; a process that outlives its test is killed (its own process group).
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pyte

from paris_tui.app.start.launch import WEB_DRIVER

__all__ = ["Key", "PtyApp", "paris_tui_command", "web_door_app"]


class Key:
    """Bytes a terminal sends for keys (xterm)."""

    ENTER = b"\r"
    CTRL_C = b"\x03"
    BACKSPACE = b"\x7f"

    @staticmethod
    def paste(text: str) -> bytes:
        """``text`` as a bracketed paste."""
        return b"\x1b[200~" + text.encode("utf-8", "surrogatepass") + b"\x1b[201~"


def paris_tui_command() -> list[str]:
    """The installed ``paris-tui`` script beside this Python, else ``python -m paris_tui.cli``."""
    script = Path(sys.executable).with_name("paris-tui")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "paris_tui.cli"]  # pragma: no cover


class PtyApp:
    """``paris-tui ARGS`` on a pseudo-terminal of ``size`` (columns, rows)."""

    def __init__(
        self,
        args: Sequence[str | bytes],
        env: Mapping[str, str],
        *,
        size: tuple[int, int] = (100, 30),
        cwd: Path | None = None,
    ) -> None:
        columns, rows = size
        self.output = bytearray()
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
        full_env.pop("NO_COLOR", None)
        full_env.update({"TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(rows)})
        full_env.update(env)
        try:
            self.proc = subprocess.Popen(
                [*paris_tui_command(), *args],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=full_env,
                cwd=cwd,
                start_new_session=True,
                close_fds=True,
            )
        finally:
            os.close(slave)
        self._fd = master
        self._eof = False

    # --- reading -------------------------------------------------------------

    def _read(self, timeout: float) -> None:
        if self._eof:
            time.sleep(min(timeout, 0.01))
            return
        ready, _, _ = select.select([self._fd], [], [], timeout)
        if not ready:
            return
        try:
            chunk = os.read(self._fd, 65536)
        except OSError:  # EIO: the other side is closed
            chunk = b""
        if not chunk:
            self._eof = True
            return
        self.output += chunk
        self._stream.feed(chunk)

    def display(self) -> str:
        """The screen as the terminal shows it now, one line per row."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, *texts: str, timeout: float = 15.0) -> str:
        """Read until every one of ``texts`` is on the screen; the screen then."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.display()
            if all(text in shown for text in texts):
                return shown
            if time.monotonic() > deadline or (self._eof and self.proc.poll() is not None):
                missing = [t for t in texts if t not in shown]
                self.kill()
                raise AssertionError(f"not on the screen: {missing!r}\n{shown}")
            self._read(0.05)

    def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Read until nothing more is written for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = len(self.output)
            self._read(quiet)
            if len(self.output) == before:
                return

    # --- writing and ending ---------------------------------------------------

    def send(self, data: bytes) -> None:
        os.write(self._fd, data)

    def type(self, *keys: bytes, pause: float = 0.03) -> None:
        """Send each key on its own, ``pause`` seconds apart, as a person types.

        (A burst of keys in one write is not typing, and Textual 8.2.8 handles it
        out of order: in an input field, "ab<backspace>cd" in one write leaves
        "abc", the backspace applied after the characters that followed it.)
        """
        for key in keys:
            for char in key.decode("utf-8", "surrogatepass"):
                self.send(char.encode("utf-8", "surrogatepass"))
                self._read(pause)

    def finish(self, timeout: float = 15.0) -> int:
        """Read everything until the process exits; its exit status."""
        deadline = time.monotonic() + timeout
        while not (self._eof and self.proc.poll() is not None):
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"paris-tui did not exit in {timeout} s\n{self.display()}")
            self._read(0.05)
        self.close()
        return self.proc.wait()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        self.close()

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
            self._eof = True


def web_door_app(
    args: Sequence[str], data_dir: Path
) -> tuple[subprocess.Popen[bytes], threading.Event, threading.Thread]:
    """``paris-tui ARGS`` under the browser door's driver, on pipes, its output drained
    as textual-serve does: the process, an event set once it has started, the reader."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update({"PARIS_TUI_DATA_DIR": str(data_dir), "TEXTUAL_DRIVER": WEB_DRIVER})
    proc = subprocess.Popen(
        [*paris_tui_command(), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    out = proc.stdout
    started = threading.Event()

    def drain() -> None:
        if out.readline() == b"__GANGLION__\n":
            started.set()
        while out.read1(65536):
            pass

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    return proc, started, reader
