"""paris-tui: Michael Schacht's board game Paris Paris in the terminal."""

__version__ = "0.1.0"
