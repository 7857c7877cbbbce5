"""Play by ear: a flat front end for screen readers.

Plain lines in order, typed commands confirmed with Enter, every move
announced as sentences, the state on demand. It is a second front end on
the same :class:`~paris_tui.net.table.Table` interface as the game screen,
reading :class:`~paris_tui.core.SeatView` s only, and imports no Textual:
:mod:`.lines` (what is written), :mod:`.say` (the sentences),
:mod:`.commands` (what is typed), :mod:`.inbox` (typed lines and their
moments), :mod:`.play` (a game on a table: the turn flow and the table's
chat), with :mod:`.waiting` (the next update or line), :mod:`.news` (the
events read out), :mod:`.turn` (what a line typed on a turn takes),
:mod:`.hint`, :mod:`.queries` (the state on demand, help), :mod:`.answers`
(what is asked between turns, the settings), :mod:`.chat` (a host's table
chat), :mod:`.prefs` (``bell`` and ``brief``, kept) and :mod:`.end` (the
history, the review); :mod:`.lobby` (a host's tables), with
:mod:`.tournaments` (the host's tournaments, a round's opening said),
:mod:`.replay` (a record step by step) and :mod:`.launch` (what the commands
call).

Turned on by ``--screen-reader`` or ``PARIS_TUI_SCREEN_READER=1``
(:func:`wanted`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["ENV", "wanted"]

ENV = "PARIS_TUI_SCREEN_READER"
"""The variable that turns the mode on (an SSH client sends it: ``-o SetEnv=...``)."""


def wanted(flag: bool, environ: Mapping[str, str] | None = None) -> bool:
    """``--screen-reader``, or :data:`ENV` set to anything but empty, ``0``, ``no`` or ``false``."""
    if flag:
        return True
    env = os.environ if environ is None else environ
    return env.get(ENV, "").strip().lower() not in ("", "0", "no", "false", "off")
