"""A host's lobby, read out: its tables as numbered lines; a number sits there or watches.

The full screen's lobby (``paris_tui.app.screens.lobby``) does more (it opens
tables); this one lists the tables, takes the seat reserved for the
player's name (or a free seat of a table that waits for players, then waits
for the game to start), or watches a game under way.
"""

from __future__ import annotations

import contextlib

from ..app.remote import JoinTarget, Link, LobbyStart
from ..core import printable
from ..core.text import InvalidNameError, normalize_name
from ..i18n import _, ngettext
from ..net.client import HostClient, HostClosedError, RefusedError, TokenStore
from ..net.protocol import ProtocolError, Seated, TableInfo, Waiting
from ..wording import name_problem, refusal_reason
from .commands import parse, word_for
from .inbox import Inbox
from .lines import Lines

__all__ = ["lobby", "table_line"]


def table_line(n: int, info: TableInfo) -> str:
    """``1: table t1, Ann and Bob, move 3 of 40.`` (free seats and a finished game said)."""
    names = [printable(s.name) for s in info.seats if s.status != "free"]
    who = ", ".join(names) if names else _("nobody yet")
    if info.waiting:
        state = ngettext(
            "waiting for {n} more player", "waiting for {n} more players", info.free_seats
        ).format(n=info.free_seats)
    elif info.finished:
        state = _("finished")
    else:
        state = _("move {n} of {total}").format(n=info.move_count, total=info.total_moves)
    return _("{n}: table {table}, {players}, {state}.").format(
        n=n, table=printable(info.table), players=who, state=state
    )


async def lobby(
    target: JoinTarget, client: HostClient, tokens: TokenStore | None, out: Lines, inbox: Inbox
) -> Link | None:
    """The link to the table chosen (a :class:`~paris_tui.app.remote.Link`), or None to quit."""
    start = LobbyStart(target, client, tokens)
    name = target.name
    while True:
        try:
            tables = await client.tables()
        except (RefusedError, HostClosedError, ProtocolError, OSError, TimeoutError):
            out.say(_("The host closed the connection."))
            return None
        out.say(_("The host's lobby.") if tables else _("No table is open on this host yet."))
        out.say(*(table_line(i + 1, info) for i, info in enumerate(tables)))
        out.say(
            _(
                "Type a table's number to sit there, {watch} and a number to watch it, "
                "Enter to hear the list again, or {quit}."
            ).format(watch=pgettext_watch(), quit=word_for("quit"))
        )
        line = await inbox.get()
        if line is None:
            return None
        text = line.text.strip()
        parsed = parse(text, ("quit",))
        if parsed.command == "quit":
            client.abort()
            return None
        watching = False
        words = text.split()
        if len(words) == 2 and words[0].casefold() in {"watch", pgettext_watch().casefold()}:
            watching, text = True, words[1]
        if not text.isdigit() or not 1 <= int(text) <= len(tables):
            continue
        info = tables[int(text) - 1]
        try:
            if watching or info.finished:
                joined = await client.watch(info.table)
                return start.link(joined, None)
            if name is None:
                out.say(_("Your name at this table? Type it and press Enter."))
                answer = await inbox.get()
                if answer is None:
                    return None
                try:
                    name = normalize_name(answer.text)
                except InvalidNameError as exc:
                    out.say(name_problem(exc))
                    name = None
                    continue
            if info.waiting:
                sat = await client.sit(name, info.table)
                while isinstance(sat, Waiting):
                    out.say(
                        _("You sit at table {table}; waiting for the other players.").format(
                            table=printable(info.table)
                        )
                    )
                    message = await client.receive()
                    if isinstance(message, Seated | Waiting):
                        sat = message
                return start.link(sat, name)
            token = tokens.get(target.address, name) if tokens is not None else None
            seated = await client.join(name, token, info.table)
            return start.link(seated, name)
        except RefusedError as exc:
            out.say(printable(refusal_reason(exc.code, exc.refused.message)))
        except (HostClosedError, ProtocolError, OSError, TimeoutError):
            out.say(_("The host closed the connection."))
            with contextlib.suppress(OSError):
                client.abort()
            return None


def pgettext_watch() -> str:
    return word_for("watch")
