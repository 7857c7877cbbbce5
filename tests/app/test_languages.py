"""The app in each language: the help of every language, and switching languages in the app
(the command palette and the new-game screen) without losing anything on screen."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, Markdown, Select

from paris_tui import i18n
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.help import HelpScreen, help_path, help_text
from paris_tui.app.screenshots import build_session
from paris_tui.app.widgets.panels import GameLog

from .helpers import (
    Notices,
    find_game,
    make_app,
    new_session,
    press,
    screen_text,
    widgets_text,
)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _keys_rows(text: str) -> list[str]:
    """The first column of the keys table (the table after the second heading)."""
    keys = text.split("\n# ", 1)[1]
    rows = [row.split("|")[1].strip() for row in keys.splitlines() if row.startswith("| ")]
    return rows[2:]  # after the head and its rule


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_language_has_its_own_help(lang: str) -> None:
    path = help_path(lang)
    assert path.is_file(), f"no help file for {lang}: {path}"
    text = help_text(lang)
    assert text == path.read_text(encoding="utf-8")
    if lang != "en":
        assert text != help_text("en")
    # Same facts as the English screen: the track's laps, the keys table row for row.
    for fact in ("↻1", "↻2", "45", "`r`", "NO_COLOR=1", "● ▲ ■ ◆", "B Y R P G"):
        assert fact in text, f"{lang}: {fact!r} missing"
    english_keys = _keys_rows(help_text("en"))
    keys = _keys_rows(text)
    assert len(keys) == len(english_keys) >= 9
    # The keys themselves are the same (only Space has a name in each language, and
    # German keyboards say Strg for Ctrl).
    for mine, english in zip(keys, english_keys, strict=True):
        if english != "Space":
            assert (
                re.sub(r"\b(or|oder|或)\b", "", mine.replace("Strg+", "Ctrl+")).split()
                == re.sub(r"\bor\b", "", english).split()
            )


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
async def test_help_screen_shows_the_help_of_the_language(lang: str) -> None:
    i18n.set_language(lang)
    app = make_app(build_session("Ann,Bob", 3, 2))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # past the hand-off
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        markdown = app.screen.query_one("#help-text", Markdown)

        # Chinese paragraphs get hard line breaks (the East Asian rules): the same text.
        def flat(text: str) -> str:
            return re.sub(r"\s+", "", text.replace("\\\n", ""))

        for _ in range(40):  # bounded: the breaks come after the first refresh
            if lang != "zh-TW" or markdown.source != help_text(lang):
                break
            await pilot.pause(0.05)
        assert flat(markdown.source) == flat(help_text(lang))
        assert (markdown.source == help_text(lang)) is (lang != "zh-TW")
        title = help_text(lang).splitlines()[0].removeprefix("# ")
        assert title in screen_text(app)


# --- switching the language in the app ----------------------------------------------------


async def _until(pilot: Pilot[object], check: Callable[[], bool], what: str) -> None:
    """Wait (bounded: 400 pauses, 20 s) until ``check()`` holds."""
    deadline = time.monotonic() + 20
    for _ in range(400):
        if check():
            return
        if time.monotonic() > deadline:
            break
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def _choose_in_palette(pilot: Pilot[object], query: str) -> None:
    """Type ``query`` into the open command palette and take its first hit."""
    app = pilot.app
    await _until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    palette = app.screen
    await pilot.press(*query)
    await _until(
        pilot,
        lambda: (
            palette.query_one(CommandList).option_count > 0
            and palette.query_one(CommandList).highlighted is not None
        ),
        f"a hit for {query!r}",
    )
    await pilot.press("enter")
    await _until(pilot, lambda: app.screen is not palette, "the palette to close")


async def _start_turn(pilot: Pilot[object]) -> GameScreen:
    """Pass a hand-off if one shows; the game screen once a turn has begun."""
    app = pilot.app
    game = find_game(app)
    assert game is not None
    await _until(
        pilot, lambda: game.turn_seat is not None or app.screen is not game, "a turn or hand-off"
    )
    if isinstance(app.screen, HandoffScreen):
        await press(pilot, "enter")
        await _until(pilot, lambda: game.turn_seat is not None, "the turn")
    return game


async def _take_first_tile(pilot: Pilot[object]) -> None:
    """Take the first tile of the next turn (a move of the game)."""
    game = await _start_turn(pilot)
    count = game.move_count
    await press(pilot, "enter")
    await _until(pilot, lambda: game.move_count == count + 1, "the move")


def _log_text(screen: GameScreen) -> str:
    return "\n".join(entry.plain for entry in screen.query_one(GameLog).entries)


async def test_palette_language_switches_a_game_in_progress(data_dir: Path) -> None:
    session = new_session("Ann,Bob", 5, data_dir / "saves" / "g.json")
    app = make_app(session)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await press(pilot, "enter")  # Ann's hand-off
        for _ in range(4):  # a few moves (Ann, Bob, Ann, Bob), each after its hand-off
            await _take_first_tile(pilot)
        game = await _start_turn(pilot)
        await press(pilot, "right", "r")  # the second tile highlighted, the route hidden
        before = (game.move_count, game.turn_seat, game.active_tile, game.route_hidden)
        entries = len(game.query_one(GameLog).entries)
        assert "choose a tile" in screen_text(app)

        await pilot.press("ctrl+p")
        await _choose_in_palette(pilot, "language")
        await _choose_in_palette(pilot, "deutsch")

        assert i18n.current_language() == "de"
        assert app.screen is game  # no screen was rebuilt or replaced
        after = (game.move_count, game.turn_seat, game.active_tile, game.route_hidden)
        assert after == before
        assert len(game.query_one(GameLog).entries) == entries
        text = screen_text(app)
        assert "wähle ein Plättchen" in text and "choose a tile" not in text
        assert "Route verdeckt" in text  # still hidden, now in German
        assert "Geschäft eröffnet" in _log_text(game)  # the log, written again
        assert "opened a business" not in _log_text(game)
        assert "Hilfe" in text and "Vorschau" in text  # the footer's keys
        assert json.loads((data_dir / "settings.json").read_text())["language"] == "de"

        # The game goes on: the highlighted tile is taken.
        tile = game.view.face_up[before[2] or 0]
        await press(pilot, "enter")
        await _until(pilot, lambda: game.move_count == before[0] + 1, "the move")
        assert game._public.moves[-1].tile == tile


async def test_switching_on_a_hand_off_keeps_it_a_hand_off(data_dir: Path) -> None:
    session = new_session("Ann,Bob", 6, data_dir / "saves" / "g.json")
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "enter")  # Ann's turn
        game = find_game(app)
        assert game is not None
        await _until(pilot, lambda: game.turn_seat is not None, "Ann's turn")
        route = game.view.own_route
        assert route is not None
        await press(pilot, "enter")  # Ann moves; Bob's hand-off
        await _until(pilot, lambda: isinstance(app.screen, HandoffScreen), "Bob's hand-off")
        handoff = app.screen
        assert "Pass to" in screen_text(app)

        app.choose_language("zh-TW")
        await pilot.pause()

        assert app.screen is handoff
        text = screen_text(app)
        assert "交給" in text and "Pass to" not in text
        assert game.viewer is None and game.turn_seat is None  # nobody's view under it
        for secret in ("你的路線", "Your route", "路線已隱藏"):
            assert secret not in widgets_text(app)
        await press(pilot, "enter")
        await _until(pilot, lambda: game.turn_seat == 1, "Bob's turn")
        assert "你的路線" in screen_text(app)  # Bob's own route, in Chinese


async def test_new_game_screen_language_choice_keeps_the_form(data_dir: Path) -> None:
    app = make_app(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#count", Select).value = 3
        screen.query_one("#kind-1", Select).value = "ai:easy"
        screen.query_one("#name-0", Input).value = "Zoë"
        screen.query_one("#seed", Input).value = "42"
        await pilot.pause()
        assert "Start game" in screen_text(app)

        screen.query_one("#language", Select).value = "de"
        await _until(pilot, lambda: i18n.current_language() == "de", "German")
        await pilot.pause()

        assert app.screen is screen
        text = screen_text(app)
        assert "Spiel starten" in text and "KI: leicht" in text and "3 Spieler" in text
        assert "Start game" not in text
        assert screen.query_one("#count", Select).value == 3
        assert screen.query_one("#kind-1", Select).value == "ai:easy"
        assert screen.query_one("#name-0", Input).value == "Zoë"
        assert screen.query_one("#seed", Input).value == "42"
        assert json.loads((data_dir / "settings.json").read_text())["language"] == "de"


async def test_a_language_that_cannot_be_saved_is_a_toast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PARIS_TUI_DATA_DIR", str(blocker / "data"))
    app = make_app(None)
    notices = Notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.choose_language("de")
        await pilot.pause()
        assert i18n.current_language() == "de"
        assert "Spiel starten" in screen_text(app)
        messages = notices.messages
        assert any("nicht gespeichert" in m for m in messages), messages


async def test_a_dialog_follows_a_language_change(data_dir: Path) -> None:
    """The resume offer (on the new-game screen) in German once German is chosen."""
    from paris_tui.app.local.storage import read_save
    from paris_tui.app.screens.resume import ResumeDialog

    path = data_dir / "saves" / "g.json"
    session = new_session("Ann,Bob", 4, path)
    for _ in range(3):
        session.play(session.view(session.view(None).to_move).legal_moves[0])
    session.close()
    app = make_app(None, resume_offer=read_save(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ResumeDialog)
        assert "Resume the unfinished game?" in screen_text(app)
        app.choose_language("de")
        german = "Das nicht beendete Spiel fortsetzen?"
        await _until(pilot, lambda: german in screen_text(app), "German")
        assert app.screen is dialog
        assert dialog.focused is not None and dialog.focused.id == "resume"
        assert "Runde 2 von 20" in screen_text(app)  # the save's title, in German too
        await press(pilot, "y")
        await _until(
            pilot,
            lambda: find_game(app) is not None or isinstance(app.screen, HandoffScreen),
            "the game",
        )


async def test_the_lobby_follows_a_language_change(tmp_path: Path) -> None:
    from paris_tui.app.screens.lobby import LobbyScreen
    from paris_tui.net.client import HostClient

    from .test_lobby import LobbyApp, hosting

    async with hosting(tmp_path, "ann,bob,ai:strong") as (_, port):
        dee = await HostClient.connect("127.0.0.1", port)
        await dee.open_table("Dee", ("me", "open", "open"))
        client = await HostClient.connect("127.0.0.1", port)
        app = LobbyApp(client, None)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "free seat" in screen_text(app), "the tables")
            i18n.set_language("zh-TW")
            screen = app.screen
            assert isinstance(screen, LobbyScreen)
            screen.language_changed()
            await _until(pilot, lambda: "空位" in screen_text(app), "the tables in Chinese")
            text = screen_text(app)
            assert "玩家" in text and "Players" not in text  # the column heads
            assert "你的名字" in text and "Your name" not in text
            assert "free seat" not in text
        await client.close()
        await dee.close()


async def test_the_new_table_form_keeps_its_choices_across_a_language_change(
    tmp_path: Path,
) -> None:
    from paris_tui.app.screens.lobby import Cycler, NewTableScreen
    from paris_tui.net.client import HostClient

    from .test_lobby import LobbyApp, hosting

    async with hosting(tmp_path) as (_, port):
        client = await HostClient.connect("127.0.0.1", port)
        app = LobbyApp(client, "Zoe")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "No table is open" in screen_text(app), "the lobby")
            await pilot.press("n")
            await _until(pilot, lambda: isinstance(app.screen, NewTableScreen), "the form")
            form = app.screen
            assert isinstance(form, NewTableScreen)
            await pilot.press("right")  # seat 2: open seat -> the first AI level
            before = form.request()
            i18n.set_language("de")
            form.language_changed()
            await _until(pilot, lambda: "Ein neuer Tisch" in screen_text(app), "German")
            assert form.request() == before
            assert form.query_one("#seat-1", Cycler).has_focus
            assert "KI: zufällig" in screen_text(app)
        await client.close()


@pytest.mark.parametrize("lang", ["de", "zh-TW"])
def test_one_english_word_two_meanings_two_translations(lang: str) -> None:
    """Esc (the previous screen) and ← in the replay (one move back) never say the same;
    Start: F5 on the new-game screen and Home in the replay (the first move): a context
    each."""
    from textual.binding import Binding

    from paris_tui.app.screens.new_game import NewGameScreen
    from paris_tui.app.screens.replay import ReplayScreen

    def words(screen: type, key: str) -> str:
        """The footer's words for ``key`` (what ``base.translated_bindings`` shows)."""
        binding = next(b for b in screen.BINDINGS if isinstance(b, Binding) and b.key == key)
        return i18n.shown_marked(binding.description)

    i18n.set_language(lang)
    assert words(ReplayScreen, "left") != words(NewGameScreen, "escape")
    assert words(ReplayScreen, "home") != words(NewGameScreen, "f5")
    for text in (words(ReplayScreen, "left"), words(ReplayScreen, "home")):
        assert "\x04" not in text and text.isprintable()
    i18n.set_language("en")
    # In English the replay's ← says "Previous" (one footer, one "Back").
    assert words(ReplayScreen, "left") == "Previous" != words(NewGameScreen, "escape") == "Back"
    assert words(ReplayScreen, "home") == words(NewGameScreen, "f5") == "Start"
