"""Table chat in the app: the chat pane, the chat prompt, canned phrases.

At a host's table (protocol 4) the game screen shows the lines said there in a
chat pane beside its log, each with its writer's name, drawn as
:class:`~rich.text.Text` (never markup: ``[b]`` is shown as typed). ``c``
opens the chat prompt; F2 to F7 say a canned phrase, which is sent as its id
(:data:`~paris_tui.net.protocol.CHAT_PHRASES`) so that each reader sees it in
their own language. In the prompt, ``/mute NAME`` hides a writer's lines
(``/unmute NAME`` shows them again): at once on this terminal (the lines
heard before), and the host keeps the mute with the player's account (protocol
4 ``mutes``, :class:`Mutes`) so that it holds after a restart, at any door and
any host, and sends none of that writer's lines to the account's connections;
the host's operator mutes an account for every table (``paris-tui host
accounts mute NAME``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static

from paris_tui.app.look.describe import shown_name
from paris_tui.app.look.palette import player_style
from paris_tui.app.online.chat_words import (
    CHAT_CODES,
    Mutes,
    chat_problem,
    chat_table,
    phrase_words,
    speaking_as,
    writer,
)
from paris_tui.app.screens.base import ParisScreen
from paris_tui.app.widgets.fields import ChatInput
from paris_tui.core.text import (
    InvalidChatError,
    InvalidNameError,
    normalize_chat,
    normalize_name,
)
from paris_tui.i18n import N_, _
from paris_tui.net.protocol import CHAT_PHRASES, ChatLine
from paris_tui.net.table import RemoteTable

__all__ = [
    "CHAT_CODES",
    "PHRASE_KEYS",
    "ChatPane",
    "ChatPrompt",
    "Mutes",
    "chat_entry",
    "chat_problem",
    "chat_table",
    "phrase_words",
    "say_chosen",
    "speaking_as",
]

PHRASE_KEYS = ("f2", "f3", "f4", "f5", "f6", "f7")
"""The keys of the canned phrases, in :data:`CHAT_PHRASES`'s order."""


def chat_entry(line: ChatLine, names: tuple[str, ...] = ()) -> Text:
    """One chat line as drawn: ``● Ann: text`` (a seat in its colour), ``Zoe (watching):``
    or ``A watcher:`` for a watcher; the text literally, a phrase in this language."""
    out = Text()
    if line.channel == "watchers":
        out.append(_("(to watchers) "), style="dim")
    if line.seat is not None:
        style = player_style(line.seat)
        name = shown_name(names[line.seat]) if line.seat < len(names) else line.name
        out.append(f"{style.symbol} {name}", style=f"bold {style.colour}")
    else:
        out.append(writer(line), style="bold")
    out.append(": ")
    if line.phrase is not None:
        out.append(phrase_words(line.phrase), style="italic")
    else:
        out.append(line.text or "")
    return out


