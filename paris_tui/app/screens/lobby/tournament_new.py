"""The form that creates a tournament from the lobby (``c`` in the tournaments list,
when the host's operator lets the player: ``--tournament-makers``,
``--tournaments-open``). It dismisses with the
:class:`~paris_tui.net.tournaments_wire.NewTournament` to send, or ``None`` (Esc).

The name is typed (the core's name rule, as it is typed: a character a name
cannot hold is never taken in); the rest is chosen with ← →.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from paris_tui.app.screens.base import TranslatedBindings
from paris_tui.app.screens.lobby.cycler import Cycler
from paris_tui.app.widgets.fields import NameInput
from paris_tui.core import MAX_NAME_CELLS, InvalidNameError, normalize_name
from paris_tui.i18n import N_, _
from paris_tui.net.tournaments_wire import NewTournament
from paris_tui.wording import name_problem

__all__ = ["NewTournamentScreen"]


class NewTournamentScreen(TranslatedBindings, ModalScreen[NewTournament | None]):
    """A new tournament's name and settings (see the module's doc)."""

    DEFAULT_CSS = """
    NewTournamentScreen { align: center middle; background: $background 60%; }
    #tnew-box {
        width: 72; height: auto; max-height: 100%; padding: 0 2;
        border: heavy $accent; background: $panel;
    }
    #tnew-title { text-style: bold; margin-bottom: 1; }
    NewTournamentScreen .form-row { height: 1; }
    NewTournamentScreen .form-label { width: 20; }
    NewTournamentScreen .cycler { width: 40; padding: 0 1; }
    NewTournamentScreen .cycler:focus { background: $boost; text-style: bold; }
    NewTournamentScreen #tnew-name { border: none; height: 1; padding: 0 1; width: 40; }
    NewTournamentScreen #tnew-name:focus { background: $boost; text-style: bold; }
    #tnew-help { color: $text-muted; height: auto; margin-top: 1; }
    #tnew-status { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "create", N_("Create")),
        Binding("escape", "back", N_("Back")),
        Binding("down", "app.focus_next", N_("Next"), show=False),
        Binding("up", "app.focus_previous", N_("Previous"), show=False),
    ]

    def compose(self) -> ComposeResult:
        rows: list[tuple[str, list[tuple[str, str]], str]] = [
            (
                _("Format"),
                [
                    (_("Swiss"), "swiss"),
                    (_("round robin"), "round-robin"),
                    (_("knockout"), "knockout"),
                ],
                "tnew-format",
            ),
            (_("Players a table"), [("2", "2"), ("3", "3"), ("4", "4")], "tnew-players"),
            (
                _("Tournament rounds"),
                [(str(n), str(n)) for n in (4, 3, 5, 6, 7)],
                "tnew-rounds",
            ),
            (
                _("Move time"),
                [
                    (_("2 minutes"), "120"),
                    (_("5 minutes"), "300"),
                    (_("1 day (turn-based)"), "86400"),
                    (_("3 days (turn-based)"), "259200"),
                ],
                "tnew-move-time",
            ),
            (
                _("Starts"),
                [
                    (_("in 1 hour"), "3600"),
                    (_("in 30 minutes"), "1800"),
                    (_("in 1 day"), "86400"),
                    (_("in 1 week"), "604800"),
                ],
                "tnew-start",
            ),
            (_("Rated"), [(_("yes"), "yes"), (_("no"), "no")], "tnew-rated"),
            (
                _("Rated games to enter"),
                [("0", "0"), ("5", "5"), ("10", "10"), ("20", "20")],
                "tnew-min-games",
            ),
        ]
        with Vertical(id="tnew-box"):
            yield Static(Text(_("A new tournament")), id="tnew-title")
            with Horizontal(classes="form-row"):
                yield Label(_("Name"), classes="form-label")
                yield NameInput(
                    "", placeholder=_("its name"), max_length=MAX_NAME_CELLS, id="tnew-name"
                )
            for label, choices, ident in rows:
                with Horizontal(classes="form-row"):
                    yield Label(Text(label), classes="form-label")
                    yield Cycler(choices, id=ident)
            yield Static(
                Text(
                    _(
                        "← → change a choice, ↑ ↓ move. A Swiss tournament has the rounds "
                        "chosen; the others as many as their players need.\n"
                        "Enter creates it, Esc goes back."
                    )
                ),
                id="tnew-help",
            )
            yield Static("", id="tnew-status")

    def on_mount(self) -> None:
        self.query_one("#tnew-name", Input).focus()

    def say(self, said: str | Text, *, problem: bool = False) -> None:
        text = Text(said) if isinstance(said, str) else said
        if problem:
            text.stylize("bold")
        self.query_one("#tnew-status", Static).update(text)

    def on_plain_input_refused(self, event: NameInput.Refused) -> None:
        event.stop()
        self.say(event.reason, problem=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_create()

    def request(self) -> NewTournament | None:
        """The tournament the form describes now, or ``None`` (said why)."""
        try:
            name = normalize_name(self.query_one("#tnew-name", Input).value)
        except InvalidNameError as exc:
            self.say(_("Its name: {problem}.").format(problem=name_problem(exc)), problem=True)
            self.query_one("#tnew-name", Input).focus()
            return None

        def chosen(ident: str) -> str:
            return self.query_one(f"#{ident}", Cycler).value

        fmt = chosen("tnew-format")
        return NewTournament(
            name,
            fmt,  # type: ignore[arg-type]  # one of the cycler's: the wire's formats
            int(chosen("tnew-players")),
            int(chosen("tnew-rounds")) if fmt == "swiss" else 0,
            float(chosen("tnew-move-time")),
            int(time.time()) + int(chosen("tnew-start")),
            chosen("tnew-rated") == "yes",
            int(chosen("tnew-min-games")),
        )

    def action_create(self) -> None:
        new = self.request()
        if new is not None:
            self.dismiss(new)

    def action_back(self) -> None:
        self.dismiss(None)
