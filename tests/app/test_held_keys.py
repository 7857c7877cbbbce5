"""A held or buffered key never passes a hand-off, a takeover dialog or a tour's end.

A terminal sends a held key as a press and then repeats (after an initial
delay of 0.25-0.7 s, then every 30-50 ms) and never says when the key is let
go. The reported bug: 30 Enters 33 ms apart in a 3-human game; Bob took his
tile, Cy's hand-off passed, Cy's route was drawn and a move was made for Cy.

Textual stamps every message with the time it was made (``Message.time``,
before it waits in any queue) and the app judges keys by that stamp, so most
tests here post keys with chosen stamps: the bursts are exact and nothing
sleeps. The tour and AI tests need keys that arrive *after* timers fired, so
they send a real one-second burst (bounded).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

import pytest
from textual import events
from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.local.session import Session
from paris_tui.app.look.frames import build_frames
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.takeover import TakeoverDialog
from paris_tui.app.screenshots import (
    _policy,
    build_session,
    grand_tour_position,
    takeover_position,
)
from paris_tui.app.terminal.keygate import (
    QUIET_GAP,
    REPEAT_DELAY,
    KeyStamp,
    TurnGate,
    is_deliberate,
)
from paris_tui.core import TourEvent
from paris_tui.core.record import replay

from .helpers import find_game, from_terminal, new_session, screen_text

REPEAT_EVERY = 0.033  # 30 repeats a second
# Initial repeat delays of common systems (the first repeat comes this long after the press).
INITIAL_DELAYS = (0.0, 0.25, 0.5, 0.66)


def real_app(session: Session, *, anim: float = 0.0, ai_delay: float = 0.0) -> ParisApp:
    """The app as it ships (keys judged as in a terminal); no animation unless asked."""
    return ParisApp(session=session, anim=anim, ai_delay=ai_delay, cursor_blink=False)


class Keyboard:
    """Posts key events stamped on a clock of its own, never behind the real one."""

    def __init__(self, pilot: Pilot[object]) -> None:
        self.pilot = pilot
        self.clock = time.monotonic()

    def _now(self) -> float:
        self.clock = max(self.clock, time.monotonic())
        return self.clock

    async def post(self, stamped: Sequence[tuple[str, float]]) -> None:
        app = self.pilot.app
        for key, at in stamped:
            event = events.Key(key, key if len(key) == 1 else None)
            event.time = at
            from_terminal(app, event)
        self.clock = max([self.clock, *(at for _, at in stamped)])
        for _ in range(4):  # the burst crosses screens (a hand-off is pushed mid-burst)
            await self.pilot.pause()

    async def tap(self, key: str, quiet: float = 1.0) -> None:
        """A deliberate press: ``quiet`` seconds after the last key."""
        await self.post([(key, self._now() + quiet)])

    async def hold(self, key: str, *, count: int = 30, delay: float = 0.0) -> None:
        """A key pressed after a quiet second and held: ``count`` events in all."""
        start = self._now() + 1.0
        times = [start] + [start + delay + REPEAT_EVERY * i for i in range(1, count)]
        await self.post([(key, at) for at in times])

    async def still_held(self, key: str, *, count: int = 30, delay: float = 0.0) -> None:
        """More repeats of a key that is still down (the first ``delay`` after the last key)."""
        start = self.clock + max(delay, REPEAT_EVERY)
        await self.post([(key, start + REPEAT_EVERY * i) for i in range(count)])


def routes_shown(app: ParisApp, routes: tuple[str, ...]) -> list[int]:
    """The seats whose own route is drawn ("Your route: Green line (G)", or a terser form)."""
    from paris_tui.core import classic_board

    lines = {line.id: line for line in classic_board().lines}
    text = screen_text(app)
    shown = []
    for seat, route in enumerate(routes):
        line = lines[route]
        names = (line.name, line.name.removesuffix(" line"))
        forms = [
            f"{label}: {name} ({line.letter})"
            for label in ("Your route", "Route")
            for name in names
        ]
        if any(form in text for form in forms):
            shown.append(seat)
    return shown


async def test_held_enter_at_every_hand_off_of_a_3_human_game() -> None:
    """At each hand-off a held Enter arrives (the one that took the last tile, or a new one).

    Only a deliberate press after a quiet moment passes it; only the seat that
    pressed deliberately ever has its route drawn; each held Enter makes one
    move at most (the deliberate press that started it).
    """
    session = new_session("Ann,Bob,Cy", 11, None)
    routes = session.record().setup.routes
    app = real_app(session)
    handoffs = dialogs = repeats_seen = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = Keyboard(pilot)
        for step in range(400):
            screen = app.screen
            if isinstance(screen, EndScreen):
                break
            moves = session.move_count
            delay = INITIAL_DELAYS[step % len(INITIAL_DELAYS)]
            if isinstance(screen, HandoffScreen):
                handoffs += 1
                if session.move_count == 0:  # the first one: Enter typed ahead as the app starts
                    start = screen.key_gate.opened_at + REPEAT_EVERY
                    await keys.post([("enter", start + REPEAT_EVERY * i) for i in range(30)])
                else:  # the Enter that made the last move is still down
                    await keys.still_held("enter", delay=delay)
                assert app.screen is screen, "a held Enter passed the hand-off"
                assert session.move_count == moves
                assert routes_shown(app, routes) == []
                await keys.tap("enter")  # the next player, deliberately
                game = find_game(app)
                assert game is not None and app.screen is game
                assert game.turn_seat == screen.seat
                assert routes_shown(app, routes) == [screen.seat]
            elif isinstance(screen, TakeoverDialog):
                dialogs += 1
                await keys.still_held("enter", delay=delay)
                assert app.screen is screen, "a held Enter chose in the takeover dialog"
                assert session.move_count == moves
                await keys.tap("down")
                await keys.tap("enter", quiet=0.1)  # once a deliberate key came, keys work
                assert app.screen is not screen
                assert session.move_count == moves + 1
            else:
                assert isinstance(screen, GameScreen)
                seat = screen.turn_seat
                assert seat is not None, "no turn and no hand-off"
                # The player takes a tile with Enter and keeps it down for a second.
                await keys.hold("enter", delay=delay)
                repeats_seen += 1
                after = app.screen
                if isinstance(after, TakeoverDialog):
                    assert session.move_count == moves
                    continue
                assert session.move_count == moves + 1, "a held Enter made more than one move"
                if isinstance(after, GameScreen) and after.turn_seat is not None:
                    # The same seat moves twice running: its own route, no second move.
                    assert after.turn_seat == seat
                    assert routes_shown(app, routes) == [seat]
                else:
                    assert routes_shown(app, routes) == []
        else:  # pragma: no cover - the game must end
            raise AssertionError("the game did not end")
    assert session.view(None).is_over
    assert handoffs >= 30 and repeats_seen >= 30
    assert dialogs >= 1, "the seed should meet a takeover dialog"


async def test_a_key_stamped_before_the_hand_off_appeared_is_dropped() -> None:
    """A buffered key (typed ahead, read late) does not pass a hand-off, however quiet before."""
    app = real_app(new_session("Ann,Bob", 3, None))
    async with app.run_test() as pilot:
        await pilot.pause()
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        gate = handoff.key_gate
        keys = Keyboard(pilot)
        await keys.post([("enter", gate.opened_at - 0.01)])
        assert app.screen is handoff
        await keys.post([("enter", gate.opened_at + QUIET_GAP / 2)])  # too soon after it appeared
        assert app.screen is handoff
        await keys.tap("enter")
        assert isinstance(app.screen, GameScreen)


async def test_the_hint_comes_with_the_first_dropped_key() -> None:
    """The hand-off's first frame has no hint (it is mounted when needed): the
    first key the gate drops mounts it under the button, once, and Enter still passes."""
    app = real_app(new_session("Ann,Bob", 3, None))
    async with app.run_test() as pilot:
        await pilot.pause()
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        assert not handoff.query("#handoff-hint")
        assert "let go" not in screen_text(app).lower()
        keys = Keyboard(pilot)
        opened = handoff.key_gate.opened_at
        await keys.post([("enter", opened - 0.02), ("x", opened - 0.01)])
        await keys.post([("enter", opened + QUIET_GAP / 2)])
        assert app.screen is handoff
        assert len(handoff.query("#handoff-hint")) == 1
        assert handoff.query_one("#handoff-box").children[-1].id == "handoff-hint"
        assert "let go" in screen_text(app).lower()
        await keys.tap("enter")
        assert isinstance(app.screen, GameScreen)


async def test_any_key_restarts_the_wait() -> None:
    """A mash of different keys, each within the quiet gap of the last, never passes."""
    session = new_session("Ann,Bob,Cy", 4, None)
    app = real_app(session)
    async with app.run_test() as pilot:
        await pilot.pause()
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        keys = Keyboard(pilot)
        start = handoff.key_gate.opened_at + QUIET_GAP * 0.9  # the mash starts as it appears
        mash = ["a", "enter", "space", "x", "enter", "1", "enter", "tab", "enter"] * 4
        step = QUIET_GAP * 0.9
        await keys.post([(key, start + i * step) for i, key in enumerate(mash)])
        assert app.screen is handoff
        assert routes_shown(app, session.record().setup.routes) == []
        assert "let go" in screen_text(app).lower()  # the hand-off says why nothing happens
        await keys.tap("enter")
        assert isinstance(app.screen, GameScreen)


async def test_a_held_enter_in_the_takeover_dialog_chooses_nothing() -> None:
    session, index = takeover_position()
    app = real_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        keys = Keyboard(pilot)
        await keys.tap("enter")  # the hand-off
        await keys.tap(str(index + 1))
        moves = session.move_count
        await keys.hold("enter", delay=0.5)  # takes the tile at a full stop, and stays down
        dialog = app.screen
        assert isinstance(dialog, TakeoverDialog)
        assert session.move_count == moves
        await keys.hold("down", count=10)  # a deliberate Down (held: harmless)
        await keys.tap("enter", quiet=0.05)
        assert app.screen is not dialog
        assert session.move_count == moves + 1


def send_now(pilot: Pilot[object], key: str, at: float | None = None) -> None:
    """A key stamped with the real time (or ``at``), as a terminal's would be."""
    event = events.Key(key, key if len(key) == 1 else None)
    if at is not None:
        event.time = at
    from_terminal(pilot.app, event)


