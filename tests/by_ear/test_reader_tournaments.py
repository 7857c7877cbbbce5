"""The screen reader's tournaments at a real host on 127.0.0.1 (protocol 6): the list,
a tournament's page (entrants, standings a place a line, each round's tables),
entering and withdrawing with what happened said, a refused entry, a round opening
said at once (with the bell) and ``sit`` taking the seat, watching and replaying a
tournament's table; in English, German and Chinese, every line broken only at spaces."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from rich.cells import cell_len

from paris_tui import i18n
from paris_tui.app.online.remote import JoinTarget, Link
from paris_tui.host.events import RoundOpened
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.tournaments.engine import Plan
from paris_tui.host.tournaments.pairing import Round, Table
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import (
    ClientMessage,
    Hello,
    ListTables,
    Tables,
    Welcome,
    decode_client,
    encode,
)
from paris_tui.net.tournaments_wire import (
    EntrantInfo,
    RoundInfo,
    RoundStart,
    RoundTable,
    StandingInfo,
    TournamentInfo,
    TournamentList,
    TournamentPage,
    TournamentsRequest,
)
from paris_tui.reader import say
from paris_tui.reader.inbox import Inbox, now
from paris_tui.reader.lines import Lines
from paris_tui.reader.lobby import lobby
from paris_tui.reader.tournaments import page_lines
from tests.by_ear.test_by_ear_second_pass import _breaks_ok

TIMEOUT = 10.0
MAX_STEPS = 2000
WIDTH = 40
START = 1_796_140_800  # 2026-12-02 16:00 UTC
LATER = START + 10**7  # 2027-03-27 09:46 UTC


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@asynccontextmanager
async def hosting(tmp_path: Path) -> AsyncIterator[tuple[Host, int]]:
    """A host with ann and bob's table (t1, a seat kept for each) and a finished game
    (t2, Eve against an AI), its record kept for a replay."""
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=0.0))
    host.load()
    host.open_table(parse_seats("ann,bob"), seed=7)
    room = host.open_table(parse_seats("Eve,ai:random"), seed=4)
    done = room.referee
    while not done.is_over:
        seat = done.to_move or 0
        done.play(seat, done.view(seat).legal_moves[0], done.move_count)
    host.save_table(room)
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.close()


async def _ann(tmp_path: Path, port: int) -> TokenStore:
    """ann's account, its token kept where the reader finds it."""
    tokens = TokenStore(tmp_path / "client" / "tokens.json")
    client = await HostClient.connect("127.0.0.1", port)
    seated = await client.join("ann")
    await client.close()
    assert seated.token is not None
    tokens.put(f"127.0.0.1:{port}", "ann", seated.token)
    return tokens


def _tournaments(host: Host, ann: int) -> dict[str, int]:
    """An open Swiss one, a picky one (5 rated games to enter), and a running one whose
    round 1 is over (t2: Eve beat cy; ann and bob's table, never opened, bob first) and
    round 2 under way at t1 (ann and bob)."""
    store = host.tournaments.store
    assert store is not None
    cup = store.create("Winter Cup", Plan("swiss", 2, 3), move_time=120, start=LATER)
    picky = store.create("Picky", Plan("swiss", 2, 3), move_time=86400, start=LATER, min_games=5)
    live = store.create("Live", Plan("swiss", 2, 2), move_time=120, start=START)
    for account, name in ((11, "Eve"), (12, "cy"), (ann, "ann"), (14, "bob")):
        store.enter(live.id, account, name, 0.0)
    store.set_state(live.id, "running")
    me = str(ann)
    store.add_round(live.id, Round(1, (Table(("11", "12"), (1, 2)), Table((me, "14"), (2, 1)))))
    store.open_table(live.id, 1, 1, "t2")
    store.finish_table(live.id, 1, 2, (2, 1))
    store.add_round(live.id, Round(2, (Table((me, "14")),)))
    store.open_table(live.id, 2, 1, "t1")
    return {"cup": cup.id, "picky": picky.id, "live": live.id}


