"""Which glyph set a run draws with: the choice alone, without Rich or Textual.

The sets themselves are :mod:`paris_tui.app.look.glyphs` (which re-exports these);
the SSH door (``paris_tui.doors.ssh``) decides a session's set here from the
client's locale, without importing the app.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final

from .i18n import _

__all__ = ["DEFAULT_GLYPHS", "GLYPH_SETS", "given_environ", "glyphs_from_locale", "resolve_glyphs"]

GLYPH_SETS: Final[tuple[str, ...]] = ("unicode", "ascii")
# What Python's C locale coercion (PEP 538) sets LC_CTYPE to at start-up when the
# locale asked for is not installed (LANG=zh_TW.UTF-8 on a bare server): not the user's.
_COERCED: Final = frozenset({"C.UTF-8", "C.utf8", "UTF-8"})
_PROC_ENVIRON: Final = "/proc/self/environ"
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


def _given_at_start(name: str, path: str = _PROC_ENVIRON) -> str | bool | None:
    """The value of ``name`` in the environment this process was started with
    (Linux keeps it in ``/proc/self/environ``): None when it was not set, False
    when that cannot be known here."""
    try:
        with open(path, "rb") as f:
            block = f.read()
    except OSError:
        return False
    prefix = name.encode() + b"="
    for entry in block.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix) :].decode("utf-8", "replace")
    return None


def given_environ(environ: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """``environ`` (``os.environ``) as the user set it: without the ``LC_CTYPE`` that
    Python's locale coercion put there (else a Chinese locale the machine lacks
    would keep the Unicode glyphs, decided from the coerced ``C.UTF-8``)."""
    env = os.environ if environ is None else environ
    ctype = env.get("LC_CTYPE", "")
    if ctype not in _COERCED or env.get("LC_ALL"):
        return env  # coercion sets LC_CTYPE to one of these, and only without LC_ALL
    given = _given_at_start("LC_CTYPE") if env is os.environ else False
    if given == ctype:
        return env  # the user's own LC_CTYPE
    out = {k: v for k, v in env.items() if k != "LC_CTYPE"}
    if isinstance(given, str):
        out["LC_CTYPE"] = given
    return out


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
    return glyphs_from_locale(given_environ(environ))
