"""What the ``paris-tui`` commands call to open the app.

Each function returns an exit status. Expected problems (bad ``--players``,
a save that cannot be read, no game to resume) become one clear line on
standard error and status 2; a save file that cannot be read is never
changed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from paris_tui.core import Options, RecordError, printable
from paris_tui.core.record import Record
from paris_tui.i18n import _, ngettext
from paris_tui.wording import record_problem

__all__ = ["run_default", "run_join", "run_play", "run_replay", "run_resume"]

EXIT_USAGE = 2
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The ``TEXTUAL_DRIVER`` that textual-serve sets for the apps it runs."""


def _fail(message: str, status: int = EXIT_USAGE) -> int:
    print(f"paris-tui: {message}", file=sys.stderr)
    return status


def _delay(ai_delay: float | None) -> float:
    from paris_tui.app.app import DEFAULT_AI_DELAY

    if ai_delay is None:
        return DEFAULT_AI_DELAY
    return max(0.0, ai_delay)


def _terminal_problem() -> str | None:
    """Why the app cannot run here, or None: it reads keys from standard input and
    draws on standard error (as Textual does), so both must be a terminal.

    Without this, ``paris-tui play ... </dev/null`` spun at 99% CPU for ever.
    A browser door (textual-serve) runs the app with Textual's web driver, which
    reads keys from and draws to pipes: no terminal is needed there.
    """
    if os.environ.get("TEXTUAL_DRIVER", "").strip() == WEB_DRIVER:
        return None
    problems = (
        _(
            "this command opens the game, which needs a terminal: standard input "
            "is not one (for scripts: {example})"
        ),
        _(
            "this command opens the game, which needs a terminal: standard error "
            "is not one (for scripts: {example})"
        ),
    )
    for problem, stream in zip(problems, (sys.__stdin__, sys.__stderr__), strict=True):
        try:
            ok = stream is not None and stream.isatty()
        except (OSError, ValueError):  # closed or detached
            ok = False
        if not ok:
            return problem.format(example="paris-tui replay FILE --json")
    return None


def _run(app: object) -> int:
    from paris_tui.app.app import ParisApp
    from paris_tui.app.local.storage import clean_saves

    assert isinstance(app, ParisApp)
    clean_saves()  # temporary and lock files that killed copies left in saves/
    if app.history is None:
        from paris_tui.app.local.history import History
        from paris_tui.app.local.storage import data_dir

        app.history = History.in_data_dir(data_dir())
    app.run()
    code = app.return_code
    return 0 if code is None else int(code)


def _app_class() -> type:
    try:
        from paris_tui.app.app import ParisApp
    except FileNotFoundError as exc:  # the stylesheets are missing from the install
        raise SystemExit(_fail(str(exc))) from None
    return ParisApp


def run_play(players: str, *, seed: int | None, options: Options, ai_delay: float | None) -> int:
    """``paris-tui play --players "Ann,Bob"``: a new game, straight to the first turn."""
    from paris_tui.app.local.session import Session, play_seats

    try:
        seats = play_seats(players, seed=seed, ai_delay=ai_delay)
    except ValueError as exc:
        return _fail(str(exc))
    problem = _terminal_problem()
    if problem:
        return _fail(problem)
    app_class = _app_class()
    try:
        session = Session.new_saved(seats, seed=seed, options=options)
    except OSError as exc:
        reason = printable(str(exc.strerror or exc))
        return _fail(_("cannot write the autosave: {reason}").format(reason=reason))
    return _run(app_class(session=session, ai_delay=_delay(ai_delay)))


def run_resume(path: Path | None, *, ai_delay: float | None) -> int:
    """``paris-tui resume [FILE]``: the latest unfinished autosave, or FILE.

    A game that another copy of the app has open is not resumed: the app
    says so and offers to watch it read-only.
    """
    from paris_tui.app.local.locks import GameInUseError
    from paris_tui.app.local.session import Session
    from paris_tui.app.local.storage import find_unfinished, open_save, read_save

    if path is None:
        info, problems = find_unfinished()
        if info is None:
            if not problems:
                return _fail(
                    _("no unfinished game to resume; start one with: {command}").format(
                        command="paris-tui play"
                    )
                )
            return _fail(
                ngettext(
                    "no unfinished game to resume ({n} unreadable save file left untouched); "
                    "start one with: {command}",
                    "no unfinished game to resume ({n} unreadable save files left untouched); "
                    "start one with: {command}",
                    len(problems),
                ).format(n=len(problems), command="paris-tui play")
            )
    else:
        try:
            info = read_save(path)
        except RecordError as exc:
            return _fail(_untouched(printable(str(path)), record_problem(exc)))
    problem = _terminal_problem()
    if problem:
        return _fail(problem)
    app_class = _app_class()
    try:
        info, lock = open_save(info.path)
    except GameInUseError:
        return _run(app_class(locked=info, ai_delay=_delay(ai_delay)))
    except RecordError as exc:
        return _fail(_untouched(printable(str(info.path)), record_problem(exc)))
    except OSError as exc:
        where = printable(str(info.path))
        reason = printable(str(exc.strerror or exc))
        return _fail(
            _("cannot resume {path}: cannot write beside it: {reason}").format(
                path=where, reason=reason
            )
        )
    session = Session.from_record(info.record, info.path, lock=lock)
    return _run(app_class(session=session, ai_delay=_delay(ai_delay)))


