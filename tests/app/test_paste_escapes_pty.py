"""A bracketed paste with an ESC inside it, on a real pseudo-terminal, to the real
``paris-tui join`` (no door between them): what was pasted is text, never keys.

Textual's own parser reads an ESC inside a paste as the start of a key, and the
characters after it as keys: a pasted ESC and "f" opened the friends box in the
lobby. The doors drop such ESCs before they reach the app; the app's own terminal
driver must too. Every wait is bounded.
"""

from __future__ import annotations

import time
from pathlib import Path

from paris_tui.app.terminal.paste import PasteEscapes

from .test_join_pty import join_on_a_pty

LOBBY = "the tables of this host"
FRIENDS_BOX = "Tell me when they are here"


def test_an_escape_inside_a_paste_is_no_key_in_paris_tui_join(tmp_path: Path) -> None:
    with join_on_a_pty(tmp_path, "bob,ai:random") as app:  # no seat of ann's: the lobby
        app.wait_for(LOBBY, timeout=30)
        app.settle()
        time.sleep(0.6)  # a quiet moment: keys after it count as deliberate
        # Two pastes, each with an ESC and then letters that are keys in the lobby.
        app.send(b"\x1b[200~\x1bf\x1b[201~")
        app.settle(quiet=0.5)
        app.send(b"\x1b[200~ann \x1bfriends\x1b[201~")
        app.settle(quiet=0.5)
        shown = app.display()
        assert FRIENDS_BOX not in shown, shown
        assert LOBBY in shown, shown
        # The same letter typed is a key: the box opens (the app was listening).
        time.sleep(0.6)
        app.send(b"f")
        app.wait_for(FRIENDS_BOX, timeout=15)
        app.send(b"\x1b")  # Escape: back to the lobby, whose q quits
        deadline = time.monotonic() + 15
        while FRIENDS_BOX in app.display():
            assert time.monotonic() < deadline, app.display()
            app.settle(quiet=0.1, timeout=0.5)
        time.sleep(0.6)
        app.send(b"q")
        assert app.finish(timeout=20) == 0


def test_a_paste_read_in_chunks_loses_its_escapes_and_keeps_its_marks() -> None:
    """The driver reads what the terminal sends in chunks of any size: an ESC at a
    chunk's end inside a paste waits to see whether it begins the paste's end."""
    start, end = b"\x1b[200~", b"\x1b[201~"
    sent = b"\x1b[A" + start + b"a\x1bfb\x1b[31m" + end + b"\x1b[B" + start + b"\x1bq" + end
    wanted = b"\x1b[A" + start + b"afb[31m" + end + b"\x1b[B" + start + b"q" + end
    for size in range(1, len(sent) + 1):
        strip = PasteEscapes()
        got = b"".join(strip(sent[at : at + size]) for at in range(0, len(sent), size))
        assert got == wanted, size
        assert not strip.in_paste
