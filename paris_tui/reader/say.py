"""Sentences for the ear: the game as plain text, one sentence that makes sense alone per line.

Everything here reads a :class:`~paris_tui.core.SeatView` or the public
events of the core (:mod:`paris_tui.core.events`) and returns ``str``: no
markup, no symbol for a player (players by name), no colour for a line (its
name), stop names in full (as the glyph set in use writes them: ``Opéra``, or
``Opera`` in ascii). Names are outside text: each goes through
:func:`~paris_tui.core.text.printable` and into a sentence by ``format``, so
a name reads out as it was typed and is never a command or an escape.
"""

from __future__ import annotations

from collections.abc import Sequence

from paris_tui.app.look.describe import line_name, score_detail, shown_name, stop_name
from paris_tui.app.look.glyphs import current_glyphs

from ..core import (
    Board,
    BusinessOpened,
    BusinessRemoved,
    Event,
    GameOver,
    NothingOpened,
    Outcome,
    RoundStarted,
    ScoreEvent,
    SeatView,
    TileDiscarded,
    TourEvent,
    classic_board,
)
from ..i18n import _, current_language, ngettext, pgettext

__all__ = [
    "announce",
    "bare",
    "board_lines",
    "closed_reason",
    "connection_line",
    "discard_line",
    "end_lines",
    "fixed_phrases",
    "line_line",
    "name",
    "names_and",
    "points",
    "route_lines",
    "sack_lines",
    "score_lines",
    "sentences",
    "status_line",
    "stop_line",
    "stop_name",
    "tile_line",
    "tile_name",
    "tiles_lines",
    "turn_lines",
]


def name(names: Sequence[str], seat: int) -> str:
    """A player's name as it reads out (escaped: never a control; an AI seat's in the
    player's language: ``Gierige KI``)."""
    return shown_name(names[seat])


def bare(sentence: str) -> str:
    """``sentence`` without its closing full stop (``.`` or ``。``), to go inside another."""
    return sentence.rstrip(".。")


_PHRASES: dict[tuple[str, int], tuple[str, ...]] = {}


def fixed_phrases() -> tuple[str, ...]:
    """The classic board's stop and line names as this language and glyph set say them:
    what a line is never broken inside."""
    key = (current_language(), id(current_glyphs()))
    if key not in _PHRASES:
        board = classic_board()
        found = {stop_name(board, s) for s in board.stop_ids}
        found |= {s.name for s in board.stops}
        found |= {line_name(board, ln) for ln in board.line_ids}
        found |= {_on_line(board, ln) for ln in board.line_ids}
        _PHRASES[key] = tuple(sorted(found, key=len, reverse=True))
    return _PHRASES[key]


def _on_line(board: Board, line: str) -> str:
    """A line's name after "on the" / "of the" (German needs the dative: "der Gelben Linie")."""
    words = {
        "blue": pgettext("after on the", "Blue line"),
        "yellow": pgettext("after on the", "Yellow line"),
        "red": pgettext("after on the", "Red line"),
        "pink": pgettext("after on the", "Pink line"),
        "green": pgettext("after on the", "Green line"),
    }
    return words.get(line) or line_name(board, line)


def names_and(parts: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy`` in the current language."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    # Translators: a list of names in a sentence: "Ann, Bob" (then "... and Cy").
    head = _(", ").join(parts[:-1])
    return _("{first} and {last}").format(first=head, last=parts[-1])


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)


def _line(board: Board, line: str) -> str:
    return line_name(board, line)


def _tile(board: Board, tile: str) -> str:
    """``Opéra, Blue line``: a tile's stop and its colour's line."""
    stop, line = tile.split("/", 1)
    # Translators: a tile: its stop, then its line ("Opéra, Blue line").
    return _("{stop}, {line}").format(stop=stop_name(board, stop), line=_line(board, line))


def tile_name(board: Board, tile: str) -> str:
    """``Opéra, Blue line``."""
    return _tile(board, tile)


