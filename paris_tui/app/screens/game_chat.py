"""The table chat on the game screen (``c``, F2-F7; app/online/chat.py): the chat pane
follows the table's lines, a line heard under another screen is a notice, and what is
chosen in the prompt is said."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paris_tui.app.online.chat import (
    ChatPane,
    ChatPrompt,
    Mutes,
    chat_entry,
    chat_table,
    say_chosen,
    speaking_as,
)
from paris_tui.app.terminal.keygate import TurnGate

from ...i18n import _
from ...net.protocol import CHAT_PHRASES, ChatLine
from .end import EndScreen

if TYPE_CHECKING:
    from .game_host import GameHost

__all__ = ["TableChat"]


class TableChat:
    """The chat of the game screen ``screen``'s table (at a host's table that speaks it)."""

    def __init__(self, screen: GameHost) -> None:
        self._screen = screen

    def follow(self) -> None:
        """The chat pane hears the table's lines: those heard so far, then each as it comes."""
        screen = self._screen
        table = chat_table(screen.flow.table)
        panes = screen.query(ChatPane)
        if table is None or not panes:
            return
        panes.first().follow(table, screen.flow.public.names)
        if self._elsewhere not in table.chat_listeners:
            table.chat_listeners.append(self._elsewhere)

    def _elsewhere(self, line: ChatLine) -> None:
        """A line heard while another screen is on top (help, say): a notice. The end
        screen and the chat prompt show it themselves."""
        screen = self._screen
        top = screen.app.screen if screen.is_attached else screen
        if top is screen or isinstance(top, ChatPrompt):
            return
        if isinstance(top, EndScreen) and top.chat is not None:
            return
        pane = screen.query(ChatPane)
        if pane and line.name in pane.first().muted:
            return
        names = screen.flow.public.names
        screen.notify(chat_entry(line, names).plain, title=_("Chat"), markup=False)

    def muted(self) -> Mutes | None:
        """The names hidden on this terminal (/mute), shared with the end screen."""
        panes = self._screen.query(ChatPane)
        return panes.first().muted if panes else None

    def open_prompt(self) -> None:
        """The prompt to say a line or a phrase (``c``)."""
        screen = self._screen
        table = chat_table(screen.flow.table)
        if table is not None:
            # Each line is said as sent, the prompt stays until Escape (a second line
            # typed at once is chat too); then the board waits a quiet moment.
            over = screen.flow.public.is_over
            panes = screen.query(ChatPane)
            pane = panes.first() if panes else None
            prompt = ChatPrompt(speaking_as(table, over=over), send=self._chosen, pane=pane)
            screen.app.push_screen(prompt, self._closed)

    def _closed(self, said: tuple[str, str] | None) -> None:
        """The prompt is gone: a turn under way takes no key stamped before now, and
        its Enter only a quiet moment later (the turn's gate begins again)."""
        self._chosen(said)
        gate = getattr(self._screen, "key_gate", None)
        if isinstance(gate, TurnGate) and gate.began is not None:
            gate.begin()

    def say_phrase(self, index: int) -> None:
        """Say the ``index``-th of the table's phrases (F2-F7)."""
        self._chosen(("phrase", CHAT_PHRASES[index]))

    def _chosen(self, said: tuple[str, str] | None) -> None:
        screen = self._screen
        say_chosen(chat_table(screen.flow.table), screen.query(ChatPane), said)
