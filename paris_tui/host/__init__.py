"""The host: the referee of networked games and their server (``paris-tui host``).

``referee`` holds one table's :class:`~paris_tui.core.Game` (the only one),
refuses bad moves with a code and autosaves a ``paris-paris-record``;
``store`` is the host's data directory; ``server`` serves the tables over
TCP with the protocol of :mod:`paris_tui.net`; ``local`` is the same
referee behind the :class:`~paris_tui.net.table.Table` interface in process;
``command`` adds ``paris-tui host`` to the command line.
"""
