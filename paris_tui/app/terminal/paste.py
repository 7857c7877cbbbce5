"""A bracketed paste is text: the ESCs inside one are dropped before Textual's parser.

Textual 8.2.8's terminal parser reads an ESC inside a bracketed paste as the start of
a key, and sends the characters after it as keys, not as the paste's text: a pasted
ESC and "f" would open the lobby's friends box, a "q" leave the table. So the bytes a
terminal sends are filtered before the parser sees them, in the one place each front
end reads them: the app's terminal driver (a local ``paris-tui``, and the app an SSH
session runs) and the doors' input pacing (:mod:`paris_tui.doors.pacing`, for the
browser door, whose driver is Textual's). The paste's own start and end marks stay.
"""

from __future__ import annotations

__all__ = ["PASTE_END", "PASTE_START", "PasteEscapes", "without_escapes_in_pastes"]

PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"


def _strip(data: bytes, in_paste: bool) -> tuple[bytes, bytes, bool]:
    """``(text, held, in_paste)``: see :func:`without_escapes_in_pastes`; the last is
    whether a paste is still open after ``data``."""
    if b"\x1b" not in data:
        return data, b"", in_paste
    out = bytearray()
    at = 0
    while at < len(data):
        if not in_paste:
            begin = data.find(PASTE_START, at)
            if begin < 0:
                out += data[at:]
                break
            out += data[at : begin + len(PASTE_START)]
            at, in_paste = begin + len(PASTE_START), True
            continue
        end = data.find(PASTE_END, at)
        if end < 0:  # the paste goes on in the next chunk
            text = data[at:]
            tail = text.rfind(b"\x1b")
            if tail >= 0 and PASTE_END.startswith(text[tail:]):
                return bytes(out + text[:tail].replace(b"\x1b", b"")), text[tail:], True
            return bytes(out + text.replace(b"\x1b", b"")), b"", True
        out += data[at:end].replace(b"\x1b", b"") + PASTE_END
        at, in_paste = end + len(PASTE_END), False
    return bytes(out), b"", in_paste


def without_escapes_in_pastes(data: bytes, in_paste: bool = False) -> tuple[bytes, bytes]:
    """``(text, held)``: ``data`` with every ESC inside a bracketed paste dropped
    (``in_paste``: one was open before it), but for the paste marks themselves; ``held``
    is what may begin a paste's end in the last bytes of an open paste, kept back for
    the next chunk to complete (or for its ESC to be dropped with it)."""
    text, held, _open = _strip(data, in_paste)
    return text, held


class PasteEscapes:
    """:func:`without_escapes_in_pastes` over a stream read in chunks: it keeps whether
    a paste is open, the bytes held back between one chunk and the next, and the last
    bytes outside a paste (a paste's start cut between two reads is still its start;
    they went on at once, since a lone ESC is the Escape key)."""

    def __init__(self) -> None:
        self.in_paste = False
        self._held = b""
        self._recent = b""

    def __call__(self, data: bytes) -> bytes:
        """What of ``data`` (after what was held back) goes on to the parser now."""
        data, self._held = self._held + data, b""
        passed = b""
        if not self.in_paste and self._recent:
            seen = self._recent + data
            begin = seen.find(PASTE_START)
            if 0 <= begin < len(self._recent):  # the start's first bytes went before
                cut = begin + len(PASTE_START) - len(self._recent)
                passed, data, self.in_paste = data[:cut], data[cut:], True
        text, self._held, self.in_paste = _strip(data, self.in_paste)
        text = passed + text
        self._recent = b"" if self.in_paste else (self._recent + text)[1 - len(PASTE_START) :]
        return text
