"""A host's lobby, read out: its tables as numbered lines; a number sits there or watches.

The full screen's lobby (``paris_tui.app.screens.lobby``) does more (it opens
tables); this one lists the tables, takes the seat reserved for the
player's name (or a free seat of a table that waits for players, then waits
for the game to start), or watches a game under way. A seat a table keeps for
the player's name (an invitation) is said after the list. ``who`` says who is
online (friends first), ``games`` the host's finished games (``games NAME``:
that player's), ``player NAME`` a player's page as lines (:mod:`.people`).
The host's tournaments (``tournaments``, ``tournament NAME``, ``enter``,
``withdraw``, ``sit``, ``replay TABLE``) are in :mod:`.tournaments`; while the
lobby waits for a line it hears the host, so a tournament round that opens
with the player at a table is said at once; ``watch TABLE`` watches a table by
its name, as a tournament's page says it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from paris_tui.app.online.remote import JoinTarget, Link, LobbyStart

from ..core import RecordError, printable
from ..core.text import InvalidNameError, normalize_name
from ..i18n import _, ngettext
from ..net.client import HostClient, HostClosedError, RefusedError, TokenStore
from ..net.protocol import ProtocolError, Seated, TableInfo, Waiting
from ..net.turns import move_time_words, tables_in_order, waiting_for
from ..wording import name_problem, record_problem, refusal_reason, shown_name
from .commands import COMMANDS, fold, parse, word_for
from .friends import ReaderFriends
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
from .replay import ReplayReader
from .say import closed_reason
from .tournaments import TIMEOUT, ReaderTournaments, asked, tournaments_help

__all__ = ["closed_words", "lobby", "table_line"]


def closed_words(exc: BaseException) -> str:
    """Why the connection to the host ended, as a sentence (never just "closed")."""
    if isinstance(exc, HostClosedError):
        why = closed_reason(exc.reason)
    elif isinstance(exc, TimeoutError):
        why = _("it did not answer in time")
    elif isinstance(exc, ProtocolError):
        why = _("it sent something this program cannot read")
    elif isinstance(exc, RefusedError):
        why = printable(refusal_reason(exc.code, exc.refused.message))
    else:
        why = printable(str(getattr(exc, "strerror", None) or exc))
    return _("The host closed the connection: {why}.").format(why=why)


class Closed(Exception):
    """The host hung up while the lobby waited (its words: :func:`closed_words`)."""


async def _typed(client: HostClient, inbox: Inbox) -> str | None:
    """The next line typed (None: the input ended), the host's pings answered meanwhile;
    each other message the host sends meanwhile goes to the client's listener (the
    lobby's tournaments: a round opened, a friend here) at once."""
    try:
        line = await client.while_waiting(inbox.get())
    except (HostClosedError, ProtocolError, OSError) as exc:
        raise Closed(closed_words(exc)) from exc
    return None if line is None else line.text


def table_line(n: int, info: TableInfo, me: str | None = None) -> str:
    """``1: table t1, Ann and Bob, move 3 of 40.`` (free seats and a finished game said;
    a table waiting for ``me``'s move says so and since when)."""
    names = [shown_name(s.name) for s in info.seats if s.status != "free"]
    who = ", ".join(names) if names else _("nobody yet")
    if info.waiting:
        state = ngettext(
            "waiting for {n} more player", "waiting for {n} more players", info.free_seats
        ).format(n=info.free_seats)
    elif info.finished and info.aborted:
        state = _("aborted, unrated")
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
    target: JoinTarget,
    client: HostClient,
    tokens: TokenStore | None,
    out: Lines,
    inbox: Inbox,
    ticket: str | None = None,
) -> Link | None:
    """The link to the table chosen (an :class:`~paris_tui.app.online.remote.Link`), or
    None to quit. ``ticket``: a door's proof of this person (its friends)."""
    try:
        return await _lobby(target, client, tokens, out, inbox, ticket)
    except Closed as exc:
        out.say(str(exc))
        with contextlib.suppress(OSError):
            client.abort()
        return None
    finally:
        client.hear = None  # at the table, its own loop reads what the host sends


