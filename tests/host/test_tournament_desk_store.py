"""The store's reads for the lobbies (the tables' ids, the counts, one account's
entries), on SQLite and PostgreSQL by the same statements."""

from __future__ import annotations

from pathlib import Path

from paris_tui.host.tournaments.engine import Plan
from paris_tui.host.tournaments.pairing import Round, Table

from .test_tournament_store import opened


def test_the_lobbys_reads(tmp_path: Path, store: str | None) -> None:
    with opened(tmp_path, store) as kept:
        cup = kept.create("Cup", Plan("swiss", 2, 2), move_time=60, start=0)
        other = kept.create("Other", Plan("swiss", 2, 2), move_time=60, start=0)
        empty = kept.create("Empty", Plan("swiss", 2, 2), move_time=60, start=0)
        for account in (1, 2, 3):
            kept.enter(cup.id, account, f"p{account}", 0.0)
        kept.enter(other.id, 1, "p1", 0.0)
        kept.withdraw(cup.id, 3)
        assert kept.set_state(cup.id, "running")
        assert kept.add_round(cup.id, Round(1, (Table(("1", "2")),), ()))
        assert kept.table_ids(cup.id) == {}
        kept.open_table(cup.id, 1, 1, "t5")
        assert kept.table_ids(cup.id) == {(1, 1): "t5"}
        assert kept.table_ids(other.id) == {}
        counts = kept.counts()
        assert counts[cup.id] == (2, 1) and counts[other.id] == (1, 0)
        assert empty.id not in counts
        assert kept.entered(1) == {cup.id, other.id}
        assert kept.entered(3) == set()  # withdrew
        assert kept.entered(99) == set()
