"""Tour animations as a list of frames built from the core's events.

A frame is what the map shows for a moment: the small tour's origin and the
stops that score, or the bus at one crossing of a grand/special tour with the
points scored so far. Pure data built from :mod:`paris_tui.core.events`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rich.text import Text

from paris_tui.app.look.describe import line_label, plain, seat_label, shown_name, stop_name, words
from paris_tui.app.look.palette import LINE_COLOURS, player_style
from paris_tui.app.terminal.fit import Fit
from paris_tui.core import Board, Event, ScoreEvent, TourEvent
from paris_tui.i18n import _

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
        return Text(_("nobody scores"), style="dim")
    for i, (seat, pts) in enumerate(scored):
        if width == 0:
            style = player_style(seat)
            if i:
                text.append(" ")
            text.append(style.symbol, style=f"bold {style.colour}")
        else:
            if i:
                text.append(_(", "))  # the language's list mark (Chinese: 、)
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
            variants.append(words(_("{head}: {points}"), head=head, points=pts))
            variants.append(words(_("{head}:\n  {points}"), head=head, points=pts))
    return Fit(variants)


def build_frames(board: Board, names: tuple[str, ...], events: list[Event]) -> list[Frame]:
    """The frames that show the tours among ``events`` (none when there is no tour)."""
    frames: list[Frame] = []
    i = 0
    while i < len(events):
        event = events[i]
        i += 1
        if isinstance(event, ScoreEvent) and event.kind == "sack":
            caption = _caption([Text(_("Sack"))], names, {event.seat: event.points})
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
            head = words(_("Small tour from {stop}"), stop=Text(stop_name(board, event.stop)))
            caption = _caption([head], names, totals)
            frames.append(Frame(caption, 2.0, small_tour_origin=event.stop, scoring=labels))
            continue
        assert event.line is not None
        line = board.lines[board.line_index[event.line]]
        letter = Text(f"[{line.letter}]", style=f"bold {LINE_COLOURS.get(event.line, '')}")
        label = line_label(board, event.line)
        if event.kind == "grand_tour":
            full = words(_("Grand tour {line} — "), line=label)
            terse = words(_("Grand tour {line} "), line=letter)
        elif event.seat is not None:
            owner = plain(shown_name(names[event.seat]))
            full = words(_("Special tour {line} ({player}'s route) — "), line=label, player=owner)
            terse = words(_("Special tour {line} "), line=letter)
        else:
            full = words(_("Special tour {line} — "), line=label)
            terse = words(_("Special tour {line} "), line=letter)
        shown: list[tuple[str, str]] = []
        totals = defaultdict(int)

        for stop in event.stops:
            here = by_stop.get(stop, {})
            if here:
                shown.append((stop, f"+{sum(here.values())}"))
            for seat, pts in here.items():
                totals[seat] += pts
            # Translators: the bus stands at this stop: "Grand tour [B] Blue line — at Opéra".
            where = words(_("at {stop}"), stop=Text(stop_name(board, stop)))
            caption = _caption([full + where, terse + where], names, dict(here))
            frames.append(
                Frame(caption, 1.0, tour_line=event.line, bus_at=stop, scoring=tuple(shown))
            )
        # Translators: the tour's points added up: "Grand tour [B] Blue line — in all: ...".
        in_all = _("in all")
        caption = _caption([full + in_all, terse + in_all], names, dict(totals))
        frames.append(Frame(caption, 1.5, tour_line=event.line, scoring=tuple(shown)))
    # The bus tours' captions shortened alike, stop after stop and tour after tour: never
    # "Special tour [G] at Quartier Latin" beside "Special tour [B] Blue line (Bob's route)
    # — at République". Each has a full and a terse head: the same variants.
    Fit.together(f.caption for f in frames if f.tour_line is not None)
    return frames
