"""The takeover dialog: the stop is full, whose business goes?"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from paris_tui.app.look.describe import shown_name
from paris_tui.app.terminal.fit import cut
from paris_tui.app.terminal.keygate import KeyGate

from ...core import Move
from ...core.analysis import takeover_choices
from ...i18n import N_, _
from .base import ParisScreen

__all__ = ["TakeoverDialog"]


class TakeoverDialog(ParisScreen, ModalScreen[Move | None]):
    """One button per business that may be removed; Escape goes back to the tiles.

    Opponents' businesses come first (focus starts on one), the player's own
    last; each button says whose business and where it goes, in the second
    person: "Remove Bob's business (into the sack)".

    It opens on the Enter that took the tile: its :class:`KeyGate` drops keys
    until a deliberate press, so that Enter held down chooses nothing.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Back")),
        Binding("up,left", "app.focus_previous", N_("Previous"), show=False),
        Binding("down,right", "app.focus_next", N_("Next"), show=False),
    ]

    def __init__(
        self,
        stop_name: str,
        names: tuple[str, ...],
        mover: int,
        moves: list[Move],
        *,
        destination: dict[int, str],
        on_choose: Callable[[Move], None] | None = None,
    ) -> None:
        super().__init__()
        self.stop_name = stop_name
        self.names = names
        self.mover = mover
        # The choice a player usually wants first: an opponent's business; one's own last (the
        # order a last move's left-over preview assumes, core.analysis.takeover_choices).
        self.moves = takeover_choices(moves, mover)
        self.destination = destination
        self.on_choose = on_choose
        self.key_gate = KeyGate()  # the app applies it to every key and click (keygate.py)

    def _words(self) -> dict[str, Text]:
        title = _("{stop} is full").format(stop=self.stop_name)
        return {
            "#takeover-title": Text(title, style="bold"),
            "#takeover-question": Text(_("Which business do you remove?")),
            "#takeover-hint": Text(_("↑↓ choose · Enter removes · Esc goes back")),
        }

    def compose(self) -> ComposeResult:
        said = self._words()
        with Vertical(id="takeover-box"):
            yield Static(said["#takeover-title"], id="takeover-title")
            yield Static(said["#takeover-question"], id="takeover-question")
            for i, move in enumerate(self.moves):
                assert move.evict is not None
                yield Button(self.label(move.evict), id=f"evict-{i}", classes="evict")
            yield Static(said["#takeover-hint"], id="takeover-hint")

    def language_changed(self) -> None:
        """The same choice, in the current language (the focus stays where it was)."""
        for selector, text in self._words().items():
            for widget in self.query(selector).results(Static):
                widget.update(text)
        for i, move in enumerate(self.moves):
            assert move.evict is not None
            for button in self.query(f"#evict-{i}").results(Button):
                button.label = self.label(move.evict)

    def label(self, owner: int) -> Text:
        """``Remove Bob's business (into the sack)``: whose, and where it goes (R4)."""
        to = self.destination.get(owner)
        if owner == self.mover:
            if to == "supply":
                return Text(_("Remove your own business (back to your supply)"))
            return Text(_("Remove your own business (into the sack)"))
        name = cut(shown_name(self.names[owner]), 12)
        if to == "sack":
            return Text(_("Remove {player}'s business (into the sack)").format(player=name))
        return Text(_("Remove {player}'s business (back to their supply)").format(player=name))

    def on_mount(self) -> None:
        for button in self.query("#evict-0"):
            button.focus()

    def on_screen_resume(self) -> None:
        if not self.key_gate.passed:  # shown again (after help, the palette): wait afresh
            self.key_gate.rearm()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        assert event.button.id is not None
        move = self.moves[int(event.button.id.removeprefix("evict-"))]
        if self.on_choose is not None:
            self.on_choose(move)
        self.dismiss(move)

    def action_cancel(self) -> None:
        self.dismiss(None)
