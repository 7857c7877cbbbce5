"""The examples in the core's docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import paris_tui.core

SUBMODULES = sorted(m.name for m in pkgutil.iter_modules(paris_tui.core.__path__))
MODULES = ["paris_tui.core", *(f"paris_tui.core.{name}" for name in SUBMODULES)]


def test_every_core_module_is_listed() -> None:
    assert {"board", "game", "record", "view", "sampling", "analysis", "events", "errors"} <= {
        name.rsplit(".", 1)[-1] for name in MODULES
    }


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_the_main_modules_have_examples() -> None:
    for name in ("board", "game", "record", "view", "sampling"):
        module = importlib.import_module(f"paris_tui.core.{name}")
        finder = doctest.DocTestFinder()
        assert any(t.examples for t in finder.find(module)), f"no doctest in {name}"
