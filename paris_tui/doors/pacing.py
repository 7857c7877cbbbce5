"""A door session's input, paced: bytes and key events at a person's pace.

Each SSH session and browser tab has one :class:`InputBudget`: two token
buckets, one of bytes and one of key events, that refill at a typist's pace
with room for a burst (a paste of a chat line, a flick of the mouse). A chunk
of input (an SSH packet, a browser's ``stdin`` message) passes whole or is
dropped whole: cut in two, it could split an escape sequence or leave a
bracketed paste open in the app (when a paste the app began is dropped, the
app is given the paste's end, so that its next keys are keys again). A paste the
client goes on with after a drop is still a paste: what it sends up to its own
paste end is dropped too, never given to the app as keys (a pasted "1" and new
line would take a tile, a "q" leave the table). A paste is text: the ESCs inside it
are dropped (the app's terminal parser would read the characters after one as keys),
and what may begin the paste's end in a chunk's last bytes waits for the next chunk
(the filter is :mod:`paris_tui.app.terminal.paste`, which the app's own terminal
driver uses too).

What a chunk costs in key events is what the app will make of it: each
character and each escape sequence (a key, a mouse event) one, and a whole
bracketed paste one (the app gets one ``Paste``). So a flood of keys is cut
off at a person's pace, and a paste of a chat line goes through at once.

The first time input is dropped, :attr:`InputBudget.dropped_once` is true once,
for the door to tell the session (in words) once; after each drop the door reads
nothing of the session for a while (:attr:`InputBudget.hold`, at most
:data:`HOLD_SECONDS`), so that a flood waits in the
client rather than in the host's event loop (which also referees the tables).
"""

from __future__ import annotations

import re

from paris_tui.app.terminal.paste import PASTE_END, PASTE_START, without_escapes_in_pastes

__all__ = [
    "BYTES_BURST",
    "BYTES_RATE",
    "EVENTS_BURST",
    "EVENTS_RATE",
    "HOLD_SECONDS",
    "PASTE_END",
    "PASTE_START",
    "RESIZE_EVENTS",
    "InputBudget",
    "key_events",
    "without_escapes_in_pastes",
]

BYTES_BURST = 8 * 1024
"""Bytes a session may send at once: a paste of the longest text the chat rule reads
(1,920 characters, 4 bytes each at most, in bracketed-paste marks) fits."""
BYTES_RATE = 1024
"""Bytes a second the budget refills at: a typist sends under 50, a mouse moved
across the screen (one SGR report per cell it crosses) about 700."""
EVENTS_BURST = 240
"""Key events (keys, mouse reports, pastes) a session may send at once."""
EVENTS_RATE = 60
"""Key events a second the budget refills at: a typist makes about 10, a moving
mouse up to about 60 (one per cell)."""
RESIZE_EVENTS = 10
"""What a resize costs in key events: each one repaints the whole screen."""
HOLD_SECONDS = 0.25
"""After input is dropped the door stops reading the session's input until the
budget could take that chunk (at least one key event's refill, at most this long):
a flood backs up in the client (TCP, SSH's window) instead of costing the host's
loop the work of reading and dropping it as fast as it comes."""

# One key event each: a bracketed paste (to its end, or to the end of the chunk), a
# CSI sequence (keys, SGR mouse reports), an SS3 key, ESC and a byte (Alt+key), a
# character (a byte that does not continue a UTF-8 sequence).
_EVENT = re.compile(
    rb"\x1b\[200~.*?(?:\x1b\[201~|\Z)"
    rb"|\x1b\[[0-?]*[ -/]*[@-~]"
    rb"|\x1bO."
    rb"|\x1b."
    rb"|[^\x80-\xbf]",
    re.DOTALL,
)


def key_events(data: bytes, in_paste: bool = False) -> tuple[int, bool]:
    """``(events, in_paste)``: the key events ``data`` makes in the app, and whether a
    bracketed paste is still open at its end (``in_paste``: one was open before it)."""
    events = 0
    if in_paste:  # the rest of a paste an earlier chunk began: no event of its own
        end = data.find(PASTE_END)
        if end < 0:
            return 0, True
        data = data[end + len(PASTE_END) :]
    open_paste = False
    for match in _EVENT.finditer(data):
        events += 1
        token = match.group()
        open_paste = token.startswith(PASTE_START) and not token.endswith(PASTE_END)
    return events, open_paste


