"""The screen reader's lobby between games, as lines: who is online, invitations,
the host's finished games and a player's page.

Commands (each also in the current language, context ``command``): ``who``
(the accounts at this host now, friends first), ``games`` (the newest finished
games, with scores, the winner and rated or not; ``games NAME`` only that
player's), ``player NAME`` (that player's page: games, wins, the rating now and
over time, recent games; ``player`` alone: your own). Every line makes sense
read aloud on its own; names are outside text, said after
:func:`~paris_tui.core.printable`.
"""

from __future__ import annotations

from collections.abc import Sequence

from paris_tui.app.look.player_words import game_line, player_lines, player_record

from ..core import printable
from ..i18n import _, ngettext, pgettext
from ..net.client import HostClient, RefusedError
from ..net.protocol import Online, TableInfo
from ..net.ratings_wire import is_provisional
from .commands import fold
from .lines import Lines

__all__ = [
    "GAMES_SAID",
    "invitation_lines",
    "invite_help",
    "invited_seat",
    "lobby_command",
    "people_help",
    "say_games",
    "say_player",
    "say_who",
    "who_line",
]

GAMES_SAID = 10
"""The newest finished games ``games`` says."""


def _words() -> dict[str, str]:
    return {
        "who": pgettext("command", "who"),
        "games": pgettext("command", "games"),
        "player": pgettext("command", "player"),
    }


def lobby_command(text: str) -> tuple[str, str] | None:
    """``(command, argument)`` for a typed ``who``, ``games [NAME]`` or ``player [NAME]``
    (English or the current language's word, no case or accents); the argument as
    typed (a name keeps its case). ``None``: not one of them."""
    head, _sep, rest = text.strip().partition(" ")
    folded = fold(head)
    if not folded:
        return None
    for command, word in _words().items():
        if folded in (command, fold(word)):
            return command, rest.strip()
    return None


def people_help() -> str:
    words = _words()
    return _(
        "{who} says who is online, {games} the finished games ({games} and a name: "
        "that player's), {player} and a name a player's page."
    ).format(who=words["who"], games=words["games"], player=words["player"])


def invitation_lines(tables: Sequence[TableInfo], me: str | None) -> list[str]:
    """``ann invites you to table t3: type 2 to take your seat.`` for each table (by
    its number in the list) that keeps a free seat for ``me``."""
    if me is None:
        return []
    key = me.casefold()
    out = []
    for n, info in enumerate(tables, 1):
        if not info.waiting:
            continue
        if not any(s.status == "free" and s.name.casefold() == key for s in info.seats):
            continue
        hosts = [s.name for s in info.seats if s.status == "present"]
        out.append(
            _("{name} invites you to table {table}: type {n} to take your seat.").format(
                name=printable(hosts[0]) if hosts else "?", table=printable(info.table), n=n
            )
        )
    return out


INVITE = "invite:"


def invite_help() -> str:
    return _("Or {example} for a seat kept for that player: they hear of it.").format(
        example=INVITE + _("NAME")
    )


def invited_seat(part: str) -> str | None:
    """The seat word for a typed ``invite:NAME`` (the name's case kept), else ``None``."""
    text = part.strip()
    if not text.casefold().startswith(INVITE):
        return None
    name = text[len(INVITE) :].strip()
    return INVITE + name if name else None


def who_line(online: Sequence[Online], friends: Sequence[str], me: str | None) -> str:
    """``Online: cy (a friend, at a table), bob (in the lobby, rating 12.3).``"""
    keys = {f.casefold() for f in friends}
    others = [o for o in online if me is None or o.name.casefold() != me.casefold()]
    if not others:
        return _("Nobody else with an account is online here now.")
    others.sort(key=lambda o: (o.name.casefold() not in keys, o.name.casefold()))
    parts = []
    for who in others:
        about = []
        if who.name.casefold() in keys:
            about.append(_("a friend"))
        about.append(_("at a table") if who.playing else _("in the lobby"))
        if who.rating is not None and is_provisional(who.games):
            about.append(_("rating provisional"))
        elif who.rating is not None:
            sign = "-" if who.rating < 0 else ""
            shown = f"{sign}{abs(who.rating) // 10}.{abs(who.rating) % 10}"
            about.append(_("rating {rating}").format(rating=shown))
        parts.append(f"{printable(who.name)} ({', '.join(about)})")
    return ngettext(
        "Online, {n} player: {players}.", "Online, {n} players: {players}.", len(parts)
    ).format(n=len(parts), players="; ".join(parts))


async def say_who(client: HostClient, out: Lines, me: str | None, token: str | None) -> None:
    """Who is online, friends first (asked as ``me`` when a token proves it)."""
    friends: list[str] = []
    if me is not None and token is not None:
        try:
            info = await client.friends(me, token)
            friends = [name for name, _here in info.friends]
        except RefusedError:
            pass
    await client.tables()
    out.say(who_line(client.online, friends, me))


async def say_games(client: HostClient, out: Lines, player: str | None) -> None:
    """The newest finished games (only ``player``'s when one is named)."""
    games = await client.games(player=player)
    if not games:
        if player is not None:
            out.say(_("No finished games of {player} here.").format(player=printable(player)))
        else:
            out.say(_("No finished games on this host yet."))
        return
    shown = games[:GAMES_SAID]
    out.say(_("The newest finished games, {k} of {n}:").format(k=len(shown), n=len(games)))
    out.say(*(game_line(g) for g in shown))


async def say_player(client: HostClient, out: Lines, player: str | None) -> None:
    """A player's page as lines."""
    if not player:
        out.say(_("Whose page? Type {player} and a name.").format(player=_words()["player"]))
        return
    games = await client.games(player=player)
    out.say(*player_lines(player_record(player, games)))
