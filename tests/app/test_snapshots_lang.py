"""Snapshots of the main screens in German and Traditional Chinese, and in the ascii glyphs.

The README's pictures (``python -m paris_tui.app.screenshots``) show Chinese as
wide as the terminal shows it.
"""

from __future__ import annotations


def test_screenshots_widen_chinese_text_to_its_cells() -> None:
    """Rich's SVG gives a run of text one cell per character: the README's pictures
    stretch a Chinese run to its two cells a character, and leave ASCII runs alone."""
    from paris_tui.app.screenshots import widen_text

    def run(length: str, text: str) -> str:
        return (
            f'<text class="r1" x="0" y="0" textLength="{length}" clip-path="url(#a)">{text}</text>'
        )

    # Cells of 12.2: "Ann " is 4 cells; "遊戲結束" 4 characters in 8 cells; "袋子 " 5 cells.
    svg = run("48.8", "Ann ") + run("48.8", "遊戲結束") + run("36.6", "袋子&#160;")
    assert widen_text(svg) == run("48.8", "Ann ") + run("97.6", "遊戲結束") + run(
        "61", "袋子&#160;"
    )
    assert widen_text(widen_text(svg)) == widen_text(svg)
    english = run("48.8", "Ann ") + run("48.8", "Game")
    assert widen_text(english) == english
