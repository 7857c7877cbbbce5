"""The rules core: board, state, moves, scoring, views and records.

Pure Python, deterministic from a seed, and free of any UI import: the app
and the AI build on this package's public API only.
"""

from .board import Board, Line, Stop, TileKind, classic_board, load_board, parse_board
from .errors import (
    BoardError,
    DecidedBy,
    Illegal,
    IllegalCode,
    IllegalMoveError,
    ParisError,
    RecordError,
)
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
from .game import BUSINESSES_PER_SEAT, Game, Move, Options, Outcome, Setup, deal
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
from .view import SeatView

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
