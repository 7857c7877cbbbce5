"""Lines shown together are shortened alike, and a table has no column of zeros.

At 80 columns each line used to take the first wording that fitted it alone:
``Your route: Green (G)`` beside ``Blue line (B)``, a terse special tour between
two full ones, the tour status ``Special tour [G] at Quartier Latin`` after
``Special tour [B] Blue line (Bob's route) — at République``.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from paris_tui.app.look.frames import build_frames
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screenshots import _policy, build_session
from paris_tui.app.terminal.fit import Fit
from paris_tui.core import TourEvent


def _shown(fit: Fit, width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(fit)
    return console.export_text().rstrip("\n")


def test_fits_together_take_the_same_wording() -> None:
    long = Fit([Text("Your route: Green line (G)"), Text("Your route: Green (G)")])
    short = Fit([Text("Public route: Blue (B)"), Text("Public: Blue (B)")])
    # Alone, each takes the first wording that fits it: one full, one terse.
    assert _shown(long, 22) == "Your route: Green (G)" and _shown(short, 22).startswith(
        "Public route"
    )
    together = Fit.together([long, short])
    assert [_shown(fit, 22) for fit in together] == ["Your route: Green (G)", "Public: Blue (B)"]
    # Where both fit in full, both are full.
    assert [_shown(fit, 30) for fit in together] == [
        "Your route: Green line (G)",
        "Public route: Blue (B)",
    ]


def _finished(players: str, seed: int):  # type: ignore[no-untyped-def]
    session = build_session(players, seed)
    while not session.view(None).is_over:
        session.play(_policy(session))
    return session


def test_the_tours_captions_are_shortened_alike() -> None:
    session = _finished("Ann,Bob,Cy", 8)
    record = session.record()
    from paris_tui.core.record import replay

    game = replay(record, len(record.moves) - 1)
    events = game.play(record.moves[-1])
    frames = build_frames(game.board, game.names, events)
    tours = [f for f in frames if f.tour_line is not None]
    assert len(tours) >= 3 and any(isinstance(e, TourEvent) for e in events)
    for width in (40, 60, 78):
        chosen = {
            # the index of the wording chosen: the same for every caption of the tours
            fit.caption.variants.index(fit.caption.choose(width, 1))
            for fit in tours
        }
        assert len(chosen) == 1, (width, chosen)


def test_a_two_player_final_table_has_no_sack_column() -> None:
    """With two players nobody scores for the sack (R7.2): the table drops the column."""
    from rich.table import Table

    from paris_tui.app.local.session import points_by_kind
    from paris_tui.core.record import replay

    for players, sack in (("Ann,Bob", False), ("Ann,Bob,Cy", True)):
        record = _finished(players, 5).record()
        game = replay(record, 0)
        every = []
        for move in record.moves:
            events = game.play(move)
            every += events
        screen = EndScreen(game.view(None), events, points_by_kind(game.players, every))
        table = next(item for item in screen.items if isinstance(item, Table))
        heads = [str(column.header) for column in table.columns]
        assert ("Sack" in heads) is sack, heads
        assert "Total" in heads and "Special" in heads
