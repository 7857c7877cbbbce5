"""Tables opened by clients that wait for players, until their game is dealt.

A protocol-2 client opens a table (``open_table``); while a seat is free it
waits (:class:`~paris_tui.host.services.waiting.WaitingTable`, in memory
only), others take its seats by name (``join`` naming it), and when the last
seat is taken the host deals the game (the :class:`WaitingHost`'s ``deal``).
:class:`WaitingTables` keeps the waiting tables and the caps on opening them:
tables per person and per address, tables opened per hour
(:class:`~paris_tui.host.limits.NestedWindow`), one unfinished table per name
(turn-based tables apart, up to ``Limits.turn_tables_per_account``), and with
``--database`` the same across every host (a lock in the database). What it
changes is told on the host's event stream (``WaitingChanged``,
``WaitingStarted``, ``WaitingClosed``), for the other hosts' lobbies.
"""

from __future__ import annotations

import logging

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.host.accounts.names import same_name
from paris_tui.host.config import HostConfig
from paris_tui.host.connection import Connection
from paris_tui.host.events import SeatsInvited, WaitingChanged, WaitingClosed, WaitingStarted
from paris_tui.host.limits import NestedWindow, address_key, owner_key
from paris_tui.host.ports import WaitingHost
from paris_tui.host.referee import Refusal
from paris_tui.host.room import Room
from paris_tui.host.services.turns import checked_move_time
from paris_tui.host.services.waiting import Slot, WaitingTable, plan_seats, table_options
from paris_tui.host.store.postgres import SeatTaken
from paris_tui.net.protocol import Join, Left, OpenTable, Waiting, refusal
from paris_tui.net.turns import is_turn_based

__all__ = ["WaitingTables"]

log = logging.getLogger("paris_tui.host")


