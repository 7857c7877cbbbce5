"""The one rule for outside text (core/text.py), driven by the hostile corpus (issue 7)."""

from __future__ import annotations

import itertools
import unicodedata

import pytest
from hostile_corpus import CORPUS, REFUSED, SHOWN, Case
from rich.cells import cell_len

from paris_tui.core import (
    MAX_NAME_CELLS,
    Game,
    InvalidNameError,
    ParisError,
    cell_width,
    check_table_names,
    normalize_name,
    printable,
)
from paris_tui.core.text import MAX_NAME_CHARS, MAX_STACKED_MARKS

NOT_TEXT = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _ids(cases: tuple[Case, ...]) -> list[str]:
    return [c.label for c in cases]


def _holds_raw_non_text(text: str) -> bool:
    return any(unicodedata.category(ch) in NOT_TEXT for ch in text)


# --- the corpus ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", SHOWN, ids=_ids(SHOWN))
def test_corpus_accepted_names_are_normalised_as_the_corpus_says(case: Case) -> None:
    assert normalize_name(case.text) == case.shown


@pytest.mark.parametrize("case", REFUSED, ids=_ids(REFUSED))
def test_corpus_refused_names_are_refused_in_plain_words(case: Case) -> None:
    with pytest.raises(InvalidNameError) as caught:
        normalize_name(case.text)
    message = str(caught.value)
    assert message == caught.value.problem
    assert message.startswith("the name ")
    assert not _holds_raw_non_text(message), "the message echoes a character raw"
    assert len(message) < 120
    # The offending character is named by its code point.
    bad = [ch for ch in case.text[:1000] if unicodedata.category(ch) in NOT_TEXT]
    if bad and len(case.text) <= 100:
        assert f"U+{ord(bad[0]):04X}" in message


def test_corpus_covers_every_kind_of_hostile_text() -> None:
    labels = " ".join(c.label for c in CORPUS)
    for kind in ("markup", "OSC", "CSI", "C1", "bidi", "zero-width", "1 MB", "multi-line"):
        assert kind in labels
    assert len(REFUSED) >= 30 and len(SHOWN) >= 15


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ann\x1b[2J", "control character (U+001B)"),
        ("\u202eevil", "formatting character (U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ("Ann\u2029", "paragraph separator (U+2029"),
        ("Ann\ud800", "surrogate"),
        ("Ann\ue000", "private-use character (U+E000)"),
        ("Ann\U000e0001", "formatting character (U+E0001 LANGUAGE TAG)"),
        ("Ann\U0010fffe", "unassigned code point (U+10FFFE)"),
        ("\u3164", "invisible filler character (U+3164 HANGUL FILLER)"),
        ("Ann\u0085", "control character (U+0085)"),
        ("", "blank"),
        ("\u0301", "nothing visible"),
        ("E" * 21, "21 cells wide; at most 20"),
        ("王" * 11, "22 cells wide; at most 20, wide characters count two"),
        ("a" + "\u0301" * 61, "61 characters; at most 60"),
        ("Za\u0334\u0335\u0336\u0337", "4 marks on one character; at most 3"),
    ],
)
def test_each_refusal_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InvalidNameError) as caught:
        normalize_name(text)
    assert words in str(caught.value)


def test_a_huge_name_is_refused_for_its_length_before_it_is_scanned() -> None:
    # A control character far inside a 1 MB string: refused for the length alone,
    # which proves the length is checked before any character is looked at.
    huge = "A" * 500_000 + "\x1b" + "A" * 500_000
    with pytest.raises(InvalidNameError, match="too long"):
        normalize_name(huge)
    with pytest.raises(InvalidNameError, match="too long"):
        normalize_name(" " * 1_000_000 + "Ann")


def test_limits() -> None:
    assert MAX_NAME_CELLS == 20
    assert normalize_name("D" * MAX_NAME_CELLS) == "D" * 20
    many = "a\u0334\u0335" * MAX_NAME_CELLS  # as many code points as a name holds
    assert len(many) == MAX_NAME_CHARS and normalize_name(many) == many
    stacked = "a" + "\u0334" * MAX_STACKED_MARKS
    assert normalize_name(stacked) == stacked
    with pytest.raises(InvalidNameError, match="marks on one character"):
        normalize_name(stacked + "\u0334")
    assert normalize_name("王" * 10) == "王" * 10