class Ear:
    """A reader's lobby at the host: what it said, and lines typed into it."""

    def __init__(self, port: int, name: str | None, tokens: TokenStore | None) -> None:
        self.port = port
        self.name = name
        self.tokens = tokens
        self.stream = io.StringIO()
        self.out = Lines(self.stream, width=lambda: WIDTH)
        self.inbox = Inbox()
        self.task: asyncio.Future[Link | None] | None = None

    async def start(self) -> Ear:
        client = await HostClient.connect("127.0.0.1", self.port)
        target = JoinTarget("127.0.0.1", self.port, self.name)
        self.task = asyncio.ensure_future(lobby(target, client, self.tokens, self.out, self.inbox))
        return self

    def type(self, text: str) -> int:
        """Type a line; the number of lines said so far (to wait for what follows)."""
        said = len(self.out.said)
        self.inbox.put(text, now())
        return said

    async def said(self, text: str, after: int = 0) -> int:
        """Wait until a line holding ``text`` is said (from line ``after`` on): its index."""
        for _ in range(MAX_STEPS):
            for i, line in enumerate(self.out.said[after:], start=after):
                if text in line:
                    return i
            await asyncio.sleep(0.005)
        raise AssertionError(f"never said {text!r}: {self.out.said[after:][-12:]}")

    async def between(self, after: int, first: str, last: str) -> list[str]:
        """The lines from the one holding ``first`` to the one holding ``last``."""
        a = await self.said(first, after)
        b = await self.said(last, a)
        return self.out.said[a : b + 1]

    async def done(self) -> Link | None:
        assert self.task is not None
        return await asyncio.wait_for(self.task, TIMEOUT)

    def broken_only_at_spaces(self, names: list[str]) -> None:
        """Every sentence said went out on lines under the width, broken only at spaces
        (or after a full-width stop or comma), never inside a name."""
        written = self.stream.getvalue().replace("\a", "").splitlines()
        at = 0
        keep = [*say.fixed_phrases(), *names]
        for sentence in self.out.said:
            taken: list[str] = []
            while "".join("".join(taken).split()) != "".join(sentence.split()):
                assert at < len(written) and len(taken) < 50, (sentence, taken)
                taken.append(written[at])
                at += 1
            _breaks_ok(sentence, taken, keep)
            for line in taken:
                assert cell_len(line) < WIDTH or " " not in line.strip(), line


