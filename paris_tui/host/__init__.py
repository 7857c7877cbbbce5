"""The host: the referee of networked games and their server (``paris-tui host``).

A map for a newcomer, lowest first (a module imports only those before it in
this list; no service imports the server):

- ``referee`` one table's :class:`~paris_tui.core.Game` (the only one), refusing
  bad moves with a code; ``limits`` quotas and windows; ``ai_moves`` the AI's
  queue.
- ``store/`` where tables are kept (files, or PostgreSQL: ``postgres``, its
  ``pg_schema`` and ``pg_connect``; ``lease`` who referees which table);
  ``accounts/`` who a name is (its store, the ``identity`` gate);
  ``ratings/`` the ratings' stores; ``config`` a host's limits and settings;
  ``services/waiting`` a table waiting for players, as data.
- ``peers`` what a connection and a table are to those who only hear of them
  (``accounts/request`` answers an ``account`` request to one);
  ``events`` the one typed stream of what happens at the tables, and its bus.
- ``room`` one table being served (seats, watchers, AI, sends each seat its
  view); ``connection`` one client (its state, its line reading and limits);
  ``admission`` connections counted (per address, the anonymous pool, the doors').
- ``ports`` the narrow interface each service gets of the host.
- ``services/``: around the tables, each hearing the events: ``turns`` move
  clocks and ``--notify-command``, ``chat``, ``friends``, ``finished`` the
  finished games, ``opening`` the tables waiting for players,
  ``cluster`` several hosts on one database (leases, takeovers) and ``relay``
  the relay between them; ``ratings/service`` rates a game at its end.
- ``locks`` the operator's locks reach the seats taken; ``hall`` every room:
  resumed, opened, dealt, seated, swept.
- ``server`` the :class:`~paris_tui.host.server.Host`: listens, speaks the
  protocol of :mod:`paris_tui.net` to each connection, and wires the rest.
- ``local`` the referee behind the :class:`~paris_tui.net.table.Table`
  interface in process; ``child`` the apps a door starts.
"""
