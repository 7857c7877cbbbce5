"""The app's save files: resuming one (the resume dialog's answer), a game another copy
holds (watched read-only), and a copy of the game's record saved aside."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from textual.app import App

from paris_tui.app.local.session import Session
from paris_tui.app.local.storage import SaveInfo, data_dir
from paris_tui.app.look.describe import printable

from ..i18n import _

__all__ = ["resume", "save_copy", "show_locked"]


def resume(app: App[Any], info: SaveInfo, start: Callable[[Session], None]) -> None:
    """Open the save ``info`` (this copy becomes the file's only writer) and ``start`` it;
    a game another copy holds is offered to watch, any other problem is a toast."""
    from paris_tui.app.local.locks import GameInUseError
    from paris_tui.app.local.storage import open_save

    from ..core import RecordError

    try:
        info, lock = open_save(info.path)  # this copy becomes the file's only writer
    except GameInUseError:
        show_locked(app, info)
        return
    except RecordError as exc:
        app.notify(printable(str(exc)), title=_("Cannot resume"), severity="error", markup=False)
        return
    except OSError as exc:
        message = printable(
            _("{file}: cannot write beside it: {problem}").format(
                file=info.path.name, problem=exc.strerror or exc
            )
        )
        app.notify(message, title=_("Cannot resume"), severity="error", markup=False)
        return
    session = Session.from_record(info.record, info.path, lock=lock)
    app.call_after_refresh(start, session)


def show_locked(app: App[Any], info: SaveInfo, *, leave: Literal["Back", "Quit"] = "Back") -> None:
    """Say that another copy has the game open; offer to watch it read-only."""
    from .screens.locked import LockedDialog

    def answer(watch: bool | None) -> None:
        if watch:
            from .screens.watch import WatchScreen

            app.push_screen(WatchScreen(info))
        elif leave == "Quit":
            app.exit()

    app.push_screen(LockedDialog(info, leave=leave), callback=answer)


def save_copy(app: App[Any], session: Session | None) -> None:
    """A copy of ``session``'s record in the data directory's ``copies``, said in a toast."""
    if session is None:
        app.notify(_("No game to save"), severity="warning", markup=False)
        return
    folder = data_dir() / "copies"
    stem = session.path.stem if session.path else "game"
    path = folder / f"{stem}-move{session.move_count}.json"
    try:
        session.save_copy(path)
    except OSError as exc:
        app.notify(
            printable(_("Could not save a copy: {problem}").format(problem=exc.strerror or exc)),
            severity="error",
            markup=False,
        )
        return
    # The file name on a line of its own (a toast wraps a long path anywhere), then where.
    where = str(path.parent)
    home = str(Path.home())
    if where == home or where.startswith(home + os.sep):
        where = "~" + where[len(home) :]
    said = _("{name}\nin {folder}").format(name=printable(path.name), folder=printable(where))
    app.notify(said, title=_("Saved a copy"), timeout=8, markup=False)