class ChatPane(RichLog):
    """The lines said at the table, oldest first; hidden until the first one (or ``c``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, min_width=20, **kwargs)
        self.can_focus = False
        self.lines_heard: list[ChatLine] = []
        self.entries: list[ChatLine | Text] = []  # what the pane draws: lines and notes
        self.names: tuple[str, ...] = ()
        self.muted = Mutes()  # the writers hidden here (/mute; the host keeps the list)
        self.changed: list[Callable[[], None]] = []  # told after each line or note

    def latest(self, count: int) -> list[Text]:
        """The last ``count`` entries as drawn (muted writers left out), oldest first."""
        out: list[Text] = []
        for entry in reversed(self.entries):
            if len(out) == count:
                break
            if isinstance(entry, Text):
                out.append(entry)
            elif entry.name not in self.muted:
                out.append(chat_entry(entry, self.names))
        return out[::-1]

    def _tell(self) -> None:
        for listener in list(self.changed):
            listener()

    def follow(self, table: RemoteTable, names: tuple[str, ...]) -> None:
        """Hear ``table``'s lines: those heard so far, then each as it comes (until
        :meth:`unfollow`)."""
        self.names = names
        if table.chat_mutes is not None:
            self.muted.heard(table.chat_mutes)
        if table.chat_lines and not self.lines_heard:
            for line in table.chat_lines:
                self.hear(line)
        if self.hear not in table.chat_listeners:
            table.chat_listeners.append(self.hear)
        if self.mutes_heard not in table.mutes_listeners:
            table.mutes_listeners.append(self.mutes_heard)

    def unfollow(self, table: RemoteTable) -> None:
        """Hear no more of ``table`` (its screen is gone)."""
        while self.hear in table.chat_listeners:
            table.chat_listeners.remove(self.hear)
        while self.mutes_heard in table.mutes_listeners:
            table.mutes_listeners.remove(self.mutes_heard)

    def mutes_heard(self, names: tuple[str, ...]) -> None:
        """The host's list of the writers this account hides: shown so."""
        self.muted.heard(names)  # (shared with the other screen's pane: both redraw)
        self.redraw()

    def hear(self, line: ChatLine) -> None:
        if line in self.lines_heard:
            return  # the table's recent lines again, after a reconnection
        self.lines_heard = [*self.lines_heard[-199:], line]
        self.entries = [*self.entries[-199:], line]
        if line.name in self.muted:
            return
        self.add_class("-shown")
        self.write(chat_entry(line, self.names))
        self._tell()

    def redraw(self) -> None:
        """Everything heard again (a change of language, a mute), with this terminal's
        own notes where they were: a redraw (the host's list of mutes coming back)
        does not wipe what a /mute said."""
        self.clear()
        for entry in self.entries:
            if isinstance(entry, Text):
                self.write(entry)
            elif entry.name not in self.muted:
                self.write(chat_entry(entry, self.names))
        self._tell()

    def note(self, text: str) -> None:
        """A line of this terminal's own (what a /mute did), dim."""
        self.add_class("-shown")
        entry = Text(text, style="dim italic")
        self.entries = [*self.entries[-199:], entry]
        self.write(entry)
        self._tell()

    def command(self, text: str) -> bool:
        """Run ``/mute NAME`` or ``/unmute NAME`` here: ``True`` if ``text`` was one."""
        parsed = mute_command(text)
        if parsed is None:
            return False
        if isinstance(parsed, str):
            self.note(_("Say /mute NAME or /unmute NAME."))
            return True
        on, name = parsed
        if on:
            self.muted.mute(name)
            self.redraw()
            self.note(_("{name}'s lines are hidden here.").format(name=name))
        else:
            self.muted.unmute(name)
            self.redraw()
            self.note(_("{name}'s lines are shown again.").format(name=name))
        return True


def mute_command(text: str) -> tuple[bool, str] | str | None:
    """``/mute NAME`` as ``(True, name)``, ``/unmute NAME`` as ``(False, name)``; a bad
    name as the text; ``None`` when ``text`` is neither command."""
    word, _space, rest = text.strip().partition(" ")
    if word not in ("/mute", "/unmute"):
        return None
    try:
        return word == "/mute", normalize_name(rest)
    except InvalidNameError:
        return text


