"""``paris-tui host``: open tables and serve them until Ctrl-C or SIGTERM.

Added to the command line by :func:`add_host_parser` (as ``arena`` is), so
``cli.py`` stays thin. This module imports nothing heavy at import time.
"""

from __future__ import annotations

import argparse
import ipaddress
import math
import sys
from pathlib import Path
from typing import Any

from paris_tui.i18n import _, ngettext
from paris_tui.variants import VariantError, add_variant_options, variant_options

__all__ = ["add_host_parser", "cmd_host"]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


def add_host_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``host`` subcommand to ``paris-tui``'s subparsers."""
    # No abbreviated options: the host's own options would make a subcommand's short
    # ones ambiguous (argparse reads every option word with the parent's list first:
    # ``migrate --to`` against ``--tournament-makers`` and ``--tournaments-open``).
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "host",
        allow_abbrev=False,
        help=_("host tables that players join from their own terminals"),
        description=_(
            "Open a table (--table) and serve it, and every unfinished table of the "
            "data directory, to players who join from their own terminals. Prints how to join; "
            "serves until Ctrl-C or SIGTERM, which save every table and exit 0. Each player sees "
            "only their own route; the host alone holds the game."
        ),
    )
    parser.add_argument(
        "--bind",
        metavar="ADDR",
        default="127.0.0.1",
        help=_(
            "address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every network)"
        ),
    )
    parser.add_argument(
        "--port", metavar="N", default="7337", help=_("TCP port (default {n})").format(n=7337)
    )
    parser.add_argument(
        "--ssh-port",
        metavar="N",
        default="2222",
        help=_(
            "SSH port: players type ssh -p N NAME@this-host (default 2222; 0 picks a free "
            "port; off: no SSH)"
        ),
    )
    parser.add_argument(
        "--authorized-keys",
        metavar="FILE",
        default=None,
        help=_(
            "admit over SSH only the public keys listed in FILE (OpenSSH authorized_keys "
            "format); without it any key may log in, and the first key to log in as a name "
            "keeps it"
        ),
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=None,
        help=_(
            "the data directory (default: paris-tui's own); the host keeps its files in "
            "DIR/host: tables in DIR/host/tables, abandoned ones in DIR/host/archive"
        ),
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help=_(
            "keep tables and accounts in this PostgreSQL database (e.g. "
            "postgresql://paris@db/paris, or $PARIS_TUI_DATABASE), which several hosts may "
            "share; needs pip install 'paris-tui[postgres]'"
        ),
    )
    parser.add_argument(
        "--advertise",
        metavar="HOST:PORT",
        default=None,
        help=_(
            "with --database: where the other hosts reach this one (default: --bind's "
            "address, with --bind 0.0.0.0 this machine's own, and --port)"
        ),
    )
    parser.add_argument(
        "--table",
        metavar="SEATS",
        action="append",
        default=[],
        help=_(
            'open a table, e.g. "ann,bob,ai:strong": human seats reserved for those names, '
            "AI seats by level (random, easy, greedy, strong, expert); may be given several times"
        ),
    )
    parser.add_argument(
        "--seed", metavar="N", default=None, help=_("deal seed of the new table(s)")
    )
    parser.add_argument(
        "--move-time",
        metavar="TIME",
        default=None,
        help=_(
            "time per move at the --table tables: seconds (90, 90s) or minutes (2m) for a "
            "real-time clock, hours (12h) or days (3d) for a turn-based table that waits "
            "for its players; when it runs out the AI plays that move"
        ),
    )
    parser.add_argument(
        "--notify-command",
        metavar="CMD",
        default=None,
        help=_(
            "run CMD (no shell) with the account, the table and your-turn or game-over "
            "as three more arguments when an absent player's turn comes at a turn-based "
            "table or its game ends"
        ),
    )
    parser.add_argument(
        "--max-turn-tables",
        metavar="N",
        default="21",
        help=_("turn-based tables one account may sit at (default {n})").format(n=21),
    )
    add_variant_options(parser)
    parser.add_argument(
        "--ai-delay",
        metavar="S",
        default="0.8",
        help=_(
            "an AI's move is played no sooner than S seconds after its turn began (default {n})"
        ).format(n=0.8),
    )
    parser.add_argument(
        "--budget",
        metavar="SECONDS",
        default=None,
        help=_(
            "the thinking time per move of every searching AI (strong, expert) without its own "
            "in --table (ai:expert@0.25) (default {seconds})"
        ).format(seconds="1.0"),
    )
    parser.add_argument(
        "--ai-takeover",
        metavar="S",
        default=None,
        help=_("an AI plays for a player away S seconds, and hands the seat back on return"),
    )
    parser.add_argument(
        "--rated-address",
        metavar="ADDR",
        action="append",
        default=[],
        help=_(
            "games between seats from ADDR count for ratings (a club behind one address; "
            "elsewhere two seats from one address make a game unrated); may be repeated"
        ),
    )
    parser.add_argument(
        "--tournament-makers",
        metavar="NAME,...",
        default="",
        help=_("these accounts may create tournaments from the lobby (default: nobody)"),
    )
    parser.add_argument(
        "--tournaments-open",
        action="store_true",
        help=_("every account may create tournaments from the lobby"),
    )
    parser.add_argument(
        "--max-connections",
        metavar="N",
        default="256",
        help=_("connections at once (default {n})").format(n=256),
    )
    parser.add_argument(
        "--max-per-address",
        metavar="N",
        default="32",
        help=_("connections at once from one address (default {n})").format(n=32),
    )
    parser.add_argument(
        "--max-anonymous",
        metavar="N",
        default="64",
        help=_(
            "connections at once that sit nowhere yet (no seat, no table held): a pool of "
            "their own, so that they never keep players out (default {n})"
        ).format(n=64),
    )
    parser.add_argument(
        "--max-anonymous-per-address",
        metavar="N",
        default="8",
        help=_("... of them from one address (IPv6: its /64; default {n})").format(n=8),
    )
    parser.add_argument(
        "--max-tables",
        metavar="N",
        default="64",
        help=_("unfinished tables at once (default {n})").format(n=64),
    )
    parser.add_argument(
        "--web-port",
        metavar="N",
        default=None,
        help=_(
            "also serve the game to web browsers on this TCP port, at --bind "
            "(default: off; 0 picks a free port)"
        ),
    )
    parser.add_argument(
        "--web-host",
        metavar="NAME",
        action="append",
        default=[],
        help=_(
            "a public name the browser page is reached by, e.g. paris.example.org (IP "
            "addresses and localhost always work; a page asked for under any other name "
            "is refused, against DNS rebinding); may be given several times"
        ),
    )
    parser.add_argument(
        "--max-web-sessions",
        metavar="N",
        default="16",
        help=_("browser players at once, each one app process (default {n})").format(n=16),
    )
    parser.add_argument(
        "--max-web-per-address",
        metavar="N",
        default="4",
        help=_(
            "... of them from one address (IPv6: its /64; behind a TLS proxy on this "
            "machine, the address it forwards; default {n})"
        ).format(n=4),
    )
    parser.add_argument(
        "--max-ssh-per-address",
        metavar="N",
        default="4",
        help=_("SSH players at once from one address (IPv6: its /64; default {n})").format(n=4),
    )
    parser.add_argument(
        "--hints",
        action="store_true",
        help=_(
            "let players ask for a hint (h) on their turn; each player's own terminal "
            "works it out from that player's view, so the host spends nothing"
        ),
    )
    parser.add_argument(
        "--invite",
        action="store_true",
        help=_(
            "print a one-time code for each seat of the --table tables whose name is no "
            "account yet: only that code claims the seat (hand it to its player)"
        ),
    )
    parser.set_defaults(func=cmd_host)
    from paris_tui.host.accounts.command import add_accounts_parser
    from paris_tui.host.ratings.command import add_ratings_parser
    from paris_tui.host.store.migrate import add_migrate_parser
    from paris_tui.host.tournaments.command import add_tournament_parser

    sub = add_accounts_parser(parser)
    add_migrate_parser(sub)
    add_ratings_parser(sub)
    add_tournament_parser(sub)
    return parser


