"""The messages of each protocol version, built with the public constructors.

``tests/net/wire_versions.jsonl`` holds the line each of them was encoded to
by the hand-written encoder that protocol versions 1 to 4 were defined by
(made with ``python -m tests.net.wire_cases`` before the messages were
declared as msgspec structs). ``test_wire_versions.py`` holds today's
encoder and decoders to those bytes (so running this again must leave the
file as it is).

Each version's cases are the messages that version has, with values such as
its clients and hosts send: version 1's join without a link code, version
3's with one, and so on; the fields later versions added to existing
messages (``hints``, ``waiting``, a seat's ``rating``) are written to every
version, as a host writes them.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from paris_tui.core import Game, Move
from paris_tui.core.record import Record
from paris_tui.net.protocol import (
    AccountInfo,
    AccountRequest,
    Agree,
    Agreement,
    Bye,
    Chat,
    ChatLine,
    FinishedGame,
    FriendsInfo,
    FriendsRequest,
    Games,
    GetRecord,
    Hello,
    Join,
    Leader,
    Leave,
    Left,
    ListGames,
    ListTables,
    MoveClock,
    MutesInfo,
    MutesRequest,
    OpenTable,
    Ping,
    Play,
    Pong,
    Presence,
    RatedResult,
    RecordSent,
    Refused,
    Relay,
    Seated,
    SeatInfo,
    TableInfo,
    Tables,
    Update,
    Vouch,
    Waiting,
    Watch,
    Watching,
    Welcome,
)
from paris_tui.net.tournaments_wire import (
    EntrantInfo,
    NewTournament,
    RoundInfo,
    RoundStart,
    RoundTable,
    StandingInfo,
    TournamentInfo,
    TournamentList,
    TournamentPage,
    TournamentsRequest,
)

DATA = Path(__file__).with_name("wire_versions.jsonl")
TOKEN = "N4X_wg_RFI0ozX5Fqp1GJdxJiweNstJ6Xhb0LCO97EY"
Case = tuple[int, str, str, Any]
"""(version, direction, label, message): direction is ``client`` or ``host``."""


def _games() -> tuple[Game, Game, Game, list[Any], list[Any]]:
    """A game just begun, one in its middle (after a move that evicted, if one came)
    and one over; the events of the middle game's last move and of a whole game."""
    start = Game.new(["Ann", "Zoë", "王小明"], seed=11)
    middle = Game.new(["ann", "bob", "Cy", "\U0001f642 Dee"], seed=5)
    rng = random.Random(5)
    last: list[Any] = []
    for _ in range(middle.total_moves // 2):
        moves = middle.legal_moves()
        evicting = [m for m in moves if m.evict is not None]
        last = middle.play(evicting[0] if evicting else rng.choice(moves))
    over = Game.new(["Ann", "Bob"], seed=9)
    whole: list[Any] = []
    rng = random.Random(9)
    while not over.is_over:
        whole += over.play(rng.choice(over.legal_moves()))
    return start, middle, over, last, whole


def _seats(version: int) -> tuple[SeatInfo, ...]:
    seats = [
        SeatInfo("Ann", "human", "present"),
        SeatInfo("Zoë", "human", "away"),
        SeatInfo("Cy", "ai:greedy", "ai"),
        SeatInfo("王小明", "human", "takeover"),
    ]
    if version >= 4:  # ratings: additive, but a host has them since version 4's clients
        seats[0] = SeatInfo("Ann", "human", "present", rating=41)
        seats[1] = SeatInfo("Zoë", "human", "away", rating=-12)
    return tuple(seats)


def _free_seats() -> tuple[SeatInfo, ...]:
    return (
        SeatInfo("Zoë", "human", "present"),
        SeatInfo("", "human", "free"),
        SeatInfo("Greedy AI", "ai:greedy", "ai"),
        SeatInfo("", "human", "free"),
    )


def _client(version: int) -> Iterator[tuple[str, Any]]:
    yield "hello", Hello(version, f"paris-tui 0.{version}.0", "en")
    yield "hello fr-CA", Hello(version, 'a bot "quoted" \\ back', "fr-CA")
    yield "join first", Join("Ann", None, None)
    yield "join again", Join("Zoë", TOKEN, "t3")
    yield "join a lone surrogate", Join("Ann\ud800", None, None)  # the host says bad_name
    yield "join controls", Join("\x1b[2J\x7f\u202e\u2028", None, "t1")
    yield "watch", Watch("t1")
    yield "list_tables", ListTables()
    yield "play", Play(Move("louvre/yellow"), 12)
    yield "play evict", Play(Move("opera/pink", 2), 0)
    yield "ping", Ping(0)
    yield "ping big", Ping(2**31)
    yield "pong", Pong(-5)
    if version >= 2:
        yield "open_table", OpenTable("Zoë", ("me", "open", "ai:greedy"), "tile-line", "all-lines")
        yield "open_table defaults", OpenTable("Ann", ("open", "me"))
        yield "leave", Leave()
    if version >= 3:
        yield "join code", Join("Ann", None, "t2", "ABCD-1234")
        yield "open_table account", OpenTable("ann", ("me", "open"), token=TOKEN, code="x y.z")
        yield "account show", AccountRequest("ann", TOKEN)
        yield "account code", AccountRequest("ann", TOKEN, "code")
        key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB+/= ann@host"
        yield "account add_key", AccountRequest("ann", None, "add_key", key)
    if version >= 4:
        yield "open_table timed", OpenTable("ann", ("me", "ai:strong"), move_time=90.0)
        yield "open_table turn-based", OpenTable("ann", ("me", "open"), move_time=86400.0)
        yield "open_table odd time", OpenTable("ann", ("me", "open"), move_time=2.5)
        yield "watch as", Watch("t12", "zoë", TOKEN)
        yield "watch as nobody", Watch("t12", "zoë")
        yield "list_games", ListGames()
        yield "get_record", GetRecord("t7")
        yield "chat text", Chat("gl [b]all[/b] 王 \U0001f642")
        yield "chat phrase", Chat(phrase="good_game")
        yield "chat as", Chat("hi", name="zoë", token=TOKEN)
        yield "friends show", FriendsRequest("ann", TOKEN)
        yield "friends add", FriendsRequest("ann", TOKEN, "add", "Bob")
        yield "friends remove", FriendsRequest("ann", None, "remove", "王")
        yield "mutes show", MutesRequest()
        yield "mutes add", MutesRequest("add", "bob")
        yield "mutes as", MutesRequest("remove", "bob", "zoë", TOKEN)
        yield "relay", Relay("203.0.113.9", "ab" * 32)
        vouch = Vouch("cd" * 32, "ssh", "SHA256:k", "zoë", "ssh-ed25519 z", 60, "ef" * 32)
        yield "relay vouch", Relay("door", "ab" * 32, vouch)
        browser = Vouch("cd" * 32, "browser", "00" * 32, None, "browser", 86_400, "ef")
        yield "relay browser", Relay("door", "ab" * 32, browser)
        yield "vouch", Vouch("cd" * 32, "ssh", "SHA256:k", "ann", "", 43_200, "ef")


def _host(version: int) -> Iterator[tuple[str, Any]]:
    start, middle, over, last, whole = _games()
    seats = _seats(version)
    yield "welcome", Welcome(version, "paris-tui 0.1.0", "en")
    yield "seated first", Seated("t1", 1, TOKEN, start.view(1), (), seats[:3])
    yield "seated again", Seated("t1", 3, None, middle.view(3), tuple(last), seats)
    yield "watching", Watching("t12", middle.view(None), tuple(last), seats)
    # A whole game's events once (they are written alike in every version).
    events = tuple(whole) if version == 1 else tuple(whole[-30:])
    yield "watching over", Watching("t3", over.view(None), events, seats[:2])
    yield "update", Update("t1", middle.view(0), tuple(last))
    yield "update watcher", Update("t1", middle.view(None), tuple(last))
    yield "update over", Update("t3", over.view(1), tuple(whole[-12:]))
    yield "presence", Presence("t1", seats)
    yield "error", Refused("stale", "the position changed", False)
    yield "error illegal", Refused("illegal", "'x' is not a tile", False, "unknown_tile")
    yield "error fatal", Refused("bad_message", "type: must be a string \x1b\u202e é", True)
    info = TableInfo("t1", seats, 12, 45, False)
    yield "tables", Tables((info, TableInfo("t2", seats[:2], 30, 30, True)))
    yield "tables none", Tables(())
    yield "bye", Bye("shutdown")
    yield "bye idle", Bye("idle")
    yield "ping", Ping(7)
    yield "pong", Pong(0)
    if version >= 2:
        waiting = TableInfo("t2", _free_seats(), 0, 0, False, waiting=True, free_seats=2)
        yield "tables waiting", Tables((info, waiting))
        yield "waiting", Waiting("t2", 0, _free_seats())
        yield "left", Left("t2")
        yield "left none", Left(None)
        yield "error v2", Refused("too_many_tables", "you opened 2 tables", False)
    if version >= 3:
        doors = (("browser", 1), ("ssh", 2), ("token", 0))
        yield "account", AccountInfo("ann", doors)
        yield "account code", AccountInfo("ann", (("ssh", 1),), "ABCD-1234", 600)
        yield "error v3", Refused("name_taken", "ann is an account", False)
    if version >= 4:
        yield "welcome hints", Welcome(version, "paris-tui 0.1.0", "fr", hints=True)
        board = (Leader("Ann", 412, 30), Leader("王小明", -3, 1))
        yield "tables leaderboard", Tables((info,), board)
        timed = TableInfo("t4", seats[:2], 3, 30, False, move_time=86400.0, to_move=1, waited=0.0)
        quick = TableInfo("t5", seats[:2], 3, 30, False, move_time=45.0, waited=12.345)
        tiny = TableInfo("t6", seats[:2], 3, 30, False, move_time=30.0, to_move=0, waited=3.2e-05)
        yield "tables timed", Tables((timed, quick, tiny), board)
        clock = MoveClock(86400.0, True, 1, 18000.0)
        yield "presence clock", Presence("t4", seats[:2], clock=clock)
        late = MoveClock(30.0, False, None, 0.000123, 0, 17)
        yield "presence timed out", Presence("t5", seats[:2], clock=late)
        rated = RatedResult(True, None, (1, 2, 3, 4), (), (41, -12, None, 7), (52, -20, None, 3))
        yield "presence rated", Presence("t1", seats, rated)
        unrated = RatedResult(False, "leaver", (2, 1), (0,), (None, None), (None, None))
        yield "presence unrated", Presence("t3", seats[:2], unrated, clock)
        games = (
            FinishedGame("t3", ("Ann", "Bob"), 1_796_140_800, True),
            FinishedGame("t9", ("Zoë", "王小明", "Cy"), 0, False),
        )
        yield "games", Games(games)
        yield "games none", Games(())
        record = Record.from_game(over, extra={"notes": {"x": 1.5, "tiny": 1e-07, "big": 1e16}})
        yield "record", RecordSent("t3", record.to_json_dict())
        yield "chat", ChatLine("t1", "ann", 0, "table", "gl [b]all[/b] 王 \U0001f642", None, 12)
        yield "chat phrase", ChatLine("t1", "", None, "watchers", None, "good_luck", 1_796_140_800)
        friends = (("Bob", False), ("王小明", True))
        yield "friends", FriendsInfo("ann", friends)
        yield "friends arrived", FriendsInfo("ann", friends, "王小明")
        yield "friends none", FriendsInfo("ann", ())
        yield "mutes", MutesInfo(("bob", "王"))
        yield "mutes none", MutesInfo(())
        yield "error v4", Refused("chat_limited", "say the next in 3 s", False)


def _new_in_5() -> Iterator[tuple[str, str, Any]]:
    """What version 5 added (every message of version 4 is in it as it was)."""
    yield "client", "agree rematch", Agree("rematch")
    yield "client", "agree abort taken back", Agree("abort", False)
    yield "client", "agree resign", Agree("resign")
    yield "host", "agreement", Agreement("t1", "rematch", (0, 2))
    yield "host", "agreement none", Agreement("t1", "abort")
    yield "host", "agreement to", Agreement("t1", "rematch", (0, 1), "t2")


def _new_in_6() -> Iterator[tuple[str, str, Any]]:
    """What version 6 added: the tournaments (every message of version 5 is in it)."""
    cup = TournamentInfo(
        7, "Winter Cup", "swiss", 2, 4, 120.0, 1796140800, True, 5, 6, "running", 2
    )
    yield "client", "tournaments list", TournamentsRequest()
    yield "client", "tournament show", TournamentsRequest("show", 7, "ann", TOKEN)
    yield "client", "tournament enter", TournamentsRequest("enter", 7, "王小明", TOKEN)
    yield (
        "client",
        "tournament create",
        TournamentsRequest(
            "create",
            None,
            "ann",
            TOKEN,
            NewTournament("Spring", "round-robin", 3, 0, 86400.0, 1796140800, True, 2),
        ),
    )
    yield (
        "host",
        "tournaments",
        TournamentList((cup, replace(cup, id=8, entered=True)), True, "ann"),
    )
    yield "host", "tournaments none", TournamentList(())
    yield (
        "host",
        "tournament",
        TournamentPage(
            cup,
            (EntrantInfo("ann", 412), EntrantInfo("王小明", None, 2, True)),
            (
                StandingInfo(1, "ann", 1200, 600, 600, 200, 2, 0),
                StandingInfo(2, "王小明", 300, 0, 0, 150, 0, 1, True),
            ),
            (
                RoundInfo(1, (RoundTable("t4", ("ann", "bob"), (1, 2)),), ("王小明",)),
                RoundInfo(2, (RoundTable(None, ("bob", "ann")),)),
            ),
            "entered",
        ),
    )
    yield "host", "round opened", RoundStart(7, "Winter Cup", 2, "t9", 1, ("bob", "ann"))
    yield (
        "host",
        "error v6",
        Refused("entries_closed", "this tournament takes no more entries", False),
    )
    # A tournament's table says so (no rematch there), seated or watching.
    start, middle, _over, last, _whole = _games()
    seats = _seats(6)
    yield "host", "seated tournament", Seated("t9", 1, TOKEN, start.view(1), (), seats[:2], "王杯")
    watched = Watching("t9", middle.view(None), tuple(last), seats, "Winter Cup")
    yield "host", "watching tournament", watched
    yield (
        "host",
        "error tournament table",
        Refused("tournament_table", "a tournament's table has no rematch", False),
    )


def cases() -> list[Case]:
    out: list[Case] = []
    for version in (1, 2, 3, 4):
        out += [(version, "client", label, m) for label, m in _client(version)]
        out += [(version, "host", label, m) for label, m in _host(version)]
    out += [(5, direction, label, m) for direction, label, m in _new_in_5()]
    out += [(6, direction, label, m) for direction, label, m in _new_in_6()]
    return out


def write(path: Path = DATA) -> None:
    """Record each case's line as the encoder of today encodes it."""
    from paris_tui.net.protocol import encode

    with path.open("w", encoding="ascii") as out:
        for version, direction, label, message in cases():
            line = encode(message).decode("ascii")
            row = {"version": version, "direction": direction, "label": label, "line": line}
            out.write(json.dumps(row, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA)
