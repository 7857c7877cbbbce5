"""The stylesheets ship in the wheel, and an installed (non-editable) app finds them there."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from paris_tui.app.start.resources import STYLESHEETS, css_paths, styles_dir

ROOT = Path(__file__).resolve().parents[2]


def test_checkout_finds_the_repo_styles() -> None:
    folder = styles_dir()
    assert (folder / "app.tcss").is_file()
    names = [Path(p).name for p in css_paths()]
    assert names[:4] == ["app.tcss", "handoff.tcss", "game.tcss", "screens.tcss"]
    assert set(names) <= set(STYLESHEETS)


def test_wheel_ships_styles_and_installed_app_uses_them(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        str(ROOT),
        "--no-deps",
        "-q",
        "-w",
        str(wheels),
    ]
    if importlib.util.find_spec("hatchling") is not None:
        command.append("--no-build-isolation")  # offline when the build backend is at hand
    built = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    if built.returncode != 0:
        pytest.fail(f"pip wheel failed:\n{built.stdout}\n{built.stderr}")
    (wheel,) = wheels.glob("paris_tui-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = {n for n in archive.namelist() if n.startswith("paris_tui/styles/")}
    assert {f"paris_tui/styles/{n}" for n in ("app.tcss", "screens.tcss")} <= shipped
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    # The compiled catalogs ship too (the game reads .mo, not .po).
    for lang in ("de", "zh_TW"):
        assert f"paris_tui/locale/{lang}/LC_MESSAGES/paris_tui.mo" in names
    # And the help of each language (paris_tui/app/help/<lang>.md).
    for lang in ("en", "de", "zh_TW"):
        assert f"paris_tui/app/help/{lang}.md" in names

    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    probe = (
        "import paris_tui.app.start.resources as r, paris_tui.app.app as a; "
        "print(r.styles_dir()); print(*a.ParisApp.CSS_PATH, sep='\\n')"
    )
    probe_lang = (
        "from paris_tui import i18n; i18n.set_language('de'); "
        "print(i18n._('unknown language {lang!r} (choose from {choices})'))"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}

    def run(code: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
            check=True,
        ).stdout

    out = run(probe).split()
    translated = run(probe_lang)
    assert translated.startswith("unbekannte Sprache")
    installed = (target / "paris_tui" / "styles").resolve()
    assert Path(out[0]).resolve() == installed
    assert all(Path(p).resolve().parent == installed for p in out[1:])
    assert len(out) >= 3