class InputBudget:
    """The byte and key-event buckets of one session (see the module's words)."""

    def __init__(
        self,
        now: float,
        *,
        bytes_burst: int = BYTES_BURST,
        bytes_rate: float = BYTES_RATE,
        events_burst: int = EVENTS_BURST,
        events_rate: float = EVENTS_RATE,
    ) -> None:
        self.bytes_burst = bytes_burst
        self.bytes_rate = bytes_rate
        self.events_burst = events_burst
        self.events_rate = events_rate
        self._bytes = float(bytes_burst)
        self._events = float(events_burst)
        self._at = now
        self.in_paste = False  # a bracketed paste the app was given is still open
        self.skipping = False  # the client is in a paste that was dropped: skip to its end
        self._tail = b""  # the last bytes skipped (a paste end split between two chunks)
        self._held_back = b""  # what may begin the app's paste's end, for the next chunk
        self.dropped = 0  # bytes dropped so far
        self.last_dropped = False  # the last chunk was dropped (the door holds its reading)
        self.hold = 0.0  # ... for this many seconds
        self._said = False

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._at)
        self._at = now
        self._bytes = min(float(self.bytes_burst), self._bytes + elapsed * self.bytes_rate)
        self._events = min(float(self.events_burst), self._events + elapsed * self.events_rate)

    def take(self, data: bytes, now: float) -> bytes:
        """What of ``data`` goes to the app: all of it, or nothing (dropped whole), or
        only :data:`PASTE_END` when it is dropped in the middle of a paste."""
        self._refill(now)
        self.last_dropped = False
        if self.skipping:
            data = self._skip_paste(data)
            if self.skipping:
                return b""
        data, self._held_back = self._held_back + data, b""
        size = len(data)
        if not size:
            return b""
        if size <= self._bytes:
            events, open_after = key_events(data, self.in_paste)
            if events <= self._events:
                self._bytes -= size
                self._events -= events
                data, self._held_back = without_escapes_in_pastes(data, self.in_paste)
                self.in_paste = open_after
                return data
        self.last_dropped = True
        # Hold the reading until this chunk could have been taken (a chunk over the
        # burst never can: the longest hold), at least until one key event refills.
        short = max(size - self._bytes, 0.0) / self.bytes_rate if size <= self.bytes_burst else 1e9
        self.hold = min(HOLD_SECONDS, max(1.0 / self.events_rate, short))
        self.dropped += size
        # A paste the client began (or went on with) in this chunk and did not end: the
        # rest of it, in the chunks that follow, is dropped too.
        self.skipping = key_events(data, self.in_paste)[1]
        self._tail = data[-(len(PASTE_END) - 1) :] if self.skipping else b""
        if self.in_paste:  # the app is in a paste this chunk would have gone on with
            self.in_paste = False
            return PASTE_END
        return b""

    def _skip_paste(self, data: bytes) -> bytes:
        """``data`` after the end of the client's paste that is being dropped (all of
        it dropped, and :attr:`skipping` still true, when the end is not in it). The
        bytes dropped cost the byte budget, so that a paste that never ends is read at
        the pace of any flood."""
        seen = self._tail + data
        end = seen.find(PASTE_END)
        if end < 0:
            skipped = len(data)
            self._tail = seen[-(len(PASTE_END) - 1) :]
            rest = b""
        else:
            self.skipping = False
            self._tail = b""
            rest = seen[end + len(PASTE_END) :]
            skipped = len(data) - len(rest)
        self.dropped += skipped
        self._bytes = max(0.0, self._bytes - skipped)
        if self.skipping:
            self.last_dropped = True
            self.hold = HOLD_SECONDS if self._bytes < 1 else 1.0 / self.events_rate
        return rest

    def spend(self, events: int, now: float) -> bool:
        """Take ``events`` key events for something other than keys (a resize):
        whether the budget had them (else nothing is taken)."""
        self._refill(now)
        if events > self._events:
            return False
        self._events -= events
        return True

    @property
    def dropped_once(self) -> bool:
        """True the first time this is asked after input was dropped, else False."""
        if self.dropped and not self._said:
            self._said = True
            return True
        return False


def notice(text: str, columns: int, rows: int) -> bytes:
    """Terminal bytes that show ``text`` on the bottom row of a ``columns`` x ``rows``
    screen, in reverse video, and put the cursor and its attributes back: a line from
    the door over the app's screen (the app's next repaint of that row covers it).
    ``text`` is the door's own words; it is cut to the row's width in cells."""
    from rich.cells import set_cell_size

    columns, rows = max(1, columns), max(1, rows)
    line = set_cell_size(" " + text, columns)
    return f"\x1b7\x1b[{rows};1H\x1b[0;7m{line}\x1b[0m\x1b8".encode()


def too_fast_words(language: str) -> str:
    """What a session is told, once, when its input is dropped (in its language)."""
    from paris_tui.i18n import _
    from paris_tui.wording import in_language

    with in_language(language):
        return _("paris-tui: input came faster than anyone types; the rest was dropped")


NOTICE_QUIET = 0.2
"""Seconds without the app's output before the door's notice is written between its
frames (never in the middle of one); at most :data:`NOTICE_WAIT` seconds of waiting."""
NOTICE_WAIT = 3.0
NOTICE_SECONDS = 6.0
"""How long the notice stays before the app is made to repaint its screen over it."""
