"""The referee of one table: the only holder of its :class:`~paris_tui.core.Game`.

A networked game has exactly one :class:`Game`, here, on the host. Players
(and their clients, and the AI seats) see it only through
:meth:`Referee.view` (a :class:`~paris_tui.core.SeatView`, R8) and the public
events of the moves made, and change it only through :meth:`Referee.submit`,
which refuses, with a code and a reason and leaving the game intact, a move
after the game's end (``game_over``), out of turn (``not_your_turn``), made
on a position the sender had not seen (``stale``: the ``move_count`` it
names is not the game's) or against the rules (``illegal``). This is
boardgame.io's ``Master.onUpdate`` with paris-tui's core as the rules.

Every move is saved at once, atomically, as an ordinary
``paris-paris-record`` (``paris-tui replay`` reads it) whose ``"app"`` key
holds the deal seed and each AI seat's seed, as the app's own saves do, so a
restarted host, like a resumed app, replays the same AI choices.

>>> from paris_tui.core import Move
>>> ref = Referee.new("t1", parse_seats("Ann,Bob"), seed=3)
>>> ref.submit(1, Move(ref.view(0).face_up[0]), 0)
Traceback (most recent call last):
...
paris_tui.host.referee.Refusal: not_your_turn: it is Ann's turn, not Bob's
>>> events = ref.submit(0, ref.view(0).legal_moves[0], 0)
>>> ref.move_count
1
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from paris_tui.core.dealing import SeatSpec, ai_seed

from ..core import Event, Game, IllegalCode, Move, Options, ParisError, SeatView, ai_seat_names
from ..core.record import Player, Record, replay_with_events, save_record
from ..core.text import InvalidNameError, check_table_names
from ..net.protocol import ErrorCode
from ..net.wire import move_to_json

__all__ = [
    "APP_KEY",
    "TAKEOVER_LEVEL",
    "TOURNAMENT_KEY",
    "UNRATED_KEY",
    "Bot",
    "Referee",
    "Refusal",
    "SeatSpec",
    "ai_seed",
    "name_ai_seats",
    "parse_seats",
]

APP_KEY = "app"
UNRATED_KEY = "unrated"
"""The key, in a record's ``"app"`` meta, of a table opened unrated (``true``)."""
TOURNAMENT_KEY = "tournament"
"""The key, in a record's ``"app"`` meta, of a tournament's table: the tournament's name."""
# The level of the AI that plays for a player who is away (``--ai-takeover``).
TAKEOVER_LEVEL = "greedy"


class Bot(Protocol):
    def choose(self, view: SeatView) -> Move: ...


