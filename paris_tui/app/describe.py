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
from ..core.analysis import LeftoverPreview
from ..core.text import printable
from .fit import Fit
from .palette import LINE_COLOURS, player_style

__all__ = [
    "describe_event",
    "describe_events",
    "line_label",
    "plain",
    "preview_text",
    "printable",
    "score_detail",
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
    """One log line for an event (``None`` for events the log leaves out).

    :func:`describe_events` is the log's own: it also says when a tour
    scores nothing and shortens score lines under their tour's heading.
    """
    lines = describe_events(board, names, [event])
    return lines[0] if lines else None


def _businesses(n: int) -> str:
    return "1 business" if n == 1 else f"{n} businesses"


def score_detail(board: Board, event: ScoreEvent) -> str:
    """Why ``event`` scores, in words, as a line under its tour's heading.

    The core gives numbers and ids (R5-R7); the words are made here:
    ``1 business at Louvre, 2 stops away`` (a small tour), ``2 businesses at
    Pompidou + 2 next to it`` (a grand or special tour), ``the most
    businesses in the sack (3)``.
    """
    if event.kind == "sack":
        return f"the most businesses in the sack ({event.here})"
    where = stop_name(board, event.stop) if event.stop is not None else "?"
    text = f"{_businesses(event.here)} at {where}"
    if event.kind == "small_tour":
        if event.distance:
            away = "1 stop" if event.distance == 1 else f"{event.distance} stops"
            text += f", {away} away"
    elif event.near:
        text += f" + {event.near} next to it"
    return text


def describe_events(board: Board, names: tuple[str, ...], events: list[Event]) -> list[Text]:
    """The log's lines for ``events``, in order.

    A tour followed by no points says so ("Small tour from Opéra: nobody
    scores"); each score line under a tour is ``  ● Ann +3: 1 business at
    Opéra + 2 next to it`` (the tour's name is on its heading).
    """

    def who(seat: int) -> Text:
        return seat_label(names, seat)

    lines: list[Text] = []
    for i, event in enumerate(events):
        if isinstance(event, RoundStarted):
            lines.append(
                Text.assemble(
                    (f"— Round {event.round + 1}: ", "bold"), who(event.starter), " holds the bus"
                )
            )
        elif isinstance(event, BusinessOpened):
            lines.append(
                Text.assemble(
                    who(event.seat), " took ", tile_text(board, event.tile), ": opened a business"
                )
            )
        elif isinstance(event, NothingOpened):
            lines.append(
                Text.assemble(
                    who(event.seat),
                    " took ",
                    tile_text(board, event.tile),
                    ": supply empty, nothing opened (C1)",
                )
            )
        elif isinstance(event, BusinessRemoved):
            owner = "their own" if event.owner == event.by else f"{printable(names[event.owner])}'s"
            lines.append(
                Text.assemble(
                    who(event.by),
                    f" removed {owner} business at {stop_name(board, event.stop)} → {event.to}",
                )
            )
        elif isinstance(event, TourEvent):
            nxt = events[i + 1] if i + 1 < len(events) else None
            scored = isinstance(nxt, ScoreEvent) and nxt.kind == event.kind
            if event.kind == "small_tour":
                assert event.stop is not None
                line = Text(f"Small tour from {stop_name(board, event.stop)}", style="bold")
            else:
                assert event.line is not None
                label = "Grand tour" if event.kind == "grand_tour" else "Special tour"
                whose = ""
                if event.kind == "special_tour" and event.seat is not None:
                    whose = f" ({printable(names[event.seat])}'s route)"
                elif event.kind == "special_tour" and len(names) == 2:
                    whose = " (public route)"
                line = Text.assemble((f"{label}: ", "bold"), line_label(board, event.line), whose)
            if not scored:
                line.append(": ")
                line.append("nobody scores", style="dim")
            lines.append(line)
        elif isinstance(event, ScoreEvent):
            if event.kind == "sack":
                lines.append(
                    Text.assemble(
                        ("Sack: ", "bold"),
                        who(event.seat),
                        (f" +{event.points}", "bold"),
                        f": {score_detail(board, event)}",
                    )
                )
                continue
            lines.append(
                Text.assemble(
                    "  ",
                    who(event.seat),
                    (f" +{event.points}", "bold"),
                    f": {score_detail(board, event)}",
                )
            )
        elif isinstance(event, TileDiscarded):
            if event.grand_tour:
                lines.append(
                    Text.assemble(
                        "Left over ", tile_text(board, event.tile), ": a pair in the discard area!"
                    )
                )
            else:
                lines.append(
                    Text.assemble("Left over ", tile_text(board, event.tile), " → discard area")
                )
        elif isinstance(event, GameOver):
            winners = " and ".join(printable(names[w]) for w in event.winners)
            verb = "wins" if len(event.winners) == 1 else "win"
            lines.append(Text(f"Game over — {winners} {verb}", "bold"))
    return lines


def _points(names: tuple[str, ...], values: tuple[int, ...], width: int | None) -> Text:
    """``● Ann +2, ▲ Bob +5`` (names cut to ``width`` cells; ``0``: symbols only, ``●+2 ▲+5``)."""
    text = Text()
    scored = [(seat, pts) for seat, pts in enumerate(values) if pts]
    if not scored:
        return Text("nobody scores", style="dim")
    for j, (seat, pts) in enumerate(scored):
        style = player_style(seat)
        if width == 0:
            if j:
                text.append(" ")
            text.append(style.symbol, style=f"bold {style.colour}")
        else:
            if j:
                text.append(", ")
            text.append_text(seat_label(names, seat, width=width))
            text.append(" ")
        text.append(f"+{pts}", style="bold")
    return text


def preview_text(board: Board, names: tuple[str, ...], preview: LeftoverPreview) -> Fit:
    """The left-over preview in one line, as full as the width allows; every number kept.

    ``If left over: small tour: ● Ann +1, ▲ Bob +2 · grand tour [B] Blue
    line: ● Ann +3``; where the bar has two lines, the grand tour may go on
    the second; then with names cut shorter and shorter, then with symbols
    only (``Left over: small ●+1 ▲+2 · grand [B] ●+3``).
    """
    line = None
    if preview.grand_tour_line is not None:
        line = next((ln for ln in board.lines if ln.name == preview.grand_tour_line), None)

    def variant(width: int | None, terse: bool = False, two_lines: bool = False) -> Text:
        text = Text("Left over: " if terse else "If left over: ", style="bold")
        text.append("small " if terse else "small tour: ")
        text.append_text(_points(names, preview.small_tour, width))
        if preview.grand_tour_line is not None:
            if two_lines:
                text.append("\n" + " " * cell_len("If left over: ") + "grand tour ")
            else:
                text.append(" · grand " if terse else " · grand tour ")
            if line is None:
                text.append(f"({preview.grand_tour_line})")
            elif terse or (width is not None and not two_lines):
                text.append(f"[{line.letter}]", style=f"bold {LINE_COLOURS.get(line.id, '')}")
            else:
                text.append_text(line_label(board, line.id))
            text.append(" " if terse or width == 0 else ": ")
            text.append_text(_points(names, preview.grand_tour, width))
        return text

    variants: list[Text] = []
    for width in (None, 12, 10, 8, 6, 5, 4, 0):
        variants.append(variant(width))
        if preview.grand_tour_line is not None:
            variants.append(variant(width, two_lines=True))
        variants.append(variant(width, terse=True))
    return Fit(variants)
