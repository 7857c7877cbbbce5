"""Friends' words without Textual: what a friends answer did, why one was refused,
the list as sentences (the lobby's box, and the screen reader)."""

from __future__ import annotations

from paris_tui.core.text import printable
from paris_tui.i18n import _
from paris_tui.net.protocol import FriendsInfo, Refused
from paris_tui.wording import refusal_reason

__all__ = ["done_words", "friends_sentences", "refused_words"]


def done_words(info: FriendsInfo) -> str | None:
    """What the host just did, as a sentence (``None``: nothing new)."""
    name = printable(info.friend or "")
    if info.done == "asked":
        return _(
            "You asked {name}. {name} sees your request; you are friends, each told "
            "when the other is here, once {name} adds you too."
        ).format(name=name)
    if info.done == "asking":
        return _("{name} asks to be your friend: type {name} and Enter to accept.").format(
            name=name
        )
    if info.done == "friends":
        return _("{name} and you are friends now: each is told when the other is here.").format(
            name=name
        )
    if info.done == "removed":
        return _("{name} and you are no longer friends.").format(name=name)
    if info.done == "declined":
        return _("You declined {name}'s request.").format(name=name)
    if info.done == "withdrawn":
        return _("You took back your request to {name}.").format(name=name)
    return None


def refused_words(refused: Refused, friend: str) -> str:
    """Why the host refused a friends request, as a sentence of the box."""
    if refused.code == "no_such_seat" and refused.message.startswith("there is no account"):
        return _("There is no account {name} on this host (yet).").format(name=printable(friend))
    reason = printable(refusal_reason(refused.code, refused.message)).rstrip(".")
    return _("Not done: {reason}.").format(reason=reason)


def friends_sentences(info: FriendsInfo) -> list[str]:
    """The list read out: who is here, who is away, the requests both ways."""
    if not (info.friends or info.asked or info.asking):
        return [_("No friends yet.")]
    out: list[str] = []
    here = [printable(n) for n, h in info.friends if h]
    away = [printable(n) for n, h in info.friends if not h]
    if here:
        out.append(_("Friends here now: {names}.").format(names=", ".join(here)))
    if away:
        out.append(_("Friends away: {names}.").format(names=", ".join(away)))
    if info.asking:
        names = ", ".join(printable(n) for n in info.asking)
        out.append(_("Asking you (type the name to accept): {names}").format(names=names) + ".")
    if info.asked:
        names = ", ".join(printable(n) for n in info.asked)
        out.append(_("Asked by you, waiting for them: {names}").format(names=names) + ".")
    return out
