"""Outside text is never markup and never a terminal control (issue 7).

Names (and file names, and messages that quote them) come from the command
line, the new-game form, record files and saves. Each must be drawn exactly
as it is, whatever it holds: ``[red]``, ``[@click=app.quit]``, ``[/]``,
``$variables``, ``{braces}``, backslashes.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_corpus import ESCAPE_MARKERS, REFUSED, SHOWN, Case
from rich.cells import cell_len
from textual import events
from textual.pilot import Pilot
from textual.widgets import Button, Select, Static

from paris_tui import cli
from paris_tui.app.app import ParisApp
from paris_tui.app.local.session import SeatSpec, Session
from paris_tui.app.local.storage import find_unfinished, saves_dir
from paris_tui.app.look.describe import short_name
from paris_tui.app.look.palette import player_style
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.new_game import NameInput, NewGameScreen
from paris_tui.app.screens.resume import ResumeDialog
from paris_tui.app.start import launch
from paris_tui.app.terminal.keygate import QUIET_GAP
from paris_tui.core.record import load_record, replay
from paris_tui.core.text import printable

from .helpers import Notices, find_game, screen_text
from .pty_app import Key, PtyApp

SIZE = (100, 30)


# --- entry points ---------------------------------------------------------------


def open_via_cli(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, ParisApp | None]:
    """Run ``paris-tui ARGV`` up to the moment it would open the app.

    Returns the exit status, what went to stderr and the app it built (not
    yet running; ``None`` when the command refused). Everything before the
    app starts is the real command line path.
    """
    built: list[ParisApp] = []

    def capture(app: object) -> int:
        assert isinstance(app, ParisApp)
        app.anim = 0.0  # no tour animations in tests
        app.deliberate_keys = False  # keys at machine speed (the real gates: test_held_keys)
        app.ai_delay = 0.0
        app.cursor_blink = False
        built.append(app)
        return 0

    monkeypatch.setattr(launch, "_run", capture)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(argv)
    return status, err.getvalue(), built[0] if built else None


def write_record(path: Path, names: list[str], *, moves: int = 0, seed: int = 1) -> Path:
    """A record file whose players are called ``names`` exactly (written past every check)."""
    placeholders = [SeatSpec(f"P{i}") for i in range(len(names))]
    session = Session.new(placeholders, seed=seed, path=path)
    for _ in range(moves):
        seat = session.view(None).to_move
        session.play(session.view(seat).legal_moves[0])
    data = json.loads(path.read_text(encoding="utf-8"))
    for player, name in zip(data["players"], names, strict=True):
        player["name"] = name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def wait_for(pilot: Pilot[object], ready: Callable[[], bool], what: str) -> None:
    for _ in range(200):
        if ready():
            await pilot.pause()  # and drawn
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}\n{screen_text(pilot.app)}")


async def shows(pilot: Pilot[object], *texts: str) -> str:
    """Wait until every one of ``texts`` is on the screen, literally; the screen's text."""
    screen = ""
    for _ in range(100):
        screen = screen_text(pilot.app)
        if all(text in screen for text in texts):
            return screen
        await pilot.pause(0.02)
    missing = [text for text in texts if text not in screen]
    raise AssertionError(f"not on the screen: {missing!r}\n{screen}")


def handoff_for(app: ParisApp, seat: int) -> bool:
    screen = app.screen
    return isinstance(screen, HandoffScreen) and screen.seat == seat and screen.is_mounted


def turn_of(app: ParisApp, seat: int) -> bool:
    game = find_game(app)
    return game is not None and app.screen is game and game.turn_seat == seat


def label_offset(button: Button, label: str, word: str) -> tuple[int, int]:
    """Where ``word`` of ``label`` would be if ``label`` were drawn centred in ``button``."""
    region, content = button.region, button.content_region
    x = content.x - region.x + (content.width - len(label)) // 2 + label.index(word)
    return x, content.y - region.y


# --- the bugs as found (issue 7, items 1 and 2) ---------------------------------------


