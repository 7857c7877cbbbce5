"""The project's documents stand on their own.

- Every rules id cited in the code, the tests and the documents (``R5``,
  ``R3.2``, ``C1``) is defined in ``docs/rules.md``, and each step id sits
  under its own section, in its place.
- No file of the repository names a path outside it: not a sibling folder of
  the checkout, not a folder of one machine. The repository is read from a
  clean clone (CI, a release) where none of those exist.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

# A rules id: a section (R1), a step of one (R3.2) or a clarification (C1).
CITED = re.compile(r"(?<![\w.#])(R\d+(?:\.\d+)?|C\d+)(?!\w)")
# "C0"/"C1" also name the Unicode control-character sets: not rules there.
CONTROL_SETS = re.compile(r"control|CSI|OSC|U\+", re.IGNORECASE)
# Where docs/rules.md defines them: a heading "## R5 ..." / "### C1 ...", or a
# numbered step "1. **R3.1 ...".
HEADING = re.compile(r"^#{2,3} (R\d+|C\d+)\b", re.MULTILINE)
STEP = re.compile(r"^\s*(\d+)\. \*\*(R(\d+)\.(\d+))\b", re.MULTILINE)

# Text files only; the snapshot and screenshot SVGs are drawings, not text.
TEXT_SUFFIXES = {".py", ".md", ".tcss", ".toml", ".json", ".txt", ".cfg", ".yml", ".yaml", ""}
SKIP_DIRS = {".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def repo_files() -> list[Path]:
    """The repository's files: tracked and new ones (git), or the tree without git."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        names = sorted({n for n in out.decode("utf-8").split("\0") if n})
        return [ROOT / n for n in names if (ROOT / n).is_file()]
    except (OSError, subprocess.CalledProcessError):
        return sorted(
            p
            for p in ROOT.rglob("*")
            if p.is_file() and not SKIP_DIRS.intersection(p.relative_to(ROOT).parts)
        )


def text_files() -> list[Path]:
    return [p for p in repo_files() if p.suffix in TEXT_SUFFIXES]


def defined_ids() -> set[str]:
    text = RULES.read_text(encoding="utf-8")
    ids = set(HEADING.findall(text))
    ids.update(m.group(2) for m in STEP.finditer(text))
    return ids


CITING_DIRS = ("paris_tui/", "tests/", "docs/", "benchmarks/", "scripts/")


def citations() -> dict[str, list[str]]:
    """Each rules id cited outside docs/rules.md -> where (file:line)."""
    found: dict[str, list[str]] = {}
    for path in text_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel == "docs/rules.md" or not (
            rel.startswith(CITING_DIRS) or rel in ("README.md", "CONTRIBUTING.md")
        ):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule in CITED.findall(line):
                if rule.startswith("C") and CONTROL_SETS.search(line):
                    continue
                found.setdefault(rule, []).append(f"{rel}:{number}")
    return found


def test_the_rules_define_the_sections_and_clarifications() -> None:
    ids = defined_ids()
    expected = {f"R{i}" for i in range(1, 9)} | {"C1", "C2"}
    assert expected <= ids


def test_each_step_sits_in_its_section_in_its_place() -> None:
    """``R3.2`` is the second numbered step under ``## R3``."""
    section = None
    for line in RULES.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^## (R\d+)\b", line)
        if heading:
            section = heading.group(1)
        step = STEP.match(line)
        if step:
            position, rule, major, minor = step.groups()
            assert section == f"R{major}", f"{rule} is under {section}"
            assert position == minor, f"{rule} is step {position} of {section}"


def test_every_cited_rule_is_defined() -> None:
    cited = citations()
    assert {"R1", "R5", "R8", "C1", "C2", "R3.2", "R7.3"} <= cited.keys()  # the scan works
    missing = {rule: where for rule, where in cited.items() if rule not in defined_ids()}
    assert not missing, f"cited but not defined in docs/rules.md: {missing}"


def test_the_variants_are_documented() -> None:
    text = RULES.read_text(encoding="utf-8")
    for mode in ("both-lines", "tile-line", "secret", "all-lines"):
        assert f"`{mode}`" in text


# The patterns are assembled so that this file does not hold them itself.
OUTSIDE_PATHS = [
    re.compile(re.escape("..") + r"[/\\]shared\b"),  # a sibling folder of the checkout
    re.compile("/" + "work/"),
    re.compile(r"/(?:home|Users)/[A-Za-z0-9._-]+/"),
    re.compile("/" + r"root/"),
    re.compile(r"\b[A-Za-z]:\\\\?(?:Users|home)\\", re.IGNORECASE),
]


@pytest.mark.parametrize(
    "sample",
    [
        "see ../" + "shared/rules/rules.md",
        "Repo: /" + "work/main",
        "/home/" + "ann/paris-tui",
        "C:\\" + "Users\\ann\\paris",
    ],
)
def test_outside_path_patterns_catch(sample: str) -> None:
    assert any(p.search(sample) for p in OUTSIDE_PATHS)


def test_no_file_names_a_path_outside_the_repository() -> None:
    files = text_files()
    assert any(p.name == "README.md" for p in files)  # the scan sees the repository
    hits = []
    for path in files:
        if path.suffix == ".svg":
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if any(p.search(line) for p in OUTSIDE_PATHS):
                hits.append(f"{path.relative_to(ROOT).as_posix()}:{number}: {line.strip()}")
    assert not hits, "paths outside the repository:\n" + "\n".join(hits)


def test_the_readmes_hosts_on_one_database_can_run_side_by_side() -> None:
    """Issue 17 follow-up: the README's second host on the same machine failed with
    "another paris-tui host is serving from ...": each host holds its data directory
    (and keeps its SSH host key there), so each needs its own, and its own ports."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("**Several hosts on one PostgreSQL database.**", 1)[1]
    block = block.split("```", 2)[1]
    hosts = [
        line.split("#", 1)[0].split()
        for line in block.splitlines()
        if line.startswith("paris-tui host --database")
    ]
    assert len(hosts) >= 2, block

    def option(words: list[str], name: str) -> str | None:
        return words[words.index(name) + 1] if name in words else None

    for name in ("--data-dir", "--port", "--ssh-port"):
        values = [option(words, name) for words in hosts]
        assert None not in values and len(set(values)) == len(values), (name, values)
