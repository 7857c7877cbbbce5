"""The hot-seat hand-off by ear on a real pty: before each player's turn the terminal's
screen and scrollback are erased, so no other player's secret route is left to scroll back
to or to read with a screen reader's review cursor."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.ear import CLEAR, Ear, check_plain
from tests.app.pty_app import PtyApp

WIDTH = 80
ROUTE = re.compile(rb"Your secret route, (\w+):")
HANDOFF = re.compile(rb"Pass to (\w+)\. ")


def test_the_hand_off_erases_screen_and_scrollback_before_the_next_players_turn(
    tmp_path: Path,
) -> None:
    app = PtyApp(
        ["play", "--players", "Ann,Bob", "--seed", "5", "--screen-reader"],
        {"PARIS_TUI_DATA_DIR": str(tmp_path / "data"), "PARIS_TUI_LANG": "en"},
        size=(WIDTH, 24),
    )
    try:
        ear = Ear(app, "en", queries=["route"])
        for _ in range(12):  # Ann's and Bob's first turns and hand-offs, and a few more
            assert ear.step(60)
        app.send(b"quit\r")
        assert app.finish() == 0
    finally:
        app.kill()
    output = bytes(app.output)
    check_plain(output, WIDTH)
    screens = output.split(CLEAR)
    assert len(screens) >= 4, output[-2000:]  # one erasing before each hand-off but the first
    # Before the first erasing: the welcome, the first hand-off and the first player's turn.
    first = HANDOFF.search(screens[0])
    assert first and not ROUTE.search(screens[0][: first.start()])
    assert set(ROUTE.findall(screens[0])) == {first.group(1)}
    for screen in screens[1:]:
        # What a terminal holds after each erasing: the hand-off to one player, then only
        # that player's own route (read at the first turn and when asked).
        passed = HANDOFF.match(screen)
        assert passed, screen[:200]
        owners = set(ROUTE.findall(screen))
        assert owners <= {passed.group(1)}, (passed.group(1), owners)
    told = {name for screen in screens for name in ROUTE.findall(screen)}
    assert told == {b"Ann", b"Bob"}
