"""The app's full screens: the game, the hand-off, the lobby, the end, the new game, help..."""
