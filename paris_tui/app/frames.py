"""Tour animations as a list of frames built from the core's events.

A frame is what the map shows for a moment: the small tour's origin and the
stops that score, or the bus at one crossing of a grand/special tour with the
points scored so far. Pure data built from :mod:`paris_tui.core.events`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rich.text import Text

from ..core import Board, Event, ScoreEvent, TourEvent
from .describe import line_label, printable, seat_label, stop_name
from .fit import Fit
from .palette import LINE_COLOURS, player_style

__all__ = ["Frame", "build_frames"]


@dataclass(frozen=True, slots=True)
class Frame:
    caption: Fit  # fits the bar under the map: shorter wordings, never a cut number
    weight: float = 1.0
    small_tour_origin: str | None = None
    tour_line: str | None = None
    bus_at: str | None = None
    scoring: tuple[tuple[str, str], ...] = ()


NAME_WIDTHS: tuple[int | None, ...] = (None, 12, 10, 8, 6, 4, 0)  # 0: symbols only


def _points_text(names: tuple[str, ...], points: dict[int, int], width: int | None = None) -> Text:
    """``● Ann +3, ▲ Bob +1`` (names cut to ``width`` cells; ``0``: ``●+3 ▲+1``)."""
    text = Text()
    scored = [(s, p) for s, p in sorted(points.items()) if p]
    if not scored:
        return Text("nobody scores", style="dim")
    for i, (seat, pts) in enumerate(scored):
        if width == 0:
            style = player_style(seat)
            if i:
                text.append(" ")
            text.append(style.symbol, style=f"bold {style.colour}")
        else:
            if i:
                text.append(", ")
            text.append_text(seat_label(names, seat, width=width))
            text.append(" ")
        text.append(f"+{pts}", style="bold")
    return text


def _caption(heads: list[Text], names: tuple[str, ...], points: dict[int, int]) -> Fit:
    """``head: points`` in one line, or two (where the bar has two), from the fullest head
    and whole names to the tersest head and symbols only."""
    variants: list[Text] = []
    for width in NAME_WIDTHS:
        pts = _points_text(names, points, width)
        for head in heads:
            variants.append(Text.assemble(head, ": ", pts))
            variants.append(Text.assemble(head, ":\n  ", pts))
    return Fit(variants)


def build_frames(board: Board, names: tuple[str, ...], events: list[Event]) -> list[Frame]:
    """The frames that show the tours among ``events`` (none when there is no tour)."""
    frames: list[Frame] = []
    i = 0
    while i < len(events):
        event = events[i]
        i += 1
        if isinstance(event, ScoreEvent) and event.kind == "sack":
            caption = _caption([Text("Sack")], names, {event.seat: event.points})
            frames.append(Frame(caption, 2.0))
            continue
        if not isinstance(event, TourEvent):
            continue
        scores: list[ScoreEvent] = []
        while i < len(events):
            nxt = events[i]
            if not isinstance(nxt, ScoreEvent) or nxt.kind != event.kind:
                break
            scores.append(nxt)
            i += 1
        by_stop: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for score in scores:
            if score.stop is not None:
                by_stop[score.stop][score.seat] += score.points
        if event.kind == "small_tour":
            assert event.stop is not None
            labels = tuple((stop, f"+{sum(pts.values())}") for stop, pts in by_stop.items())
            totals: dict[int, int] = defaultdict(int)
            for score in scores:
                totals[score.seat] += score.points
            head = Text(f"Small tour from {stop_name(board, event.stop)}")
            caption = _caption([head], names, totals)
            frames.append(Frame(caption, 2.0, small_tour_origin=event.stop, scoring=labels))
            continue
        assert event.line is not None
        title = "Grand tour" if event.kind == "grand_tour" else "Special tour"
        line = board.lines[board.line_index[event.line]]
        letter = Text(f"[{line.letter}]", style=f"bold {LINE_COLOURS.get(event.line, '')}")
        whose = ""
        if event.kind == "special_tour" and event.seat is not None:
            whose = f" ({printable(names[event.seat])}'s route)"
        shown: list[tuple[str, str]] = []
        totals = defaultdict(int)

        full = Text.assemble(f"{title} ", line_label(board, event.line), f"{whose} — ")
        terse = Text.assemble(f"{title} ", letter, " ")

        for stop in event.stops:
            here = by_stop.get(stop, {})
            if here:
                shown.append((stop, f"+{sum(here.values())}"))
            for seat, pts in here.items():
                totals[seat] += pts
            where = f"at {stop_name(board, stop)}"
            caption = _caption([full + where, terse + where], names, dict(here))
            frames.append(
                Frame(caption, 1.0, tour_line=event.line, bus_at=stop, scoring=tuple(shown))
            )
        caption = _caption([full + "in all", terse + "in all"], names, dict(totals))
        frames.append(Frame(caption, 1.5, tour_line=event.line, scoring=tuple(shown)))
    return frames
