"""What a host offers around its tables: each hears the tables through the host's events.

``chat`` the table chat, ``friends`` who is here, ``turns`` move clocks and
turn-based tables, ``waiting`` tables that wait for players and quick match,
``cluster`` several hosts on one database, ``finished`` the finished-games archive."""
