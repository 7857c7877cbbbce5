"""The app's two themes, dark and light: Textual's own, with greys that stay grey.

Most players over SSH have 256 colours, not true colour (ssh does not forward
``COLORTERM``), and a terminal of 256 or 16 colours shows each colour as the
nearest of its palette (Rich's ``Color.downgrade``). Textual's dark theme makes
its panels (the footer, the preview bar, the hand-off box) of ``#242f38``, a
grey tinted with the blue primary colour: saturated enough that 256 colours
round it into the colour cube, to navy (colour 17, ``#00005f``), not to a grey.
So here every neutral of the dark theme is a pure grey on or near xterm's grey
ramp (colours 232-255, ``#080808`` to ``#eeeeee`` in steps of 10): the
background ``#121212`` (233), the surface ``#1e1e1e`` (234) and the panels
``#303030`` (236, and bright black in 16 colours: apart from the background's
black). The scrollbars, tinted with the primary colour too, are greys as well.
The light theme is Textual's, whose greys already are; its name is ours so that
the two go together. ``tests/app/test_theme_colours.py`` checks every colour the
screens draw at 256 and at 16 colours.
"""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES, Theme

__all__ = ["DARK", "LIGHT", "THEMES"]

DARK, LIGHT = "paris-dark", "paris-light"

_TEXTUAL_DARK = BUILTIN_THEMES["textual-dark"]
_TEXTUAL_LIGHT = BUILTIN_THEMES["textual-light"]

THEMES: tuple[Theme, ...] = (
    Theme(
        name=DARK,
        primary=_TEXTUAL_DARK.primary,
        secondary=_TEXTUAL_DARK.secondary,
        accent=_TEXTUAL_DARK.accent,
        warning=_TEXTUAL_DARK.warning,
        error=_TEXTUAL_DARK.error,
        success=_TEXTUAL_DARK.success,
        foreground=_TEXTUAL_DARK.foreground,
        background="#121212",
        surface="#1e1e1e",
        panel="#303030",
        dark=True,
        variables={
            "scrollbar": "#4e4e4e",
            "scrollbar-hover": "#626262",
        },
    ),
    Theme(
        name=LIGHT,
        primary=_TEXTUAL_LIGHT.primary,
        secondary=_TEXTUAL_LIGHT.secondary,
        accent=_TEXTUAL_LIGHT.accent,
        warning=_TEXTUAL_LIGHT.warning,
        error=_TEXTUAL_LIGHT.error,
        success=_TEXTUAL_LIGHT.success,
        surface=_TEXTUAL_LIGHT.surface,
        panel=_TEXTUAL_LIGHT.panel,
        background=_TEXTUAL_LIGHT.background,
        dark=False,
        variables=dict(_TEXTUAL_LIGHT.variables),
    ),
)
