"""Per-decision random generators: a bot's choice depends only on its seed and the view.

Each decision draws from a fresh ``random.Random`` seeded by the bot's seed
and the number of moves already played, so a resumed game (a new bot with
the same seed) makes the same choices as the game it continues, and no
decision depends on how many earlier ones a bot happened to make.
"""

from __future__ import annotations

import random

from ..core import SeatView

__all__ = ["decision_rng"]


def decision_rng(seed: int | str, view: SeatView) -> random.Random:
    """The generator for the decision at ``view`` (string seeds hash deterministically)."""
    return random.Random(f"paris-tui-ai:{seed}:{len(view.moves)}")
