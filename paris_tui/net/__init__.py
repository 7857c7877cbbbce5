"""Networked play, the parts a client and a host share: wire forms, messages, a client.

Imports only the core (and asyncio): no Textual, no host. ``wire`` gives
the core's values a JSON form; ``protocol`` the typed messages and their
one-line encoding (``docs/protocol.md``); ``client`` a connection to a
host and the client's token store; ``table`` the :class:`Table` interface
a game screen talks to.
"""

from .protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
