"""Work an app's start does for nothing, gone: each test can fail.

- The footer (app/widgets/footer.py): its keys end up as Textual's own footer
  makes them, in every state (compact or not, a group, a disabled key, the
  palette's key), but they are rebuilt only when what they show changes, and
  each new key is styled once (it does not take ``-compact`` and give it up).
- The driver's first Resize, of the size the app started with (every start
  has one: the app's own, then the driver's), lays no screen out again.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from paris_tui.app.screens.game import GameScreen
from paris_tui.app.widgets.footer import KeysFooter

from .helpers import find_game, make_app, new_session

GROUP = Binding.Group("Move", compact=True)


class KeysScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "first", "First"),
        Binding("b", "second", "Second", tooltip="the second"),
        Binding("left", "step(-1)", "Step", group=GROUP),
        Binding("right", "step(1)", "Step", group=GROUP),
        Binding("h", "hidden", "Hidden", show=False),
    ]

    def __init__(self, footer: type[Footer], *, compact: bool) -> None:
        super().__init__()
        self.footer_class = footer
        self.compact = compact
        self.second_enabled = True

    def compose(self) -> ComposeResult:
        yield Static("body")
        yield self.footer_class(compact=self.compact)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "second" and not self.second_enabled:
            return None  # shown, disabled
        return True

    def action_first(self) -> None: ...
    def action_second(self) -> None: ...
    def action_step(self, by: int) -> None: ...


class KeysApp(App[None]):
    def __init__(self, footer: type[Footer], *, compact: bool) -> None:
        super().__init__()
        self.keys_screen = KeysScreen(footer, compact=compact)

    def on_mount(self) -> None:
        self.push_screen(self.keys_screen)


def _keys(footer: Widget) -> list[tuple[Any, ...]]:
    """What each key of ``footer`` is: its place, words, classes, setting and drawing."""
    return [
        (
            "Footer" if isinstance(node.parent, Footer) else type(node.parent).__name__,
            node.key,
            node.description,
            sorted(node.classes),
            node.compact,
            node.render().plain,
        )
        for node in footer.query(FooterKey)
    ]


async def _settled(pilot: Any, footer: Widget) -> list[tuple[Any, ...]]:
    """The footer's keys once it has some and they stay as they are for a few pauses
    (its keys are rebuilt after a refresh; bounded in count, not time)."""
    last: list[tuple[Any, ...]] = []
    same = 0
    for _ in range(200):
        await pilot.pause()
        keys = _keys(footer)
        same = same + 1 if keys and keys == last else 0
        last = keys
        if same >= 3:
            return keys
    raise AssertionError(f"the footer never settled: {last}")


async def _footer_states(footer: type[Footer]) -> list[list[tuple[Any, ...]]]:
    """The keys of ``footer`` on KeysScreen: compact or wide, then the other, then with a
    key disabled."""
    states = []
    for compact in (False, True):
        app = KeysApp(footer, compact=compact)
        async with app.run_test(size=(100, 10)) as pilot:
            await pilot.pause()
            screen = app.keys_screen
            shown = screen.query_one(Footer)
            states.append(await _settled(pilot, shown))
            shown.compact = not compact
            states.append(await _settled(pilot, shown))
            screen.second_enabled = False
            screen.refresh_bindings()
            states.append(await _settled(pilot, shown))
    return states


async def test_the_footer_s_keys_are_textual_s_own_in_every_state() -> None:
    ours = await _footer_states(KeysFooter)
    theirs = await _footer_states(Footer)
    assert ours == theirs
    assert any(key[4] for state in ours for key in state)  # compact keys were seen
    assert any(not key[4] for state in ours for key in state)
    assert any("-disabled" in key[3] for state in ours for key in state)
    assert any(key[0] == "KeyGroup" for state in ours for key in state)


async def test_the_footer_is_rebuilt_only_when_its_keys_change() -> None:
    app = KeysApp(KeysFooter, compact=False)
    async with app.run_test(size=(100, 10)) as pilot:
        await pilot.pause()
        screen = app.keys_screen
        footer = screen.query_one(KeysFooter)
        await _settled(pilot, footer)
        made = footer.recomposed
        keys = list(footer.query(FooterKey))
        assert made >= 1 and keys
        for _ in range(3):
            screen.refresh_bindings()  # the same keys
            await _settled(pilot, footer)
        assert footer.recomposed == made
        assert list(footer.query(FooterKey)) == keys  # the same widgets
        screen.second_enabled = False
        screen.refresh_bindings()
        for _ in range(200):  # bounded: until the rebuilt keys show
            await pilot.pause()
            if footer.recomposed > made:
                break
        await _settled(pilot, footer)
        assert footer.recomposed == made + 1
        assert any(k.has_class("-disabled") for k in footer.query(FooterKey))


async def test_a_new_footer_key_never_takes_compact_and_gives_it_up() -> None:
    """Each key of a wide footer is styled with its class once: it never has ``-compact``
    (Textual's FooterKey starts compact and gives it up after it is mounted)."""
    seen: list[tuple[str, bool]] = []
    original = FooterKey._watch_compact

    def watch(self: FooterKey, compact: bool) -> None:
        seen.append((self.key, compact))
        original(self, compact)

    FooterKey._watch_compact = watch  # type: ignore[method-assign]
    try:
        for footer, wanted in ((KeysFooter, False), (Footer, True)):
            seen.clear()
            app = KeysApp(footer, compact=False)
            async with app.run_test(size=(100, 10)) as pilot:
                await _settled(pilot, app.keys_screen.query_one(Footer))
            # Every key but the palette's: compact True never seen with ours, with Textual's it is.
            flips = [key for key, compact in seen if compact and key != "ctrl+p"]
            assert bool(flips) is wanted, (footer, seen)
    finally:
        FooterKey._watch_compact = original  # type: ignore[method-assign]


async def test_the_driver_s_first_resize_of_the_same_size_lays_no_screen_out_again(
    monkeypatch: Any,
) -> None:
    laid_out: list[tuple[int, int]] = []
    original = GameScreen.on_resize

    def on_resize(self: GameScreen, event: events.Resize) -> None:
        laid_out.append((event.size.width, event.size.height))
        original(self, event)

    monkeypatch.setattr(GameScreen, "on_resize", on_resize)
    app = make_app(new_session("Ann,ai:random", 3, None))

    async def until(count: int) -> None:
        for _ in range(200):  # bounded in count
            if len(laid_out) >= count:
                break
            await pilot.pause()
        for _ in range(5):  # and a few pauses more: time for one too many to come
            await pilot.pause()

    async with app.run_test(size=(120, 40)) as pilot:
        await until(1)
        assert find_game(app) is not None
        # The app's own Resize and the driver's, of one size: the screen took one.
        assert laid_out == [(120, 40)]
        # A later one of the same size goes as Textual has it (after a SIGCONT, say).
        app.post_message(events.Resize(app.size, app.size))
        await until(2)
        assert laid_out == [(120, 40), (120, 40)]
        await pilot.resize_terminal(100, 30)
        await until(3)
        assert laid_out[-1] == (100, 30)
        await pilot.resize_terminal(120, 40)
        await until(4)
        assert laid_out[-1] == (120, 40)


def test_prepared_layouts_are_the_ones_every_map_then_finds() -> None:
    """A fork server draws every hand-made layout once (prepare_layouts); a map of any
    size and glyph set then draws none (doors/zygote.py)."""
    from paris_tui.app.look.glyphs import GLYPH_SETS
    from paris_tui.app.map import layout
    from paris_tui.core import classic_board

    assert layout.prepare_layouts() == len(layout.LAYOUTS) * len(GLYPH_SETS)
    drawn = layout._compiled.cache_info().misses
    for spec in layout.LAYOUTS:
        for glyphs in GLYPH_SETS:
            for extra in (0, 3):
                shown = layout.build_layout(
                    classic_board(), spec.width + extra, spec.height + extra, glyphs
                )
                assert (shown.width, shown.height) == (spec.width, spec.height)
    assert layout._compiled.cache_info().misses == drawn


async def test_a_screen_has_its_breakpoint_classes_before_it_is_styled() -> None:
    """Made in a running app, a screen has the classes of the app's size at once, the
    ones Textual's first Resize then gives it (so that Resize restyles nothing)."""
    from paris_tui.app.screens.base import ParisScreen

    marks = ("-narrow", "-wide", "-short", "-tall")
    for size in ((80, 24), (109, 33), (110, 34), (140, 50)):
        app = make_app(new_session("Ann,ai:random", 3, None))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = ParisScreen()
            made = sorted(c for c in screen.classes if c in marks)
            assert len(made) == 2, (size, made)
            await app.push_screen(screen)
            await pilot.pause()
            assert sorted(c for c in screen.classes if c in marks) == made, size
            assert find_game(app) is not None
            game = find_game(app)
            assert game is not None
            assert sorted(c for c in game.classes if c in marks) == made, size


def test_every_screen_but_the_hand_off_names_the_later_stylesheets() -> None:
    """Textual reads a screen's CSS_PATH before it shows it (public API, in place of
    an override of Textual's private ``App._load_screen_css``)."""
    import importlib
    import pkgutil

    from paris_tui.app import screens
    from paris_tui.app.screens.base import TranslatedBindings
    from paris_tui.app.screens.handoff import HandoffScreen
    from paris_tui.app.start.resources import later_css_paths

    for info in pkgutil.iter_modules(screens.__path__):
        importlib.import_module(f"paris_tui.app.screens.{info.name}")
    found: list[type[Screen[Any]]] = []
    todo: list[type[Screen[Any]]] = [TranslatedBindings]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    assert len(found) > 10
    for cls in found:
        wanted = [] if issubclass(cls, HandoffScreen) else later_css_paths()
        assert wanted == cls.CSS_PATH, cls


async def test_a_first_screen_that_needs_the_later_stylesheets_has_them_parsed_once(
    monkeypatch: Any,
) -> None:
    """A game against an AI opens on the game screen: the app reads the later stylesheets
    before it, so Textual does not parse every stylesheet again to show it."""
    from textual.css.stylesheet import Stylesheet

    from paris_tui.app.start.resources import later_css_paths

    reparsed: list[None] = []
    original = Stylesheet.reparse

    def reparse(self: Stylesheet) -> None:
        reparsed.append(None)
        original(self)

    monkeypatch.setattr(Stylesheet, "reparse", reparse)
    app = make_app(new_session("Ann,ai:random", 3, None))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert find_game(app) is not None
        for path in later_css_paths():
            assert app.stylesheet.has_source(str(path))
    assert reparsed == []
