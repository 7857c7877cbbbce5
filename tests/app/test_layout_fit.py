"""Every main screen fits 80x24 in every language and both glyph sets.

Each screen (new game, hand-off, a turn with the preview, the takeover
dialog, a grand tour, the game end, help, the lobby, the replay viewer, the
statistics scrolled down to its charts) is rendered with Pilot at 80x24 in
every language of ``i18n.LANGUAGES`` and in both glyph sets, and every
widget shown is checked with Textual's own measures:

- **runs past its region**: a widget that does not wrap its text
  (``text-wrap: nowrap``, or a Rich text that does not wrap) whose narrowest
  rendering is wider, in cells, than its content region, unless the widget
  cuts with an ellipsis;
- **cut below**: a widget that cannot scroll whose text, wrapped at its
  content width, has more lines than its content region;
- **hidden under another widget**: a cell where a widget draws text (not a
  space) but the screen shows another widget there (``Screen.get_widget_at``);
- **cut off by its container**: text a widget draws outside the part of it the
  screen shows (``Screen.find_widget(...).visible_region``), when no container
  around it scrolls.

English is fully marked, so it passes today; as translations land the same
test checks them. :func:`test_a_label_too_long_fails` proves each check can fail.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.errors import NoWidget
from textual.geometry import Region
from textual.pilot import Pilot
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.widget import Widget
from textual.widgets import Button, DataTable, Static

from paris_tui import i18n
from paris_tui.app.look.glyphs import GLYPH_SETS, set_glyphs
from paris_tui.app.screenshots import _policy, build_session, grand_tour_position
from paris_tui.app.terminal.fit import Fit
from paris_tui.core.record import load_record

from .helpers import find_game, make_app, new_session

SIZE = (80, 24)


@dataclass(frozen=True)
class Problem:
    widget: str
    what: str

    def __str__(self) -> str:
        return f"{self.widget}: {self.what}"


def _name(widget: Widget) -> str:
    ident = f"#{widget.id}" if widget.id else ""
    classes = "".join(f".{c}" for c in sorted(widget.classes) if not c.startswith("-"))
    return f"{type(widget).__name__}{ident}{classes}"


def _visible(widget: Widget) -> bool:
    node: Widget | None = widget
    while isinstance(node, Widget):
        if not node.display or node.styles.visibility == "hidden":
            return False
        parent = node.parent
        node = parent if isinstance(parent, Widget) else None
    return widget.region.area > 0


def _scrolls(widget: Widget) -> bool:
    """Whether ``widget`` or a container around it scrolls (its text is not cut: it moves)."""
    node: Widget | None = widget
    while isinstance(node, Widget):
        overflow = (node.styles.overflow_x, node.styles.overflow_y)
        if {"auto", "scroll"} & set(overflow) and node is not widget.screen:
            return True
        parent = node.parent
        node = parent if isinstance(parent, Widget) else None
    return False


def _content(widget: Widget) -> object:
    """What a widget shows: its Content, or the Rich renderable it was given."""
    if isinstance(widget, Button):
        return widget.label
    if isinstance(widget, Static):
        visual = widget.visual
        return visual if isinstance(visual, Content) else widget.content
    return widget.render()


# Where a line may break: at spaces, and between CJK characters (they need no spaces).
_CJK = "\u2e80-\u9fff\u3000-\u303f\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_WORD = re.compile(f"[{_CJK}]|[^\\s{_CJK}]+")


def _words(text: str) -> list[str]:
    """What a wrapping line cannot break: its words, each CJK character on its own."""
    return _WORD.findall(text)


def _width_problem(widget: Widget, width: int) -> str | None:
    """Why ``widget``'s content does not fit ``width`` cells, or None when it does.

    Text that wraps needs its longest word; text that does not wrap, its longest
    line (unless the widget cuts it with an ellipsis); a :class:`Fit`, its
    shortest wording. Anything else (tables, groups) is drawn at ``width`` and
    at a generous width: characters the narrow drawing loses, with a line as
    wide as the region, are cut, unless the narrow drawing shows an ellipsis.
    """
    content = _content(widget)
    wraps = widget.styles.text_wrap != "nowrap"
    if isinstance(content, Fit):
        needs = min(max(cell_len(t) for t in v.plain.split("\n")) for v in content.variants)
        return None if needs <= width else f"needs {needs} cells, has {width}"
    if isinstance(content, (str, Text, Content)):
        plain = content if isinstance(content, str) else content.plain
        if isinstance(content, Text) and content.no_wrap:
            wraps = False
        if wraps:
            needs = max((cell_len(w) for w in _words(plain)), default=0)
        elif widget.styles.text_overflow == "ellipsis":
            return None
        else:
            needs = max((cell_len(line) for line in plain.split("\n")), default=0)
        return None if needs <= width else f"needs {needs} cells, has {width}"
    narrow = _drawn(widget, content, width)
    wide = _drawn(widget, content, 400)
    lost = Counter(wide.replace(" ", "")) - Counter(narrow.replace(" ", ""))
    # A cut line is as wide as the region (a shorter wording chosen by a Fit is not).
    full = any(cell_len(line) >= width for line in narrow.split("\n"))
    if lost and full and not ("…" in narrow or "..." in narrow):
        return f"cut at {width} cells, no ellipsis: loses {''.join(sorted(lost.elements()))!r}"
    return None


def _drawn(widget: Widget, content: object, width: int) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    lines = console.render_lines(content, console.options.update_width(width), pad=False)  # type: ignore[arg-type]
    return "\n".join("".join(seg.text for seg in line) for line in lines)


def _own_widget_at(widget: Widget, x: int, y: int) -> bool:
    try:
        found, _ = widget.screen.get_widget_at(x, y)
    except NoWidget:  # no widget there at all
        return False
    node: object = found
    while isinstance(node, Widget):
        if node is widget:
            return True
        node = node.parent
    return False


def check_screen(app: App[Any]) -> list[Problem]:
    """What runs past, is cut or hidden on the active screen (see the module docstring)."""
    problems: list[Problem] = []
    screen = app.screen
    for widget in screen.walk_children(Widget):
        if isinstance(widget, (ScrollBar, ScrollBarCorner)) or not _visible(widget):
            continue
        try:
            shown = screen.find_widget(widget).visible_region
        except NoWidget:
            continue  # not on the screen (scrolled away, or not laid out)
        if not shown:
            continue
        name = _name(widget)
        box = widget.content_region
        if not widget.is_container and isinstance(widget, (Static, Button)) and box.width > 0:
            problem = _width_problem(widget, box.width)
            if problem:
                problems.append(Problem(name, problem))
            if not _scrolls(widget) and box.height > 0:
                lines = widget.get_content_height(box.size, app.size, box.width)
                if lines > box.height:
                    problems.append(Problem(name, f"{lines} lines in {box.height}"))
        # Text this widget draws that another widget covers (where it is on screen).
        region = widget.region
        strips = widget.render_lines(Region(0, 0, region.width, region.height))
        hidden: list[str] = []
        clipped: list[str] = []
        for dy, strip in enumerate(strips):
            x = region.x
            y = region.y + dy
            for segment in strip:
                for ch in segment.text:
                    if not ch.strip():
                        pass
                    elif not shown.contains(x, y):
                        clipped.append(ch)
                    elif not _own_widget_at(widget, x, y):
                        hidden.append(ch)
                    x += cell_len(ch)
        if hidden:
            problems.append(Problem(name, f"text hidden under another widget: {''.join(hidden)!r}"))
        if clipped and not _scrolls(widget):
            problems.append(Problem(name, f"text cut off by its container: {''.join(clipped)!r}"))
    return problems


# --- the screens --------------------------------------------------------------------


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.pause(0.1)


def _keys(*keys: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def go(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await _settle(pilot)

    return go


def new_game(_: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    return make_app(None), _keys()


def hand_off(_: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    return make_app(build_session("Ann,Bob", 3, 6)), _keys()


def turn(_: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    return make_app(build_session("Ann,Bob,Cy", 3, 19)), _keys("enter", "right")


def takeover(_: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    from paris_tui.app.screenshots import takeover_position

    session, index = takeover_position()
    return make_app(session), _keys("enter", str(index + 1), "enter")


def grand_tour(_: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    session = grand_tour_position()
    move = _policy(session)
    app = make_app(session, anim=100.0)  # frames stay until stepped on below

    async def go(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press("enter")
        game = find_game(app)
        assert game is not None
        await pilot.press(str(game.view.face_up.index(move.tile) + 1), "enter")
        if app.screen is not game:
            await pilot.press("enter")  # a takeover: first choice
        await pilot.pause()
        bus_frames = 0
        while game.frame is not None:  # on to the bus at the third crossing
            if game.frame.bus_at is not None:
                bus_frames += 1
                if bus_frames == 3:
                    break
            if game.frame_timer is not None:
                game.frame_timer.stop()
            game._next_frame()
        assert game.frame is not None and game.frame.bus_at is not None
        await _settle(pilot)

    return app, go


def game_end(_: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    return make_app(build_session("Ann,Bob,Cy", 4, 44)), _keys("enter", "enter")


def help_screen(_: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    return make_app(build_session("Ann,Bob", 3, 2)), _keys("enter", "f1")


def replay(folder: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    path = folder / "replay.json"
    session = new_session("Ann,Bob,Cy", 4, path)
    for _ in range(20):
        session.play(_policy(session))
    return make_app(None, replay=(load_record(path), path)), _keys("left")


def lobby(folder: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    """A host's lobby (on loopback): a game in progress, a finished one, one waiting."""
    from paris_tui.app.screens.lobby import LobbyScreen
    from paris_tui.host.referee import parse_seats
    from paris_tui.host.server import Host, HostConfig
    from paris_tui.net.client import HostClient

    from .test_lobby import _SnapApp

    app = _SnapApp()

    async def go(pilot: Pilot[Any]) -> None:
        host = Host(HostConfig(data_dir=folder / "host-data", port=0, ai_delay=3600.0))
        host.load()
        playing = host.open_table(parse_seats("Ann,Bob,ai:strong"), seed=3).referee
        for _ in range(7):
            seat = playing.to_move or 0
            playing.play(seat, playing.view(seat).legal_moves[0], playing.move_count)
        host.open_table(parse_seats("Eve,ai:random"), seed=4)
        _, port = await host.start()
        app.host = host
        dee = await HostClient.connect("127.0.0.1", port)
        await dee.open_table("Dee", ("me", "open", "ai:greedy", "open"))
        client = await HostClient.connect("127.0.0.1", port)
        app.push_screen(LobbyScreen(client, None, poll=3600.0))
        for _ in range(500):  # the tables arrive over the socket
            tables = app.screen.query(DataTable)
            if isinstance(app.screen, LobbyScreen) and tables and tables.first().row_count >= 3:
                break
            await pilot.pause(0.02)
        else:
            raise AssertionError("the lobby never listed the host's three tables")
        await pilot.press("tab")
        await _settle(pilot)

    return app, go


