"""Tables that wait for players: opened from a client, free seats taken by name.

A client of protocol 2 opens a table with ``open_table`` (docs/protocol.md):
its seats, in order, are ``"me"`` (the opener's own seat), ``"open"`` (a
free seat), ``"invite:<name>"`` (a free seat kept for that name's account: an
invitation, taken by nobody else) or ``"ai:<level>"``. While a seat is free the table *waits*: it
is a :class:`WaitingTable`, in memory only, with no
:class:`~paris_tui.core.Game` and nothing on disk. Each human seat is held
by a connection; a ``join`` naming the table takes a free seat under a name
that passes the core's rule and differs (ignoring case) from every other
seat's. When the last free seat is taken the host deals the game: the
table becomes an ordinary :class:`~paris_tui.host.room.Room` whose record
is an ordinary ``paris-paris-record`` from its first write, and every seat
gets its token in its ``seated``, as on any first join.

A waiting table's seat is kept only while its connection stays: a player
who leaves (or whose connection drops) frees the seat, and a table nobody
waits at any more is closed. When the opener leaves, the table closes at
once: whoever else waits there is told (``left``, then ``no_such_table``),
so no table is kept waiting by people who only came to fill it. A host that
stops (or restarts) drops every waiting table the same way: there is nothing
of it on disk, no game began.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from paris_tui.core import Options
from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.host.referee import Refusal, SeatSpec, name_ai_seats
from paris_tui.net.protocol import SeatInfo, TableInfo

__all__ = ["INVITE", "ME", "OPEN", "Slot", "WaitingTable", "plan_seats", "table_options"]

ME = "me"
OPEN = "open"
INVITE = "invite:"
MIN_SEATS, MAX_SEATS = 2, 4

H = TypeVar("H")  # who holds a seat: the host's connection


@dataclass(slots=True)
class Slot(Generic[H]):
    """One seat of a waiting table: an AI seat (named at once), or a human seat
    held by ``conn`` under ``name`` (both ``None`` while the seat is free);
    ``invited``: the only name that may take it (an invitation)."""

    kind: str
    name: str | None = None
    conn: H | None = None
    invited: str | None = None

    def open_to(self, name: str) -> bool:
        """Whether ``name`` may take this seat now."""
        if not self.free:
            return False
        return self.invited is None or self.invited.casefold() == name.casefold()

    @property
    def free(self) -> bool:
        return self.kind == "human" and self.conn is None


def _levels() -> tuple[str, ...]:
    from paris_tui.ai import LEVELS

    return LEVELS


def plan_seats(words: Sequence[str], opener: str) -> tuple[int, list[Slot[H]]]:
    """The seats an ``open_table`` asks for, and which of them is ``opener``'s
    (held by nobody yet: the caller seats the opener). AI seats are named
    apart from the opener's name.

    Raises :class:`Refusal` ``bad_table`` with one clear line: 2 to 4 seats,
    exactly one ``me``, AI levels the host knows.
    """
    if not MIN_SEATS <= len(words) <= MAX_SEATS:
        raise Refusal(
            "bad_table", f"Paris Paris is for 2 to 4 players, the table has {len(words)} seats"
        )
    levels = _levels()
    mine: list[int] = []
    slots: list[Slot[H]] = []
    for i, raw in enumerate(words):
        word = raw.strip().lower()
        if word == ME:
            mine.append(i)
            slots.append(Slot("human"))
        elif word == OPEN:
            slots.append(Slot("human"))
        elif word.startswith(INVITE):
            slots.append(Slot("human", invited=_invited(raw.strip()[len(INVITE) :], i, opener)))
        elif word.startswith("ai:") and word[3:] in levels:
            slots.append(Slot(word))
        elif word.startswith("ai:"):
            raise Refusal(
                "bad_table",
                f"seat {i + 1}: unknown AI level {printable(word[3:20])!r} "
                f"(known: {', '.join(levels)})",
            )
        else:
            raise Refusal(
                "bad_table",
                f"seat {i + 1}: {printable(raw[:20])!r} is not me, open, invite:<name> "
                "or ai:<level>",
            )
    if len(mine) != 1:
        raise Refusal("bad_table", "exactly one seat must be the opener's own (me)")
    invited = [s.invited.casefold() for s in slots if s.invited is not None]
    if len(set(invited)) != len(invited):
        raise Refusal("bad_table", "a name is invited to one seat only")
    names = name_ai_seats([(opener if i == mine[0] else "", s.kind) for i, s in enumerate(slots)])
    for slot, name in zip(slots, names, strict=True):
        if slot.kind != "human":
            slot.name = name
    return mine[0], slots


def _invited(raw: str, seat: int, opener: str) -> str:
    """The name an ``invite:`` seat keeps the seat for (``bad_table`` if not a name)."""
    try:
        name = normalize_name(raw)
    except InvalidNameError as exc:
        raise Refusal("bad_table", f"seat {seat + 1}: the name invited: {exc.problem}") from None
    if name.casefold() == opener.casefold():
        raise Refusal("bad_table", f"seat {seat + 1}: you sit at the table already")
    return name


def table_options(small_tour: str, final_tours: str) -> Options:
    """The rule variants an ``open_table`` asks for (``bad_table`` if unknown)."""
    try:
        return Options(small_tour=small_tour, final_tours=final_tours)  # type: ignore[arg-type]
    except ValueError as exc:
        raise Refusal("bad_table", printable(str(exc))) from None


class WaitingTable(Generic[H]):
    """A table opened from a client whose game has not started: some seat is free."""

    def __init__(
        self,
        table_id: str,
        slots: list[Slot[H]],
        options: Options,
        *,
        opener: str | None = None,
        opener_address: str | None = None,
    ) -> None:
        self.id = table_id
        self.slots = slots
        self.options = options
        self.opener = opener  # the opener's owner key (limits.owner_key)
        self.opener_address = opener_address  # ... and address key (limits.address_key)
        self.opener_conn: H | None = None  # the table closes when it leaves
        # A holder's shown rating in tenths (the host's ratings), by name.
        self.rating_of: Callable[[str], int | None] = lambda name: None
        self.move_time: float | None = None  # seconds per move (services/turns.py)
        # Whether a holder's rating is provisional (the host's ratings), by name.
        self.provisional_of: Callable[[str], bool] = lambda name: False

    @property
    def free_seats(self) -> int:
        return sum(1 for s in self.slots if s.free)

    @property
    def holders(self) -> list[tuple[int, H]]:
        return [(i, s.conn) for i, s in enumerate(self.slots) if s.conn is not None]

    def seat_infos(self) -> tuple[SeatInfo, ...]:
        out: list[SeatInfo] = []
        for slot in self.slots:
            if slot.kind != "human":
                out.append(SeatInfo(slot.name or "", slot.kind, "ai"))
            elif slot.conn is None and slot.invited is not None:  # kept for this name
                name = slot.invited
                rating, provisional = self.rating_of(name), self.provisional_of(name)
                out.append(SeatInfo(name, "human", "free", rating, provisional))
            elif slot.conn is None:
                out.append(SeatInfo("", "human", "free"))
            else:
                name = slot.name or ""
                rating, provisional = self.rating_of(name), self.provisional_of(name)
                out.append(SeatInfo(name, "human", "present", rating, provisional))
        return tuple(out)

    def info(self) -> TableInfo:
        return TableInfo(
            self.id,
            self.seat_infos(),
            0,
            0,
            False,
            waiting=True,
            free_seats=self.free_seats,
            move_time=self.move_time,
        )

    def name_taken(self, name: str) -> bool:
        """Whether a seat here (an AI seat, or a human seat held) is called ``name``."""
        key = name.casefold()
        return any(s.name is not None and s.name.casefold() == key for s in self.slots)

    @property
    def invited(self) -> list[str]:
        """The names whose kept seat is still free (invitations not yet taken)."""
        return [s.invited for s in self.slots if s.invited is not None and s.free]

    def seat_for(self, name: str) -> int | None:
        """The seat ``name`` would take: one kept for it, else a free seat kept for
        nobody; ``None`` when there is none."""
        free = [i for i, s in enumerate(self.slots) if s.open_to(name)]
        kept = [i for i in free if self.slots[i].invited is not None]
        found = kept or free
        return found[0] if found else None

    def seat_of(self, conn: H) -> int | None:
        for i, slot in enumerate(self.slots):
            if slot.conn is conn:
                return i
        return None

    def take(self, name: str, conn: H, seat: int | None = None) -> int:
        """``conn`` holds ``seat`` (or the one :meth:`seat_for` gives) as ``name``."""
        if seat is None:
            seat = self.seat_for(name)
            assert seat is not None, "no seat is free for that name"
        slot = self.slots[seat]
        assert slot.free
        slot.name, slot.conn = name, conn
        return seat

    def release(self, conn: H) -> bool:
        """``conn`` leaves its seat (free again); whether anyone still waits here."""
        for slot in self.slots:
            if slot.conn is conn:
                slot.name, slot.conn = None, None
        return bool(self.holders)

    def specs(self) -> list[SeatSpec]:
        """The seats of the game to deal (every seat held)."""
        return [SeatSpec(s.name or "", s.kind) for s in self.slots]
