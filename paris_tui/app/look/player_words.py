"""A player's page in words, from the host's finished games: their games, wins,
rating over time and recent games, as plain lines (the screen reader says them;
the page's screen draws the same words). No Textual here.

The games come from the host's list (:class:`~paris_tui.net.protocol.FinishedGame`,
newest first, at most :data:`~paris_tui.net.games_wire.MAX_GAMES` of the player's);
a rating is the player's seat's shown rating after each rated game, in tenths.
Under :data:`~paris_tui.net.ratings_wire.PROVISIONAL_GAMES` rated games the rating
is provisional and said so, with no number (docs/ratings.md). Names are outside
text: every line goes through :func:`~paris_tui.core.printable`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paris_tui.core import printable
from paris_tui.i18n import _, ngettext
from paris_tui.net.protocol import FinishedGame
from paris_tui.net.ratings_wire import PROVISIONAL_GAMES, is_provisional

__all__ = [
    "PlayerRecord",
    "game_line",
    "player_lines",
    "player_record",
    "rating_now_line",
    "sparkline",
    "tenths_text",
]

SPARKS = "▁▂▃▄▅▆▇█"
SPARKS_ASCII = "_.-=+*#"


def tenths_text(tenths: int) -> str:
    """``12.3``, ``-0.4``: a shown rating as the screens write it."""
    sign = "-" if tenths < 0 else ""
    return f"{sign}{abs(tenths) // 10}.{abs(tenths) % 10}"


def _seat(game: FinishedGame, name: str) -> int | None:
    key = name.casefold()
    for i, n in enumerate(game.names):
        if n.casefold() == key:
            return i
    return None


@dataclass(frozen=True)
class PlayerRecord:
    """What the finished games say of one player."""

    name: str
    games: tuple[FinishedGame, ...]  # theirs, newest first
    wins: int
    rated: int  # rated games
    ratings: tuple[int, ...]  # shown rating after each rated game, oldest first (tenths)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.rated)

    @property
    def rating(self) -> int | None:
        return self.ratings[-1] if self.ratings else None


def player_record(name: str, games: Iterable[FinishedGame]) -> PlayerRecord:
    """``name``'s games among ``games`` (any order), their wins and ratings."""
    # Newest first; games of the same second keep the host's order (newest first).
    mine = sorted((g for g in games if _seat(g, name) is not None), key=lambda g: -g.finished)
    wins = 0
    ratings: list[int] = []
    rated = 0
    for game in reversed(mine):  # oldest first
        seat = _seat(game, name)
        assert seat is not None
        if seat < len(game.places) and game.places[seat] == 1:
            wins += 1
        if game.rated:
            rated += 1
            if seat < len(game.ratings) and game.ratings[seat] is not None:
                ratings.append(game.ratings[seat])  # type: ignore[arg-type]
    return PlayerRecord(name, tuple(mine), wins, rated, tuple(ratings))


def sparkline(values: Sequence[int], width: int = 30, *, ascii_only: bool = False) -> str:
    """The last ``width`` values as a row of bars, lowest to highest."""
    shown = list(values)[-width:]
    if not shown:
        return ""
    marks = SPARKS_ASCII if ascii_only else SPARKS
    low, high = min(shown), max(shown)
    span = high - low
    return "".join(
        marks[0 if span == 0 else round((v - low) / span * (len(marks) - 1))] for v in shown
    )


def rating_now_line(record: PlayerRecord) -> str:
    """The rating now, or provisional (how many rated games so far), or none yet."""
    if record.rated == 0:
        return _("No rated game yet.")
    if record.provisional or record.rating is None:
        return ngettext(
            "Rating: provisional, {n} rated game of the {m} that give a number.",
            "Rating: provisional, {n} rated games of the {m} that give a number.",
            record.rated,
        ).format(n=record.rated, m=PROVISIONAL_GAMES)
    return ngettext(
        "Rating {rating}, after {n} rated game.",
        "Rating {rating}, after {n} rated games.",
        record.rated,
    ).format(rating=tenths_text(record.rating), n=record.rated)


def game_line(game: FinishedGame, name: str | None = None) -> str:
    """``t3, 2026-12-05 21:04: ann 42 (won), bob 38; rated.``"""
    parts = []
    for i, n in enumerate(game.names):
        part = printable(n)
        if i < len(game.scores):
            part += f" {game.scores[i]}"
        if i < len(game.places) and game.places[i] == 1:
            part += " " + _("(won)")
        parts.append(part)
    ended = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.finished))
    rated = _("rated") if game.rated else _("unrated")
    if game.aborted:
        rated = _("aborted, unrated")
    return _("{table}, {ended}: {players}; {rated}.").format(
        table=game.table, ended=ended, players=", ".join(parts), rated=rated
    )


def player_lines(record: PlayerRecord, recent: int = 5) -> list[str]:
    """The page as lines: who, games and wins, the rating now and over time, the
    most recent games."""
    name = printable(record.name)
    n = len(record.games)
    lines = [
        ngettext(
            "{name}: {n} finished game, {wins} won.",
            "{name}: {n} finished games, {wins} won.",
            n,
        ).format(name=name, n=n, wins=record.wins),
        rating_now_line(record),
    ]
    if len(record.ratings) >= 2 and not record.provisional:
        shown = ", ".join(tenths_text(r) for r in record.ratings[-10:])
        lines.append(_("Rating over time, oldest first: {ratings}.").format(ratings=shown))
    if record.games:
        lines.append(_("Recent games:"))
        lines.extend(game_line(g, record.name) for g in record.games[:recent])
    return lines
