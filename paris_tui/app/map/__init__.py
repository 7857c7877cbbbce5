"""The board map without Textual: layouts on a grid of cells, the classic board's
hand-made layouts as data, and the legend.

* :mod:`~paris_tui.app.map.layout`: :class:`MapLayout`, :func:`build_layout`,
  where overlays (scoring labels, the bus) go;
* :mod:`~paris_tui.app.map.classic`: the comfortable, wide and compact layouts
  of the classic board and its short stop names;
* :mod:`~paris_tui.app.map.spec`: the notation of a hand-made layout;
* :mod:`~paris_tui.app.map.legend`: the one-line legend (Rich).

The widget that draws a layout is :class:`paris_tui.app.widgets.board_map.BoardMap`.
"""