async def test_list_page_enter_withdraw_and_a_refused_entry(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        tokens = await _ann(tmp_path, port)
        assert host.accounts is not None
        account = host.accounts.find("ann")
        assert account is not None
        ids = _tournaments(host, account.id)
        ear = await Ear(port, "ann", tokens).start()
        await ear.said("tournaments lists the host's tournaments")
        # The round under way keeps ann a seat: said as the lobby opens.
        await ear.said("Live, tournament round 2: you sit at table t1 with bob. Type sit")

        at = ear.type("tournaments")
        listed = await ear.between(at, "The host's tournaments, 3:", "says its page")
        assert listed == [
            "The host's tournaments, 3:",
            "1: Winter Cup, a Swiss tournament, 2 players a table, 3 tournament rounds, "
            "2 min a move, 0 entrants, open for entry, starts 2027-03-27 09:46 UTC.",
            "2: Picky, a Swiss tournament, 2 players a table, 3 tournament rounds, 24 h a move, "
            "5 rated games to enter, 0 entrants, open for entry, starts 2027-03-27 09:46 UTC.",
            "3: Live, a Swiss tournament, 2 players a table, 2 tournament rounds, 2 min a move, "
            "4 entrants, running, tournament round 2 of 2, you are in.",
            "tournament and a number or a name says its page.",
        ]

        at = ear.type("tournament live")
        page = await ear.between(at, "Live: a Swiss tournament", "replays it once it is over")
        assert page == [
            "Live: a Swiss tournament, 2 players a table, 2 tournament rounds, 2 min a move; "
            "running, tournament round 2 of 2, you are in.",
            "Entrants, 4: ann, bob, cy, Eve.",
            "Standings, points then tie-breaks:",
            "1. Eve: 6 points; Buchholz 0, Sonneborn-Berger 0.",
            "1. bob: 6 points; Buchholz 0, Sonneborn-Berger 0.",
            "3. ann: 0 points; Buchholz 6, Sonneborn-Berger 0.",
            "3. cy: 0 points; Buchholz 6, Sonneborn-Berger 0.",
            "Tournament round 1, 2 tables:",
            "Table t2, over: Eve place 1, cy place 2.",
            "A table not open yet: ann, bob.",
            "Tournament round 2, 1 table:",
            "Table t1, under way: ann, bob.",
            "watch and a table watches it while it is under way; replay and a table replays it "
            "once it is over.",
        ]
        store = host.tournaments.store
        assert store is not None

        at = ear.type("ent winter")  # shortened, and the start of a word of its name
        await ear.said(
            "You are in Winter Cup now; it starts 2027-03-27 09:46 UTC, with 1 entrant so far.",
            at,
        )
        ann = str(account.id)
        assert [(e.key, e.withdrawn) for e in store.entrants(ids["cup"])] == [(ann, False)]
        at = ear.type("enter 1")  # the list's number
        await ear.said("You could not enter Winter Cup: ann is in Winter Cup already.", at)
        at = ear.type("withdraw 1")
        await ear.said("You withdrew from Winter Cup: no tournament round pairs you", at)
        assert [(e.key, e.withdrawn) for e in store.entrants(ids["cup"])] == [(ann, True)]
        at = ear.type("enter picky")
        await ear.said("You could not enter Picky: ann has 0 rated games; Picky asks for 5.", at)
        assert store.entrants(ids["picky"]) == []
        at = ear.type("tourn nothing")
        await ear.said("No tournament here is called nothing. tournaments lists them.", at)
        at = ear.type("tournament 9")
        await ear.said("There is no tournament 9: the list has 3.", at)

        at = ear.type("replay t2")  # a finished tournament table, step by step
        await ear.said("Replay of a game of Eve", at)
        at = ear.type("quit")
        await ear.said("The host's lobby.", at)  # back in the lobby
        ear.type("watch t1")  # the table under way, by its name
        link = await ear.done()
        assert link is not None and link.target.watch == "t1"
        assert not link.table.local_seats  # watching
        await link.close()
        ear.broken_only_at_spaces(["Winter Cup", "Eve", "ann", "bob", "cy"])


async def test_a_round_opening_is_said_at_once_with_the_bell_and_sit_takes_the_seat(
    tmp_path: Path,
) -> None:
    async with hosting(tmp_path) as (host, port):
        tokens = await _ann(tmp_path, port)
        i18n.set_language("de")
        ear = await Ear(port, "ann", tokens).start()
        ear.out.bell = True  # the player's bell is on
        await ear.said("turniere listet die Turniere des Hosts")
        for _ in range(MAX_STEPS):  # the lobby named ann to the host: it listens
            if any(each.name == "ann" for each in host.desk.listeners.values()):
                break
            await asyncio.sleep(0.005)
        assert not any("Winter Cup" in line for line in ear.out.said)
        rung = len(ear.stream.getvalue())
        # As the rounds' service publishes it once it has opened the round's tables: t1
        # keeps a seat for ann and one for bob. Nothing is typed: it is said at once.
        host.events.publish(RoundOpened(3, "Winter Cup", 2, (("t1", ("ann", "bob")),)))
        said = await ear.said("Winter Cup, Turnierrunde 2:")
        assert ear.out.said[said] == (
            "Winter Cup, Turnierrunde 2: Du sitzt an Tisch t1 mit bob. "
            "Tippe hinsetzen, um deinen Platz einzunehmen."
        )
        assert "\a" in ear.stream.getvalue()[rung:]
        ear.type("hinsetz")  # shortened
        link = await ear.done()
        assert link is not None and link.target.table == "t1"
        assert tuple(link.table.local_seats) == (0,)  # ann's seat
        await link.close()
        ear.broken_only_at_spaces(["Winter Cup", "ann", "bob"])


async def test_in_chinese_the_list_a_page_an_entry_and_a_refusal(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        tokens = await _ann(tmp_path, port)
        assert host.accounts is not None
        account = host.accounts.find("ann")
        assert account is not None
        ids = _tournaments(host, account.id)
        i18n.set_language("zh-TW")
        ear = await Ear(port, "ann", tokens).start()
        await ear.said("Live，錦標賽第 2 輪")
        at = ear.type("錦標賽")
        await ear.said("1：Winter Cup，瑞士制錦標賽", at)
        at = ear.type("賽事 3")
        await ear.said("1. Eve：6 分；布氏分 0，索伯分 0。", at)
        at = ear.type("報名 1")
        await ear.said("你已報名 Winter Cup", at)
        at = ear.type("報名 2")
        await ear.said("你無法報名 Picky：此錦標賽要求的計入積分對局數多於你已下過的。", at)
        store = host.tournaments.store
        assert store is not None
        assert [e.key for e in store.entrants(ids["cup"])] == [str(account.id)]
        assert store.entrants(ids["picky"]) == []
        ear.type("離開")
        assert await ear.done() is None
        ear.broken_only_at_spaces(["Winter Cup", "Eve", "ann", "bob", "cy"])


async def test_a_nameless_lobby_asks_the_name_and_takes_no_command_word_for_one(
    tmp_path: Path,
) -> None:
    async with hosting(tmp_path) as (host, port):
        _tournaments(host, 13)
        ear = await Ear(port, None, None).start()
        await ear.said("tournaments lists the host's tournaments")
        at = ear.type("enter 1")
        asked = await ear.said("Your name at this table?", at)
        ear.type("tournaments")  # a command's word, not a name: the list instead
        await ear.said("The host's tournaments, 3:", asked)
        assert host.accounts is not None
        assert host.accounts.find("tournaments") is None
        at = ear.type("enter 1")
        await ear.said("Your name at this table?", at)
        ear.type("Ent")  # the start of a word is a name; nobody's yet: the entry makes it
        await ear.said("You are in Winter Cup now", at)
        assert host.accounts.find("Ent") is not None
        ear.type("quit")
        assert await ear.done() is None
        # Withdrawing a name that is nobody's makes no account for it.
        ear = await Ear(port, None, None).start()
        await ear.said("tournaments lists the host's tournaments")
        at = ear.type("withdraw 1")
        await ear.said("Your name at this table?", at)
        ear.type("zed")
        await ear.said("You could not withdraw from Winter Cup: zed is no account here", at)
        assert host.accounts.find("zed") is None
        ear.type("quit")
        assert await ear.done() is None


def test_a_page_of_three_a_table_says_the_sum_of_places_byes_and_withdrawals() -> None:
    """A knockout of three a table, in German: the sum of places before the other
    tie-breaks, a bye and a withdrawal on the standing's line, a table's places in order."""
    i18n.set_language("de")
    cup = TournamentInfo(
        7, "Herbst", "knockout", 3, 0, 86400.0, START, True, 0, 4, "running", 1, entered=True
    )
    page = TournamentPage(
        cup,
        (
            EntrantInfo("ann", 41),
            EntrantInfo("bob"),
            EntrantInfo("cy", None, 2),
            EntrantInfo("王小明", None, 1, True),
        ),
        (
            StandingInfo(1, "bob", 600, 350, 1225, 100, 1, 0),
            StandingInfo(2, "ann", 550, 0, 0, 200, 1, 1),
            StandingInfo(3, "王小明", 0, 600, 0, 300, 1, 0, withdrawn=True),
        ),
        (RoundInfo(1, (RoundTable("t4", ("王小明", "bob", "ann"), (3, 1, 2)),), ("cy",)),),
    )
    assert page_lines(page) == [
        "Herbst: ein Turnier im K.-o.-System, 3 Spieler je Tisch, 24 h pro Zug, gewertet; "
        "läuft, Turnierrunde 1, du bist dabei.",
        "Teilnehmer, 4: ann (Wertung 4,1), bob, cy (ab Turnierrunde 2), 王小明 (zurückgezogen).",
        "Tabelle, Punkte, dann Feinwertungen:",
        "1. bob: 6 Punkte; Platzsumme 1, Buchholz 3,5, Sonneborn-Berger 12,25.",
        "2. ann: 5,5 Punkte; Platzsumme 2, Buchholz 0, Sonneborn-Berger 0; 1-mal spielfrei.",
        "3. 王小明: 0 Punkte; Platzsumme 3, Buchholz 6, Sonneborn-Berger 0; zurückgezogen.",
        "Turnierrunde 1, 1 Tisch:",
        "Tisch t4, beendet: bob Platz 1, ann Platz 2, 王小明 Platz 3.",
        "Spielfrei in dieser Turnierrunde: cy.",
        "zuschauen und ein Tisch schaut dort zu, solange gespielt wird; wiedergabe und ein "
        "Tisch spielt ihn ab, wenn er beendet ist.",
    ]


class ScriptedHost:
    """A host on 127.0.0.1 that speaks protocol ``version`` line by line as the test
    says: it answers hello, each ``list_tables`` with an empty list (a ``round_opened``
    just before it, when one is queued), and a ``tournaments`` list with none. What
    the client sent is kept."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.heard: list[ClientMessage] = []
        self.before_tables: list[bytes] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            for _ in range(100):
                message = decode_client(await reader.readuntil(b"\n"))
                self.heard.append(message)
                if isinstance(message, Hello):
                    writer.write(encode(Welcome(self.version, "scripted", "en")))
                elif isinstance(message, ListTables):
                    writer.writelines([*self.before_tables, encode(Tables(()))])
                    self.before_tables.clear()
                elif isinstance(message, TournamentsRequest):
                    writer.write(encode(TournamentList((), name=message.name)))
                await writer.drain()
        writer.close()


async def test_a_round_opened_just_before_an_answer_is_said_not_lost(tmp_path: Path) -> None:
    """The host tells of the round in the moment the lobby asks for its list again: the
    line comes before the list's answer, and is said."""
    host = ScriptedHost(6)
    port = await host.start()
    tokens = TokenStore(tmp_path / "tokens.json")
    tokens.put(f"127.0.0.1:{port}", "ann", "ann-token-0123456789")
    try:
        ear = await Ear(port, "ann", tokens).start()
        await ear.said("tournaments lists the host's tournaments")
        start = RoundStart(3, "Winter Cup", 2, "t9", 1, ("bob", "ann"))
        host.before_tables.append(encode(start))
        at = ear.type("")  # Enter: the list again
        said = await ear.said("Winter Cup, tournament round 2:", at)
        assert ear.out.said[said] == (
            "Winter Cup, tournament round 2: you sit at table t9 with bob. "
            "Type sit to take your seat."
        )
        assert await ear.said("No table is open on this host yet.", at) > said
        # The lobby named ann, with her token, to be told of rounds.
        named = [m for m in host.heard if isinstance(m, TournamentsRequest)]
        assert [(m.action, m.name, m.token) for m in named] == [
            ("list", "ann", "ann-token-0123456789")
        ]
        ear.type("quit")
        assert await ear.done() is None
    finally:
        await host.close()


async def test_a_host_of_protocol_5_is_asked_nothing_of_tournaments(tmp_path: Path) -> None:
    """An older host would close the connection on a ``tournaments``: none is sent, the
    help names no tournament word, and the word says the host runs none."""
    host = ScriptedHost(5)
    port = await host.start()
    tokens = TokenStore(tmp_path / "tokens.json")
    tokens.put(f"127.0.0.1:{port}", "ann", "ann-token-0123456789")
    try:
        ear = await Ear(port, "ann", tokens).start()
        said = await ear.said("player and a name a player's page.")
        at = ear.type("tournaments")
        await ear.said("This host runs no tournaments.", at)
        assert not any("tournaments lists" in line for line in ear.out.said[: said + 2])
        ear.type("quit")
        assert await ear.done() is None
        assert not any(isinstance(m, TournamentsRequest) for m in host.heard)
    finally:
        await host.close()


def test_the_seat_word_open_is_not_the_tournaments_open_for_entry() -> None:
    """zh-TW: a seat open to the lobby's players is 開放, typed at the new table's prompt;
    開放報名 (open for entry) is a tournament's state, not a seat."""
    from paris_tui.reader.commands import parse, word_for

    i18n.set_language("zh-TW")
    assert word_for("open") == "開放"
    assert parse("開放", ("open",)).command == "open"


async def test_a_tournaments_name_is_never_broken_across_lines(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        tokens = await _ann(tmp_path, port)
        store = host.tournaments.store
        assert store is not None
        store.create("Grand Prix de Paris", Plan("swiss", 2, 3), move_time=120, start=LATER)
        ear = await Ear(port, "ann", tokens).start()
        await ear.said("tournaments lists the host's tournaments")
        at = ear.type("enter grand")
        await ear.said("You are in Grand Prix de Paris now", at)
        at = ear.type("enter grand")  # the name would straddle the 40th cell
        await ear.said("You could not enter Grand Prix de Paris:", at)
        ear.type("quit")
        assert await ear.done() is None
        ear.broken_only_at_spaces(["Grand Prix de Paris", "ann"])
