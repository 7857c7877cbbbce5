"""Words and symbols for what the core reports: tiles, seats, events.

Never colour alone: every seat has a symbol, every line a letter, so the
text reads the same with ``NO_COLOR=1``.

Outside text (players' names, file names, messages that quote them) is data,
never markup and never a terminal control. It reaches the screen through
:func:`plain` (or :func:`seat_label`): a Rich :class:`~rich.text.Text`, which
no widget parses as markup, with every unprintable character escaped by the
core's :func:`~paris_tui.core.text.printable`. A toast gets
``printable(message)`` and ``markup=False``. Only the program's own literals
are ever markup.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from ..core import (
    Board,
    BusinessOpened,
    BusinessRemoved,
    Event,
    GameOver,
    NothingOpened,
    RoundStarted,
    ScoreEvent,
    TileDiscarded,
    TourEvent,
)
from ..core.text import printable
from .palette import LINE_COLOURS, player_style

__all__ = [
    "describe_event",
    "line_label",
    "plain",
    "printable",
    "seat_label",
    "short_name",
    "stop_name",
    "tile_label",
    "tile_text",
]


def plain(text: str, style: str = "") -> Text:
    """Outside text drawn exactly as it is: never markup, unprintable characters escaped."""
    return Text(printable(text), style=style)


def short_name(name: str, width: int = 8) -> str:
    """``name`` cut to ``width`` terminal cells (wide characters count two), ``…`` if cut."""
    name = printable(name)
    if cell_len(name) <= width:
        return name
    out, used = [], 0
    for ch in name:
        cells = cell_len(ch)
        if used + cells > width - 1:
            break
        out.append(ch)
        used += cells
    return "".join(out) + "…"


def seat_label(names: tuple[str, ...], seat: int, *, width: int | None = None) -> Text:
    """``● Ann`` in the seat's colour (the symbol tells seats apart without colour)."""
    style = player_style(seat)
    name = printable(names[seat]) if width is None else short_name(names[seat], width)
    return Text(f"{style.symbol} {name}", style=f"bold {style.colour}")


def stop_name(board: Board, stop: str) -> str:
    return board.stops[board.stop_index[stop]].name


def line_label(board: Board, line: str) -> Text:
    """``[B] Blue line`` in the line's colour."""
    ln = board.lines[board.line_index[line]]
    return Text(f"[{ln.letter}] {ln.name}", style=LINE_COLOURS.get(line, ""))


def tile_label(board: Board, tile: str) -> str:
    """``Opéra (B)``: the stop and the line letter, plain text."""
    stop, line = tile.split("/")
    letter = board.lines[board.line_index[line]].letter
    return f"{stop_name(board, stop)} ({letter})"


def tile_text(board: Board, tile: str) -> Text:
    """A tile as ``[B] Opéra`` with the line letter in the line's colour."""
    stop, line = tile.split("/")
    letter = board.lines[board.line_index[line]].letter
    text = Text()
    text.append(f"[{letter}]", style=f"bold {LINE_COLOURS.get(line, '')}")
    text.append(f" {stop_name(board, stop)}")
    return text


def describe_event(board: Board, names: tuple[str, ...], event: Event) -> Text | None:
    """One log line for an event (``None`` for events the log leaves out)."""

    def who(seat: int) -> Text:
        return seat_label(names, seat)

    if isinstance(event, RoundStarted):
        return Text.assemble(
            (f"— Round {event.round + 1}: ", "bold"), who(event.starter), " holds the bus"
        )
    if isinstance(event, BusinessOpened):
        return Text.assemble(
            who(event.seat), " took ", tile_text(board, event.tile), ": opened a business"
        )
    if isinstance(event, NothingOpened):
        return Text.assemble(
            who(event.seat),
            " took ",
            tile_text(board, event.tile),
            ": supply empty, nothing opened (C1)",
        )
    if isinstance(event, BusinessRemoved):
        owner = "their own" if event.owner == event.by else f"{printable(names[event.owner])}'s"
        return Text.assemble(
            who(event.by),
            f" removed {owner} business at {stop_name(board, event.stop)} → {event.to}",
        )
    if isinstance(event, TourEvent):
        if event.kind == "small_tour":
            assert event.stop is not None
            return Text(f"Small tour from {stop_name(board, event.stop)}", style="bold")
        assert event.line is not None
        label = "Grand tour" if event.kind == "grand_tour" else "Special tour"
        whose = ""
        if event.kind == "special_tour":
            whose = (
                " (public route)"
                if event.seat is None
                else f" ({printable(names[event.seat])}'s route)"
            )
            if event.seat is None and len(names) > 2:
                whose = ""
        return Text.assemble((f"{label}: ", "bold"), line_label(board, event.line), whose)
    if isinstance(event, ScoreEvent):
        return Text.assemble(
            "  ", who(event.seat), (f" +{event.points}", "bold"), f" {event.reason}"
        )
    if isinstance(event, TileDiscarded):
        if event.grand_tour:
            return Text.assemble(
                "Left over ", tile_text(board, event.tile), ": a pair in the discard area!"
            )
        return Text.assemble("Left over ", tile_text(board, event.tile), " → discard area")
    assert isinstance(event, GameOver)
    winners = " and ".join(printable(names[w]) for w in event.winners)
    return Text(f"Game over — {winners} {'wins' if len(event.winners) == 1 else 'win'}", "bold")
