"""The lobby: a player with no seat lists the host's tables, sits, watches or opens one.

``paris-tui join`` shows it when no ``--name`` is given or the host has no
seat for the name (issue 9). It speaks to the host through the connection
it is given (:class:`~paris_tui.net.client.HostClient`, after ``welcome``):
one reading task turns what the host sends into the screen, and the table
list is asked for again every :data:`POLL` seconds. The screen dismisses
with the host's :class:`~paris_tui.net.protocol.Seated` (the player sits:
the game screen takes the connection over from the very next line),
:class:`~paris_tui.net.protocol.Watching`, or ``None`` (quit).

Keys: ``Enter`` on a table sits there (at a free seat, or at the seat
reserved for your name) or else watches it; ``w`` watches; ``n`` opens a
new table (:class:`NewTableScreen`: seats as you, open or AI, and the rule
variants); ``p`` plays now (quick match: how many players, then a seat at the fullest
table of that size waiting for players, or a new one:
:mod:`~paris_tui.app.screens.quick_match`); ``a`` is your Account on the
host (a link code for another door, or one typed here:
:class:`~paris_tui.app.screens.account.AccountScreen`);
``g`` lists the host's finished games, yours first, and opens one in the
replay viewer (:mod:`~paris_tui.app.screens.finished_games`); ``l`` shows the
host's leaderboard (:mod:`~paris_tui.app.screens.leaderboard`; each seat's
rating is beside its name too); ``Esc`` leaves a table you wait at; ``q`` quits.
The tables waiting for your move (timed tables, issue 22) come first, the
longest-waiting at the top, marked "your move"
(:func:`~paris_tui.net.turns.tables_in_order`).

Everything the host sends (names, messages) is outside text: it is drawn
through :class:`rich.text.Text` after :func:`~paris_tui.core.printable`,
never as markup; names the player types pass the core's rule as they are
typed (:class:`~paris_tui.app.screens.new_game.NameInput`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import ClassVar

from msgspec import structs
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label, Static

from ...core import MAX_NAME_CELLS, InvalidNameError, RecordError, normalize_name, printable
from ...core.record import parse_record
from ...i18n import N_, _, ngettext
from ...net.client import HostClient, HostClosedError, TokenStore
from ...net.games_wire import GAMES_VERSION
from ...net.protocol import (
    FriendsInfo,
    Games,
    GetRecord,
    Join,
    Leader,
    Leave,
    Left,
    ListGames,
    ListTables,
    OpenTable,
    ProtocolError,
    RecordSent,
    Refused,
    Seated,
    SeatInfo,
    TableInfo,
    Tables,
    Waiting,
    Watch,
    Watching,
)
from ...net.turns import RatingLookup, tables_in_order
from ...wording import name_problem as worded_problem
from ...wording import refusal_reason
from ..describe import ai_label, shown_name, words
from ..friends import LobbyFriends
from ..glyphs import current_glyphs
from ..turns_view import table_turn_text, waiting_line
from ..widgets.footer import KeysFooter
from .base import ParisScreen
from .finished_games import FinishedGamesScreen, HostReplayScreen
from .leaderboard import LeaderboardScreen, rating_text
from .new_game import NameInput

__all__ = [
    "POLL",
    "POLL_AWAY",
    "LobbyScreen",
    "NewTableScreen",
    "table_game_text",
    "table_players_text",
]

POLL = 2.0  # seconds between two asks for the table list
POLL_AWAY = 15.0  # ... while the terminal or browser tab reports the focus lost
RECONNECT_TRIES = 8  # the lobby tries this often to connect again (0.5 s, 1 s, ... 8 s apart)

# What to do about an account's refusal, in the lobby (issue 17).
_ACCOUNT_HINTS = {
    "name_taken": N_(
        "Where you are already this name, open Account for a link code; then press a "
        "here and type it."
    ),
    "bad_code": N_("Ask for a new link code and press a to type it."),
    "account_locked": N_("Ask the host's operator."),
    "unavailable": N_("The host's operator must repair its accounts; try again later."),
}

AI_LEVELS = ("random", "easy", "greedy", "strong")


def _levels() -> tuple[str, ...]:
    try:
        from ...ai import LEVELS
    except ImportError:  # pragma: no cover - the AI package is part of paris-tui
        return AI_LEVELS
    return LEVELS


# --- how a table is drawn -------------------------------------------------------------


def _seat_text(seat: SeatInfo, me: str | None, finished: bool = False) -> Text:
    if seat.status == "free":
        return Text(_("free seat"), style="italic green")
    name = shown_name(seat.name) if seat.kind.startswith("ai:") else printable(seat.name)
    text = Text(name, style="bold" if seat.status == "present" else "")
    if me is not None and seat.kind == "human" and seat.name.casefold() == me.casefold():
        text.stylize("underline")
    if seat.rating is not None:  # the account's rating (leaderboard.py)
        text.append(" " + rating_text(seat.rating), style="cyan")
    if seat.status == "away":
        if not finished:  # after the game, who left it says nothing
            text.append(_(" (away)"), style="dim")
    elif seat.status == "takeover":
        text.append(_(" (AI plays)"), style="dim")
    elif seat.status == "ai":
        text.stylize("dim")
    return text


def table_players_text(info: TableInfo, me: str | None = None) -> Text:
    """The table's seats in one line: names as text, each with its status."""
    return Text(_(", ")).join(_seat_text(seat, me, info.finished) for seat in info.seats)


