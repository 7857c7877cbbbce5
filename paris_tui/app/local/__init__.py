"""What runs a game on this machine.

The session and its autosave, saved games, their locks, the history of finished games,
the player's settings.
"""
