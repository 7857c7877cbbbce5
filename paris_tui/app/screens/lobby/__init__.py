"""The lobby: a player with no seat lists the host's tables, sits, watches or opens one.

:mod:`.screen` is the screen (:class:`LobbyScreen`); :mod:`.tables` draws the
list of tables; :mod:`.host_link` reads the host, connects again, and asks for
the list every :data:`POLL` seconds; :mod:`.new_table` is the new-table form
(:class:`NewTableScreen`) and :mod:`.cycler` its kind of field (:class:`Cycler`,
quick match's too).
"""

from __future__ import annotations

from paris_tui.app.screens.lobby.cycler import Cycler
from paris_tui.app.screens.lobby.host_link import POLL, POLL_AWAY
from paris_tui.app.screens.lobby.new_table import NewTableScreen
from paris_tui.app.screens.lobby.screen import LobbyScreen
from paris_tui.app.screens.lobby.tables import table_game_text, table_players_text

__all__ = [
    "POLL",
    "POLL_AWAY",
    "Cycler",
    "LobbyScreen",
    "NewTableScreen",
    "table_game_text",
    "table_players_text",
]
