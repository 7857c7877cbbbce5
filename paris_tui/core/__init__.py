"""The rules core: board, state, moves, scoring, views and records.

Pure Python, deterministic from a seed, and free of any UI import: the app
and the AI build on this package's public API only.
"""

from typing import TYPE_CHECKING, Any

from .board import Board, Line, Stop, TileKind, classic_board, load_board, parse_board
from .dealing import deal
from .errors import (
    BoardError,
    DecidedBy,
    Illegal,
    IllegalCode,
    IllegalMoveError,
    ParisError,
    RecordError,
)
from .game import BUSINESSES_PER_SEAT, Game
from .text import (
    MAX_NAME_CELLS,
    InvalidNameError,
    ai_seat_code,
    ai_seat_names,
    cell_width,
    check_table_names,
    normalize_name,
    printable,
)
from .values import Move, Options, Outcome, Setup
from .view import SeatView

if TYPE_CHECKING:
    from .events import (
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

_EVENTS = frozenset(
    (
        "BusinessOpened",
        "BusinessRemoved",
        "Event",
        "GameOver",
        "NothingOpened",
        "RoundStarted",
        "ScoreEvent",
        "TileDiscarded",
        "TourEvent",
    )
)


def __getattr__(name: str) -> Any:
    """The events (:mod:`.events`), imported when first asked for: no move is made
    before ``paris-tui play`` draws its first frame, so that frame waits for none."""
    if name in _EVENTS:
        from . import events

        value = getattr(events, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BUSINESSES_PER_SEAT",
    "MAX_NAME_CELLS",
    "Board",
    "BoardError",
    "BusinessOpened",
    "BusinessRemoved",
    "DecidedBy",
    "Event",
    "Game",
    "GameOver",
    "Illegal",
    "IllegalCode",
    "IllegalMoveError",
    "InvalidNameError",
    "Line",
    "Move",
    "NothingOpened",
    "Options",
    "Outcome",
    "ParisError",
    "RecordError",
    "RoundStarted",
    "ScoreEvent",
    "SeatView",
    "Setup",
    "Stop",
    "TileDiscarded",
    "TileKind",
    "TourEvent",
    "ai_seat_code",
    "ai_seat_names",
    "cell_width",
    "check_table_names",
    "classic_board",
    "deal",
    "load_board",
    "normalize_name",
    "parse_board",
    "printable",
]
