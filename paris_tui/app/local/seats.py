"""The seats and seeds of a game on this terminal, and what the app checks of a record.

``--players`` parsed into seats (:func:`parse_players`, :func:`play_seats`), the
AI levels this installation has (:func:`ai_levels`), the deal and AI seeds
(:data:`MAX_SEED`, :func:`ai_seed`, :func:`next_seed`), and
:func:`check_app_record`: what a record must hold beyond the rules for the app
to resume it (each AI level known here, the ``"app"`` metadata well formed).
A module of its own, below both :mod:`~paris_tui.app.local.session` (which
makes games of these seats) and :mod:`~paris_tui.app.local.storage` (which
checks every save it reads).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from paris_tui.core import (
    InvalidNameError,
    RecordError,
    ai_seat_names,
    check_table_names,
    printable,
)
from paris_tui.core.dealing import SeatSpec, ai_seed
from paris_tui.core.errors import invalid
from paris_tui.core.record import Record
from paris_tui.i18n import _, ngettext
from paris_tui.wording import name_problem, seat_problem

__all__ = [
    "APP_KEY",
    "MAX_SEED",
    "PlayersError",
    "SeatSpec",
    "ai_levels",
    "ai_seed",
    "check_app_record",
    "check_seed",
    "is_seed",
    "name_seats",
    "next_seed",
    "parse_players",
    "play_seats",
    "seed_problem",
]

APP_KEY = "app"
MAX_SEED = 2**63 - 1
"""Deal and AI seeds are whole numbers from 0 to this (checked on every way in)."""


def ai_levels() -> tuple[str, ...]:
    """The AI levels on offer, or ``()`` when the AI package is not installed."""
    try:
        from paris_tui.ai import LEVELS
    except ImportError:
        return ()
    return tuple(LEVELS)


def _level_problem(level: str, levels: tuple[str, ...]) -> str | None:
    """Why ``level`` is not an AI level of this installation, or None."""
    if not levels:
        return _("AI opponents are not available in this installation")
    if level not in levels:
        shown = printable(level if len(level) <= 20 else level[:20] + "...")
        return _("unknown AI level '{level}' (known: {levels})").format(
            level=shown, levels=", ".join(levels)
        )
    return None


class PlayersError(ValueError):
    """``--players`` cannot be seated: :meth:`words` says why (``seat N:`` first when
    one seat is at fault, :attr:`seat` counted from 1), in the current language."""

    def __init__(self, problem: str, seat: int | None = None) -> None:
        self.problem = problem
        self.seat = seat
        super().__init__(self.words())

    def words(self) -> str:
        return self.problem if self.seat is None else seat_problem(self.seat, self.problem)


def parse_players(text: str) -> list[SeatSpec]:
    """``"Ann,ai:strong,Bob"`` as seats. Raises ``ValueError`` with a clear message.

    Names follow the core's one rule for names (:func:`check_table_names`): the
    message is the same as the new-game screen's and a record's (``seat 2: the
    name holds a control character (U+001B)``). A comma separates seats, so a
    name given here holds none.
    """
    parts = text.split(",")
    if not 2 <= len(parts) <= 4:
        raise PlayersError(
            ngettext(
                "{option} names {n} player: Paris Paris is for 2 to 4",
                "{option} names {n} players: Paris Paris is for 2 to 4",
                len(parts),
            ).format(option="--players", n=len(parts))
        )
    levels = ai_levels()
    kinds: list[str | None] = []  # None: a human, named by the part itself
    for i, part in enumerate(parts):
        word = part.strip()
        if word[:3].lower() == "ai:":
            level = word[3:].strip().lower()
            problem = _level_problem(level, levels)
            if problem is not None:
                raise PlayersError(problem, i + 1)
            kinds.append(f"ai:{level}")
        else:
            kinds.append(None)
    humans = [i for i, kind in enumerate(kinds) if kind is None]
    try:
        names = check_table_names(parts[i] for i in humans)
    except InvalidNameError as exc:
        seat = humans[exc.seat] if exc.seat is not None else 0
        raise PlayersError(name_problem(exc), seat + 1) from None
    human_name = dict(zip(humans, names, strict=True))
    return name_seats([(human_name.get(i, ""), kind or "human") for i, kind in enumerate(kinds)])


def name_seats(raw: Sequence[tuple[str, str]]) -> list[SeatSpec]:
    """Seats from checked ``(name, kind)`` pairs: an AI seat named by its code
    (``Strong AI``, :func:`core.ai_seat_names`), whatever name it was typed with."""
    names = ai_seat_names(raw)
    return [SeatSpec(name, kind) for name, (_typed, kind) in zip(names, raw, strict=True)]


_SEED_OR_NULL = "must be a whole number from 0 to {limit} (or null)"


def is_seed(seed: object) -> TypeGuard[int]:
    """Whether ``seed`` is a deal seed (a whole number from 0 to :data:`MAX_SEED`)."""
    return type(seed) is int and 0 <= seed <= MAX_SEED


def seed_problem(what: str) -> str:
    """``--seed must be a whole number from 0 to ...``: ``what`` names the seed."""
    return _("{what} must be a whole number from 0 to {limit}").format(what=what, limit=MAX_SEED)


def check_seed(seed: object, what: str = "the seed") -> int:
    """``seed`` if it is a deal seed (a whole number from 0 to :data:`MAX_SEED`),
    else ``ValueError`` (in the current language)."""
    if not is_seed(seed):
        raise ValueError(seed_problem(what))
    return seed


def play_seats(players: str, *, seed: int | None, ai_delay: float | None) -> list[SeatSpec]:
    """The seats of ``paris-tui play --players ...``, its ``--seed`` and ``--ai-delay``
    checked (the full screen's and the screen reader's ``play`` alike). Raises
    ``ValueError`` with the one line to print, in the current language."""
    if ai_delay is not None and ai_delay < 0:
        raise ValueError(_("{option} must be 0 or more").format(option="--ai-delay"))
    try:
        seats = parse_players(players)
    except PlayersError as exc:
        raise ValueError(
            f"--players: {exc.words()}" if exc.seat is not None else exc.words()
        ) from None
    if seed is not None and not is_seed(seed):
        raise ValueError(seed_problem("--seed"))
    return seats


def next_seed(seed: int) -> int:
    """The deal seed of "Play again" after a game dealt from ``seed`` (wraps at the top)."""
    return 0 if seed >= MAX_SEED else seed + 1


def check_app_record(record: Record) -> None:
    """What the app needs of a record beyond the rules: every AI level known here, and
    the ``"app"`` metadata (deal seed, AI seeds) well formed. A :class:`RecordError`
    naming the field (``players[1].kind``, ``app.seed``) otherwise."""
    levels = ai_levels()
    for i, player in enumerate(record.players):
        level = player.ai_level
        if level is not None:
            problem = _level_problem(level, levels)
            if problem is not None:
                raise RecordError(f"players[{i}].kind", problem)
    meta = record.extra.get(APP_KEY)
    if meta is None:
        return
    if not isinstance(meta, dict):
        raise invalid(APP_KEY, "must be an object")
    seed = meta.get("seed")
    if seed is not None and not is_seed(seed):
        raise invalid(f"{APP_KEY}.seed", _SEED_OR_NULL, limit=MAX_SEED)
    seeds = meta.get("ai_seeds")
    if seeds is not None:
        where = f"{APP_KEY}.ai_seeds"
        if not isinstance(seeds, list) or len(seeds) != len(record.players):
            raise invalid(where, "must be a list of {n} seeds (or nulls)", n=len(record.players))
        for i, seed in enumerate(seeds):
            if seed is not None and not is_seed(seed):
                raise invalid(f"{where}[{i}]", _SEED_OR_NULL, limit=MAX_SEED)
