"""One game being played: the referee (:class:`Game`), its seats and its autosave.

The app keeps the :class:`Game` here, privately: screens read only
:meth:`Session.view` (a :class:`SeatView`: what one seat may see) and the public events of the
moves made. Every move is saved at once, atomically, as a game record whose
extra top-level key ``"app"`` holds the app's own metadata (the deal seed
and each AI seat's seed). The session holds no rules: the core scores.

A session with a save file is that file's only writer: it holds the file's
lock (:mod:`paris_tui.app.local.locks`) from its creation to :meth:`Session.close`
and never writes without it. Creating one for a file that another copy of
the app has open raises :class:`~paris_tui.app.local.locks.GameInUseError`.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from paris_tui.app.local.locks import GameLock, acquire
from paris_tui.app.local.seats import (
    APP_KEY,
    MAX_SEED,
    PlayersError,
    SeatSpec,
    ai_levels,
    ai_seed,
    check_app_record,
    check_seed,
    is_seed,
    name_seats,
    next_seed,
    parse_players,
    play_seats,
)
from paris_tui.core import (
    Game,
    IllegalCode,
    IllegalMoveError,
    Move,
    Options,
    SeatView,
)
from paris_tui.core.errors import invalid
from paris_tui.core.record import Player as RecordPlayer
from paris_tui.core.record import Record, load_record, replay_with_events, save_record
from paris_tui.i18n import _
from paris_tui.wording import refusal_reason

if TYPE_CHECKING:  # the network's modules are not needed for a game on this terminal
    from paris_tui.core import Event
    from paris_tui.net.protocol import ErrorCode, SeatInfo
    from paris_tui.net.table import Table, TableListener

__all__ = [
    "MAX_SEED",
    "SCORE_KINDS",
    "Bot",
    "PlayersError",
    "SeatSpec",
    "Session",
    "SessionTable",
    "ai_levels",
    "ai_seed",
    "check_app_record",
    "check_seed",
    "make_bot",
    "name_seats",
    "next_seed",
    "parse_players",
    "play_seats",
    "points_by_kind",
]

SCORE_KINDS = ("small_tour", "grand_tour", "special_tour", "sack")


class Bot(Protocol):
    def choose(self, view: SeatView) -> Move: ...


def make_bot(level: str, seed: int) -> Bot:
    from paris_tui.ai import make_ai

    bot: Bot = make_ai(level, seed=seed)
    return bot


def _discard(path: Path, lock: GameLock) -> None:
    """Remove the file :func:`create_save` made for a game that did not start (still empty)."""
    with contextlib.suppress(OSError):
        if path.stat().st_size == 0:
            path.unlink()
    lock.release()


def points_by_kind(players: int, events: Sequence[Event]) -> list[dict[str, int]]:
    """Per seat, the points scored of each kind (small, grand, special tours, sack)."""
    from paris_tui.core.events import ScoreEvent

    table = [dict.fromkeys(SCORE_KINDS, 0) for _ in range(players)]
    for event in events:
        if isinstance(event, ScoreEvent):
            table[event.seat][event.kind] += event.points
    return table


class Session:
    """A game in progress (or finished) with its seats, events and autosave file."""

    def __init__(
        self,
        game: Game,
        players: Sequence[RecordPlayer],
        *,
        events: list[Event] | None = None,
        path: Path | None = None,
        app_meta: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
        lock: GameLock | None = None,
    ) -> None:
        if path is not None and lock is None:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = acquire(path)  # GameInUseError if another copy has it open
        self.lock = lock
        self._game = game
        self.players: tuple[RecordPlayer, ...] = tuple(players)
        self.events: list[Event] = events if events is not None else []
        self.path = path
        self.app_meta: dict[str, Any] = dict(app_meta or {})
        self._extra: dict[str, Any] = dict(extra or {})
        self.save_error: str | None = None
        self._bots: dict[int, Bot] = {}

    # --- construction --------------------------------------------------------

    @classmethod
    def new(
        cls,
        seats: Sequence[SeatSpec],
        *,
        seed: int | None = None,
        options: Options | None = None,
        path: Path | None = None,
        lock: GameLock | None = None,
    ) -> Session:
        """A new game, saved at once to ``path`` (locked with ``lock``, or locked here)."""
        seed = random.SystemRandom().randrange(2**31) if seed is None else check_seed(seed)
        game = Game.new([s.name for s in seats], seed=seed, options=options)
        meta = {
            "seed": seed,
            "ai_seeds": [ai_seed(seed, i) if s.level else None for i, s in enumerate(seats)],
        }
        players = [RecordPlayer(name, s.kind) for name, s in zip(game.names, seats, strict=True)]
        session = cls(game, players, path=path, app_meta=meta, lock=lock)
        session.save()
        return session

    @classmethod
    def new_saved(
        cls,
        seats: Sequence[SeatSpec],
        *,
        seed: int | None = None,
        options: Options | None = None,
    ) -> Session:
        """A new game in a new, unique, locked file in ``saves/``, saved once already.

        Raises :class:`OSError` and leaves nothing behind when it cannot be
        saved (a read-only data directory, a full disk): no game starts that
        would only say "Autosave failed" after its first move.
        """
        from paris_tui.app.local.storage import create_save

        path, lock = create_save()
        try:
            session = cls.new(seats, seed=seed, options=options, path=path, lock=lock)
        except BaseException:
            _discard(path, lock)
            raise
        if session.save_error:
            _discard(path, lock)
            raise OSError(session.save_error)
        return session

    @classmethod
    def from_record(
        cls, record: Record, path: Path | None = None, *, lock: GameLock | None = None
    ) -> Session:
        """Resume: replay the record's moves with :meth:`Game.play`, keeping every event.

        Without ``lock`` (from :func:`~paris_tui.app.local.storage.open_save`), the
        lock of ``path`` is taken here and the file must still hold
        ``record``'s moves (else :class:`RecordError`: it changed meanwhile).
        """
        game, events = replay_with_events(record)
        extra = dict(record.extra)
        meta = extra.pop(APP_KEY, None)
        meta = dict(meta) if isinstance(meta, dict) else {}
        if path is not None and lock is None:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = acquire(path)
            try:
                if path.exists() and load_record(path).moves != record.moves:
                    raise invalid("file", "changed on disk since it was read")
            except BaseException:
                lock.release()
                raise
        return cls(
            game, record.players, events=events, path=path, app_meta=meta, extra=extra, lock=lock
        )

    # --- reading -------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        return self._game.view(seat)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def seed(self) -> int | None:
        seed = self.app_meta.get("seed")
        return seed if is_seed(seed) else None

    def is_ai(self, seat: int) -> bool:
        return self.players[seat].is_ai

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.players) if not p.is_ai)

    @property
    def hot_seat(self) -> bool:
        """Two or more humans share the keyboard: hand-offs and no secrets between turns."""
        return len(self.human_seats) > 1

    @property
    def move_count(self) -> int:
        return self._game.move_count

    def points_by_kind(self) -> list[dict[str, int]]:
        """Per seat, the points scored of each kind (small, grand, special tours, sack)."""
        return points_by_kind(len(self.players), self.events)

    # --- AI ------------------------------------------------------------------

    def ai_seed_for(self, seat: int) -> int:
        seeds = self.app_meta.get("ai_seeds")
        if isinstance(seeds, list) and seat < len(seeds):
            seed = seeds[seat]
            if is_seed(seed):
                return seed
        # A record from elsewhere: derive from the deal itself, still deterministic.
        deal = "|".join(",".join(s) for s in self._game.setup.stacks[:2])
        return ai_seed(deal, seat)

    def bot(self, seat: int) -> Bot:
        """The AI playing ``seat`` (created on first use)."""
        if seat not in self._bots:
            level = self.players[seat].ai_level
            if level is None:
                raise ValueError(f"seat {seat} is not an AI")
            self._bots[seat] = make_bot(level, self.ai_seed_for(seat))
        return self._bots[seat]

    # --- moving and saving ----------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Make a move (the core checks it), keep its events, autosave."""
        events = self._game.play(move)
        self.events.extend(events)
        self.save()
        return events

    def record(self) -> Record:
        extra = dict(self._extra)
        extra[APP_KEY] = self.app_meta
        return Record.from_game(self._game, self.players, extra)

    def save(self) -> bool:
        """Autosave to :attr:`path` (atomic). A failure is kept in :attr:`save_error`.

        Only while the session holds the file's lock: a closed session writes nothing.
        """
        if self.path is None:
            return True
        if self.lock is None or not self.lock.held:
            self.save_error = _("not saved: {file} is closed in this copy of the app").format(
                file=self.path.name
            )
            return False
        try:
            save_record(self.record(), self.path)
        except OSError as exc:
            self.save_error = _("could not save to {path}: {reason}").format(
                path=self.path, reason=exc.strerror or exc
            )
            return False
        self.save_error = None
        return True

    def save_copy(self, path: Path) -> None:
        save_record(self.record(), path)

    def close(self) -> None:
        """Stop being the file's writer: release its lock (idempotent)."""
        if self.lock is not None:
            self.lock.release()


