"""A line typed on one's turn: the tile it takes (by its number or the start of its stop's
name), the takeover's choice when the stop is full, or the command word it is.

:class:`TurnInput` answers what is about the tiles itself (a tile that cannot be taken,
a name more than one tile fits, whose business a takeover removes); a command word
(``hint``, ``scores``, ``say TEXT``, ...) it hands back to the turn flow to do.
"""

from __future__ import annotations

from collections.abc import Sequence

from paris_tui.core.analysis import eviction_destinations

from ..core import Move, SeatView
from ..i18n import _
from . import say
from .commands import Parsed, match_names, parse, word_for
from .lines import Lines
from .queries import VIEW_QUERIES

__all__ = ["CHAT", "QUERIES", "TurnInput", "ambiguous"]

QUERIES = (*VIEW_QUERIES, "last", "log", "status", "who", "chat", "brief", "verbose", "bell")
"""What may be asked (or set) at any moment (each answered from a view this terminal may
read): ``status``, ``who``, ``chat``, and the settings ``brief``, ``verbose``, ``bell``."""

CHAT = ("say", "mute", "unmute")
"""The chat's commands (at a host's table, whose players talk there)."""

Reading = tuple[Move | None, list[Move] | None, Parsed | None]
"""What a line typed on a turn is: a move to submit (or None), the takeover's choices
still open (or None), and a command word for the turn flow to do (or None)."""


def ambiguous(commands: Sequence[str]) -> str:
    """What is said when a shortened word could be any of ``commands``."""
    return _("That could be {commands}: type more of it.").format(
        commands=say.names_and([word_for(c) for c in commands])
    )


class TurnInput:
    """Reads the lines typed on a turn against the face-up tiles of the seat's view."""

    def __init__(self, out: Lines) -> None:
        self.out = out
        self.asked: list[str] = []  # the takeover's question, while it is asked

    def read(self, text: str, view: SeatView, choices: list[Move] | None) -> Reading:
        """``text`` typed on a turn of ``view``, while ``choices`` (a takeover's) are asked."""
        allowed = (*QUERIES, "hint", "help", "quit", "cancel", "abort", *CHAT)
        parsed = parse(text, allowed)
        if not text.strip():
            return None, choices, None
        if parsed.command in (*CHAT, "abort") and parsed.exact:  # typed in full: no stop's start
            return None, choices, parsed
        if choices is not None:
            if parsed.number is not None:
                if 1 <= parsed.number <= len(choices):
                    return choices[parsed.number - 1], None, None
                self.out.say(
                    _("Type a number from 1 to {n}, or {cancel}.").format(
                        n=len(choices), cancel=word_for("cancel")
                    )
                )
                return None, choices, None
            if parsed.command == "cancel":
                self.out.say(_("Choose a tile again."))
                return None, None, None
        if parsed.number is not None:
            if 1 <= parsed.number <= len(view.face_up):
                return (*self._take(view, parsed.number - 1), None)
            self.out.say(
                _("There is no tile {number}: type a number from 1 to {n}.").format(
                    number=parsed.number, n=len(view.face_up)
                )
            )
            return None, choices, None
        if parsed.command is not None and parsed.exact:
            return None, choices, parsed
        stops = [t.split("/", 1)[0] for t in view.face_up]
        shown = [say.stop_name(view.board, s) for s in stops]
        found = match_names(text, shown)
        tiles = {view.face_up[i] for i in found}
        commands = parsed.ambiguous or ((parsed.command,) if parsed.command else ())
        if tiles and commands:
            # "q" could be quit or Quartier Latin: a move cannot be taken back, so ask.
            self.out.say(
                _("That could be {commands} or the tile {tiles}: type more of it.").format(
                    commands=say.names_and([word_for(c) for c in commands]),
                    tiles=say.names_and([shown[i] for i in found]),
                )
            )
            return None, choices, None
        if len(tiles) == 1:
            return (*self._take(view, found[0]), None)
        if len(tiles) > 1:
            options = _("; ").join(say.bare(say.tile_line(view, i)) for i in found)
            self.out.say(
                _("More than one tile fits: {tiles}. Type its number.").format(tiles=options)
            )
            return None, choices, None
        if parsed.command is not None:
            return None, choices, parsed
        if parsed.ambiguous:
            self.out.say(ambiguous(parsed.ambiguous))
            return None, choices, None
        self.out.say(self._what_would(view))
        return None, choices, None

    def _take(self, view: SeatView, index: int) -> tuple[Move | None, list[Move] | None]:
        tile = view.face_up[index]
        moves = [m for m in view.legal_moves if m.tile == tile]
        if not moves:
            self.out.say(_("That tile cannot be taken now."))
            return None, None
        if len(moves) == 1:
            return moves[0], None
        stop = say.stop_name(view.board, tile.split("/", 1)[0])
        going = eviction_destinations(view, moves)
        options = []
        for n, move in enumerate(moves, start=1):
            assert move.evict is not None
            owner = say.name(view.names, move.evict)
            if going.get(move.evict) == "sack":
                text = _("{n}: remove {player}'s business, it goes into the sack")
            else:
                text = _("{n}: remove {player}'s business, it goes back to {player}'s supply")
            options.append(text.format(n=n, player=owner))
        self.asked = [
            _("{stop} is full. Whose business do you remove?").format(stop=stop),
            _("; ").join(options) + ".",
            _("Type the number, or {cancel}.").format(cancel=word_for("cancel")),
        ]
        self.out.say(*self.asked)
        return None, moves

    def _what_would(self, view: SeatView) -> str:
        n = len(view.face_up)
        return _(
            "Type a tile's number from 1 to {n} or the start of its stop's name, "
            "{tiles} to hear them, or {help}."
        ).format(n=n, tiles=word_for("tiles"), help=word_for("help"))