class Refusal(ParisError):
    """A request the referee (or the host) refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: ErrorCode, message: str, illegal: IllegalCode | None = None) -> None:
        self.code: ErrorCode = code
        self.message = message
        self.illegal = illegal  # with code "illegal": why, as the core's code
        self.token: str | None = None  # a join's new account's token, said with the refusal
        super().__init__(f"{code}: {message}")


def _levels() -> tuple[str, ...]:
    from ..ai import LEVELS

    return LEVELS


def name_ai_seats(raw: Sequence[tuple[str, str]]) -> list[str]:
    """The seats' names: AI seats by their code (``Strong AI``), the core's one rule."""
    return ai_seat_names(raw)


def parse_seats(text: str) -> list[SeatSpec]:
    """``"ann,bob,ai:strong"`` as seats (humans by name, AI seats by level).

    Names follow the core's one rule for names; AI seats are named after
    their level (``Strong AI``). A searching level may have its own seconds a
    move: ``ai:expert@0.25``. Raises ``ValueError`` with one clear line.
    """
    if len(text) > 1000:
        raise ValueError("the seat list is too long")
    parts = [p.strip() for p in text.split(",")]
    if not 2 <= len(parts) <= 4:
        raise ValueError(f"Paris Paris is for 2 to 4 players, the table names {len(parts)}")
    levels = _levels()
    raw: list[tuple[str, str]] = []
    budgets: list[float | None] = []
    for part in parts:
        budget = None
        if part.lower().startswith("ai:"):
            level, at, seconds = part[3:].strip().lower().partition("@")
            level = level.strip()
            if level not in levels:
                raise ValueError(f"unknown AI level {level[:20]!r} (known: {', '.join(levels)})")
            if at:
                budget = _seat_budget(level, seconds.strip())
            raw.append(("", f"ai:{level}"))
        else:
            raw.append((part, "human"))
        budgets.append(budget)
    names = name_ai_seats(raw)
    try:
        checked = check_table_names(names)
    except InvalidNameError as exc:
        raise ValueError(str(exc)) from None
    return [
        SeatSpec(name, kind, budget)
        for name, (_, kind), budget in zip(checked, raw, budgets, strict=True)
    ]


def _seat_budget(level: str, text: str) -> float:
    """The seconds a move of ``ai:LEVEL@TEXT``; raises ``ValueError`` with one clear line."""
    from ..ai import SEARCHING

    if level not in SEARCHING:
        raise ValueError(f"{level} takes no time budget (only {', '.join(SEARCHING)} do)")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"ai:{level}@ needs a number of seconds, not {text[:20]!r}") from None
    if not (math.isfinite(value) and 0 < value <= 3600):
        raise ValueError(f"ai:{level}@ needs between 0 and 3600 seconds, not {text[:20]}")
    return value


class Referee:
    """One table: its game (secret), its seats, its public events, its autosave."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        players: Sequence[Player],
        *,
        events: list[Event] | None = None,
        meta: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
        path: Path | None = None,
    ) -> None:
        self.table_id = table_id
        self._game = game
        self.players: tuple[Player, ...] = tuple(players)
        self._events: list[Event] = events if events is not None else []
        self.meta: dict[str, Any] = dict(meta or {})
        self._extra: dict[str, Any] = dict(extra or {})
        self.path = path
        self.save_error: str | None = None
        self._bots: dict[int, Bot] = {}
        self._record_json: dict[str, Any] | None = None

    # --- construction ----------------------------------------------------------

    @classmethod
    def new(
        cls,
        table_id: str,
        seats: Sequence[SeatSpec],
        *,
        seed: int | None = None,
        options: Options | None = None,
        path: Path | None = None,
    ) -> Referee:
        """A new table dealt from ``seed`` (random if ``None``), saved at once."""
        if seed is None:
            seed = secrets.randbelow(2**31)
        game = Game.new([s.name for s in seats], seed=seed, options=options)
        meta = {
            "seed": seed,
            "ai_seeds": [ai_seed(seed, i) if s.level else None for i, s in enumerate(seats)],
        }
        if any(s.budget is not None for s in seats):
            meta["ai_budgets"] = [s.budget if s.level else None for s in seats]
        referee = cls(table_id, game, [Player(s.name, s.kind) for s in seats], meta=meta, path=path)
        referee.save()
        return referee

    @classmethod
    def from_record(cls, table_id: str, record: Record, path: Path | None = None) -> Referee:
        """Resume a table from its record (its moves replayed, every event kept)."""
        game, events = replay_with_events(record)
        extra = dict(record.extra)
        meta = extra.pop(APP_KEY, None)
        return cls(
            table_id,
            game,
            record.players,
            events=events,
            meta=dict(meta) if isinstance(meta, dict) else {},
            extra=extra,
            path=path,
        )

    # --- reading ---------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (``None``: a watcher's public view)."""
        return self._game.view(seat)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far: all public (R8), routes only in the game end's tours."""
        return tuple(self._events)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def move_count(self) -> int:
        return self._game.move_count

    @property
    def total_moves(self) -> int:
        return self._game.total_moves

    @property
    def aborted(self) -> bool:
        """Every player agreed to end the game before its end (no winner, unrated)."""
        return self.meta.get("aborted") is True

    @property
    def unrated(self) -> bool:
        """The table was opened unrated (an unrated tournament's): the ratings leave it out."""
        return self.meta.get(UNRATED_KEY) is True

    @property
    def tournament(self) -> str | None:
        """The tournament whose round opened this table (no rematch there), or None."""
        name = self.meta.get(TOURNAMENT_KEY)
        return name if isinstance(name, str) else None

    @property
    def is_over(self) -> bool:
        return self._game.is_over or self.aborted

    @property
    def to_move(self) -> int | None:
        """The seat to move, ``None`` once the game is over."""
        return None if self.is_over else self._game.to_move

    def is_ai(self, seat: int) -> bool:
        return self.players[seat].is_ai

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.players) if not p.is_ai)

    def seat_of(self, name: str) -> int | None:
        """The human seat called ``name`` (ignoring case), or ``None``."""
        key = name.casefold()
        for i, player in enumerate(self.players):
            if not player.is_ai and player.name.casefold() == key:
                return i
        return None

    # --- moving ----------------------------------------------------------------

    def check(self, seat: int, move: Move, move_count: int) -> None:
        """Raise the :class:`Refusal` that :meth:`submit` would, without moving."""
        game = self._game
        if self.is_over:
            raise Refusal("game_over", "the game is over")
        if seat != game.to_move:
            raise Refusal(
                "not_your_turn",
                f"it is {self.players[game.to_move].name}'s turn, not {self.players[seat].name}'s"
                if 0 <= seat < len(self.players)
                else "it is not your turn",
            )
        if move_count != game.move_count:
            raise Refusal(
                "stale",
                f"the game is at move {game.move_count}, the move was chosen at move {move_count}",
            )
        illegal = game.check(move)
        if illegal is not None:
            raise Refusal("illegal", illegal.explain(game.board), illegal.code)

    def play(self, seat: int, move: Move, move_count: int) -> list[Event]:
        """Make ``seat``'s ``move``, chosen at ``move_count`` moves; return its events.

        Raises :class:`Refusal` (the game unchanged) when it is refused. Does not
        save: :meth:`submit` does, or the caller writes :meth:`record_text`.
        """
        self.check(seat, move, move_count)
        events = self._game.play(move)
        self._events.extend(events)
        if self._record_json is not None:
            self._record_json["moves"].append(move_to_json(move))
        return events

    def submit(self, seat: int, move: Move, move_count: int) -> list[Event]:
        """:meth:`play`, then :meth:`save` at once."""
        events = self.play(seat, move, move_count)
        self.save()
        return events

    # --- AI --------------------------------------------------------------------

    def ai_seed_for(self, seat: int) -> int:
        seeds = self.meta.get("ai_seeds")
        if isinstance(seeds, list) and seat < len(seeds):
            value = seeds[seat]
            if type(value) is int and 0 <= value < 2**63:
                return value
        # A seat that was human (a takeover) or a record from elsewhere:
        # derived from the deal, still deterministic.
        seed = self.meta.get("seed")
        if type(seed) is not int or not 0 <= seed < 2**63:
            seed = "|".join(",".join(s) for s in self._game.setup.stacks[:2])
        return ai_seed(seed, seat)

    def ai_budget_for(self, seat: int) -> float | None:
        """The seat's own seconds a move (``ai:expert@0.25``), or None."""
        budgets = self.meta.get("ai_budgets")
        if isinstance(budgets, list) and seat < len(budgets):
            value = budgets[seat]
            if type(value) in (int, float) and math.isfinite(value) and 0 < value <= 3600:
                return float(value)
        return None

    def bot(self, seat: int, budget: float | None = None) -> Bot:
        """The AI that plays ``seat``: its own level for an AI seat, else the takeover AI.

        A searching level thinks the seat's own seconds a move, else ``budget``
        (the host's ``--budget``), else its default."""
        if seat not in self._bots:
            from ..ai import make_ai

            level = self.players[seat].ai_level or TAKEOVER_LEVEL
            own = self.ai_budget_for(seat)
            bot: Bot = make_ai(
                level, seed=self.ai_seed_for(seat), budget=own if own is not None else budget
            )
            self._bots[seat] = bot
        return self._bots[seat]

    # --- saving ----------------------------------------------------------------

    def record(self) -> Record:
        extra = dict(self._extra)
        extra[APP_KEY] = self.meta
        return Record.from_game(self._game, self.players, extra)

    def record_text(self) -> str:
        """The record as its file's text: one line of JSON, a few times faster to
        make than :func:`~paris_tui.core.record.dumps_record`'s layout (the host
        writes one per move); any record reader reads it.

        The record's JSON object is built once and each move appended as it is
        made (a test holds it equal to :meth:`record`'s, move after move)."""
        data = self.record_json()
        text = json.dumps(data, ensure_ascii=False)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate in an extra: keep it, escaped
            text = json.dumps(data)
        return text + "\n"

    def record_json(self) -> dict[str, Any]:
        """The record's JSON object, built once, each move appended as it is made
        (the caller does not change it)."""
        if self._record_json is None:
            self._record_json = self.record().to_json_dict()
        return self._record_json

    def views(self, seats: Iterable[int]) -> tuple[SeatView, dict[int, SeatView]]:
        """The public view and several seats' views at once, each equal to :meth:`view`.

        The public part is built once: a seat's view differs from a watcher's
        only in ``seat``, ``own_route`` and ``legal_moves`` (R8; a test holds the
        two ways equal in every position it tries).
        """
        game = self._game
        public = game.view(None)
        over = self.is_over
        legal = () if over else tuple(game.legal_moves())
        return public, {
            seat: replace(
                public,
                seat=seat,
                own_route=game.route(seat),
                legal_moves=legal if not over and seat == game.to_move else (),
            )
            for seat in seats
        }

    def save(self) -> bool:
        """Autosave to :attr:`path` (atomic). A failure is kept in :attr:`save_error`."""
        if self.path is None:
            return True
        try:
            save_record(self.record(), self.path)
        except (OSError, ValueError, RecursionError) as exc:
            self.save_error = (
                f"could not save table {self.table_id}: {getattr(exc, 'strerror', None) or exc}"
            )
            return False
        self.save_error = None
        return True