async def test_markup_names_from_the_command_line_are_drawn_literally_and_run_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, err, app = open_via_cli(
        ["play", "--players", "[red]x[/],[@click=app.quit]go,[b", "--seed", "3"], monkeypatch
    )
    assert status == 0 and err == "" and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the first hand-off")
        await shows(
            pilot,
            "Pass to ● [red]x[/]",
            "Only [red]x[/] should see",
            "I am [red]x[/] — press Enter",
            "▲ [@click=app.quit]go 0",
            "■ [b 0",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: turn_of(app, 0), "x's turn")
        await shows(pilot, "● [red]x[/]: choose a tile")
        await pilot.press("enter")  # x takes a tile: the hand-off to "go"
        await wait_for(pilot, lambda: handoff_for(app, 1), "go's hand-off")
        await shows(pilot, "I am [@click=app.quit]go — press Enter")
        # Click where "go" would be if the label were markup: it must press the
        # button (pass the hand-off), never quit.
        button = app.screen.query_one("#handoff-ready", Button)
        await pilot.click(button, offset=label_offset(button, "I am go — press Enter", "go"))
        await wait_for(pilot, lambda: turn_of(app, 1), "go's turn")
        assert app.is_running and app.return_code is None
        await shows(pilot, "● [red]x[/] took")


async def test_a_record_with_a_click_action_in_a_name_runs_nothing_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_record(tmp_path / "bell.json", ["[@click=app.bell]x", "Bob"])
    status, _, app = open_via_cli(["resume", str(path)], monkeypatch)
    assert status == 0 and app is not None
    rings: list[None] = []
    monkeypatch.setattr(app, "bell", lambda: rings.append(None))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        await shows(pilot, "I am [@click=app.bell]x — press Enter")
        button = app.screen.query_one("#handoff-ready", Button)
        await pilot.click(button, offset=label_offset(button, "I am x — press Enter", "x"))
        await wait_for(pilot, lambda: turn_of(app, 0), "the turn")
    assert rings == []


@pytest.mark.parametrize("name", ["[/]", "[link=http://x]a[/]"])
async def test_names_that_are_bad_markup_crash_nothing_now_or_at_the_next_launch(
    name: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, app = open_via_cli(["play", "--players", f"{name},Bob"], monkeypatch)
    assert status == 0 and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        await shows(pilot, f"I am {name} — press Enter")
        await pilot.press("enter")
        await wait_for(pilot, lambda: turn_of(app, 0), "the turn")
        await shows(pilot, f"● {name}: choose a tile")
    assert len(list(saves_dir().glob("*.json"))) == 1  # the autosave was written

    # The next plain `paris-tui`: its resume offer names the players literally.
    status, _, app = open_via_cli([], monkeypatch)
    assert status == 0 and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeDialog), "the resume offer")
        await shows(pilot, f"{name}, Bob · round 1 of 20")
        await pilot.press("y")
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        await shows(pilot, f"Pass to ● {name}")

    # And `paris-tui resume`.
    status, _, app = open_via_cli(["resume"], monkeypatch)
    assert status == 0 and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        await shows(pilot, f"I am {name} — press Enter", f"● {name} 0")


# --- the hostile corpus through every door ------------------------------------------
#
# Doors: the command line (`paris-tui play --players`), the new-game form
# (pasted into a name field), a record for `paris-tui resume FILE`, a record
# for `paris-tui replay FILE` (the viewer), and a save in saves/ met by the
# resume offer of a plain `paris-tui`. Every case is refused in one clear line
# or shown literally; nothing crashes. Names the rule accepts are seated at
# tables of 2-4, each table one app (an app costs about a second).

FILLER = "Zed"  # seats a table whose hostile name is alone


def _fits(names: list[str]) -> bool:
    """The table's names fit on one line of the hand-off's scores and the resume offer's title.

    Both boxes are 60 and 56 cells wide with borders and padding of 2 (screens.tcss):
    a line that fits is not wrapped, so each name is on the screen in one piece.
    """
    cells = [cell_len(n) for n in names]
    scores = sum(c + 4 for c in cells) + 3 * (len(names) - 1)  # "● name 0", 3 spaces apart
    title = sum(cells) + 2 * (len(names) - 1) + len(" · round 1 of 20")
    return scores <= 52 and title <= 50


