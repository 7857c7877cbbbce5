"""An agreed abort at a host's table (protocol 5): the players' word on it as it comes
(who proposed, who is awaited, a decline), and, once every player agreed, the end of
the game in words: aborted, no winner, not rated (host/services/agreements.py)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from paris_tui.app.look.describe import joined, seat_label, words
from paris_tui.app.look.rating_words import rated_text

from ...core import SeatView
from ...i18n import N_, _
from ...net.endings_wire import Agreement
from ...net.protocol import RatedResult
from ..widgets.footer import KeysFooter
from .base import ParisScreen

__all__ = ["AbortedScreen", "abort_words"]


def abort_words(agreement: Agreement, names: tuple[str, ...], mine: int | None) -> Text:
    """What a player (or a watcher: ``mine`` None) is told of the abort's proposal."""
    seats = [s for s in agreement.seats if 0 <= s < len(names)]
    if agreement.to is not None:
        return Text(_("Every player agreed: the game is aborted, no one won, and it is not rated."))
    if not seats:
        return Text(_("Nobody asks to abort the game now: it goes on."))
    agreed = joined([seat_label(names, s) for s in seats])
    waiting = joined([seat_label(names, s) for s in range(len(names)) if s not in seats])
    if mine is None:
        template = _(
            "{agreed} asked to abort the game (unrated, no winner); waiting for {waiting}."
        )
    elif mine in seats:
        template = _(
            "You asked to abort the game; waiting for {waiting}. "
            "The palette (Ctrl+P) has Decline abort."
        )
    else:
        template = _(
            "{agreed} asked to abort the game now: unrated, no winner. "
            "The palette (Ctrl+P) has Agree to abort and Decline abort."
        )
    return words(template, agreed=agreed, waiting=waiting)


class AbortedScreen(ParisScreen):
    """The end of an aborted game: no winner, the scores when it ended, unrated."""

    DEFAULT_CSS = """
    AbortedScreen #abort-box { padding: 1 2; }
    AbortedScreen #abort-title { margin-bottom: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # At a host's table q goes back to its lobby (the app says when); else it quits.
        Binding("q", "app.lobby", N_("Lobby")),
        Binding("q", "app.quit", N_("Quit")),
        Binding("question_mark", "app.help", N_("Help"), show=False),
    ]

    def __init__(self, view: SeatView, rated: RatedResult | None = None) -> None:
        super().__init__()
        self.view = view
        self.rated = rated

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="abort-box"):
            yield Static("", id="abort-title")
            yield Static("", id="abort-words")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._draw()

    def language_changed(self) -> None:
        self._draw()

    def set_rated(self, rated: RatedResult) -> None:
        """The host's word on the game's rating (unrated: aborted)."""
        self.rated = rated
        self._draw()

    def _draw(self) -> None:
        view = self.view
        self.query_one("#abort-title", Static).update(Text(_("Game aborted"), style="bold"))
        text = Text(_("Every player agreed to end the game here: no one won."))
        text.append("\n\n")
        scores = [
            words(_("{player} {points}"), player=seat_label(view.names, s), points=view.scores[s])
            for s in range(view.players)
        ]
        text.append_text(words(_("Scores when it ended: {scores}."), scores=joined(scores)))
        if self.rated is not None:
            text.append("\n\n")
            text.append_text(rated_text(self.rated, view.names))
        self.query_one("#abort-words", Static).update(text)
