"""Play by ear in process: hostile names read out literally, the hand-off's gate,
wrapping in cells, and forgiving commands. Fast: no terminal, lines stamped by the test."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

import pytest
from hostile_corpus import SHOWN
from rich.cells import cell_len

from paris_tui.app.local.session import SeatSpec, Session, SessionTable
from paris_tui.reader import wanted
from paris_tui.reader.commands import match_names, parse
from paris_tui.reader.inbox import Inbox, now
from paris_tui.reader.lines import Lines, wrap
from paris_tui.reader.play import Reader


def _game(names: list[str], seed: int = 4) -> SessionTable:
    return SessionTable(Session.new([SeatSpec(n) for n in names], seed=seed))


async def _play(
    table: SessionTable,
    answer: Callable[[str, Inbox], bool],
    *,
    limit: float = 30.0,
) -> tuple[str, Lines]:
    """Run a Reader on ``table``; ``answer(last_line, inbox)`` reacts to each new sentence."""
    stream = io.StringIO()
    out = Lines(stream, width=lambda: 80)
    inbox = Inbox()
    reader = Reader(table, out, inbox)
    task = asyncio.ensure_future(reader.run())
    seen = 0
    deadline = now() + limit
    while not task.done():
        assert now() < deadline, stream.getvalue()[-2000:]
        await asyncio.sleep(0.002)
        while len(out.said) > seen:
            seen += 1
            answer(out.said[seen - 1], inbox)
    assert task.result() == 0
    return stream.getvalue(), out


def _auto(line: str, inbox: Inbox) -> bool:
    """Answer like a player with a steady hand: every line typed on purpose, later."""
    later = now() + 10 + inbox.queue.qsize()  # stamps far apart
    if "press Enter when only you are listening" in line:
        inbox.put("", later)
    elif "Type the number, or" in line or "choose a tile by its number" in line:
        inbox.put("1", later)
    elif "to leave." in line and "review" in line:
        inbox.put("quit", later)
    else:
        return False
    return True


def _groups() -> list[list[str]]:
    names = [c.shown for c in SHOWN if c.shown is not None and "," not in c.shown]
    groups, group, folded = [], [], set()
    for name in names:
        if name.casefold() in folded or len(group) == 4:
            groups.append(group)
            group, folded = [], set()
        group.append(name)
        folded.add(name.casefold())
    if len(group) >= 2:
        groups.append(group)
    return [g for g in groups if len(g) >= 2]


@pytest.mark.parametrize("names", _groups(), ids=lambda g: "|".join(g)[:40])
def test_hostile_names_are_read_out_literally(names: list[str]) -> None:
    text, _out = asyncio.run(_play(_game(names), _auto))
    assert "\x1b" not in text and "\x9b" not in text
    for name in names:
        assert name in text, name  # as typed: never markup, never an escape
    assert "The game is over." in text
    # Every line under the width, in cells.
    assert all(cell_len(line) < 80 for line in text.splitlines())


def test_a_held_or_early_enter_does_not_pass_the_hand_off() -> None:
    table = _game(["Ann", "Bob"], seed=9)
    state = {"handoffs": 0, "bob_route_before": False}

    def answer(line: str, inbox: Inbox) -> bool:
        if "Pass to Bob" in line:
            state["handoffs"] += 1
            if state["handoffs"] == 1:
                at = now()
                for k in range(6):  # a held Enter: one line every 30 ms, from the first moment
                    inbox.put("", at + 0.03 * k)
                inbox.put("", at + 10)  # then, much later, a deliberate one
                return True
        if line.startswith("Your secret route, Bob"):
            state["bob_route_before"] = state["handoffs"] == 0
        return _auto(line, inbox)

    text, _out = asyncio.run(_play(table, answer))
    first = text.index("Pass to Bob")
    too_soon = text.index("Too soon: wait a moment, then press Enter.", first)
    route = text.index("Your secret route, Bob")
    assert first < too_soon < route  # the held Enter was refused before Bob's secret came
    assert text.count("Too soon") == 1  # said once, not once per repeat
    assert not state["bob_route_before"]


def test_wrap_keeps_every_line_under_the_width_in_cells() -> None:
    english = "Round 3 of 15. Your turn, Ann: choose a tile by its number or its stop. " * 3
    chinese = "輪到你了，安：用編號或巴士站名稱選擇站牌。" * 6
    for text in (english, chinese):
        lines = wrap(text, 40)
        assert all(cell_len(line) < 40 for line in lines), lines
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(not line.startswith(" ") for line in wrap(english, 40))
    # No place to break at: the piece stays whole (a word is never cut in two).
    assert wrap("x" * 200, 40) == ["x" * 200]


def test_commands_are_forgiving() -> None:
    allowed = ("board", "scores", "stop", "sack", "quit", "line")
    assert parse("Scores", allowed).command == "scores"
    assert parse("sc", allowed).command == "scores"
    assert parse("s", allowed).ambiguous == ("sack", "scores", "stop")
    assert parse("line blue", allowed).arg == "blue"
    assert parse(" 2 ", allowed).number == 2
    assert parse("\x1b[2J", allowed).command is None
    stops = ["Opéra", "Gare du Nord", "Gare de l'Est", "Saint-Germain"]
    assert match_names("opera", stops) == [0]
    assert match_names("nord", stops) == [1]
    assert match_names("gare", stops) == [1, 2]
    assert match_names("germ", stops) == [3]


def test_the_environment_turns_it_on() -> None:
    assert wanted(True, {})
    assert wanted(False, {"PARIS_TUI_SCREEN_READER": "1"})
    assert not wanted(False, {"PARIS_TUI_SCREEN_READER": "0"})
    assert not wanted(False, {})


def test_replay_steps_forward_and_back_to_the_records_scores() -> None:
    from paris_tui.core import Game
    from paris_tui.core.record import Player, Record, replay_summary
    from paris_tui.reader.replay import ReplayReader

    game = Game.new(["Ann", "Bob", "Cy"], seed=12)
    import random

    game.play_random(random.Random(3))
    record = Record.from_game(game, [Player("Ann"), Player("Bob"), Player("Cy")])
    stream = io.StringIO()
    out = Lines(stream, width=lambda: 80)

    async def run() -> int:
        inbox = Inbox()
        for _ in range(len(record.moves)):
            inbox.put("")  # Enter: the next move
        for line in ("back", "scores", "next", "next", "quit"):
            inbox.put(line)
        return await ReplayReader(record, out, inbox).run()

    assert asyncio.run(run()) == 0
    text = stream.getvalue()
    final = replay_summary(record)["final"]
    said = text[text.index("Final scores:") :].split("\n", 1)[0]
    for name, score in zip(("Ann", "Bob", "Cy"), final["scores"], strict=True):
        assert f"{name} {score} point" in said
    assert f"Move {len(record.moves)} of {len(record.moves)}." in text
    assert f"Position after move {len(record.moves) - 1} of {len(record.moves)}." in text
    assert "That was the last move." in text
    before, after = text.split("Final scores:", 1)
    assert "In the sack:" in after and "The routes were:" in after  # revealed at the end only
    assert "In the sack:" not in before and "The routes were:" not in before


def test_the_ascii_glyphs_say_stop_names_without_accents() -> None:
    from paris_tui.app.look.glyphs import set_glyphs

    set_glyphs("ascii")
    try:
        text, _out = asyncio.run(_play(_game(["Ann", "Bob"], seed=2), _auto))
    finally:
        set_glyphs("unicode")
    assert text.isascii(), [ch for ch in text if not ch.isascii()][:5]


def test_each_question_is_answered_in_one_to_a_few_lines() -> None:
    from paris_tui import i18n
    from paris_tui.reader.queries import VIEW_QUERIES, answer

    table = _game(["Ann", "Bob", "Cy"], seed=7)
    view = table.view(0)
    for command in VIEW_QUERIES:
        lines = answer(view, command, "")
        assert 1 <= len(lines) <= 6, (command, lines)
    assert answer(view, "line", "blue")[0].startswith("Blue line: ")
    assert answer(view, "stop", "nord")[0].startswith("Gare du Nord is ")
    assert answer(view, "stop", "gare") == ["Which stop: Gare du Nord and Gare de l'Est?"]
    assert answer(view, "route")[0].startswith("Your secret route, Ann: the ")
    public = answer(table.view(None), "route")  # nobody's turn at this terminal: no route
    assert public == ["No secret route is read out now: it is nobody's turn at this terminal."]
    i18n.set_language("de")
    try:
        assert answer(view, "line", "blau")[0].startswith("Blaue Linie: ")
        assert answer(view, "line", "blue")[0].startswith("Blaue Linie: ")  # English too
    finally:
        i18n.set_language("en")


def test_a_hint_on_your_turn_in_a_few_lines() -> None:
    table = _game(["Ann", "Bob"], seed=3)
    state = {"asked": False, "hint": []}

    def answer(line: str, inbox: Inbox) -> None:
        if "choose a tile by its number" in line and not state["asked"]:
            state["asked"] = True
            inbox.put("hint", now() + 5)
            return
        if line.startswith(("Hint: take", "Why: ", "The other tiles: ")):
            state["hint"].append(line)
            if line.startswith("The other tiles: "):
                inbox.put("1", now() + 6)
            return
        if "choose a tile by its number" in line and state["hint"]:
            inbox.put("quit", now() + 7)
            return
        _auto(line, inbox)

    _text, _out = asyncio.run(_play(table, answer))
    hint, why, others = state["hint"]
    assert hint.startswith("Hint: take ") and "you would end about" in hint
    assert why.startswith("Why: ") and len(others) < 200


def test_the_flat_mode_imports_no_textual() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import paris_tui.reader.launch, paris_tui.reader.play, paris_tui.reader.replay\n"
        "import paris_tui.reader.lobby, paris_tui.reader.queries, paris_tui.app.look.hint_words\n"
        "print(','.join(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0 and out.stdout.strip() == "", out


def test_the_end_says_the_tie_break_and_a_shared_win() -> None:
    from dataclasses import replace

    from paris_tui.core import Outcome
    from paris_tui.reader import say

    view = _game(["Ann", "Bob", "Cy"]).view(None)
    fewest = Outcome((30, 30, 12), (0, 0, 0), (9, 11, 8), (0,), "fewest_businesses")
    lines = say.end_lines(replace(view, outcome=fewest))
    assert lines == [
        "Final scores: Ann 30 points; Bob 30 points; Cy 12 points.",
        "Ann wins the tie-break with the fewest businesses on the board (9).",
    ]
    shared = Outcome((30, 30, 12), (0, 0, 0), (9, 9, 8), (0, 1), "shared")
    assert say.end_lines(replace(view, outcome=shared))[1] == (
        "Ann and Bob share the win: the same score and the same number of businesses on the board."
    )


def test_review_at_the_end_names_each_players_costliest_moves() -> None:
    session = Session.new([SeatSpec("Ann"), SeatSpec("Bob")], seed=6)
    table = SessionTable(session)
    stream = io.StringIO()
    out = Lines(stream, width=lambda: 80)

    async def run() -> int:
        inbox = Inbox()
        reader = Reader(table, out, inbox, review_simulations=20)
        task = asyncio.ensure_future(reader.run())
        seen = 0
        while not task.done():
            await asyncio.sleep(0.002)
            while len(out.said) > seen:
                seen += 1
                line = out.said[seen - 1]
                if "to leave." in line and "review" in line:
                    inbox.put("review", now() + 10)
                elif line.startswith("Bob: a mean loss"):
                    inbox.put("quit", now() + 11)
                else:
                    _auto(line, inbox)
        return task.result()

    assert asyncio.run(run()) == 0
    text = stream.getvalue()
    assert "Reviewing the game" in text
    assert "Ann: a mean loss of " in text and "Bob: a mean loss of " in text
    assert "the AI preferred" in text


def test_a_lost_connection_holds_the_move_and_asks_whether_to_go_on() -> None:
    table = _game(["Ann", "Bob"], seed=5)
    answers: list[bool] = []
    state: dict[str, int] = {"turns": 0, "held": 0, "asked": 0}

    async def follow(reader: Reader) -> None:
        reader.set_connection("closed")  # lost from the start
        while not state["held"]:
            await asyncio.sleep(0.002)
        answers.append(await reader.ask_yes_no("Go on trying to reach the host?"))
        reader.set_connection(None)

    stream = io.StringIO()
    out = Lines(stream, width=lambda: 80)

    async def run() -> int:
        inbox = Inbox()
        reader = Reader(table, out, inbox, follow=follow)
        task = asyncio.ensure_future(reader.run())
        seen = 0
        while not task.done():
            await asyncio.sleep(0.002)
            while len(out.said) > seen:
                seen += 1
                line = out.said[seen - 1]
                if "choose a tile by its number" in line:
                    state["turns"] += 1
                    inbox.put("1" if state["turns"] == 1 else "quit", now() + 5 + seen)
                elif line.startswith("The connection is lost"):
                    state["held"] += 1
                elif line == "Type yes or no.":
                    state["asked"] += 1
                    inbox.put("maybe" if state["asked"] == 1 else "yes", now() + 5 + seen)
                elif line == "The connection is back.":
                    inbox.put("1", now() + 5 + seen)
                else:
                    _auto(line, inbox)
        return task.result()

    assert asyncio.run(run()) == 0
    assert answers == [True] and state["asked"] == 2  # "maybe" was asked again
    assert state["held"] == 1  # the move typed while lost was held, and said so
    assert table.move_count == 1  # then made once the connection was back


def test_a_start_that_could_be_a_command_or_a_tile_takes_nothing() -> None:
    """'q' is both the start of quit and of Quartier Latin: a move cannot be taken back."""
    from paris_tui.reader.say import stop_name

    starts = {c[0] for c in ("board", "line", "stop", "tiles", "scores", "route", "help", "quit")}
    for seed in range(50):
        table = _game(["Ann", "Bob"], seed=seed)
        view = table.view(0)
        names = [stop_name(view.board, t.split("/")[0]) for t in view.face_up]
        both = [i for i, n in enumerate(names) if n[0].lower() in starts]
        if both:
            break
    index = both[0]
    reader = Reader(table, Lines(io.StringIO(), width=lambda: 80), Inbox())
    move, _choices = reader.turn_command(names[index][0].lower(), view, None)
    assert move is None and reader.out.said[-1].startswith("That could be "), reader.out.said
    assert names[index] in reader.out.said[-1]
    move, _choices = reader.turn_command(names[index], view, None)
    assert move is not None and move.tile == view.face_up[index]  # the whole name takes it


def test_the_discard_area_is_read_out_by_its_lines() -> None:
    """`discard` once a tile lies there (it crashed the flat mode: the view's discard area
    holds line ids, not tiles)."""
    from paris_tui.core import Game
    from paris_tui.reader.queries import answer

    game = Game.new(["Ann", "Bob"], seed=4)
    while not game.discard:
        game.play(game.legal_moves()[0])
    view = game.view(0)
    lines = answer(view, "discard", "")
    names = {"blue": "Blue", "yellow": "Yellow", "red": "Red", "pink": "Pink", "green": "Green"}
    expected = "; ".join(f"{names[line]} line" for line in view.discard)
    assert lines == [f"Discard area: {expected}."]


def test_a_seat_joined_from_another_terminal_is_said_in_words() -> None:
    """The flat mode said "Connection closed (replaced)." (a protocol word) where the game
    screen says that the seat was joined from another terminal."""
    from paris_tui.reader.say import connection_line

    assert connection_line("replaced", 0) == (
        "Your seat was joined from another terminal: this one left it."
    )
    assert connection_line("idle", 0) == (
        "Connection closed: the host heard nothing from this terminal for too long."
    )
    assert connection_line("closed", 2) == (
        "Connection lost: the host hung up without a reason; trying again, try 2."
    )


def test_the_new_game_prompt_words_a_wrong_count_and_names_ai_seats_by_level() -> None:
    """`paris-tui --screen-reader`: one name typed at "Type the players" was answered
    "--players names 1 player: Paris Paris is for 2 to 4" (an option nobody typed, and
    no whole sentence); the resume choice named an AI seat by its English code."""
    from paris_tui.reader.launch import players_count_problem, resume_choice
    from paris_tui.wording import in_language

    assert players_count_problem("Ann") == (
        "That is 1 player: type 2 to 4 players, separated by commas."
    )
    assert players_count_problem("a, b, c, d, e") == (
        "That is 5 players: type 2 to 4 players, separated by commas."
    )
    assert players_count_problem("Ann, ai:strong") is None
    with in_language("de"):
        line = resume_choice(["Ann", "Random AI"], 7, 40)
    assert line == "1: das Spiel von Ann, Zufalls-KI fortsetzen, nach 7 von 40 Zügen."


def test_quit_typed_just_before_a_turn_still_quits() -> None:
    """A ``quit`` typed while another seat moved, read only as this seat's turn began
    (a busy machine), is a quit: only a move typed before the turn is refused, never
    the wish to leave (seen over SSH: the quit was answered 'type it again')."""
    table = SessionTable(Session.new([SeatSpec("Ann"), SeatSpec("Random AI", "ai:random")], seed=4))
    state = {"turns": 0}

    def answer(line: str, inbox: Inbox) -> bool:
        if "choose a tile by its number" in line:
            state["turns"] += 1
            if state["turns"] == 2:
                inbox.put("quit", now() - 5)  # typed before this turn began
                return True
        return _auto(line, inbox)

    text, _out = asyncio.run(_play(table, answer))
    assert state["turns"] == 2, text[-800:]
    assert "typed before your turn began" not in text
