"""What a terminal of 256 or 16 colours shows of a screen: every colour the app draws
rounded to the terminal's palette as Rich does when it writes to one
(``Color.downgrade``), for checks (:func:`drawn_colours`, :func:`neutral_problems`)
and for snapshots (:class:`RoundedApp`: its SVG screenshot shows the rounded colours).
"""

from __future__ import annotations

import colorsys
import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rich.color import Color, ColorSystem, ColorType
from rich.console import Console
from rich.segment import Segment, Segments
from rich.style import Style
from textual.app import App
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.strip import Strip

from paris_tui.app.app import ParisApp
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.client import HostClient

from .helpers import drawn, screen_text

__all__ = [
    "Pair",
    "RoundedApp",
    "drawn_colours",
    "neutral_problems",
    "open_lobby",
    "rounded",
    "text_on",
]

# A colour whose channels lie this close together is meant as a grey.
GREY_SPREAD = 24
# How far (0-1) a grey's lightness may move when rounded: two steps of the ramp.
LIGHTNESS_SLACK = 0.08


def rounded(colour: Color, system: ColorSystem) -> Color:
    """``colour`` as a terminal of ``system`` shows it, as an RGB colour."""
    return Color.from_triplet(colour.downgrade(system).get_truecolor())


def _segments(app: App[object]) -> list[Segment]:
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        safe_box=False,
    )
    return list(console.render(drawn(app, blended=True)))


def _shown(app: App[object]) -> list[Segment]:
    """The screen's segments; over a dialog (a modal screen), the dialog's own only: what
    shows dimmed behind it is the screen under it, drawn in its own colours elsewhere."""
    screen = app.screen
    if not isinstance(screen, ModalScreen) or not screen.children:
        return _segments(app)
    region = screen.children[0].region
    update = drawn(app, screen, blended=True)
    found: list[Segment] = []
    for y, line in enumerate(update.strips):
        if region.y <= y < region.bottom:
            found.extend(Strip.join(list(line)).crop(region.x, region.right))
    return found


def drawn_colours(app: App[object]) -> set[Color]:
    """Every colour of the screen drawn now (text and backgrounds), as the app sends it."""
    found: set[Color] = set()
    for segment in _shown(app):
        style = segment.style
        if style is None:
            continue
        found.update(c for c in (style.color, style.bgcolor) if c is not None)
    return {c for c in found if c.type in (ColorType.TRUECOLOR, ColorType.EIGHT_BIT)}


Pair = tuple[str, Color, Color]

# Drawn as shapes of their cell's two colours (a button's bevel), not read as text.
_SHAPES = {chr(code) for code in range(0x2580, 0x25A0)}  # Unicode's block elements


def text_on(app: App[object]) -> set[Pair]:
    """Each character drawn now (but spaces and block shapes) with its text colour and its
    background, as the app sends them."""
    found: set[Pair] = set()
    for segment in _shown(app):
        style = segment.style
        if style is None or style.color is None or style.bgcolor is None:
            continue
        for char in set(segment.text) - _SHAPES - {" "}:
            found.add((char, style.color, style.bgcolor))
    return found


def _lightness(colour: Color) -> float:
    r, g, b = colour.get_truecolor().normalized
    return colorsys.rgb_to_hls(r, g, b)[1]


def _spread(colour: Color) -> int:
    r, g, b = colour.get_truecolor()
    return max(r, g, b) - min(r, g, b)


def neutral_problems(colours: Iterable[Color], system: ColorSystem) -> list[str]:
    """The greys among ``colours`` that ``system`` does not show as a grey (in 256 colours:
    of about the same lightness), described: a navy panel, a teal scrollbar."""
    problems: list[str] = []
    for colour in sorted(colours, key=lambda c: c.get_truecolor().hex):
        if _spread(colour) > GREY_SPREAD:
            continue  # a colour meant as one (the accent, a line's, a player's)
        shown = rounded(colour, system)
        true_hex, shown_hex = colour.get_truecolor().hex, shown.get_truecolor().hex
        number = colour.downgrade(system).number
        if _spread(shown) > 0:
            problems.append(f"{true_hex} is shown as colour {number} ({shown_hex}): not a grey")
        elif (
            system == ColorSystem.EIGHT_BIT  # 16 colours have four greys: any will do
            and abs(_lightness(shown) - _lightness(colour)) > LIGHTNESS_SLACK
        ):
            problems.append(f"{true_hex} is shown as colour {number} ({shown_hex}): lightness")
    return problems


def _rounded_segments(segments: Iterable[Segment], system: ColorSystem) -> Iterator[Segment]:
    for segment in segments:
        style = segment.style
        if style is None or segment.control:
            yield segment
            continue
        color = rounded(style.color, system) if style.color is not None else None
        bgcolor = rounded(style.bgcolor, system) if style.bgcolor is not None else None
        yield Segment(segment.text, style + Style(color=color, bgcolor=bgcolor))


class RoundedApp(ParisApp):
    """The app, whose SVG screenshots (snapshots) show what a terminal of ``system`` does;
    it closes the hosts in ``hosts`` as it ends."""

    def __init__(self, session: Any = None, *, system: ColorSystem, **kwargs: object) -> None:
        kwargs.setdefault("anim", 0.0)
        kwargs.setdefault("ai_delay", 0.0)
        kwargs.setdefault("cursor_blink", False)
        kwargs.setdefault("deliberate_keys", False)
        super().__init__(session=session, **kwargs)  # type: ignore[arg-type]
        self.system = system
        self.hosts: list[Host] = []

    async def on_unmount(self) -> None:
        for host in self.hosts:
            await host.close()

    def export_screenshot(self, *, title: str | None = None, simplify: bool = False) -> str:
        width, height = self.size
        console = Console(
            width=width,
            height=height,
            file=io.StringIO(),
            force_terminal=True,
            color_system="truecolor",
            record=True,
            legacy_windows=False,
            safe_box=False,
        )
        console.print(Segments(_rounded_segments(_segments(self), self.system)))
        return console.export_svg(title=title or self.title)


async def open_lobby(pilot: Pilot[object], folder: Path) -> Host:
    """A host with a game in progress, a finished one and one waiting for players, and the
    app's lobby of it (no name known yet); the caller closes the host (:class:`RoundedApp`
    does as it ends)."""
    app = pilot.app
    host = Host(HostConfig(data_dir=folder / "host-data", port=0, ai_delay=3600.0))
    host.load()
    playing = host.open_table(parse_seats("Ann,Bob,ai:strong"), seed=3).referee
    for _ in range(7):
        seat = playing.to_move or 0
        playing.play(seat, playing.view(seat).legal_moves[0], playing.move_count)
    done = host.open_table(parse_seats("Eve,ai:random"), seed=4).referee
    while not done.is_over:
        seat = done.to_move or 0
        done.play(seat, done.view(seat).legal_moves[0], done.move_count)
    _, port = await host.start()
    if isinstance(app, RoundedApp):
        app.hosts.append(host)
    dee = await HostClient.connect("127.0.0.1", port)
    await dee.open_table("Dee", ("me", "open", "ai:greedy", "open"))
    client = await HostClient.connect("127.0.0.1", port)
    app.push_screen(LobbyScreen(client, None, poll=3600.0))
    for _ in range(200):  # bounded: 10 s
        if "waiting: 2" in screen_text(app):
            break
        await pilot.pause(0.05)
    assert "waiting: 2" in screen_text(app), "the lobby did not list three tables"
    await pilot.press("tab")
    await pilot.pause()
    return host
