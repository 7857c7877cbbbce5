"""Stop names on the map read as their own stop's (app/map/classic.py, app/map/layout.py).

At 80x24 the names were cut to five letters ("Louvr", "Marai", "Madel") and
"Louvr" stood as near Madeleine's marker as its own: a newcomer took Madeleine's
marker for the Louvre. So every short name is unique and recognisable (the whole
name, or its words each whole, an initial, a usual abbreviation or cut by three
letters or more; never "Louvr" for "Louvre"), and every name, in every hand-made
layout (those an 80x24 and a 120x40 terminal show among them) and in both glyph
sets, is on or next to its own marker and farther from every other marker.
Stop names are not translated: a Chinese or German player sees the same map.
Pure tests of the layouts (no Textual).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from functools import cache

import pytest

from paris_tui import i18n
from paris_tui.app.map.layout import (
    LAYOUTS,
    SHORT_NAMES,
    Cell,
    MapLayout,
    build_layout,
    compile_spec,
    short_name,
)
from paris_tui.core import classic_board

# The map's area in a terminal of each size (the game screen's, measured) and its layout.
AREAS = {"80x24": ((54, 17), "compact"), "120x40": ((80, 28), "comfortable")}
# Usual abbreviations of a word of a stop's name.
ABBREVIATIONS = {"saint": ("st",), "pont": ("pt",)}
# A name is next to its marker within this distance (a cell's height counts as two
# widths: a name right under a marker is 2 away, one beside it after a space 2 too).
NEXT_TO = 3.0


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()


def recognisable(full: str, short: str) -> bool:
    """Is ``short`` a name a reader knows as ``full``? The whole name, or its words in order
    (hyphens, spaces and apostrophes dropped), each whole, or (not the last, the one that
    names the place) left out or an initial, or a usual abbreviation, or cut short by at
    least three letters with at least three kept: "Louvr" is a misprint of "Louvre", not
    an abbreviation of it."""
    if short == full:
        return True
    words = [w for w in re.split(r"[ \-']+", _fold(full)) if w]
    rest = re.sub(r"[ \-'.]+", "", _fold(short))

    @cache
    def fits(i: int, at: int) -> bool:
        if i == len(words):
            return at == len(rest)
        word, last = words[i], i == len(words) - 1
        pieces = {word, *ABBREVIATIONS.get(word, ())}
        pieces.update(word[:n] for n in range(3, len(word) - 2))
        if not last:
            pieces.update(("", word[0]))
        return any(rest.startswith(p, at) and fits(i + 1, at + len(p)) for p in pieces)

    return fits(0, 0)


def test_the_rule_refuses_the_old_cut_names() -> None:
    """What the rule is for: the names a newcomer misread, and their like."""
    for full, short in [("Louvre", "Louvr"), ("Marais", "Marai"), ("Étoile", "Étoil"),
                        ("Hôtel de Ville", "HdVil"), ("Quartier Latin", "QLat"),
                        ("Tour Eiffel", "Eiff"), ("Opéra", "Op")]:  # fmt: skip
        assert not recognisable(full, short), short
    for full, short in [("Gare du Nord", "GNord"), ("Saint-Germain", "StGer"),
                        ("Père Lachaise", "PLach"), ("Louvre", "Louvre")]:  # fmt: skip
        assert recognisable(full, short), short


def test_short_names_are_unique_and_recognisable() -> None:
    board = classic_board()
    assert set(SHORT_NAMES) == set(board.stop_ids)
    shorts = [short_name(board, stop.index, limit=6) for stop in board.stops]
    assert len({_fold(s) for s in shorts}) == len(shorts), shorts
    for stop, short in zip(board.stops, shorts, strict=True):
        assert short == SHORT_NAMES[stop.id]
        assert recognisable(stop.name, short), f"{short!r} for {stop.name!r}"


def _distance(cells: Iterable[Cell], others: Iterable[Cell]) -> float:
    """How far apart two sets of cells look (a cell is about twice as tall as wide)."""
    mine = list(cells)
    return min(math.hypot(c1 - c2, 2 * (r1 - r2)) for r1, c1 in mine for r2, c2 in others)


def misplaced(layout: MapLayout) -> list[str]:
    """Every stop name not next to its own marker, or as near another stop's, described."""
    board = classic_board()
    found: list[str] = []
    for stop, (row, col, length) in layout.name_cells.items():
        name = [(row, col + i) for i in range(length)]
        text = "".join(layout.glyph[row][col : col + length])
        own = _distance(name, layout.stop_cells[stop])
        if own > NEXT_TO:
            found.append(f"{text!r} is {own:.1f} from its marker")
        for other, cells in layout.stop_cells.items():
            if other != stop and _distance(name, cells) <= own:
                found.append(f"{text!r} is as near {board.stop_ids[other]}'s marker as its own")
    return found


@pytest.mark.parametrize("glyphs", ["unicode", "ascii"])
@pytest.mark.parametrize("spec", LAYOUTS, ids=lambda spec: spec.name)
def test_every_name_reads_as_its_own_stops(spec: object, glyphs: str) -> None:
    layout = compile_spec(spec, classic_board(), glyphs=glyphs)  # type: ignore[arg-type]
    assert not misplaced(layout)


@pytest.mark.parametrize("lang", ["en", "de", "zh-TW"])
@pytest.mark.parametrize("glyphs", ["unicode", "ascii"])
@pytest.mark.parametrize("terminal", list(AREAS))
def test_the_map_at_80x24_and_120x40(terminal: str, glyphs: str, lang: str) -> None:
    (width, height), name = AREAS[terminal]
    i18n.set_language(lang)
    layout = build_layout(classic_board(), width, height, glyphs)
    assert layout.name == name
    assert not misplaced(layout)
    names = {"".join(layout.glyph[r][c : c + n]) for r, c, n in layout.name_cells.values()}
    english = build_layout(classic_board(), width, height, glyphs)
    i18n.set_language("en")
    assert names == {
        "".join(english.glyph[r][c : c + n]) for r, c, n in english.name_cells.values()
    }
