"""Accounts: who a name is on this host, whatever door it came through.

``store`` keeps accounts and their credentials (SQLite), ``postgres`` the same in
PostgreSQL, ``names`` compares names as people read them, ``identity`` proves an
account before it takes a seat, ``command`` is ``paris-tui host accounts``."""
