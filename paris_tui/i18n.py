"""Words for players: gettext catalogs, one language at a time per process.

The core and the AI report codes and numbers; the app, the command line and the
doors make sentences here. Every string a player reads is written in English in
the source, marked with one of the functions below, and looked up in the
catalog of the current language when it is shown:

- ``_("Take the tile")`` for a sentence;
- ``ngettext("{n} point", "{n} points", n).format(n=n)`` when a number decides
  the form (German has two forms, Traditional Chinese one: the catalogs say);
- ``pgettext("key", "Quit")`` when one English word needs two translations;
- ``N_("Quit")`` marks a string where it is defined (a class attribute, a
  module constant) and returns it unchanged; translate it with ``_()`` where
  it is shown, so that a change of language is seen;
- ``NP_("replay", "Back")`` marks one with a context the same way (a key's
  description: the footer words it with ``pgettext``; see ``split_marked``).

The catalogs are ``paris_tui/locale/<lang>/LC_MESSAGES/paris_tui.po`` (the
sources, edited by translators) and the ``.mo`` files compiled from them
(``scripts/i18n`` extracts, updates and compiles with Babel's tools). English
needs no catalog: the source strings are English.

Choosing a language (``resolve_language``): ``--lang``, else
``PARIS_TUI_LANG``, else the language saved in the settings, else the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "_",
    "current_language",
    "decimal",
    "gettext",
    "language_from_locale",
    "ngettext",
    "normalize_language",
    "pgettext",
    "resolve_language",
    "set_language",
    "set_shown",
    "set_translations",
    "shown_marked",
    "split_marked",
]

DOMAIN = "paris_tui"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT_LANGUAGE = "en"
# The languages a player can choose, as BCP 47 tags (what --lang takes).
LANGUAGES: tuple[str, ...] = ("en", "zh-TW", "de")
# Each language's name in itself: what a menu of languages shows.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "zh-TW": "繁體中文", "de": "Deutsch"}
# Locale territories whose Chinese is written in traditional characters.
_TRADITIONAL = {"tw", "hk", "mo", "hant"}


def normalize_language(text: str) -> str | None:
    """The language tag ``text`` asks for (``"zh_TW.UTF-8"`` -> ``"zh-TW"``), or None.

    Accepts BCP 47 tags and POSIX locale names, in any case: ``de``, ``de-AT``,
    ``de_DE.UTF-8``, ``zh-TW``, ``zh_Hant``, ``en_GB``. ``C`` and ``POSIX`` are
    English. Anything else is None (not a language we have).
    """
    base = text.strip().split(".", 1)[0].split("@", 1)[0]
    if not base:
        return None
    if base in {"C", "POSIX"}:
        return "en"
    parts = base.replace("_", "-").lower().split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] == "de":
        return "de"
    if parts[0] == "zh" and _TRADITIONAL.intersection(parts[1:]):
        return "zh-TW"
    return None


def language_from_locale(environ: Mapping[str, str]) -> str | None:
    """The language of the locale in ``environ``, the way POSIX reads it.

    The first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides; a
    locale we have no catalog for (``fr_FR``) gives None.
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return normalize_language(value)
    return None


def resolve_language(
    requested: str | None = None,
    environ: Mapping[str, str] | None = None,
    saved: str | None = None,
) -> str:
    """The language to use: ``--lang``, ``PARIS_TUI_LANG``, the settings, the locale, English.

    ``requested`` (from ``--lang``) must be one we have: anything else raises
    ValueError with one line for the user. ``PARIS_TUI_LANG`` and ``saved``
    that name no language of ours are passed over, as a locale we lack is.
    """
    env = os.environ if environ is None else environ
    if requested is not None:
        tag = normalize_language(requested)
        if tag is None:
            raise ValueError(
                _("unknown language {lang!r} (choose from {choices})").format(
                    lang=requested, choices=", ".join(LANGUAGES)
                )
            )
        return tag
    for candidate in (env.get("PARIS_TUI_LANG", ""), saved or ""):
        tag = normalize_language(candidate) if candidate else None
        if tag is not None:
            return tag
    return language_from_locale(env) or DEFAULT_LANGUAGE


