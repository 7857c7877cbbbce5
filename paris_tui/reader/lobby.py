"""A host's lobby, read out: its tables as numbered lines; a number sits there or watches.

The full screen's lobby (``paris_tui.app.screens.lobby``) does more (it opens
tables); this one lists the tables, takes the seat reserved for the
player's name (or a free seat of a table that waits for players, then waits
for the game to start), or watches a game under way. A seat a table keeps for
the player's name (an invitation) is said after the list. ``who`` says who is
online (friends first), ``games`` the host's finished games (``games NAME``:
that player's), ``player NAME`` a player's page as lines (:mod:`.people`).
"""

from __future__ import annotations

import contextlib

from paris_tui.app.online.remote import JoinTarget, Link, LobbyStart

from ..core import printable
from ..core.text import InvalidNameError, normalize_name
from ..i18n import _, ngettext
from ..net.client import HostClient, HostClosedError, RefusedError, TokenStore
from ..net.protocol import ProtocolError, Seated, TableInfo, Waiting
from ..net.turns import move_time_words, tables_in_order, waiting_for
from ..wording import name_problem, refusal_reason
from .commands import parse, word_for
from .inbox import Inbox
from .lines import Lines
from .people import (
    invitation_lines,
    invite_help,
    invited_seat,
    lobby_command,
    people_help,
    say_games,
    say_player,
    say_who,
)

__all__ = ["lobby", "table_line"]


def table_line(n: int, info: TableInfo, me: str | None = None) -> str:
    """``1: table t1, Ann and Bob, move 3 of 40.`` (free seats and a finished game said;
    a table waiting for ``me``'s move says so and since when)."""
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
    kept = [printable(s.name) for s in info.seats if s.status == "free" and s.name]
    if info.waiting and kept:  # seats kept for invited names
        state = _("{state}, a seat kept for {names}").format(state=state, names=", ".join(kept))
    if any(t.table == info.table for t in waiting_for([info], me)):
        state = _("{state}, your move for {waited}").format(
            state=state, waited=move_time_words(info.waited or 0.0)
        )
    return _("{n}: table {table}, {players}, {state}.").format(
        n=n, table=printable(info.table), players=who, state=state
    )


async def lobby(
    target: JoinTarget, client: HostClient, tokens: TokenStore | None, out: Lines, inbox: Inbox
) -> Link | None:
    """The link to the table chosen (an :class:`~paris_tui.app.online.remote.Link`), or
    None to quit."""
    start = LobbyStart(target, client, tokens)
    name = target.name
    tables: list[TableInfo] = []
    again = True  # the list is said again (not after who, games or a player's page)
    while True:
        if again:
            try:
                tables = tables_in_order(await client.tables(), name)  # your move first
            except (RefusedError, HostClosedError, ProtocolError, OSError, TimeoutError):
                out.say(_("The host closed the connection."))
                return None
            out.say(_("The host's lobby.") if tables else _("No table is open on this host yet."))
            out.say(*(table_line(i + 1, info, name) for i, info in enumerate(tables)))
            out.say(*invitation_lines(tables, name))
            out.say(
                _(
                    "Type a table's number to sit there, {watch} and a number to watch it, "
                    "Enter to hear the list again, or {quit}."
                ).format(watch=pgettext_watch(), quit=word_for("quit")),
                _("{new} opens a table of your own.").format(new=word_for("new")),
                people_help(),
            )
        again = True
        line = await inbox.get()
        if line is None:
            return None
        text = line.text.strip()
        asked = lobby_command(text)
        if asked is not None:
            command, arg = asked
            kept = tokens.get(target.address, name) if tokens and name else None
            try:
                if command == "who":
                    await say_who(client, out, name, kept)
                elif command == "games":
                    await say_games(client, out, arg or None)
                else:
                    await say_player(client, out, arg or name)
            except RefusedError as exc:
                out.say(printable(refusal_reason(exc.code, exc.refused.message)))
            except (HostClosedError, ProtocolError, OSError, TimeoutError):
                out.say(_("The host closed the connection."))
                return None
            again = False  # a table's number still means the list just said
            continue
        parsed = parse(text, ("quit", "new"))
        if parsed.command == "quit":
            client.abort()
            return None
        if parsed.command == "new":
            if name is None:
                name = await _ask_name(out, inbox)
                if name is None:
                    continue
            link = await _open_table(start, name, out, inbox)
            if link is not None:
                return link
            continue
        watching = False
        words = text.split()
        if len(words) == 2 and words[0].casefold() in {"watch", pgettext_watch().casefold()}:
            watching, text = True, words[1]
        if not text.isdigit() or not 1 <= int(text) <= len(tables):
            continue
        info = tables[int(text) - 1]
        try:
            if watching or info.finished:
                # A named watcher watches and chats as that account (when a token
                # proves it): the host sends it no line of a writer it mutes.
                kept = tokens.get(target.address, name) if tokens and name else None
                joined = await client.watch(info.table, name=name if kept else None, token=kept)
                return start.link(joined, name)
            if name is None:
                name = await _ask_name(out, inbox)
                if name is None:
                    continue
            if info.waiting:
                sat = await client.sit(name, info.table)
                return start.link(await _until_seated(client, sat, out), name)
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


async def _ask_name(out: Lines, inbox: Inbox) -> str | None:
    """The player's name, typed (None: not a name, said why; or the input ended)."""
    out.say(_("Your name at this table? Type it and press Enter."))
    answer = await inbox.get()
    if answer is None:
        return None
    try:
        return normalize_name(answer.text)
    except InvalidNameError as exc:
        out.say(name_problem(exc))
        return None


async def _until_seated(client: HostClient, sat: Waiting | Seated, out: Lines) -> Seated:
    """Wait at a table that waits for players until its game starts."""
    while isinstance(sat, Waiting):
        free = sum(1 for s in sat.seats if s.status == "free")
        out.say(
            ngettext(
                "You sit at table {table}; waiting for {n} more player.",
                "You sit at table {table}; waiting for {n} more players.",
                free,
            ).format(table=printable(sat.table), n=free)
        )
        message = await client.receive()
        if isinstance(message, Seated | Waiting):
            sat = message
    return sat


async def _open_table(start: LobbyStart, name: str, out: Lines, inbox: Inbox) -> Link | None:
    """Open a table: the other seats typed as ``open`` or ``ai:LEVEL``, separated by commas."""
    out.say(
        _(
            "The other seats, separated by commas: {open} for a player from the lobby, "
            "or an AI level (ai:random, ai:easy, ai:greedy, ai:strong). For example: {example}."
        ).format(open="open", example="open, ai:strong")
    )
    out.say(invite_help())
    answer = await inbox.get()
    if answer is None:
        return None
    seats = ["me"]
    for part in answer.text.split(","):
        word = part.strip().lower()
        if word in ("open", "ai:random", "ai:easy", "ai:greedy", "ai:strong"):
            seats.append(word)
        elif invited_seat(part) is not None:
            seats.append(invited_seat(part) or "")
        elif word:
            out.say(_("Not a seat: {text}.").format(text=printable(part.strip()[:40])))
            return None
    if not 2 <= len(seats) <= 4:
        out.say(_("A table has 2 to 4 seats: you and 1 to 3 others."))
        return None
    try:
        sat = await start.client.open_table(name, tuple(seats))
        return start.link(await _until_seated(start.client, sat, out), name)
    except RefusedError as exc:
        out.say(printable(refusal_reason(exc.code, exc.refused.message)))
        return None


def pgettext_watch() -> str:
    return word_for("watch")
