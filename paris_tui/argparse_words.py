"""argparse's own words ("usage:", "options:", its errors) in the player's language.

argparse looks its words up with ``gettext.gettext`` and ``gettext.ngettext``
in the ``argparse`` domain, which has no catalog of ours. :func:`install`
routes those two lookups through :mod:`paris_tui.i18n`, and the strings below
put argparse's messages into our catalogs, so ``paris-tui --lang de --help``
says "Aufruf:" and a missing argument is refused in German.

The English strings must equal argparse's exactly (``%(name)s`` and all):
tests/cli/test_lang.py reads the running Python's argparse source and fails on
a message a user can meet that is not here. Messages only a programmer meets
(a parser built wrongly) are not shown to players and stay English.
"""

from __future__ import annotations

import argparse

from . import i18n
from .i18n import N_, ngettext

__all__ = ["MESSAGES", "install", "plural_messages"]

# Every argparse message a user of the command can see, as argparse writes it.
MESSAGES: tuple[str, ...] = (
    # Translators: the start of a command's usage line; keep the space at the end.
    N_("usage: "),
    # Translators: a heading of --help: the arguments given without a dash.
    N_("positional arguments"),
    # Translators: a heading of --help: the arguments given with a dash (--seed).
    N_("options"),
    N_("subcommands"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    # Translators: keep the newline at the end; %(prog)s is the command's name.
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def plural_messages(n: int) -> list[str]:
    """argparse's messages with a number in them, in the form for ``n`` (for the catalogs)."""
    return [ngettext("expected %s argument", "expected %s arguments", n)]


def _gettext(message: str) -> str:
    # argparse calls _(None) for a subparsers group without a description.
    return i18n.gettext(message) if message else message


def install() -> None:
    """Make argparse look its words up in the current language of :mod:`paris_tui.i18n`.

    Idempotent; in English the words are argparse's own.
    """
    argparse._ = _gettext  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
