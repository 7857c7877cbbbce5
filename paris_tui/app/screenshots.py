"""Export the README's screenshots from the real app at fixed seeds.

    .venv/bin/python -m paris_tui.app.screenshots [OUT_DIR]   (default: screenshots/)

Each scene builds a game position by playing moves through the session (a
fixed, simple policy), opens the app headless at a fixed size, presses the
keys a player would, and saves an SVG. Nothing is written to the user's data
directory: the sessions have no autosave path, and the app runs with a temporary
one (``PARIS_TUI_DATA_DIR``: the new-game screen checks that saves can be
written). Cursor blink is off.
"""

from __future__ import annotations

import asyncio
import html
import re
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from textual.pilot import Pilot

from paris_tui.app.local.session import Session, parse_players

from ..core import Move, TileDiscarded
from ..core.record import Record
from .app import ParisApp
from .screens.game import GameScreen
from .screenshots_tournaments import tournaments_scene

__all__ = [
    "SCENES",
    "build_session",
    "grand_tour_position",
    "into_grand_tour",
    "main",
    "takeover_position",
]

Scene = Callable[[Path], Awaitable[Path]]


def _policy(session: Session) -> Move:
    """A fixed, plausible policy for building positions: the seat's first legal move."""
    seat = session.view(None).to_move
    assert seat is not None
    moves = session.view(seat).legal_moves
    return moves[(session.move_count * 7) % len(moves)]


def build_session(players: str, seed: int, moves: int = 0) -> Session:
    session = Session.new(parse_players(players), seed=seed, path=None)
    for _ in range(moves):
        session.play(_policy(session))
    return session


def _app(session: Session | None = None, anim: float = 0.0) -> ParisApp:
    return ParisApp(
        session=session, anim=anim, ai_delay=0.0, cursor_blink=False, deliberate_keys=False
    )


