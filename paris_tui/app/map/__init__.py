"""The board map without Textual: layouts on a grid of cells, the classic board's
hand-made layouts as data, and the legend.

* :mod:`~paris_tui.app.map.layout`: :func:`build_layout` (the layout that fits a
  map area), :func:`compile_spec`, the generic and notice layouts, where the bus goes;
* :mod:`~paris_tui.app.map.grid`: what a layout holds (:class:`MapLayout`, the
  cells' kinds, :class:`LabelSpot`, :class:`MapOverlay`);
* :mod:`~paris_tui.app.map.canvas`: drawing tokens, tracks, letters and names on a grid;
* :mod:`~paris_tui.app.map.labels`: where the scoring labels go;
* :mod:`~paris_tui.app.map.classic`: the comfortable, wide and compact layouts
  of the classic board and its short stop names;
* :mod:`~paris_tui.app.map.spec`: the notation of a hand-made layout;
* :mod:`~paris_tui.app.map.legend`: the one-line legend (Rich).

The widget that draws a layout is :class:`paris_tui.app.widgets.board_map.BoardMap`.
"""
