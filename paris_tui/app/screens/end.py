"""The game end: special tours one by one, the sack, then the score table and the winner.

At a host's table that speaks table chat, the end screen has the chat
pane under the result, with the game screen's keys: ``c`` opens the chat prompt,
F2 to F7 say a canned phrase (app/online/chat.py). After a game the table's talk ("Good
game!") is when chat matters most; the lines said during the game are there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static

from paris_tui.app.look.describe import joined, line_label, seat_label, shown_name, words
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.palette import LINE_COLOURS, player_style
from paris_tui.app.look.rating_words import rated_text
from paris_tui.app.online.chat import (
    PHRASE_KEYS,
    ChatPane,
    ChatPrompt,
    Mutes,
    say_chosen,
    speaking_as,
)
from paris_tui.app.terminal.fit import Fit, cut
from paris_tui.app.terminal.keygate import FREE_KEYS, KeyGate

from ...core import Event, ScoreEvent, SeatView, TourEvent
from ...i18n import N_, _, ngettext
from ...net.protocol import CHAT_PHRASES, RatedResult
from ...net.table import RemoteTable
from ..widgets.footer import KeysFooter
from .base import ParisScreen
from .end_rematch import Rematch

# Rich's SIMPLE_HEAD (a rule under the head row only) drawn with '-' for the ascii glyph set.
ASCII_SIMPLE_HEAD = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)

__all__ = ["EndScreen", "SpecialTour", "special_tours"]


@dataclass(frozen=True, slots=True)
class SpecialTour:
    line: str
    seat: int | None
    points: tuple[int, ...]


def special_tours(events: list[Event], players: int) -> tuple[list[SpecialTour], ScoreEvent | None]:
    """The game end's special tours (points per seat) and the sack's score event, if any."""
    tours: list[SpecialTour] = []
    sack: ScoreEvent | None = None
    current: tuple[str, int | None] | None = None
    points = [0] * players
    for event in events:
        if isinstance(event, TourEvent):
            if current is not None:
                tours.append(SpecialTour(current[0], current[1], tuple(points)))
                current = None
            if event.kind == "special_tour" and event.line is not None:
                current = (event.line, event.seat)
                points = [0] * players
        elif isinstance(event, ScoreEvent):
            if event.kind == "special_tour" and current is not None:
                points[event.seat] += event.points
            elif event.kind == "sack":
                sack = event
    if current is not None:
        tours.append(SpecialTour(current[0], current[1], tuple(points)))
    return tours, sack


CHAT_MIN_ROWS = 4
"""The chat pane's rows at the end at least (its rule and three lines)."""

NAME_WIDTHS: tuple[int | None, ...] = (None, 12, 10, 8, 6, 4, 0)  # 0: symbols only


def _symbol(seat: int) -> Text:
    style = player_style(seat)
    return Text(style.symbol, style=f"bold {style.colour}")


# Translators: the final score table's columns: points from small, grand, special tours, sack.
KIND_COLUMNS = (
    ("small_tour", N_("Small")),
    ("grand_tour", N_("Grand")),
    ("special_tour", N_("Special")),
    ("sack", N_("Sack")),
)


