"""Who a connection is: door tickets, and the proof of an account before a seat.

Every door proves the account before seating (:mod:`paris_tui.host.accounts.store`):

- a ``join`` (protocol client) proves it with the account's token, the
  secret the host gave that client when it took the name (``Seated.token``),
  kept in the player's data directory;
- a door (SSH, browser) has proved a credential itself (an SSH key whose
  signature asyncssh verified, a browser's cookie) and gives the app it
  starts a *ticket* (:class:`Tickets`) that says which credential was proven
  and, for SSH, for which name. The app presents the ticket where a token
  goes. A ticket is no account's by itself: it proves the account only when
  that credential is one of the account's, or creates the account with that
  credential when the name is nobody's yet;
- with several hosts on one database (docs/scaling.md), a door's app whose
  table another host referees is relayed there, and its ticket stays here:
  the relaying host, which issued it, resolves it and *vouches* for what it
  proves in the relay's handshake (:class:`Vouched`, proven by the database's
  relay secret). The referee's host takes that word for that one relayed
  connection only, and still checks the credential against the account;
- any of them may bring a link code (:meth:`AccountStore.new_code`) made by
  the account's owner at another door (or the operator's invitation): the
  code proves the account once, and links the credential it came with.

:class:`Gate` decides, and raises the protocol's refusal codes:
``name_taken`` (the name, or one that looks like it, is another account's:
bring a code), ``bad_token`` (a token that is not the account's),
``bad_code``, ``account_locked``, ``unavailable`` (the store cannot be read:
every seat is refused, never given away).
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass

from paris_tui.host.accounts.names import folded
from paris_tui.host.accounts.store import (
    CODE_MISSES,
    Account,
    AccountError,
    AccountStore,
    AccountsUnavailable,
    Credential,
    Door,
    NameTakenError,
    digest,
)
from paris_tui.host.referee import Refusal

__all__ = ["TICKET_SECONDS", "Claim", "DoorProof", "Gate", "Tickets", "Vouched"]

log = logging.getLogger("paris_tui.host.identity")

TICKET_SECONDS = 12 * 3600.0
"""The longest a door's ticket stays good; a door revokes it when its session ends."""
MAX_TICKETS = 4096


@dataclass(frozen=True, slots=True)
class DoorProof:
    """What a door proved: a credential of ``door`` (its ``digest``), for the
    name that folds to ``name`` (SSH: the user name), or for any name (``None``:
    a browser, whose person types a name in the lobby). ``address``: where the
    door saw the person (for ratings between different people; never logged)."""

    door: Door
    digest: str
    name: str | None = None
    label: str = ""
    address: str = ""

    def credential(self) -> Credential:
        return Credential(self.door, self.digest, self.label)


@dataclass(frozen=True, slots=True)
class Vouched:
    """A door's ticket as a peer host vouched for it over one relayed connection
    (several hosts on one database): the ticket's hash (``ticket``, never the ticket), what its door
    proved, and until when (``time.monotonic()``) at most."""

    ticket: str
    proof: DoorProof
    deadline: float

    def proof_for(self, token: str | None) -> DoorProof | None:
        """The proof, if ``token`` is that ticket and it is still good."""
        if token is None or time.monotonic() >= self.deadline:
            return None
        if not hmac.compare_digest(digest(token).encode(), self.ticket.encode()):
            return None
        return self.proof


@dataclass(frozen=True, slots=True)
class Claim:
    """A proven (or new) account for a name: ``account`` when it exists;
    else ``create`` is the credential the new account gets. ``token`` is a new
    token credential's secret, for the client to keep (``Seated.token``)."""

    name: str
    account: Account | None
    create: Credential | None = None
    token: str | None = None


class Tickets:
    """A door's tickets: hash -> (proof, deadline); never logged, bounded."""

    def __init__(self) -> None:
        self._live: OrderedDict[str, tuple[DoorProof, float]] = OrderedDict()

    def issue(self, proof: DoorProof) -> str:
        now = time.monotonic()
        for key, (_, deadline) in list(self._live.items()):
            if deadline <= now:
                del self._live[key]
        while len(self._live) >= MAX_TICKETS:
            self._live.popitem(last=False)
        ticket = secrets.token_urlsafe(32)
        self._live[digest(ticket)] = (proof, now + TICKET_SECONDS)
        return ticket

    def revoke(self, ticket: str) -> None:
        self._live.pop(digest(ticket), None)

    def proof(self, token: str | None) -> DoorProof | None:
        """The proof of a live ticket (it stays good until revoked or expired)."""
        found = self.vouch(token)
        return None if found is None else found.proof

    def vouch(self, token: str | None) -> Vouched | None:
        """A live ticket as this host vouches for it to a peer: its hash, its
        proof and its deadline (``None``: no live ticket of this host's)."""
        if token is None or not self._live:
            return None
        return self.live(digest(token))

    def live(self, key: str) -> Vouched | None:
        """The live ticket whose hash is ``key`` (see :meth:`vouch`)."""
        entry = self._live.get(key)
        if entry is None:
            return None
        proof, deadline = entry
        if deadline <= time.monotonic():
            del self._live[key]
            return None
        return Vouched(key, proof, deadline)

    def __len__(self) -> int:
        return len(self._live)