async def real_burst(
    pilot: Pilot[object], key: str, seconds: float, *, until: Callable[[], bool] | None = None
) -> None:
    """A key held in real time: for ``seconds``, or ``seconds`` after ``until()`` came true.

    Each repeat is stamped with its own time, as the terminal driver's thread
    would stamp it, and sent once that time has come: a busy event loop here
    delays the sending, not the stamps (bounded: 10 s at most).
    """
    start = time.monotonic()
    end = start + seconds
    for i in range(int(10 / REPEAT_EVERY)):
        at = start + i * REPEAT_EVERY
        if until is not None and not until():
            end = max(end, at + seconds)
        if at > end:
            break
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        send_now(pilot, key, at)
    await pilot.pause()


def tour_anim(session: Session, seconds: float) -> float:
    """The ``anim`` step that makes the tours after the policy's next move last ``seconds``."""
    probe = build_session("Ann,Bob", 8, session.move_count)
    public = probe.view(None)
    frames = build_frames(public.board, public.names, probe.play(_policy(probe)))
    return seconds / sum(frame.weight for frame in frames)


@pytest.mark.parametrize("key", ["space", "enter"])
async def test_a_key_held_through_a_tour_passes_nothing_that_comes_next(key: str) -> None:
    """The round's last tile is taken; a grand tour runs; the key stays down through it and after.

    Space skips the tour (as it should), Enter does nothing during it; neither
    passes the next hand-off nor takes a tile on the turn that follows.
    """
    session = grand_tour_position()  # Ann,Bob: the policy's next move ends a round
    move = _policy(session)
    app = real_app(session, anim=tour_anim(session, 0.6))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(QUIET_GAP + 0.05)
        send_now(pilot, "enter")  # the hand-off, after a quiet moment
        await pilot.pause()
        game = find_game(app)
        assert game is not None and game.turn_seat is not None
        moves = session.move_count
        events_before = len(session.events)
        send_now(pilot, str(game.view.face_up.index(move.tile) + 1))
        await pilot.pause(QUIET_GAP + 0.05)  # a look at the tiles first
        send_now(pilot, "enter")  # ends the round: the tours start
        await pilot.pause()
        if isinstance(app.screen, TakeoverDialog):
            await pilot.pause(REPEAT_DELAY + 0.05)
            send_now(pilot, "enter")
            await pilot.pause()
        assert session.move_count == moves + 1
        assert any(isinstance(e, TourEvent) for e in session.events[events_before:])
        # Held through the tour and for a second after it.
        await real_burst(pilot, key, 1.0, until=lambda: game.frame is None)
        assert game.frame is None, "the tour should be over"
        assert session.move_count == moves + 1
        if isinstance(app.screen, HandoffScreen):
            assert routes_shown(app, session.record().setup.routes) == []
        else:  # the same player starts the next round: the turn is still untouched
            assert app.screen is game and game.turn_seat is not None


