"""A tournament's round that opens while the screen reader's player sits at another
table is said there at once, in one line, with the bell when it is on: where they sit,
and that ``quit`` goes to the lobby first (where ``sit`` takes the seat). A real host on
127.0.0.1 in this process; Ann came straight to her seat (never through the lobby)."""

from __future__ import annotations

from pathlib import Path

from paris_tui.host.events import RoundOpened
from paris_tui.reader.inbox import now
from paris_tui.reader.prefs import Prefs
from tests.app.test_chat_app import near_the_end
from tests.host.helpers import a_round_table, put_record, running_host

from .at_table import reader_at_table, said


async def test_a_round_opened_meanwhile_is_said_at_the_table_with_the_bell(
    tmp_path: Path,
) -> None:
    async with (
        running_host(tmp_path, ["ann,bob"]) as (host, port),
        reader_at_table(port, prefs=Prefs(bell=True)) as at,  # the bell is on
    ):
        await said(at.out, "ann")  # the game is said: the reader is at its table
        rung = len(at.stream.getvalue())
        host.events.publish(RoundOpened(3, "Winter Cup", 2, (("t7", ("bob", "ann")),)))
        line = await said(at.out, "Winter Cup")
        assert line == (
            "Winter Cup, tournament round 2: you sit at table t7 with bob. "
            "Type sit to take your seat. quit goes to the lobby first."
        )
        assert "\a" in at.stream.getvalue()[rung:]
        assert at.table.round_start is not None and at.table.round_start.seat == 1


async def test_a_tournament_tables_end_offers_no_rematch_by_ear(tmp_path: Path) -> None:
    # bob,ann; bob's move ends it
    put_record(tmp_path, "t1", a_round_table(near_the_end().record()))
    async with (
        running_host(tmp_path) as (host, port),
        reader_at_table(port, bot="bob") as at,
    ):
        assert at.table.tournament == "Winter Cup"
        out, inbox = at.out, at.inbox
        await at.bob.play_to_end()
        await said(out, "Type review for the strong AI's view of the moves")
        inbox.put("help", now() + 1)
        await said(out, "help")
        inbox.put("rematch", now() + 2)
        await said(out, "Type review, scores, help for all you can ask, or quit.")
        assert not any("rematch" in line.casefold() for line in out.said)
        assert not host.agreements.agreed