def _owners(view: SeatView, owners: Sequence[int]) -> str:
    """``Bob`` / ``Ann and Bob`` / ``Bob twice``: whose businesses stand at a stop."""
    if len(owners) == 2 and owners[0] == owners[1]:
        return _("{player} twice").format(player=name(view.names, owners[0]))
    return names_and([name(view.names, seat) for seat in owners])


def _occupancy(view: SeatView, stop: str) -> str:
    """``free`` / ``Bob's business, room for one more`` / ``full: Ann and Bob``."""
    index = view.board.stop_index[stop]
    owners = view.occupancy[index]
    capacity = view.board.capacity[index]
    if not owners:
        return _("free")
    if len(owners) < capacity:
        return _("a business of {owners}, room for one more").format(owners=_owners(view, owners))
    if len(owners) == 1:
        return _("full, with {player}'s business").format(player=name(view.names, owners[0]))
    return _("full, businesses of {owners}").format(owners=_owners(view, owners))


def tile_line(view: SeatView, index: int) -> str:
    """``2 Opéra, Blue line, free.``: a face-up tile by its number (counted from 1)."""
    tile = view.face_up[index]
    stop = tile.split("/", 1)[0]
    return _("{n} {tile}, {where}.").format(
        n=index + 1, tile=_tile(view.board, tile), where=_occupancy(view, stop)
    )


def tiles_lines(view: SeatView) -> list[str]:
    """The face-up tiles, one line each, after a line that says how many."""
    if not view.face_up:
        return [_("No tiles are face up.")]
    head = ngettext("{n} tile is face up:", "{n} tiles are face up:", len(view.face_up)).format(
        n=len(view.face_up)
    )
    return [head] + [tile_line(view, i) for i in range(len(view.face_up))]


def score_lines(view: SeatView, scores: Sequence[int] | None = None) -> list[str]:
    """The scores and the supplies, a sentence each (what everyone may know, R8)."""
    shown = view.scores if scores is None else scores
    each = [
        _("{player} {points}").format(player=name(view.names, s), points=points(shown[s]))
        for s in range(view.players)
    ]
    supplies = [
        _("{player} {n}").format(player=name(view.names, s), n=view.supply[s])
        for s in range(view.players)
    ]
    return [
        _("Scores: {scores}.").format(scores=_("; ").join(each)),
        _("Businesses left in supply: {supplies}.").format(supplies=_("; ").join(supplies)),
    ]


def discard_line(view: SeatView) -> str:
    if not view.discard:
        return _("The discard area is empty.")
    # The area holds at most one tile of each line (R3.4), and only its colour counts.
    tiles = _("; ").join(_line(view.board, line) for line in view.discard)
    return _("Discard area: {tiles}.").format(tiles=tiles)


def sack_lines(view: SeatView) -> list[str]:
    """What is known of the sack: its total, and whose only at the end (R8)."""
    if view.players == 2:
        return [_("With two players there is no sack: removed businesses go back to supply.")]
    outcome = view.outcome
    if outcome is None:
        return [
            ngettext(
                "The sack holds {n} business; whose stays secret until the game end.",
                "The sack holds {n} businesses; whose stays secret until the game end.",
                view.sack_total,
            ).format(n=view.sack_total)
        ]
    each = [
        _("{player} {n}").format(player=name(view.names, s), n=outcome.sack[s])
        for s in range(view.players)
    ]
    return [_("In the sack: {counts}.").format(counts=_("; ").join(each))]


def route_lines(view: SeatView) -> list[str]:
    """The seat's own secret route (and the public one with two players)."""
    out: list[str] = []
    if view.seat is not None and view.own_route is not None:
        out.append(
            _("Your secret route, {player}: the {line}.").format(
                player=name(view.names, view.seat), line=_line(view.board, view.own_route)
            )
        )
    elif view.revealed_routes is None:
        out.append(_("No secret route is read out now: it is nobody's turn at this terminal."))
    if view.public_route is not None:
        out.append(
            _("The public route: the {line}.").format(line=_line(view.board, view.public_route))
        )
    if view.revealed_routes is not None:
        each = [
            _("{player}: {line}").format(player=name(view.names, s), line=_line(view.board, route))
            for s, route in enumerate(view.revealed_routes)
        ]
        out.append(_("The routes were: {routes}.").format(routes=_("; ").join(each)))
    return out