def statistics(folder: Path) -> tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]:
    """The statistics screen scrolled down to its two charts (four games, three players)."""
    from paris_tui.app.local.history import History
    from paris_tui.app.screens.stats import StatsScreen

    from .test_history import finished

    history = History.in_data_dir(folder)
    for seed in range(4):
        names = ["Ann", "Bob", "Greedy AI" if seed % 2 else "Cy"]
        kinds = ["human", "human", "ai:greedy" if seed % 2 else "human"]
        history.add_record(finished(names, seed, kinds), mode="ai", local_seats=(0, 1))
    app = make_app(None, history=history)

    async def go(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        app.action_statistics()  # type: ignore[attr-defined]
        for _ in range(1200):  # read in a thread: slow under load
            if isinstance(app.screen, StatsScreen) and app.screen.stats is not None:
                break
            await pilot.pause(0.05)
        else:
            raise AssertionError("the statistics never came")
        await _settle(pilot)
        app.screen.query_one("#stats-box").scroll_end(animate=False)
        await _settle(pilot)

    return app, go


Go = Callable[[Pilot[Any]], Awaitable[None]]
SCENES: dict[str, Callable[[Path], tuple[App[Any], Go]]] = {
    "new-game": new_game,
    "hand-off": hand_off,
    "turn": turn,
    "takeover": takeover,
    "grand-tour": grand_tour,
    "game-end": game_end,
    "help": help_screen,
    "lobby": lobby,
    "replay": replay,
    "statistics": statistics,
}


@pytest.fixture
def language_and_glyphs() -> Iterator[None]:
    yield
    i18n.set_language("en")
    set_glyphs("unicode")


async def _problems_of(
    scene: Callable[[Path], tuple[App[Any], Callable[[Pilot[Any]], Awaitable[None]]]],
    folder: Path,
) -> list[Problem]:
    app, go = scene(folder)
    async with app.run_test(size=SIZE) as pilot:
        await go(pilot)
        return check_screen(app)


@pytest.mark.parametrize("glyphs", GLYPH_SETS)
@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("scene", list(SCENES))
async def test_every_screen_fits_80x24(
    scene: str, language: str, glyphs: str, tmp_path: Path, language_and_glyphs: None
) -> None:
    i18n.set_language(language)
    set_glyphs(glyphs)
    problems = await _problems_of(SCENES[scene], tmp_path)
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize("language", i18n.LANGUAGES)
async def test_the_statistics_fit_120x40(
    language: str, tmp_path: Path, language_and_glyphs: None
) -> None:
    """The statistics at 120x40: tables and both charts on the screen at once."""
    from paris_tui.app.widgets.score_chart import ScoreChart

    i18n.set_language(language)
    app, go = statistics(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot)
        assert not check_screen(app), "\n".join(map(str, check_screen(app)))
        box = app.screen.query_one("#stats-box")
        assert box.max_scroll_y == 0  # nothing to scroll: all of it shows
        assert [chart.region.height for chart in app.screen.query(ScoreChart)] == [12, 12]


async def test_a_label_too_long_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language_and_glyphs: None
) -> None:
    """Each check can fail: a hand-off title that does not wrap and is too wide, one that
    needs more lines than it has, one drawn over another widget's text, one wider than
    the box around it."""
    from paris_tui.app.screens.handoff import HandoffScreen

    app, go = hand_off(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await go(pilot)
        assert check_screen(app) == []
        screen = app.screen
        assert isinstance(screen, HandoffScreen)
        title = screen.query_one("#handoff-title", Static)
        # runs past: a label that does not wrap and is wider than its box
        title.styles.text_wrap = "nowrap"
        title.update(Text("Pass the keyboard to " + "Bartholomew " * 8, no_wrap=True))
        await pilot.pause()
        found = check_screen(app)
        assert any("needs" in p.what and "handoff-title" in p.widget for p in found), found
        # cut below: a fixed height too small for the wrapped text
        title.styles.text_wrap = "wrap"
        title.styles.height = 1
        title.update(Text("Pass the keyboard to " + "Bartholomew " * 8))
        await pilot.pause()
        found = check_screen(app)
        assert any("lines in 1" in p.what for p in found), found
        # hidden: a widget moved over another's text
        title.styles.height = "auto"
        title.update("Pass to Ann")
        title.styles.offset = (0, 2)
        await pilot.pause()
        found = check_screen(app)
        assert any("hidden" in p.what for p in found), found
        # cut off: a label wider than the box around it
        title.styles.offset = (0, 0)
        title.styles.width = 120
        title.styles.text_align = "left"
        title.update("Pass the keyboard to " + "Bartholomew " * 8)
        await pilot.pause()
        found = check_screen(app)
        assert any("cut off" in p.what for p in found), found


def test_scenes_are_the_main_screens() -> None:
    assert set(SCENES) == {
        "new-game",
        "hand-off",
        "turn",
        "takeover",
        "grand-tour",
        "game-end",
        "help",
        "lobby",
        "replay",
        "statistics",
    }
    assert asyncio.iscoroutinefunction(_problems_of)
