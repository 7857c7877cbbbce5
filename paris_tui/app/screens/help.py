"""Help: the rules in brief and the keys, in the current language.

The text is Markdown, one file per language in ``paris_tui/app/help/``
(``en.md``, ``de.md``, ``zh_TW.md``: each written from the rulebooks, not
translated word by word), read when the help is shown.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from paris_tui.app.terminal.linebreak import has_wide, wrap_paragraphs

from ...i18n import DEFAULT_LANGUAGE, N_, _, current_language
from .base import TranslatedBindings

__all__ = ["HELP_DIR", "HELP_TEXT", "HelpScreen", "help_path", "help_text"]

HELP_DIR = Path(__file__).resolve().parent.parent / "help"


def help_path(language: str) -> Path:
    """The help file of ``language`` (a tag such as ``zh-TW``): ``help/zh_TW.md``."""
    return HELP_DIR / f"{language.replace('-', '_')}.md"


@cache
def help_text(language: str) -> str:
    """The help of ``language``; English where a language has none."""
    path = help_path(language)
    if not path.is_file():
        path = help_path(DEFAULT_LANGUAGE)
    return path.read_text(encoding="utf-8")


HELP_TEXT = help_text(DEFAULT_LANGUAGE)


class HelpScreen(TranslatedBindings, ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", N_("Close")),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.language = current_language()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(help_text(self.language), id="help-text")
            yield Static(_("Esc closes"), id="help-hint")

    def language_changed(self) -> None:
        """Show the help of the language now chosen."""
        self.language = current_language()
        self._wrapped_at = 0
        for markdown in self.query("#help-text").results(Markdown):
            markdown.update(help_text(self.language))
        for hint in self.query("#help-hint").results(Static):
            hint.update(_("Esc closes"))
        self.call_after_refresh(self._break_lines)

    _wrapped_at = 0

    def on_mount(self) -> None:
        self.call_after_refresh(self._break_lines)

    def on_resize(self) -> None:
        self.call_after_refresh(self._break_lines)

    def _break_lines(self) -> None:
        """Chinese paragraphs broken by the East Asian rules at the width they are drawn at
        (no line starts with ``；``; ``1 分`` and ``（B Y R P G）`` stay whole): hard
        breaks in the Markdown, made again when the width changes."""
        text = help_text(self.language)
        if not has_wide(text):
            return
        for markdown in self.query("#help-text").results(Markdown):
            width = markdown.content_region.width  # a paragraph's: no margin at its sides
            if width <= 0 or width == self._wrapped_at:
                return
            self._wrapped_at = width
            markdown.update(wrap_paragraphs(text, width))

    def action_close(self) -> None:
        self.dismiss(None)