def _game(app: ParisApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def _shoot(
    app: ParisApp, out: Path, name: str, size: tuple[int, int], keys: list[str]
) -> Path:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause(0.2)
        app.save_screenshot(f"{name}.svg", str(out))
    return out / f"{name}.svg"


async def new_game(out: Path) -> Path:
    return await _shoot(_app(), out, "new-game", (100, 32), [])


async def hand_off(out: Path) -> Path:
    return await _shoot(_app(build_session("Ann,Bob", 3, 6)), out, "hand-off", (100, 32), [])


async def mid_game(out: Path) -> Path:
    session = build_session("Ann,Bob,Cy", 3, 19)
    return await _shoot(_app(session), out, "mid-game", (120, 40), ["enter", "right"])


async def mid_game_small(out: Path) -> Path:
    session = build_session("Ann,Bob,Cy", 3, 19)
    return await _shoot(_app(session), out, "mid-game-80x24", (80, 24), ["enter", "right"])


def takeover_position() -> tuple[Session, int]:
    """A 3-player position where the seat to move can take a tile at a full, shared crossing."""
    session = build_session("Ann,Bob,Cy", 5)
    while True:
        view = session.view(session.view(None).to_move)
        for index, tile in enumerate(view.face_up):
            evicts = {m.evict for m in view.legal_moves if m.tile == tile}
            if len(evicts) >= 2:
                return session, index
        session.play(_policy(session))


async def takeover(out: Path) -> Path:
    session, index = takeover_position()
    keys = ["enter", str(index + 1), "enter"]
    return await _shoot(_app(session), out, "takeover", (120, 40), keys)


def grand_tour_position() -> Session:
    """A 2-player position where the next move ends a round with a grand tour."""
    session = build_session("Ann,Bob", 8)
    while True:
        probe = build_session("Ann,Bob", 8, session.move_count)
        events = probe.play(_policy(probe))
        if any(isinstance(e, TileDiscarded) and e.grand_tour for e in events):
            return session
        session.play(_policy(session))


async def into_grand_tour(pilot: Pilot[Any], session: Session, bus_frame: int = 3) -> None:
    """From the hand-off of :func:`grand_tour_position`, play the move that ends the round
    and step the tour on until the bus stands at its ``bus_frame``-th crossing.

    The app must run with a long animation time (frames stay until stepped on here)."""
    app = pilot.app
    assert isinstance(app, ParisApp)
    move = _policy(session)
    await pilot.pause()
    await pilot.press("enter")
    game = _game(app)
    index = game.view.face_up.index(move.tile)
    await pilot.press(str(index + 1), "enter")
    if app.screen is not game:
        await pilot.press("enter")  # a takeover: first choice
    await pilot.pause()
    bus_frames = 0
    while game.frame is not None:
        if game.frame.bus_at is not None:
            bus_frames += 1
            if bus_frames == bus_frame:
                break
        if game.frame_timer is not None:
            game.frame_timer.stop()
        game._next_frame()
    await pilot.pause(0.2)


async def grand_tour(
    out: Path, size: tuple[int, int] = (120, 40), name: str = "grand-tour"
) -> Path:
    session = grand_tour_position()
    app = _app(session, anim=100.0)  # frames stay until stepped on below
    async with app.run_test(size=size) as pilot:
        await into_grand_tour(pilot, session)
        app.save_screenshot(f"{name}.svg", str(out))
    return out / f"{name}.svg"


async def game_end(out: Path) -> Path:
    session = build_session("Ann,Bob,Cy", 4)
    total = session.view(None).rounds_total * 3
    while session.move_count < total - 1:
        session.play(_policy(session))
    app = _app(session)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause(0.3)
        app.save_screenshot("game-end.svg", str(out))
    return out / "game-end.svg"


async def hint_panel(out: Path, size: tuple[int, int] = (100, 32), name: str = "hint") -> Path:
    """Ann's turn with the hint shown (h): the strong AI's view of each tile."""
    from .widgets.hint import HintPanel

    app = _app(build_session("Ann,Bob,Cy", 3, 19))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("h")
        panel = _game(app).query_one(HintPanel)
        for _ in range(600):  # the hint is worked out in a thread (about a second)
            if panel.result is not None:
                break
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        app.save_screenshot(f"{name}.svg", str(out))
    return out / f"{name}.svg"


def review_record() -> Record:
    """A finished game of Ann against the greedy AI (the fixed policy plays both)."""
    session = build_session("Ann,ai:greedy", 3)
    while not session.view(None).is_over:
        session.play(_policy(session))
    return session.record()


async def show_review(pilot: Pilot[Any]) -> None:
    """From the replay viewer, ``v``, then wait for the review (worked out in a thread)."""
    from .screens.review import ReviewScreen

    app = pilot.app
    await pilot.pause()
    await pilot.press("v")
    for _ in range(2400):
        screen = app.screen
        if isinstance(screen, ReviewScreen) and screen.reviews is not None:
            break
        await pilot.pause(0.05)
    await pilot.pause(0.3)


async def review_screen(out: Path, size: tuple[int, int] = (100, 32), name: str = "review") -> Path:
    """The review of a finished game, opened from the replay viewer."""
    record = review_record()
    app = ParisApp(
        replay=(record, Path("ann-vs-greedy.json")),
        anim=0.0,
        ai_delay=0.0,
        cursor_blink=False,
        deliberate_keys=False,
    )
    async with app.run_test(size=size) as pilot:
        await show_review(pilot)
        app.save_screenshot(f"{name}.svg", str(out))
    return out / f"{name}.svg"


async def statistics_screen(
    out: Path, size: tuple[int, int] = (100, 32), name: str = "statistics"
) -> Path:
    """The statistics screen over a few finished games (a history in a temporary folder)."""
    import tempfile

    from paris_tui.app.local.history import History

    from .screens.stats import StatsScreen

    with tempfile.TemporaryDirectory() as tmp:
        history = History.in_data_dir(Path(tmp))
        for seed in range(6):
            opponent = ("ai:greedy", "ai:strong", "ai:easy")[seed % 3]
            session = build_session(f"Ann,{opponent}", seed)
            while not session.view(None).is_over:
                session.play(_policy(session))
            history.add_record(session.record(), mode="ai", local_seats=(0,))
        app = ParisApp(
            anim=0.0, ai_delay=0.0, cursor_blink=False, deliberate_keys=False, history=history
        )
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.action_statistics()
            for _ in range(1200):
                if isinstance(app.screen, StatsScreen) and app.screen.stats is not None:
                    break
                await pilot.pause(0.05)
            await pilot.pause(0.3)
            app.save_screenshot(f"{name}.svg", str(out))
    return out / f"{name}.svg"


async def help_screen(out: Path) -> Path:
    return await _shoot(
        _app(build_session("Ann,Bob", 3, 2)), out, "help", (100, 32), ["enter", "f1"]
    )


async def at_one_table(out: Path) -> Path:
    """Two players at one host's table, each in their own terminal (``paris-tui join``):
    a real host on a loopback port; Ann's turn on Ann's screen, Bob waiting on his."""
    import tempfile

    from paris_tui.app.online.remote import JoinTarget, Link

    from ..host.referee import parse_seats
    from ..host.server import Host, HostConfig

    with tempfile.TemporaryDirectory() as tmp:
        host = Host(HostConfig(data_dir=Path(tmp), port=0, ai_delay=30.0))
        host.load()
        room = host.open_table(parse_seats("Ann,Bob,ai:greedy"), seed=3)
        referee = room.referee
        while referee.move_count < 13 or referee.to_move != 0:
            seat = referee.to_move
            assert seat is not None
            moves = referee.view(seat).legal_moves
            referee.submit(seat, moves[(referee.move_count * 7) % len(moves)], referee.move_count)
        _, port = await host.start()
        streams = sys.stdout, sys.stderr
        try:
            links = [
                await Link.open(JoinTarget("127.0.0.1", port, n), None) for n in ("Ann", "Bob")
            ]

            async def shoot(link: Link, name: str) -> None:
                app = ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False)
                async with app.run_test(size=(100, 30)) as pilot:
                    await pilot.pause(0.5)
                    app.save_screenshot(f"{name}.svg", str(out))

            await asyncio.gather(
                shoot(links[0], "at-one-table-ann"), shoot(links[1], "at-one-table-bob")
            )
        finally:
            sys.stdout, sys.stderr = streams  # each app redirected them while it ran
            await host.close()
    return out / "at-one-table-bob.svg"