class _UsageError(Exception):
    pass


def _int(name: str, text: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise _UsageError(
            _("{option} must be a whole number, not {text}").format(
                option=name, text=repr(text[:20])
            )
        ) from None
    if not low <= value <= high:
        raise _UsageError(
            _("{option} must be between {low} and {high}").format(option=name, low=low, high=high)
        )
    return value


def _seconds(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _UsageError(
            _("{option} must be a number of seconds, not {text}").format(
                option=name, text=repr(text[:20])
            )
        ) from None
    if not (math.isfinite(value) and 0 <= value <= 86400):
        raise _UsageError(
            _("{option} must be between {low} and {high} seconds").format(
                option=name, low=0, high=86400
            )
        )
    return value


def _fail(message: str, status: int) -> int:
    print(f"paris-tui host: {message}", file=sys.stderr)
    return status


def cmd_host(args: argparse.Namespace) -> int:
    from paris_tui.core.text import InvalidNameError, normalize_name, printable
    from paris_tui.host.referee import SeatSpec, parse_seats
    from paris_tui.host.server import HostConfig, Limits
    from paris_tui.host.store.files import default_data_dir

    try:
        port = _int("--port", args.port, 0, 65535)
        ssh_port = None if args.ssh_port == "off" else _int("--ssh-port", args.ssh_port, 0, 65535)
        web_port = None if args.web_port is None else _int("--web-port", args.web_port, 0, 65535)
        web_sessions = _int("--max-web-sessions", args.max_web_sessions, 1, 1000)
        web_per_address = _int("--max-web-per-address", args.max_web_per_address, 1, 1000)
        ssh_per_address = _int("--max-ssh-per-address", args.max_ssh_per_address, 1, 1000)
        seed = None if args.seed is None else _int("--seed", args.seed, 0, 2**63 - 1)
        ai_delay = _seconds("--ai-delay", args.ai_delay)
        takeover = None if args.ai_takeover is None else _seconds("--ai-takeover", args.ai_takeover)
        ai_budget = None if args.budget is None else _seconds("--budget", args.budget)
        if ai_budget == 0:
            raise _UsageError(_("{option} must be more than 0 seconds").format(option="--budget"))
        connections = _int("--max-connections", args.max_connections, 1, 100_000)
        per_address = _int("--max-per-address", args.max_per_address, 1, 100_000)
        limits = Limits(
            max_connections=connections,
            max_per_address=per_address,
            max_tables=_int("--max-tables", args.max_tables, 1, 100_000),
            max_anonymous=_int("--max-anonymous", args.max_anonymous, 1, 100_000),
            anonymous_per_address=_int(
                "--max-anonymous-per-address", args.max_anonymous_per_address, 1, 100_000
            ),
            turn_tables_per_account=_int("--max-turn-tables", args.max_turn_tables, 1, 10_000),
        )
        move_time = None
        if args.move_time is not None:
            from paris_tui.net.turns import parse_move_time

            try:
                move_time = parse_move_time(args.move_time)
            except ValueError as exc:
                raise _UsageError(f"--move-time: {exc}") from None
        if args.notify_command is not None:
            import shlex

            try:
                if not shlex.split(args.notify_command):
                    raise ValueError("no command")
            except ValueError as exc:
                raise _UsageError(f"--notify-command: {exc}") from None
        try:
            options = variant_options(args)
        except VariantError as exc:
            raise _UsageError(str(exc)) from None
        tables: list[list[SeatSpec]] = []
        for text in args.table:
            try:
                tables.append(parse_seats(text))
            except ValueError as exc:
                raise _UsageError(f"--table {printable(text[:60])!s}: {exc}") from None
        for address in args.rated_address:
            try:
                ipaddress.ip_address(address)
            except ValueError:
                raise _UsageError(
                    f"--rated-address {printable(address[:60])!s}: not an IP address"
                ) from None
        makers = tuple(m.strip() for m in args.tournament_makers.split(",") if m.strip())
        for maker in makers:
            try:
                normalize_name(maker)
            except InvalidNameError as exc:
                raise _UsageError(f"--tournament-makers {printable(maker[:40])!s}: {exc}") from None
    except _UsageError as exc:
        return _fail(str(exc), EXIT_USAGE)
    from paris_tui.host.store.postgres import database_url

    data_dir = (Path(args.data_dir) if args.data_dir else default_data_dir()).absolute()
    config = HostConfig(
        database=database_url(args.database),
        data_dir=data_dir,
        bind=args.bind,
        port=port,
        ai_delay=ai_delay,
        ai_takeover=takeover,
        ai_budget=ai_budget,
        limits=limits,
        hints=args.hints,
        notify_command=args.notify_command,
        rated_addresses=tuple(args.rated_address),
        tournament_makers=makers,
        tournaments_open=args.tournaments_open,
        advertise=advertised(args.bind, port, args.advertise),
    )
    ssh = None
    if ssh_port is not None:
        from paris_tui.doors.ssh import SSHConfig

        keys = Path(args.authorized_keys) if args.authorized_keys else None
        ssh = SSHConfig(
            port=ssh_port,
            bind=args.bind,
            authorized_keys=keys,
            max_per_address=ssh_per_address,
        )
    elif args.authorized_keys:
        return _fail(
            _("{option} is for SSH, which {off} turns off").format(
                option="--authorized-keys", off="--ssh-port off"
            ),
            EXIT_USAGE,
        )
    import asyncio

    web = (
        None
        if web_port is None
        else (web_port, web_sessions, web_per_address, tuple(args.web_host))
    )
    if args.invite and not tables:
        return _fail(
            _("{option} is for the seats of {table}").format(option="--invite", table="--table"),
            EXIT_USAGE,
        )
    if move_time is not None and not tables:
        return _fail(
            _("{option} is for the seats of {table}").format(option="--move-time", table="--table"),
            EXIT_USAGE,
        )
    return asyncio.run(_serve(config, tables, seed, options, ssh, web, args.invite, move_time))


def _invitations(host: Any, room: Any) -> list[str]:
    """``--invite``: reserve each human seat's name that is no account yet, one line each."""
    from paris_tui.host.accounts.command import invite
    from paris_tui.host.accounts.store import AccountError

    lines = []
    ref = room.referee
    for seat in ref.human_seats:
        name = ref.names[seat]
        store = host.accounts
        if store is None:
            break
        if store.find(name) is not None:
            lines.append("  " + _("{name}: an account already (no code)").format(name=name))
            continue
        try:
            code = invite(store, name)
        except AccountError as exc:
            lines.append(f"  {name}: {exc}")
            continue
        lines.append("  " + _("{name}: invitation code {code}").format(name=name, code=code))
    return lines


def machine_addresses(bind: str) -> list[str]:
    """The addresses others may reach a host bound to ``bind`` (every network:
    ``0.0.0.0`` or ``::``) at: this machine's own, loopback last; ``[bind]`` otherwise."""
    import ipaddress
    import socket

    if bind not in ("0.0.0.0", "::", ""):
        return [bind]
    family = socket.AF_INET6 if bind == "::" else socket.AF_INET
    found: list[str] = []
    probe = "2001:db8::1" if family == socket.AF_INET6 else "192.0.2.1"  # documentation nets
    try:  # the address this machine sends from (a UDP "connect" sends nothing)
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))
            found.append(str(sock.getsockname()[0]))
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, family):
            found.append(str(info[4][0]))
    except OSError:
        pass
    seen: list[str] = []
    for address in found:
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            continue
        if not ip.is_loopback and not ip.is_link_local and address not in seen:
            seen.append(address)
    return seen + (["::1"] if family == socket.AF_INET6 else ["127.0.0.1"])


