"""What the ``paris-tui`` commands call with ``--screen-reader``: the same games, read out.

Each function returns an exit status, as :mod:`paris_tui.app.start.launch` does
(the same checks and the same one-line problems on standard error); none
needs a terminal, and none imports Textual.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..core import Options, RecordError, printable
from ..core.record import Record
from ..i18n import _, ngettext
from ..wording import record_problem
from . import say
from .inbox import Inbox
from .lines import Lines
from .prefs import Prefs

__all__ = ["run_default", "run_join", "run_play", "run_replay", "run_resume"]

EXIT_USAGE = 2


def _fail(message: str, status: int = EXIT_USAGE) -> int:
    print(f"paris-tui: {message}", file=sys.stderr)
    return status


def _stdout() -> TextIO:
    """Standard output that never fails on a character its encoding lacks (a Latin-1
    terminal shows ``?`` for a Chinese name rather than the game stopping)."""
    stream = sys.stdout
    with contextlib.suppress(AttributeError, ValueError):
        stream.reconfigure(errors="replace")  # type: ignore[union-attr]
    return stream


def _delay(ai_delay: float | None) -> float:
    return 0.0 if ai_delay is None else max(0.0, ai_delay)


def _history() -> Any:
    from paris_tui.app.local.history import History
    from paris_tui.app.local.storage import data_dir

    return History.in_data_dir(data_dir())


def _serve(body: Callable[[Lines, Inbox], Awaitable[int]]) -> int:
    """Run ``body`` with the terminal's lines out and in."""
    out = Lines(_stdout())

    async def main() -> int:
        inbox = Inbox()
        inbox.start(sys.stdin.fileno())
        return await body(out, inbox)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


def _saved_words() -> str:
    return _("The game is saved. Resume it with: {command}").format(
        command="paris-tui resume --screen-reader"
    )


async def _play_session(session: Any, out: Lines, inbox: Inbox, ai_delay: float) -> int:
    from paris_tui.app.local.session import SessionTable

    from .play import Reader

    try:
        table = SessionTable(session)
        reader = Reader(
            table,
            out,
            inbox,
            ai_delay=ai_delay,
            history=_history(),
            quit_words=None if session.view(None).is_over else _saved_words(),
            prefs=Prefs.load(),
        )
        return await reader.run()
    finally:
        session.close()


def run_play(players: str, *, seed: int | None, options: Options, ai_delay: float | None) -> int:
    """``paris-tui play --players "Ann,Bob" --screen-reader``."""
    from paris_tui.app.local.session import Session, play_seats
    from paris_tui.app.local.storage import clean_saves

    try:
        seats = play_seats(players, seed=seed, ai_delay=ai_delay)
    except ValueError as exc:
        return _fail(str(exc))
    clean_saves()
    try:
        session = Session.new_saved(seats, seed=seed, options=options)
    except OSError as exc:
        reason = printable(str(exc.strerror or exc))
        return _fail(_("cannot write the autosave: {reason}").format(reason=reason))
    return _serve(lambda out, inbox: _play_session(session, out, inbox, _delay(ai_delay)))


def run_resume(path: Path | None, *, ai_delay: float | None) -> int:
    """``paris-tui resume [FILE] --screen-reader``."""
    from paris_tui.app.local.locks import GameInUseError
    from paris_tui.app.local.session import Session
    from paris_tui.app.local.storage import find_unfinished, open_save, read_save
    from paris_tui.app.start.launch import _untouched

    if path is None:
        info, _problems = find_unfinished()
        if info is None:
            return _fail(
                _("no unfinished game to resume; start one with: {command}").format(
                    command="paris-tui play"
                )
            )
    else:
        try:
            info = read_save(path)
        except RecordError as exc:
            return _fail(_untouched(printable(str(path)), record_problem(exc)))
    try:
        info, lock = open_save(info.path)
    except GameInUseError:
        return _fail(
            _("{path} is open in another copy of paris-tui").format(path=printable(str(info.path))),
            1,
        )
    except RecordError as exc:
        return _fail(_untouched(printable(str(info.path)), record_problem(exc)))
    except OSError as exc:
        reason = printable(str(exc.strerror or exc))
        return _fail(
            _("cannot resume {path}: cannot write beside it: {reason}").format(
                path=printable(str(info.path)), reason=reason
            )
        )
    session = Session.from_record(info.record, info.path, lock=lock)
    return _serve(lambda out, inbox: _play_session(session, out, inbox, _delay(ai_delay)))


