"""Watch a game that another copy of the app is playing: read-only, public view only.

The replay viewer, following the file: every :data:`POLL` seconds the save's
modification stamp is checked and, when it changed, the file is read again
(a writer replaces it atomically, so a read sees one whole version). The
view is always the spectator's ``view(None)``, so no route is shown before
the game end. This screen makes no move and writes nothing, ever: it has no
session and no lock.
"""

from __future__ import annotations

import os
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from paris_tui.app.local.locks import is_locked
from paris_tui.app.local.storage import SaveInfo, read_save

from ...core import Event, RecordError, printable
from ...core.record import replay
from ...i18n import N_, _
from .replay import ReplayScreen

__all__ = ["POLL", "WatchScreen"]

POLL = 0.5  # seconds between looks at the file

Stamp = tuple[int, int, int] | None


def _stamp(path: os.PathLike[str]) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class WatchScreen(ReplayScreen):
    """The replay viewer on a live file; it follows the last move unless stepped back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
    ]

    def __init__(self, info: SaveInfo, *, poll: float = POLL) -> None:
        super().__init__(info.record, info.path)
        self.poll_every = poll
        self._stamp = _stamp(info.path)
        self.writer_alive = True
        self.problem: str | None = None
        self.reloads = 0

    def on_mount(self) -> None:
        # Textual then runs ReplayScreen.on_mount, which draws the position.
        self.writer_alive = is_locked(self.path)
        self.set_interval(self.poll_every, self.poll)

    def poll(self) -> None:
        """Look at the file; read it again if it changed (or could not be read last time)."""
        stamp = _stamp(self.path)
        before = (self.writer_alive, self.problem, self.reloads)
        self.writer_alive = is_locked(self.path)
        if stamp != self._stamp or self.problem is not None:
            self._stamp = stamp
            self.reload()
        if (self.writer_alive, self.problem, self.reloads) != before:
            self.show_position()

    def reload(self) -> None:
        if self._stamp is None:
            self.problem = _("The game's file is gone.")
            return
        try:
            info = read_save(self.path)
        except (RecordError, OSError) as exc:
            self.problem = printable(
                _("The game's file cannot be read now: {problem}").format(problem=exc)
            )
            return
        self.problem = None
        self.reloads += 1
        following = self.position == self.total
        game = replay(info.record, upto=0)
        self.events: list[list[Event]] = [game.play(m) for m in info.record.moves]
        self.record = info.record
        self.total = len(info.record.moves)
        self.position = self.total if following else min(self.position, self.total)

    def show_position(self) -> None:
        if not self.query("#replay-position"):
            return  # mounted while the app shuts down
        super().show_position()
        k = self.position
        text = Text(_("Watching: move {k} of {total}").format(k=k, total=self.total), style="bold")
        if k < self.total:
            text.append(_(" (End: latest)"), style="dim")
        text.append("\n")
        text.append(printable(self.path.name), style="dim")
        if self.record.moves and self.game_at(k).view(None).is_over:
            text.append("\n" + _("Game over"), style="bold")
        if self.problem:
            text.append("\n")
            text.append(self.problem, style="bold")
        elif self.writer_alive:
            text.append("\n" + _("Read-only; another copy plays."), style="dim")
        else:
            text.append(
                "\n" + _("Read-only; the other copy has closed it: resume to play."), style="dim"
            )
        self.query_one("#replay-position", Static).update(text)

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss()
        else:
            self.app.exit()