def advertised(bind: str, port: int, given: str | None) -> str | None:
    """Where the other hosts relay to this one: ``--advertise``, else, bound to
    every network, this machine's address (127.0.0.1 is each machine itself),
    else ``None``: the host says its bound address."""
    if given or bind not in ("0.0.0.0", "::", "") or port == 0:
        return given or None
    return _join_address(bind, port)


def _join_address(bind: str, port: int) -> str:
    where = machine_addresses(bind)[0]
    return f"[{where}]:{port}" if ":" in where else f"{where}:{port}"


def _ssh_args(port: int, name: str, bind: str) -> str:
    import shlex

    from paris_tui.doors.ssh import ssh_join_line

    who = name if name == "NAME" else shlex.quote(name)
    return ssh_join_line(port, who, machine_addresses(bind)[0])


def _reach_lines(bind: str) -> list[str]:
    """Who can connect, said plainly, and what to run so that friends can."""
    import ipaddress

    try:
        loopback = ipaddress.ip_address(bind).is_loopback
    except ValueError:
        loopback = bind == "localhost"
    if loopback:
        return [
            _(
                "Only this machine can connect (--bind {bind}). So that friends on your "
                "network can: paris-tui host --bind 0.0.0.0 (and allow the ports in the "
                "firewall); before going on the internet, read docs/security.md."
            ).format(bind=bind)
        ]
    addresses = machine_addresses(bind)
    if len(addresses) > 1:
        return [
            _("Others reach this machine at: {addresses}").format(
                addresses=", ".join(addresses[:-1])
            )
        ]
    return []


