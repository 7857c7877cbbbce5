"""The widgets the screens are made of: the map, the side panels, the status line, the footer."""
