"""The shell scripts a newcomer types first: ``scripts/play`` and ``scripts/test``.

Running the real scripts would build a virtual environment (slow), so each test
copies the scripts into a scratch repository whose ``.venv`` holds stubs: a
``python`` that only logs its arguments (so a pip call shows in the log) and a
``paris-tui`` that prints what it was given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ("_venv.sh", "play", "test")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _stub(path: Path, body: str) -> None:
    path.write_text("#!/usr/bin/env bash\n" + body + "\n", encoding="utf-8")
    path.chmod(0o755)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A scratch repository: the real scripts, a pyproject.toml, a stub .venv."""
    (tmp_path / "scripts").mkdir()
    for name in SCRIPTS:
        shutil.copy2(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "python-calls.log"
    _stub(bin_dir / "python", f'echo "$*" >> "{log}"')
    _stub(bin_dir / "pip", "exit 0")
    _stub(bin_dir / "paris-tui", 'printf "paris-tui got:"; printf " <%s>" "$@"; echo')
    return tmp_path


def _stamp(repo: Path, name: str, *, fresh: bool) -> None:
    stamp = repo / ".venv" / name
    stamp.touch()
    past = time.time() - 3600
    if fresh:  # pyproject.toml older than the stamp
        os.utime(repo / "pyproject.toml", (past, past))
    else:
        os.utime(stamp, (past, past))


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", *args], cwd=repo, capture_output=True, text=True, timeout=60, check=False
    )


def _pip_calls(repo: Path) -> list[str]:
    log = repo / "python-calls.log"
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


@pytest.mark.parametrize("name", SCRIPTS)
def test_scripts_parse(name: str) -> None:
    result = subprocess.run(
        ["bash", "-n", str(ROOT / "scripts" / name)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["play", "--players", "Ann,Bob", "--seed", "3"],
        ["replay", "my game.json", "--json"],
    ],
)
def test_play_passes_its_arguments_to_the_game_only(repo: Path, args: list[str]) -> None:
    """Issue 8 (broken 1): ``scripts/play --help`` ran pip with the extra ``[--help]`` and
    ``scripts/play play ...`` reinstalled with ``[play]`` before every game."""
    _stamp(repo, ".installed", fresh=True)
    result = _run(repo, "scripts/play", *args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "paris-tui got:" + "".join(f" <{a}>" for a in args)
    assert _pip_calls(repo) == []
    assert sorted(p.name for p in (repo / ".venv").glob(".installed*")) == [".installed"]


def test_play_after_the_test_setup_does_not_reinstall(repo: Path) -> None:
    """A fresh install with the dev extras holds the game too."""
    _stamp(repo, ".installed-dev", fresh=True)
    result = _run(repo, "scripts/play", "--help")
    assert result.returncode == 0, result.stderr
    assert _pip_calls(repo) == []


def test_play_installs_the_game_without_extras_when_stale(repo: Path) -> None:
    _stamp(repo, ".installed", fresh=False)
    result = _run(repo, "scripts/play", "play", "--players", "Ann,Bob")
    assert result.returncode == 0, result.stderr
    installs = [c for c in _pip_calls(repo) if " -e " in c]
    assert installs == ["-m pip install --quiet --disable-pip-version-check -e ."]
    assert sorted(p.name for p in (repo / ".venv").glob(".installed*")) == [".installed"]


def test_venv_with_dev_extras_when_stale(repo: Path) -> None:
    _stamp(repo, ".installed-dev", fresh=False)
    result = _run(repo, "scripts/_venv.sh", "dev")
    assert result.returncode == 0, result.stderr
    installs = [c for c in _pip_calls(repo) if " -e " in c]
    assert installs == ["-m pip install --quiet --disable-pip-version-check -e .[dev]"]


def test_venv_refuses_an_unknown_extra(repo: Path) -> None:
    _stamp(repo, ".installed", fresh=True)
    result = _run(repo, "scripts/_venv.sh", "--help")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "unknown extra" in result.stderr
    assert _pip_calls(repo) == []


def _fake_python(repo: Path, *, venv_works: bool) -> Path:
    """A Python 3.11.2 for ``PYTHON=``: ``-m venv DIR`` makes DIR/bin/python and, when it
    works, DIR/bin/pip; when not, it stops as Debian's python3 does without python3-venv."""
    fake = repo / "fake-python3"
    log = repo / "python-calls.log"
    made = f'echo "$*" >> "{log}"' if venv_works else "exit 0"
    pip_line = 'printf "#!/usr/bin/env bash\\nexit 0\\n" > "$3/bin/pip"; chmod +x "$3/bin/pip"'
    _stub(
        fake,
        f"""case "$1" in
  -c) case "$2" in *platform*) echo 3.11.2 ;; esac; exit 0 ;;
  -m) mkdir -p "$3/bin"
      printf '#!/usr/bin/env bash\\n{made}\\n' > "$3/bin/python"; chmod +x "$3/bin/python"
      {pip_line if venv_works else ""}
      {"exit 0" if venv_works else 'echo "ensurepip is not available" >&2; exit 1'} ;;
esac""",
    )
    return fake


def _run_with(repo: Path, python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHON": str(python)},
    )


def test_a_failed_venv_names_the_debian_package_and_leaves_nothing(repo: Path) -> None:
    """Issue 18: Debian's python3 without python3-venv makes half a venv and stops; the
    next run found .venv/bin/python and failed on a venv without pip."""
    shutil.rmtree(repo / ".venv")
    result = _run_with(repo, _fake_python(repo, venv_works=False), "scripts/_venv.sh", "dev")
    assert result.returncode == 1
    assert "apt-get install python3-venv" in result.stderr
    assert not (repo / ".venv").exists()


def test_a_venv_without_pip_is_made_again(repo: Path) -> None:
    (repo / ".venv" / "bin" / "pip").unlink()  # what the failed run above used to leave
    result = _run_with(repo, _fake_python(repo, venv_works=True), "scripts/_venv.sh", "dev")
    assert result.returncode == 0, result.stderr
    assert "has no pip" in result.stderr and "3.11.2" in result.stderr
    assert (repo / ".venv" / "bin" / "pip").exists()
    installs = [c for c in _pip_calls(repo) if " -e " in c]
    assert installs == ["-m pip install --quiet --disable-pip-version-check -e .[dev]"]


def test_venv_folder_is_chosen_by_venv(repo: Path) -> None:
    """.ci/run keeps one environment per Python it tries (VENV=DIR)."""
    result = subprocess.run(
        ["bash", "scripts/_venv.sh", "dev"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHON": str(_fake_python(repo, venv_works=True)), "VENV": "other"},
    )
    assert result.returncode == 0, result.stderr
    assert (repo / "other" / ".installed-dev").exists()
    assert not (repo / ".venv" / ".installed-dev").exists()