def _seed_ratings(root: Path) -> None:
    """A few rated games between five accounts (the lobby-with-ratings scene)."""
    from paris_tui.host.accounts.store import open_accounts
    from paris_tui.host.ratings.store import open_ratings

    accounts = open_accounts(root)
    ids = {n: accounts.create(n, None).id for n in ("Ann", "Bob", "Cy", "Dee", "Eve", "Hal")}
    accounts.close()
    ratings = open_ratings(root)
    games = [
        ("Ann", "Bob", "Cy"),
        ("Dee", "Ann", "Eve", "Bob"),
        ("Ann", "Cy"),
        ("Eve", "Dee", "Cy"),
        ("Ann", "Eve"),
        ("Bob", "Dee"),
    ]
    # Twice each (five rated games or more: a number), and Hal's first (provisional: "?").
    games = [*games, *reversed(games), ("Eve", "Hal")]
    for number, order in enumerate(games, 1):
        owners = {seat: ids[name] for seat, name in enumerate(order)}
        scores = [40 - 5 * seat for seat in range(len(order))]  # in the order given
        ratings.finish(
            f"s{number}:x",
            f"s{number}",
            ["human"] * len(order),
            owners,
            scores,
            [1] * len(order),
            list(order),
        )
    ratings.close()


async def lobby_ratings(out: Path) -> Path:
    """The lobby of a host with rated players: each rating beside its name (Hal's
    provisional: ``?``), a turn-based table waiting for Eve's move at the top, then the
    leaderboard (``l``) and the best player's page (Enter)."""
    import tempfile
    import time

    from ..host.referee import parse_seats
    from ..host.server import Host, HostConfig
    from ..net.client import HostClient
    from .screens.lobby import LobbyScreen

    later = [0.0]  # the host's clock, moved on once the tables are open

    def clock() -> float:
        return time.time() + later[0]

    with tempfile.TemporaryDirectory() as tmp:
        _seed_ratings(Path(tmp) / "host")
        host = Host(HostConfig(data_dir=Path(tmp), port=0, ai_delay=3600.0, clock=clock))
        host.load()
        playing = host.open_table(parse_seats("Ann,Bob,Cy"), seed=3).referee
        for _ in range(9):
            seat = playing.to_move or 0
            playing.play(seat, playing.view(seat).legal_moves[0], playing.move_count)
        host.open_table(parse_seats("Dee,Gus,ai:strong"), seed=4)
        host.open_table(parse_seats("Eve,Hal"), seed=5, move_time=86400.0)  # a day a move
        _, port = await host.start()
        later[0] = 5 * 3600.0  # Eve's move has waited five hours
        streams = sys.stdout, sys.stderr
        try:
            dee = await HostClient.connect("127.0.0.1", port)
            await dee.open_table("Fay", ("me", "open", "open"))
            client = await HostClient.connect("127.0.0.1", port)
            app = ParisApp(anim=0.0, ai_delay=0.0, cursor_blink=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                app.push_screen(LobbyScreen(client, "Eve", poll=3600.0))
                await pilot.pause(0.5)
                app.save_screenshot("lobby-ratings.svg", str(out))
                await pilot.press("l")
                await pilot.pause(0.3)
                app.save_screenshot("leaderboard.svg", str(out))
                await pilot.press("enter")  # the best player's page
                await pilot.pause(0.5)
                app.save_screenshot("player-page.svg", str(out))
            await client.close()
            await dee.close()
        finally:
            sys.stdout, sys.stderr = streams
            await host.close()
    return out / "leaderboard.svg"


async def lobby_people(out: Path) -> Path:
    """Eve's lobby at 80x24: who is online (her friend Cy first), and Dee's
    invitation to a seat kept for her above the tables."""
    import tempfile

    from ..host.referee import parse_seats
    from ..host.server import Host, HostConfig
    from ..net.client import HostClient, TokenStore
    from ..net.protocol import FriendsInfo, FriendsRequest
    from .screens.lobby import LobbyScreen

    with tempfile.TemporaryDirectory() as tmp:
        host = Host(HostConfig(data_dir=Path(tmp), port=0, ai_delay=3600.0))
        host.load()
        host.open_table(parse_seats("Bob,Cy"), seed=7)
        host.open_table(parse_seats("Eve,ai:strong"), seed=8)
        _, port = await host.start()
        address = f"127.0.0.1:{port}"
        others: list[HostClient] = []
        try:
            joined: dict[str, str | None] = {}
            for name in ("Bob", "Cy", "Eve"):
                others.append(await HostClient.connect("127.0.0.1", port))
                joined[name] = (await others[-1].join(name)).token
            others[-1].abort()
            eve_token = joined["Eve"]
            assert eve_token is not None
            tokens = TokenStore(Path(tmp) / "tokens.json")
            tokens.put(address, "Eve", eve_token)
            others.append(await HostClient.connect("127.0.0.1", port))
            # Friends only when both asked: Eve asks Cy, Cy asks Eve.
            for asker, asked in (("Eve", "Cy"), ("Cy", "Eve")):
                others[-1].send(FriendsRequest(asker, joined[asker], "add", asked))
                while not isinstance(await others[-1].receive(10.0), FriendsInfo):
                    pass
            others.append(await HostClient.connect("127.0.0.1", port))
            await others[-1].open_table("Dee", ("me", "invite:Eve"))
            client = await HostClient.connect("127.0.0.1", port)
            others.append(client)
            app = ParisApp(anim=0.0, ai_delay=0.0, cursor_blink=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                lobby = LobbyScreen(client, "Eve", poll=0.2, tokens=tokens, address=address)
                app.push_screen(lobby)
                for _ in range(100):
                    await pilot.pause(0.1)
                    if lobby.people.online and lobby.friends.info is not None:
                        break
                await pilot.pause(0.5)
                app.save_screenshot("lobby-people.svg", str(out))
        finally:
            for other in others:
                other.abort()
            await host.close()
    return out / "lobby-people.svg"


async def table_chat(out: Path) -> Path:
    """A host's table with its chat beside the log, on Ann's terminal: Bob's
    lines (markup shown as typed), canned phrases each reader sees in their language."""
    import tempfile

    from paris_tui.app.online.remote import JoinTarget, Link

    from ..host.referee import parse_seats
    from ..host.server import Host, HostConfig
    from ..net.client import HostClient
    from ..net.protocol import Chat, ChatLine

    with tempfile.TemporaryDirectory() as tmp:
        host = Host(HostConfig(data_dir=Path(tmp), port=0, ai_delay=30.0))
        host.load()
        room = host.open_table(parse_seats("Ann,Bob,ai:greedy"), seed=3)
        referee = room.referee
        while referee.move_count < 13 or referee.to_move != 0:
            seat = referee.to_move
            assert seat is not None
            moves = referee.view(seat).legal_moves
            referee.submit(seat, moves[(referee.move_count * 7) % len(moves)], referee.move_count)
        _, port = await host.start()
        streams = sys.stdout, sys.stderr
        try:
            bob = await HostClient.connect("127.0.0.1", port)
            await bob.join("Bob")
            for said in (Chat(phrase="good_luck"), Chat("gl! [b]bold?[/b] no: as typed")):
                bob.send(said)
            link = await Link.open(JoinTarget("127.0.0.1", port, "Ann"), None)
            app = ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False)
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause(0.3)
                link.table.say(phrase="thanks")
                await pilot.pause(0.2)
                bob.send(Chat(phrase="your_turn"))
                for _ in range(50):
                    if sum(isinstance(m, ChatLine) for m in link.table.chat_lines) >= 4:
                        break
                    await pilot.pause(0.05)
                await pilot.pause(0.3)
                app.save_screenshot("table-chat.svg", str(out))
            await bob.close()
        finally:
            sys.stdout, sys.stderr = streams  # the app redirected them while it ran
            await host.close()
    return out / "table-chat.svg"


async def end_chat(out: Path) -> Path:
    """The end screen of a host's table at 80x24, with its chat under the
    result: the game's lines, then the players' and a watcher's after it."""
    import tempfile

    from paris_tui.app.online.remote import JoinTarget, Link

    from ..host.referee import parse_seats
    from ..host.server import Host, HostConfig
    from ..net.client import HostClient
    from ..net.protocol import Chat, ChatLine
    from .screens.end import EndScreen

    with tempfile.TemporaryDirectory() as tmp:
        host = Host(HostConfig(data_dir=Path(tmp), port=0, rated_addresses=("127.0.0.1",)))
        host.load()
        # Bob (seat 0) makes the last move of a two-player game (its 40th).
        room = host.open_table(parse_seats("Bob,Ann"), seed=3)
        referee = room.referee
        while referee.move_count < 39:
            seat = referee.to_move
            assert seat is not None
            moves = referee.view(seat).legal_moves
            referee.submit(seat, moves[(referee.move_count * 7) % len(moves)], referee.move_count)
        _, port = await host.start()
        streams = sys.stdout, sys.stderr
        try:
            bob = await HostClient.connect("127.0.0.1", port)
            seated = await bob.join("Bob")
            bob.send(Chat("gl hf"))
            link = await Link.open(JoinTarget("127.0.0.1", port, "Ann"), None)
            app = ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause(0.3)
                bob.play(seated.view.legal_moves[0], len(seated.view.moves))
                for _ in range(100):
                    if isinstance(app.screen, EndScreen):
                        break
                    await pilot.pause(0.05)
                watcher = await HostClient.connect("127.0.0.1", port)
                await watcher.watch(room.id)
                bob.send(Chat(phrase="good_game"))
                await pilot.pause(0.1)
                link.table.say(phrase="well_played")
                await pilot.pause(0.1)
                bob.send(Chat("gg [b]ann[/b], that grand tour!"))
                await pilot.pause(0.1)
                watcher.send(Chat("great game to watch"))
                for _ in range(50):
                    if sum(isinstance(m, ChatLine) for m in link.table.chat_lines) >= 5:
                        break
                    await pilot.pause(0.05)
                await pilot.pause(0.5)
                app.save_screenshot("end-chat.svg", str(out))
                await watcher.close()
            await bob.close()
        finally:
            sys.stdout, sys.stderr = streams  # the app redirected them while it ran
            await host.close()
    return out / "end-chat.svg"


async def _in_language(
    out: Path, name: str, lang: str, glyphs: str, size: tuple[int, int] = (100, 32)
) -> Path:
    """A turn with the left-over preview in language ``lang``, drawn with set ``glyphs``."""
    from paris_tui.app.look.glyphs import current_glyphs, set_glyphs

    from .. import i18n

    before = i18n.current_language(), current_glyphs().name
    i18n.set_language(lang)
    set_glyphs(glyphs)
    try:
        session = build_session("Ann,Bob,Cy", 3, 19)
        return await _shoot(_app(session), out, name, size, ["enter", "right"])
    finally:
        i18n.set_language(before[0])
        set_glyphs(before[1])


async def german(out: Path) -> Path:
    """The turn in German (``--lang de``), Unicode glyphs."""
    return await _in_language(out, "lang-de", "de", "unicode")


async def chinese(out: Path) -> Path:
    """The turn as a Taiwanese terminal shows it (``LANG=zh_TW.UTF-8``): Traditional
    Chinese, and the ascii glyphs the locale chooses."""
    return await _in_language(out, "lang-zh-TW", "zh-TW", "ascii")


SCENES: dict[str, Scene] = {
    "new-game": new_game,
    "hand-off": hand_off,
    "mid-game": mid_game,
    "mid-game-80x24": mid_game_small,
    "takeover": takeover,
    "grand-tour": grand_tour,
    "game-end": game_end,
    "help": help_screen,
    "hint": hint_panel,
    "review": review_screen,
    "statistics": statistics_screen,
    "at-one-table": at_one_table,
    "lobby-ratings": lobby_ratings,
    "lobby-people": lobby_people,
    "tournaments": tournaments_scene,
    "table-chat": table_chat,
    "end-chat": end_chat,
    "lang-de": german,
    "lang-zh-TW": chinese,
}


_SVG_TEXT = re.compile(r'(<text [^>]*?textLength=")([0-9.]+)("[^>]*>)([^<]*)(</text>)')


def widen_text(svg: str) -> str:
    """The SVG with each run of text as wide as the terminal cells it fills.

    Rich's SVG export gives a run of text a length of one cell per character,
    so a browser squeezes a Chinese word (two cells a character) into half its
    cells; its background is drawn right (by cells). This stretches the text
    to its cells as well (the cell's width read from a run of narrow
    characters); an SVG without wide characters comes back unchanged, and so
    does one already widened.
    """
    runs = [(m, html.unescape(m.group(4))) for m in _SVG_TEXT.finditer(svg)]
    narrow = [
        float(m.group(2)) / len(text) for m, text in runs if text and cell_len(text) == len(text)
    ]
    if not narrow:
        return svg
    cell = narrow[0]

    def one(match: re.Match[str]) -> str:
        text = html.unescape(match.group(4))
        cells = cell_len(text)
        if not text or cells == len(text):
            return match.group(0)
        return f"{match.group(1)}{cell * cells:g}{match.group(3)}{match.group(4)}{match.group(5)}"

    return _SVG_TEXT.sub(one, svg)


async def _run(out: Path, names: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        start = time.time()
        path = await SCENES[name](out)
        for svg in out.glob("*.svg"):  # what the scene wrote (some write two)
            if svg.stat().st_mtime >= start:
                svg.write_text(widen_text(svg.read_text(encoding="utf-8")), encoding="utf-8")
        print(path)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("screenshots")
    names = args[1:] or list(SCENES)
    unknown = [n for n in names if n not in SCENES]
    if unknown:
        print(
            f"unknown scene(s): {', '.join(unknown)} (known: {', '.join(SCENES)})", file=sys.stderr
        )
        return 2
    asyncio.run(_in_a_data_dir_of_its_own(_run(out, names)))
    return 0


async def _in_a_data_dir_of_its_own(work: Awaitable[None]) -> None:
    """``work`` with ``PARIS_TUI_DATA_DIR`` a temporary folder: the app's screens write
    there (the new-game screen checks that saves can be written), never in the data
    directory of the person who regenerates the screenshots."""
    import os
    import tempfile

    from paris_tui.app.local.storage import ENV_DATA_DIR

    before = os.environ.get(ENV_DATA_DIR)
    with tempfile.TemporaryDirectory(prefix="paris-tui-screenshots-") as tmp:
        os.environ[ENV_DATA_DIR] = tmp
        try:
            await work
        finally:
            if before is None:
                del os.environ[ENV_DATA_DIR]
            else:
                os.environ[ENV_DATA_DIR] = before


if __name__ == "__main__":
    sys.exit(main())
