"""A seat as the app and the host open it (a name, a human or an AI level), and the seed
of its AI: one derivation, so that a record moves between the app and a host with the
same AI choices."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SeatSpec", "ai_seed"]


def ai_seed(game_seed: int | str, seat: int) -> int:
    """A deterministic seed for the AI in ``seat``, derived from the game's seed."""
    import hashlib  # on first use: the app's first frame needs none

    digest = hashlib.sha256(f"paris-tui:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat to open: a name and ``"human"`` or ``"ai:<level>"``."""

    name: str
    kind: str = "human"

    @property
    def level(self) -> str | None:
        return self.kind[3:] if self.kind.startswith("ai:") else None