def _stop_state(view: SeatView, stop_index: int) -> str:
    stop = view.board.stops[stop_index]
    return _("{stop}, {where}").format(
        stop=stop_name(view.board, stop.id), where=_occupancy(view, stop.id)
    )


def line_line(view: SeatView, line: str) -> str:
    """One line of the board: its stops in order, each with its businesses."""
    board = view.board
    ln = board.lines[board.line_index[line]]
    stops = _("; ").join(_stop_state(view, s) for s in ln.stops)
    return _("{line}: {stops}.").format(line=_line(board, line), stops=stops)


def board_lines(view: SeatView) -> list[str]:
    """The whole board: one line per bus line, then how much is left."""
    out = [line_line(view, line) for line in view.board.line_ids]
    out.append(
        ngettext(
            "Round {round} of {total}; {n} stack of tiles left.",
            "Round {round} of {total}; {n} stacks of tiles left.",
            view.stacks_left,
        ).format(
            round=min(view.round + 1, view.rounds_total),
            total=view.rounds_total,
            n=view.stacks_left,
        )
    )
    return out


def stop_line(view: SeatView, stop: str) -> list[str]:
    """A stop: its lines, its room, its businesses, its neighbours."""
    board = view.board
    index = board.stop_index[stop]
    s = board.stops[index]
    lines = names_and([_on_line(board, board.lines[li].id) for li in s.lines])
    if s.is_crossing:
        kind = _("{stop} is a crossing of the {lines}, with room for 2 businesses.")
    else:
        kind = _("{stop} is on the {lines}, with room for 1 business.")
    neighbours = names_and([stop_name(board, board.stops[n].id) for n in board.neighbours[index]])
    return [
        kind.format(stop=stop_name(board, stop), lines=lines),
        _("Now: {where}. Next to it: {stops}.").format(
            where=_occupancy(view, stop), stops=neighbours
        ),
    ]


def sentences(*parts: str) -> str:
    """Sentences one after another in one line, as the language puts them (English and
    German: a space between; Chinese: none after its full stop)."""
    line = parts[0] if parts else ""
    for part in parts[1:]:
        line = pgettext("two sentences", "{first} {second}").format(first=line, second=part)
    return line


def turn_lines(view: SeatView, *, yours: bool) -> list[str]:
    """The start of a turn: the round, whose turn, the tiles to choose from."""
    assert view.to_move is not None
    round_ = _("Round {round} of {total}.").format(round=view.round + 1, total=view.rounds_total)
    who = name(view.names, view.to_move)
    if yours:
        turn = _("Your turn, {player}: choose a tile by its number or its stop.").format(player=who)
    else:
        turn = _("{player}'s turn.").format(player=who)
    return [sentences(round_, turn), *tiles_lines(view)[1:]]


# --- events --------------------------------------------------------------------------------


def _where_to(view: SeatView, event: BusinessRemoved) -> str:
    if event.to == "sack":
        return _("it goes into the sack")
    return _("it goes back to {player}'s supply").format(player=name(view.names, event.owner))


def _tour_head(view: SeatView, event: TourEvent) -> str:
    board = view.board
    if event.kind == "small_tour":
        assert event.stop is not None
        return _("Small tour from {stop}.").format(stop=stop_name(board, event.stop))
    assert event.line is not None
    line = _line(board, event.line)
    if event.kind == "grand_tour":
        return _("Grand tour on the {line}.").format(line=line)
    if event.seat is not None:
        return _("Special tour on the {line}, {player}'s route.").format(
            line=line, player=name(view.names, event.seat)
        )
    if view.players == 2 and view.options.final_tours == "secret":
        return _("Special tour on the {line}, the public route.").format(line=line)
    return _("Special tour on the {line}.").format(line=line)


