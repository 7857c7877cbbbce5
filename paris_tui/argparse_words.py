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
import re
import unicodedata

from . import i18n
from .core.text import cell_width
from .i18n import N_, ngettext

__all__ = ["MESSAGES", "CellHelpFormatter", "install", "plural_messages", "wrap_cells"]

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
    # Messages of newer Pythons (the README admits 3.11 and later and each release's argparse
    # has its own; tests/cli/test_lang.py reads the running one's, and .ci/run runs it on the
    # oldest and the newest Python the machine has).
    # Translators: a heading of --help (Python 3.13+): %(heading)s is "options" or the like.
    N_("%(heading)s:"),
    # Translators: added to an option's help (Python 3.13+); keep the space at the start.
    N_(" (default: %(default)s)"),
    # Translators: keep the newline at the end; %(prog)s is the command's name.
    N_("%(prog)s: warning: %(message)s\n"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
    N_("command '%(parser_name)s' is deprecated"),
    # Translators: Python 3.14+ suggests the closest choice.
    N_("invalid choice: %(value)r, maybe you meant %(closest)r? (choose from %(choices)s)"),
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


# A closing mark that must not start a line (Chinese punctuation, closing brackets).
_NO_LINE_START = set("，。、；：！？）」』】》〉,.;:!?)]}")
_TOKEN = re.compile(r" +|[^ ]")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def _tokens(text: str) -> list[str]:
    """``text`` as the pieces a line may break between: runs of spaces, words of
    narrow letters, and each wide character (with the closing marks after it)."""
    out: list[str] = []
    for piece in _TOKEN.findall(text):
        wide = _wide(piece[0])
        if piece in _NO_LINE_START and out and not out[-1].startswith(" "):
            out[-1] += piece
        else:
            after_break = not out or out[-1].startswith(" ") or _wide(out[-1][-1])
            if piece.startswith(" ") or wide or after_break:
                out.append(piece)
            else:
                out[-1] += piece
    return out


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` wrapped to lines of at most ``width`` terminal cells (wide characters
    count two; Chinese breaks between characters, never before a closing mark)."""
    width = max(width, 2)
    lines: list[str] = []
    line, used = "", 0
    for piece in _tokens(" ".join(text.split())):
        token, size = piece, cell_width(piece)
        if token.startswith(" "):
            if line:
                line, used = line + token, used + size
            continue
        if used + size > width and line.strip():
            lines.append(line.rstrip())
            line, used = "", 0
        while size > width:  # a word longer than a line: cut it
            cut = ""
            for ch in token:
                if cell_width(cut + ch) > width:
                    break
                cut += ch
            lines.append(cut)
            token = token[len(cut) :]
            size = cell_width(token)
        line, used = line + token, used + size
    if line.strip():
        lines.append(line.rstrip())
    return lines


class CellHelpFormatter(argparse.HelpFormatter):
    """argparse's help, wrapped in terminal cells: a Chinese or German help text fits
    the terminal as an English one does. (Overrides argparse's formatter hooks.)"""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if cell_width(text) == len(text):  # narrow letters only: argparse's own wrapping
            return super()._split_lines(text, width)
        return wrap_cells(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if cell_width(text) == len(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap_cells(text, width - len(indent)))

    def _format_usage(
        self, usage: str | None, actions: object, groups: object, prefix: str | None
    ) -> str:
        # argparse lines up the usage's later lines by len(prefix): give it a stand-in of
        # the prefix's width in cells, then put the prefix back.
        if prefix is None:
            prefix = _gettext("usage: ")
        width = cell_width(prefix)
        text: str = super()._format_usage(usage, actions, groups, " " * width)  # type: ignore[arg-type]
        return prefix + text[width:]
