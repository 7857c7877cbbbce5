"""Networked play, the parts a client and a host share: wire forms, messages, a client.

Imports only the core, msgspec and asyncio: no Textual, no host. ``wire``
holds msgspec's base structs, the fields messages share and the core's
values' JSON forms; ``protocol`` the typed messages, declared once as
structs, and their one-line encoding (``docs/protocol.md``), with the
additive parts in ``games_wire`` (finished games), ``chat_wire`` (chat,
mutes, friends) and ``ratings_wire``; ``turns`` move times and quick
match; ``client`` a connection to a host and the client's token store;
``table`` the :class:`Table` interface a game screen talks to.
"""

from .protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