def run_replay(record: Record, path: Path) -> int:
    """``paris-tui replay FILE --screen-reader``: step by step with ``next`` and ``back``."""
    from .replay import ReplayReader

    return _serve(lambda out, inbox: ReplayReader(record, out, inbox).run())


def resume_choice(names: Sequence[str], moves: int, total: int) -> str:
    """The first numbered choice: the unfinished game, its players as the game names them
    (an AI seat by its level, in the player's language)."""
    from ..wording import shown_name

    return _("1: resume the game of {names}, after {n} of {total} moves.").format(
        names=", ".join(shown_name(name) for name in names), n=moves, total=total
    )


def players_count_problem(text: str) -> str | None:
    """What is wrong with the number of players typed at the new game's prompt, as a
    sentence (the command line's words name its option, ``--players``), else None."""
    n = len(text.split(","))
    if 2 <= n <= 4:
        return None
    return ngettext(
        "That is {n} player: type 2 to 4 players, separated by commas.",
        "That is {n} players: type 2 to 4 players, separated by commas.",
        n,
    ).format(n=n)


def run_default(*, ai_delay: float | None) -> int:
    """``paris-tui --screen-reader``: resume the unfinished game, or a new one, as numbered
    choices."""
    from paris_tui.app.local.session import PlayersError, Session, parse_players
    from paris_tui.app.local.storage import clean_saves, find_unfinished, open_save

    from .commands import parse, word_for

    clean_saves()
    info, _problems = find_unfinished()

    async def body(out: Lines, inbox: Inbox) -> int:
        if info is not None and not info.in_use:
            names = [p.name for p in info.record.players]
            out.say(
                resume_choice(names, info.moves, info.total_moves),
                _("2: a new game. 3: quit. Type a number."),
            )
            while True:
                line = await inbox.get()
                if line is None:
                    return 0
                parsed = parse(line.text, ("quit",))
                if parsed.number == 1:
                    try:
                        found, lock = open_save(info.path)
                    except (OSError, RecordError) as exc:
                        out.say(str(exc))
                        break
                    session = Session.from_record(found.record, found.path, lock=lock)
                    return await _play_session(session, out, inbox, _delay(ai_delay))
                if parsed.number == 2:
                    break
                if parsed.number == 3 or parsed.command == "quit":
                    return 0
                out.say(_("Type 1, 2 or 3."))
        out.say(
            _("A new game. Type the players separated by commas, for example: {example}.").format(
                example="Ann, ai:strong"
            ),
            _("AI levels: random, easy, greedy, strong, expert. Or type {quit}.").format(
                quit=word_for("quit")
            ),
        )
        while True:
            line = await inbox.get()
            if line is None:
                return 0
            if parse(line.text, ("quit",)).command == "quit":
                return 0
            count_problem = players_count_problem(line.text)
            if count_problem is not None:
                out.say(count_problem)
                continue
            try:
                seats = parse_players(line.text)
            except PlayersError as exc:
                out.say(exc.words())
                continue
            try:
                session = Session.new_saved(seats)
            except OSError as exc:
                out.say(
                    _("cannot write the autosave: {reason}").format(
                        reason=printable(str(exc.strerror or exc))
                    )
                )
                return 1
            return await _play_session(session, out, inbox, _delay(ai_delay))

    return _serve(body)


