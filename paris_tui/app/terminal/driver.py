"""Textual drivers that end the app when its terminal goes away.

A terminal can go away without a hang-up signal: the pseudo-terminal closed
under the app (an SSH server or a test that holds the pty's other end and
does not make it the app's controlling terminal), standard input at end of
file, or a browser door's pipe closed. Textual 8.2.8 does not notice:

- ``LinuxDriver.run_input_thread`` reads standard input in a loop; a read
  that returns no bytes (end of file) only ends that pass of the loop, and
  the next ``select`` is ready at once, so the input thread spins at ~90% of
  a core for ever. A read that fails (``OSError``) ends the thread through
  ``App.panic``.
- Its ``WriterThread`` dies on the first failed write (``EIO`` on a closed
  pty); its queue then fills (30 writes) and the app's own thread blocks on
  the next frame, so even ``App.exit`` cannot finish.
- ``WebDriver`` (what textual-serve runs the app with) ends its input thread
  at end of file and leaves the app running with no one to see it.
- Both input threads wake every 0.1 s with nothing to read, only to give the
  key parser its tick (an escape key alone is known by the 0.1 s of silence
  after it): an idle app costs CPU and wakes a core ten times a second, which
  is most of what 64 idle SSH players cost a host.

:class:`TerminalDriver` and :class:`~paris_tui.app.terminal.web_driver.WebDoorDriver` (in a
module of its own: a terminal's app does not import the web driver) are those drivers with
exactly that fixed: when input ends or fails, or output fails, they ask the
app to exit with status :data:`TERMINAL_GONE` (the app saves: every move is
already saved, and closing the session releases the save's lock). Their input
threads wait on an :class:`~paris_tui.app.terminal.input_wait.InputWait`: with no
timeout at all once the parser has had its tick after the last input, woken by a
pipe when the app stops them. The terminal driver also drops the ESCs inside a
bracketed paste before its parser reads them as keys (:mod:`~paris_tui.app.terminal.paste`).
Everything else is Textual's own code.
:func:`driver_class` picks one of them for what Textual would have picked
(``ParisApp.get_driver_class``). POSIX only: Textual's Linux driver needs
``termios``, so on Windows the app keeps Textual's drivers.
"""

from __future__ import annotations

import io
import os
import sys
import threading
from codecs import getincrementaldecoder
from typing import IO, Any, cast

from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver

from paris_tui.app.terminal.input_wait import TERMINAL_GONE, TICK, Gone, InputWait
from paris_tui.app.terminal.paste import PasteEscapes

__all__ = [
    "TERMINAL_GONE",
    "TICK",
    "InputWait",
    "TerminalDriver",
    "driver_class",
]


class _TerminalFile:
    """The terminal output file for ``WriterThread``: a failed write or flush marks
    the terminal gone and drops the text, so the writer thread never dies and the
    app's thread never blocks on its full queue."""

    def __init__(self, file: IO[str], gone: Gone) -> None:
        self._file = file
        self._gone = gone

    def write(self, text: str) -> int:
        if self._gone.gone:
            return len(text)
        try:
            return self._file.write(text)
        except (OSError, ValueError):  # EIO on a closed pty, EPIPE, a closed file
            self._gone()
            return len(text)

    def flush(self) -> None:
        if self._gone.gone:
            return
        try:
            self._file.flush()
        except (OSError, ValueError):
            self._gone()

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        try:
            return self._file.isatty()
        except (OSError, ValueError):
            return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


class _WakingEvent(threading.Event):
    """The driver's ``exit_event``: setting it also wakes the input thread's wait."""

    def __init__(self, waiter: InputWait) -> None:
        super().__init__()
        self._waiter = waiter

    def set(self) -> None:
        super().set()
        self._waiter.wake()


class _InputEnded(Exception):
    """Standard input is at end of file or failing."""


class TerminalDriver(LinuxDriver):
    """Textual's ``LinuxDriver`` that exits the app when the terminal goes away."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._gone = Gone(self)
        if self._file is not None:
            # Duck-typed: WriterThread only calls write, flush and fileno.
            self._file = cast("io.TextIOWrapper", _TerminalFile(self._file, self._gone))
        self._input_wait = InputWait()
        self.exit_event = _WakingEvent(self._input_wait)

    def close(self) -> None:
        super().close()
        self._input_wait.close()

    def run_input_thread(self) -> None:
        """Textual 8.2.8's ``LinuxDriver.run_input_thread``, except that a read that
        returns no bytes or fails ends the loop and the app (upstream: the loop spins
        on end of file, and a failed read panics), and that it waits on an
        :class:`InputWait` (upstream: a 0.1 s poll for ever), and that the ESCs inside a
        bracketed paste are dropped before the parser reads them as keys
        (:mod:`paris_tui.app.terminal.paste`)."""
        fileno = self.fileno
        waiter = self._input_wait
        exit_set = self.exit_event.is_set

        parser = XTermParser(self._debug)
        feed = parser.feed
        tick = parser.tick

        decode = getincrementaldecoder("utf-8")().decode
        pasted_as_text = PasteEscapes()

        def read() -> bytes:
            try:
                data = os.read(fileno, 1024 * 4)
            except OSError:  # EIO and the like: the terminal is gone
                data = b""
            if not data:
                raise _InputEnded
            return data

        try:
            while not exit_set():
                if waiter.wait(fileno) and not exit_set():
                    unicode_data = decode(pasted_as_text(read()))
                    waiter.input_seen()
                    if unicode_data:  # else part of a character: the rest comes next
                        for event in feed(unicode_data):
                            self.process_message(event)
                for event in tick():
                    self.process_message(event)
        except _InputEnded:
            self._gone()
        finally:
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass


def driver_class(chosen: type[Driver]) -> type[Driver]:
    """Our driver for the one Textual chose (``TEXTUAL_DRIVER`` or the platform's):
    its fixed subclass where there is one, else Textual's choice unchanged."""
    if chosen is LinuxDriver:
        return TerminalDriver
    web = sys.modules.get("textual.drivers.web_driver")  # imported if Textual chose it
    if web is not None and chosen is web.WebDriver:
        from paris_tui.app.terminal.web_driver import WebDoorDriver

        return WebDoorDriver
    return chosen
