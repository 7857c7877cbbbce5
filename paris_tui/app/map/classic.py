"""The classic board's three hand-made map layouts and short stop names, as data.

Each layout is a :class:`~paris_tui.app.map.spec.LayoutSpec` (its docstring
explains the notation); :func:`paris_tui.app.map.layout.build_layout` compiles
them and picks the first that fits. ``python -m paris_tui.app.map.layout``
prints them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .spec import LayoutSpec

__all__ = ["COMFORTABLE", "COMPACT", "LAYOUTS", "SHORT_LIMIT", "SHORT_NAMES", "WIDE"]

SHORT_NAMES: Final[Mapping[str, str]] = {
    "trocadero": "Troca",
    "etoile": "Étoile",
    "opera": "Opéra",
    "montmartre": "Montm",
    "gare-du-nord": "GNord",
    "republique": "Répu",
    "pere-lachaise": "PLach",
    "concorde": "Conc",
    "louvre": "Louvre",
    "pont-neuf": "PtNeuf",
    "pompidou": "Pomp",
    "marais": "Marais",
    "bastille": "Bast",
    "gare-de-l-est": "GEst",
    "hotel-de-ville": "HVille",
    "orsay": "Orsay",
    "invalides": "Inval",
    "tour-eiffel": "Eiffel",
    "madeleine": "Madel",
    "saint-germain": "StGer",
    "quartier-latin": "QLatin",
    "jardin-des-plantes": "JPlan",
    "saint-nicolas": "StNic",
    "notre-dame": "NDame",
    "luxembourg": "Luxem",
}
"""The classic board's stops' names in the compact layout, at most :data:`SHORT_LIMIT` letters
each, unique and recognisable: a word is whole, an initial, a usual abbreviation
("St", "Pt") or cut by three letters or more, never by one or two ("Louvr" read as
a misprint, not as the Louvre); tests/app/test_map_labels.py checks them."""

SHORT_LIMIT: Final = 6
"""The longest short name."""

COMFORTABLE = LayoutSpec(
    name="comfortable",
    width=76,
    height=25,
    stops={
        # blue, along the top
        "trocadero": (5, 2, "b+2"),
        "etoile": (5, 12, "a"),
        "opera": (5, 27, "a"),
        "montmartre": (1, 40, "a"),
        "gare-du-nord": (1, 54, "r"),
        "republique": (7, 60, "r"),
        "pere-lachaise": (10, 66, "b+3"),
        # yellow, across the middle
        "concorde": (10, 21, "b-6"),
        "louvre": (10, 28, "b"),
        "pont-neuf": (10, 34, "a"),
        "pompidou": (10, 40, "a+5"),
        "marais": (10, 51, "b"),  # far enough from Pompidou's name above
        # red, from the north-east down and across
        "gare-de-l-est": (4, 68, "a"),
        "bastille": (14, 60, "r"),
        "hotel-de-ville": (14, 40, "b+8"),
        "orsay": (14, 30, "b"),
        "invalides": (14, 21, "b-8"),
        "tour-eiffel": (14, 4, "a+1"),
        # pink, from Opéra round the south-west
        "madeleine": (7, 24, "r"),
        "saint-germain": (20, 27, "b"),
        "quartier-latin": (20, 40, "a+8"),
        "jardin-des-plantes": (22, 54, "b"),
        # green, straight down the middle
        "saint-nicolas": (4, 40, "r"),
        "notre-dame": (17, 40, "r"),
        "luxembourg": (23, 37, "b"),
    },
    routes={
        ("blue", 2): ((5, 32), (1, 36)),
        ("blue", 5): ((10, 63),),
        ("yellow", 0): ((10, 17),),
        ("yellow", 5): ((10, 56),),
        ("red", 0): ((4, 63),),
        ("pink", 0): ((7, 25),),
        ("pink", 1): ((7, 23), (10, 20)),
        ("pink", 5): ((20, 52),),
    },
)

COMPACT = LayoutSpec(
    name="compact",
    width=54,
    height=16,
    short=True,
    # row 0 is left free for the scoring labels of the names along the top; the yellow
    # line's stops are spaced so that each name stands by its own marker only
    stops={
        "trocadero": (2, 1, "a+1"),
        "etoile": (2, 8, "a"),
        "opera": (2, 19, "a"),
        "montmartre": (2, 33, "a-1"),
        "gare-du-nord": (2, 41, "a+1"),
        "republique": (4, 46, "r"),
        "pere-lachaise": (6, 49, "b+1"),
        "concorde": (6, 15, "b-5"),
        "louvre": (6, 20, "b+2"),
        "pont-neuf": (6, 27, "a"),
        "pompidou": (6, 33, "a+3"),
        "marais": (6, 40, "b"),
        "gare-de-l-est": (2, 51, "a-3"),
        "bastille": (9, 46, "r"),
        "hotel-de-ville": (9, 33, "b+5"),
        "orsay": (9, 21, "b"),
        "invalides": (9, 15, "b-6"),
        "tour-eiffel": (9, 2, "b+1"),
        "madeleine": (4, 17, "l"),
        "saint-germain": (13, 19, "l"),
        "quartier-latin": (13, 33, "b+2"),
        "jardin-des-plantes": (13, 46, "r"),
        "saint-nicolas": (4, 33, "l"),
        "notre-dame": (11, 33, "r"),
        "luxembourg": (15, 31, "l"),
    },
    routes={
        ("blue", 4): ((2, 44),),
        ("blue", 5): ((5, 48),),
        ("yellow", 0): ((6, 8),),
        ("yellow", 5): ((6, 43),),
        ("red", 0): ((2, 48),),
        ("pink", 0): ((4, 17),),
    },
    no_letter=frozenset({("red", 1), ("green", 2)}),
)

WIDE = LayoutSpec(
    name="wide",
    width=78,
    height=16,
    # row 0 is left free for the scoring labels of the names along the top
    stops={
        "trocadero": (2, 4, "a"),
        "etoile": (2, 13, "a"),
        "opera": (2, 28, "a"),
        "montmartre": (2, 42, "a"),
        "gare-du-nord": (2, 57, "a"),
        "gare-de-l-est": (2, 73, "a-2"),
        "madeleine": (4, 26, "l"),
        "saint-nicolas": (4, 42, "r"),
        "republique": (4, 63, "r"),
        "pere-lachaise": (6, 70, "b+1"),
        "concorde": (6, 24, "b-7"),
        "louvre": (6, 30, "b"),
        "pont-neuf": (6, 37, "a-1"),
        "pompidou": (6, 42, "a+5"),
        "marais": (6, 55, "b"),
        "tour-eiffel": (9, 3, "b+2"),
        "invalides": (9, 24, "b-8"),
        "orsay": (9, 33, "b"),
        "hotel-de-ville": (9, 42, "b+8"),
        "bastille": (9, 63, "r"),
        "notre-dame": (11, 42, "r"),
        "saint-germain": (13, 28, "l"),
        "quartier-latin": (13, 42, "b+8"),
        "jardin-des-plantes": (13, 60, "a"),
        "luxembourg": (15, 40, "l"),
    },
    routes={
        ("blue", 4): ((2, 61),),
        ("blue", 5): ((6, 65),),
        ("yellow", 0): ((6, 13),),
        ("yellow", 5): ((6, 60),),
        ("red", 0): ((2, 65),),
        ("pink", 0): ((4, 26),),
    },
    no_letter=frozenset({("red", 1)}),
)

LAYOUTS: Final[tuple[LayoutSpec, ...]] = (COMFORTABLE, WIDE, COMPACT)
"""The hand-made layouts, largest first: the order in which a map area tries them."""
