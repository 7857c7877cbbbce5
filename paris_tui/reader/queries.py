"""The state on demand: what ``board``, ``line blue``, ``stop opera`` ... answer, from one view.

Shared by a game (:mod:`.play`) and a replay (:mod:`.replay`); each answer is one to a few
sentences (``board``: one per bus line). And ``help`` in a game: what may be typed.
"""

from __future__ import annotations

from collections.abc import Sequence

from paris_tui.app.look.describe import SHORT_LINE_NAMES, line_name

from ..core import SeatView
from ..i18n import _
from ..net.protocol import SeatInfo
from . import say
from .commands import match_names, word_for

__all__ = [
    "VIEW_QUERIES",
    "answer",
    "end_help_lines",
    "help_lines",
    "query_words",
    "rematch_line",
    "who_lines",
]

VIEW_QUERIES = ("board", "line", "stop", "tiles", "scores", "route", "discard", "sack")
"""The questions a view answers by itself."""


def query_words() -> dict[str, str]:
    """Each of :data:`VIEW_QUERIES` -> its word in the current language (for help)."""
    return {query: word_for(query) for query in VIEW_QUERIES}


def answer(view: SeatView, command: str, arg: str = "") -> list[str]:
    """The sentences that answer ``command`` (one of :data:`VIEW_QUERIES`) about ``view``."""
    if command == "board":
        return say.board_lines(view)
    if command == "line":
        return _line(view, arg)
    if command == "stop":
        return _stop(view, arg)
    if command == "tiles":
        return say.tiles_lines(view)
    if command == "scores":
        return say.score_lines(view)
    if command == "route":
        return say.route_lines(view)
    if command == "discard":
        return [say.discard_line(view)]
    if command == "sack":
        return say.sack_lines(view)
    raise ValueError(f"not a question about a view: {command}")


def _line(view: SeatView, arg: str) -> list[str]:
    board = view.board
    names = []
    for line in board.line_ids:
        words = [line, line_name(board, line), line_name(board, line, short=True)]
        if line in SHORT_LINE_NAMES:
            words.append(SHORT_LINE_NAMES[line])  # the English name in every language
        names.append(" ".join(words))
    found = match_names(arg, names) if arg else []
    if len(found) != 1:
        lines = say.names_and([line_name(board, ln, short=True) for ln in board.line_ids])
        return [
            _("Which line? Type {line} and one of: {lines}.").format(
                line=word_for("line"), lines=lines
            )
        ]
    return [say.line_line(view, board.line_ids[found[0]])]


def _stop(view: SeatView, arg: str) -> list[str]:
    board = view.board
    shown = [say.stop_name(board, s) for s in board.stop_ids]
    found = match_names(arg, shown) if arg else []
    if len(found) == 1:
        return say.stop_line(view, board.stop_ids[found[0]])
    if found:
        return [_("Which stop: {stops}?").format(stops=say.names_and([shown[i] for i in found]))]
    return [_("Type {stop} and the start of a stop's name.").format(stop=word_for("stop"))]


def help_lines(*, turn: bool, chat: bool, hints: bool = True) -> list[str]:
    """``help`` in a game: on one's ``turn`` or not, at a table with a ``chat`` or not,
    where ``hints`` are allowed or not (a host allows them with ``--hints``)."""
    w = word_for
    lines = []
    if turn:
        lines.append(_("On your turn: a tile's number, or the start of its stop's name, takes it."))
    lines.append(
        _(
            "{board}, {line} and a line's name, {stop} and a stop's name, {tiles}, {scores}, "
            "{route}, {discard}, {sack}: the game as it is now."
        ).format(**query_words())
    )
    if hints:
        recall = _(
            "{last}: the latest events again; {log} and a number: that round again; "
            "{hint}: a suggestion on your turn; {quit}: leave."
        )
    else:
        recall = _(
            "{last}: the latest events again; {log} and a number: that round again; {quit}: leave."
        )
    lines.append(recall.format(last=w("last"), log=w("log"), hint=w("hint"), quit=w("quit")))
    lines.extend(_more_lines(chat=chat))
    return [*lines, *_closing_lines(chat=chat, playing=True)]


