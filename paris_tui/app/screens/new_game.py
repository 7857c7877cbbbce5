"""The new-game screen: 2-4 seats, names, human or AI, seed, rule variants."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static

from paris_tui.app.local.session import SeatSpec, ai_levels, check_seed, name_seats
from paris_tui.app.look.describe import ai_label, plain
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.palette import player_style

from ...core import MAX_NAME_CELLS, InvalidNameError, Options, check_table_names
from ...i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, current_language, ngettext
from ...wording import name_problem as worded_problem
from ..widgets.fields import NameInput
from ..widgets.footer import KeysFooter
from .base import ParisScreen

__all__ = ["NewGameScreen"]

DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Dee")
MAX_NAME = MAX_NAME_CELLS


def _seed(text: str) -> int | None:
    """The seed field's value: None when empty, else a seed (``ValueError`` says why not)."""
    if not text:
        return None
    if len(text) > 20 or not (text.isascii() and text.isdigit()):  # int() of 5,000 digits raises
        return check_seed(-1, "The seed")
    return check_seed(int(text), "The seed")


class NewGameScreen(ParisScreen):
    # A name field takes 'q' as a letter here: Ctrl+Q quits (and the footer says so).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("f5", "start", N_("Start")),
        Binding("f1", "app.help", N_("Help")),
        Binding("f2", "app.statistics", N_("Statistics")),
        Binding("ctrl+q", "app.quit", N_("Quit"), key_display="^q", priority=True),
    ]

    def __init__(self, seats: list[SeatSpec] | None = None, *, cursor_blink: bool = True) -> None:
        super().__init__()
        self.seats = seats or [SeatSpec(n) for n in DEFAULT_NAMES[:2]]
        self.cursor_blink = cursor_blink
        self.levels = ai_levels()

    # --- words (made again when the language changes) ---------------------------------

    def _kinds(self) -> list[tuple[str, str]]:
        kinds: list[tuple[str, str]] = [(_("Human"), "human")]
        return kinds + [(ai_label(level), f"ai:{level}") for level in self.levels]

    def _options(self) -> dict[str, list[tuple[str, Any]]]:
        """Each choice's options (label, value), by the select's id."""
        kinds = self._kinds()
        options: dict[str, list[tuple[str, Any]]] = {
            "#count": [
                (ngettext("{n} player", "{n} players", n).format(n=n), n) for n in (2, 3, 4)
            ],
            "#small-tour": [
                (_("both lines (rulebook)"), "both-lines"),
                (_("tile's line only"), "tile-line"),
            ],
            "#final-tours": [
                (_("secret routes (rulebook)"), "secret"),
                (_("all five lines"), "all-lines"),
            ],
        }
        for i in range(4):
            options[f"#kind-{i}"] = list(kinds)
        return options

    def _labels(self) -> dict[str, Text]:
        """Each label's words, by the label's id."""
        labels = {
            "#label-count": Text(_("Players")),
            "#label-seed": Text(_("Seed")),
            "#label-small-tour": Text(_("Small tour")),
            "#label-final-tours": Text(_("Final tours")),
            "#label-language": Text(_("Language")),
        }
        for i in range(4):
            style = player_style(i)
            labels[f"#label-seat-{i}"] = Text(
                _("{symbol} Seat {n}").format(symbol=style.symbol, n=i + 1), style=style.colour
            )
        return labels

    def compose(self) -> ComposeResult:
        options = self._options()
        labels = self._labels()
        kinds = options["#kind-0"]

        def label(key: str) -> Label:
            return Label(labels[f"#label-{key}"], classes="form-label", id=f"label-{key}")

        with VerticalScroll(id="new-box"):
            yield Static(Text(_("Paris Paris — new game"), style="bold"), id="new-title")
            with Horizontal(classes="form-row"):
                yield label("count")
                yield Select(
                    options["#count"], value=len(self.seats), allow_blank=False, id="count"
                )
            for i in range(4):
                seat = self.seats[i] if i < len(self.seats) else SeatSpec(DEFAULT_NAMES[i])
                with Horizontal(classes="form-row seat-row", id=f"seat-{i}"):
                    yield label(f"seat-{i}")
                    name = NameInput(
                        seat.name,
                        placeholder=_("name of seat {n}").format(n=i + 1),
                        max_length=MAX_NAME,
                        id=f"name-{i}",
                        classes="seat-name",
                    )
                    name.cursor_blink = self.cursor_blink
                    yield name
                    kind = seat.kind if seat.kind in {k for _label, k in kinds} else "human"
                    yield Select(
                        kinds, value=kind, allow_blank=False, id=f"kind-{i}", classes="seat-kind"
                    )
            with Horizontal(classes="form-row"):
                yield label("seed")
                seed = Input(placeholder=_("optional, e.g. 42"), id="seed", restrict=r"\d*")
                seed.cursor_blink = self.cursor_blink
                yield seed
            with Horizontal(classes="form-row"):
                yield label("small-tour")
                yield Select(
                    options["#small-tour"], value="both-lines", allow_blank=False, id="small-tour"
                )
            with Horizontal(classes="form-row"):
                yield label("final-tours")
                yield Select(
                    options["#final-tours"], value="secret", allow_blank=False, id="final-tours"
                )
            with Horizontal(classes="form-row"):
                yield label("language")
                # Each language named in itself: whoever reads it finds theirs.
                yield Select(
                    [(LANGUAGE_NAMES[tag], tag) for tag in LANGUAGES],
                    value=current_language(),
                    allow_blank=False,
                    id="language",
                )
            if not self.levels:
                yield Static(
                    _("AI opponents are not installed: every seat is human."),
                    classes="dim",
                    id="new-no-ai",
                )
            yield Static("", id="new-error")
            with Horizontal(id="new-buttons"):
                yield Button(_("Start game"), id="start", variant="primary")
                yield Button(_("Statistics"), id="stats")
        yield KeysFooter()

    def language_changed(self) -> None:
        """The same form, every choice and name kept, in the current language (and
        glyph set: a switch of glyphs redraws each screen so)."""
        self._show_arrows()
        for title in self.query("#new-title").results(Static):
            title.update(Text(_("Paris Paris — new game"), style="bold"))
        for selector, text in self._labels().items():
            for form_label in self.query(selector).results(Label):
                form_label.update(text)
        for selector, options in self._options().items():
            for select in self.query(selector).results(Select):
                value = select.value
                select.set_options(options)
                select.value = value
        for i in range(4):
            for field in self.query(f"#name-{i}").results(Input):
                field.placeholder = _("name of seat {n}").format(n=i + 1)
        for field in self.query("#seed").results(Input):
            field.placeholder = _("optional, e.g. 42")
        for note in self.query("#new-no-ai").results(Static):
            note.update(_("AI opponents are not installed: every seat is human."))
        for select in self.query("#language").results(Select):
            if select.value != current_language():
                select.value = current_language()
        for button in self.query("#start").results(Button):
            button.label = _("Start game")
        for button in self.query("#stats").results(Button):
            button.label = _("Statistics")

    def on_mount(self) -> None:
        self._show_arrows()
        self._show_seats(len(self.seats))
        for name in self.query("#name-0"):
            name.focus()
        from paris_tui.app.local.storage import save_problem

        problem = save_problem()  # say it now, not "Autosave failed" after the first move
        if problem is not None:
            said = _("No game can start: {problem}.").format(problem=problem)
            self.query_one("#new-error", Static).update(plain(said))

    def _show_arrows(self) -> None:
        """The choice fields' arrows in the glyph set: Textual's ``▼`` ``▲`` are two
        cells wide in a CJK terminal (where the ascii set is chosen by itself)."""
        ascii_ = current_glyphs().is_ascii
        for arrow in self.query(".down-arrow").results(Static):
            arrow.update("v" if ascii_ else "\u25bc")
        for arrow in self.query(".up-arrow").results(Static):
            arrow.update("^" if ascii_ else "\u25b2")

    def _show_seats(self, count: int) -> None:
        for i in range(4):
            for row in self.query(f"#seat-{i}"):
                row.display = i < count

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "count" and isinstance(event.value, int):
            self._show_seats(event.value)
        elif event.select.id == "language" and isinstance(event.value, str):
            choose = getattr(self.app, "choose_language", None)
            if event.value != current_language() and choose is not None:
                choose(event.value)

    def on_plain_input_refused(self, event: NameInput.Refused) -> None:
        event.stop()
        self.query_one("#new-error", Static).update(plain(event.reason))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "stats":
            statistics = getattr(self.app, "action_statistics", None)
            if statistics is not None:
                statistics()

    def _can_go_back(self) -> bool:
        """A game (or another screen) lies under this one: Escape goes back to it."""
        return len(self.app.screen_stack) > 2

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":
            return self._can_go_back()  # hidden from the footer when there is nowhere to go
        return True

    def action_back(self) -> None:
        if self._can_go_back():
            self.app.pop_screen()

    def _value(self, selector: str) -> Any:
        return self.query_one(selector, Select).value

    def action_start(self) -> None:
        error = self.query_one("#new-error", Static)
        count = self._value("#count")
        assert isinstance(count, int)
        kinds = [str(self._value(f"#kind-{i}")) for i in range(count)]
        humans = [i for i, kind in enumerate(kinds) if not kind.startswith("ai:")]
        # The core's one rule for names: the same words as the command line and records.
        try:
            names = check_table_names(self.query_one(f"#name-{i}", Input).value for i in humans)
        except InvalidNameError as exc:
            said = _("Seat {n}: {problem}.").format(
                n=humans[exc.seat or 0] + 1, problem=worded_problem(exc)
            )
            error.update(plain(said))
            return
        # An AI seat is named by its code (drawn as "Starke KI"), not by what was typed.
        human_name = dict(zip(humans, names, strict=True))
        seats = name_seats([(human_name.get(i, ""), kind) for i, kind in enumerate(kinds)])
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = _seed(seed_text)
        except ValueError as exc:
            error.update(plain(f"{exc}."))
            return
        options = Options(
            small_tour=self._value("#small-tour"), final_tours=self._value("#final-tours")
        )
        start_new = getattr(self.app, "start_new", None)
        if start_new is None:
            return
        try:
            start_new(seats, seed=seed, options=options)
        except OSError as exc:
            said = _("Cannot write the autosave: {problem}").format(problem=exc.strerror or exc)
            error.update(plain(said))
