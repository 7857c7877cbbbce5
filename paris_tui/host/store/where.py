"""Where a host's state is, as the operator's commands (``host accounts``, ``host
ratings``, ``host tournament``) are told: ``--data-dir`` or ``--database``.

Each command keeps its own ``dest`` names (``accounts_data_dir``...), since
``paris-tui host`` itself has a ``--data-dir`` that a command falls back to:
``paris-tui host --data-dir D accounts list`` and ``paris-tui host accounts list
--data-dir D`` both work, and the command's own wins.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from paris_tui.i18n import _

__all__ = ["add_state_options", "state_place"]


def add_state_options(parser: argparse.ArgumentParser | Any, prefix: str) -> None:
    """Add ``--data-dir`` and ``--database`` to a command, kept as ``PREFIX_data_dir`` and
    ``PREFIX_database``."""
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        dest=f"{prefix}_data_dir",
        default=None,
        help=_("the host's data directory (default: the paris-tui data directory)"),
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        dest=f"{prefix}_database",
        default=None,
        help=_("the hosts' PostgreSQL database instead (or $PARIS_TUI_DATABASE)"),
    )


def state_place(args: argparse.Namespace, prefix: str) -> str | Path:
    """The PostgreSQL URL of the command's ``--database`` (or ``$PARIS_TUI_DATABASE``)
    unless it was given a ``--data-dir``; else the data directory: its ``--data-dir``,
    the host's, or the default one."""
    from .files import default_data_dir
    from .pg_connect import database_url

    folder = getattr(args, f"{prefix}_data_dir", None)
    url = database_url(getattr(args, f"{prefix}_database", None))
    if url is not None and not folder:
        return url
    folder = folder or getattr(args, "data_dir", None)
    return Path(folder) if folder else default_data_dir()