class WaitingTables:
    """The tables waiting for players, and the caps on opening them."""

    def __init__(self, host: WaitingHost, config: HostConfig) -> None:
        self.host = host
        # Tables opened by clients whose seats are not all taken (in memory only).
        self.waiting: dict[str, WaitingTable[Connection]] = {}
        # Tables opened by clients: per person, per address, for the host (limits.py).
        self.opens = NestedWindow(config.limits.opens)

    def left(self, conn: Connection) -> None:
        """``conn`` holds its waiting seat no more (it left, or sits elsewhere)."""
        table = conn.waiting
        if table is not None:
            conn.waiting = None
            if table.opener_conn is conn:
                self._opener_left(table)
            elif table.release(conn):
                self._announce(table)
            elif self.waiting.get(table.id) is table:
                self._close_waiting(table)

    def client_tables(self) -> list[Room | WaitingTable[Connection]]:
        """The tables clients opened that count against the caps: unfinished or waiting."""
        rooms: list[Room | WaitingTable[Connection]] = [
            r for r in self.host.unfinished() if r.opener is not None
        ]
        return rooms + list(self.waiting.values())

    def _check_quota(self, conn: Connection, owner: str, move_time: float | None = None) -> None:
        """Refuse (``too_many_tables``) an open_table over any table quota."""
        limits = self.host.config.limits
        address = address_key(conn.address)
        mine = conn.waiting
        if mine is not None and mine.opener_conn is not conn:
            mine = None  # a table it only sits at stays when it opens one
        held = [t for t in self.client_tables() if t is not mine]
        owned = [t for t in held if t.opener == owner]
        if not is_turn_based(move_time):  # turn-based tables have their own cap
            owned = [t for t in owned if not self._turn_based(t)]
        else:
            owned = []
        if len(owned) >= limits.tables_per_owner:
            raise Refusal(
                "too_many_tables",
                f"{owner} holds {limits.tables_per_owner} unfinished tables already: "
                "finish or leave one first",
            )
        if sum(1 for t in held if t.opener_address == address) >= limits.tables_per_address:
            raise Refusal(
                "too_many_tables",
                f"{limits.tables_per_address} unfinished tables were opened from this "
                "address already",
            )
        if len(held) >= limits.max_tables:
            raise Refusal("too_many_tables", f"the host serves {limits.max_tables} tables at most")
        used = self.opens.refusal(owner, address)
        if used is not None:
            quota = limits.opens
            wait = max(1, round(self.opens.retry_after(owner, address) / 60))
            per = {"owner": quota.per_owner, "address": quota.per_address, "host": quota.total}
            who = {"owner": owner, "address": "this address", "host": "the host"}[used]
            raise Refusal(
                "too_many_tables",
                f"{who} opened {per[used]} tables in the last hour: try again in {wait} min",
            )

    # --- tables opened by clients (protocol 2) -----------------------------------------

    def _check_name_free(self, name: str, conn: Connection, move_time: float | None = None) -> None:
        """A name sits at one table at a time: refuse one seated at an unfinished
        table, or waiting at another table than ``conn``'s own. Turn-based tables
        are apart: a name sits at several of them (``turn_tables_per_account``)."""
        if is_turn_based(move_time):
            self._check_turn_cap(name)
            return
        for room in self.host.unfinished():
            if self.host.turns.turn_based(room):
                continue
            if room.referee.seat_of(name) is not None:
                raise Refusal("name_in_use", f"{name} sits at unfinished table {room.id}: join it")
        for table in self.waiting.values():
            if table is conn.waiting or is_turn_based(table.move_time):
                continue
            for slot in table.slots:
                if slot.conn is not None and slot.name is not None and same_name(slot.name, name):
                    raise Refusal("name_in_use", f"{slot.name} already waits at table {table.id}")

    def _seat_everywhere(
        self, table_id: str, name: str, conn: Connection, move_time: float | None
    ) -> None:
        """With ``--database``, ``name`` sits at ``table_id`` in the database too,
        or is refused (``name_in_use``) for a table of any host: a lock there, not
        a read, so two hosts that seat one name at the same instant cannot both
        (docs/scaling.md). Turn-based tables are apart, as above. The
        rows of this host's own waiting tables give way: the check above saw them."""
        if self.host.cluster is None or is_turn_based(move_time):
            return
        mine = [t for t in self.waiting if t != table_id]
        try:
            self.host.cluster.seat(table_id, [name], replace=mine)
        except SeatTaken as exc:
            if exc.started:
                raise Refusal(
                    "name_in_use", f"{exc.name} sits at unfinished table {exc.table_id}: join it"
                ) from None
            raise Refusal(
                "name_in_use", f"{exc.name} already waits at table {exc.table_id}"
            ) from None
        except OSError as exc:
            log.error("%s: cannot seat %s in the database: %s", conn, printable(name), exc)
            raise Refusal("unavailable", "the host cannot reach its database now") from None

    def open(self, conn: Connection, message: OpenTable) -> None:
        """Open a table that waits for players, the opener seated at it."""
        try:
            name = normalize_name(message.name)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        claim = self.host.gate.prove(name, message.token, message.code, conn.vouched)
        name = claim.name
        slots: list[Slot[Connection]]
        mine, slots = plan_seats(message.seats, name)
        options = table_options(message.small_tour, message.final_tours)
        move_time = checked_move_time(message.move_time)
        self._check_name_free(name, conn, move_time)
        owner = owner_key(name)
        self._check_quota(conn, owner, move_time)
        table_id = self.host.new_table_id()
        self._seat_everywhere(table_id, name, conn, move_time)
        address = address_key(conn.address)
        self.opens.add(owner, address)
        self.host.leave(conn)
        table = WaitingTable(table_id, slots, options, opener=owner, opener_address=address)
        table.rating_of = self.host.ratings.seat_rating_by_name
        table.provisional_of = self.host.ratings.provisional_by_name
        table.move_time = move_time
        self.waiting[table.id] = table
        table.take(name, conn, mine)
        table.opener_conn = conn
        conn.waiting = table
        conn.claim = claim
        self.host.proven(conn)
        log.info("%s opened table %s, %d seats free", conn, table.id, table.free_seats)
        if table.invited:  # the notify command tells each one invited (services/turns.py)
            self.host.events.publish(SeatsInvited(table.id, table.invited))
        self._filled(table)

    def join(
        self, conn: Connection, name: str, table: WaitingTable[Connection], message: Join
    ) -> None:
        claim = self.host.gate.prove(name, message.token, message.code, conn.vouched)
        name = claim.name
        mine = table.seat_of(conn)
        if mine is not None and (table.slots[mine].name or "").casefold() == name.casefold():
            self._announce(table)  # already there: say so again
            return
        if table.name_taken(name):
            raise Refusal("name_in_use", f"someone called {name} already sits at table {table.id}")
        self._check_name_free(name, conn, table.move_time)
        if table.free_seats == 0 and mine is None:
            raise Refusal("no_such_seat", f"table {table.id} has no free seat")
        kept = mine is not None and table.slots[mine].invited is not None
        if table.seat_for(name) is None and (mine is None or kept):
            raise Refusal(
                "no_such_seat",
                f"the free seats of table {table.id} are kept for the players invited",
            )
        self._seat_everywhere(table.id, name, conn, table.move_time)
        if mine is not None:  # the same connection, another name: its seat is taken again
            table.release(conn)
            conn.waiting = None
        self.host.leave(conn)
        table.take(name, conn)
        conn.waiting = table
        conn.claim = claim
        self.host.proven(conn)
        log.info("%s waits at table %s (%s)", conn, table.id, printable(name))
        self._filled(table)

    def _announce(self, table: WaitingTable[Connection]) -> None:
        self.host.events.publish(WaitingChanged(table))  # every host's lobby lists it
        seats = table.seat_infos()
        for seat, conn in table.holders:
            conn.send(Waiting(table.id, seat, seats))

    def _filled(self, table: WaitingTable[Connection]) -> None:
        """Start the game if no seat is free, else tell everyone at the table."""
        if table.free_seats:
            self._announce(table)
            return
        # Every seat is held: each holder's account (made now if new), then deal,
        # save the record and the owners, and seat everyone.
        accounts: dict[int, int] = {}
        tokens: dict[int, str | None] = {}
        for seat, conn in table.holders:
            claim = conn.claim
            try:
                if claim is None:
                    raise Refusal("unavailable", "the host lost who this seat's holder is")
                accounts[seat] = self.host.gate.commit(claim).id
            except Refusal as exc:  # someone took the name first: this holder goes
                log.warning("%s refused at table %s (%s)", conn, table.id, exc.code)
                conn.waiting = None
                conn.claim = None
                table.release(conn)
                conn.send(conn.refused(exc))
                self._announce(table)
                return
            tokens[seat] = claim.token
        del self.waiting[table.id]
        names = [slot.name for slot in table.slots if slot.conn is not None and slot.name]
        self.host.events.publish(WaitingStarted(table.id, names))
        self.host.deal(table, accounts, tokens)

    def _close_waiting(self, table: WaitingTable[Connection]) -> None:
        self.waiting.pop(table.id, None)
        self.host.events.publish(WaitingClosed(table.id))
        log.info("table %s closed: nobody waits at it", table.id)

    def _opener_left(self, table: WaitingTable[Connection]) -> None:
        """The opener of a waiting table left: the table closes, whoever waits is told."""
        table.opener_conn = None
        for _seat, other in table.holders:
            if other.waiting is table:
                other.waiting = None
                other.send(Left(table.id))
                other.send(
                    refusal("no_such_table", f"table {table.id} was closed: its opener left")
                )
        for slot in table.slots:
            if slot.kind == "human":
                slot.name, slot.conn = None, None
        if self.waiting.get(table.id) is table:
            self._close_waiting(table)

    def _turn_based(self, table: Room | WaitingTable[Connection]) -> bool:
        if isinstance(table, WaitingTable):
            return is_turn_based(table.move_time)
        return self.host.turns.turn_based(table)

    def _check_turn_cap(self, name: str) -> None:
        """Refuse (``too_many_tables``) a turn-based seat over the per-account cap
        (``Limits.turn_tables_per_account``)."""
        cap = self.host.config.limits.turn_tables_per_account
        held = sum(
            1
            for room in self.host.unfinished()
            if self.host.turns.turn_based(room) and room.referee.seat_of(name) is not None
        )
        held += sum(
            1
            for table in self.waiting.values()
            if is_turn_based(table.move_time)
            and any(s.name is not None and same_name(s.name, name) for s in table.slots)
        )
        if held >= cap:
            raise Refusal(
                "too_many_tables",
                f"{name} sits at {held} turn-based tables already, {cap} at most: finish one first",
            )