def _tables() -> list[tuple[Case, ...]]:
    tables: list[list[Case]] = []
    for case in sorted(SHOWN, key=lambda c: -cell_len(c.shown or "")):
        for table in tables:
            if len(table) < 4 and _fits([c.shown or "" for c in [*table, case]]):
                table.append(case)
                break
        else:
            tables.append([case])
    return [tuple(t) for t in tables]


TABLES = _tables()


def _seats(table: tuple[Case, ...]) -> tuple[list[str], list[str]]:
    """The raw names for a table and the names it must show (a filler for a lone name)."""
    raw = [c.text for c in table]
    shown = [c.shown or "" for c in table]
    if len(raw) == 1:
        raw.append(FILLER)
        shown.append(FILLER)
    return raw, shown


def _table_id(table: tuple[Case, ...]) -> str:
    return " + ".join(c.label for c in table)


def assert_printable(screen: str) -> None:
    """Nothing on the screen is a control or format character (each line as drawn)."""
    for line in screen.splitlines():
        assert printable(line) == line, repr(line)


def test_every_name_the_rule_accepts_is_seated_at_some_table() -> None:
    seated = [c for t in TABLES for c in t]
    assert sorted(c.label for c in seated) == sorted(c.label for c in SHOWN)
    assert len(SHOWN) >= 15 and len(REFUSED) >= 30
    for table in TABLES:
        assert _fits(_seats(table)[1])


