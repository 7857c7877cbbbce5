"""Ratings: every finished game between accounts moves its players' ratings.

``store`` keeps them (SQLite), ``postgres`` in PostgreSQL, ``service`` rates a
table's game at its end and answers the lobby, ``command`` is ``paris-tui host
ratings``."""