def run_join(
    address: str,
    *,
    name: str | None,
    table: str | None,
    watch: str | None,
    data_dir: Path | None,
) -> int:
    """``paris-tui join HOST:PORT --name NAME --screen-reader`` (the lobby without a seat)."""
    import os

    from paris_tui.app.online.remote import (
        JoinError,
        JoinTarget,
        Link,
        connect,
        open_link,
        parse_address,
    )

    from ..host.child import TICKET_ENV, die_with_parent
    from ..net.client import TokenStore
    from .lobby import lobby
    from .play import Reader

    die_with_parent()
    ticket = os.environ.pop(TICKET_ENV, None) or None
    from paris_tui.app.online import remote

    remote.AT_DOOR = ticket is not None  # started by a door: no internal address shown
    try:  # HOST:PORT, or several hosts of one server, as the app: a:7337,b:7338
        addresses = [parse_address(part.strip()) for part in address.split(",")[:16]]
    except ValueError as exc:
        return _fail(str(exc))
    host, port = addresses[0]
    if watch is not None and table is not None:
        # With --name, the watcher watches (and chats) as that account, proven as a join.
        return _fail(
            _("{option} watches a table: give it without {other}").format(
                option="--watch", other="--table"
            )
        )
    target = JoinTarget(host, port, name, table, watch, tuple(addresses[1:]))
    try:
        target = target.checked()
    except JoinError as exc:
        return _fail(exc.message, exc.status)
    if data_dir is None:
        from paris_tui.app.local.storage import data_dir as default_data_dir

        data_dir = default_data_dir()
    tokens = TokenStore(data_dir / "tokens.json") if ticket is None else None

    async def main() -> int:
        out = Lines(_stdout())
        out.bell = Prefs.load(data_dir).bell  # the lobby rings when a tournament round opens
        link: Link | None = None
        try:
            if name is not None or watch is not None:
                try:
                    link = await open_link(target, tokens, ticket)
                except JoinError as exc:
                    if exc.code != "no_such_seat":
                        raise
            if link is None:
                client = await connect(target)
                inbox = Inbox()
                inbox.start(sys.stdin.fileno())
                link = await lobby(target, client, tokens, out, inbox, ticket)
                if link is None:
                    return 0
            else:
                inbox = Inbox()
                inbox.start(sys.stdin.fileno())
        except JoinError as exc:
            return _fail(exc.message, exc.status)
        from dataclasses import replace

        from paris_tui.app.local.history import History

        assert link is not None
        history = History.in_data_dir(data_dir)
        # The host's lobby is beneath every table: quit at a table (or after its game)
        # comes back to it, a rematch goes on to its table; only the lobby's quit ends.
        while True:
            reader = Reader(
                link.table,
                out,
                inbox,
                history=history,
                follow=_follower(link, out),
                quit_words=_("You left the table for the host's lobby; your seat stays yours."),
                prefs=Prefs.load(data_dir),
            )
            try:
                await reader.run()
            finally:
                await link.close()
            home = replace(target, name=link.target.name or target.name, table=None, watch=None)
            if reader.next_table is not None:
                try:
                    again = replace(home, table=reader.next_table)
                    link = await open_link(again, tokens, link.token or ticket)
                    continue
                except JoinError as exc:
                    out.say(printable(exc.message))
            try:
                client = await connect(home)
            except JoinError as exc:
                return _fail(exc.message, exc.status)
            joined = await lobby(home, client, tokens, out, inbox, ticket)
            if joined is None:
                return 0
            link = joined

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


def _follower(link: Any, out: Lines) -> Any:
    """The reader's ``follow`` for ``link``: reconnect, say why, ask to go on."""

    async def follow(reader: Any) -> None:
        def lost(reason: str, attempt: int) -> None:
            reader.set_connection(reason)
            out.say(say.connection_line(reason, attempt))

        async def ask(problem: str) -> bool:
            out.say(printable(problem))
            return bool(await reader.ask_yes_no(_("Go on trying to reach the host?")))

        await link.follow(lost, reader.rebind, ask)
        reader.updates.put_nowait(("gone", None))

    return follow


def run_review(path: Path, *, seed: int, simulations: int) -> int:
    """``paris-tui review FILE --screen-reader``: the review as sentences."""
    from ..ai.review import review
    from ..core import ParisError
    from ..core.record import load_record
    from ..core.record import replay as replay_record
    from .end import review_lines

    if simulations < 1:
        return _fail(_("{option} must be at least {n}").format(option="--simulations", n=1))
    try:
        record = load_record(path)
    except ParisError as exc:
        reason = record_problem(exc) if isinstance(exc, RecordError) else str(exc)
        return _fail(
            _("invalid record {path}: {reason}").format(path=printable(str(path)), reason=reason)
        )
    out = Lines(_stdout())
    out.say(_("Reviewing the game: this takes a few seconds."))
    reviews = review(record, seed=seed, simulations=simulations)
    view = replay_record(record).view(None)
    out.say(*review_lines(view, reviews, range(len(record.players))))
    return 0