def _score(view: SeatView, event: ScoreEvent) -> str:
    return _("{player} scores {points}: {why}.").format(
        player=name(view.names, event.seat),
        points=points(event.points),
        why=score_detail(view.board, event),
    )


def announce(view: SeatView, events: Sequence[Event], *, brief: bool = False) -> list[str]:
    """The sentences for ``events`` (one move's, in order), for everyone at the table.

    A small tour says who scores and why; a grand or special tour goes stop
    by stop (its four crossings in the bus's order), each with its points or
    "nobody scores here" (``brief``: in one line, each player's points of the tour);
    the sack and the winner come last, as they happen.
    ``view`` gives the board and the names (any view of the game: names and
    board are public).
    """
    out: list[str] = []
    board = view.board
    i = 0
    events = list(events)
    while i < len(events):
        event = events[i]
        i += 1
        if isinstance(event, RoundStarted):
            out.append(
                _("Round {round} of {total} begins; {player} holds the bus.").format(
                    round=event.round + 1,
                    total=view.rounds_total,
                    player=name(view.names, event.starter),
                )
            )
        elif isinstance(event, BusinessOpened):
            out.append(
                _("{player} took {tile}, and opened a business there.").format(
                    player=name(view.names, event.seat),
                    tile=_tile(board, event.tile),
                )
            )
        elif isinstance(event, NothingOpened):
            out.append(
                # Translators: C1 is the rule's number in docs/rules.md; keep it.
                _("{player} took {tile}; their supply is empty, so nothing opened (C1).").format(
                    player=name(view.names, event.seat), tile=_tile(board, event.tile)
                )
            )
        elif isinstance(event, BusinessRemoved):
            if event.owner == event.by:
                text = _("{player} removed their own business at {stop}; {to}.")
            else:
                text = _("{player} removed {owner}'s business at {stop}; {to}.")
            out.append(
                text.format(
                    player=name(view.names, event.by),
                    owner=name(view.names, event.owner),
                    stop=stop_name(board, event.stop),
                    to=_where_to(view, event),
                )
            )
        elif isinstance(event, TourEvent):
            scores: list[ScoreEvent] = []
            while i < len(events):
                nxt = events[i]
                if not (isinstance(nxt, ScoreEvent) and nxt.kind == event.kind):
                    break
                scores.append(nxt)
                i += 1
            head = _tour_head(view, event)
            if event.kind == "small_tour":
                if not scores:
                    out.append(_("{tour} Nobody scores.").format(tour=head))
                else:
                    out.append(head)
                    out.extend(_score(view, s) for s in scores)
                continue
            if brief:
                out.append(_tour_in_one(view, head, scores))
                continue
            out.append(head)
            for stop in event.stops:
                here = [s for s in scores if s.stop == stop]
                where = stop_name(board, stop)
                if not here:
                    out.append(_("At {stop}, nobody scores.").format(stop=where))
                    continue
                each = [
                    _("{player} {points} ({why})").format(
                        player=name(view.names, s.seat),
                        points=points(s.points),
                        why=score_detail(board, s),
                    )
                    for s in here
                ]
                out.append(_("At {stop}: {scores}.").format(stop=where, scores=_("; ").join(each)))
            rest = [s for s in scores if s.stop not in event.stops]
            out.extend(_score(view, s) for s in rest)
        elif isinstance(event, ScoreEvent):
            if event.kind == "sack":
                out.append(
                    _(
                        "The sack: {player} has the most businesses in it ({n}) "
                        "and scores {points}."
                    ).format(
                        player=name(view.names, event.seat),
                        n=event.here,
                        points=points(event.points),
                    )
                )
            else:
                out.append(_score(view, event))
        elif isinstance(event, TileDiscarded):
            if event.grand_tour:
                text = _(
                    "Left over: {tile}; it goes to the discard area and pairs its colour: "
                    "a grand tour follows."
                )
            else:
                text = _("Left over: {tile}; it goes to the discard area.")
            out.append(text.format(tile=_tile(board, event.tile)))
        elif isinstance(event, GameOver):
            out.append(_("The game is over."))
    return out