async def test_held_enter_across_ai_moves_takes_no_tile_on_the_next_turn() -> None:
    session = new_session("Ann,ai:random,ai:random", 5, None)
    app = real_app(session)
    async with app.run_test() as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen) and game.turn_seat == 0
        moves = session.move_count
        await pilot.pause(QUIET_GAP + 0.05)
        await real_burst(pilot, "enter", 1.0)  # Ann takes a tile and keeps Enter down
        await pilot.pause(0.1)
        # Ann's move, then AI moves up to Ann's next turn, which waits for a deliberate press.
        record = session.record()
        movers = [replay(record, upto=m).view(None).to_move for m in range(len(record.moves))]
        assert movers[moves:].count(0) == 1 and len(movers) > moves + 1
        assert game.turn_seat == 0


def test_deliberate_press_rules() -> None:
    opened = 100.0
    enter = "enter"
    assert not is_deliberate(KeyStamp(enter, opened - 0.1), None, opened)  # before it appeared
    assert not is_deliberate(KeyStamp(enter, opened + QUIET_GAP / 2), None, opened)  # too soon
    assert is_deliberate(KeyStamp(enter, opened + QUIET_GAP), None, opened)
    late = opened + 5
    other = KeyStamp("x", late - QUIET_GAP / 2)
    assert not is_deliberate(KeyStamp(enter, late), other, opened)  # a key just before
    assert is_deliberate(KeyStamp(enter, late), KeyStamp("x", late - QUIET_GAP), opened)
    # The same key again after a pause shorter than a key repeat's initial delay: a repeat.
    same = KeyStamp(enter, late - (QUIET_GAP + REPEAT_DELAY) / 2)
    assert not is_deliberate(KeyStamp(enter, late), same, opened)
    long_ago = late - REPEAT_DELAY - 0.01
    assert is_deliberate(KeyStamp(enter, late), KeyStamp(enter, long_ago), opened)
    assert max(INITIAL_DELAYS) < REPEAT_DELAY and REPEAT_EVERY * 3 < QUIET_GAP