class ChatPrompt(ParisScreen, ModalScreen[tuple[str, str] | None]):
    """One line to say: Enter sends it, Escape goes back; F2 to F7 say a phrase.

    Over the table, translucent; with the screen's chat ``pane`` it shows that pane's
    last lines itself, as they come (at 80x24 the prompt covers the pane).

    Dismissed with ``("text", line)``, ``("phrase", id)``, ``("command", text)``
    (``/mute``, ``/unmute``) or ``None``. A line the core's chat rule refuses is
    not sent: the prompt says why and stays."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Back")),
        *(
            Binding(key, f"phrase({i})", N_("Phrases"), key_display="F2-F7", show=i == 0)
            for i, key in enumerate(PHRASE_KEYS)
        ),
    ]

    # Translucent, as the other dialogs: the board and the chat pane stay in sight
    # (dimmed) while a line is typed, so a line said meanwhile is read there.
    DEFAULT_CSS = """
    ChatPrompt { align: center bottom; background: $background 60%; }
    ChatPrompt #chat-box { width: 80%; height: auto; background: $panel; padding: 0 1; }
    ChatPrompt #chat-problem { color: $warning; }
    ChatPrompt #chat-recent { height: auto; max-height: 3; }
    """

    RECENT = 3
    """The pane's lines the prompt shows."""

    def __init__(
        self,
        speaking_as: str | None = None,
        send: Callable[[tuple[str, str]], None] | None = None,
        pane: ChatPane | None = None,
    ) -> None:
        """``speaking_as``: how a watcher's lines show (:func:`chat_words.speaking_as`).
        ``send``: each line (phrase, command) is given to it as said, and the prompt
        stays, the field empty again, until Escape: a second line typed at once goes
        to the chat too, never to the board (without it, the prompt is dismissed
        with what was said). ``pane``: the screen's chat pane, whose last lines the
        prompt shows."""
        super().__init__()
        self.speaking_as = speaking_as
        self.send = send
        self.pane = pane

    def compose(self) -> ComposeResult:
        pairs = zip(PHRASE_KEYS, CHAT_PHRASES, strict=True)
        keys = "  ".join(f"{key.upper()} {phrase_words(p)}" for key, p in pairs)
        with Vertical(id="chat-box"):
            if self.pane is not None:
                yield Static("", id="chat-recent")
            yield Static(Text(_("Say at the table (Enter sends, Escape goes back):")))
            if self.speaking_as is not None:
                yield Static(Text(self.speaking_as, style="dim"), id="chat-as")
            yield ChatInput(id="chat-input", max_length=480)
            yield Static(Text(keys, style="dim"), id="chat-keys")
            yield Static("", id="chat-problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        if self.pane is not None:
            self.pane.changed.append(self._show_recent)
            self._show_recent()

    def on_unmount(self) -> None:
        if self.pane is not None and self._show_recent in self.pane.changed:
            self.pane.changed.remove(self._show_recent)

    def _show_recent(self) -> None:
        """The pane's last lines, as it draws them."""
        if self.pane is None:
            return
        lines = self.pane.latest(self.RECENT)
        for recent in self.query("#chat-recent").results(Static):
            recent.display = bool(lines)
            recent.update(Text("\n").join(lines))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value
        if text.strip().startswith("/"):
            self._said(("command", text.strip()))
            return
        try:
            line = normalize_chat(text)
        except InvalidChatError as exc:
            self.query_one("#chat-problem", Static).update(Text(chat_problem(exc)))
            return
        self._said(("text", line))

    def on_plain_input_refused(self, event: ChatInput.Refused) -> None:
        event.stop()
        self.query_one("#chat-problem", Static).update(Text(event.reason))

    def action_phrase(self, index: int) -> None:
        self._said(("phrase", CHAT_PHRASES[index]))

    def _said(self, said: tuple[str, str]) -> None:
        if self.send is None:
            self.dismiss(said)
            return
        self.send(said)
        for field in self.query("#chat-input").results(Input):
            field.value = ""
            field.focus()
        for problem in self.query("#chat-problem").results(Static):
            problem.update("")

    def action_cancel(self) -> None:
        self.dismiss(None)


def say_chosen(
    table: RemoteTable | None, panes: Iterable[ChatPane], said: tuple[str, str] | None
) -> None:
    """Do what the chat prompt was dismissed with: say the line or the phrase at
    ``table``, or run the ``/mute`` command in ``panes`` (the screen's)."""
    if said is None or table is None:
        return
    kind, value = said
    if kind == "command":
        for pane in panes:
            if not pane.command(value):
                pane.note(_("Only /mute NAME and /unmute NAME are commands."))
        parsed = mute_command(value)
        if isinstance(parsed, tuple):  # kept with the account, where the host can
            table.mute(parsed[1], on=parsed[0])
    elif kind == "phrase":
        table.say(phrase=value)
    else:
        table.say(text=value)
