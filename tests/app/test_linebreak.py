"""East Asian line breaking where the app wraps Chinese (issue 18.12): no line starts with
closing punctuation, a number stays with its unit, a letter list in parentheses is whole."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest
from rich.console import Console
from rich.text import Text

from paris_tui import i18n
from paris_tui.app.screens.help import help_text
from paris_tui.app.screenshots import build_session
from paris_tui.app.terminal.linebreak import NO_START, EastAsianText, break_offsets, wrap_paragraphs

from .helpers import make_app, press, screen_text


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _lines(text: str, width: int) -> list[str]:
    cuts = [0, *break_offsets(text, width), len(text)]
    return [text[a:b].strip() for a, b in itertools.pairwise(cuts)]


def _check(lines: list[str]) -> None:
    for line in lines[1:]:
        assert line[:1] not in NO_START, lines
    for before, after in itertools.pairwise(lines):
        assert not (before[-1:].isdigit() and after[:1] in "分家步張位場秒格"), lines
        assert not (before.endswith(("（", "「"))), lines


def test_the_rules() -> None:
    help_line = "玩家用符號區分（● ▲ ■ ◆），路線用字母區分（B Y R P G），不靠顏色也能玩。"
    reason = "理由：在 Opéra 開店；剩下的站牌很可能是 Louvre，讓你得 1 分"
    for width in range(16, 40):
        for text in (help_line, reason):
            lines = _lines(text, width)
            _check(lines)
            assert all(sum(2 if ord(c) > 0x2E80 else 1 for c in ln) <= width for ln in lines)
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert any("（B Y R P G）" in line for line in _lines(help_line, width))
        assert any("1 分" in line for line in _lines(reason, width))
    # A Latin word is never split, and text without wide characters breaks at spaces.
    assert _lines("Louvre，讓你", 8) == ["Louvre，", "讓你"]
    assert _lines("Gare de l'Est", 8) == ["Gare de", "l'Est"]


def test_a_rich_text_keeps_its_styles() -> None:
    text = Text("理由：在 ")
    text.append("Opéra", style="bold")
    text.append(" 開店；剩下的站牌讓你得 1 分")
    console = Console(width=14, record=True, color_system=None)
    console.print(EastAsianText(text))
    lines = console.export_text().splitlines()
    _check([line.strip() for line in lines])
    assert len(lines) >= 2


def test_markdown_paragraphs_get_hard_breaks() -> None:
    text = help_text("zh-TW")
    wrapped = wrap_paragraphs(text, 40)
    assert wrapped.count("# ") == text.count("# ")  # headings and the keys table untouched
    assert "| 按鍵 | 功能 |" in wrapped
    for block in wrapped.split("\n\n"):
        if "\\\n" in block:
            lines = [
                line.rstrip(" \\").replace("**", "").replace("`", "") for line in block.split("\n")
            ]
            _check(lines)


async def test_the_chinese_help_breaks_by_the_rules_at_80_columns() -> None:
    i18n.set_language("zh-TW")
    app = make_app(build_session("Ann,Bob", 3, 2))
    async with app.run_test(size=(80, 110)) as pilot:  # 80 columns, tall: every line shows
        await press(pilot, "enter", "f1")
        for _ in range(40):
            await pilot.pause(0.05)
        shown = screen_text(app)
    lines = [re.sub(r"^[\s┃│|]+|[\s┃│|▊▎▁▔]+$", "", line) for line in shown.splitlines()]
    lines = [line for line in lines if line]
    # The paragraphs (the keys table has its own columns).
    body = [line for line in lines if re.search(r"[\u4e00-\u9fff]", line) and "│" not in line]
    assert any("（B Y R P G）" in line for line in body), "\n".join(body)
    for line in body:
        assert line[:1] not in NO_START, line
    assert sum(line.count("1 分") for line in body) == help_text("zh-TW").count("1 分")