async def _serve(
    config: Any,
    tables: list[Any],
    seed: int | None,
    options: Any,
    ssh: Any = None,
    web: Any = None,
    invite: bool = False,
    move_time: float | None = None,
) -> int:
    import asyncio
    import logging
    import signal
    import time

    # Each line says when (UTC, to the millisecond): several hosts' logs read side by side.
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.INFO,
        format="paris-tui host: %(asctime)s.%(msecs)03dZ %(message)s",
        datefmt="%Y-%m-%dT%H:%M:%S",
        force=True,
    )
    for handler in logging.getLogger().handlers:
        if handler.formatter is not None:
            handler.formatter.converter = time.gmtime
    # Ctrl-C and SIGTERM stop the host cleanly from the first moment on.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        return await _run_host(config, tables, seed, options, stop, ssh, web, invite, move_time)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def _run_host(
    config: Any,
    tables: list[Any],
    seed: int | None,
    options: Any,
    stop: Any,
    ssh: Any = None,
    web: Any = None,
    invite: bool = False,
    move_time: float | None = None,
) -> int:
    import shlex

    from paris_tui.core.text import printable
    from paris_tui.host.server import Host, TableConflictError
    from paris_tui.host.store.files import HostBusyError
    from paris_tui.host.store.postgres import DatabaseUnavailable, DriverMissing
    from paris_tui.net.protocol import PROTOCOL_VERSIONS

    host = Host(config)
    try:
        notes = host.load()
    except (HostBusyError, DriverMissing, DatabaseUnavailable) as exc:
        return _fail(str(exc), EXIT_ERROR)
    except OSError as exc:
        where = printable(str(config.data_dir))
        return _fail(
            _("cannot use the data directory {path}: {reason}").format(
                path=where, reason=exc.strerror or exc
            ),
            EXIT_ERROR,
        )
    for note in notes:
        print(f"paris-tui host: {note}", file=sys.stderr)
    invited: list[str] = []
    for i, seats in enumerate(tables):
        try:
            room = host.open_table(
                seats,
                seed=None if seed is None else seed + i,
                options=options,
                move_time=move_time,
            )
            if invite:
                invited += _invitations(host, room)
        except TableConflictError as exc:
            print(f"paris-tui host: {exc}", file=sys.stderr)
        except (ValueError, OSError) as exc:
            await host.close()
            return _fail(str(exc), EXIT_ERROR)
    try:
        address, port = await host.start()
    except OSError as exc:
        await host.close()
        return _fail(
            _("cannot listen on {address} port {port}: {reason}").format(
                address=printable(config.bind), port=config.port, reason=exc.strerror or exc
            ),
            EXIT_ERROR,
        )
    door = None
    if ssh is not None:
        from paris_tui.doors.ssh import SSHDoor, SSHDoorError

        door = SSHDoor(host, ssh, app_port=port)
        try:
            ssh_address, ssh_port = await door.start()
        except SSHDoorError as exc:
            await door.close()
            await host.close()
            return _fail(str(exc), EXIT_ERROR)
    web_door = None
    if web is not None:
        from paris_tui.doors.web import WebDoor

        web_port, web_sessions, web_per_address, web_names = web
        web_door = WebDoor(
            host=host,
            host_port=port,
            data_dir=host.store.root,
            bind=config.bind,
            port=web_port,
            max_sessions=web_sessions,
            max_per_address=web_per_address,
            public_names=web_names,
        )
        try:
            _address, web_port = await web_door.start()
        except OSError as exc:
            if door is not None:
                await door.close()
            await host.close()
            return _fail(
                _("cannot listen on {address} port {port}: {reason}").format(
                    address=printable(config.bind), port=web_port, reason=exc.strerror or exc
                ),
                EXIT_ERROR,
            )
    join = _join_address(config.bind, port)
    lines = [
        f"paris-tui host: listening on {address}:{port} "
        f"(protocols {PROTOCOL_VERSIONS[0]} to {PROTOCOL_VERSIONS[-1]}); "
        f"tables saved in {host.tables.where}"
    ]
    if door is not None:
        lines.append(
            f"paris-tui host: SSH on {ssh_address}:{ssh_port}; "
            f"host key {door.fingerprint} (players may check it)"
        )
    rooms = host.unfinished()
    if not rooms:
        lines.append(
            _(
                "No table is open: players open tables from the lobby, "
                "or start the host with {example}."
            ).format(example='--table "ann,bob"')
        )
    unclaimed: list[str] = []  # reserved seats nobody's account holds yet
    for room in rooms:
        ref = room.referee
        unclaimed += [
            ref.names[s]
            for s in ref.human_seats
            if s not in room.owners
            and (host.accounts is None or host.accounts.find(ref.names[s]) is None)
        ]
        names = ", ".join(ref.names)
        lines.append(
            _("Table {table}: {names} (move {move} of {total})").format(
                table=room.id, names=names, move=ref.move_count, total=ref.total_moves
            )
        )
        for seat in ref.human_seats:
            name = shlex.quote(ref.names[seat])
            line = f"  {ref.names[seat]}: paris-tui join {join} --name {name}"
            if seat in room.owners:  # claimed: a door without the account's credential is refused
                line += " " + _(
                    "(claimed: only one of its account's SSH keys, join tokens or browsers "
                    "takes it, or a link code)"
                )
            lines.append(line)
        if door is not None:
            lines.extend(
                f"  {ref.names[seat]}: ssh {_ssh_args(door.port, ref.names[seat], config.bind)}"
                for seat in ref.human_seats
            )
    if unclaimed:
        lines.append(
            ngettext(
                "Not claimed yet: {names}: the first to log in with that name takes "
                "the seat (at any door); {option} gives each seat a one-time code instead.",
                "Not claimed yet: {names}: the first to log in with each name takes "
                "its seat (at any door); {option} gives each seat a one-time code instead.",
                len(unclaimed),
            ).format(names=", ".join(unclaimed), option="--invite")
        )
    lines.append(
        _("Anyone: {command} (the lobby: take a free seat, watch, open a table)").format(
            command=f"paris-tui join {join}"
        )
    )
    if door is not None:
        lines.append(
            _("Anyone: {command} (a name with no seat opens the lobby)").format(
                command=f"ssh {_ssh_args(door.port, 'NAME', config.bind)}"
            )
        )
    if web_door is not None:
        url = f"http://{_join_address(config.bind, web_port)}"
        lines.append(
            _(
                "In a browser: {url} (the lobby: type your name; {n} browser players at most)"
            ).format(url=url, n=web_door.max_sessions)
        )
    if invited:
        lines.append(
            _(
                "Invitations: each seat below is claimed only with its code (join --code CODE, "
                "or type it when ssh asks); hand each code to its player:"
            )
        )
        lines.extend(invited)
    lines.extend(_reach_lines(config.bind))
    print("\n".join(lines), flush=True)

    try:
        await stop.wait()
    finally:
        if web_door is not None:
            await web_door.close()  # each browser's app quits (or is killed) first
        if door is not None:
            await door.close()
        await host.close()
    print("paris-tui host: stopped; every table is saved", flush=True)
    return EXIT_OK
