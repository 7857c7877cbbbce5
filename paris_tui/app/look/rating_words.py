"""How a finished game was rated, in words (the end screen).

The host says it with the game's last presence message
(:class:`~paris_tui.net.protocol.RatedResult`): rated, with each seat's shown
rating before and after (the conservative ``mu - 3 sigma``; ``?`` for a
provisional one, fewer rated games than
:data:`~paris_tui.net.ratings_wire.PROVISIONAL_GAMES`), or unrated and why:
an AI seat, a seat the takeover AI played, a player who left (ranked last), a
seat without an account.
"""

from __future__ import annotations

from rich.text import Text

from paris_tui.app.look.describe import joined, seat_label, words
from paris_tui.app.look.glyphs import current_glyphs
from paris_tui.i18n import N_, _, ngettext
from paris_tui.net.protocol import RatedResult

__all__ = ["rated_text"]

_WHY = {
    "ai_seat": N_("This game is unrated: an AI played a seat."),
    "takeover": N_("This game is unrated: the AI played for a player who was away."),
    "leaver": N_("This game is unrated: a player left it."),
    "no_account": N_("This game is unrated: a seat had no account."),
    "same_person": N_(
        "This game is unrated: two seats came from one address, so the host cannot "
        "tell they are different people."
    ),
    "aborted": N_("This game is unrated: every player agreed to abort it, and no one won."),
}


def _rating(tenths: int) -> str:
    from paris_tui.app.screens.leaderboard import rating_text

    return rating_text(tenths)


def rated_text(result: RatedResult, names: tuple[str, ...]) -> Text:
    """One or two lines: the ratings' moves, or why the game is unrated (and who left)."""
    if not result.rated:
        text = Text(_(_WHY.get(result.reason or "", _WHY["no_account"])))
        if result.leavers:
            leavers = [seat_label(names, s) for s in result.leavers if s < len(names)]
            if leavers:
                text.append("\n")
                text.append_text(
                    words(
                        ngettext(
                            "{players} left the game and is ranked last.",
                            "{players} left the game and are ranked last.",
                            len(leavers),
                        ),
                        players=joined(leavers),
                    )
                )
        return text
    parts: list[Text] = []
    for seat, name_label in enumerate(seat_label(names, s) for s in range(len(names))):
        before = result.before[seat] if seat < len(result.before) else None
        after = result.after[seat] if seat < len(result.after) else None
        if before is None or after is None:
            continue
        part = Text()
        part.append_text(name_label)
        if seat < len(result.provisional) and result.provisional[seat]:
            # Fewer rated games than PROVISIONAL_GAMES: no number yet (docs/ratings.md).
            part.append(" ?")
            part.append(" " + _("(provisional)"), style="dim")
            parts.append(part)
            continue
        delta = after - before
        part.append(f" {_rating(before)} {current_glyphs().arrow} {_rating(after)}")
        part.append(f" ({'+' if delta >= 0 else '-'}{_rating(abs(delta))})", style="dim")
        parts.append(part)
    text = Text(_("Rated game (rating: mu − 3σ): "))
    text.append_text(Text(", ").join(parts))
    return text
