"""Where the app's stylesheets live, in an installed wheel and in a checkout.

The wheel force-includes the repository's top-level ``styles/`` as
``paris_tui/styles``; an editable install has no ``paris_tui/styles`` and
reads the checkout's ``styles/`` instead. Look in the package first.
"""

from __future__ import annotations

from pathlib import Path, PurePath

__all__ = ["STYLESHEETS", "css_paths", "styles_dir"]

# The app's stylesheets in load order (map.tcss belongs to the map widget).
STYLESHEETS = ("app.tcss", "screens.tcss", "map.tcss", "glyphs.tcss")

_PACKAGE = Path(__file__).resolve().parent.parent  # .../paris_tui


def styles_dir() -> Path:
    """The folder holding the .tcss files: ``paris_tui/styles`` or the repo's ``styles/``."""
    for candidate in (_PACKAGE / "styles", _PACKAGE.parent / "styles"):
        if (candidate / "app.tcss").is_file():
            return candidate
    raise FileNotFoundError(
        f"paris-tui's stylesheets are missing (looked in {_PACKAGE / 'styles'} "
        f"and {_PACKAGE.parent / 'styles'}); reinstall paris-tui"
    )


def css_paths() -> list[str | PurePath]:
    """The stylesheets that exist, in load order."""
    folder = styles_dir()
    return [folder / name for name in STYLESHEETS if (folder / name).is_file()]