def _tour_in_one(view: SeatView, head: str, scores: Sequence[ScoreEvent]) -> str:
    """A grand or special tour in one line: who scores how much in all (``brief``)."""
    total: dict[int, int] = {}
    for score in scores:
        total[score.seat] = total.get(score.seat, 0) + score.points
    if not total:
        return _("{tour} Nobody scores.").format(tour=head)
    each = [
        _("{player} {points}").format(player=name(view.names, seat), points=points(n))
        for seat, n in sorted(total.items(), key=lambda item: -item[1])
    ]
    return _("{tour} Scores: {scores}.").format(tour=head, scores=_("; ").join(each))


def status_line(view: SeatView) -> str:
    """The game in one line: the round, whose turn, the face-up tiles, the scores."""
    if view.is_over:
        return _("The game is over. {scores}").format(scores=score_lines(view)[0])
    round_ = _("Round {round} of {total}.").format(
        round=min(view.round + 1, view.rounds_total), total=view.rounds_total
    )
    parts = [round_]
    if view.to_move is not None:
        parts.append(_("{player}'s turn.").format(player=name(view.names, view.to_move)))
    if view.face_up:
        tiles = _("; ").join(
            _("{n} {tile}").format(n=i + 1, tile=_tile(view.board, t))
            for i, t in enumerate(view.face_up)
        )
        parts.append(_("Face up: {tiles}.").format(tiles=tiles))
    parts.append(score_lines(view)[0])
    return sentences(*parts)


def end_lines(view: SeatView) -> list[str]:
    """The result: the final scores, the winner and how the winner was found (R7.3)."""
    outcome: Outcome | None = view.outcome
    if outcome is None:
        return []
    order = sorted(range(view.players), key=lambda s: (-outcome.scores[s], outcome.on_board[s]))
    each = [
        _("{player} {points}").format(player=name(view.names, s), points=points(outcome.scores[s]))
        for s in order
    ]
    out = [_("Final scores: {scores}.").format(scores=_("; ").join(each))]
    winners = [name(view.names, s) for s in outcome.winners]
    if outcome.decided_by == "shared":
        out.append(
            _(
                "{players} share the win: the same score and the same number of businesses "
                "on the board."
            ).format(players=names_and(winners))
        )
    elif outcome.decided_by == "fewest_businesses":
        w = outcome.winners[0]
        out.append(
            ngettext(
                "{player} wins the tie-break with the fewest businesses on the board ({n}).",
                "{player} wins the tie-break with the fewest businesses on the board ({n}).",
                outcome.on_board[w],
            ).format(player=winners[0], n=outcome.on_board[w])
        )
    else:
        out.append(_("{player} wins.").format(player=winners[0]))
    return out


def closed_reason(reason: str) -> str:
    """Why the host closed a connection (``reason``: a protocol word), as words."""
    if reason == "idle":
        return _("the host heard nothing from this terminal for too long")
    if reason == "shutdown":
        return _("the host is shutting down")
    if reason == "replaced":
        return _("your name joined from another terminal")
    return _("the host hung up without a reason")


def connection_line(reason: str, attempt: int) -> str:
    """What a join says when its connection ends (``reason``: a protocol word) and before
    each try to join again (``attempt`` 1, 2, ...; 0: no try, the table is over here)."""
    if attempt:
        return _("Connection lost: {why}; trying again, try {n}.").format(
            why=closed_reason(reason), n=attempt
        )
    if reason == "replaced":
        # The game screen's words, and a full stop: a sentence that stands alone.
        return _("Your seat was joined from another terminal: this one left it") + "."
    return _("Connection closed: {why}.").format(why=closed_reason(reason))
