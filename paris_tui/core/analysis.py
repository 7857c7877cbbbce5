"""Public-information analysis for players: what a left-over tile would do.

The rulebook's tactical advice ("pay close attention to which tile will be
the one left over") made computable from a seat's view, so the app can show
it and the AI can use it. Computed by the engine itself on the public
position, never by a second copy of the scoring rules.

A preview belongs to a face-up tile the player to move could take (the
highlighted one in the app) and means one of two things (R3.2, R3.3):

* **the round's last move** (two face-up tiles left): taking the tile leaves
  the *other* one over, so the preview is that other tile's small tour (and
  the grand tour its discard runs), scored by the engine *after* the move:
  the business it opens and any business it removes count. It is exactly the
  tour the engine then runs. When taking the tile means a takeover whose
  choice changes the points, the preview is the one for the takeover
  dialog's first choice (:func:`takeover_choices`) and says it depends;
* **an earlier move**: the preview is the tile's own tour if it were left
  over with the board as it stands now: it assumes that no business is
  opened or removed before the round ends, which the later players of the
  round will change. ``leaves is None`` marks this meaning.

Nothing here reads a secret: a spectator's view gives the same previews as
any seat's view of the same position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .events import Event, ScoreEvent, TileDiscarded, TourEvent
from .game import Game
from .sampling import Determinizer
from .values import Move
from .view import SeatView

__all__ = [
    "LeftoverPreview",
    "eviction_destinations",
    "leftover_preview",
    "leftover_previews",
    "takeover_choices",
]


@dataclass(frozen=True, slots=True)
class LeftoverPreview:
    """The tours that follow when ``tile`` is taken (last move) or left over (earlier move).

    ``small_tour`` and ``grand_tour`` are points per seat; ``grand_tour_line``
    is the name of the line whose grand tour runs (``None``: none runs).

    ``leaves`` is ``None`` for an earlier move of the round: the tours are
    ``tile``'s own if it were left over on the board as it is now (the
    assumption the app states). On the round's last move it is the tile that
    taking ``tile`` leaves over, and the tours are that tile's, after the move.
    ``evict`` is the seat whose business the move removes (``None``: no
    takeover); ``depends`` says another removal the player may choose would
    score differently.
    """

    tile: str
    small_tour: tuple[int, ...]
    grand_tour_line: str | None
    grand_tour: tuple[int, ...]
    events: tuple[Event, ...]
    leaves: str | None = None
    evict: int | None = None
    depends: bool = False

    @property
    def triggers_grand_tour(self) -> bool:
        return self.grand_tour_line is not None

    @property
    def after_move(self) -> bool:
        """True on the round's last move: the tours of the tile left over, after the move."""
        return self.leaves is not None

    @property
    def left_over(self) -> str:
        """The tile whose tours these are."""
        return self.tile if self.leaves is None else self.leaves

    def summary(self, names: tuple[str, ...]) -> str:
        """One line, e.g. ``small tour: Ann +1, Bob +2 · grand tour (Blue line): Ann +3``."""

        def points(values: tuple[int, ...]) -> str:
            parts = [f"{names[p]} +{v}" for p, v in enumerate(values) if v]
            return ", ".join(parts) if parts else "nobody scores"

        text = f"small tour: {points(self.small_tour)}"
        if self.grand_tour_line is not None:
            text += f" · grand tour ({self.grand_tour_line}): {points(self.grand_tour)}"
        if self.leaves is not None:
            text = f"leaves {self.leaves}: {text}"
        return text


def takeover_choices(moves: Sequence[Move], mover: int) -> list[Move]:
    """The removals of one full stop in the order a player is offered them (R4).

    An opponent's business first (the engine's order), the mover's own last:
    the app's takeover dialog offers them so, and a last move's preview
    assumes the first.
    """
    return sorted(moves, key=lambda m: m.evict == mover)


def _tours(game: Game, events: Sequence[Event], tile: str, **extra: object) -> LeftoverPreview:
    """The preview made of a round end's tour events (other events are ignored)."""
    n = game.players
    small = [0] * n
    grand = [0] * n
    line: str | None = None
    kept: list[Event] = []
    for event in events:
        if isinstance(event, TourEvent) and event.kind in ("small_tour", "grand_tour"):
            kept.append(event)
            if event.kind == "grand_tour":
                line = event.line
        elif isinstance(event, ScoreEvent) and event.kind in ("small_tour", "grand_tour"):
            kept.append(event)
            (grand if event.kind == "grand_tour" else small)[event.seat] += event.points
        elif isinstance(event, TileDiscarded) and event.grand_tour:
            kept.append(event)
    line_name = None
    if line is not None:
        line_name = game.board.lines[game.board.line_index[line]].name
    return LeftoverPreview(
        tile,
        tuple(small),
        line_name,
        tuple(grand),
        tuple(kept),
        **extra,  # type: ignore[arg-type]
    )


def _last_move_preview(game: Game, tile: str) -> LeftoverPreview:
    """What taking ``tile`` leaves on the round's last move: the engine's own round end."""
    mover = game.to_move
    moves = takeover_choices([m for m in game.legal_moves() if m.tile == tile], mover)
    outcomes: list[LeftoverPreview] = []
    for move in moves:
        probe = game.copy()
        faceup = list(probe.face_up)
        faceup.remove(tile)
        outcomes.append(_tours(probe, probe.play(move), tile, leaves=faceup[0], evict=move.evict))
    first = outcomes[0]
    depends = any(
        (o.small_tour, o.grand_tour, o.grand_tour_line)
        != (first.small_tour, first.grand_tour, first.grand_tour_line)
        for o in outcomes[1:]
    )
    if not depends:
        return first
    return LeftoverPreview(
        first.tile,
        first.small_tour,
        first.grand_tour_line,
        first.grand_tour,
        first.events,
        first.leaves,
        first.evict,
        True,
    )


def leftover_previews(view: SeatView) -> dict[str, LeftoverPreview]:
    """The preview of every face-up tile of the view's round (keyed by tile name).

    See the module docstring for what a preview means on the round's last
    move and before it.
    """
    if view.is_over:
        return {}
    game = Determinizer(view).base
    last = len(game.face_up) == 2
    out: dict[str, LeftoverPreview] = {}
    for tile in dict.fromkeys(view.face_up):
        if last:
            out[tile] = _last_move_preview(game, tile)
        else:
            out[tile] = _tours(game, game.leftover_events(tile), tile)
    return out


def leftover_preview(view: SeatView, tile: str) -> LeftoverPreview:
    """The preview of one face-up tile."""
    previews = leftover_previews(view)
    if tile not in previews:
        raise ValueError(f"{tile} is not face up")
    return previews[tile]


def eviction_destinations(view: SeatView, moves: Sequence[Move]) -> dict[int, str]:
    """Where the business each takeover move removes would go (R4): ``"sack"`` or
    ``"supply"``, by seat removed, as the rules would have it from ``view``."""
    from .events import BusinessRemoved

    base = Determinizer(view).base
    out: dict[int, str] = {}
    for move in moves:
        assert move.evict is not None
        probe = base.copy()
        for event in probe.play(move):
            if isinstance(event, BusinessRemoved):
                out[move.evict] = event.to
    return out
