"""The suite keeps out of the user's own folders (tests/user_dirs.py, tests/conftest.py).

A save file once appeared in a player's data directory while the suite ran from
a shell whose ``PARIS_TUI_DATA_DIR`` pointed there. Here a pytest session is run
as that user would run it, with the plugin, over tests that write where the app
would; and the running test's own environment is checked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from paris_tui.app.local.storage import data_dir

TESTS = Path(__file__).parent

INNER = """
import os
import subprocess
import sys
from pathlib import Path

from paris_tui.app.local.storage import data_dir


def test_an_app_saves_in_the_data_directory() -> None:
    (data_dir() / "saves").mkdir(parents=True, exist_ok=True)
    (data_dir() / "saves" / "Ann,Bob-5.json").write_text("{}")


def test_a_subprocess_saves_in_its_data_directory() -> None:
    code = (
        "from paris_tui.app.local.storage import data_dir; "
        "data_dir().mkdir(parents=True, exist_ok=True); "
        "(data_dir() / 'settings.json').write_text('{}')"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
"""

LEAK = """
import os
from pathlib import Path


def test_writes_straight_into_the_folder_it_was_told() -> None:
    Path(os.environ["LEAK_TO"]).write_text("{}")
"""


def _user(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    """A user's environment: a HOME of theirs and a PARIS_TUI_DATA_DIR of theirs."""
    home, own = tmp_path / "user-home", tmp_path / "user-data"
    home.mkdir()
    own.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "PARIS_TUI_"))}
    env.update({"HOME": str(home), "PARIS_TUI_DATA_DIR": str(own)})
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    return env, home, own


def _session(tmp_path: Path, env: dict[str, str], source: str, *plugin: str) -> str:
    test = tmp_path / "inner" / "test_inner.py"
    test.parent.mkdir(exist_ok=True)
    test.write_text(source)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            *plugin,
            "--rootdir",
            str(test.parent),
            "-c",
            os.devnull,
            str(test),
        ],
        env=env,
        cwd=test.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return f"{done.returncode}\n{done.stdout}{done.stderr}"


def _files(*folders: Path) -> list[Path]:
    return [path for folder in folders for path in folder.rglob("*") if path.is_file()]


def test_tests_run_in_a_users_shell_write_nothing_of_theirs(tmp_path: Path) -> None:
    env, home, own = _user(tmp_path)
    said = _session(tmp_path, env, INNER, "-p", "user_dirs")
    assert said.startswith("0\n"), said
    assert _files(home, own) == []


def test_a_run_that_writes_in_the_users_folders_fails_and_names_the_file(tmp_path: Path) -> None:
    env, _home, own = _user(tmp_path)
    env["LEAK_TO"] = str(own / "leak.json")
    said = _session(tmp_path, env, LEAK, "-p", "user_dirs")
    assert said.startswith("1\n"), said
    assert "user's own paris-tui folders" in said and str(own / "leak.json") in said


def test_this_test_has_folders_of_its_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = tmp_path_factory.getbasetemp().resolve()
    for name in (
        "HOME",
        "XDG_DATA_HOME",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_STATE_HOME",
        "XDG_RUNTIME_DIR",
        "PARIS_TUI_DATA_DIR",
    ):
        assert Path(os.environ[name]).resolve().is_relative_to(base), name
    assert data_dir().resolve().is_relative_to(base)
    assert [k for k in os.environ if k.startswith("PARIS_TUI_")] == ["PARIS_TUI_DATA_DIR"]


def test_the_screenshots_script_writes_nothing_in_the_users_folders(tmp_path: Path) -> None:
    """``python -m paris_tui.app.screenshots`` (the README's screenshots) runs the app,
    whose new-game screen checks that saves can be written: in a folder of its own."""
    home = tmp_path / "user-home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "PARIS_TUI_"))}
    env["HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-m", "paris_tui.app.screenshots", str(tmp_path / "out"), "new-game"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "new-game.svg").exists()
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == []
