"""A choice among a few, changed with ← → or Space: the lobby's forms' one kind of field
(a seat's kind and the rule variants of a new table, quick match's number of players)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Static

from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.i18n import N_

__all__ = ["Cycler"]


class Cycler(Static, can_focus=True):
    """One choice among a few, changed with ← → (or Space): a seat's kind, a variant."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", N_("Previous"), show=False),
        Binding("right", "step(1)", N_("Next"), show=False),
        Binding("space", "step(1)", N_("Next"), show=False),
    ]

    def __init__(self, choices: list[tuple[str, str]], *, id: str) -> None:
        super().__init__("", id=id, classes="cycler")
        self.choices = choices
        self.index = 0

    @property
    def value(self) -> str:
        return self.choices[self.index][1]

    def on_mount(self) -> None:
        self.draw()

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.choices)
        self.draw()

    def on_click(self, event: events.Click) -> None:
        self.action_step(1)

    def draw(self) -> None:
        glyphs = current_glyphs()
        self.update(
            Text.assemble(
                f"{glyphs.marker_left} ", (self.choices[self.index][0], "bold"), f" {glyphs.marker}"
            )
        )
