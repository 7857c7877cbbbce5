"""The notation of a hand-made map layout (see :mod:`paris_tui.app.map.classic`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["LayoutSpec"]


@dataclass(frozen=True)
class LayoutSpec:
    """A hand-made layout of the classic board.

    ``stops`` maps a stop id to (row, column, label): row and column of the
    stop's first slot (where its lines attach), and where its name goes: ``r``
    right, ``l`` left, ``a`` above, ``b`` below, optionally followed by a signed
    column shift (``"a+2"``), and for ``r``/``l`` also a row shift after a comma
    (``"r,1"``). ``routes`` gives bend points of the track from a line's stop k
    to stop k+1 (key ``(line id, k)``); without them a track is straight, a 45°
    diagonal, or an L going along the row first.

    Each track carries its line's letter: on its diagonal part when it has
    one of two cells or more, else mid-track when it has four cells or more;
    ``no_letter`` lists tracks (line id, k) left without, and a line left with
    no letter at all gets one on its longest track, however short. Names must
    leave every stop room for a scoring label beside it
    (:class:`~paris_tui.app.map.grid.LabelSpot`): the layout does not compile
    otherwise.
    """

    name: str
    width: int
    height: int
    stops: Mapping[str, tuple[int, int, str]]
    routes: Mapping[tuple[str, int], tuple[tuple[int, int], ...]] = field(default_factory=dict)
    short: bool = False
    no_letter: frozenset[tuple[str, int]] = frozenset()