class SessionTable:
    """A :class:`Session` behind the :class:`~paris_tui.net.table.Table` interface:
    the game screen's table for a game on this terminal (hot-seat, or against AI).

    Every human seat is local; a move's answer reaches the listeners before
    :meth:`submit` returns. The AI seats are played here too, by the screen,
    through :meth:`local_bot` (a remote table has no such method: its host
    plays them). :attr:`save_error` says when the autosave failed.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self._listeners: list[TableListener] = []

    @property
    def table_id(self) -> str:
        path = self.session.path
        return path.stem if path is not None else "local"

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        from paris_tui.net.protocol import SeatInfo

        return tuple(
            SeatInfo(p.name, p.kind, "ai" if p.is_ai else "present") for p in self.session.players
        )

    @property
    def local_seats(self) -> tuple[int, ...]:
        return self.session.human_seats

    def view(self, seat: int | None) -> SeatView:
        return self.session.view(seat)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self.session.events)

    @property
    def move_count(self) -> int:
        return self.session.move_count

    @property
    def save_error(self) -> str | None:
        return self.session.save_error

    def local_bot(self, seat: int) -> Bot | None:
        """The AI that plays ``seat`` in this process, or None for a human seat.

        Raises ``ImportError`` or ``ValueError`` when the AI cannot be made."""
        return self.session.bot(seat) if self.session.is_ai(seat) else None

    def submit(self, seat: int, move: Move, move_count: int) -> None:
        session = self.session
        to_move = session.view(None).to_move
        if to_move is None:
            self._refuse("game_over", "the game is over")
            return
        if seat != to_move:
            self._refuse("not_your_turn", f"it is {session.names[to_move]}'s turn")
            return
        if move_count != session.move_count:
            self._refuse("stale", "the position changed since the move was chosen")
            return
        try:
            events = tuple(session.play(move))
        except IllegalMoveError as exc:
            illegal = exc.illegal.code if exc.illegal is not None else None
            self._refuse("illegal", str(exc), illegal)
            return
        for listener in list(self._listeners):
            listener.table_changed(self, events)

    def _refuse(self, code: ErrorCode, message: str, illegal: IllegalCode | None = None) -> None:
        words = refusal_reason(code, message, illegal)  # the player's language, as a host's
        for listener in list(self._listeners):
            listener.table_refused(self, code, words)

    def add_listener(self, listener: TableListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: TableListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)


def _is_table(table: SessionTable) -> Table:  # mypy: a SessionTable is a Table
    return table
