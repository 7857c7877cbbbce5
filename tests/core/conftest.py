"""Shared fixtures of the rules-core tests (the helpers live in ``helpers.py``)."""

from __future__ import annotations

import pytest

from paris_tui.core import Board, classic_board

from .helpers import BOARD_JSON, ref_engine


@pytest.fixture(scope="session")
def board() -> Board:
    return classic_board()


@pytest.fixture(scope="session")
def ref_board() -> ref_engine.RefBoard:
    return ref_engine.load_board(BOARD_JSON)
