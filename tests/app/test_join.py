"""``paris-tui join``: the app at a host's table, over real loopback sockets (issue 9).

A real :class:`~paris_tui.host.server.Host` runs in the test's event loop;
each player is a whole :class:`ParisApp` driven by keys (Pilot), in a task
of its own. Every wait is bounded in steps and in time.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot

from paris_tui import cli
from paris_tui.app.app import ParisApp
from paris_tui.app.online.remote import (
    EXIT_CONNECT,
    EXIT_REFUSED,
    EXIT_USAGE,
    JoinError,
    JoinTarget,
    Link,
    LobbyStart,
    connect,
    landing,
    open_link,
    parse_address,
)
from paris_tui.app.screens.connection import ConnectionDialog
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.takeover import TakeoverDialog
from paris_tui.core.board import classic_board
from paris_tui.host.server import Host, Limits
from paris_tui.net.client import TokenStore
from paris_tui.net.protocol import Play
from tests.host.helpers import join_bot, random_player, running_host

from .helpers import all_text, find_game, press, screen_text

LINES = {line.id: line for line in classic_board().lines}
DEADLINE = 300.0  # seconds for a whole game of two apps on a loaded machine
MAX_STEPS = 20000  # loop turns (each waits 10 ms or more): the deadline comes first


def route_phrases(line: str) -> list[str]:
    """Every way the route panel can name ``line`` as a seat's route."""
    ln = LINES[line]
    short = ln.name.removesuffix(" line")
    return [f"route: {ln.name}", f"route: {short} ({ln.letter})"]


def make_app(link: Link) -> ParisApp:
    return ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False, deliberate_keys=False)


async def seat(port: int, name: str, data: Path) -> Link:
    tokens = TokenStore(data / name / "tokens.json")
    return await open_link(JoinTarget("127.0.0.1", port, name), tokens)


def routes_of(host: Host, table: str = "t1") -> tuple[str, ...]:
    return host.rooms[table].referee.record().setup.routes


def no_other_route(text: str, routes: tuple[str, ...], own: int | None) -> None:
    for seat_no, line in enumerate(routes):
        if seat_no == own:
            continue
        for phrase in route_phrases(line):
            assert phrase not in text, f"seat {seat_no}'s route shows: {phrase!r}"


async def play_app(
    app: ParisApp,
    size: tuple[int, int],
    routes: tuple[str, ...],
    seed: int,
    *,
    on_wait: object = None,
    hold: asyncio.Event | None = None,
    holding: asyncio.Event | None = None,
) -> tuple[int, ...]:
    """Play ``app``'s seat by keys to the end screen; check every frame for secrets.

    While ``hold`` is clear the driver presses nothing, and says so by setting
    ``holding`` (its last keys have been pressed by then)."""
    rng = random.Random(seed)
    own = app.link.table.local_seats[0] if app.link and app.link.table.local_seats else None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(MAX_STEPS):
            assert loop.time() < deadline, "the game does not progress"
            screen = app.screen
            if isinstance(screen, EndScreen):
                return tuple(screen.scores)
            no_other_route(screen_text(app), routes, own)
            game = find_game(app)
            if hold is not None and not hold.is_set():
                if holding is not None:
                    holding.set()
                await asyncio.sleep(0.01)  # another driver checks something: no key now
                continue
            if holding is not None:
                holding.clear()
            if isinstance(screen, TakeoverDialog):
                await press(pilot, rng.choice(["down", "up"]), "enter")
                while app.screen is screen and loop.time() < deadline:
                    await pilot.pause()
            elif game is not None and screen is game and game.turn_seat is not None:
                count = len(game.view.face_up)
                keys = [str(rng.randint(1, count))] if rng.random() < 0.5 else []
                await press(pilot, *keys, "enter")
            else:
                if callable(on_wait) and game is not None and game.waiting_for is not None:
                    await on_wait(pilot, game)
                await asyncio.sleep(0.01)
        raise AssertionError("too many steps")


