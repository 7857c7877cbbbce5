"""Where the host keeps its tables: the data directory's files, or PostgreSQL.

``files`` is the default store (record files, seat owners, the one-host lock),
``postgres`` the store several hosts share, ``lease`` who referees which table among
them, ``sqlite_file`` how the host opens its SQLite files, ``migrate`` moves a data
directory into PostgreSQL."""
