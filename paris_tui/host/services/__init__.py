"""What a host offers around its tables: each hears the tables through the host's events.

``chat`` the table chat, ``friends`` who is here, ``turns`` move clocks and
turn-based tables, ``waiting`` (the tables) and ``opening`` (opening and
filling them) tables that wait for players, ``cluster`` several hosts on one
database and ``relay`` the relay between them, ``finished`` the
finished-games archive. Each gets the host through a narrow port
(:mod:`paris_tui.host.ports`), never the server."""