def table_game_text(info: TableInfo) -> Text:
    """How far the table's game is: waiting for players, move n of N, or finished."""
    if info.waiting:
        n = info.free_seats
        waiting = ngettext("waiting: {n} free seat", "waiting: {n} free seats", n)
        return Text(waiting.format(n=n), style="green")
    if info.finished:
        return Text(_("finished"), style="dim")
    return Text(_("move {k} of {total}").format(k=info.move_count, total=info.total_moves))


def _holds_seat(info: TableInfo, name: str | None) -> bool:
    """Whether a (non-free, human) seat of the table is called ``name``."""
    if name is None:
        return False
    key = name.casefold()
    return any(
        s.status != "free" and s.kind == "human" and s.name.casefold() == key for s in info.seats
    )


# --- the new-table form -------------------------------------------------------------------


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
    NewTableScreen #table-help { color: $text-muted; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Open the table")),
        Binding("escape", "back", N_("Back")),
        Binding("down", "app.focus_next", N_("Next"), show=False),
        Binding("up", "app.focus_previous", N_("Previous"), show=False),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        levels = _levels()
        ai = [(ai_label(level), f"ai:{level}") for level in levels]
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


# --- the lobby ------------------------------------------------------------------------------


class TablesGrid(DataTable[Text]):
    """The list of tables: one row per table; Enter sits or watches (said in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", N_("Sit or watch")),
    ]


class LobbyScreen(ParisScreen):
    """The host's tables: sit, watch, or open a new one. See the module's docstring."""

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { text-style: bold; padding: 0 1; height: 1; }
    LobbyScreen #lobby-name-row { height: 1; padding: 0 1; margin-top: 1; }
    LobbyScreen #lobby-name-row Label { width: 11; }
    LobbyScreen #lobby-name-row Input { border: none; height: 1; padding: 0 1; width: 26; }
    LobbyScreen #lobby-name-row Input:focus { background: $boost; text-style: bold; }
    LobbyScreen #lobby-you { padding: 0 1; margin-top: 1; height: auto; }  /* the keys may wrap */
    LobbyScreen #lobby-tables { height: 1fr; margin-top: 1; }
    LobbyScreen #lobby-status { padding: 0 1; height: 3; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Off the footer (it was full at 80 columns in German once "Play now" came):
        # Enter watches a table with no seat for you, and the help lists w.
        Binding("w", "watch", N_("Watch"), show=False),
        Binding("n", "new_table", N_("New table")),
        Binding("p", "play_now", N_("Play now")),
        Binding("a", "account", N_("Account"), show=False),  # also in the palette
        # Shown beside "You are ..." once the host has rated games (the footer is full).
        Binding("l", "leaderboard", N_("Leaderboard"), show=False),
        Binding("g", "games", N_("Finished games"), show=False),
        Binding("f", "friends", N_("Friends"), show=False),  # issue 22 (app/friends.py)
        Binding("r", "refresh", N_("Refresh"), show=False),
        Binding("escape", "leave", N_("Leave the table")),
        Binding("q", "quit", N_("Quit")),
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
    ]

    def __init__(
        self,
        client: HostClient,
        name: str | None,
        *,
        poll: float = POLL,
        poll_away: float = POLL_AWAY,
        tokens: TokenStore | None = None,
        address: str | None = None,
        ticket: str | None = None,
        reconnect: Callable[[], Awaitable[HostClient]] | None = None,
    ) -> None:
        """``tokens`` and ``address`` (the host as the token store knows it): a seat
        reserved for the player's name is joined with the token kept for it, and a
        token the host issues here is kept (as ``paris-tui join`` does).
        ``reconnect``: a new connection to the host, tried when this one drops (as a
        seated client rejoins); :attr:`client` is then the new one."""
        super().__init__()
        self.client = client
        self._connect = reconnect
        self.tokens = tokens
        self.address = address
        self.ticket = ticket  # a door's proof of this person, when no token is kept
        self.code: str | None = None  # a link code typed here, for the next request
        self.player: str | None = None
        self.given_name = name
        self.name_problem: str | None = None
        if name is not None:
            try:
                self.player = normalize_name(name)
            except InvalidNameError as exc:
                self.name_problem = worded_problem(exc)
        self.poll_every = poll
        self.poll_away = poll_away  # while the player's terminal is in the background
        self.tables: tuple[TableInfo, ...] = ()
        self.leaderboard: tuple[Leader, ...] = ()  # the host's best ratings (l shows them)
        self.waiting: Waiting | None = None
        self.ended: str | None = None  # why the connection is over, once it is
        self.done = False  # dismissed (or about to be): nothing more is read
        self._reader: asyncio.Task[None] | None = None
        self._drawn = False  # the list was drawn once (an empty list is drawn too)
        self._problem_shown = False  # the status line says what went wrong: keep it
        # Quick match prefers players of a near rating when this says ratings (issue 22).
        # Quick match prefers players of a near rating: the host's, as last told.
        self.rating: RatingLookup | None = self._rating_of
        self.friends = LobbyFriends(self)  # "tell me when NAME is here" (issue 22)

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Paris Paris — the tables of this host")), id="lobby-title")
        if self.player is None:
            with Horizontal(id="lobby-name-row"):
                yield Label(_("Your name"), id="lobby-name-label")
                yield NameInput(
                    "",  # a given name that breaks the rule is never put in the field
                    placeholder=_("type it, then Enter"),
                    max_length=MAX_NAME_CELLS,
                    id="lobby-name",
                )
        yield Static("", id="lobby-you")
        table = TablesGrid(id="lobby-tables", cursor_type="row", zebra_stripes=True)
        table.add_column(Text(_("Table")), width=5, key="table")
        table.add_column(Text(_("Players")), width=44, key="players")
        table.add_column(Text(_("Game")), width=21, key="game")
        yield table
        yield Static("", id="lobby-status")
        yield KeysFooter()

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls ParisScreen.on_resize too: each class's handler in the MRO.)
        self._fit_footer(event.size.width)

    def on_mount(self) -> None:
        # (Textual calls ParisScreen.on_mount after this one: each class's handler in the MRO.)
        self._fit_footer(self.app.size.width)
        self._show_you()
        if self.player is None:
            self.query_one("#lobby-name", Input).focus()
            if self.name_problem is None:
                said = _(
                    "Type your name to sit at a table or open one; Tab goes to the tables, "
                    "Ctrl+Q quits."
                )
            else:
                said = _("The name given cannot be used: {problem}. Type another one.").format(
                    problem=self.name_problem
                )
            self._say(said, problem=self.name_problem is not None)
        else:
            self.query_one("#lobby-tables", DataTable).focus()
            if self.given_name is not None:
                self._say(
                    _("No seat waits for you here: sit at a free seat, watch, or open a table.")
                )
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self.friends.ask()
        self.action_refresh()
        self._polls = self.set_interval(self.poll_every, self.action_refresh)
        self._polls_away = self.set_interval(self.poll_away, self.action_refresh, pause=True)
        self.watch(self.app, "app_focus", self._focus_changed, init=False)

    def language_changed(self) -> None:
        """The lobby in the current language: title, name field, columns, tables, status."""
        for title in self.query("#lobby-title").results(Static):
            title.update(Text(_("Paris Paris — the tables of this host")))
        for label in self.query("#lobby-name-label").results(Label):
            label.update(_("Your name"))
        for field in self.query("#lobby-name").results(Input):
            field.placeholder = _("type it, then Enter")
        self._show_you()
        grid = self.query_one("#lobby-tables", DataTable)
        heads = {"table": _("Table"), "players": _("Players"), "game": _("Game")}
        for key, column in grid.columns.items():
            if key.value in heads:
                column.label = Text(heads[key.value])
        self._draw_tables()
        if self.waiting is not None:
            self._show_waiting()
        elif self.ended is None and not self._problem_shown:
            if self.player is None:
                self._say(
                    _(
                        "Type your name to sit at a table or open one; Tab goes to the tables, "
                        "Ctrl+Q quits."
                    )
                )
            else:
                self._say(_("Enter sits at a table (or watches it), n opens a new one."))

    def on_unmount(self) -> None:
        self._stop_reading()

    def _stop_reading(self) -> None:
        self.done = True
        reader = self._reader
        if reader is not None and not reader.done() and reader is not asyncio.current_task():
            reader.cancel()

    def _say(self, message: str | Text, *, problem: bool = False) -> None:
        text = Text(message) if isinstance(message, str) else message
        self._problem_shown = problem
        if problem:
            text.stylize("bold")
        for status in self.query("#lobby-status"):
            assert isinstance(status, Static)
            status.update(text)

    def _show_you(self) -> None:
        you = self.query_one("#lobby-you", Static)
        if self.player is None:
            you.display = False
            return
        you.display = True
        line = words(_("You are {player}."), player=Text(printable(self.player), style="bold"))
        welcome = self.client.welcome
        if welcome is not None and welcome.protocol >= GAMES_VERSION:
            # The keys of issue 22 (the footer is full at 80 columns).
            line.append("  ")
            line.append_text(words(_("{key} finished games"), key=Text("g", style="bold")))
            line.append("  ")
            n = len(self.leaderboard)
            if n:
                board = ngettext(
                    "{key} leaderboard ({n} rated player)",
                    "{key} leaderboard ({n} rated players)",
                    n,
                )
            else:
                board = _("{key} leaderboard")
            line.append_text(words(board, key=Text("l", style="bold"), n=n))
        you.update(line)

    # --- the name ------------------------------------------------------------------------

    def on_name_input_refused(self, event: NameInput.Refused) -> None:
        event.stop()
        self._say(event.reason, problem=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            name = normalize_name(event.value)
        except InvalidNameError as exc:
            self._say(_("Your name: {problem}.").format(problem=worded_problem(exc)), problem=True)
            return
        self.player = name
        for row in self.query("#lobby-name-row"):
            row.remove()
        self._show_you()
        self.query_one("#lobby-tables", DataTable).focus()
        self._say(_("Enter sits at a table (or watches it), n opens a new one."))
        self._draw_tables()

    def _need_name(self) -> str | None:
        if self.player is None:
            self._say(_("Type your name first (and press Enter)."), problem=True)
            for field in self.query("#lobby-name"):
                field.focus()
        return self.player

    # --- what the host says ---------------------------------------------------------------

    async def _read(self) -> None:
        """Every line the host sends, until a seat or a watch is ours (or the end)."""
        while not self.done:
            try:
                message = await self.client.receive()
            except (HostClosedError, OSError) as exc:
                replaced = isinstance(exc, HostClosedError) and exc.reason == "replaced"
                if not replaced and await self._reconnect():
                    continue
                if not isinstance(exc, HostClosedError):
                    self._connection_over(
                        printable(
                            _("The connection to the host failed: {problem}").format(
                                problem=exc.strerror or exc
                            )
                        )
                    )
                    return
                self._connection_over(
                    _("The host closed the connection ({reason}).").format(reason=exc.reason)
                )
                return
            except ProtocolError as exc:
                self._connection_over(
                    printable(
                        _("The host sent what this client cannot read: {problem}").format(
                            problem=exc.message
                        )
                    )
                )
                return
            if isinstance(message, Seated | Watching):
                if isinstance(message, Seated) and message.token is not None:
                    self._keep_token(message.token)
                # The game screen reads on from the very next line.
                self._finish(message)
                return
            self._heard(message)

    def _over(self) -> bool:
        return self.done

    async def _reconnect(self) -> bool:
        """Connect again (a few tries, waiting longer each time); whether it worked.
        A seat held at a waiting table is gone with the old connection."""
        if self._connect is None or self.done:
            return False
        if self.waiting is not None:
            self.waiting = None
            self.refresh_bindings()
        for attempt in range(1, RECONNECT_TRIES + 1):
            self._say(
                _("Connection lost: joining again (try {n})…").format(n=attempt), problem=True
            )
            await asyncio.sleep(min(8.0, 0.5 * 2 ** (attempt - 1)))
            if self._over():  # left while it waited
                return False
            try:
                client = await self._connect()
            except Exception:  # JoinError, OSError: the next try
                continue
            old, self.client = self.client, client
            old.abort()
            self._say(_("Connected again"))
            self.action_refresh()
            return True
        return False

    def _token(self) -> str | None:
        """The token kept for the player's name, else the door's ticket."""
        if self.tokens is None or self.address is None or self.player is None:
            return self.ticket
        try:
            return self.tokens.get(self.address, self.player) or self.ticket
        except OSError:
            return self.ticket

    def _take_code(self) -> str | None:
        code, self.code = self.code, None
        return code

    def _keep_token(self, token: str) -> None:
        if self.tokens is None or self.address is None or self.player is None:
            return
        # A read-only data directory: the seat is still ours for this run.
        with contextlib.suppress(OSError):
            self.tokens.put(self.address, self.player, token)

    def _heard(self, message: object) -> None:
        match message:
            case Tables():
                if message.leaderboard != self.leaderboard:
                    self.leaderboard = message.leaderboard
                    self._show_you()
                # In the grid's order (your move first), so that the cursor's row is
                # the table it was on.
                tables = tuple(tables_in_order(message.tables, self.player))
                if tables != self.tables or not self._drawn:
                    on = self._current()  # the table the cursor is on, before the new list
                    self.tables = tables
                    self._draw_tables(None if on is None else on.table)
            case Games():
                for screen in self.app.screen_stack:
                    if isinstance(screen, FinishedGamesScreen):
                        screen.show(message.games)
            case RecordSent():
                self._replay(message)
            case Waiting():
                first = self.waiting is None or self.waiting.table != message.table
                self.waiting = message
                self.refresh_bindings()  # Esc leaves the table
                self._show_waiting()
                self._update_row(message.table, message.seats)
                if first:  # the cursor goes to the table you sit at
                    ids = [info.table for info in self.tables]
                    grid = self.query_one("#lobby-tables", DataTable)
                    grid.move_cursor(row=ids.index(message.table), animate=False)
            case FriendsInfo():
                self.friends.heard(message)
            case Left():
                self.waiting = None
                self.refresh_bindings()  # Esc leaves no table now
                self._say(_("You left the table."))
                self.action_refresh()
            case Refused() if message.code in _ACCOUNT_HINTS:
                reason = printable(refusal_reason(message.code, message.message)).rstrip(".")
                self._say(f"{reason}. {_(_ACCOUNT_HINTS[message.code])}", problem=True)
            case Refused():
                # In the player's language, from the code (the host's words are English).
                if message.code == "seat_taken":
                    why = _(
                        "that name's seat is already someone's: sit under another name, or "
                        "come back from the terminal or browser that took it"
                    )
                else:
                    why = refusal_reason(message.code, message.message, message.illegal)
                self._say(printable(why).rstrip(".") + ".", problem=True)
            case _:
                pass  # presence and updates belong to a table we no longer sit at

    def _connection_over(self, why: str) -> None:
        self.ended = why
        self.done = True
        self._say(_("{problem} Press q to quit.").format(problem=why), problem=True)

    def _finish(self, result: Seated | Watching | None) -> None:
        self._stop_reading()
        app = self.app
        while app.screen is not self and len(app.screen_stack) > 1:
            app.pop_screen()  # the new-table form, say: the game has begun
        self.dismiss(result)

    def _show_waiting(self) -> None:
        waiting = self.waiting
        if waiting is None:
            return
        free = sum(1 for s in waiting.seats if s.status == "free")
        said = ngettext(
            "You sit at table {table}, seat {seat}. Waiting for {n} more player: "
            "the game starts when every seat is taken. Esc leaves the table.",
            "You sit at table {table}, seat {seat}. Waiting for {n} more players: "
            "the game starts when every seat is taken. Esc leaves the table.",
            free,
        )
        self._say(
            words(said, table=Text(waiting.table, style="bold"), seat=waiting.seat + 1, n=free)
        )

    # --- the list ---------------------------------------------------------------------------

    def _update_row(self, table_id: str, seats: tuple[SeatInfo, ...]) -> None:
        tables = list(self.tables)
        for i, info in enumerate(tables):
            if info.table == table_id:
                free = sum(1 for s in seats if s.status == "free")
                tables[i] = TableInfo(table_id, seats, 0, 0, False, True, free)
                break
        else:
            free = sum(1 for s in seats if s.status == "free")
            tables.append(TableInfo(table_id, seats, 0, 0, False, True, free))
        self.tables = tuple(tables)
        self._draw_tables()

    def _draw_tables(self, keep: str | None = None) -> None:
        """The grid of :attr:`tables`; the cursor stays on table ``keep`` (else on the
        table it is on, while the rows are still those of :attr:`tables`)."""
        grid = self.query_one("#lobby-tables", DataTable)
        if keep is None:
            current = self._current()
            keep = None if current is None else current.table
        grid.clear()
        self._drawn = True
        self.tables = tuple(tables_in_order(self.tables, self.player))  # your move first
        for info in self.tables:
            game = table_game_text(info)
            mark = table_turn_text(info, self.player)
            grid.add_row(
                Text(info.table),
                table_players_text(info, self.player),
                game if mark is None else Text("\n").join((game, mark)),
                key=info.table,
                height=None,  # as many lines as the players take: no name is cut
            )
        ids = [info.table for info in self.tables]
        if keep in ids:
            grid.move_cursor(row=ids.index(keep), animate=False)
        if not self.tables and self.ended is None and not self._problem_shown:
            self._say(_("No table is open on this host yet: n opens one."))
        told = waiting_line(self.tables, self.player)
        if told is not None and self.waiting is None and not self._problem_shown:
            self._say(told)

    def _current(self) -> TableInfo | None:
        grid = self.query_one("#lobby-tables", DataTable)
        if not self.tables or grid.row_count == 0:
            return None
        row = grid.cursor_row
        if 0 <= row < len(self.tables):
            return self.tables[row]
        return None

    # --- keys ---------------------------------------------------------------------------------

    def _can_send(self) -> bool:
        if self.ended is not None:
            self._say(_("{problem} Press q to quit.").format(problem=self.ended), problem=True)
            return False
        return not self.done

    def _rating_of(self, name: str) -> float | None:
        """``name``'s rating as the host last told it (the leaderboard, else a seat of a
        listed table), in points; ``None`` when the host rates nobody of that name."""
        folded = name.casefold()
        for leader in self.leaderboard:
            if leader.name.casefold() == folded:
                return leader.rating / 10
        for info in self.tables:
            for seat in info.seats:
                if seat.rating is not None and seat.name.casefold() == folded:
                    return seat.rating / 10
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave":
            return self.waiting is not None  # shown in the footer only while waiting
        if action == "play_now":
            return self.waiting is None  # Esc takes its place in the footer meanwhile
        return True

    def action_refresh(self) -> None:
        if self.ended is None and not self.done:
            self.client.send(ListTables())

    def _focus_changed(self, focused: bool) -> None:
        """The table list every :attr:`poll_every` seconds; every :attr:`poll_away`
        while the terminal or browser tab says it lost the focus (Textual's focus
        reporting: a lobby left in another window costs next to nothing, the app
        wakes that seldom too); at once when it comes back."""
        now, then = (self._polls, self._polls_away) if focused else (self._polls_away, self._polls)
        then.pause()
        if focused:  # back from another window: the list as it is now
            self.action_refresh()
        now.reset()
        now.resume()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_sit()

    def action_sit(self) -> None:
        info = self._current()
        if info is None or not self._can_send():
            return
        waiting = self.waiting
        if info.waiting:
            if waiting is not None and waiting.table == info.table:
                self._show_waiting()
                return
            name = self._need_name()
            if name is None:
                return
            if not info.free_seats:
                self._say(
                    _("Table {table} has no free seat left.").format(table=info.table),
                    problem=True,
                )
                return
            self._say(_("Taking a seat at table {table}…").format(table=info.table))
            self.client.send(Join(name, self._token(), info.table, self._take_code()))
            return
        if _holds_seat(info, self.player) and not info.finished and self.player is not None:
            self._say(_("Sitting at table {table}…").format(table=info.table))
            self.client.send(Join(self.player, self._token(), info.table, self._take_code()))
            return
        self.action_watch()

    def action_watch(self) -> None:
        info = self._current()
        if info is None or not self._can_send():
            return
        if info.waiting:
            self._say(
                _(
                    "Table {table} has not started: nothing to watch yet. "
                    "Enter takes one of its free seats."
                ).format(table=info.table),
                problem=True,
            )
            return
        self._say(_("Watching table {table}…").format(table=info.table))
        # A named watcher watches as that account (chat filtered by its mutes), when
        # a token or the door's ticket proves it and the host speaks protocol 4.
        token = self._token()
        welcome = self.client.welcome
        named = (
            self.player is not None
            and token is not None
            and welcome is not None
            and welcome.protocol >= 4
        )
        self.client.send(Watch(info.table, self.player, token) if named else Watch(info.table))

    def _opener(self) -> str | None:
        """The name to open a table (or find one) under, or ``None`` (said why)."""
        if not self._can_send():
            return None
        name = self._need_name()
        if name is None:
            return None
        welcome = self.client.welcome
        if welcome is not None and welcome.protocol < 2:
            self._say(_("This host cannot open a table for a client (it speaks protocol 1)."))
            return None
        return name

    def action_new_table(self) -> None:
        name = self._opener()
        if name is None:
            return

        def opened(request: OpenTable | None) -> None:
            if request is None or not self._can_send():
                return
            self._say(_("Opening a table…"))
            self.client.send(structs.replace(request, token=self._token(), code=self._take_code()))

        self.app.push_screen(NewTableScreen(name), opened)

    def action_play_now(self) -> None:
        """Quick match: a seat at the fullest waiting table of the size asked, or a new one."""
        from .quick_match import QuickMatchScreen, quick_request

        name = self._opener()
        if name is None:
            return

        def chosen(size: int | None) -> None:
            if size is None or not self._can_send():
                return
            request = quick_request(self.tables, size, name, self.rating, self._token())
            self._say(_("Finding a table…"))
            self.client.send(structs.replace(request, code=self._take_code()))

        self.app.push_screen(QuickMatchScreen(), chosen)

    def action_account(self) -> None:
        """This player's account on the host (:class:`AccountScreen`)."""
        from ..remote import parse_address
        from .account import AccountScreen

        if self.address is None:
            return
        try:
            host, port = parse_address(self.address)
        except ValueError:
            return

        def typed(code: str | None) -> None:
            if code:
                self.code = code
                self._say(_("The code goes with your next seat or table."))

        self.app.push_screen(AccountScreen(host, port, self.player, self._token()), typed)

    def action_games(self) -> None:
        """The host's finished games (:class:`FinishedGamesScreen`), yours first."""
        welcome = self.client.welcome
        if welcome is None or welcome.protocol < GAMES_VERSION:
            self._say(_("This host cannot list its finished games (an older version)."))
            return
        if not self._can_send():
            return

        def open_game(table: str) -> None:
            if self._can_send():
                self.client.send(GetRecord(table))

        self.app.push_screen(FinishedGamesScreen(self.player, open_game))
        self.client.send(ListGames())

    def _replay(self, sent: RecordSent) -> None:
        """A finished game's record from the host: in the replay viewer."""
        try:
            record = parse_record(sent.record)
        except RecordError as exc:
            self._say(
                _("The host sent a game that cannot be read: {problem}").format(
                    problem=printable(str(exc))
                ),
                problem=True,
            )
            return
        self.app.push_screen(HostReplayScreen(record, sent.table))

    def action_leaderboard(self) -> None:
        """The host's leaderboard (:class:`LeaderboardScreen`)."""
        self.app.push_screen(LeaderboardScreen(self.leaderboard, self.player))

    def action_friends(self) -> None:
        self.friends.open()

    def action_leave(self) -> None:
        if self.waiting is not None and self._can_send():
            self.client.send(Leave())

    def action_quit(self) -> None:
        self._finish(None)
