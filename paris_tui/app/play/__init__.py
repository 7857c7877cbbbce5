"""What a game does next, apart from how it is drawn: whose turn, the hand-off, the AI's
turns, a move's events staged into the tours' frames, the end (no Textual here)."""
