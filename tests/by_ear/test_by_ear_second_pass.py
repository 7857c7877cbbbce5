"""Play by ear, second pass: lines that read whole, help that is complete, questions asked
again, the hint and the board in words, one-line status, and the new commands (``status``,
``who``, ``chat``, ``brief``/``verbose``, ``bell``). In process, lines stamped by the test."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest
from babel.messages.pofile import read_po

from paris_tui import i18n
from paris_tui.app.local.session import SeatSpec, Session, SessionTable
from paris_tui.core import classic_board
from paris_tui.net.protocol import SeatInfo
from paris_tui.reader import say
from paris_tui.reader.commands import parse
from paris_tui.reader.inbox import Inbox, now
from paris_tui.reader.lines import Lines, wrap
from paris_tui.reader.play import Reader

if TYPE_CHECKING:
    from paris_tui.reader.prefs import Prefs

LOCALE = Path(i18n.__file__).parent / "locale"
BREAK_AFTER = "。，；：、！？"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def _game(names: list[str], seed: int = 4) -> SessionTable:
    """A game of ``names``; ``ai:LEVEL`` is an AI seat (named as the app names it)."""
    seats = [
        SeatSpec(f"{n[3:].title()} AI", n) if n.startswith("ai:") else SeatSpec(n) for n in names
    ]
    return SessionTable(Session.new(seats, seed=seed))


async def _play(
    table: SessionTable,
    answer: Callable[[str, Inbox], object],
    *,
    prefs: Prefs | None = None,
    stream: io.StringIO | None = None,
    limit: float = 60.0,
) -> tuple[str, Lines, Reader]:
    """Run a Reader on ``table``; ``answer(line, inbox)`` reacts to each new sentence."""
    stream = stream if stream is not None else io.StringIO()
    out = Lines(stream, width=lambda: 80)
    inbox = Inbox()
    reader = Reader(table, out, inbox, **({"prefs": prefs} if prefs is not None else {}))
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
    return stream.getvalue(), out, reader


def _later(inbox: Inbox) -> float:
    return now() + 10 + inbox.queue.qsize()


def _auto(line: str, inbox: Inbox) -> bool:
    if "press Enter when only you are listening" in line:
        inbox.put("", _later(inbox))
    elif "Type the number, or" in line or "choose a tile by its number" in line:
        inbox.put("1", _later(inbox))
    elif "to leave." in line and "review" in line:
        inbox.put("quit", _later(inbox))
    else:
        return False
    return True


# --- lines that read whole ----------------------------------------------------------------


def _catalog_strings() -> Iterator[tuple[str, str]]:
    """Every catalog string: the English msgid and each language's msgstr."""
    for lang in ("de", "zh_TW"):
        with (LOCALE / lang / "LC_MESSAGES" / "paris_tui.po").open("rb") as f:
            catalog = read_po(f)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strs = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in ids:
                if lang == "de":
                    yield "en", text
            for text in strs:
                if text:
                    yield lang, text


def _stop_names() -> list[str]:
    board = classic_board()
    return [s.name for s in board.stops]


def _breaks_ok(text: str, lines: list[str], keep: list[str]) -> None:
    """Each line is a piece of ``text``; between two, only spaces (or a full-width stop or
    comma ends the first); no break falls inside a phrase of ``keep``."""
    at = 0
    cuts = []
    for n, line in enumerate(lines):
        found = text.find(line, at)
        assert found >= 0, (text, lines)
        gap = text[at:found]
        if n:
            assert gap.strip() == "", (text, lines)  # nothing but spaces was dropped
            assert gap or lines[n - 1][-1] in BREAK_AFTER, ("broken inside a word", lines)
            cuts.append(found)
        at = found + len(line)
    assert text[at:].strip() == ""
    for phrase in keep:
        start = text.find(phrase)
        while start >= 0:
            assert not any(start < cut < start + len(phrase) for cut in cuts), (phrase, lines)
            start = text.find(phrase, start + 1)


def test_no_catalog_string_or_stop_name_is_broken_inside_a_word_or_a_name() -> None:
    stops = _stop_names()
    count = 0
    for n, (lang, template) in enumerate(_catalog_strings()):
        i18n.set_language("zh-TW" if lang == "zh_TW" else lang)
        # Every field a stop's name, so a break inside one would show.
        fields = iter(stops[n % len(stops) :] + stops * 4)
        text = re.sub(r"\{[^{}]*\}", lambda _m, f=fields: next(f), template)
        text = " ".join(text.split())
        for width in (24, 40, 80):
            lines = wrap(text, width, say.fixed_phrases())
            _breaks_ok(text, lines, stops)
            count += 1
    assert count > 3000
    for name in stops:
        sentence = f"Ann took {name}, Blue line, and opened a business there. " * 2
        for width in range(12, 60):
            _breaks_ok(sentence.strip(), wrap(sentence.strip(), width, say.fixed_phrases()), stops)


