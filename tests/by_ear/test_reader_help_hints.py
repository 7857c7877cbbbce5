"""Help by ear at a host's table says what the table allows: a host without hints
(the default; ``host --hints`` allows them) is not offered ``hint`` in help, since
typing it is only answered that the host does not allow hints."""

from __future__ import annotations

from pathlib import Path

from paris_tui.reader.inbox import now
from tests.host.helpers import running_host

from .at_table import reader_at_table, said


async def test_help_at_a_host_without_hints_does_not_offer_hint(tmp_path: Path) -> None:
    async with (
        running_host(tmp_path, ["ann,bob"]) as (_host, port),
        reader_at_table(port, bot="bob") as at,
    ):
        assert not at.table.hints_allowed
        out, inbox = at.out, at.inbox
        await said(out, "Your turn, ann")
        inbox.put("help", now() + 1)
        line = await said(out, "the latest events again")
        assert "{last}" not in line and "leave" in line, line
        assert "hint" not in line and "suggestion" not in line, line
        inbox.put("hint", now() + 2)
        await said(out, "This host does not allow hints.")