def test_inner_whitespace_other_than_controls_is_kept_and_outer_is_trimmed() -> None:
    assert normalize_name("\u3000Ann\u00a0Marie\u3000") == "Ann\u00a0Marie"
    with pytest.raises(InvalidNameError, match="control character"):
        normalize_name("Ann\n")  # a trailing new line is a control character, not padding


def test_a_name_must_be_a_string() -> None:
    with pytest.raises(InvalidNameError, match="text"):
        normalize_name(42)  # type: ignore[arg-type]


def test_invalid_name_error_is_a_paris_error_and_a_value_error() -> None:
    with pytest.raises(ParisError):
        normalize_name("")
    with pytest.raises(ValueError):
        normalize_name("")


# --- a table --------------------------------------------------------------------------------


def test_table_names_are_normalised() -> None:
    assert check_table_names([" Ann ", "Zoe\u0308", "王"]) == ("Ann", "Zoë", "王")


@pytest.mark.parametrize(
    ("names", "seat", "words"),
    [
        (["Ann", "Ann"], 1, "two seats are called Ann"),
        (["Ann", "Bob", "ANN"], 2, "two seats are called Ann and ANN: names must differ"),
        (["Straße", "STRASSE"], 1, "two seats are called Straße and STRASSE"),
        (["Zo\u00eb", "Zoe\u0308"], 1, "two seats are called Zoë"),
        (["Ann", "  Ann"], 1, "two seats are called Ann"),
        (["Ann", "Bob", "Cy", "a\x1bb"], 3, "control character (U+001B)"),
    ],
)
def test_table_names_refusals_name_the_seat(names: list[str], seat: int, words: str) -> None:
    with pytest.raises(InvalidNameError) as caught:
        check_table_names(names)
    assert caught.value.seat == seat
    assert words in caught.value.problem
    assert str(caught.value).startswith(f"seat {seat + 1}: ")


# --- cells ------------------------------------------------------------------------------------

REAL_NAMES = (
    "Ann",
    "Zoë",
    "Aurélie",
    "王小明",
    "山田太郎",
    "김민수",
    "Ｆｕｌｌ",
    "ｶﾀｶﾅ",
    "नमस्ते",
    "தமிழ்",
    "ไทย",
    "Ελένη",
    "Ёлка",
    "שרה",
    "مریم",
    "🙂 Ann",
    "❤️ Bo",
    "👍🏽",
    "☃",
    "[red]x[/]",
)


@pytest.mark.parametrize("text", [c.shown for c in SHOWN] + list(REAL_NAMES))
def test_cell_width_agrees_with_rich(text: str) -> None:
    assert cell_width(text) == cell_len(text, "latest")


def test_cell_width_agrees_with_rich_on_every_character_a_name_may_hold() -> None:
    """Every accepted code point of the multilingual and the emoji planes, alone between letters.

    The one known difference is U+FE0F (emoji presentation) after a letter that has no
    emoji form: the core counts the cell, Rich does not; the core errs on the wide side.
    """
    planes = [*range(0x20, 0x10000), *range(0x1F000, 0x1FB00), *range(0x20000, 0x20100)]
    differ = []
    for code in planes:
        if code == 0xFE0F:
            continue
        try:
            text = normalize_name(f"a{chr(code)}a")
        except InvalidNameError:
            continue
        if cell_width(text) != cell_len(text, "latest"):
            differ.append(f"U+{code:04X}")
    assert differ == []
    assert cell_width("a\ufe0f") == 2 > cell_len("a\ufe0f", "latest")


def test_cell_width_of_controls_and_marks() -> None:
    assert cell_width("") == 0
    assert cell_width("\x1b[2J") == 3  # ESC takes no cell; "[2J" does
    assert cell_width("e\u0301") == 1
    assert cell_width("王") == 2


