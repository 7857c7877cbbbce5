"""Stylesheets parsed once, in a door's fork server, for every app it forks.

Each app parses the CSS of its stylesheets and of every widget it shows
(Textual's ``DEFAULT_CSS``): a fifth of a forked app's CPU time to its first
frame. The fork server (doors/zygote.py) calls :func:`prefill` once: every
source an app may read is parsed there with the default theme's variables,
and kept. An app made afterwards (a forked child) takes a
:class:`SharedStylesheet` (:func:`shared_stylesheet`) that finds those
parsed rules instead of parsing again; a source it does not find, or other
variables (another theme), it parses as Textual does. Nothing is kept in a
process that did not call :func:`prefill` (a player's own ``paris-tui``).

Debt: this overrides Textual's private ``Stylesheet._parse_rules`` and calls
``DOMNode._css_bases`` and ``DOMNode._get_default_css``. Textual 8.2.8 has
no public way to share parsed rules between stylesheets: ``Stylesheet.copy``
copies the sources only (each copy parses them again), ``add_source`` and
``parse`` parse whatever is not parsed yet in that stylesheet, and its parse
cache is per stylesheet. tests/app/test_warm_up.py
draws a screen with and without the shared rules; should Textual change these,
the fork server fails to start (the host says so) and the apps start by exec.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from paris_tui.app.start.resources import LAST_TIE_BREAKER, css_paths, last_css_path

if TYPE_CHECKING:
    from textual.css.model import RuleSet

__all__ = ["SharedStylesheet", "prefill", "prefilled", "shared_stylesheet"]

_PARSED: dict[tuple[Any, ...], list[RuleSet]] = {}
_VARIABLES: dict[tuple[tuple[str, str], ...], None] = {}


def _variables_key(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(variables.items()))


class SharedStylesheet(Stylesheet):
    """A stylesheet that takes the rules :func:`prefill` parsed, when it has them."""

    def __init__(self, *, variables: dict[str, str]) -> None:
        super().__init__(variables=variables)
        self._shared_key = _variables_key(variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._shared_key = _variables_key(variables)

    def _parse_rules(
        self,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        found = _PARSED.get(
            (self._shared_key, css, read_from, is_default_rules, tie_breaker, scope)
        )
        if found is not None:
            return found
        return super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)


def prefilled() -> bool:
    """Did this process :func:`prefill` (a fork server, or an app it forked)? Asked before
    an app makes the variables :func:`shared_stylesheet` wants (a theme's, which take a
    while): a player's own ``paris-tui`` makes none for nothing."""
    return bool(_VARIABLES)


def shared_stylesheet(variables: dict[str, str]) -> SharedStylesheet | None:
    """A stylesheet for a new app, or None when nothing was prefilled for ``variables``."""
    if _variables_key(variables) not in _VARIABLES:
        return None
    return SharedStylesheet(variables=variables)


def _subclasses(cls: type[DOMNode]) -> list[type[DOMNode]]:
    found: list[type[DOMNode]] = []
    todo = [cls]
    while todo:
        each = todo.pop()
        found.append(each)
        todo.extend(each.__subclasses__())
    return found


def prefill(variables: dict[str, str]) -> int:
    """Parse every stylesheet of the app and the ``DEFAULT_CSS`` of every widget class
    imported so far, with ``variables``; keep them for the apps made later. Returns how
    many sources were parsed."""
    sheet = Stylesheet(variables=variables)
    key = _variables_key(variables)
    sources: set[tuple[Any, ...]] = set()
    last = last_css_path()
    for path in css_paths():
        text = open(path, encoding="utf-8").read()  # noqa: SIM115 - read once
        tie = LAST_TIE_BREAKER if last is not None and str(path) == str(last) else 0
        sources.add((text, (str(path), ""), False, tie, ""))
    for cls in _subclasses(DOMNode):
        node = SimpleNamespace(_node_bases=cls._css_bases(cls))
        for read_from, css, tie_breaker, scope in DOMNode._get_default_css(node):  # type: ignore[arg-type]
            sources.add((css, read_from, True, tie_breaker, scope))
    for css, read_from, is_default, tie, scope in sources:
        try:
            rules = sheet._parse_rules(css, read_from, is_default, tie, scope)
        except Exception:
            continue
        _PARSED[(key, css, read_from, is_default, tie, scope)] = rules
    _VARIABLES[key] = None
    return len(sources)
