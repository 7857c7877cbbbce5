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

__all__ = ["Frame", "build_frames"]


@dataclass(frozen=True, slots=True)
class Frame:
    caption: Text
    weight: float = 1.0
    small_tour_origin: str | None = None
    tour_line: str | None = None
    bus_at: str | None = None
    scoring: tuple[tuple[str, str], ...] = ()


def _points_text(names: tuple[str, ...], points: dict[int, int]) -> Text:
    text = Text()
    scored = [(s, p) for s, p in sorted(points.items()) if p]
    if not scored:
        return Text("nobody scores", style="dim")
    for i, (seat, pts) in enumerate(scored):
        if i:
            text.append(", ")
        text.append_text(seat_label(names, seat))
        text.append(f" +{pts}", style="bold")
    return text


def build_frames(board: Board, names: tuple[str, ...], events: list[Event]) -> list[Frame]:
    """The frames that show the tours among ``events`` (none when there is no tour)."""
    frames: list[Frame] = []
    i = 0
    while i < len(events):
        event = events[i]
        i += 1
        if isinstance(event, ScoreEvent) and event.kind == "sack":
            caption = Text("Sack: ")
            caption.append_text(_points_text(names, {event.seat: event.points}))
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
            caption = Text(f"Small tour from {stop_name(board, event.stop)}: ")
            caption.append_text(_points_text(names, totals))
            frames.append(Frame(caption, 2.0, small_tour_origin=event.stop, scoring=labels))
            continue
        assert event.line is not None
        title = "Grand tour" if event.kind == "grand_tour" else "Special tour"
        head = Text(f"{title} ")
        head.append_text(line_label(board, event.line))
        if event.kind == "special_tour" and event.seat is not None:
            head.append(f" ({printable(names[event.seat])}'s route)")
        shown: list[tuple[str, str]] = []
        totals = defaultdict(int)
        for stop in event.stops:
            here = by_stop.get(stop, {})
            if here:
                shown.append((stop, f"+{sum(here.values())}"))
            for seat, pts in here.items():
                totals[seat] += pts
            caption = head.copy()
            caption.append(f" — at {stop_name(board, stop)}: ")
            caption.append_text(_points_text(names, dict(here)))
            frames.append(
                Frame(caption, 1.0, tour_line=event.line, bus_at=stop, scoring=tuple(shown))
            )
        caption = head.copy()
        caption.append(" — in all: ")
        caption.append_text(_points_text(names, dict(totals)))
        frames.append(Frame(caption, 1.5, tour_line=event.line, scoring=tuple(shown)))
    return frames
