"""The replay viewer: step through a recorded game, forward and back.

Shows the map, the players and the log for the position after move k,
always from the spectator's view ``view(None)``: a record's routes stay
hidden until the game end, as at the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from paris_tui.app.look.describe import plain

from ...core import Event, Game
from ...core.record import Record, replay
from ...i18n import N_, NP_, _, ngettext
from ..widgets.footer import KeysFooter
from ..widgets.map_view import BoardMap, MapOverlay
from ..widgets.panels import DiscardPanel, GameLog, PlayersPanel, RoutePanel, TilePanel
from ..widgets.table import compose_table
from .base import ParisScreen

__all__ = ["ReplayScreen"]


class ReplayScreen(ParisScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        # "Previous"/"Next", not "Back": Esc is Back where this viewer is opened from another
        # screen (the watcher), and one footer must not offer two different "Back"s; with the
        # context "replay" each language says "one move" ("Zug zurück", 上一步).
        Binding("left", "step(-1)", NP_("replay", "Previous"), key_display="←", priority=True),
        Binding("right", "step(1)", NP_("replay", "Next"), key_display="→", priority=True),
        Binding("pageup", "step(-10)", "−10", show=False, priority=True),
        Binding("pagedown", "step(10)", "+10", show=False, priority=True),
        Binding("home", "go(0)", NP_("replay", "Start"), priority=True),
        Binding("end", "go(-1)", N_("End"), priority=True),
        Binding("v", "review", N_("Review")),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, record: Record, path: Path) -> None:
        super().__init__()
        self.record = record
        self.path = path
        self.total = len(record.moves)
        # Every move's events, once: the log for position k is the first k moves' events.
        game = replay(record, upto=0)
        self.events: list[list[Event]] = [game.play(m) for m in record.moves]
        self.position = self.total

    def compose(self) -> ComposeResult:
        yield from compose_table(Static("", id="replay-position"))
        yield GameLog(id="log", wrap=True, markup=False, min_width=20)
        yield KeysFooter()

    def on_mount(self) -> None:
        if not self.query(GameLog):
            return  # mounted while the app shuts down
        self.query_one(GameLog).can_focus = False
        self.show_position()

    def language_changed(self) -> None:
        """The same position, in the current language."""
        if self.query("#replay-position"):
            self.show_position()

    def game_at(self, k: int) -> Game:
        return replay(self.record, upto=k)

    def show_position(self) -> None:
        k = self.position
        view = self.game_at(k).view(None)
        pos = Text(_("Replay: move {k} of {total}").format(k=k, total=self.total), style="bold")
        pos.append("\n")
        pos.append_text(plain(self.path.name, style="dim"))
        if view.is_over:
            pos.append("\n" + _("Game over"), style="bold")
        self.query_one("#replay-position", Static).update(pos)
        self.query_one(PlayersPanel).show(view)
        self.query_one(RoutePanel).show(view, reveal=False, hidden_hint=False)
        self.query_one(TilePanel).show(view, None, active=False)
        self.query_one(DiscardPanel).show(view)
        face = tuple(dict.fromkeys(t.split("/")[0] for t in view.face_up))
        self.query_one(BoardMap).update_map(view, MapOverlay(face_up=face))
        log = self.query_one(GameLog)
        log.clear()
        start = max(0, k - 60)
        if start:
            earlier = ngettext("… {n} earlier move", "… {n} earlier moves", start)
            log.write_entry(Text(earlier.format(n=start), style="dim"))
        for events in self.events[start:k]:
            log.add_events(view, events)

    def action_review(self) -> None:
        """The strong AI's review of the human moves; Enter on a move shows it here.

        Only for a finished game: a review works from each mover's view, which
        holds that mover's secret route (R8), so a game still being played (a
        save in progress, a game another copy plays) is refused, saying why.
        """
        from ...ai.review import is_finished
        from .review import ReviewScreen

        if not is_finished(self.record):
            self.notify(
                _(
                    "The review is for finished games: it works from each mover's "
                    "secret route, which this game still keeps."
                ),
                title=_("No review yet"),
                severity="warning",
                markup=False,
            )
            return

        def go(index: int | None) -> None:
            if index is not None:
                self.action_go(index)

        self.app.push_screen(ReviewScreen(self.record, can_go=True), callback=go)

    def action_step(self, delta: int) -> None:
        self.action_go(max(0, min(self.total, self.position + delta)))

    def action_go(self, k: int) -> None:
        self.position = self.total if k < 0 else max(0, min(self.total, k))
        self.show_position()