def _closing_lines(*, chat: bool, playing: bool) -> list[str]:
    """The end of help, during the game and after it: at a host's table (``chat``) its
    chat and, while the game is ``playing``, what a player may ask of the table (resign
    and abort do nothing once it is over), then the words' rule."""
    w = word_for
    lines: list[str] = []
    if chat:
        lines.append(
            _("{say} and a text: say it at the table; everyone there reads it.").format(
                say=w("say")
            )
        )
        lines.append(
            _(
                "{mute} and a name: that player's lines are no longer read to you "
                "(kept with your account); {unmute} and a name: read again; "
                "{mute} alone: who is muted."
            ).format(mute=w("mute"), unmute=w("unmute"))
        )
    if chat and playing:
        lines.append(
            _(
                "{resign}: give the game up (the AI plays your seat to the end); {abort}: "
                "propose ending the game now, unrated, or agree to it; {abort} {no}: decline."
            ).format(resign=w("resign"), abort=w("abort"), no=w("no"))
        )
    lines.append(_("Words may be shortened; English words work in every language."))
    return lines


def _more_lines(*, chat: bool) -> list[str]:
    """``status``, ``who``, ``chat``, and the settings, for help."""
    w = word_for
    lines = [
        _(
            "{status}: the round, whose turn, the face-up tiles and the scores in one line; "
            "{who}: who is at the table."
        ).format(status=w("status"), who=w("who")),
        _(
            "{brief}: a grand or special tour in one line; {verbose}: stop by stop; "
            "{bell} on or {bell} off: a bell when it is your turn (both kept)."
        ).format(brief=w("brief"), verbose=w("verbose"), bell=w("bell")),
    ]
    if chat:
        lines.append(
            _("{chat}: the latest lines said at the table, apart from the game.").format(
                chat=w("chat")
            )
        )
    return lines


def rematch_line() -> str:
    """What ``rematch`` does, for the end's prompt and its help."""
    return _(
        "{rematch} asks for a rematch: the same players, a new deal, the seats' "
        "order turned; it starts when every player has asked."
    ).format(rematch=word_for("rematch"))


def end_help_lines(*, chat: bool, rematch: bool = False) -> list[str]:
    """``help`` after the game: what may still be typed (``rematch`` when it may be asked)."""
    w = word_for
    lines = [
        _("{review}: the strong AI's view of the moves; {quit}: leave.").format(
            review=w("review"), quit=w("quit")
        ),
        _(
            "{board}, {line} and a line's name, {stop} and a stop's name, {tiles}, {scores}, "
            "{route}, {discard}, {sack}: the game as it is now."
        ).format(**query_words()),
        _("{last}: the latest events again; {log} and a number: that round again.").format(
            last=w("last"), log=w("log")
        ),
        *_more_lines(chat=chat),
    ]
    if rematch:
        lines.append(rematch_line())
    return [*lines, *_closing_lines(chat=chat, playing=False)]


def who_lines(
    view: SeatView, seats: Sequence[SeatInfo], local: Sequence[int], watchers: Sequence[str]
) -> list[str]:
    """``who``: each seat and whether its player is here, then the watchers the table knows
    (those who have spoken in its chat)."""
    each = []
    for seat in range(view.players):
        who = say.name(view.names, seat)
        status = seats[seat].status if seat < len(seats) else "present"
        kind = seats[seat].kind if seat < len(seats) else "human"
        if seat in local:
            state = _("at this terminal")
        elif status == "ai" or (kind != "human" and status != "takeover"):
            state = _("an AI")
        elif status == "away":
            state = _("away")
        elif status == "takeover":
            state = _("away, an AI plays for them")
        else:
            state = _("here")
        each.append(_("{player}, {state}").format(player=who, state=state))
    lines = [_("At the table: {seats}.").format(seats=_("; ").join(each))]
    if watchers:
        lines.append(
            _("Watchers who have spoken here: {names}.").format(names=say.names_and(watchers))
        )
    return lines
