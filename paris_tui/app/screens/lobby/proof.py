"""What proves the lobby's player to the host, with each request that needs it."""

from __future__ import annotations

import contextlib

from paris_tui.net.client import TokenStore

__all__ = ["Proof"]


class Proof:
    """The token kept for the player's name (as ``paris-tui join`` keeps it), else a
    door's ticket; and a link code typed in Account, which goes with the next
    request only.

    ``tokens`` and ``address`` (the host as the token store knows it): a seat
    reserved for the player's name is joined with the token kept for it, and a
    token the host issues is kept."""

    def __init__(self, tokens: TokenStore | None, address: str | None, ticket: str | None) -> None:
        self.tokens = tokens
        self.address = address
        self.ticket = ticket  # a door's proof of this person, when no token is kept
        self.code: str | None = None  # a link code typed here, for the next request

    def token(self, player: str | None) -> str | None:
        """The token kept for ``player``'s name, else the door's ticket."""
        if self.tokens is None or self.address is None or player is None:
            return self.ticket
        try:
            return self.tokens.get(self.address, player) or self.ticket
        except OSError:
            return self.ticket

    def take_code(self) -> str | None:
        """The link code typed, once: the next request takes it."""
        code, self.code = self.code, None
        return code

    def keep(self, player: str | None, token: str) -> None:
        """Keep the token the host issued for ``player``'s seat."""
        if self.tokens is None or self.address is None or player is None:
            return
        # A read-only data directory: the seat is still ours for this run.
        with contextlib.suppress(OSError):
            self.tokens.put(self.address, player, token)
