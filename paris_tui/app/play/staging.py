"""A move's events in the order they are shown: the log and the scores follow the tours'
animation, and the game end's result comes last.

:class:`Staging` cuts a move's events into chunks (:func:`reveal_chunks`), gives the tours'
frames, and says, frame by frame, which log lines and points are shown by then. It draws
nothing: the screen writes the lines it returns and shows :attr:`Staging.shown_scores`.
"""

from __future__ import annotations

from rich.text import Text

from paris_tui.app.look.describe import describe_events
from paris_tui.app.look.frames import Frame, build_frames
from paris_tui.core import Event, GameOver, ScoreEvent, SeatView, TourEvent

__all__ = ["Staging", "reveal_chunks"]


def reveal_chunks(events: list[Event]) -> list[list[Event]]:
    """A move's events cut where the log may pause: before each tour, the sack, the end.

    A tour's chunk holds its points; what follows a tour (the left-over tile,
    the next round) starts a chunk of its own, shown once that tour is.
    """
    chunks: list[list[Event]] = [[]]
    after_tour = False
    for event in events:
        starts = isinstance(event, TourEvent | GameOver) or (
            isinstance(event, ScoreEvent) and event.kind == "sack"
        )
        if starts or (after_tour and not isinstance(event, ScoreEvent)):
            chunks.append([])
            after_tour = starts and not isinstance(event, GameOver)
        chunks[-1].append(event)
    return [chunk for chunk in chunks if chunk]


def _is_tour(chunk: list[Event]) -> bool:
    """A tour's chunk: its heading, then only its score events (one log line each)."""
    return (
        bool(chunk)
        and isinstance(chunk[0], TourEvent)
        and all(isinstance(e, ScoreEvent) for e in chunk[1:])
    )


def _reached(chunk: list[Event], frame: Frame) -> int:
    """How many of ``chunk``'s events ``frame`` shows: a grand or special tour's heading and
    the points of the crossings the bus has reached (R6 scores crossing by crossing, in the
    line's order); everything for any other frame."""
    head = chunk[0] if chunk else None
    if frame.bus_at is None or not isinstance(head, TourEvent) or not _is_tour(chunk):
        return len(chunk)
    if frame.bus_at not in head.stops:
        return len(chunk)
    reached = set(head.stops[: head.stops.index(frame.bus_at) + 1])
    return 1 + sum(1 for e in chunk[1:] if isinstance(e, ScoreEvent) and e.stop in reached)


class Staging:
    """The chunks of the move being shown, and how far the showing has come."""

    def __init__(self) -> None:
        # The scores shown while a move's events are staged (None: the view's own).
        self.shown_scores: tuple[int, ...] | None = None
        self._staged: list[list[Event]] = []
        self._shown_chunks = 0
        self._shown_events = 0  # of the chunk after those: a tour's stops the bus has reached
        # id(frame) -> (k, m): with that frame, the chunks before the k-th and m events of it
        self._reveal_with: dict[int, tuple[int, int]] = {}

    def stage(self, before: SeatView, events: list[Event], *, animate: bool) -> list[Frame]:
        """Stage ``events`` (played from ``before``); the tours' frames when ``animate``.

        Each tour's heading is shown when its animation starts, and a grand or
        special tour's points stop by stop as the bus reaches each crossing
        (log lines and scores; the README's "as the tour is shown"); the game
        end's special tours, the sack and "Game over" come last, so the result
        is never given away before it is shown (the end screen follows).
        What comes before the first frame: :meth:`first`.
        """
        chunks = reveal_chunks(events)
        self._staged = chunks
        self._shown_chunks = 0
        self._shown_events = 0
        self._reveal_with = {}
        self.shown_scores = before.scores
        frames: list[Frame] = []
        if animate:
            for k, chunk in enumerate(chunks):
                for frame in build_frames(before.board, before.names, chunk):
                    self._reveal_with[id(frame)] = (k, _reached(chunk, frame))
                    frames.append(frame)
        return frames

    def first(self, frames: list[Frame]) -> tuple[int, int]:
        """What shows before the first of ``frames``: everything before the first tour."""
        return (self._reveal_with[id(frames[0])][0], 0) if frames else (len(self._staged), 0)

    def with_frame(self, frame: Frame) -> tuple[int, int]:
        """What shows with ``frame``: the arguments of :meth:`reveal`."""
        return self._reveal_with.get(id(frame), (0, 0))

    def chunk_lines(self, public: SeatView, chunk: list[Event], start: int, end: int) -> list[Text]:
        """The log lines of ``chunk``'s events ``start:end``: a tour's heading and score lines
        are one line each (worded from the whole tour: "nobody scores" only when true);
        another chunk's lines come all at once, with its last event."""
        lines = describe_events(public.board, public.names, chunk)
        if _is_tour(chunk) and len(lines) == len(chunk):
            return lines[start:end]
        return lines if end >= len(chunk) else []

    def reveal(self, public: SeatView, count: int, partial: int = 0) -> list[Text]:
        """Show the staged chunks before the ``count``-th, and the first ``partial`` events of
        the ``count``-th (a tour up to the bus's stop): the log lines to write now; the
        points go to :attr:`shown_scores`."""
        out: list[Text] = []
        scores = list(self.shown_scores or public.scores)
        while self._shown_chunks < min(count + 1, len(self._staged)):
            chunk = self._staged[self._shown_chunks]
            end = len(chunk) if self._shown_chunks < count else min(partial, len(chunk))
            if end > self._shown_events:
                out.extend(self.chunk_lines(public, chunk, self._shown_events, end))
                for event in chunk[self._shown_events : end]:
                    if isinstance(event, ScoreEvent):
                        scores[event.seat] += event.points
                self._shown_events = end
            if end < len(chunk):
                break
            self._shown_chunks += 1
            self._shown_events = 0
        done = self._shown_chunks >= len(self._staged)
        self.shown_scores = None if done else tuple(scores)
        return out

    def held(self) -> int:
        """How many staged events are not shown whole yet (a tour still holds them)."""
        return sum(len(chunk) for chunk in self._staged[self._shown_chunks :])

    def partly_shown(self, public: SeatView) -> list[Text]:
        """The log lines of the chunk shown in part (a tour up to the bus's stop)."""
        if self._shown_events and self._shown_chunks < len(self._staged):
            chunk = self._staged[self._shown_chunks]
            return self.chunk_lines(public, chunk, 0, self._shown_events)
        return []
