"""The local game behind the Table interface: a session's moves, refusals and AI seats."""

from __future__ import annotations

from paris_tui.app.local.session import SessionTable
from paris_tui.app.screens.game import LocalBots
from paris_tui.core import Event, Move
from paris_tui.net.protocol import ErrorCode
from paris_tui.net.table import Table

from .helpers import new_session


class Listener:
    def __init__(self) -> None:
        self.changes: list[tuple[Event, ...]] = []
        self.refusals: list[ErrorCode] = []

    def table_changed(self, table: Table, events: tuple[Event, ...]) -> None:
        self.changes.append(events)

    def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
        self.refusals.append(code)

    def table_presence(self, table: Table) -> None:
        raise AssertionError("a local table has no presence changes")

    def table_closed(self, table: Table, reason: str) -> None:
        raise AssertionError("a local table does not close")


def test_a_session_table_answers_before_submit_returns_and_refuses_like_a_referee() -> None:
    session = new_session("Ann,Bob,ai:greedy", 3, None)
    table = SessionTable(session)
    listener = Listener()
    table.add_listener(listener)
    assert table.local_seats == (0, 1)
    assert [s.status for s in table.seats] == ["present", "present", "ai"]
    assert isinstance(table, LocalBots)
    assert table.local_bot(0) is None and table.local_bot(2) is not None
    first = table.view(0).legal_moves[0]
    table.submit(1, first, 0)  # Bob out of turn
    table.submit(0, first, 5)  # chosen on another position
    table.submit(0, Move("louvre/nowhere"), 0)  # against the rules
    assert listener.refusals == ["not_your_turn", "stale", "illegal"]
    assert session.move_count == 0 and listener.changes == []
    table.submit(0, first, 0)
    assert session.move_count == 1 and len(listener.changes) == 1
    assert table.events == tuple(session.events) == listener.changes[0]
    while not table.view(None).is_over:
        seat = table.view(None).to_move
        assert seat is not None
        table.submit(seat, table.view(seat).legal_moves[0], table.move_count)
    table.submit(0, first, table.move_count)
    assert listener.refusals[-1] == "game_over"
    assert sum(len(c) for c in listener.changes) == len(session.events)


def test_a_refusal_is_worded_in_the_players_language() -> None:
    from paris_tui import i18n

    session = new_session("Ann,Bob", 3, None)
    table = SessionTable(session)
    said: list[str] = []

    class Words(Listener):
        def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
            said.append(message)

    table.add_listener(Words())
    first = table.view(0).legal_moves[0]
    table.submit(1, first, 0)
    i18n.set_language("de")
    table.submit(1, first, 0)
    table.submit(0, Move("louvre/nowhere"), 0)  # the core's code, worded
    i18n.set_language("zh-TW")
    table.submit(1, first, 0)
    assert said == [
        "it is Ann's turn",
        "du bist nicht am Zug",
        "dieses Plättchen gibt es auf diesem Plan nicht",
        "還沒輪到你",
    ]
