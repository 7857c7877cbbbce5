"""Where the app's stylesheets live, in an installed wheel and in a checkout.

The wheel force-includes the repository's top-level ``styles/`` as
``paris_tui/styles``; an editable install has no ``paris_tui/styles`` and
reads the checkout's ``styles/`` instead. Look in the package first.

The app parses only :data:`FIRST_FRAME_STYLESHEETS` and :data:`LAST_STYLESHEET`
before its first frame (a hot-seat game's hand-off); it reads the others
when a screen that needs them is shown (every screen names them in its
``CSS_PATH``, but the hand-off), or just after that first frame
(``ParisApp.load_styles``). Read in that order, every rule ends up where
:data:`STYLESHEETS` puts it: the later stylesheets come after the first ones,
and the last one wins every tie by its tie-breaker (:data:`LAST_TIE_BREAKER`).
"""

from __future__ import annotations

from pathlib import Path, PurePath

__all__ = [
    "FIRST_FRAME_STYLESHEETS",
    "LAST_STYLESHEET",
    "LAST_TIE_BREAKER",
    "STYLESHEETS",
    "css_paths",
    "first_css_paths",
    "last_css_path",
    "later_css_paths",
    "styles_dir",
]

# The app's stylesheets in load order (map.tcss belongs to the map widget): a rule
# wins a tie of specificity against the rules of the stylesheets before its own.
STYLESHEETS = (
    "app.tcss",
    "handoff.tcss",
    "game.tcss",
    "screens.tcss",
    "map.tcss",
    "glyphs.tcss",
)
FIRST_FRAME_STYLESHEETS = ("app.tcss", "handoff.tcss")
"""What every screen shares, and the hand-off: the CSS of the app's first frame."""
LAST_STYLESHEET = "glyphs.tcss"
"""The ascii glyph set's boxes: parsed before the first frame, and last in the order."""
LAST_TIE_BREAKER = 1
"""Textual's tie-breaker for :data:`LAST_STYLESHEET` (the others have 0): it wins
the ties it would win as the last one read."""

_PACKAGE = Path(__file__).resolve().parents[2]  # .../paris_tui


def styles_dir() -> Path:
    """The folder holding the .tcss files: ``paris_tui/styles`` or the repo's ``styles/``."""
    for candidate in (_PACKAGE / "styles", _PACKAGE.parent / "styles"):
        if (candidate / "app.tcss").is_file():
            return candidate
    raise FileNotFoundError(
        f"paris-tui's stylesheets are missing (looked in {_PACKAGE / 'styles'} "
        f"and {_PACKAGE.parent / 'styles'}); reinstall paris-tui"
    )


def _existing(names: tuple[str, ...]) -> list[str | PurePath]:
    folder = styles_dir()
    return [folder / name for name in names if (folder / name).is_file()]


def css_paths() -> list[str | PurePath]:
    """The stylesheets that exist, in load order."""
    return _existing(STYLESHEETS)


def first_css_paths() -> list[str | PurePath]:
    """The stylesheets of the first frame (the app's ``CSS_PATH``)."""
    return _existing(FIRST_FRAME_STYLESHEETS)


def later_css_paths() -> list[str | PurePath]:
    """The stylesheets read after the first frame, or before a screen that needs them
    (every screen's ``CSS_PATH`` but the hand-off's)."""
    later = tuple(
        n for n in STYLESHEETS if n not in FIRST_FRAME_STYLESHEETS and n != LAST_STYLESHEET
    )
    return _existing(later)


def last_css_path() -> Path | None:
    """:data:`LAST_STYLESHEET`, if it exists."""
    found = _existing((LAST_STYLESHEET,))
    return Path(found[0]) if found else None