def test_a_line_that_cannot_be_broken_at_a_space_stays_whole() -> None:
    assert wrap("x" * 200, 40) == ["x" * 200]
    chinese = "輪到你了安用編號或巴士站名稱選擇站牌" * 6
    assert wrap(chinese, 40) == [chinese]


# --- help, questions asked again, whose turn ---------------------------------------------------


def test_help_after_the_game_names_every_command_that_still_works() -> None:
    table = _game(["Ann", "Bob"], seed=3)
    state = {"helped": False}

    def answer(line: str, inbox: Inbox) -> None:
        if "to leave." in line and "review" in line and not state["helped"]:
            state["helped"] = True
            inbox.put("help", _later(inbox))
            inbox.put("quit", _later(inbox) + 5)
            return
        _auto(line, inbox)

    _text, out, _r = asyncio.run(_play(table, answer))
    end = out.said.index("The game is over.")
    helped = " ".join(out.said[end:])
    helped = helped[helped.index("Type review for the strong AI") :]
    for word in ("board", "last", "log", "scores", "review", "status", "who", "quit"):
        assert re.search(rf"\b{word}\b", helped), word
    assert "Type review, scores, or quit." not in helped


def test_an_interruption_and_an_empty_enter_ask_the_turns_question_again() -> None:
    table = _game(["Ann", "ai:random"], seed=3)
    state = {"step": 0}
    away = (SeatInfo("Ann", "human", "present"), SeatInfo("Bob", "human", "away"))

    def answer(line: str, inbox: Inbox) -> None:
        if "choose a tile by its number" in line:
            state["step"] += 1
            if state["step"] == 1:
                reader.updates.put_nowait(("presence", SimpleNamespace(seats=away)))
                return
            if state["step"] == 2:
                inbox.put("", _later(inbox))
                return
            inbox.put("quit", _later(inbox))

    reader: Reader

    async def run() -> list[str]:
        nonlocal reader
        stream = io.StringIO()
        out = Lines(stream, width=lambda: 80)
        inbox = Inbox()
        reader = Reader(table, out, inbox)
        task = asyncio.ensure_future(reader.run())
        seen = 0
        deadline = now() + 30
        while not task.done():
            assert now() < deadline, out.said[-10:]
            await asyncio.sleep(0.002)
            while len(out.said) > seen:
                seen += 1
                answer(out.said[seen - 1], inbox)
        return out.said

    said = asyncio.run(run())
    away_at = next(i for i, line in enumerate(said) if line.endswith("is away."))
    assert "choose a tile by its number" in said[away_at + 1]  # the question again
    turns = [i for i, line in enumerate(said) if "choose a tile by its number" in line]
    assert len(turns) == 3  # first, after the interruption, after the empty Enter
    assert said[turns[2] + 1].startswith("1 ")  # the empty Enter: with the tiles


def test_out_of_range_and_not_your_turn_say_the_range_and_whose_turn() -> None:
    from paris_tui.reader.turn import TurnInput

    table = _game(["Ann", "Bob"], seed=3)
    view = table.view(table.view(None).to_move)
    out = Lines(io.StringIO(), width=lambda: 80)
    TurnInput(out).read("9", view, None)
    n = len(view.face_up)
    assert out.said[-1] == f"There is no tile 9: type a number from 1 to {n}."

    from paris_tui.reader.inbox import Typed

    bots = _game(["Ann", "ai:strong"], seed=3)
    reader = Reader(bots, out, Inbox())
    while reader.public.to_move != 1:
        seat = reader.public.to_move
        assert seat is not None
        bots.submit(seat, bots.view(seat).legal_moves[0], bots.move_count)
        reader.public = bots.view(None)
    reader._between_turns(Typed("zzz", now()))
    assert out.said[-1] == "It is Strong AI's turn, not yours: type help for what you can ask."


# --- wording -----------------------------------------------------------------------------


def test_one_business_at_a_plain_stop_and_the_german_line_names_read_right() -> None:
    table = _game(["Ann", "Bob"], seed=3)
    view = table.view(None)
    plain = next(s for s in view.board.stops if not s.is_crossing)
    occupancy = list(view.occupancy)
    occupancy[view.board.stop_index[plain.id]] = (0,)
    fake = SimpleNamespace(
        board=view.board, names=view.names, occupancy=tuple(occupancy), players=2
    )
    line = say.stop_line(fake, plain.id)  # type: ignore[arg-type]
    assert "full, with Ann's business" in line[1], line
    assert "businesses of Ann" not in line[1]
    i18n.set_language("de")
    yellow = next(s for s in view.board.stops if not s.is_crossing and len(s.lines) == 1)
    sentence = say.stop_line(view, yellow.id)[0]
    assert " an der " in sentence and "en Linie" in sentence, sentence
    crossing = next(s for s in view.board.stops if s.is_crossing)
    sentence = say.stop_line(view, crossing.id)[0]
    assert "von der " in sentence and "en Linie und der " in sentence, sentence


