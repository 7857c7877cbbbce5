"""The rules core: board, state, moves, scoring, views and records.

Pure Python, deterministic from a seed, and free of any UI import: the app
and the AI build on this package's public API only.
"""

from .board import Board, Line, Stop, TileKind, classic_board, load_board, parse_board
from .errors import BoardError, IllegalMoveError, ParisError, RecordError
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
from .view import SeatView

__all__ = [
    "BUSINESSES_PER_SEAT",
    "Board",
    "BoardError",
    "BusinessOpened",
    "BusinessRemoved",
    "Event",
    "Game",
    "GameOver",
    "IllegalMoveError",
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
    "classic_board",
    "deal",
    "load_board",
    "parse_board",
]