def test_turn_rules() -> None:
    gate = TurnGate()
    assert gate.admit(KeyStamp("enter", 0.0), None)  # between turns: nothing to guard
    gate.begin()
    began = gate.began
    assert began is not None
    assert not gate.admit(KeyStamp("right", began - 0.01), None)  # typed before the turn
    assert gate.admit(KeyStamp("right", began + 0.01), None)  # the highlight is never held back
    assert not gate.admit(KeyStamp("enter", began + QUIET_GAP / 2), None)  # a look first
    late = began + 5
    assert gate.admit(KeyStamp("enter", late), KeyStamp("right", late - 0.05))  # right, Enter
    assert not gate.admit(KeyStamp("enter", late), KeyStamp("enter", late - 0.05))  # repeat
    assert not gate.admit_click(began - 0.01) and gate.admit_click(began)
    gate.end()
    assert gate.admit(KeyStamp("enter", late), KeyStamp("enter", late - 0.05))


async def test_a_held_enter_on_the_last_move_does_not_press_play_again() -> None:
    session = build_session("Ann,Bob,Cy", 3, 44)  # one move left
    app = real_app(session)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        keys = Keyboard(pilot)
        await keys.tap("enter")  # the hand-off
        await keys.hold("enter")  # the last move, and Enter stays down
        end = app.screen
        assert isinstance(end, EndScreen)
        assert session.view(None).is_over and app.session is session
        await keys.still_held("enter")
        assert app.screen is end and app.session is session
        await keys.tap("n")  # a deliberate press plays again
        assert app.session is not session


@pytest.mark.parametrize("key", ["question_mark", "q"])
async def test_q_and_help_work_on_the_hand_off_at_once(key: str) -> None:
    """`?` and `q` on the hand-off do what they do everywhere (README), even
    before a deliberate Enter; they pass nothing (the hand-off still waits for its Enter)."""
    from paris_tui.app.screens.help import HelpScreen

    app = real_app(new_session("Ann,Bob", 3, None))
    async with app.run_test() as pilot:
        await pilot.pause()
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        keys = Keyboard(pilot)
        await keys.post([(key, handoff.key_gate.opened_at + QUIET_GAP / 4)])  # at once
        await pilot.pause()
        if key == "q":
            assert not app.is_running or app.return_code is not None
            return
        assert isinstance(app.screen, HelpScreen)
        assert not handoff.key_gate.passed
        await keys.tap("escape")
        await pilot.pause()
        assert app.screen is handoff
        assert routes_shown(app, ("blue", "yellow", "red", "pink", "green")) == []


async def test_a_second_enter_soon_after_the_hand_off_says_why_it_waits() -> None:
    """An Enter within the repeat delay of the one that passed the hand-off takes
    no tile (it could be that Enter held down) and the status says it was seen and to press
    it again; a press after the wait takes the tile."""
    session = new_session("Ann,Bob", 3, None)
    app = real_app(session)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        keys = Keyboard(pilot)
        await keys.tap("enter")
        game = find_game(app)
        assert game is not None and app.screen is game and game.turn_seat == 0
        await keys.post([("enter", keys.clock + REPEAT_DELAY / 2)])  # a second press, soon
        await pilot.pause()
        assert session.move_count == 0
        status = screen_text(app)
        assert "Enter seen" in status or "Press Enter again" in status, status
        await keys.tap("enter")
        await pilot.pause()
        assert session.move_count == 1
        assert "Enter seen" not in screen_text(app)