def test_ai_seats_are_named_in_the_players_language_and_umlauts_may_be_spelt_out() -> None:
    table = _game(["Ann", "ai:greedy"], seed=3)
    names = table.view(None).names
    i18n.set_language("de")
    assert say.name(names, 1) == "Gierige KI"
    assert parse("plaettchen", ("tiles",)).command == "tiles"
    assert parse("plättchen", ("tiles",)).command == "tiles"
    i18n.set_language("zh-TW")
    assert "Greedy" not in say.name(names, 1)


def test_the_hint_by_ear_in_words_without_signs_letters_or_doubled_marks() -> None:
    from paris_tui.reader.hint import margin_words

    assert margin_words(-70.7) == "you would end about 71 points behind"
    assert margin_words(3.2) == "you would end about 3 points ahead"
    assert margin_words(0.9) == "you would end about 1 point ahead"
    assert "even" in margin_words(0.3)
    for lang in ("en", "zh-TW"):
        hint = _hint_lines(lang)
        text = " ".join(hint[1:])
        assert len(hint) == 4, hint
        assert "\u2212" not in text and not re.search(r"\d\.\d", text), text
        assert not re.search(r"\([A-Z]\)", text), text
        assert "。，" not in text and "。；" not in text, text


def _hint_lines(lang: str) -> list[str]:
    """A hint asked on the first turn, in ``lang``: "asked", then its three lines."""
    i18n.set_language(lang)
    turn = i18n.gettext("Your turn, {player}: choose a tile by its number or its stop.")
    turn = turn.split("{player}")[-1][:6]
    heads = tuple(
        i18n.gettext(t).split("{")[0]
        for t in ("Hint: take {tile}; {margin}.", "Why: {reason}.", "The other tiles: {tiles}.")
    )
    hint: list[str] = []

    def answer(line: str, inbox: Inbox) -> None:
        if turn in line and not hint:
            hint.append("asked")
            inbox.put("hint", now() + 5)
        elif line.startswith(heads):
            hint.append(line)
            if line.startswith(heads[2]):
                inbox.put("quit", now() + 20)

    asyncio.run(_play(_game(["Ann", "ai:random"], seed=3), answer))
    return hint


# --- status on rejoin, and the new commands ---------------------------------------------------


def test_a_resumed_game_says_where_it_stands_in_one_line() -> None:
    session = Session.new([SeatSpec("Ann"), SeatSpec("Bob")], seed=3)
    for _ in range(5):
        seat = session.view(None).to_move
        assert seat is not None
        session.play(session.view(seat).legal_moves[0])
    table = SessionTable(session)

    def answer(line: str, inbox: Inbox) -> None:
        if "press Enter" in line:
            inbox.put("quit", _later(inbox))

    _text, out, _r = asyncio.run(_play(table, answer))
    resumed = out.said.index("Resumed after 5 moves.")
    status = out.said[resumed + 1]
    assert status.startswith("Round ") and "turn." in status and "Face up: 1 " in status
    assert "Scores: Ann " in status


def test_status_who_chat_brief_and_bell(tmp_path: Path) -> None:
    table = _game(["Ann", "ai:random"], seed=3)
    typed = iter(["status", "who", "chat", "bell", "bell on", "brief", "1"])
    stream = io.StringIO()

    def answer(line: str, inbox: Inbox) -> None:
        if "choose a tile by its number" in line:
            for text in typed:
                inbox.put(text, _later(inbox))
                if text == "1":
                    return
            inbox.put("quit", _later(inbox))

    from paris_tui.reader.prefs import Prefs

    prefs = Prefs.load(tmp_path)
    _text, out, _r = asyncio.run(_play(table, answer, prefs=prefs, stream=stream))
    said = out.said
    status = next(line for line in said if line.startswith("Round ") and "Face up:" in line)
    assert "Scores:" in status
    who = "At the table: Ann, at this terminal; Random AI, an AI"
    assert any(line.startswith(who) for line in said)
    assert "This table has no chat." in said
    assert "The bell is off. Type bell on or bell off." in said
    assert "Bell on: a bell rings when it is your turn." in said
    assert "Brief: a grand or special tour is read in one line." in said
    assert "\a" in stream.getvalue()  # the second turn rang
    kept = Prefs.load(tmp_path)
    assert kept.bell and kept.brief


