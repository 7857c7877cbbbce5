"""Deliberate presses: what no held, repeating or buffered key can fake.

A terminal sends a held key as a press followed by repeats (after an initial
delay, 0.25-0.7 s on common systems, then every 30-50 ms) and never says when
the key is let go; keys typed while the app was busy wait in a queue. So a
player who keeps Enter down a moment too long would pass the next player's
hand-off, show that player's route and move for them.

The screens where one key hands the keyboard over or makes a move without a
second look (the hand-off, the takeover dialog, the game end) carry a
:class:`KeyGate`: it is closed when the screen appears and lets a key through
only once a *deliberate* one came (:func:`is_deliberate`): after the screen
appeared, after a quiet moment since the screen appeared and since the last
key of any kind (every key restarts the wait), and, if it is the same key as
the last one, after longer than a key repeat's initial delay. Once a
deliberate key came, the screen takes keys as usual. Keys that neither hand
the keyboard over nor move (``q`` quit, ``?`` and ``F1`` help: the README's
"Everywhere" keys) pass a closed gate at once and leave it closed. A turn
drops the keys stamped before it began, and takes a tile only with an Enter
that is not a repeat and comes a quiet moment after the turn began
(:class:`TurnGate`): moving the highlight stays as quick as ever. Every gate
says when it drops a key (``on_drop``), so a screen can show that the key was
seen and why it waits: a second Enter soon after the first cannot be told
from a held key's first repeat.

Keys are judged by their own time stamp (Textual stamps every message when it
is made, in the driver, before it waits in any queue), never by when they are
handled, and never by sleeping. :class:`~paris_tui.app.app.ParisApp` applies
the gates of the active screen to every key and click before Textual routes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from textual._time import get_time  # the clock Textual stamps messages with

__all__ = [
    "FREE_KEYS",
    "QUIET_GAP",
    "REPEAT_DELAY",
    "Gate",
    "KeyGate",
    "KeyStamp",
    "TurnGate",
    "is_deliberate",
    "is_repeat",
    "now",
]

QUIET_GAP = 0.4
"""Seconds without any key before a press counts as deliberate (a repeating key never pauses
this long; any key within it restarts the wait)."""

REPEAT_DELAY = 0.8
"""Seconds after a press before the *same* key counts as pressed again: longer than the initial
delay before a held key repeats (the first repeat is otherwise indistinguishable from a press)."""


FREE_KEYS = ("q", "question_mark", "f1")
"""Keys a :class:`KeyGate` lets through while closed: quit and help hand nothing over and
make no move (every move is saved; help shows nothing secret), so they work everywhere."""


def now() -> float:
    """The current time on the clock of :attr:`textual.message.Message.time`."""
    return get_time()


@dataclass(frozen=True, slots=True)
class KeyStamp:
    """A key and the time it was made."""

    key: str
    time: float


def is_repeat(key: KeyStamp, previous: KeyStamp | None) -> bool:
    """Could ``key`` be an automatic repeat of ``previous`` (the same key, soon after)?"""
    return (
        previous is not None and previous.key == key.key and key.time - previous.time < REPEAT_DELAY
    )


def is_deliberate(key: KeyStamp, previous: KeyStamp | None, since: float) -> bool:
    """Was ``key`` pressed on purpose on something that appeared at ``since``?

    It came after a quiet moment (:data:`QUIET_GAP`) since ``since`` and since
    ``previous`` (the key before it, of any kind), and is not a repeat of it.
    """
    if key.time < since + QUIET_GAP:
        return False  # before the screen appeared, or too soon after
    if previous is None:
        return True
    if key.time - previous.time < QUIET_GAP:
        return False  # keys are still coming: a held or mashed key
    return not is_repeat(key, previous)


@runtime_checkable
class Gate(Protocol):
    """What a screen tells the app about the keys and clicks it takes now."""

    def admit(self, key: KeyStamp, previous: KeyStamp | None) -> bool: ...

    def admit_click(self, at: float) -> bool: ...


class KeyGate:
    """Closed from when its screen appears until a deliberate key came; then open."""

    def __init__(
        self, *, on_drop: Callable[[], None] | None = None, free: tuple[str, ...] = ()
    ) -> None:
        self.opened_at = now()
        self.passed = False
        self.dropped = 0
        self.on_drop = on_drop
        self.free = free  # keys let through while closed (FREE_KEYS), the gate stays closed

    def rearm(self) -> None:
        """Close again and wait afresh, as if the screen had just appeared."""
        self.opened_at = now()
        self.passed = False

    def admit(self, key: KeyStamp, previous: KeyStamp | None) -> bool:
        if not self.passed and key.key in self.free:
            return True
        if not self.passed and is_deliberate(key, previous, self.opened_at):
            self.passed = True
        if not self.passed:
            self.dropped += 1
            if self.on_drop is not None:
                self.on_drop()
        return self.passed

    def admit_click(self, at: float) -> bool:
        """A click cannot repeat: it only has to come after a quiet moment since the screen."""
        return self.passed or at >= self.opened_at + QUIET_GAP


class TurnGate:
    """A turn: keys stamped before it began are dropped; its take key must be deliberate-ish.

    The take key (Enter) counts only :data:`QUIET_GAP` after the turn began and
    when it is not a repeat; other keys (the highlight) are never held back.
    ``on_drop(key, previous)`` is called for each take key it drops (the
    screen says why nothing happened).
    """

    def __init__(
        self,
        take_keys: tuple[str, ...] = ("enter",),
        *,
        on_drop: Callable[[KeyStamp, KeyStamp | None], None] | None = None,
    ) -> None:
        self.began: float | None = None
        self.take_keys = take_keys
        self.on_drop = on_drop

    def begin(self) -> None:
        self.began = now()

    def end(self) -> None:
        self.began = None

    def admit(self, key: KeyStamp, previous: KeyStamp | None) -> bool:
        if self.began is None:
            return True  # between turns the screen's keys do not move
        if key.time < self.began:
            self._dropped(key, previous)
            return False
        if key.key not in self.take_keys:
            return True
        if key.time >= self.began + QUIET_GAP and not is_repeat(key, previous):
            return True
        self._dropped(key, previous)
        return False

    def _dropped(self, key: KeyStamp, previous: KeyStamp | None) -> None:
        if self.on_drop is not None and key.key in self.take_keys:
            self.on_drop(key, previous)

    def admit_click(self, at: float) -> bool:
        return self.began is None or at >= self.began