async def test_two_remote_players_and_an_ai_play_a_whole_game_by_keys(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob,ai:greedy"], seed=5) as (host, port):
        routes = routes_of(host)
        ann, bob = await seat(port, "ann", tmp_path), await seat(port, "bob", tmp_path)
        assert ann.table.local_seats == (0,) and bob.table.local_seats == (1,)
        ann_app, bob_app = make_app(ann), make_app(bob)
        idle_checked: list[int] = []

        sent: list[object] = []
        client = bob.table.client
        send = client.send

        def spy(message: object) -> None:
            sent.append(message)
            send(message)  # type: ignore[arg-type]

        client.send = spy  # type: ignore[method-assign]

        ann_may_move = asyncio.Event()
        ann_may_move.set()
        ann_holds = asyncio.Event()

        async def keys_while_waiting(pilot: Pilot[object], game: GameScreen) -> None:
            """Keys on Ann's turn in Bob's app: nothing is sent, no refusal, no turn."""
            if idle_checked or game.waiting_for != 0 or game._showing:
                return
            ann_may_move.clear()  # Ann's driver holds still meanwhile
            try:
                await asyncio.wait_for(ann_holds.wait(), DEADLINE)
                await pilot.pause()
                await asyncio.sleep(0.3)  # a key Ann pressed before holding is played by now
                referee = host.rooms["t1"].referee
                if referee.to_move != 0 or game.waiting_for != 0 or game._showing:
                    return  # Ann had already moved: another time
                plays, moves = sum(isinstance(m, Play) for m in sent), referee.move_count
                await press(pilot, "1", "right", "enter", "enter", "space", "2", "enter")
                await asyncio.sleep(0.1)
                if referee.move_count != moves:
                    # Ann's move came after all (a loaded machine can be that slow), and
                    # perhaps Bob's turn with it: this check proves nothing, another time.
                    return
                assert sum(isinstance(m, Play) for m in sent) == plays
                assert referee.move_count == moves and game.turn_seat is None
                assert "Move refused" not in all_text(bob_app)
                text = screen_text(bob_app)
                assert "ann's turn: waiting" in text, text
                idle_checked.append(moves)
            finally:
                ann_may_move.set()

        # Each app redirects sys.stdout while it runs; two at once end in either order.
        streams = sys.stdout, sys.stderr
        try:
            ann_scores, bob_scores = await asyncio.gather(
                play_app(ann_app, (80, 24), routes, 1, hold=ann_may_move, holding=ann_holds),
                play_app(bob_app, (120, 40), routes, 2, on_wait=keys_while_waiting),
            )
        finally:
            sys.stdout, sys.stderr = streams
        assert idle_checked, "bob never waited for ann"
        path = tmp_path / "host" / "host" / "tables" / "t1.json"
    assert ann_scores == bob_scores
    replay = subprocess.run(
        [sys.executable, "-m", "paris_tui.cli", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    summary = json.loads(replay.stdout)
    assert summary["finished"]
    assert list(ann_scores) == summary["final"]["scores"]


async def test_a_dropped_seat_comes_back_to_the_same_seat_and_view(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=9) as (host, port):
        ann = await seat(port, "ann", tmp_path)
        bob = await join_bot(port, "bob", random_player(3))
        bob_task = asyncio.create_task(bob.play_until(lambda v: v.is_over))
        ann.delays = (3.0, 0.5, 0.5)  # the first pause is long: the test sees it
        app = make_app(ann)
        loop = asyncio.get_running_loop()
        async with app.run_test(size=(100, 30)) as pilot:
            game = find_game(app)
            assert game is not None
            for _ in range(MAX_STEPS):  # a few moves first
                if host.rooms["t1"].referee.move_count >= 6:
                    break
                if game.turn_seat is not None:
                    await press(pilot, "enter")
                await asyncio.sleep(0.01)
            deadline = loop.time() + DEADLINE
            while game.turn_seat is None:  # until it is Ann's turn
                assert loop.time() < deadline
                await asyncio.sleep(0.01)
            old_table = ann.table
            ann.table.client.abort()  # the connection drops under the app
            seen_lost = False
            while ann.table is old_table and loop.time() < deadline:
                if game.connection is not None:
                    seen_lost = True
                    assert "Connection lost" in screen_text(app)
                    assert game.turn_seat is None  # no move while the table is out of reach
                    await press(pilot, "enter")
                await asyncio.sleep(0.02)
            assert seen_lost and ann.table is not old_table and ann.reconnects == 1
            while game.connection is not None or game.turn_seat is None:
                assert loop.time() < deadline
                await asyncio.sleep(0.02)
            assert ann.table.local_seats == (0,)
            assert game.view == host.rooms["t1"].referee.view(0)
            assert host.rooms["t1"].status(0) == "present"
            before = host.rooms["t1"].referee.move_count
            await press(pilot, "enter")  # and the game goes on
            while host.rooms["t1"].referee.move_count == before and loop.time() < deadline:
                await asyncio.sleep(0.02)
            # Ann's move, and Bob's bot may have answered it already (seen at load 14:
            # 10 where 8 + 1 was asked): the game went on from Ann's move.
            assert host.rooms["t1"].referee.move_count in (before + 1, before + 2)
        bob_task.cancel()


async def test_a_takeover_dialog_open_when_the_connection_drops_does_not_swallow_the_move(
    tmp_path: Path,
) -> None:
    """Ann's turn, a full stop, the dialog asking whose business to remove is open, and
    the connection drops. Found by hand: the dialog stayed over the rejoined game, the
    status said "ann's turn: waiting...", and Enter on it chose nothing (the move went
    nowhere). The dialog closes when the turn ends with the connection; once back, the
    turn is Ann's again, and her choice in the dialog plays."""
    async with running_host(tmp_path / "host", ["ann,bob"], seed=9) as (host, port):
        ann = await seat(port, "ann", tmp_path)
        bob = await join_bot(port, "bob", random_player(3))
        bob_task = asyncio.create_task(bob.play_until(lambda v: v.is_over))
        ann.delays = (0.5, 0.5, 0.5)
        app = make_app(ann)
        referee = host.rooms["t1"].referee
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE

        async def ann_chooses_a_full_stop(pilot: Pilot[object], game: GameScreen) -> None:
            while True:  # Ann plays until a tile of hers is at a full stop
                assert loop.time() < deadline, "no full stop came"
                await asyncio.sleep(0.01)
                if game.turn_seat is None or app.screen is not game:
                    continue
                view = game.view
                full = [
                    i
                    for i, tile in enumerate(view.face_up)
                    if sum(m.tile == tile for m in view.legal_moves) > 1
                ]
                await press(pilot, str(full[0] + 1) if full else "1", "enter")
                if full:
                    break
            while not isinstance(app.screen, TakeoverDialog):
                assert loop.time() < deadline
                await asyncio.sleep(0.01)

        async with app.run_test(size=(100, 30)) as pilot:
            game = find_game(app)
            assert game is not None
            await ann_chooses_a_full_stop(pilot, game)
            old_table = ann.table
            ann.table.client.abort()  # the connection drops under the open dialog
            while (ann.table is old_table or game.connection is not None) and (
                loop.time() < deadline
            ):
                await asyncio.sleep(0.02)
            assert ann.table is not old_table and game.connection is None
            while not (app.screen is game and game.turn_seat is not None):
                assert loop.time() < deadline, (type(app.screen).__name__, screen_text(app))
                await asyncio.sleep(0.02)
            assert "Your turn" in screen_text(app)
            before = referee.move_count
            await ann_chooses_a_full_stop(pilot, game)
            await press(pilot, "enter")  # the dialog's first choice
            while referee.move_count == before and loop.time() < deadline:
                await asyncio.sleep(0.02)
            assert referee.move_count > before
            assert referee.record().moves[before].evict is not None
        bob_task.cancel()


async def test_when_the_host_is_gone_the_app_offers_to_try_again_or_quit(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=2) as (host, port):
        ann = await seat(port, "ann", tmp_path)
        ann.delays = (0.05, 0.05)
        app = make_app(ann)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await host.close()
            for _ in range(MAX_STEPS):
                if isinstance(app.screen, ConnectionDialog):
                    break
                await asyncio.sleep(0.02)
            dialog = app.screen
            assert isinstance(dialog, ConnectionDialog) and "cannot connect" in dialog.problem
            for _ in range(500):  # until it is drawn (a loaded machine takes its time)
                if "cannot connect" in all_text(app):
                    break
                await asyncio.sleep(0.02)
            assert "cannot connect" in all_text(app)
            await press(pilot, "q")
            for _ in range(500):
                if app.return_code is not None:
                    break
                await asyncio.sleep(0.01)
            assert app.return_code is not None  # quit: the app ends


async def test_a_watcher_sees_the_public_view_and_no_route(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob,cy"], seed=4) as (host, port):
        routes = routes_of(host)
        bots = [
            await join_bot(port, n, random_player(i)) for i, n in enumerate(["ann", "bob", "cy"])
        ]
        link = await open_link(JoinTarget("127.0.0.1", port, watch="t1"), None)
        assert link.table.local_seats == ()
        app = make_app(link)
        tasks = [asyncio.create_task(b.play_until(lambda v: len(v.moves) >= 20)) for b in bots]
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(MAX_STEPS):
                game = find_game(app)
                assert game is not None and game.turn_seat is None
                text = screen_text(app)
                assert "Your route" not in text
                no_other_route(text, routes, None)
                if game.move_count >= 20:
                    break
                await asyncio.sleep(0.01)
            assert game.move_count >= 20
            for task in tasks:
                await task  # the players stop at move 20
            moves = host.rooms["t1"].referee.move_count
            while game.move_count < moves or game._showing:
                await asyncio.sleep(0.01)
            assert "Watching: " in screen_text(app)
            sent: list[object] = []
            link.table.client.send = sent.append  # type: ignore[method-assign]
            await press(pilot, "enter", "1", "enter", "right", "enter")  # nothing to take
            await asyncio.sleep(0.1)
            assert not any(isinstance(m, Play) for m in sent)
            assert host.rooms["t1"].referee.move_count == moves


# --- arguments, refusals, exit codes ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:7337", ("127.0.0.1", 7337)),
        ("gameserver:1", ("gameserver", 1)),
        ("[::1]:7337", ("::1", 7337)),
    ],
)
def test_host_port_is_read(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(
    "text",
    ["7337", "host:", ":7337", "host:0", "host:65536", "host:x", "::1:7", "a b:1", "h\x1b:1"],
)
def test_a_bad_host_port_is_one_line_and_exit_2(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError):
        parse_address(text)
    assert cli.main(["join", text, "--name", "ann"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "HOST:PORT" in err and "\x1b" not in err


def test_join_with_a_bad_name_or_watch_with_a_table_is_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["join", "127.0.0.1:9", "--name", "a\x1bb"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--name" in err and "\x1b" not in err
    for extra in (["--table", "t2"], ["--name", "ann", "--code", "ABCD-EFGH"]):
        assert cli.main(["join", "127.0.0.1:9", "--watch", "t1", *extra]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert "--watch" in err and extra[-2] in err
    # --watch with --name watches under its account (tests/host/test_chat.py).
    assert cli.main(["join", "127.0.0.1:9", "--name", "ann", "--watch", "t1"]) == EXIT_CONNECT


@pytest.mark.parametrize("name", [["--name", "ann"], []])  # a seat, or the lobby
def test_nothing_listening_is_exit_3(name: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert cli.main(["join", f"127.0.0.1:{port}", *name]) == EXIT_CONNECT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot connect" in err


async def test_refusals_are_one_line_with_the_code(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=2) as (_, port):
        first = await seat(port, "ann", tmp_path)  # claims Ann's seat, token kept
        await first.close()
        cases = [
            (JoinTarget("127.0.0.1", port, "ann"), None, "name_taken"),  # no token here
            (JoinTarget("127.0.0.1", port, "zed"), None, "no_such_seat"),
            (JoinTarget("127.0.0.1", port, watch="t9"), None, "no_such_table"),
            (JoinTarget("127.0.0.1", port, "ann", table="t9"), None, "no_such_table"),
        ]
        for target, tokens, code in cases:
            with pytest.raises(JoinError) as caught:
                await open_link(target, tokens)
            assert caught.value.status == EXIT_REFUSED and caught.value.code == code
            assert code in caught.value.message and "\n" not in caught.value.message
        stolen = TokenStore(tmp_path / "thief" / "tokens.json")
        stolen.put(f"127.0.0.1:{port}", "bob", "x" * 43)
        await seat(port, "bob", tmp_path)  # Bob's seat claimed by Bob
        with pytest.raises(JoinError) as caught:
            await open_link(JoinTarget("127.0.0.1", port, "bob"), stolen)
        assert caught.value.code == "bad_token" and caught.value.status == EXIT_REFUSED
        again = await seat(port, "ann", tmp_path)  # the kept token takes the seat again
        assert again.table.local_seats == (0,)
        assert (tmp_path / "ann" / "tokens.json").stat().st_mode & 0o777 == 0o600


async def test_a_token_kept_under_another_address_of_the_server_proves_the_name(
    tmp_path: Path,
) -> None:
    """Several hosts of one database are one server: ``join b,a`` keeps ann's token
    under b (the first address); ``join a,b`` then looked under a only and was
    refused name_taken, though either address was to do."""
    async with running_host(tmp_path / "host", ["ann,bob"], seed=2) as (_, port):
        first = await seat(port, "ann", tmp_path)  # claims ann's seat, token kept
        await first.close()
        kept = TokenStore(tmp_path / "ann" / "tokens.json")
        token = kept.get(f"127.0.0.1:{port}", "ann")
        assert token is not None
        tokens = TokenStore(tmp_path / "other-order" / "tokens.json")
        tokens.put(f"127.0.0.1:{port + 1}", "ann", token)  # "join b,a" kept it under b
        target = JoinTarget("127.0.0.1", port, "ann", others=(("127.0.0.1", port + 1),))
        landed = await landing(target, tokens)
        assert isinstance(landed, Link) and landed.table.local_seats == (0,)
        assert tokens.get(f"127.0.0.1:{port}", "ann") == token  # kept under a from now on
        await landed.close()
        stranger = JoinTarget("127.0.0.1", port, "ann")  # not listed as one server: no token
        with pytest.raises(JoinError) as caught:
            await landing(stranger, TokenStore(tmp_path / "alone" / "tokens.json"))
        assert caught.value.code == "name_taken"


async def test_a_full_host_is_one_line_that_says_so_once(tmp_path: Path) -> None:
    limits = Limits(max_connections=1)
    async with running_host(tmp_path / "host", ["ann,bob"], seed=2, limits=limits) as (_, port):
        first = await seat(port, "ann", tmp_path)  # the one connection the host allows
        with pytest.raises(JoinError) as caught:
            await open_link(JoinTarget("127.0.0.1", port, "bob"), None)
        message = caught.value.message
        assert caught.value.code == "host_full" and caught.value.status == EXIT_REFUSED
        assert message.count("too many connections") == 1, message
        assert message.endswith("(try again later)") and "\n" not in message
        await first.close()


# --- the lobby (no --name, or no seat for it) -------------------------------------------


async def _lobby_app(port: int, name: str | None, data: Path) -> tuple[ParisApp, TokenStore]:
    target = JoinTarget("127.0.0.1", port, name)
    tokens = TokenStore(data / "tokens.json")
    return make_app_lobby(LobbyStart(target, await connect(target), tokens)), tokens


def make_app_lobby(lobby: LobbyStart) -> ParisApp:
    return ParisApp(lobby=lobby, anim=0.0, ai_delay=0.0, cursor_blink=False, deliberate_keys=False)


async def _until(done: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not done():  # type: ignore[operator]
        assert loop.time() < deadline, f"never happened: {what}"
        await asyncio.sleep(0.02)


async def test_from_the_lobby_to_the_seat_and_its_game(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=6) as (host, port):
        app, tokens = await _lobby_app(port, "ann", tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await _until(lambda: "ann (away)" in screen_text(app), "the table listed")
            await press(pilot, "enter")  # sit at the seat reserved for ann
            await _until(lambda: find_game(app) is not None, "the game screen")
            game = find_game(app)
            assert game is not None and app.link is not None
            assert app.link.table.local_seats == (0,) and app.link.target.table == "t1"
            await _until(lambda: "Your route" in screen_text(app), "ann's own route")
            assert tokens.get(f"127.0.0.1:{port}", "ann") is not None  # kept for a rejoin
            assert host.rooms["t1"].referee.to_move == 0  # ann begins (seed 6)
            await _until(lambda: game.turn_seat == 0, "ann's turn")
            await press(pilot, "enter")
            await _until(lambda: host.rooms["t1"].referee.move_count == 1, "ann's move")


async def test_from_the_lobby_to_watching_a_table(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=6) as (_, port):
        app, _ = await _lobby_app(port, "zed", tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await _until(lambda: "ann (away)" in screen_text(app), "the table listed")
            await press(pilot, "w")
            await _until(lambda: find_game(app) is not None, "the game screen")
            assert app.link is not None and app.link.table.local_seats == ()
            assert app.link.target.watch == "t1"
            await _until(lambda: "Watching: " in screen_text(app), "the watcher's status")
            assert "Your route" not in screen_text(app)


async def test_presence_shows_who_is_away_and_when_an_ai_plays_for_them(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=6, ai_takeover=0.5) as (
        host,
        port,
    ):
        app = make_app(await seat(port, "ann", tmp_path))  # bob never comes
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(lambda: "bob (away, AI plays)" in screen_text(app), "the takeover")
            game = find_game(app)
            assert game is not None and game.seats[1].status == "takeover"
            for _ in range(MAX_STEPS):  # ann plays; an AI plays bob's moves
                if host.rooms["t1"].referee.move_count >= 4:
                    break
                if game.turn_seat is not None:
                    await press(pilot, "enter")
                await asyncio.sleep(0.02)
            assert host.rooms["t1"].referee.move_count >= 4
            referee = host.rooms["t1"].referee

            def settled() -> bool:  # ann to move, every move shown
                shown = game.move_count == referee.move_count
                return referee.to_move == 0 and shown and not game._showing

            await _until(settled, "ann's turn again, every move shown")
            assert game.view == referee.view(0) and game.turn_seat == 0


async def test_a_terminal_whose_seat_is_joined_elsewhere_says_so_whole_at_80x24(
    tmp_path: Path,
) -> None:
    """Ann joins her seat again from a second terminal: the first one says so in a
    dialog that fits 80x24 (not a status cut to "Your seat was joined fro…" over a board
    that no longer moves), and quits on q, not on an Enter meant for the game."""
    async with running_host(tmp_path / "host", ["ann,bob"], seed=4) as (host, port):
        ann = await seat(port, "ann", tmp_path)
        app = make_app(ann)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            again = await seat(port, "ann", tmp_path)  # the same token, another terminal
            said = "Your seat was joined from another terminal"
            for _ in range(500):
                if isinstance(app.screen, ConnectionDialog) and said in screen_text(app):
                    break
                await asyncio.sleep(0.02)
            dialog = app.screen
            assert isinstance(dialog, ConnectionDialog), type(dialog)
            text = screen_text(app)
            assert said in text, text
            assert "Try again" not in text  # nothing to try: the seat is played elsewhere
            assert host.rooms["t1"].status(0) == "present"  # by the other terminal
            await press(pilot, "enter", "r")  # keys meant for the game do not quit
            await pilot.pause()
            assert app.screen is dialog and app.return_code is None
            await press(pilot, "q")
            for _ in range(500):
                if app.return_code is not None:
                    break
                await asyncio.sleep(0.01)
            assert app.return_code is not None
        await again.close()


async def test_a_lock_ends_the_seat_and_the_app_says_why_without_rejoining(
    tmp_path: Path,
) -> None:
    """Issue 17 follow-up: the operator's lock reaches the open app; it says so and
    does not try to join again (the host would refuse every try)."""
    limits = Limits(lock_check=0.05)
    async with running_host(tmp_path / "host", ["ann,bob"], seed=2, limits=limits) as (host, port):
        ann = await seat(port, "ann", tmp_path)
        ann.delays = (0.05, 0.05)
        app = make_app(ann)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            game = find_game(app)
            assert game is not None and host.accounts is not None
            account = host.accounts.find("ann")
            assert account is not None
            host.accounts.set_locked(account.id, True)
            for _ in range(MAX_STEPS // 10):
                if game.connection is not None and "locked your account" in screen_text(app):
                    break
                await asyncio.sleep(0.02)
            text = screen_text(app)
            assert "locked your account" in text
            # No second try: the seat's end said whole, in the dialog that only quits.
            assert ann.reconnects == 0 and "Try again" not in text
            assert not host.rooms["t1"].seated


async def test_a_door_players_refusals_name_no_internal_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17 follow-up: an SSH or browser player's app joins the host over loopback;
    its refusals said ``127.0.0.1:PORT refused (...)`` and advised ``join --code``."""
    from paris_tui.app.online import remote

    monkeypatch.setattr(remote, "AT_DOOR", True)
    async with running_host(tmp_path / "host", ["ann,bob"], seed=2) as (_, port):
        first = await seat(port, "ann", tmp_path)
        await first.close()
        with pytest.raises(JoinError) as caught:
            await open_link(JoinTarget("127.0.0.1", port, "ann"), None)
        text = caught.value.message
        assert caught.value.code == "name_taken" and "ann is an account" in text
        assert "127.0.0.1" not in text and str(port) not in text and "--code" not in text
        assert "open Account for a link code" in text
    with pytest.raises(JoinError) as caught:  # the host is gone
        await open_link(JoinTarget("127.0.0.1", port, "ann"), None)
    assert caught.value.status == EXIT_CONNECT
    assert "127.0.0.1" not in caught.value.message and str(port) not in caught.value.message
