"""What adapts the terminal.

Drivers, deliberate key presses, text fitted to terminal cells, line breaking.
"""
