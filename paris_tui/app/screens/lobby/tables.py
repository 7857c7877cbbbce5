"""The lobby's list of tables: how a table is drawn (its seats, how far its game is,
whether it waits for your move) and the grid that lists them, a row per table.

Everything the host sends (names) is outside text: drawn as :class:`rich.text.Text`
after :func:`~paris_tui.core.printable`, never as markup."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from paris_tui.app.look.describe import shown_name, words
from paris_tui.app.online.turns_view import table_turn_text
from paris_tui.app.screens.leaderboard import rated_text
from paris_tui.core import printable
from paris_tui.i18n import N_, _, ngettext
from paris_tui.net.protocol import SeatInfo, TableInfo
from paris_tui.net.turns import tables_in_order

__all__ = [
    "TablesGrid",
    "holds_seat",
    "table_game_text",
    "table_players_text",
    "table_turn_line",
]


def _seat_text(seat: SeatInfo, me: str | None, finished: bool = False) -> Text:
    if seat.status == "free" and seat.name:  # kept for an invited name
        kept = words(_("seat for {name}"), name=Text(printable(seat.name), style="bold"))
        kept.stylize("italic green")
        return kept
    if seat.status == "free":
        return Text(_("free seat"), style="italic green")
    name = shown_name(seat.name) if seat.kind.startswith("ai:") else printable(seat.name)
    text = Text(name, style="bold" if seat.status == "present" else "")
    if me is not None and seat.kind == "human" and seat.name.casefold() == me.casefold():
        text.stylize("underline")
    if seat.rating is not None:  # the account's rating (leaderboard.py)
        text.append(" " + rated_text(seat.rating, seat.provisional), style="cyan")
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
    if info.finished and info.aborted:
        return Text(_("aborted"), style="dim")
    if info.finished:
        return Text(_("finished"), style="dim")
    return Text(_("move {k} of {total}").format(k=info.move_count, total=info.total_moves))


def table_turn_line(info: TableInfo, me: str | None) -> Text | None:
    """Whose turn it is at a running table (a host that says ``to_move``), else None;
    a timed table waiting for your move says so in its own mark (turns_view.py)."""
    seat = info.to_move
    if info.finished or info.waiting or seat is None or not 0 <= seat < len(info.seats):
        return None
    player = info.seats[seat]
    mine = me is not None and player.kind == "human" and player.name.casefold() == me.casefold()
    if mine:
        return None if info.move_time is not None else Text(_("your turn"), style="bold")
    name = shown_name(player.name) if player.kind.startswith("ai:") else printable(player.name)
    return words(_("{player} to move"), player=name)


def holds_seat(info: TableInfo, name: str | None) -> bool:
    """Whether a (non-free, human) seat of the table is called ``name``."""
    if name is None:
        return False
    key = name.casefold()
    return any(
        s.status != "free" and s.kind == "human" and s.name.casefold() == key for s in info.seats
    )


def _column_heads() -> dict[str, str]:
    """Each column's key and its head, in the current language."""
    return {"table": _("Table"), "players": _("Players"), "game": _("Game")}


_COLUMN_WIDTHS = {"table": 5, "players": 44, "game": 21}


class TablesGrid(DataTable[Text]):
    """The list of tables: one row per table; Enter sits or watches (said in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", N_("Sit or watch")),
    ]

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.tables: tuple[TableInfo, ...] = ()  # as drawn: in the grid's order
        self.drawn = False  # the list was drawn once (an empty list is drawn too)
        for key, head in _column_heads().items():
            self.add_column(Text(head), width=_COLUMN_WIDTHS[key], key=key)

    def name_columns(self) -> None:
        """The columns' heads in the current language."""
        heads = _column_heads()
        for key, column in self.columns.items():
            if key.value in heads:
                column.label = Text(heads[key.value])

    def show(
        self, tables: Sequence[TableInfo], player: str | None, keep: str | None = None
    ) -> None:
        """A row for each of ``tables``, in the grid's order (the tables waiting for
        ``player``'s move first: :func:`~paris_tui.net.turns.tables_in_order`); the
        cursor stays on table ``keep`` (else on the table it is on). ``player``'s
        seats are underlined, and a table waiting for their move says so."""
        if keep is None:
            current = self.current()
            keep = None if current is None else current.table
        self.clear()
        self.drawn = True
        self.tables = tuple(tables_in_order(tables, player))
        for info in self.tables:
            lines = [table_game_text(info), table_turn_line(info, player)]
            lines.append(table_turn_text(info, player))
            self.add_row(
                Text(info.table),
                table_players_text(info, player),
                Text("\n").join(line for line in lines if line is not None),
                key=info.table,
                height=None,  # as many lines as the players take: no name is cut
            )
        ids = [info.table for info in self.tables]
        if keep in ids:
            self.move_cursor(row=ids.index(keep), animate=False)

    def current(self) -> TableInfo | None:
        """The table the cursor is on."""
        if not self.tables or self.row_count == 0:
            return None
        row = self.cursor_row
        if 0 <= row < len(self.tables):
            return self.tables[row]
        return None

    def with_seats(self, table_id: str, seats: tuple[SeatInfo, ...]) -> list[TableInfo]:
        """The tables listed, table ``table_id`` (waiting for players) with ``seats``
        (in its place, or last when it was not listed)."""
        tables = list(self.tables)
        free = sum(1 for s in seats if s.status == "free")
        waiting = TableInfo(table_id, seats, 0, 0, False, True, free)
        for i, info in enumerate(tables):
            if info.table == table_id:
                tables[i] = waiting
                break
        else:
            tables.append(waiting)
        return tables
