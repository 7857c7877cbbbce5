"""Input fields that never take in a character they would draw raw.

An input field draws its value as it is: a pasted control character
(``ESC ] 52 ; ...`` sets the terminal's clipboard) or a bidi override (the
row turned around) would reach the terminal before what was typed could be
refused. :class:`PlainInput` refuses such a paste or key whole, leaves the
field unchanged and posts :class:`PlainInput.Refused` with the reason in plain
words, for its screen to show. :class:`NameInput` is a name's field (the
core's name rule gives the reason), :class:`ChatInput` a chat line's.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Input

from ...core import InvalidNameError, normalize_name, printable
from ...core.text import InvalidChatError, normalize_chat
from ...i18n import _, ngettext
from ...wording import name_problem as worded_problem
from ..online.chat_words import chat_problem

__all__ = ["ChatInput", "NameInput", "PlainInput"]


class PlainInput(Input):
    """A field that refuses text holding a control or format character (see the module)."""

    class Refused(Message):
        """Text was not taken in; :attr:`reason` says why, in plain words."""

        def __init__(self, field: PlainInput, reason: str) -> None:
            super().__init__()
            self.field = field
            self.reason = reason

    def refusal(self, text: str) -> str:
        """Why ``text`` (which holds a character that would be drawn raw) is refused."""
        return _("Not pasted: it holds a character that cannot be shown.")

    def _refuse(self, text: str) -> bool:
        """Refuse ``text`` (say why) if it holds a character that would be drawn raw."""
        if printable(text) == text:
            return False
        self.post_message(self.Refused(self, self.refusal(text)))
        return True

    def _on_paste(self, event: events.Paste) -> None:
        # The whole paste, before Input keeps only its first line: "Ann\nBob" is refused.
        if self._refuse(event.text):
            event.prevent_default()
            event.stop()

    def replace(self, text: str, start: int, end: int) -> None:
        if not self._refuse(text):
            super().replace(text, start, end)


class NameInput(PlainInput):
    """A name's field: the reason is the core's name rule's; over its length, says so."""

    def refusal(self, text: str) -> str:
        try:
            normalize_name(text)
            reason = _("it holds a character a name cannot hold")  # pragma: no cover
        except InvalidNameError as exc:
            reason = worded_problem(exc)
        return _("Not pasted: {reason}.").format(reason=reason)

    def restricted(self) -> None:
        most = self.max_length or 0
        limit = ngettext(
            "A name has at most {n} character.", "A name has at most {n} characters.", most
        )
        self.post_message(self.Refused(self, limit.format(n=most)))


class ChatInput(PlainInput):
    """A chat line's field: the reason is the core's chat rule's."""

    def refusal(self, text: str) -> str:
        try:
            normalize_chat(text)
            return super().refusal(text)  # pragma: no cover
        except InvalidChatError as exc:
            return chat_problem(exc)
