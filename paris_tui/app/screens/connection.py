"""The connection to a host's table is lost and the tries to join again ran out.

Try again, or quit (the seat stays the player's: ``paris-tui join`` again later). When
the table is over for this terminal (its seat was joined from another one), only quit.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...core import printable
from ...i18n import N_, _
from .base import ComposedAgain, TranslatedBindings

__all__ = ["ConnectionDialog"]


class ConnectionDialog(ComposedAgain, TranslatedBindings, ModalScreen[bool]):
    """Dismissed with ``True`` to try again, ``False`` to quit."""

    DEFAULT_CSS = """
    ConnectionDialog {
        align: center middle;
        background: $background 60%;
    }
    #connection-box {
        width: 64;
        height: auto;
        padding: 1 2;
        border: heavy $error;
        background: $panel;
    }
    #connection-box > Static {
        margin-bottom: 1;
    }
    #connection-buttons {
        height: auto;
    }
    #connection-buttons Button {
        margin-right: 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,enter", "retry", N_("Try again")),
        Binding("escape,q", "quit_game", N_("Quit")),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, problem: str, *, retry: bool = True) -> None:
        super().__init__()
        self.problem = problem
        self.retry = retry  # False: the table is over for this terminal, only Quit

    def compose(self) -> ComposeResult:
        with Vertical(id="connection-box"):
            if self.retry:
                yield Static(Text(_("The connection to the host is lost."), style="bold"))
            else:
                yield Static(Text(_("This terminal has left the table."), style="bold"))
            yield Static(Text(printable(self.problem)))  # the host's words: plain text
            if self.retry:
                yield Static(_("Your seat stays yours: try again now, or quit and join later."))
            else:
                yield Static(_("Your seat stays yours: join again to play it here."))
            with Horizontal(id="connection-buttons"):
                if self.retry:
                    yield Button(_("Try again (r)"), id="retry", variant="primary")
                quit_button = Button(_("Quit (q)"), id="quit")
                # Without a retry nothing takes the focus: an Enter meant for the game (or
                # held down) does not quit before the words are read; q, Esc or a click does.
                quit_button.can_focus = self.retry
                yield quit_button

    def on_mount(self) -> None:
        for button in self.query("#retry"):
            button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "retry")

    def action_retry(self) -> None:
        if self.retry:
            self.dismiss(True)

    def action_quit_game(self) -> None:
        self.dismiss(False)
