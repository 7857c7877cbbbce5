"""Hostile text: names and other outside text an attacker (or a careless file) could supply.

Shared by the tests of every entry point (command line, new-game form, records
for resume and replay, saves met by the resume offer, and later the network).
Import it as ``from hostile_corpus import CORPUS`` (``tests/`` is on
``sys.path`` under pytest's default import mode).

Each case says what the one rule for names (rules of outside text, in the
core) must do with it: refuse it, or accept it as ``shown``, the normalised
text that the screen must then draw literally (never as markup, never as a
terminal control).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CORPUS", "ESCAPE_MARKERS", "REFUSED", "SHOWN", "Case"]


@dataclass(frozen=True)
class Case:
    label: str
    text: str
    shown: str | None  # None: refused; else the normalised name drawn literally

    @property
    def refused(self) -> bool:
        return self.shown is None


ESC = "\x1b"
BEL = "\x07"

CORPUS: tuple[Case, ...] = (
    # Rich / Textual markup: valid names, drawn literally, never interpreted.
    Case("markup colour", "[red]x[/]", "[red]x[/]"),
    Case("markup click quit", "[@click=app.quit]go", "[@click=app.quit]go"),
    Case("markup click bell", "[@click=app.bell]x", "[@click=app.bell]x"),
    Case("markup unbalanced open", "[b", "[b"),
    Case("markup lone close", "[/]", "[/]"),
    Case("markup link", "[link=http://x]a[/]", "[link=http://x]a[/]"),
    Case("markup bold", "[b]Bob[/b]", "[b]Bob[/b]"),
    Case("markup escaped", r"\[b]x", r"\[b]x"),
    Case("markup variable", "$text-muted", "$text-muted"),
    Case("markup braces", "{name}%s", "{name}%s"),
    # Too long once the action is spelled out: refused for its length.
    Case("markup screenshot", "[@click=app.screenshot('victim.txt','D')]Bob", None),
    # Terminal control sequences: refused (control characters of any kind).
    Case("OSC 52 clipboard", f"{ESC}]52;c;cHduZWQ={BEL}", None),
    Case("OSC 2 title", f"{ESC}]2;pwned{ESC}\\", None),
    Case("OSC 8 hyperlink", f"{ESC}]8;;http://x{ESC}\\a{ESC}]8;;{ESC}\\", None),
    Case("CSI clear screen", f"{ESC}[2J", None),
    Case("CSI colour", f"{ESC}[31mred", None),
    Case("C1 CSI byte", "\x9b2J", None),
    Case("C1 OSC byte", "\x9d2;t\x9c", None),
    Case("DEL", "a\x7fb", None),
    Case("NUL", "a\x00b", None),
    Case("BEL", f"a{BEL}", None),
    Case("tab", "a\tb", None),
    Case("multi-line", "Ann\nBob", None),
    Case("carriage return", "Ann\rBob", None),
    Case("line separator", "Ann\u2028Bob", None),
    # Bidi overrides and other invisible format characters: refused.
    Case("bidi RLO", "\u202eevil", None),
    Case("bidi isolate", "\u2066x\u2069", None),
    Case("bidi RLM", "Ann\u200f", None),
    Case("zero-width space", "A\u200bnn", None),
    Case("zero-width joiner emoji", "\U0001f468\u200d\U0001f469", None),
    Case("word joiner", "Ann\u2060", None),
    Case("byte order mark", "\ufeffAnn", None),
    Case("lone surrogate", "Ann\ud800", None),
    Case("private use", "Ann\ue000", None),
    # Default-ignorable code points, variation selectors and blank-looking letters: a
    # name that draws exactly as another's ("Ann" and "Ann" + an invisible mark).
    Case("combining grapheme joiner", "Ann\u034f", None),
    Case("emoji variation selector", "ann\ufe0f", None),
    Case("variation selector 1", "a\ufe00nn", None),
    Case("variation selector 17", "ann\U000e0100", None),
    Case("Mongolian free variation selector", "ann\u180b", None),
    Case("Mongolian vowel separator", "ann\u180e", None),
    Case("Khmer inherent vowel AQ", "ann\u17b4", None),
    Case("Khmer inherent vowel AA", "ann\u17b5", None),
    Case("braille blank", "ann\u2800", None),
    Case("tag letter", "ann\U000e0061", None),
    Case("cancel tag", "ann\U000e007f", None),
    Case("Arabic letter mark", "ann\u061c", None),
    Case("musical beam", "ann\U0001d173", None),
    Case("shorthand format", "ann\U0001bca0", None),
    Case("soft hyphen", "an\u00adn", None),
    Case("Hangul filler", "ann\u3164", None),
    # Blank, long, huge: refused.
    Case("empty", "", None),
    Case("blank", "   ", None),
    Case("ideographic space only", "\u3000", None),
    Case("200 characters", "B" * 200, None),
    Case("1 MB", "A" * 1_000_000, None),
    Case("21 cells", "C" * 21, None),
    Case("11 wide characters (22 cells)", "王" * 11, None),
    # Combining marks piled on one character ("Zalgo"): drawn over the lines around it.
    Case("stacked marks", "Z\u0351\u0354\u0345\u0317a\u0300\u0316\u0333lgo", None),
    # Accepted, normalised: surrounding spaces trimmed, NFC.
    Case("padded", "  Ann  ", "Ann"),
    Case("decomposed accent", "Zoe\u0308", "Zo\u00eb"),
    Case("20 cells", "D" * 20, "D" * 20),
    Case("10 wide characters (20 cells)", "王" * 10, "王" * 10),
    Case("wide CJK", "王小明", "王小明"),
    Case("emoji", "\U0001f642 Ann", "\U0001f642 Ann"),
    Case("accents", "Aurélie", "Aurélie"),
    Case("inner spaces", "Ann Marie", "Ann Marie"),
    Case("quotes and backslash", 'O\'Brien \\ "x"', 'O\'Brien \\ "x"'),
    # Marks that real writing stacks (at most three on a character): kept.
    Case("Vietnamese", "Nguye\u0302\u0303n", "Nguy\u1ec5n"),
    Case("Thai tone and vowel marks", "\u0e17\u0e35\u0e48", "\u0e17\u0e35\u0e48"),
    Case("Devanagari", "\u0915\u094d\u0937\u093f", "\u0915\u094d\u0937\u093f"),
    Case("Thai name", "\u0e2a\u0e21\u0e0a\u0e32\u0e22", "\u0e2a\u0e21\u0e0a\u0e32\u0e22"),
    Case(
        "Vietnamese full name",
        "Tr\u1ea7n V\u0103n \u0110\u1ee9c",
        "Tr\u1ea7n V\u0103n \u0110\u1ee9c",
    ),
    Case("Devanagari name", "\u0905\u0928\u093f\u0924\u093e", "\u0905\u0928\u093f\u0924\u093e"),
    Case("Japanese kana", "\u3055\u304f\u3089", "\u3055\u304f\u3089"),
    Case("Korean syllables", "\ubbfc\uc900", "\ubbfc\uc900"),
    Case("Khmer name", "\u179f\u17bb\u1781\u17b6", "\u179f\u17bb\u1781\u17b6"),
    Case("three marks on one letter", "a\u0334\u0335\u0336", "a\u0334\u0335\u0336"),
)

REFUSED = tuple(c for c in CORPUS if c.refused)
SHOWN = tuple(c for c in CORPUS if not c.refused)

# Byte sequences that must never reach the terminal from outside text. The app
# itself writes CSI sequences (colours, cursor moves), so tests look for the
# payloads above rather than for every ESC: these strings occur only if a name
# leaked through unescaped.
ESCAPE_MARKERS: tuple[bytes, ...] = (
    b"\x1b]52;",
    b"\x1b]2;pwned",
    b"\x1b]8;;http://x",
    b"pwned",
    b"cHduZWQ=",
    b"\xc2\x9b2J",
    b"\xc2\x9d2;t",
)
