"""Words and symbols for what the core reports: tiles, seats, events.

Never colour alone: every seat has a symbol, every line a letter, so the
text reads the same with ``NO_COLOR=1``.

Outside text (players' names, file names, messages that quote them) is data,
never markup and never a terminal control. It reaches the screen through
:func:`plain` (or :func:`seat_label`): a Rich :class:`~rich.text.Text`, which
no widget parses as markup, with every unprintable character escaped by the
core's :func:`~paris_tui.core.text.printable`. A toast gets
``printable(message)`` and ``markup=False``. Only the program's own literals
are ever markup.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.app.look.palette import LINE_COLOURS, player_style
from paris_tui.app.terminal.fit import Fit, cut_text
from paris_tui.core import Board
from paris_tui.core.text import printable
from paris_tui.i18n import N_, _, ngettext
from paris_tui.wording import AI_SEAT_WORDS, shown_name

if TYPE_CHECKING:
    from paris_tui.core import Event, ScoreEvent
    from paris_tui.core.analysis import LeftoverPreview

__all__ = [
    "AI_SEAT_WORDS",  # from ..wording, which the AI's review command shares
    "ai_label",
    "describe_event",
    "describe_events",
    "line_label",
    "line_name",
    "plain",
    "preview_text",
    "printable",
    "score_detail",
    "seat_label",
    "short_name",
    "shown_name",
    "stop_name",
    "tile_label",
    "tile_text",
    "words",
]

# Each placeholder of a sentence becomes one private-use character while its markup is read.
_FIELD = re.compile(r"\{(\w+)\}")
_SENTINEL = 0xE000

# The board's line names (its JSON is English): what each line is called in each language.
LINE_NAMES = {
    "blue": N_("Blue line"),
    "yellow": N_("Yellow line"),
    "red": N_("Red line"),
    "pink": N_("Pink line"),
    "green": N_("Green line"),
}
# Translators: a line's name without the word "line", where space is short ("Blue (B)").
SHORT_LINE_NAMES = {
    "blue": N_("Blue"),
    "yellow": N_("Yellow"),
    "red": N_("Red"),
    "pink": N_("Pink"),
    "green": N_("Green"),
}


# The AI levels' names (the ids stay as they are: --players "ai:easy").
AI_LEVEL_NAMES = {
    "random": N_("random"),
    "easy": N_("easy"),
    "greedy": N_("greedy"),
    "strong": N_("strong"),
    "expert": N_("expert"),
}


def ai_label(level: str) -> str:
    """``AI: easy``, in the current language (another level by its id)."""
    name = _(AI_LEVEL_NAMES[level]) if level in AI_LEVEL_NAMES else level
    return _("AI: {level}").format(level=name)


def words(template: str, /, style: str = "", **values: str | int | Text) -> Text:
    """A sentence from the catalogs as Text: ``words(_("{player} holds the bus"), player=label)``.

    The template is the program's own (marked in the source, translated in the
    catalogs): its Rich markup (``[b]...[/b]``) is honoured. Each ``{name}``
    takes ``values[name]``: a :class:`Text` keeps its styles (and takes the
    template's around it), a ``str`` is outside text (escaped, never markup).
    """
    fields: list[str] = []

    def mark(match: re.Match[str]) -> str:
        fields.append(match.group(1))
        return chr(_SENTINEL + len(fields) - 1)

    source = _FIELD.sub(mark, template)
    # No ":name:" emoji codes: a catalog's words are drawn as written (and Rich's
    # table of emoji codes is not loaded for them).
    if not fields:
        return Text.from_markup(source, style=style, emoji=False)
    marked = Text.from_markup(source, emoji=False)
    plain_text = marked.plain
    cuts = sorted({i for i, ch in enumerate(plain_text) if _SENTINEL <= ord(ch) < _SENTINEL + 64})
    out = Text(style=style)
    start = 0
    for at in cuts:
        if at > start:
            out.append_text(marked[start:at])
        name = fields[ord(plain_text[at]) - _SENTINEL]
        value = values[name]
        piece = value.copy() if isinstance(value, Text) else Text(printable(str(value)))
        for span in reversed(marked.spans):
            if span.start <= at < span.end:
                piece.stylize_before(span.style)
        out.append_text(piece)
        start = at + 1
    if start < len(plain_text):
        out.append_text(marked[start:])
    return out


def plain(text: str, style: str = "") -> Text:
    """Outside text drawn exactly as it is: never markup, unprintable characters escaped."""
    return Text(printable(text), style=style)


def short_name(name: str, width: int = 8) -> str:
    """``name`` cut to ``width`` terminal cells (wide characters count two), ``…`` if cut."""
    name = printable(name)
    if cell_len(name) <= width:
        return name
    out, used = [], 0
    for ch in name:
        cells = cell_len(ch)
        if used + cells > width - 1:
            break
        out.append(ch)
        used += cells
    return "".join(out) + "…"


def seat_label(names: tuple[str, ...], seat: int, *, width: int | None = None) -> Text:
    """``● Ann`` in the seat's colour (the symbol tells seats apart without colour)."""
    style = player_style(seat)
    name = shown_name(names[seat]) if width is None else short_name(shown_name(names[seat]), width)
    return Text(f"{style.symbol} {name}", style=f"bold {style.colour}")


def stop_name(board: Board, stop: str) -> str:
    """A stop's name as drawn in the glyph set in use (``Opera`` in ascii)."""
    return current_glyphs().name_of(board.stops[board.stop_index[stop]].name)


def line_name(board: Board, line: str, *, short: bool = False) -> str:
    """``Blue line`` (``short``: ``Blue``) in the current language; another board's own name."""
    ln = board.lines[board.line_index[line]]
    table = SHORT_LINE_NAMES if short else LINE_NAMES
    if line in table:
        return _(table[line])
    return ln.name.removesuffix(" line") if short else ln.name


def line_label(board: Board, line: str) -> Text:
    """``[B] Blue line`` in the line's colour."""
    ln = board.lines[board.line_index[line]]
    return Text(f"[{ln.letter}] {line_name(board, line)}", style=LINE_COLOURS.get(line, ""))


def tile_label(board: Board, tile: str) -> str:
    """``Opéra (B)``: the stop and the line letter, plain text."""
    stop, line = tile.split("/")
    letter = board.lines[board.line_index[line]].letter
    return f"{stop_name(board, stop)} ({letter})"


def tile_text(board: Board, tile: str) -> Text:
    """A tile as ``[B] Opéra`` with the line letter in the line's colour."""
    stop, line = tile.split("/")
    letter = board.lines[board.line_index[line]].letter
    text = Text()
    text.append(f"[{letter}]", style=f"bold {LINE_COLOURS.get(line, '')}")
    text.append(f" {stop_name(board, stop)}")
    return text


def describe_event(board: Board, names: tuple[str, ...], event: Event) -> Text | None:
    """One log line for an event (``None`` for events the log leaves out).

    :func:`describe_events` is the log's own: it also says when a tour
    scores nothing and shortens score lines under their tour's heading.
    """
    lines = describe_events(board, names, [event])
    return lines[0] if lines else None


def score_detail(board: Board, event: ScoreEvent) -> str:
    """Why ``event`` scores, in words, as a line under its tour's heading.

    The core gives numbers and ids (R5-R7); the words are made here:
    ``1 business at Louvre, 2 stops away`` (a small tour), ``2 businesses at
    Pompidou + 2 next to it`` (a grand or special tour), ``the most
    businesses in the sack (3)``.
    """
    if event.kind == "sack":
        return _("the most businesses in the sack ({n})").format(n=event.here)
    where = stop_name(board, event.stop) if event.stop is not None else "?"
    text = ngettext("{n} business at {stop}", "{n} businesses at {stop}", event.here).format(
        n=event.here, stop=where
    )
    if event.kind == "small_tour":
        if event.distance:
            # Translators: {text} is "1 business at Louvre"; it stands {n} stops from the tour's.
            away = ngettext("{text}, {n} stop away", "{text}, {n} stops away", event.distance)
            text = away.format(text=text, n=event.distance)
    elif event.near:
        # Translators: {text} is "2 businesses at Pompidou"; {n} more are on the stops next to it.
        text = _("{text} + {n} next to it").format(text=text, n=event.near)
    return text


def describe_events(board: Board, names: tuple[str, ...], events: list[Event]) -> list[Text]:
    """The log's lines for ``events``, in order.

    A tour followed by no points says so ("Small tour from Opéra: nobody
    scores"); each score line under a tour is ``  ● Ann +3: 1 business at
    Opéra + 2 next to it`` (the tour's name is on its heading).
    """
    from paris_tui.core.events import (
        BusinessOpened,
        BusinessRemoved,
        GameOver,
        NothingOpened,
        RoundStarted,
        ScoreEvent,
        TileDiscarded,
        TourEvent,
    )

    def who(seat: int) -> Text:
        return seat_label(names, seat)

    def name(seat: int) -> Text:
        return plain(shown_name(names[seat]))

    def stop(stop_id: str) -> Text:
        return Text(stop_name(board, stop_id))

    lines: list[Text] = []
    for i, event in enumerate(events):
        if isinstance(event, RoundStarted):
            lines.append(
                words(
                    _("[bold]— Round {round}: [/bold]{player} holds the bus"),
                    round=event.round + 1,
                    player=who(event.starter),
                )
            )
        elif isinstance(event, BusinessOpened):
            lines.append(
                words(
                    _("{player} took {tile}: opened a business"),
                    player=who(event.seat),
                    tile=tile_text(board, event.tile),
                )
            )
        elif isinstance(event, NothingOpened):
            lines.append(
                words(
                    # Translators: C1 is the rule's number in docs/rules.md; keep it.
                    _("{player} took {tile}: supply empty, nothing opened (C1)"),
                    player=who(event.seat),
                    tile=tile_text(board, event.tile),
                )
            )
        elif isinstance(event, BusinessRemoved):
            # Translators: {to} is where the business goes: the sack, or its owner's supply.
            to = (
                _("sack")
                if event.to == "sack"
                else _("supply")
                if event.to == "supply"
                else event.to
            )
            if event.owner == event.by:
                template = _("{player} removed their own business at {stop} → {to}")
            else:
                template = _("{player} removed {owner}'s business at {stop} → {to}")
            lines.append(
                words(
                    template,
                    player=who(event.by),
                    owner=name(event.owner),
                    stop=stop(event.stop),
                    to=Text(to),
                )
            )
        elif isinstance(event, TourEvent):
            nxt = events[i + 1] if i + 1 < len(events) else None
            scored = isinstance(nxt, ScoreEvent) and nxt.kind == event.kind
            if event.kind == "small_tour":
                assert event.stop is not None
                line = words(_("Small tour from {stop}"), style="bold", stop=stop(event.stop))
            else:
                assert event.line is not None
                label = line_label(board, event.line)
                if event.kind == "grand_tour":
                    line = words(_("[bold]Grand tour: [/bold]{line}"), line=label)
                elif event.seat is not None:
                    line = words(
                        _("[bold]Special tour: [/bold]{line} ({player}'s route)"),
                        line=label,
                        player=name(event.seat),
                    )
                elif len(names) == 2:
                    line = words(_("[bold]Special tour: [/bold]{line} (public route)"), line=label)
                else:
                    line = words(_("[bold]Special tour: [/bold]{line}"), line=label)
            if not scored:
                line.append(_(": "))  # the language's colon (Chinese: full width)
                line.append(_("nobody scores"), style="dim")
            lines.append(line)
        elif isinstance(event, ScoreEvent):
            points = Text(f" +{event.points}", style="bold")
            detail = Text(_(": ") + score_detail(board, event))
            if event.kind == "sack":
                lines.append(Text.assemble((_("Sack: "), "bold"), who(event.seat), points, detail))
                continue
            lines.append(Text.assemble("  ", who(event.seat), points, detail))
        elif isinstance(event, TileDiscarded):
            if event.grand_tour:
                template = _("Left over {tile}: a pair in the discard area!")
            else:
                template = _("Left over {tile} → discard area")
            lines.append(words(template, tile=tile_text(board, event.tile)))
        elif isinstance(event, GameOver):
            winners = [name(w) for w in event.winners]
            if len(winners) == 1:
                line = words(_("Game over — {player} wins"), style="bold", player=winners[0])
            else:
                line = words(
                    _("Game over — {players} win"),
                    style="bold",
                    players=joined(winners),
                )
            lines.append(line)
    return lines


def joined(parts: list[Text]) -> Text:
    """``Ann and Bob`` (``Ann and Bob and Cy``): names in a sentence, in the current language."""
    out = parts[0]
    for part in parts[1:]:
        out = words(_("{first} and {last}"), first=out, last=part)
    return out


def _points(names: tuple[str, ...], values: tuple[int, ...], width: int | None) -> Text:
    """``● Ann +2, ▲ Bob +5`` (names cut to ``width`` cells; ``0``: symbols only, ``●+2 ▲+5``)."""
    text = Text()
    scored = [(seat, pts) for seat, pts in enumerate(values) if pts]
    if not scored:
        return Text(_("nobody scores"), style="dim")
    for j, (seat, pts) in enumerate(scored):
        style = player_style(seat)
        if width == 0:
            if j:
                text.append(" ")
            text.append(style.symbol, style=f"bold {style.colour}")
        else:
            if j:
                text.append(_(", "))  # the language's list mark (Chinese: 、)
            text.append_text(seat_label(names, seat, width=width))
            text.append(" ")
        text.append(f"+{pts}", style="bold")
    return text


def preview_text(board: Board, names: tuple[str, ...], preview: LeftoverPreview) -> Fit:
    """The left-over preview in one line, as full as the width allows; every number kept.

    Before the round's last move it says what it assumes (the board as it
    is now): ``If left over (board as now): small tour: ● Ann +1, ▲ Bob +2 ·
    grand tour [B] Blue line: ● Ann +3``. On the last move it says which tile
    taking the highlighted one leaves, scored after the move (``Taking it
    leaves [P] Jardin des Plantes: ...``), and when the takeover's choice
    changes the points, which choice it shows. Where the bar has two lines,
    the grand tour may go on the second; then names are cut shorter and
    shorter, then symbols only (``Left over now: small ●+1 ▲+2 · grand [B] ●+3``).
    """
    line = None
    if preview.grand_tour_line is not None:
        line = next((ln for ln in board.lines if ln.name == preview.grand_tour_line), None)

    def head(terse: bool, width: int | None, short_tile: bool = False) -> Text:
        if preview.leaves is None:
            # Translators: the preview bar's head before the round's last move, then
            # "small tour: ● Ann +1 · grand tour [B] ...": what the tile would score if it were
            # left over with the board as it is now (later players may change it).
            said = _("Left over now: ") if terse else _("If left over (board as now): ")
            return Text(said, style="bold")
        tile = tile_text(board, preview.leaves)
        if short_tile:  # the last resort: the stop's name cut, its line letter kept
            tile = cut_text(tile, 10)
        # Translators: the preview bar's head on the round's last move: taking the highlighted
        # tile leaves {tile} over; then its tours "small tour: ● Ann +1 · grand tour ...".
        said = _("Leaves {tile}: ") if terse else _("Taking it leaves {tile}: ")
        return words(said, style="bold", tile=tile)

    def variant(
        width: int | None, terse: bool = False, two_lines: bool = False, short_tile: bool = False
    ) -> Text:
        text = head(terse, width, short_tile)
        indent = " " * cell_len(text.plain)
        text.append(_("small ") if terse else _("small tour: "))
        text.append_text(_points(names, preview.small_tour, width))
        if preview.grand_tour_line is not None:
            if two_lines:
                text.append("\n" + indent + _("grand tour "))
            else:
                text.append(" · " + (_("grand ") if terse else _("grand tour ")))
            if line is None:
                text.append(f"({preview.grand_tour_line})")
            elif terse or (width is not None and not two_lines):
                text.append(f"[{line.letter}]", style=f"bold {LINE_COLOURS.get(line.id, '')}")
            else:
                text.append_text(line_label(board, line.id))
            text.append(" " if terse or width == 0 else _(": "))
            text.append_text(_points(names, preview.grand_tour, width))
        if preview.depends and preview.evict is not None:
            if width == 0:
                style = player_style(preview.evict)
                label = Text(style.symbol, style=f"bold {style.colour}")
            else:
                label = seat_label(names, preview.evict, width=width)
            # Translators: after a last move's preview whose points depend on whose business the
            # takeover removes: the points shown are for removing {player}'s.
            said = _(" (removing {player})") if terse else _(" (if you remove {player}'s)")
            text.append_text(words(said, player=label))
        return text

    variants: list[Text] = []
    for width in (None, 12, 10, 8, 6, 5, 4, 0):
        variants.append(variant(width))
        if preview.grand_tour_line is not None:
            variants.append(variant(width, two_lines=True))
        variants.append(variant(width, terse=True))
    if preview.leaves is not None:
        variants.append(variant(0, terse=True, short_tile=True))
    return Fit(variants)