async def _lobby(
    target: JoinTarget,
    client: HostClient,
    tokens: TokenStore | None,
    out: Lines,
    inbox: Inbox,
    ticket: str | None,
) -> Link | None:
    start = LobbyStart(target, client, tokens)
    friends = ReaderFriends(client, tokens, target.address, ticket)
    tours = ReaderTournaments(client, out, tokens, target.address, ticket)
    # What the host sends unasked, while a line is typed or a request waits for its
    # answer (who, games, a page): a round opened, a friend arrived, said at once.
    client.hear = tours.hear
    name = target.name
    typed_ahead: str | None = None  # a command typed at the name prompt, done here
    tables: list[TableInfo] = []
    again = True  # the list is said again (not after who, games or a player's page)
    while True:
        if again:
            try:
                tables = tables_in_order(await client.tables(TIMEOUT), name)  # your move first
            except (RefusedError, HostClosedError, ProtocolError, OSError, TimeoutError) as exc:
                out.say(closed_words(exc))
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
                _(
                    "{friends} reads your friends; {friends} and a name asks them, accepts "
                    "their request, or removes a friend."
                ).format(friends=word_for("friends")),
                people_help(),
            )
            if tours.spoken:
                out.say(tournaments_help())
            try:
                await tours.listen(name)  # once: the host tells it when a round seats you
            except (HostClosedError, ProtocolError, OSError, TimeoutError) as exc:
                out.say(closed_words(exc))
                return None
        again = True
        if typed_ahead is not None:
            text, typed_ahead = typed_ahead, None
        else:
            typed = await _typed(client, inbox)
            if typed is None:
                return None
            text = typed.strip()
        tour = asked(text)
        if tour is not None:
            if tour.command in ("enter", "withdraw", "sit") and name is None:
                name, typed_ahead = await _ask_name(client, out, inbox)
                if name is None:
                    continue
            try:
                link = await _tournament(start, tours, tour.command, tour.arg, name, inbox)
            except RefusedError as exc:
                out.say(printable(refusal_reason(exc.code, exc.refused.message)))
                link = None
            except (HostClosedError, ProtocolError, OSError, TimeoutError) as exc:
                out.say(closed_words(exc))
                with contextlib.suppress(OSError):
                    client.abort()
                return None
            if link is not None:
                return link
            again = tour.command == "replay"  # back from a replay: the list again
            continue
        said = lobby_command(text)
        if said is not None:
            command, arg = said
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
            except (HostClosedError, ProtocolError, OSError, TimeoutError) as exc:
                out.say(closed_words(exc))
                return None
            again = False  # a table's number still means the list just said
            continue
        parsed = parse(text, ("quit", "new", "friends"))
        if parsed.command == "quit":
            client.abort()
            return None
        if parsed.command == "friends":
            if name is None:
                name, typed_ahead = await _ask_name(client, out, inbox)
                if name is None:
                    continue
            friend = text.split(None, 1)[1] if len(text.split(None, 1)) > 1 else ""
            if not await friends.command(name, friend, out):
                return None
            continue
        if parsed.command == "new":
            if name is None:
                name, typed_ahead = await _ask_name(client, out, inbox)
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
        if watching and not text.isdigit():  # a table by its name: a tournament's
            info = _named_table(text, tables)
            if info is None:
                continue
        elif not text.isdigit() or not 1 <= int(text) <= len(tables):
            continue
        else:
            info = tables[int(text) - 1]
        try:
            if watching or info.finished:
                # A named watcher watches and chats as that account (when a token
                # proves it): the host sends it no line of a writer it mutes.
                kept = tokens.get(target.address, name) if tokens and name else None
                joined = await client.watch(info.table, name=name if kept else None, token=kept)
                return start.link(joined, name)
            if name is None:
                name, typed_ahead = await _ask_name(client, out, inbox)
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
        except (HostClosedError, ProtocolError, OSError, TimeoutError) as exc:
            out.say(closed_words(exc))
            with contextlib.suppress(OSError):
                client.abort()
            return None


def _named_table(text: str, tables: Sequence[TableInfo]) -> TableInfo | None:
    """The table of the host's list named ``text`` (a tournament's page names its tables),
    or None."""
    key = text.strip().casefold()
    for info in tables:
        if info.table == key:
            return info
    return None


