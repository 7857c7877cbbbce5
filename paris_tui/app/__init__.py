"""The Textual app: the game on screen, from 80x24 up.

``app.py`` is the application (its keys, its screens, the command palette in
``commands.py``); ``screens/`` and ``widgets/`` are what it draws, ``map/`` the
board's layouts without Textual, ``play/`` the game's turn flow without Textual.
``local/`` runs a game on this machine, ``online/`` talks to a host,
``terminal/`` adapts the terminal, ``start/`` starts and warms the app, and
``look/`` holds the words, glyphs and colours everything is drawn with.
"""
