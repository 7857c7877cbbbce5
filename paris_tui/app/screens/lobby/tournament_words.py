"""The words of the lobby's tournaments: a tournament's format, state, start, points,
and the line that says where a round seats the player (pure: no widgets).

Names (a tournament's, a player's) are outside text: they go through
:func:`~paris_tui.core.printable` into :class:`rich.text.Text`, never markup, and
are measured in cells (:func:`~paris_tui.app.look.describe.words` places them).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text

from paris_tui.app.look.describe import words
from paris_tui.core import printable
from paris_tui.i18n import _, ngettext
from paris_tui.net.tournaments_wire import EntrantInfo, RoundStart, TournamentInfo
from paris_tui.net.turns import move_time_words

__all__ = [
    "entrants_text",
    "format_text",
    "kind_text",
    "list_state_text",
    "points_text",
    "round_start_text",
    "start_text",
    "state_text",
]


def format_text(fmt: str) -> str:
    """``Swiss``, ``round robin``, ``knockout``."""
    if fmt == "swiss":
        return _("Swiss")
    if fmt == "round-robin":
        return _("round robin")
    if fmt == "knockout":
        return _("knockout")
    return printable(fmt)


def kind_text(t: TournamentInfo) -> str:
    """``Swiss, 2 a table, 4 rounds, 2 min a move, rated``."""
    parts = [
        format_text(t.format),
        ngettext("{n} a table", "{n} a table", t.players).format(n=t.players),
    ]
    if t.rounds:
        parts.append(
            ngettext("{n} tournament round", "{n} tournament rounds", t.rounds).format(n=t.rounds)
        )
    parts.append(_("{time} a move").format(time=move_time_words(t.move_time)))
    parts.append(_("rated") if t.rated else _("unrated"))
    return ", ".join(parts)


def start_text(start: int) -> str:
    """When a tournament starts (or started), in UTC, as the operator's ``--start`` is."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(start))


def state_text(t: TournamentInfo) -> str:
    """``open for entry``, ``round 2 of 4``, ``finished``; with ``you are in``."""
    if t.state == "open":
        said = _("open for entry")
    elif t.state == "running":
        if t.rounds:
            said = _("tournament round {n} of {total}").format(n=t.round, total=t.rounds)
        else:
            said = _("tournament round {n}").format(n=t.round)
    elif t.state == "finished":
        said = _("finished")
    else:
        said = _("cancelled")
    if t.entered and t.state in ("open", "running"):
        said = _("{state}, you are in").format(state=said)
    return said


def list_state_text(t: TournamentInfo) -> str:
    """A tournament's state in the list's narrow column: ``open for entry``,
    ``running (3 of 4)``, ``finished``."""
    if t.state == "running":
        if t.rounds:
            return _("running ({n} of {total})").format(n=t.round, total=t.rounds)
        return _("running ({n})").format(n=t.round)
    if t.state == "open":
        return _("open for entry")
    return _("finished") if t.state == "finished" else _("cancelled")


def points_text(hundredths: int) -> str:
    """Points or a tie-break from whole hundredths: ``6``, ``5.5``, ``2.33``."""
    return f"{hundredths / 100:.2f}".rstrip("0").rstrip(".")


def entrants_text(entrants: Sequence[EntrantInfo], width: int) -> Text:
    """``Entrants (3): ann, bob, 王小明 (withdrawn)``, cut to ``width`` cells with how many
    more."""
    out = Text(
        ngettext("Entrants ({n}): ", "Entrants ({n}): ", len(entrants)).format(n=len(entrants)),
        style="bold",
    )
    if not entrants:
        out.append(_("nobody yet"), style="dim")
        return out
    for i, entrant in enumerate(entrants):
        part = Text(", " if i else "")
        part.append(printable(entrant.name), style="dim" if entrant.withdrawn else "")
        if entrant.withdrawn:
            part.append(" " + _("(withdrawn)"), style="dim")
        left = len(entrants) - i
        more = " " + _("+{n} more").format(n=left)
        if cell_len(out.plain) + cell_len(part.plain) + cell_len(more) > width and i:
            out.append(more, style="dim")
            break
        out.append_text(part)
    return out


def round_start_text(start: RoundStart, me: str | None) -> Text:
    """``Tournament Winter Cup, round 2: you sit at table t9 with bob. j takes you there.``"""
    others = [
        printable(n) for i, n in enumerate(start.seats) if i != start.seat and n != (me or "")
    ]
    return words(
        _(
            "Tournament {tournament}, round {n}: you sit at table {table} with {others}. "
            "{key} takes you there."
        ),
        tournament=Text(printable(start.name), style="bold"),
        n=start.round,
        table=Text(start.table, style="bold"),
        others=Text(", ".join(others) or "?", style="bold"),
        key=Text("j", style="bold"),
    )
