"""Snapshot of the game screen in the ascii glyph set at 80x24.

The same position as ``test_snapshots.py::test_turn_with_preview_80x24``: the map's
tracks in ``- | / \\ +``, players ``@ * #``, names without accents, boxes in ``+ - |``
(update with ``--snapshot-update``, then look at the SVG)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from paris_tui.app.look.glyphs import set_glyphs
from paris_tui.app.screenshots import build_session

from .helpers import make_app


@pytest.fixture(autouse=True)
def ascii_glyphs() -> Iterator[None]:
    set_glyphs("ascii")
    yield
    set_glyphs("unicode")


def test_turn_with_preview_80x24_ascii(snap_compare: Any) -> None:
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    assert snap_compare(app, press=["enter", "right"], terminal_size=(80, 24))
