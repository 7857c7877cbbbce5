"""The suite never touches the user's own paris-tui folders (a pytest plugin).

A save file once appeared in a player's data directory while the suite ran
from a shell whose ``PARIS_TUI_DATA_DIR`` pointed there: a test's app had
inherited the user's environment. So, as the session starts (in every
process, an xdist worker too), this plugin notes the user's folders where
paris-tui keeps anything (:func:`watched_dirs`: ``$PARIS_TUI_DATA_DIR`` and
platformdirs' data, config, state and cache folders under the user's
``HOME``/``XDG_*``), then points ``HOME``, the ``XDG_*`` user folders and
``PARIS_TUI_DATA_DIR`` at a folder of the session's own and drops every other
``PARIS_TUI_*`` (:func:`clean_environment`): whatever a test or its
subprocesses start inherits that. ``tests/conftest.py`` gives each test its
own such folders again (a fixture). As the session ends, the process that
started it (the xdist controller, or the only process) compares the watched
folders with what it noted and fails the run, naming the files, if anything
was written there (:func:`changes`).

A copy of paris-tui the user runs at the same time writes there too: the
message says so.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping, MutableMapping
from pathlib import Path

import pytest

__all__ = ["USER_DIRS_ENV", "changes", "clean_environment", "snapshot", "watched_dirs"]

APP = "paris-tui"

# The user's own folders: pointed at the suite's folder. XDG_DATA_DIRS and
# XDG_CONFIG_DIRS are the system's (pip reads its configuration there): kept.
USER_DIRS_ENV = (
    "HOME",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
)

Snapshot = dict[str, tuple[int, int] | None]


def watched_dirs(environ: Mapping[str, str]) -> list[Path]:
    """The folders where paris-tui keeps a user's files, for the environment ``environ``."""
    import platformdirs

    saved = dict(os.environ)
    try:
        os.environ.clear()
        os.environ.update(environ)
        found = [
            platformdirs.user_data_dir(APP, appauthor=False),
            platformdirs.user_config_dir(APP, appauthor=False),
            platformdirs.user_state_dir(APP, appauthor=False),
            platformdirs.user_cache_dir(APP, appauthor=False),
        ]
    finally:
        os.environ.clear()
        os.environ.update(saved)
    own = environ.get("PARIS_TUI_DATA_DIR")
    if own:
        found.insert(0, own)
    return [Path(each).resolve() for each in dict.fromkeys(found)]


def snapshot(folders: list[Path]) -> Snapshot:
    """Every file and folder under ``folders``: its size and time of change (None: a folder)."""
    seen: Snapshot = {}
    for folder in folders:
        if not folder.exists():
            continue
        seen[str(folder)] = None
        for root, dirs, files in os.walk(folder):
            for name in dirs:
                seen[os.path.join(root, name)] = None
            for name in files:
                path = os.path.join(root, name)
                try:
                    stat = os.lstat(path)
                except OSError:
                    continue
                seen[path] = (stat.st_size, stat.st_mtime_ns)
    return seen


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What appeared or changed between two snapshots (what vanished is not ours to judge)."""
    return sorted(path for path, stat in after.items() if before.get(path, ()) != stat)


def clean_environment(environ: MutableMapping[str, str], base: Path) -> None:
    """``environ`` with no folder of the user's: ``HOME`` and the ``XDG_*`` user folders
    under ``base``, ``PARIS_TUI_DATA_DIR`` there too, no other ``PARIS_TUI_*``."""
    for name in [key for key in environ if key.startswith("PARIS_TUI_")]:
        del environ[name]
    home = base / "home"
    folders = {
        "HOME": home,
        "XDG_DATA_HOME": home / ".local" / "share",
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_STATE_HOME": home / ".local" / "state",
        "XDG_RUNTIME_DIR": base / "run",
        "PARIS_TUI_DATA_DIR": base / "data",
    }
    for name, folder in folders.items():
        if name != "PARIS_TUI_DATA_DIR":  # the app makes that one (some tests see it made)
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        environ[name] = str(folder)


# --- the plugin ------------------------------------------------------------------


class _Guard:
    def __init__(self, watch: bool) -> None:
        self.folders = watched_dirs(os.environ) if watch else []
        self.before = snapshot(self.folders)
        self.base = Path(tempfile.mkdtemp(prefix="paris-tui-suite-"))
        clean_environment(os.environ, self.base)


_KEY = pytest.StashKey[_Guard]()


def pytest_configure(config: pytest.Config) -> None:
    # An xdist worker starts with the controller's clean environment: nothing to watch.
    config.stash[_KEY] = _Guard(watch=not hasattr(config, "workerinput"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    guard = session.config.stash.get(_KEY, None)
    if guard is None:
        return
    shutil.rmtree(guard.base, ignore_errors=True)
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller checks, once every worker is done
    written = changes(guard.before, snapshot(guard.folders))
    if not written:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [
        "The suite wrote into the user's own paris-tui folders "
        "(or a paris-tui the user ran meanwhile did):",
        *(f"  {path}" for path in written),
    ]
    if reporter is not None:
        reporter.write_line("")
        for line in lines:
            reporter.write_line(line, red=True, bold=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