class Gate:
    """The host's one place that says whether a request may act as a name."""

    def __init__(self, store: AccountStore | None, problem: str | None, tickets: Tickets) -> None:
        self.store = store
        self.problem = problem  # why the store cannot be used (then every seat is refused)
        self.tickets = tickets

    def take_code(self, store: AccountStore, code: str, account: Account) -> bool:
        """Whether ``code`` is the account's live link code (then used up). Every door
        asks here: the :data:`~paris_tui.host.accounts.store.CODE_MISSES`-th wrong one for
        an account, whichever connections typed them, voids its code (the owner asks
        for a new one). The wrong ones are counted in the store: every host of a
        database counts them together, and a restart keeps the count."""
        if store.take_code(code, account.id) is not None:
            store.clear_misses(account.id)
            return True
        misses = store.count_miss(account.id)
        if misses < CODE_MISSES:
            return False
        store.clear_misses(account.id)
        store.void_codes(account.id)
        log.warning(
            "%d wrong link codes for %s: its code is void (a new one is needed)",
            misses,
            account.name,
        )
        return False

    def _store(self) -> AccountStore:
        if self.store is None:
            raise Refusal(
                "unavailable",
                "the host cannot read its accounts: no seat can be taken until the operator "
                "repairs it",
            )
        return self.store

    def find(self, name: str) -> Account | None:
        try:
            return self._store().find(name)
        except AccountsUnavailable as exc:
            raise self.broken(exc) from None

    def broken(self, exc: Exception) -> Refusal:
        self.problem = str(exc)
        return Refusal("unavailable", "the host cannot read its accounts right now")

    def prove(
        self,
        name: str,
        token: str | None,
        code: str | None = None,
        vouched: Vouched | None = None,
    ) -> Claim:
        """The account ``name`` is, as this request proves it; or, for a name that
        is nobody's, what the new account would be made with (:meth:`commit`).
        ``vouched``: the ticket a peer host vouched for on this relayed connection.

        Raises :class:`Refusal`."""
        store = self._store()
        proof = self.tickets.proof(token)
        if proof is None and vouched is not None:
            proof = vouched.proof_for(token)
        if proof is not None:
            token = None  # a ticket is never an account token
            if proof.name is not None and proof.name != folded(name):
                raise Refusal("name_taken", f"this session logged in as another name than {name}")
        try:
            account = store.find(name)
            if account is None:
                if code is not None:
                    raise Refusal("bad_code", "that code is wrong, used or expired")
                if proof is not None:
                    self._not_anothers(store, proof)
                    return Claim(name, None, proof.credential())
                # A token the client brought for a name that is nobody's is the new
                # account's: should the seat not come to it (its host killed, the
                # join refused after the account was made), the same token proves
                # the account at the next try, where a token it never heard of
                # would leave it name_taken for good.
                new = token if token is not None else secrets.token_urlsafe(32)
                return Claim(name, None, Credential("token", digest(new)), new)
            if folded(account.name) != folded(name):
                raise Refusal(
                    "name_taken",
                    f"{name} looks like the account {account.name}: choose another name",
                )
            if account.locked:
                raise Refusal("account_locked", f"the account {account.name} is locked")
            if code is not None:
                if proof is not None and not store.verify(account.id, proof.door, proof.digest):
                    self._not_anothers(store, proof)  # before the code is used up
                return self._redeem(store, account, proof, code)
            if proof is not None and store.verify(account.id, proof.door, proof.digest):
                return Claim(account.name, account)
            if token is not None and store.verify(account.id, "token", digest(token)):
                return Claim(account.name, account)
            if token is not None:
                raise Refusal("bad_token", f"wrong token for the account {account.name}")
        except AccountsUnavailable as exc:
            raise self.broken(exc) from None
        raise Refusal(
            "name_taken",
            f"{account.name} is an account on this host, and this request brings none of "
            "its credentials nor a link code",
        )

    @staticmethod
    def _not_anothers(store: AccountStore, proof: DoorProof) -> None:
        """Refuse a new account with a door's credential that another account holds
        (say whose: that is the name this person has here)."""
        holder = store.owner(proof.door, proof.digest)
        if holder is None:
            return
        if proof.door == "browser":
            why = f"this browser is the account {holder.name}'s: play as {holder.name}"
        else:
            why = f"this key belongs to the account {holder.name}: log in as {holder.name}"
        raise Refusal("name_taken", why)

    def _redeem(
        self, store: AccountStore, account: Account, proof: DoorProof | None, code: str
    ) -> Claim:
        if not self.take_code(store, code, account):
            raise Refusal("bad_code", "that code is wrong, used or expired")
        token = None
        if proof is not None:
            credential = proof.credential()
        else:
            token = secrets.token_urlsafe(32)
            credential = Credential("token", digest(token), "linked with a code")
        try:
            store.add_credential(account.id, credential)
        except AccountsUnavailable:
            raise
        except AccountError as exc:
            raise Refusal("name_taken", str(exc)) from None
        return Claim(account.name, account, token=token)

    def commit(self, claim: Claim) -> Account:
        """The claim's account, made now if it is new (raises :class:`Refusal`
        ``name_taken`` when someone made it first)."""
        if claim.account is not None:
            return claim.account
        store = self._store()
        try:
            return store.create(claim.name, claim.create)
        except NameTakenError as exc:
            # Made meanwhile with this very credential (a friend asked for while the
            # seat waited, at another connection of the same person): it is theirs.
            try:
                made = store.find(claim.name)
                if (
                    made is not None
                    and claim.create is not None
                    and folded(made.name) == folded(claim.name)
                    and store.verify(made.id, claim.create.door, claim.create.digest)
                ):
                    return made
            except AccountsUnavailable as unavailable:
                raise self.broken(unavailable) from None
            raise Refusal("name_taken", str(exc)) from None
        except AccountsUnavailable as exc:
            raise self.broken(exc) from None
        except AccountError as exc:
            raise Refusal("name_taken", str(exc)) from None
