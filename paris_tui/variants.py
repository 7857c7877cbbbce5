"""The rule variants' options (R5, R7), declared once for every command that deals games.

``paris-tui play``, ``paris-tui host`` and ``paris-tui arena`` take the same
``--small-tour MODE`` and ``--final-tours MODE``: :func:`add_variant_options`
adds them to a command's parser, :func:`variant_options` turns the parsed
values into the core's :class:`~paris_tui.core.Options`, or raises
:class:`VariantError` with one line that names the option. The check is made
after parsing, not by argparse's ``choices`` (whose error is the usage and a
line more), so that each command reports a bad mode in one line, as the host
and the arena report all their values.

It sits beside ``cli.py`` rather than in a room: the core takes no argparse,
and the AI (the arena), the host and the command line may all import it.
"""

from __future__ import annotations

import argparse

from .core import Options
from .core.game import FINAL_TOUR_MODES, SMALL_TOUR_MODES
from .i18n import _

__all__ = ["VariantError", "add_variant_options", "variant_options"]

_DEFAULTS = Options()
# (option, the namespace's attribute, the modes, the first the rulebook's)
_VARIANTS = (
    ("--small-tour", "small_tour", SMALL_TOUR_MODES),
    ("--final-tours", "final_tours", FINAL_TOUR_MODES),
)


class VariantError(ValueError):
    """A variant option's bad value; the message is the one line to show."""


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--small-tour`` and ``--final-tours`` to ``parser``, the rulebook's modes by default."""
    parser.add_argument(
        "--small-tour",
        metavar="MODE",
        default=_DEFAULTS.small_tour,
        help=_("small tour variant: both-lines (default) or tile-line (rules R5)"),
    )
    parser.add_argument(
        "--final-tours",
        metavar="MODE",
        default=_DEFAULTS.final_tours,
        help=_("final special tours variant: secret (default) or all-lines (rules R7)"),
    )


def variant_options(args: argparse.Namespace) -> Options:
    """The core's variants from what :func:`add_variant_options` parsed.

    Raises :class:`VariantError` naming the first option whose value is no mode of its
    variant (the value cut short and in ``repr``'s quotes, which escape every control character:
    it is outside text on a terminal line).
    """
    for option, attribute, modes in _VARIANTS:
        value = getattr(args, attribute)
        if value not in modes:
            text = str(value)
            shown = text if len(text) <= 40 else text[:40] + "..."
            one, other = modes
            raise VariantError(
                _("{option} must be {one} or {other}, not {text}").format(
                    option=option, one=one, other=other, text=repr(shown)
                )
            )
    return Options(small_tour=args.small_tour, final_tours=args.final_tours)