async def _tournament(
    start: LobbyStart,
    tours: ReaderTournaments,
    command: str,
    arg: str,
    name: str | None,
    inbox: Inbox,
) -> Link | None:
    """A tournament command done: the link to the seat ``sit`` takes, else None (said
    what happened). Raises :class:`RefusedError` (a seat's join refused)."""
    client, out = start.client, tours.out
    if command == "tournaments":
        await tours.say_list(name)
    elif command == "tournament":
        await tours.say_page(arg, name)
    elif command in ("enter", "withdraw"):
        assert name is not None
        await tours.change(command, arg, name)
    elif command == "sit":
        assert name is not None
        seat = await tours.seat_for(name)
        if seat is not None:
            seated = await client.join(name, tours.token(name), seat.table)
            return start.link(seated, name)
    elif command == "replay":
        await _replay(client, out, inbox, arg)
    return None


async def _replay(client: HostClient, out: Lines, inbox: Inbox, table: str) -> None:
    """A finished table's game step by step (the host's public record of it)."""
    if not table.strip():
        out.say(
            _("Which table? Type {replay} and the table, as a tournament's page names it.").format(
                replay=word_for("replay")
            )
        )
        return
    from ..core.record import parse_record

    try:
        sent = await client.record(table.strip().casefold())
    except RefusedError as exc:
        out.say(printable(refusal_reason(exc.code, exc.refused.message)))
        return
    try:
        record = parse_record(sent.record)
    except RecordError as exc:
        out.say(record_problem(exc))
        return
    # The lobby's connection answers the host's pings while the game is read.
    await client.while_waiting(ReplayReader(record, out, inbox).run())


def _command_word(text: str) -> bool:
    """Whether ``text`` is a command's word (in English or the player's language), alone
    or with a number (``watch 1``): no name."""
    words = fold(text).split()
    if not words or len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
        return False
    return any(words[0] in (fold(c), fold(word_for(c))) for c in COMMANDS)


async def _ask_name(client: HostClient, out: Lines, inbox: Inbox) -> tuple[str | None, str | None]:
    """The player's name, typed: ``(name, None)``; or ``(None, None)``: none (the input
    ended, ``quit``, or not a name: said why); or ``(None, text)``: a lobby command typed
    instead (``watch 1``, ``new``, ``tournaments``), for the lobby to do."""
    question = _("Your name at this table? Type it and press Enter, or {quit} to go back.").format(
        quit=word_for("quit")
    )
    out.say(question)
    while True:
        text = await _typed(client, inbox)
        if text is None:
            return None, None
        text = text.strip()
        if not text:
            out.say(question)
            continue
        if asked(text) is not None and _command_word(text.split()[0]):
            return None, text  # a tournament's word in full (a start of one may be a name)
        parsed = parse(text, ("quit", "cancel", "help", "watch", "new"))
        if _command_word(text):
            if parsed.command in ("quit", "cancel"):
                return None, None
            if parsed.command in ("watch", "new"):
                return None, text
            out.say(
                _("{text} is a command's word, not a name: type your name, or {quit}.").format(
                    text=printable(text), quit=word_for("quit")
                )
            )
            continue
        try:
            return normalize_name(text), None
        except InvalidNameError as exc:
            out.say(name_problem(exc))
            return None, None


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
        elif client.hear is not None:
            client.hear(message)  # a round opened meanwhile, a friend here: said
    return sat


async def _open_table(start: LobbyStart, name: str, out: Lines, inbox: Inbox) -> Link | None:
    """Open a table: the other seats typed as ``open`` or ``ai:LEVEL``, separated by commas."""
    open_word = word_for("open")
    out.say(
        _(
            "The other seats, separated by commas: {open} for a player from the lobby, "
            "or an AI level (ai:random, ai:easy, ai:greedy, ai:strong, ai:expert). "
            "For example: {example}."
        ).format(open=open_word, example=f"{open_word}, ai:strong")
    )
    out.say(invite_help())
    answer = await _typed(start.client, inbox)
    if answer is None:
        return None
    seats = ["me"]
    for part in answer.split(","):
        word = part.strip().lower()
        if fold(word) in (fold("open"), fold(open_word)):
            seats.append("open")
        elif word in ("ai:random", "ai:easy", "ai:greedy", "ai:strong", "ai:expert"):
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