class EndScreen(ParisScreen):
    """Reveals the final tours step by step (Space shows all), then the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "reveal_all", N_("Show all")),
        Binding("n", "play_again", N_("Play again")),
        Binding("v", "review", N_("Review")),
        Binding("m", "rematch", N_("Rematch")),  # a host's table (end_rematch.py)
        # At a host's table q goes back to its lobby (the app says when); else it quits.
        Binding("q", "app.lobby", N_("Lobby")),
        Binding("q", "app.quit", N_("Quit")),
        Binding("question_mark", "app.help", N_("Help"), show=False),
        # Table chat (app/online/chat.py): at a host's table that speaks it.
        Binding("c", "chat", N_("Chat")),
        *(Binding(key, f"phrase({i})", show=False) for i, key in enumerate(PHRASE_KEYS)),
    ]

    def __init__(
        self,
        view: SeatView,
        events: list[Event],
        by_kind: list[dict[str, int]],
        *,
        step: float = 0.8,
        play_again: bool = True,
        rated: RatedResult | None = None,
        chat: RemoteTable | None = None,
        muted: Mutes | None = None,
    ) -> None:
        """``play_again=False``: no "Play again" (a host's table: the host deals games).
        ``rated``: how a host rated the game (:meth:`set_rated` when it comes later).
        ``chat``: the host's table whose chat the screen shows and says lines at;
        ``muted``: the writers hidden on this terminal (the game screen's, shared)."""
        super().__init__()
        self.chat = chat
        self.rematch: Rematch | None = None
        if chat is not None and chat.rematch_allowed:  # never a tournament's table
            self.rematch = Rematch(chat, view.names, self._show_rematch, self._to_rematch)
        self.muted = Mutes() if muted is None else muted
        self.rated = rated
        assert view.outcome is not None
        self.can_play_again = play_again
        self.view = view
        self.by_kind = by_kind
        self.tours, self.sack = special_tours(events, view.players)
        self.step = step
        self.items = self._items()
        self.shown = 0
        self.scores = view.outcome.scores
        # The last move's Enter, held, must not press "Play again" (keygate.py).
        self.key_gate = KeyGate(free=FREE_KEYS)  # q and ? work at once, as everywhere

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="end-box"):
            yield Static(Text(_("Game over"), style="bold"), id="end-title")
            yield Static("", id="end-steps")
            if self.rematch is not None:
                yield Static("", id="end-rematch")
            if self.chat is None:  # with the chat pane, the footer's keys (q) are the buttons
                with Horizontal(id="end-buttons"):
                    if self.can_play_again:
                        yield Button(_("Play again"), id="play-again", variant="primary")
                    yield Button(_("Quit"), id="end-quit")
        if self.chat is not None:
            yield ChatPane(id="end-chat")
        yield KeysFooter()

    def language_changed(self) -> None:
        """The same reveal, as far as it has come, in the current language."""
        self.items = self._items()
        for title in self.query("#end-title").results(Static):
            title.update(Text(_("Game over"), style="bold"))
        for button in self.query("#play-again").results(Button):
            button.label = _("Play again")
        for button in self.query("#end-quit").results(Button):
            button.label = _("Quit")
        for pane in self.query(ChatPane):
            pane.redraw()
        self._render_steps()

    def on_mount(self) -> None:
        if self.chat is not None:
            self.add_class("-chat")  # a tighter result, the chat pane under it
            self._leave_room_for_chat(self.app.size.height)
            for pane in self.query(ChatPane):
                pane.muted = self.muted
                pane.follow(self.chat, self.view.names)
                pane.add_class("-shown")
        if self.rematch is not None:
            self.rematch.start()
        if self.step <= 0:
            self.shown = len(self.items)
        else:
            self.set_interval(self.step, self._tick, name="end-reveal")
            self.shown = 1
        self._render_steps()
        if self.shown == len(self.items):
            self._focus_button()

    def _tick(self) -> None:
        if getattr(self.app, "too_small", False):
            return  # behind the "please enlarge" notice the reveal waits
        if self.shown < len(self.items):
            self.shown += 1
            self._render_steps()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reveal_all":
            return self.shown < len(self.items)  # the footer offers it only while it does something
        if action == "play_again":
            return self.can_play_again
        if action in ("chat", "phrase"):
            return self.chat is not None
        if action == "rematch":
            return self.rematch is not None
        return True

    # --- table chat (c, F2-F7; app/online/chat.py) ----------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls ParisScreen.on_resize too: each class's handler in the MRO.)
        self._leave_room_for_chat(event.size.height)

    def _leave_room_for_chat(self, height: int) -> None:
        """The result takes what it needs but leaves the chat pane its lines (it
        scrolls when a terminal is too short for both)."""
        if self.chat is not None:
            for box in self.query("#end-box"):
                box.styles.max_height = max(3, height - 1 - CHAT_MIN_ROWS)

    def on_unmount(self) -> None:
        if self.rematch is not None:
            self.rematch.stop()
        if self.chat is not None:
            for pane in self.query(ChatPane):
                pane.unfollow(self.chat)

    def action_rematch(self) -> None:
        if self.rematch is not None:
            self.rematch.press()

    def _show_rematch(self, said: Text) -> None:
        for line in self.query("#end-rematch").results(Static):
            line.update(said)

    def _to_rematch(self, table: str) -> None:
        leave_table = getattr(self.app, "leave_table", None)
        if callable(leave_table):
            leave_table(table)

    def action_chat(self) -> None:
        if self.chat is not None:
            panes = self.query(ChatPane)
            pane = panes.first() if panes else None
            prompt = ChatPrompt(
                speaking_as(self.chat, over=True), send=self._chat_chosen, pane=pane
            )
            self.app.push_screen(prompt, self._chat_chosen)

    def action_phrase(self, index: int) -> None:
        self._chat_chosen(("phrase", CHAT_PHRASES[index]))

    def _chat_chosen(self, said: tuple[str, str] | None) -> None:
        say_chosen(self.chat, self.query(ChatPane), said)

    def action_reveal_all(self) -> None:
        self.shown = len(self.items)
        self._render_steps()

    def _items(self) -> list[Fit | Text | Table]:
        view = self.view
        names = view.names
        outcome = view.outcome
        assert outcome is not None
        items: list[Fit | Text | Table] = []
        # The special tours one above the other, shortened alike (the same wording for each).
        items.extend(Fit.together(self._tour_line(i, t) for i, t in enumerate(self.tours, 1)))
        if view.players > 2:
            variants = []
            for width in NAME_WIDTHS:
                text = Text(_("Sack: "))
                for seat in range(view.players):
                    if seat:
                        text.append(" " if width == 0 else "  ")
                    if width == 0:
                        text.append_text(_symbol(seat))
                    else:
                        text.append(cut(shown_name(names[seat]), width) + " ")
                    text.append(str(outcome.sack[seat]))
                if self.sack is not None:
                    text.append(f" {current_glyphs().arrow} ")
                    text.append_text(seat_label(names, self.sack.seat))
                    text.append(f" +{self.sack.points}", style="bold")
                else:
                    text.append(_(" → a tie for the most: nobody scores"))
                variants.append(text)
            items.append(Fit(variants))
        items.append(self._table())
        winner = self._winner()
        items.append(winner)
        self._gaps = {id(winner)}  # a blank line above the winner (and the rating)
        if self.rated is not None:
            rating = rated_text(self.rated, view.names)
            self._gaps.add(id(rating))
            items.append(rating)
        return items

    def set_rated(self, rated: RatedResult) -> None:
        """The host's word on the game's rating, shown under the winner."""
        if rated == self.rated:
            return
        self.rated = rated
        complete = self.shown >= len(self.items)
        self.items = self._items()
        if complete:
            self.shown = len(self.items)
        self._render_steps()

    def _tour_line(self, number: int, tour: SpecialTour) -> Fit:
        """``Special tour 1: [B] Blue line — Ann's route: ● Ann +3, ▲ Bob +1`` on one line.

        Where that is too wide, shorter: the route's owner in brackets, then
        names cut shorter, then symbols only; every number kept.
        """
        view = self.view
        names = view.names
        scored = [(s, p) for s, p in enumerate(tour.points) if p]
        public = view.players == 2 and view.options.final_tours == "secret"
        variants: list[Text] = []
        for width in NAME_WIDTHS:
            for terse in (False, True):
                if terse:
                    text = Text(_("Special tour {number} ").format(number=number))
                    letter = view.board.lines[view.board.line_index[tour.line]].letter
                    text.append(f"[{letter}]", style=f"bold {LINE_COLOURS.get(tour.line, '')}")
                else:
                    text = Text(_("Special tour {number}: ").format(number=number))
                    text.append_text(line_label(view.board, tour.line))
                if tour.seat is not None:
                    owner = cut(shown_name(names[tour.seat]), 4 if width == 0 else width)
                    if terse:
                        text.append(_(" {player}'s route").format(player=owner))
                    else:
                        text.append(_(" — {player}'s route").format(player=owner))
                elif public:
                    text.append(_(" public route") if terse else _(" — public route"))
                text.append(_(": "))
                if not scored:
                    text.append(_("nobody scores"), style="dim")
                for j, (seat, pts) in enumerate(scored):
                    if j:
                        text.append(" " if width == 0 else _(", "))
                    if width == 0:
                        text.append_text(_symbol(seat))
                    else:
                        text.append_text(seat_label(names, seat, width=width))
                        text.append(" ")
                    text.append(f"+{pts}", style="bold")
                variants.append(text)
        return Fit(variants)

    def _table(self) -> Table:
        view = self.view
        outcome = view.outcome
        assert outcome is not None
        # A simple head (no outer box): four players, the table and the winner fit 80x24.
        head = ASCII_SIMPLE_HEAD if current_glyphs().is_ascii else box.SIMPLE_HEAD
        table = Table(title=_("Final scores"), expand=False, box=head, show_edge=False)
        table.add_column(_("Player"))
        # With two players nobody scores for the sack (R7.2): no column of zeros.
        kinds = [(k, t) for k, t in KIND_COLUMNS if k != "sack" or view.players > 2]
        for _kind, title in kinds:
            table.add_column(_(title), justify="right")
        table.add_column(_("Total"), justify="right", style="bold")
        table.add_column(_("On board"), justify="right")
        for seat in range(view.players):
            row = [seat_label(view.names, seat)]
            row += [Text(str(self.by_kind[seat][kind])) for kind, _title in kinds]
            row.append(Text(str(outcome.scores[seat])))
            row.append(Text(str(outcome.on_board[seat])))
            table.add_row(*row)
        return table

    def _winner(self) -> Text:
        view = self.view
        outcome = view.outcome
        assert outcome is not None
        top = outcome.scores[outcome.winners[0]]
        players = joined([seat_label(view.names, seat) for seat in outcome.winners])
        if len(outcome.winners) == 1:
            template = ngettext(
                "{player}[bold] wins[/bold] with {n} point.",
                "{player}[bold] wins[/bold] with {n} points.",
                top,
            )
        else:
            template = ngettext(
                "{player}[bold] share the victory[/bold] with {n} point.",
                "{player}[bold] share the victory[/bold] with {n} points.",
                top,
            )
        text = words(template, player=players, n=top)
        if outcome.decided_by == "fewest_businesses":
            text.append("\n")
            text.append(
                _(
                    "Tie on points, decided by the tie-break: fewest businesses on the board ({n})."
                ).format(n=outcome.on_board[outcome.winners[0]])
            )
        elif outcome.decided_by == "shared":
            text.append("\n")
            text.append(_("Tied on points and on businesses on the board."))
        return text

    def _render_steps(self) -> None:
        from rich.console import Group

        parts = self.items[: self.shown]
        waiting = self.shown < len(self.items)
        renderables: list[Fit | Text | Table] = []
        for part in parts:
            if isinstance(part, Table) or id(part) in self._gaps:
                renderables.append(Text(""))
            renderables.append(part)
        if waiting:
            renderables.append(Text(_("… (Space shows all)"), style="dim"))
        # query(), not query_one(): at app exit a screen can mount without children.
        for steps in self.query("#end-steps").results(Static):
            steps.update(Group(*renderables))
        for buttons in self.query("#end-buttons"):
            hidden = not buttons.display
            buttons.display = not waiting
            if hidden and not waiting:  # shown only now: Enter presses its first button
                self._focus_button()
        self.refresh_bindings()

    def _focus_button(self) -> None:
        """Play again (else Quit) takes Enter; never while hidden (during the reveal)."""
        for button in self.query("#play-again" if self.can_play_again else "#end-quit"):
            button.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "play-again":
            self.action_play_again()
        else:
            self.app.exit()

    def action_review(self) -> None:
        """The strong AI's review of this game's human moves (the game screen has the seats)."""
        open_review = getattr(self.app, "open_review", None)
        if open_review is not None:
            open_review()

    def action_play_again(self) -> None:
        if not self.can_play_again:
            return
        play_again = getattr(self.app, "play_again", None)
        if play_again is not None:
            play_again()