def assert_refusal(status: int, err: str, app: ParisApp | None, where: str = "") -> None:
    assert app is None, "the app was opened"
    assert status == 2
    assert err.startswith("paris-tui: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert printable(err[:-1]) == err[:-1], "a raw control character in the error line"
    assert len(err) < 300, "the error line echoes the input"
    assert where in err, err


@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c.label)
def test_refused_names_on_the_command_line_never_open_the_app(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--players", f"{case.text},{FILLER}"]
    assert_refusal(*open_via_cli(argv, monkeypatch), "seat 1")


@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c.label)
def test_refused_names_in_records_never_open_the_app(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_record(tmp_path / "hostile.json", [case.text, FILLER])
    before = path.read_bytes()
    for argv in (["resume", str(path)], ["replay", str(path)]):
        assert_refusal(*open_via_cli(argv, monkeypatch), "players[0].name")
    assert path.read_bytes() == before


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
async def test_accepted_names_from_the_command_line_are_shown_literally(
    table: tuple[Case, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    raw, shown = _seats(table)
    status, err, app = open_via_cli(["play", "--players", ",".join(raw)], monkeypatch)
    assert (status, err) == (0, "") and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        screen = await shows(
            pilot,
            f"Pass to ● {shown[0]}",
            f"I am {shown[0]} — press Enter",
            *(f"{player_style(i).symbol} {name} 0" for i, name in enumerate(shown)),
        )
        assert_printable(screen)


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
async def test_accepted_names_from_a_record_are_shown_literally_on_resume(
    table: tuple[Case, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw, shown = _seats(table)
    path = write_record(tmp_path / "names.json", raw, moves=1)  # seat 2 is to move
    status, err, app = open_via_cli(["resume", str(path)], monkeypatch)
    assert (status, err) == (0, "") and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 1), "the hand-off")
        screen = await shows(
            pilot,
            f"Pass to ▲ {shown[1]}",
            f"I am {shown[1]} — press Enter",
            *(f"{player_style(i).symbol} {name} " for i, name in enumerate(shown)),
        )
        assert_printable(screen)


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
async def test_accepted_names_from_a_record_are_shown_literally_in_the_replay_viewer(
    table: tuple[Case, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw, shown = _seats(table)
    path = write_record(tmp_path / "names.json", raw, moves=len(raw))  # a round: all took a tile
    status, err, app = open_via_cli(["replay", str(path)], monkeypatch)
    assert (status, err) == (0, "") and app is not None
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await shows(
            pilot,
            f"Replay: move {len(raw)} of",
            *(f"{player_style(i).symbol} {name} took" for i, name in enumerate(shown)),
        )
        assert_printable(screen)


async def test_saves_met_by_the_resume_offer_are_refused_or_shown_literally(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`paris-tui` with every refused name in a save of its own, and the accepted names.

    The refused saves are reported (one toast each, naming the file and
    ``players[0].name``) and left untouched; each table of accepted names is
    offered in turn, its title and then its hand-off drawn literally. The first
    offer is the one the app makes at launch; the next ones, in the same app
    after each new save, are the same dialog with what :func:`find_unfinished`
    found (without a new-game screen under it each time: it is slow to build).
    """
    folder = saves_dir()
    bad = [
        write_record(folder / f"bad-{i:02d}.json", [c.text, FILLER]) for i, c in enumerate(REFUSED)
    ]
    before = {p: p.read_bytes() for p in bad}

    def newest_save(i: int) -> tuple[list[str], list[str], Path]:
        raw, shown = _seats(TABLES[i])
        path = write_record(folder / f"game-{i}.json", raw)
        os.utime(path, (2_000_000_000 + i, 2_000_000_000 + i))
        return raw, shown, path

    raw, shown, path = newest_save(0)
    status, err, app = open_via_cli([], monkeypatch)
    assert (status, err) == (0, "") and app is not None
    assert app.resume_offer is not None and app.resume_offer.path == path
    notices = Notices(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        messages = notices.messages
        assert len(messages) == len(bad)
        for bad_path in bad:
            [message] = [m for m in messages if m.startswith(f"{bad_path.name}: ")]
            assert "players[0].name" in message and printable(message) == message
        assert_printable(await shows(pilot, "Save file not read (left untouched)"))
        app.clear_notifications()  # 36 toasts cover the screen
        for i in range(len(TABLES)):
            if i:
                raw, shown, path = newest_save(i)
                info, _ = find_unfinished()
                assert info is not None and info.path == path
                app.push_screen(ResumeDialog(info), callback=app._resume_answer)
            await wait_for(pilot, lambda: isinstance(app.screen, ResumeDialog), "the offer")
            rounds = 60 // (len(raw) + 1)
            assert_printable(await shows(pilot, f"{', '.join(shown)} · round 1 of {rounds}"))
            await pilot.press("y")
            await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
            await shows(pilot, f"I am {shown[0]} — press Enter")
    assert {p: p.read_bytes() for p in bad} == before


async def _paste_name(pilot: Pilot[object], seat: int, text: str) -> NameInput:
    """Empty seat ``seat``'s name field and paste ``text`` into it (as a terminal pastes)."""
    field = pilot.app.screen.query_one(f"#name-{seat}", NameInput)
    field.focus()
    field.clear()
    await pilot.pause()
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()
    return field


async def open_form(pilot: Pilot[object]) -> NewGameScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new-game form")
    assert isinstance(app.screen, NewGameScreen)
    return app.screen


async def test_refused_names_are_refused_by_the_new_game_form(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, _, app = open_via_cli([], monkeypatch)
    assert app is not None
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        error = form.query_one("#new-error", Static)
        for case in REFUSED:
            error.update("")
            field = await _paste_name(pilot, 0, case.text)
            if not str(error.content):  # taken in: the form must refuse it at Start
                assert field.value == case.text, case.label
                await pilot.press("f5")
            message = str(error.content)
            assert message, f"{case.label}: no refusal"
            assert app.session is None and app.screen is form, f"{case.label}: a game started"
            assert printable(message) == message and len(message) < 200, case.label
            assert_printable(await shows(pilot, message[:40]))


async def test_accepted_names_from_the_new_game_form_are_shown_literally(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table typed into one form: the fields show the text as pasted, the game gets
    the names the rule makes of it; the last table starts its game for real."""
    _, _, app = open_via_cli([], monkeypatch)
    assert app is not None
    real_start = app.start_new
    started: list[list[str]] = []
    monkeypatch.setattr(
        app, "start_new", lambda seats, **_: started.append([s.name for s in seats])
    )
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(pilot)
        for i, table in enumerate(TABLES):
            raw, shown = _seats(table)
            form.query_one("#count", Select).value = len(raw)
            for seat, text in enumerate(raw):
                field = await _paste_name(pilot, seat, text)
                assert field.value == text
            await shows(pilot, *raw)
            if i == len(TABLES) - 1:
                monkeypatch.setattr(app, "start_new", real_start)
            await pilot.press("f5")
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        assert app.session is not None and app.session.names == tuple(shown)
        await shows(
            pilot,
            f"I am {shown[0]} — press Enter",
            *(f"{player_style(i).symbol} {name} 0" for i, name in enumerate(shown)),
        )
    assert started == [_seats(t)[1] for t in TABLES[:-1]]


# --- the bytes on the terminal: the real paris-tui on a pseudo-terminal -----------------
#
# A handful of the worst cases per door, run as a user runs them: keys in,
# every byte out. No byte sequence of the input may reach the terminal: none of
# ESCAPE_MARKERS, no C1 control, and no OSC at all but Textual's own (OSC 22,
# the mouse pointer's shape). Names the rule accepts must be on the screen as
# the terminal (pyte) shows it.

MARKUP = ("[@click=app.quit]go", "[/]", "[link=http://x]a[/]")
WORST = ("OSC 52 clipboard", "OSC 2 title", "OSC 8 hyperlink", "CSI clear screen", "C1 CSI byte")
TEXTUAL_OSC = re.compile(rb"\x1b\]22;[a-z-]*(?:\x1b\\|\x07)")
C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")


def worst(label: str) -> str:
    [case] = [c for c in REFUSED if c.label == label]
    return case.text


def assert_clean(output: bytes) -> None:
    assert output, "nothing was written"
    for marker in ESCAPE_MARKERS:
        assert marker not in output, marker
    assert C1_UTF8.search(output) is None, C1_UTF8.search(output)
    others = TEXTUAL_OSC.sub(b"", output)
    assert b"\x1b]" not in others, others[others.index(b"\x1b]") :][:40]


EVIL_FILE = "rec\x1b]2;fname\x07\x9b31m"  # file names are outside text too


def run_refused(args: list[str], data_dir: Path) -> bytes:
    """A command that must refuse: exit 2 with one line, and nothing else on the terminal."""
    app = PtyApp(args, {"PARIS_TUI_DATA_DIR": str(data_dir)})
    status = app.finish()
    out = bytes(app.output)
    assert status == 2, out
    assert out.startswith(b"paris-tui: ") and out.count(b"\n") == 1, out
    assert_clean(out)
    return out


def test_terminal_refusals_on_the_command_line_and_for_records(
    data_dir: Path, tmp_path: Path
) -> None:
    """Refused: exit 2, one line, the file name escaped, nothing of the input raw."""
    for label in WORST:
        run_refused(["play", "--players", f"{worst(label)},Bob"], data_dir)
    refused = write_record(tmp_path / f"{EVIL_FILE}.json", [worst("OSC 52 clipboard"), "Bob"])
    for command in ("resume", "replay"):
        out = run_refused([command, str(refused)], data_dir)
        assert printable(refused.name).encode() in out and b"players[0].name" in out


def test_terminal_play(data_dir: Path) -> None:
    app = PtyApp(["play", "--players", ",".join(MARKUP)], {"PARIS_TUI_DATA_DIR": str(data_dir)})
    app.wait_for(f"I am {MARKUP[0]} — press Enter", f"▲ {MARKUP[1]} 0", MARKUP[2])
    app.settle(quiet=QUIET_GAP + 0.1)  # the hand-off takes a press after a quiet moment
    app.send(Key.ENTER)
    app.wait_for(f"● {MARKUP[0]}: choose a tile")
    app.send(Key.CTRL_C)
    assert app.finish() == 0
    assert_clean(bytes(app.output))


def test_terminal_replay_and_resume(data_dir: Path, tmp_path: Path) -> None:
    good = write_record(tmp_path / f"{EVIL_FILE}.json", list(MARKUP), moves=3)
    app = PtyApp(["replay", str(good)], {"PARIS_TUI_DATA_DIR": str(data_dir)}, size=(120, 40))
    app.wait_for(
        "Replay: move 3 of 3",
        printable(good.name),  # the viewer shows the file name, escaped
        *(f"{player_style(i).symbol} {name} took" for i, name in enumerate(MARKUP)),
    )
    app.settle()
    app.send(b"q")
    assert app.finish() == 0
    assert_clean(bytes(app.output))
    seat = replay(load_record(good)).view(None).to_move
    assert seat is not None
    mover = f"{player_style(seat).symbol} {MARKUP[seat]}"
    app = PtyApp(["resume", str(good)], {"PARIS_TUI_DATA_DIR": str(data_dir)})
    app.wait_for(f"I am {MARKUP[seat]} — press Enter", f"Pass to {mover}")
    app.settle(quiet=QUIET_GAP + 0.1)  # the hand-off takes a press after a quiet moment
    app.send(Key.ENTER)
    app.wait_for(f"{mover}: choose a tile", "Resumed after 3 moves")
    app.send(Key.CTRL_C)
    assert app.finish() == 0
    assert_clean(bytes(app.output))


def test_terminal_resume_offer_and_new_game_form(data_dir: Path) -> None:
    folder = saves_dir()
    write_record(folder / "game-1.json", list(MARKUP))
    write_record(folder / "refused.json", [worst("OSC 2 title"), "Bob"])
    corrupt = folder / "corrupt\x1b]2;fname\x07\x9b2J.json"
    corrupt.write_bytes(b"{not json")
    app = PtyApp([], {"PARIS_TUI_DATA_DIR": str(data_dir)}, size=(120, 40))
    app.wait_for(", ".join(MARKUP), "refused.json: players[0].name", printable(corrupt.name))
    app.settle()
    app.send(b"n")  # a new game instead: the form
    app.wait_for("Start game")
    app.settle()
    # (A paste holding ESC is not one here: Textual 8.2.8's input parser turns the
    # escape sequences inside a bracketed paste into key presses. Terminals strip
    # ESC from pastes; the form's own refusal of ESC is tested with Pilot above.)
    app.send(Key.paste(worst("C1 CSI byte") + worst("bidi RLO")))
    app.wait_for("Not pasted: the name holds a control character (U+009B)")
    app.type(Key.BACKSPACE, MARKUP[0].encode())  # "Ann" (all selected) out, a name in
    app.send(Key.ENTER)
    app.wait_for(f"I am {MARKUP[0]} — press Enter")
    app.send(Key.CTRL_C)
    assert app.finish() == 0
    out = bytes(app.output)
    assert_clean(out)
    assert b"\x1b]2;fname" not in out and b"\x1b[2J.json" not in out


# --- no door left open: how the app's code builds what it draws -----------------------

DRAWING_CALLS = {"Static", "Label", "Button", "update", "write", "from_markup", "Content"}


def _app_sources() -> list[Path]:
    return sorted(Path(launch.__file__).parents[1].rglob("*.py"))  # the whole app/ package


def test_no_markup_is_built_from_formatted_strings_in_the_app() -> None:
    """Every toast is plain text, and no widget is given an f-string to parse as markup.

    A formatted string is how outside text gets into markup (issue 7): the app
    draws such text as a Rich ``Text`` (``describe.plain``), never as a ``str``.
    """
    problems: list[str] = []
    for path in _app_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            where = f"{path.name}:{node.lineno}"
            if name == "notify":
                markup = [k for k in node.keywords if k.arg == "markup"]
                if not (
                    markup
                    and isinstance(markup[0].value, ast.Constant)
                    and markup[0].value.value is False
                ):
                    problems.append(f"{where}: notify() without markup=False")
            elif name in DRAWING_CALLS and node.args:
                first = node.args[0]
                if isinstance(first, ast.JoinedStr) or (
                    isinstance(first, ast.BinOp) and isinstance(first.op, (ast.Add, ast.Mod))
                ):
                    problems.append(f"{where}: {name}() of a formatted string")
    assert problems == []
    assert len(_app_sources()) > 10


def test_short_names_are_cut_in_terminal_cells() -> None:
    assert short_name("王" * 10, 8) == "王王王…"  # 7 cells and the ellipsis
    assert cell_len(short_name("王" * 10, 8)) <= 8
    assert short_name("Aurélie", 8) == "Aurélie"
    assert short_name("\U0001f642 Annabelle", 8) == "\U0001f642 Anna…"
    assert short_name("a\x1bb", 8) == "a\\x1bb"  # never a raw control character
