"""The characters the program draws: a Unicode set and a plain ASCII one.

Many of the characters that make the map readable (``─ │ ╭ ╱``, ``● ▲ ■ ◆``,
``·``, ``…``, ``→``, ``é``) are "ambiguous width" in Unicode: a terminal in a
CJK locale draws them two cells wide, which breaks every aligned row. The
``ascii`` set draws the same things with plain ASCII, one cell each where the
layout needs it, so nothing depends on how a terminal sizes them:

- map tracks with ``- | / \\ +`` (``X`` where two diagonals cross, ``=`` for
  a tour's line across);
- players with ``@ * # %`` (still told apart without colour), the bus ``&``;
- markers ``>``/``<``, arrows ``->``, the ellipsis ``...``, the score
  track's laps ``~`` and its empty spaces ``.``;
- stop names without accents (``Opera``, ``Etoile``): :meth:`Glyphs.name`.

Words are not glyphs: translated sentences are shown as the catalogs give
them, and player names as the players typed them.

Choosing a set (:func:`resolve_glyphs`): ``--glyphs``, else
``PARIS_TUI_GLYPHS``, else the set saved in the settings, else ``ascii`` when
the locale (``LC_ALL``, ``LC_CTYPE``, ``LANG``, the first one set) is Chinese,
Japanese or Korean and ``unicode`` otherwise. The set in use is process state,
like the language in :mod:`paris_tui.i18n`: :func:`set_glyphs` and
:func:`current_glyphs`; widgets read :func:`current_glyphs` when they draw, so
a switch is seen at the next repaint.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from rich.cells import cell_len

from paris_tui.glyph_sets import DEFAULT_GLYPHS, GLYPH_SETS, glyphs_from_locale, resolve_glyphs
from paris_tui.i18n import set_shown

__all__ = [
    "ASCII",
    "DEFAULT_GLYPHS",
    "GLYPH_SETS",
    "UNICODE",
    "Glyphs",
    "choose_glyphs",
    "current_glyphs",
    "glyphs_for",
    "glyphs_from_locale",
    "resolve_glyphs",
    "set_glyphs",
]


@dataclass(frozen=True, eq=False, repr=False)
class Glyphs:
    """Every character the program itself draws, in one set (see the module docstring).

    Two sets exist, :data:`UNICODE` and :data:`ASCII`, each one object: compared (and
    hashed) as objects, and without a generated ``__repr__``, whose 40 fields' code
    took a quarter of this module's import, before the first frame.

    The track fields are the map's cells: ``corner_se`` joins a track going
    south with one going east (``╭``), ``diag_up`` runs from south-west to
    north-east (``╱``), ``diag_down`` from north-west to south-east (``╲``);
    the ``heavy_*`` ones draw a line while its tour is shown.
    """

    name: str
    # map tracks
    horizontal: str
    vertical: str
    corner_se: str
    corner_sw: str
    corner_ne: str
    corner_nw: str
    diag_up: str
    diag_down: str
    cross: str  # two straight tracks crossing between stops
    diag_cross: str  # two diagonal tracks crossing
    heavy_horizontal: str
    heavy_vertical: str
    heavy_corner_se: str
    heavy_corner_sw: str
    heavy_corner_ne: str
    heavy_corner_nw: str
    heavy_cross: str
    # map tokens and overlays
    slot: str  # an empty business slot in a stop's token
    bus: str
    players: tuple[str, ...]  # one symbol per seat, told apart without colour
    # markers and punctuation drawn by the program
    marker: str  # the highlighted tile, whose turn it is (pointing right)
    marker_left: str  # the left end of a choice (pointing left)
    arrow: str  # "goes to"
    arrow_left: str  # keys: the arrow keys
    arrow_right: str
    arrow_up: str
    arrow_down: str
    ellipsis: str
    dot: str  # a separator between parts of one line ("Tiles · round 2/3")
    dash: str  # a dash in a sentence ("Pass to Ann — press Enter")
    times: str  # sizes: "80×24"
    minus: str
    plus_minus: str  # a margin of nothing: "±0.0"
    star: str  # the best of several (the hint's best tile)
    # the score track
    laps: str  # times round the track past 45 ("50↻1")
    track_space: str  # an empty space on the score track

    @property
    def is_ascii(self) -> bool:
        return self.name == "ascii"

    def player(self, seat: int) -> str:
        """The symbol of seat ``seat`` (cycled past the last one)."""
        return self.players[seat % len(self.players)]

    def name_of(self, text: str) -> str:
        """A stop name as this set draws it: ``Opéra`` stays in Unicode, is ``Opera`` in ASCII.

        ASCII drops accents (NFD, combining marks removed); any other character of
        one cell that is still not ASCII becomes ``?``; wide characters (CJK, two
        cells on every terminal) are kept.
        """
        text = unicodedata.normalize("NFC", text)
        if not self.is_ascii or text.isascii():
            return text
        out: list[str] = []
        for ch in unicodedata.normalize("NFD", text):
            if ch.isascii():
                out.append(ch)
            elif unicodedata.combining(ch):
                continue
            else:
                out.append(_FOLD.get(ch) or (ch if cell_len(ch) == 2 else "?"))
        return "".join(out)

    def map_table(self) -> Mapping[str, str]:
        """The Unicode set's map characters -> this set's (for a drawn layout)."""
        return _map_table(self)

    def key_text(self, text: str) -> str:
        """A key as the footer shows it (``⏎``, ``←→``), in this set: ``Enter``, ``<>`` in ASCII."""
        if not self.is_ascii or text.isascii():
            return text
        return "".join(_KEYS.get(ch, ch) for ch in text)

    def words(self, text: str) -> str:
        """A sentence's glyphs (``…``, ``→``, ``—``, ``·``, ``●``) as this set draws them.

        Letters are left as they are (``Größe``, ``王``): only the marks and
        symbols a sentence borrows from the program's glyphs change.
        """
        if not self.is_ascii or text.isascii():
            return text
        # The Chinese ellipsis is two of them: one "..." still (not "......").
        return text.replace("……", "…").translate(_WORDS)

    def translate_map(self, text: str) -> str:
        """``text`` drawn with the Unicode set's map characters, in this set's."""
        if not self.is_ascii:
            return text
        return text.translate(_translation(self))


# Letters NFD does not take apart.
_FOLD: Final[Mapping[str, str]] = {
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ø": "o",
    "Ø": "O",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "’": "'",
    "‘": "'",
    "–": "-",
    "—": "-",
}

# Keys as Textual names them for display (textual.keys.KEY_DISPLAY_ALIASES), in ASCII.
_KEYS: Final[Mapping[str, str]] = {
    "←": "<",
    "→": ">",
    "↑": "^",
    "↓": "v",
    "⏎": "Enter",
    "⌫": "BkSp",
    "⇥": "Tab",
}

# The glyphs sentences borrow, in ASCII (each ambiguous in width in CJK terminals).
_WORDS: Final[dict[int, str]] = str.maketrans(
    {
        "…": "...",
        "→": "->",
        "←": "<-",
        "↑": "^",
        "↓": "v",
        "▶": ">",
        "◀": "<",
        "·": "-",
        "—": "-",
        "–": "-",
        "×": "x",
        "−": "-",
        "±": "+-",
        "σ": " sigma",  # the rating's "mu − 3σ": "mu - 3 sigma"
        "★": "*",
        "↻": "~",
        "●": "@",
        "▲": "*",
        "■": "#",
        "◆": "%",
        "▣": "&",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "„": '"',
    }
)

UNICODE: Final = Glyphs(
    name="unicode",
    horizontal="─",
    vertical="│",
    corner_se="╭",
    corner_sw="╮",
    corner_ne="╰",
    corner_nw="╯",
    diag_up="╱",
    diag_down="╲",
    cross="┼",
    diag_cross="╳",
    heavy_horizontal="━",
    heavy_vertical="┃",
    heavy_corner_se="┏",
    heavy_corner_sw="┓",
    heavy_corner_ne="┗",
    heavy_corner_nw="┛",
    heavy_cross="╋",
    slot="·",
    bus="▣",
    players=("●", "▲", "■", "◆"),
    marker="▶",
    marker_left="◀",
    arrow="→",
    arrow_left="←",
    arrow_right="→",
    arrow_up="↑",
    arrow_down="↓",
    ellipsis="…",
    dot="·",
    dash="—",
    times="×",
    minus="−",
    plus_minus="±",
    star="★",
    laps="↻",
    track_space="·",
)

ASCII: Final = Glyphs(
    name="ascii",
    horizontal="-",
    vertical="|",
    corner_se="+",
    corner_sw="+",
    corner_ne="+",
    corner_nw="+",
    diag_up="/",
    diag_down="\\",
    cross="+",
    diag_cross="X",
    heavy_horizontal="=",
    heavy_vertical="|",
    heavy_corner_se="+",
    heavy_corner_sw="+",
    heavy_corner_ne="+",
    heavy_corner_nw="+",
    heavy_cross="+",
    slot=".",
    bus="&",
    players=("@", "*", "#", "%"),
    marker=">",
    marker_left="<",
    arrow="->",
    arrow_left="<-",
    arrow_right="->",
    arrow_up="^",
    arrow_down="v",
    ellipsis="...",
    dot="-",
    dash="-",
    times="x",
    minus="-",
    plus_minus="+-",
    star="*",
    laps="~",
    track_space=".",
)

_SETS: Final[Mapping[str, Glyphs]] = {"unicode": UNICODE, "ascii": ASCII}

_MAP_FIELDS: Final = (
    "horizontal",
    "vertical",
    "corner_se",
    "corner_sw",
    "corner_ne",
    "corner_nw",
    "diag_up",
    "diag_down",
    "cross",
    "diag_cross",
    "heavy_horizontal",
    "heavy_vertical",
    "heavy_corner_se",
    "heavy_corner_sw",
    "heavy_corner_ne",
    "heavy_corner_nw",
    "heavy_cross",
    "slot",
    "bus",
)


def _map_table(glyphs: Glyphs) -> dict[str, str]:
    table = {getattr(UNICODE, f): getattr(glyphs, f) for f in _MAP_FIELDS}
    table.update(zip(UNICODE.players, glyphs.players, strict=True))
    return table


_TRANSLATIONS: dict[str, dict[int, str]] = {}


def _translation(glyphs: Glyphs) -> dict[int, str]:
    table = _TRANSLATIONS.get(glyphs.name)
    if table is None:
        table = {ord(k): v for k, v in _map_table(glyphs).items()}
        _TRANSLATIONS[glyphs.name] = table
    return table


def glyphs_for(name: str) -> Glyphs:
    """The set called ``name`` (one of :data:`GLYPH_SETS`); ValueError otherwise."""
    try:
        return _SETS[name]
    except KeyError:
        raise ValueError(f"unknown glyph set {name!r}") from None


@dataclass
class _Current:
    """The glyph set drawn with now (one per process: each player's app is one)."""

    glyphs: Glyphs = UNICODE


_current = _Current()


def set_glyphs(name: str) -> None:
    """Draw everything from now on with set ``name`` (one of :data:`GLYPH_SETS`).

    In ``ascii`` the words looked up in the catalogs are shown with their
    punctuation in ASCII too (:meth:`Glyphs.words`, through :func:`paris_tui.i18n.set_shown`).
    """
    glyphs = glyphs_for(name)
    _current.glyphs = glyphs
    set_shown(glyphs.words if glyphs.is_ascii else None)


def current_glyphs() -> Glyphs:
    """The glyph set drawn with now."""
    return _current.glyphs


def choose_glyphs(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Decide the glyph set for this run (:func:`resolve_glyphs`), draw with it, return its name.

    The saved setting is read only when neither ``requested`` nor
    ``PARIS_TUI_GLYPHS`` decides; an unknown ``requested`` raises ValueError
    with one line.
    """
    env = os.environ if environ is None else environ
    saved = None
    if requested is None and env.get("PARIS_TUI_GLYPHS", "").strip().lower() not in GLYPH_SETS:
        from paris_tui.app.local.settings import load_settings

        saved = load_settings().glyphs  # a missing or damaged file gives None
    name = resolve_glyphs(requested, env, saved)
    set_glyphs(name)
    return name
