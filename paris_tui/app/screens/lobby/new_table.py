"""The new-table form (``n`` in the lobby): the seats of a new table (you, then open
seats, AI seats, or a seat kept for a friend: an invitation, ``invite:NAME`` on the
wire), the rule variants and the move time. It dismisses with the
:class:`~paris_tui.net.protocol.OpenTable` to send, or ``None`` (Esc)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Static

from paris_tui.app.look.describe import ai_label, words
from paris_tui.app.screens.base import ParisScreen
from paris_tui.app.screens.lobby.cycler import Cycler
from paris_tui.app.widgets.footer import KeysFooter
from paris_tui.core import printable
from paris_tui.i18n import N_, _
from paris_tui.net.protocol import OpenTable

__all__ = ["AI_LEVELS", "INVITE", "NewTableScreen"]

AI_LEVELS = ("random", "easy", "greedy", "strong", "expert")
INVITE = "invite:"  # a seat kept for a name (host/services/waiting.py)


def _levels() -> tuple[str, ...]:
    try:
        from paris_tui.ai import LEVELS
    except ImportError:  # pragma: no cover - the AI package is part of paris-tui
        return AI_LEVELS
    return LEVELS


class NewTableScreen(ParisScreen):
    """Seats of a new table (you, then open seats or AI seats) and the rule variants.

    Dismisses with an :class:`~paris_tui.net.protocol.OpenTable` for ``name``,
    or ``None`` (Esc)."""

    DEFAULT_CSS = """
    NewTableScreen #table-form { padding: 0 2; }
    NewTableScreen #table-title { text-style: bold; margin: 1 0; }
    NewTableScreen .form-row { height: 1; margin-bottom: 1; }
    NewTableScreen .form-label { width: 17; }
    NewTableScreen .cycler { width: 30; padding: 0 1; }
    NewTableScreen .cycler:focus { background: $boost; text-style: bold; }
    NewTableScreen #table-help, NewTableScreen #table-invite-help {
        color: $text-muted; height: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Open the table")),
        Binding("escape", "back", N_("Back")),
        Binding("down", "app.focus_next", N_("Next"), show=False),
        Binding("up", "app.focus_previous", N_("Previous"), show=False),
    ]

    def __init__(self, name: str, friends: Sequence[str] = ()) -> None:
        """``friends``: the names a seat may be kept for (an invitation)."""
        super().__init__()
        self.player = name
        # A seat word holds at most 32 characters (net/wire.py's Word).
        self.friends = [f for f in friends if len(INVITE + f) <= 32 and f != name]

    def compose(self) -> ComposeResult:
        levels = _levels()
        ai = [(ai_label(level), f"ai:{level}") for level in levels]
        ai += [(_("invite {name}").format(name=printable(f)), INVITE + f) for f in self.friends]
        with Vertical(id="table-form"):
            yield Static(Text(_("A new table"), style="bold"), id="table-title")
            with Horizontal(classes="form-row"):
                yield Label(_("Seat {n}").format(n=1), classes="form-label")
                you = Text(printable(self.player), style="bold")
                yield Static(words(_("you ({player})"), player=you))
            for i in range(1, 4):
                choices = [(_("open seat"), "open"), *ai]
                if i >= 2:
                    choices.append((_("no seat"), "none"))
                with Horizontal(classes="form-row"):
                    yield Label(Text(_("Seat {n}").format(n=i + 1)), classes="form-label")
                    yield Cycler(choices, id=f"seat-{i}")
            with Horizontal(classes="form-row"):
                yield Label(_("Small tour"), classes="form-label")
                yield Cycler(
                    [
                        (_("both lines (rulebook)"), "both-lines"),
                        (_("tile's line only"), "tile-line"),
                    ],
                    id="small-tour",
                )
            with Horizontal(classes="form-row"):
                yield Label(_("Final tours"), classes="form-label")
                yield Cycler(
                    [
                        (_("secret routes (rulebook)"), "secret"),
                        (_("all five lines"), "all-lines"),
                    ],
                    id="final-tours",
                )
            with Horizontal(classes="form-row"):
                yield Label(_("Move time"), classes="form-label")
                yield Cycler(
                    [
                        (_("no clock"), "none"),
                        (_("30 seconds"), "30"),
                        (_("2 minutes"), "120"),
                        (_("1 day (turn-based)"), "86400"),
                        (_("3 days (turn-based)"), "259200"),
                    ],
                    id="move-time",
                )
            yield Static(
                Text(
                    _(
                        "← → change a seat, ↑ ↓ move. Open seats are taken by players from "
                        "the lobby; the game starts when every seat is taken.\n"
                        "Enter opens the table, Esc goes back."
                    )
                ),
                id="table-help",
            )
            if self.friends:
                yield Static(
                    Text(_("A seat for a friend waits for that friend only; they hear of it.")),
                    id="table-invite-help",
                )
        yield KeysFooter()

    def on_mount(self) -> None:
        # (Textual calls ParisScreen.on_mount after this one: each class's handler in the MRO.)
        self.query_one("#seat-1", Cycler).focus()

    def language_changed(self) -> None:
        """The same form, every choice kept, in the current language (composed again)."""
        chosen = {c.id: c.value for c in self.query(Cycler)}
        focused = self.focused.id if self.focused is not None else None

        async def again() -> None:
            await self.recompose()
            for cycler in self.query(Cycler):
                values = [value for _label, value in cycler.choices]
                if chosen.get(cycler.id) in values:
                    cycler.index = values.index(chosen[cycler.id])
                    cycler.draw()
            if focused is not None:
                for widget in self.query(f"#{focused}"):
                    widget.focus()

        self.call_later(again)

    def request(self) -> OpenTable:
        """The ``open_table`` the form describes now."""
        seats = ["me"]
        for i in range(1, 4):
            value = self.query_one(f"#seat-{i}", Cycler).value
            if value != "none":
                seats.append(value)
        move_time = self.query_one("#move-time", Cycler).value
        return OpenTable(
            self.player,
            tuple(seats),
            self.query_one("#small-tour", Cycler).value,
            self.query_one("#final-tours", Cycler).value,
            move_time=None if move_time == "none" else float(move_time),
        )

    def action_open(self) -> None:
        self.dismiss(self.request())

    def action_back(self) -> None:
        self.dismiss(None)
