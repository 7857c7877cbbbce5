"""Table chat, mutes and friends on the wire (protocol 4).

A player or a watcher says a short line at the table where the connection
sits or watches (:class:`Chat`); the host sends it to those there who may
read it (:class:`ChatLine`). A player's mutes are kept with the account
(:class:`MutesRequest`, :class:`MutesInfo`), and an account may ask to be
told when its friends are here (:class:`FriendsRequest`,
:class:`FriendsInfo`). An older connection is sent none of these, and its
``chat`` is ``bad_message``.

What a host says is outside text to the client: a :class:`ChatLine`'s text
passes the core's chat rule again, and every name a host sends here the
core's name rule, as the client reads it (a line that breaks them is a bad
host line).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, Self, TypeAlias, cast, get_args

from msgspec import Meta
from msgspec.structs import replace

from ..core.text import InvalidChatError, InvalidNameError, normalize_chat, normalize_name
from .wire import Form, Message, Name, Seat, TableId, Token, WireError, one_of, sent

__all__ = [
    "CHAT_CHANNELS",
    "CHAT_PHRASES",
    "FRIENDS_ACTIONS",
    "FRIENDS_DONE",
    "MAX_MUTES",
    "MUTES_ACTIONS",
    "Chat",
    "ChatChannel",
    "ChatLine",
    "FriendsInfo",
    "FriendsRequest",
    "MutesInfo",
    "MutesRequest",
]

CHAT_PHRASES = ("hello", "good_luck", "your_turn", "well_played", "thanks", "good_game")
"""The canned phrases' ids: a phrase is sent as its id and each reader words it in
their own language."""
ChatChannel = Literal["table", "watchers"]
CHAT_CHANNELS: tuple[str, ...] = get_args(ChatChannel)
FRIENDS_ACTIONS = ("show", "add", "remove")
FRIENDS_DONE = ("asked", "asking", "friends", "removed", "declined", "withdrawn")
"""What just happened, in a :class:`FriendsInfo`: you asked ``friend`` (``asked``),
``friend`` asked you (``asking``), you are friends now (``friends``), the
friendship ended (``removed``), you declined a request (``declined``) or took
back your own (``withdrawn``)."""
MUTES_ACTIONS = ("show", "add", "remove")
MAX_MUTES = 100
"""Writers one account may keep muted."""
MAX_FRIENDS = 100


Phrase = Annotated[str, one_of(CHAT_PHRASES)]
ChatText = Annotated[str, Meta(max_length=4 * 480)]
"""What a host sends: sizes and types (and the core's chat rule, as the client reads it)."""
SaidText = str
"""What a client says: a string, bounded by the client's line (``MAX_CLIENT_LINE``) only:
the host applies the core's chat rule and says why (``bad_chat``), so a line too long
for the rule is refused as a chat line, never as a bad message that ends the connection."""
FriendsAction = Annotated[str, one_of(FRIENDS_ACTIONS)]
FriendsDone = Annotated[str, one_of(FRIENDS_DONE)]
MutesAction = Annotated[str, one_of(MUTES_ACTIONS)]


def _host_name(name: str, where: str) -> str:
    # A name a host sends is outside text to the client: the core's name rule again.
    try:
        return normalize_name(name)
    except InvalidNameError as exc:
        raise WireError(where, f"breaks the name rule: {exc}") from None


class Chat(Message, tag="chat", frozen=True):
    """Protocol 4: say a line at the table this connection sits at or watches: a
    ``text`` (the core's chat rule, :func:`~paris_tui.core.text.normalize_chat`)
    or a canned ``phrase`` id (:data:`CHAT_PHRASES`), one of the two. A watcher
    may speak as an account (``name`` and its ``token``, proven as in a join);
    without them a watcher speaks as an anonymous watcher."""

    text: SaidText | None = None
    phrase: Phrase | None = None
    name: Name | None = None
    token: Token | None = None

    def _checked(self) -> Self:
        if (self.text is None) == (self.phrase is None):
            raise WireError("chat", "needs a text or a phrase, one of the two")
        return self


class ChatLine(Message, tag="chat", frozen=True):
    """Protocol 4 (``"type": "chat"``): a line said at ``table`` by ``name`` (``""``:
    an anonymous watcher) from ``seat`` (``None``: a watcher), on ``channel``:
    ``table`` (everyone there) or ``watchers`` (a watcher's line while the game
    runs: only watchers get it). ``text`` or ``phrase`` (an id), one of the two;
    ``at``: when, in Unix seconds. Also sent after ``seated`` and ``watching``: the
    table's recent lines that the connection may read. Every field is written."""

    table: TableId
    name: Name
    seat: Seat | None
    channel: ChatChannel
    text: ChatText | None
    phrase: Phrase | None
    at: Annotated[int, Meta(ge=0, le=2**62)] = sent(0)

    def _checked(self) -> Self:
        # What a host says is outside text too: the core's rules, again, here.
        if self.phrase is not None:
            return self if self.text is None else replace(self, text=None)
        if self.text is None:
            raise WireError("text", "must be a string, found null")
        try:
            said = normalize_chat(self.text)
            name = normalize_name(self.name) if self.name else self.name
        except (InvalidChatError, InvalidNameError) as exc:
            raise WireError("chat", f"breaks the rule of outside text: {exc}") from None
        return replace(self, text=said, name=name)


class FriendsRequest(Message, tag="friends", frozen=True):
    """Protocol 4 (``"type": "friends"``): the account ``name`` (proven by ``token``,
    as in a join) asks to be told when its friends are here: ``show`` the list,
    ``add`` or ``remove`` ``friend`` (an account's name). From then on this
    connection gets a :class:`FriendsInfo` with ``arrived`` whenever a friend
    comes in at any door. Answered by :class:`FriendsInfo`."""

    name: Name
    token: Token | None = sent(None)
    action: FriendsAction = sent("show")
    friend: Name | None = None


class _Friend(Form, frozen=True):
    name: Name
    here: bool


if TYPE_CHECKING:  # to callers: (name, here) pairs
    Friends: TypeAlias = tuple[tuple[str, bool], ...]
else:  # on the wire: {"name", "here"} objects
    Friends = Annotated[tuple[_Friend, ...], Meta(max_length=MAX_FRIENDS)]


class FriendsInfo(Message, tag="friends", frozen=True):
    """Protocol 4 (``"type": "friends"``): the account's friends (``(name, here)``
    pairs, ``here``: connected now at some door), and ``arrived``: the friend who
    just came in (``None`` in the answer to a request).

    Friends are two accounts that both asked: ``asked`` are those this account
    asked that have not asked back (they see the request), ``asking`` those that
    asked this account (it accepts by asking back); neither is told when the
    other is here. ``done`` and ``friend``: what just happened, and with whom
    (:data:`FRIENDS_DONE`). ``token``: a new account's token (the request made
    the account: keep it, as a ``seated``'s)."""

    name: Name
    friends: Friends
    arrived: Name | None = sent(None)
    asked: Annotated[tuple[Name, ...], Meta(max_length=MAX_FRIENDS)] = ()
    asking: Annotated[tuple[Name, ...], Meta(max_length=MAX_FRIENDS)] = ()
    done: FriendsDone | None = None
    friend: Name | None = None
    token: Token | None = None

    def _checked(self) -> Self:
        friends = cast("tuple[_Friend, ...]", self.friends)
        return replace(
            self,
            name=_host_name(self.name, "name"),
            friends=tuple(
                (_host_name(f.name, f"friends[{i}].name"), f.here) for i, f in enumerate(friends)
            ),
            arrived=None if self.arrived is None else _host_name(self.arrived, "arrived"),
            asked=tuple(_host_name(n, f"asked[{i}]") for i, n in enumerate(self.asked)),
            asking=tuple(_host_name(n, f"asking[{i}]") for i, n in enumerate(self.asking)),
            friend=None if self.friend is None else _host_name(self.friend, "friend"),
        )

    def _form(self) -> Self:
        return replace(self, friends=tuple(_Friend(n, here) for n, here in self.friends))


class MutesRequest(Message, tag="mutes", frozen=True):
    """Protocol 4 (``"type": "mutes"``): show the writers this account hides in
    every table's chat, or ``add`` or ``remove`` one (``muted``, an account's
    name). A seated connection is its seat's account; a watcher names one with
    ``name`` and ``token``, proven as in a join. Answered by :class:`MutesInfo`
    (a name that is no account, or a full list, leaves the list as it is)."""

    action: MutesAction = sent("show")
    muted: Name | None = None
    name: Name | None = None
    token: Token | None = None


class MutesInfo(Message, tag="mutes", frozen=True):
    """Protocol 4 (``"type": "mutes"``): the writers the account hides in every
    table's chat (accounts' names, as they are now): the answer to a
    :class:`MutesRequest`, and sent after ``seated`` when the list is not empty."""

    names: Annotated[tuple[Name, ...], Meta(max_length=MAX_MUTES)]

    def _checked(self) -> Self:
        names = tuple(_host_name(n, f"names[{i}]") for i, n in enumerate(self.names))
        return replace(self, names=names)