# --- printable ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("save.json", "save.json"),
        ("a\x1b]2;pwned\x07.json", "a\\x1b]2;pwned\\x07.json"),
        ("\x9b2J", "\\x9b2J"),
        ("evil\u202etxt.json", "evil\\u202etxt.json"),
        ("bad\udc80byte", "bad\\udc80byte"),
        ("line\nbreak\u2028", "line\\x0abreak\\u2028"),
        ("tag\U000e0041", "tag\\U000e0041"),
        ("C:\\games\\Zoë 王.json", "C:\\games\\Zoë 王.json"),
        ("nb\u00a0sp", "nb\u00a0sp"),
    ],
)
def test_printable_escapes_every_character_that_is_not_text(text: str, shown: str) -> None:
    assert printable(text) == shown


@pytest.mark.parametrize("case", CORPUS, ids=_ids(CORPUS))
def test_printable_output_holds_no_raw_control_on_the_corpus(case: Case) -> None:
    out = printable(case.text[:2000])
    assert not _holds_raw_non_text(out)
    if case.shown is not None and case.text == case.shown:
        assert out == case.text  # plain text is left alone


# --- the game applies the rule -----------------------------------------------------------------


@pytest.mark.parametrize("case", REFUSED, ids=_ids(REFUSED))
def test_game_new_refuses_every_refused_name(case: Case) -> None:
    with pytest.raises(InvalidNameError):
        Game.new(["Ann", case.text], seed=1)


def test_game_keeps_names_normalised_and_unique() -> None:
    game = Game.new(["  Ann ", "Zoe\u0308"], seed=1)
    assert game.names == ("Ann", "Zoë")
    assert game.view(0).names == ("Ann", "Zoë")
    with pytest.raises(InvalidNameError, match="two seats"):
        Game.new(["Ann", "ann"], seed=1)
    with pytest.raises(InvalidNameError, match="two seats"):
        Game.from_setup(game.setup, ["Bob", "BOB"])
    with pytest.raises(InvalidNameError, match="control character"):
        Game.from_setup(game.setup, ["Bob", "B\x1bb"])
    assert Game.from_setup(game.setup, ["Bob ", "Cy"]).names == ("Bob", "Cy")
    assert Game.new(3, seed=1).names == ("Player 1", "Player 2", "Player 3")


def test_game_new_refuses_one_string_for_the_seats() -> None:
    with pytest.raises(TypeError, match="sequence of names"):
        Game.new("AnnBob", seed=1)


def test_default_ignorable_ranges_are_ordered_and_hold_what_unicode_names_say() -> None:
    from paris_tui.core.text import DEFAULT_IGNORABLE, invisible

    # Ordered, disjoint, inside the code space.
    for (low, high), (next_low, _) in itertools.pairwise(DEFAULT_IGNORABLE):
        assert low <= high < next_low <= 0x10FFFF
    ranged = {c for low, high in DEFAULT_IGNORABLE for c in range(low, high + 1)}
    assert len(ranged) == 4174  # DerivedCoreProperties.txt 16.0.0: "Total code points: 4174"
    # Every variation selector, tag character and invisible operator Unicode names is in.
    for code in range(0x110000):
        label = unicodedata.name(chr(code), "")
        if "VARIATION SELECTOR" in label or label.startswith("TAG ") or "INVISIBLE" in label:
            assert code in ranged, label
    # Nothing a name is written with: letters, digits and marks of real writing are out.
    for code in ranged:
        category = unicodedata.category(chr(code))
        assert category in ("Cf", "Cn", "Mn", "Lo"), (hex(code), category)
    kept = [c for c in ranged if unicodedata.category(chr(c)) in ("Mn", "Lo")]
    assert sorted(kept) == [
        0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164,
        *range(0xFE00, 0xFE10), 0xFFA0, *range(0xE0100, 0xE01F0),
    ]  # fmt: skip
    assert invisible("\u2800") and not invisible("\u2801") and not invisible("a")
    assert all(invisible(chr(c)) for c in ranged)


@pytest.mark.parametrize("mark", ["\u034f", "\ufe0f", "\U000e0100", "\u180b", "\u17b4", "\u2800"])
def test_a_name_with_a_mark_that_draws_as_nothing_is_refused_and_its_skeleton_drops_it(
    mark: str,
) -> None:
    from paris_tui.host.accounts.names import skeleton

    with pytest.raises(InvalidNameError) as info:
        normalize_name("Ann" + mark)
    assert info.value.code == "control" and info.value.params["kind"] == "invisible"
    assert "draws as nothing" in str(info.value)
    assert skeleton("Ann" + mark) == skeleton("ann")
