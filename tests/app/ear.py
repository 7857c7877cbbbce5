"""Playing ``paris-tui ... --screen-reader`` on a pty by typed commands only, as a person would.

:class:`Ear` watches the lines the process writes and answers its questions
(a hand-off: Enter after a quiet moment; a turn: a tile's number or a
query; a takeover: the first choice; the end: ``quit``), recognised by the
catalog's own words in the language under test. :func:`check_plain` checks
the raw bytes: no escape sequence at all (so no alternate screen, no cursor
movement, no colour), no box-drawing or block character, every line under the
width.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.cells import cell_len

from paris_tui import i18n

from .pty_app import PtyApp, paris_tui_command


def words(lang: str, template: str) -> str:
    """``template`` in ``lang`` (the catalogs the process under test reads too)."""
    i18n.set_language(lang)
    try:
        return i18n.gettext(template)
    finally:
        i18n.set_language("en")


def fragment(lang: str, template: str, part: int = -1) -> str:
    """The longest fixed piece of a template (between its ``{fields}``), without spaces."""
    pieces = [p for p in re.split(r"\{\w+\}", words(lang, template)) if p.strip()]
    piece = pieces[part] if part != -1 else max(pieces, key=len)
    return squash(piece)


def squash(text: str) -> str:
    """Text without line breaks and spaces: a wrapped sentence matches its template."""
    return re.sub(r"\s+", "", text)


@dataclass
class Ear:
    """Drives one ``--screen-reader`` process; ``queries`` are typed once each on a turn."""

    app: PtyApp
    lang: str
    queries: list[str] = field(default_factory=list)
    answers: dict[str, list[str]] = field(default_factory=dict)
    seen: int = 0  # bytes of output looked at
    moves: int = 0
    idle: Callable[[], None] | None = None  # called while waiting (another player's keys)
    held_enter: bool = False  # at the first hand-off, first a held Enter (repeats at once)

    def __post_init__(self) -> None:
        lang = self.lang
        self.handoff = fragment(
            lang, "Pass to {player}. {player}, press Enter when only you are listening."
        )
        self.turn = fragment(lang, "Your turn, {player}: choose a tile by its number or its stop.")
        self.takeover = fragment(lang, "Type the number, or {cancel}.", 0)
        self.end = fragment(
            lang, "Type {review} for the strong AI's view of the moves, or {quit} to leave."
        )
        # A host's lobby, beneath its table: after the game, its quit ends the session.
        self.lobby = fragment(lang, "The host's lobby.")

    def text(self) -> str:
        return self.app.output.decode("utf-8", "replace")

    def step(self, timeout: float = 60.0) -> bool:
        """Answer the next question; False once the process has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.app.proc.poll() is not None and self.app._eof:
                return False
            self.app._read(0.02)
            if self.idle is not None:
                self.idle()
            new = self.app.output[self.seen :]
            if not new.endswith(b"\n"):
                continue
            tail = squash(new.decode("utf-8", "replace"))
            if self.handoff in tail:
                self.seen = len(self.app.output)
                if self.held_enter:
                    self.held_enter = False
                    for _ in range(5):  # a key held down: Enter, then repeats 30 ms apart
                        self.app.send(b"\r")
                        time.sleep(0.03)
                    self.app.settle(quiet=0.2, timeout=2)
                    self.seen = len(self.app.output)
                time.sleep(0.5)  # a deliberate Enter comes after a quiet moment
                self.app.send(b"\r")
                return True
            if self.takeover in tail:
                self.seen = len(self.app.output)
                self.app.send(b"1\r")
                return True
            if self.turn in tail:
                self.app.settle(quiet=0.1, timeout=2)  # the turn's last lines (the route)
                self.seen = len(self.app.output)
                if self.queries:
                    self.ask(self.queries.pop(0))
                self.app.send(b"1\r")
                self.moves += 1
                return True
            if self.end in tail or self.lobby in tail:
                self.seen = len(self.app.output)
                self.app.send(b"quit\r")
                return True
        raise AssertionError(f"no question came in {timeout} s:\n{self.text()[-3000:]}")

    def ask(self, query: str) -> None:
        """Type ``query`` and keep the lines it was answered with."""
        start = len(self.app.output)
        self.app.send(query.encode() + b"\r")
        self.app.settle(quiet=0.3, timeout=5)
        lines = self.app.output[start:].decode("utf-8", "replace").splitlines()
        self.answers[query] = [ln for ln in lines if ln.strip() and ln.strip() != query]
        self.seen = len(self.app.output)

    def play(self, timeout: float = 240.0) -> int:
        deadline = time.monotonic() + timeout
        while self.step(max(1.0, deadline - time.monotonic())):
            pass
        return self.app.finish(timeout=20)


BOX_AND_BLOCKS = re.compile("[\u2500-\u259f]")


CLEAR = b"\x1b[H\x1b[2J\x1b[3J"
"""The one sequence play by ear writes: at a hot-seat hand-off, screen and scrollback erased."""


def check_plain(output: bytes, width: int) -> list[str]:
    """The transcript's lines, after checking the raw bytes are plain lines only (but the
    hot-seat hand-off's erasing, :data:`CLEAR`)."""
    output = output.replace(CLEAR, b"")
    assert b"\x1b" not in output, "an escape sequence was written"
    text = output.decode("utf-8")
    assert "\x9b" not in text  # the C1 CSI character (its byte is also inside UTF-8 text)
    assert not BOX_AND_BLOCKS.search(text), BOX_AND_BLOCKS.search(text)
    lines = text.replace("\r\n", "\n").split("\n")
    for line in lines:
        assert "\r" not in line, repr(line)  # nothing is overwritten in place
        # Under the width, unless no space was there to break at (a word is never cut).
        assert cell_len(line) < width or " " not in line, (cell_len(line), line)
    return lines


def replay_json(path: str) -> dict[str, object]:
    out = subprocess.run(
        [*paris_tui_command(), "replay", path, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    summary: dict[str, object] = json.loads(out.stdout)
    return summary


def final_scores(lines: list[str], lang: str, names: list[str]) -> list[int]:
    """The scores the ``Final scores:`` sentence read out, per seat (by name)."""
    head = squash(words(lang, "Final scores: {scores}.").split("{")[0])
    text = squash(" ".join(lines))
    at = text.rindex(head)
    said = text[at + len(head) : at + len(head) + 400]
    scores = []
    for name in names:
        match = re.search(re.escape(squash(name)) + r"(\d+)", said)
        assert match, (name, said)
        scores.append(int(match.group(1)))
    return scores


__all__ = [
    "CLEAR",
    "Ear",
    "check_plain",
    "final_scores",
    "fragment",
    "replay_json",
    "squash",
    "words",
]