def test_brief_reads_a_grand_tour_in_one_line() -> None:
    from paris_tui.reader.prefs import Prefs

    table = _game(["Ann", "Bob"], seed=3)
    prefs = Prefs(brief=True)
    _text, out, _r = asyncio.run(_play(table, _auto, prefs=prefs))
    tours = [i for i, line in enumerate(out.said) if line.startswith("Grand tour on the")]
    assert tours
    for i in tours:
        assert "Scores:" in out.said[i] or "Nobody scores." in out.said[i]
        assert not out.said[i + 1].startswith("At ")
    assert not any(line.startswith("At ") for line in out.said)


def test_a_chat_line_that_comes_with_the_last_move_waits_for_the_end_block() -> None:
    """The final scores follow "The game is over." at once: a chat line that came with the
    last move (a watcher's "gg") is read after the end's block, never inside it."""
    from paris_tui.net.chat_wire import ChatLine

    table = _game(["ai:random", "ai:easy"], seed=3)
    gg = ChatLine(table="t1", name="zoe", seat=None, channel="all", text="gg", phrase=None)

    async def run() -> list[str]:
        out = Lines(io.StringIO(), width=lambda: 80)
        inbox = Inbox()
        reader = Reader(table, out, inbox)
        heard = reader.table_changed

        def changed(t: object, events: tuple[object, ...]) -> None:
            heard(t, events)  # type: ignore[arg-type]
            if table.view(None).is_over:
                reader.updates.put_nowait(("chat", gg))  # in the same moment

        reader.table_changed = changed  # type: ignore[method-assign]
        task = asyncio.ensure_future(reader.run())
        for _ in range(20000):
            if "The game is over." in out.said and any("gg" in s for s in out.said):
                break
            await asyncio.sleep(0.002)
        inbox.put("quit", now() + 1)
        await asyncio.wait_for(task, 30)
        return out.said

    said = asyncio.run(run())
    over = said.index("The game is over.")
    assert said[over + 1].startswith("Final scores:"), said[over:]
    assert said.index("zoe (watching) says: gg") > over + 2


def test_a_number_stays_with_the_word_it_counts() -> None:
    text = "Special tour on the Pink line, Ann's route. Scores: Greedy AI 18 points; Ann 3 points."
    for width in range(20, 90):
        for line in wrap(text, width):
            assert not line[-1].isdigit(), (width, line)


def test_help_at_a_table_names_the_chats_and_the_new_commands() -> None:
    from paris_tui.reader.queries import end_help_lines, help_lines

    for lines in (help_lines(turn=False, chat=True), end_help_lines(chat=True)):
        text = " ".join(lines)
        for word in ("say", "mute", "unmute", "chat", "status", "who", "brief", "bell"):
            assert re.search(rf"\b{word}\b", text), (word, text)
    local = " ".join(help_lines(turn=True, chat=False))
    assert "say" not in local.split() and "status" in local


def test_help_after_the_game_names_only_what_still_does_something() -> None:
    from paris_tui.reader.queries import end_help_lines, help_lines

    during = " ".join(help_lines(turn=False, chat=True))
    assert re.search(r"\bresign\b", during) and re.search(r"\babort\b", during)
    for rematch in (False, True):
        after = " ".join(end_help_lines(chat=True, rematch=rematch))
        assert not re.search(r"\bresign\b|\babort\b", after), after
        assert bool(re.search(r"\brematch\b", after)) is rematch, after


def test_back_on_a_new_connection_the_reader_says_where_the_game_stands() -> None:
    async def run() -> list[str]:
        table = _game(["Ann", "Bob"], seed=3)
        out = Lines(io.StringIO(), width=lambda: 80)
        reader = Reader(table, out, Inbox())
        reader.set_connection("closed")
        reader.rebind(table)  # the same game on a new connection
        for item in reader.waiting.pending():
            reader.handle_update(item)
        return out.said

    said = asyncio.run(run())
    back = said.index("The connection is back.")
    assert any(line.startswith("Round 1 of 20.") and "Face up: 1 " in line for line in said[back:])


def test_chinese_sentences_follow_each_other_without_a_space() -> None:
    """Found by hand: the turn's line read ``...。 輪到你了`` (a space after the full
    stop, which a Chinese text never has); English keeps its space."""
    from paris_tui.core import Game

    view = Game.new(2, seed=3).view(0)
    try:
        i18n.set_language("zh-TW")
        chinese = [say.turn_lines(view, yours=True)[0], say.status_line(view)]
    finally:
        i18n.set_language("en")
    for line in chinese:
        assert "。 " not in line, line
    english = say.turn_lines(view, yours=True)[0]
    assert english.startswith("Round 1 of ") and ". Your turn, " in english, english
