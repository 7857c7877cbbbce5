"""Offer to resume an unfinished game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..describe import plain
from ..storage import SaveInfo

__all__ = ["ResumeDialog"]


class ResumeDialog(ModalScreen[SaveInfo | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "new", "New game"),
        Binding("y", "resume", "Resume"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, info: SaveInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-box"):
            yield Static(Text("Resume the unfinished game?", style="bold"))
            yield Static(plain(self.info.title), id="resume-title")
            with Horizontal(id="resume-buttons"):
                yield Button("Resume (y)", id="resume", variant="primary")
                yield Button("New game (n)", id="new")

    def on_mount(self) -> None:
        for button in self.query("#resume"):
            button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(self.info if event.button.id == "resume" else None)

    def action_resume(self) -> None:
        self.dismiss(self.info)

    def action_new(self) -> None:
        self.dismiss(None)
