"""A game open in another copy of the app: say so, offer to watch it read-only or go back."""

from __future__ import annotations

from typing import ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from paris_tui.app.local.locks import lock_holder
from paris_tui.app.local.storage import SaveInfo

from ...core import printable
from ...i18n import N_, _
from .base import ComposedAgain, TranslatedBindings
from .resume import save_title

__all__ = ["LockedDialog"]

LEAVE_LABELS = {"Back": N_("Back (Esc)"), "Quit": N_("Quit (Esc)")}


class LockedDialog(ComposedAgain, TranslatedBindings, ModalScreen[bool]):
    """Dismissed with ``True`` to watch the game, ``False`` to go back (or quit)."""

    DEFAULT_CSS = """
    LockedDialog {
        align: center middle;
        background: $background 60%;
    }
    #locked-box {
        width: 60;
        height: auto;
        padding: 1 2;
        border: heavy $warning;
        background: $panel;
    }
    #locked-box > Static {
        margin-bottom: 1;
    }
    #locked-buttons {
        height: auto;
    }
    #locked-buttons Button {
        margin-right: 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "watch", N_("Watch")),
        Binding("escape,b,n,q", "back", N_("Back")),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, info: SaveInfo, *, leave: Literal["Back", "Quit"] = "Back") -> None:
        super().__init__()
        self.info = info
        self.leave = leave

    def compose(self) -> ComposeResult:
        pid = lock_holder(self.info.path)
        if pid is None:
            said = _("This game is open in another copy of paris-tui.")
        else:
            said = _("This game is open in another copy of paris-tui (process {pid}).").format(
                pid=pid
            )
        where = Text(said, style="bold")
        game = save_title(self.info)  # names and file name as plain text, never markup
        game.append("\n")
        game.append(printable(self.info.path.name), style="dim")
        with Vertical(id="locked-box"):
            yield Static(where, id="locked-title")
            yield Static(game, id="locked-game")
            yield Static(
                _(
                    "Only one copy can play a game. This one can watch it as it is "
                    "played, read-only: the public view, no moves, nothing written."
                ),
                id="locked-info",
            )
            with Horizontal(id="locked-buttons"):
                yield Button(_("Watch (w)"), id="watch", variant="primary")
                yield Button(_(LEAVE_LABELS[self.leave]), id="back")

    def on_mount(self) -> None:
        for button in self.query("#watch"):
            button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "watch")

    def action_watch(self) -> None:
        self.dismiss(True)

    def action_back(self) -> None:
        self.dismiss(False)
