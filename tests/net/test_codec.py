"""msgspec's part: a line is written byte for byte as Python's json wrote it, and the
core's values' forms declare the core's fields."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from paris_tui.net.wire import EVENT_FORMS, ViewForm, json_bytes

# Any character, lone surrogates (JSON's "\ud800") and DEL included.
TEXT = st.text(st.characters(exclude_categories=()), max_size=12)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-05, 3.2e-05, 1e-07, 1e16, -1.5e-10, 0.0001, 86400.0, -0.0])
    | TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=16,
)


def _python(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii")


@settings(max_examples=500, deadline=None)
@given(JSON)
def test_a_value_is_written_as_python_s_json_writes_it(value: Any) -> None:
    assert json_bytes(value) == _python(value)


def test_characters_past_ascii_and_del_are_escaped_as_python_escapes_them() -> None:
    for text in ("é", "\x7f", "\x1b[2J", "\u2028", "王", "\U0001f642", "a\ud800b", '"\\/'):
        assert json_bytes(text) == _python(text), text


def test_each_event_form_has_its_core_event_s_fields_in_order() -> None:
    for form, core in EVENT_FORMS.items():
        assert form.__struct_fields__ == tuple(f.name for f in dataclasses.fields(core))


def test_the_view_form_has_the_seat_view_s_fields_in_order() -> None:
    from paris_tui.core import SeatView

    assert ViewForm.__struct_fields__ == tuple(f.name for f in dataclasses.fields(SeatView))
