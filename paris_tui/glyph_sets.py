"""Which glyph set a run draws with: the choice alone, without Rich or Textual.

The sets themselves are :mod:`paris_tui.app.glyphs` (which re-exports these);
the SSH door (``paris_tui.host.ssh``) decides a session's set here from the
client's locale, without importing the app.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final

from .i18n import _

__all__ = ["DEFAULT_GLYPHS", "GLYPH_SETS", "glyphs_from_locale", "resolve_glyphs"]

GLYPH_SETS: Final[tuple[str, ...]] = ("unicode", "ascii")
DEFAULT_GLYPHS: Final = "unicode"
_CJK: Final = frozenset({"zh", "ja", "ko"})


def _is_cjk(locale: str) -> bool:
    base = locale.strip().split(".", 1)[0].split("@", 1)[0]
    return base.replace("-", "_").split("_", 1)[0].lower() in _CJK


def glyphs_from_locale(environ: Mapping[str, str]) -> str:
    """``ascii`` when the locale is Chinese, Japanese or Korean, else ``unicode``.

    The first of ``LC_ALL``, ``LC_CTYPE``, ``LANG`` that is set decides (the
    character type is what sizes characters in a terminal).
    """
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if value:
            return "ascii" if _is_cjk(value) else "unicode"
    return DEFAULT_GLYPHS


def resolve_glyphs(
    requested: str | None = None,
    environ: Mapping[str, str] | None = None,
    saved: str | None = None,
) -> str:
    """The glyph set to use: ``--glyphs``, ``PARIS_TUI_GLYPHS``, the settings, the locale.

    ``requested`` (from ``--glyphs``) must name a set: anything else raises
    ValueError with one line for the user. ``PARIS_TUI_GLYPHS`` and ``saved``
    that name no set are passed over.
    """
    env = os.environ if environ is None else environ
    if requested is not None:
        name = requested.strip().lower()
        if name not in GLYPH_SETS:
            raise ValueError(
                _("unknown glyph set {glyphs!r} (choose from {choices})").format(
                    glyphs=requested, choices=", ".join(GLYPH_SETS)
                )
            )
        return name
    for candidate in (env.get("PARIS_TUI_GLYPHS", ""), saved or ""):
        name = candidate.strip().lower()
        if name in GLYPH_SETS:
            return name
    return glyphs_from_locale(env)