def _catalog_name(tag: str) -> str:
    """The catalog folder of a language tag: ``zh-TW`` -> ``zh_TW``."""
    return tag.replace("-", "_")


class _Catalog(_gettext.GNUTranslations):
    """A compiled catalog that finds the singular of a plural entry by ``gettext`` too.

    ``ngettext("expected %s argument", ...)`` and ``gettext("expected %s argument")``
    read one entry of the catalog. Later 3.11 releases (3.11.7 here) and 3.12+ find it
    both ways; 3.11.2 (Debian 12's python3) by ``ngettext`` only, so a string marked both
    ways stayed English there. This does what the later releases do, on every Python.
    """

    def gettext(self, message: str) -> str:
        text = super().gettext(message)
        return super().ngettext(message, message, 1) if text == message else text

    def pgettext(self, context: str, message: str) -> str:
        text = super().pgettext(context, message)
        return super().npgettext(context, message, message, 1) if text == message else text


@cache
def translations(tag: str) -> _gettext.NullTranslations:
    """The compiled catalog of language ``tag`` (English: the source strings)."""
    if tag == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    if tag not in LANGUAGES:
        raise ValueError(f"no catalog for language {tag!r}")
    # fallback=False: a missing .mo for a language we ship is a broken install.
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[_catalog_name(tag)], class_=_Catalog)


@dataclass
class _Current:
    """The language strings are shown in now (one per process: each player's app is one)."""

    tag: str = DEFAULT_LANGUAGE
    catalog: _gettext.NullTranslations = field(default_factory=_gettext.NullTranslations)
    shown: Callable[[str], str] | None = None  # see set_shown


_current = _Current()


def set_language(tag: str) -> None:
    """Show every later string in language ``tag`` (one of ``LANGUAGES``)."""
    if tag not in LANGUAGES:
        raise ValueError(f"unknown language {tag!r}")
    _current.catalog = translations(tag)
    _current.tag = tag


def set_translations(tag: str, catalog: _gettext.NullTranslations) -> None:
    """Use ``catalog`` as language ``tag`` (tests: a pseudo-language that shows what is marked)."""
    _current.catalog = catalog
    _current.tag = tag


def set_shown(shown: Callable[[str], str] | None) -> None:
    """Pass every string looked up from now on through ``shown`` (None: as the catalog has it).

    The app's ascii glyph set (:mod:`paris_tui.app.look.glyphs`) draws the
    punctuation of sentences (``…``, ``→``, ``—``) in ASCII this way, in every
    language, without a second catalog.
    """
    _current.shown = shown


def _shown(text: str) -> str:
    return text if _current.shown is None else _current.shown(text)


def current_language() -> str:
    """The tag of the language strings are shown in now."""
    return _current.tag


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return _shown(_current.catalog.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n``, in the current language."""
    return _shown(_current.catalog.ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English by ``context``."""
    return _shown(_current.catalog.pgettext(context, message))


def decimal(value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals, as the current language writes it (German ``2,5``).

    The separator is a translation (context "decimal separator"), so a language
    needs nothing but its catalog; the sign and the digits are Python's.
    """
    text = f"{value:.{places}f}"
    # Translators: the decimal separator of numbers such as 2.5 ("," in German).
    separator = pgettext("decimal separator", ".")
    return text if separator == "." else text.replace(".", separator)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it here."""
    return message


# gettext's own separator of a context from its message in a catalog's keys.
_CONTEXT = "\x04"


def NP_(context: str, message: str) -> str:
    """Mark ``message`` with ``context`` for the catalogs, translated later by ``shown_marked``.

    For a string defined before its language is known (a key's description)
    whose English means two things: ``NP_("replay", "Back")`` (one move back)
    is not the ``"Back"`` of Esc (the previous screen).
    """
    return f"{context}{_CONTEXT}{message}"


def split_marked(text: str) -> tuple[str | None, str]:
    """``(context, message)`` of a string marked with ``N_`` (context None) or ``NP_``."""
    context, sep, message = text.partition(_CONTEXT)
    return (context, message) if sep else (None, text)


def shown_marked(text: str) -> str:
    """A string marked with ``N_`` or ``NP_``, in the current language."""
    context, message = split_marked(text)
    return gettext(message) if context is None else pgettext(context, message)


_ = gettext