def _untouched(path: str, reason: str) -> str:
    return _("cannot resume {path}: {reason} (the file was left untouched)").format(
        path=path, reason=reason
    )


def run_replay(record: Record, path: Path) -> int:
    """``paris-tui replay FILE``: step through a recorded game."""
    problem = _terminal_problem()
    if problem:
        return _fail(problem)
    app_class = _app_class()
    return _run(app_class(replay=(record, path)))


def run_default(*, ai_delay: float | None) -> int:
    """``paris-tui``: the new-game screen, offering to resume an unfinished game."""
    from paris_tui.app.local.storage import find_unfinished

    problem = _terminal_problem()
    if problem:
        return _fail(problem)
    info, problems = find_unfinished()
    notes = [f"{printable(p.name)}: {why}" for p, why in problems]
    app_class = _app_class()
    return _run(app_class(resume_offer=info, problems=notes, ai_delay=_delay(ai_delay)))


def run_join(
    address: str,
    *,
    name: str | None,
    table: str | None,
    watch: str | None,
    data_dir: Path | None,
    ai_delay: float | None = None,
    code: str | None = None,
) -> int:
    """``paris-tui join HOST:PORT --name NAME``: a seat at a host's table (or ``--watch``);
    without ``--name``, or when the host has no seat for it, the lobby.

    Exit status: 0 after playing, 2 for bad arguments, 3 when the host cannot
    be reached, 4 when it refuses (bad_token, seat_taken, no_such_table...),
    each with one line on standard error.
    """
    import asyncio
    import os

    from paris_tui.app.local.history import History
    from paris_tui.app.online import remote
    from paris_tui.app.online.remote import (
        Home,
        JoinError,
        JoinTarget,
        Link,
        LobbyStart,
        connect,
        landing,
        parse_address,
    )
    from paris_tui.host.child import DOOR_SOCKET_ENV, TICKET_ENV, die_with_parent
    from paris_tui.net.client import TokenStore
    from paris_tui.trace import mark

    die_with_parent()
    ticket = os.environ.pop(TICKET_ENV, None) or None  # kept in memory only, never on disk
    remote.DOOR_SOCKET = os.environ.pop(DOOR_SOCKET_ENV, None) or None
    remote.AT_DOOR = ticket is not None or remote.DOOR_SOCKET is not None
    try:  # HOST:PORT, or several hosts of one server: host-a:7337,host-b:7338
        addresses = [parse_address(part.strip()) for part in address.split(",")[:16]]
    except ValueError as exc:
        return _fail(str(exc))
    host, port = addresses[0]
    if watch is not None and (table is not None or code is not None):
        # With --name, the watcher watches (and chats) as that account, proven as a join.
        return _fail(
            _("{option} watches a table: give it without {other}").format(
                option="--watch", other="--table" if table is not None else "--code"
            )
        )
    if ai_delay is not None and ai_delay < 0:
        return _fail(_("{option} must be 0 or more").format(option="--ai-delay"))
    if code is not None and name is None:
        return _fail(_("{option} needs {name}").format(option="--code", name="--name"))
    target = JoinTarget(host, port, name, table, watch, tuple(addresses[1:]))
    try:
        target = target.checked()
    except JoinError as exc:
        return _fail(exc.message, exc.status)
    problem = _terminal_problem()
    if problem:
        return _fail(problem)
    app_class = _app_class()
    if data_dir is None:
        from paris_tui.app.local.storage import data_dir as default_data_dir

        data_dir = default_data_dir()
    tokens = TokenStore(data_dir / "tokens.json")

    async def main() -> int:
        # No name, or no seat for it: the lobby (tables with free seats, watch, open one).
        link: Link | None = None
        lobby: LobbyStart | None = None
        mark("join sent")
        try:
            if name is None and watch is None:
                lobby = LobbyStart(target, await connect(target), tokens, ticket)
            else:
                try:  # a running real-time game's table, else the lobby
                    landed = await landing(target, tokens, ticket, code)
                except JoinError as exc:
                    if exc.code != "no_such_seat":
                        raise
                    landed = LobbyStart(target, await connect(target), tokens, ticket)
                if isinstance(landed, Link):
                    link = landed
                else:
                    lobby = landed
        except JoinError as exc:
            return _fail(exc.message, exc.status)
        mark("view received")
        history = History.in_data_dir(data_dir)
        # The lobby is beneath every table: q at a table (or its end) goes back to it.
        home = Home(target, tokens, ticket)
        app = app_class(
            link=link, lobby=lobby, home=home, ai_delay=_delay(ai_delay), history=history
        )
        mark("app built")
        try:
            await app.run_async()
        finally:
            if app.link is not None:
                await app.link.close()
            elif lobby is not None:
                lobby.client.abort()
        status = app.return_code
        return 0 if status is None else int(status)

    return asyncio.run(main())
