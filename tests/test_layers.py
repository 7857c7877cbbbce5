"""The house's plan, kept: layers that import downwards only, no import cycles, rooms of
a size a reader can walk through, and comments that speak of the code.

The imports are read from the source with :mod:`ast`, every one of them: at the top of
a module, inside functions, under ``TYPE_CHECKING``. CONTRIBUTING.md ("Layers") is the
table this test keeps.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "paris_tui"

LAYERS: tuple[tuple[str, ...], ...] = (
    # 0: the rules and the machinery of words
    ("paris_tui", "paris_tui.core", "paris_tui.i18n", "paris_tui.trace"),
    # 1: words and choices shared by every front end, below the network
    ("paris_tui.variants", "paris_tui.glyph_sets", "paris_tui.wording", "paris_tui.argparse_words"),
    # 2: the opponents and the wire
    ("paris_tui.ai", "paris_tui.net"),
    # 3: the referee server, its stores and its services
    ("paris_tui.host",),
    # 4: the two front ends
    ("paris_tui.app", "paris_tui.reader"),
    # 5: what runs a front end for a remote player
    ("paris_tui.doors",),
    # 6: the command line
    ("paris_tui.cli", "paris_tui.__main__"),
)
"""The layers, lowest first: a module may import its own layer or a lower one."""

MAX_MODULE_LINES = 800
MAX_CLASS_LINES = 500


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The layer of ``module``: that of the longest prefix named in :data:`LAYERS`."""
    best, best_len = -1, -1
    for number, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            # The package itself (its __init__) is one module, not a prefix of every other.
            inside = prefix != "paris_tui" and module.startswith(prefix + ".")
            if (module == prefix or inside) and len(prefix) > best_len:
                best, best_len = number, len(prefix)
    if best < 0:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS and CONTRIBUTING.md")
    return best


def _known(name: str) -> str:
    """The module ``name`` stands for: itself, or the package or module that holds it."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def imports_of(module: str) -> Iterator[tuple[str, int]]:
    """Each paris_tui module that ``module`` imports, with the line it does so on."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "paris_tui":
                    yield _known(alias.name), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            if source.split(".")[0] != "paris_tui":
                continue
            for alias in node.names:
                # ``from pkg import mod`` imports the module ``pkg.mod``.
                submodule = f"{source}.{alias.name}"
                yield (submodule if submodule in MODULES else _known(source)), node.lineno


GRAPH: dict[str, set[str]] = {
    module: {target for target, _ in imports_of(module) if target != module} for module in MODULES
}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_every_module_has_a_layer() -> None:
    for module in MODULES:
        layer_of(module)


def test_no_import_cycles() -> None:
    found = cycles(GRAPH)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_imports_point_down_the_layers() -> None:
    wrong = [
        f"{MODULES[module].relative_to(PACKAGE.parent)}:{line}: {module} (layer "
        f"{layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module in MODULES
        for target, line in imports_of(module)
        if layer_of(target) > layer_of(module)
    ]
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("module", "target", "allowed"),
    [
        ("paris_tui.host.server", "paris_tui.core.game", True),
        ("paris_tui.app.app", "paris_tui.reader.say", True),
        ("paris_tui.host.server", "paris_tui.app.app", False),
        ("paris_tui.core.game", "paris_tui.net.protocol", False),
        ("paris_tui.doors.ssh", "paris_tui.cli", False),
    ],
)
def test_the_layer_rule(module: str, target: str, allowed: bool) -> None:
    assert (layer_of(target) <= layer_of(module)) is allowed


def test_no_module_is_too_long() -> None:
    long = {
        name: n
        for name, path in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_class_is_too_long() -> None:
    long = {
        f"{name}.{node.name}": (node.end_lineno or node.lineno) - node.lineno + 1
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_CLASS_LINES
    }
    assert not long, f"classes over {MAX_CLASS_LINES} lines: {long}"


ISSUE_REFERENCE = re.compile(r"\bissues? ?#?\d+", re.IGNORECASE)


def test_no_comment_cites_an_issue() -> None:
    """A reader of the code has no issue tracker: comments say what and why."""
    cited = [
        f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}"
        for path in MODULES.values()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ISSUE_REFERENCE.search(line)
    ]
    assert not cited, "lines that cite an issue:\n" + "\n".join(cited)


def test_the_issue_pattern() -> None:
    assert ISSUE_REFERENCE.search("# issue 22: chat")
    assert ISSUE_REFERENCE.search("lines kept (Issue 21)")
    assert not ISSUE_REFERENCE.search("the issues of a table")
