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

__all__ = ["COMFORTABLE", "COMPACT", "LAYOUTS", "SHORT_NAMES", "WIDE"]

SHORT_NAMES: Final[Mapping[str, str]] = {
    "trocadero": "Troca",
    "etoile": "Étoil",
    "opera": "Opéra",
    "montmartre": "Montm",
    "gare-du-nord": "GNord",
    "republique": "Répu",
    "pere-lachaise": "PLach",
    "concorde": "Conc",
    "louvre": "Louvr",
    "pont-neuf": "PNeuf",
    "pompidou": "Pomp",
    "marais": "Marai",
    "bastille": "Bast",
    "gare-de-l-est": "GEst",
    "hotel-de-ville": "HdVil",
    "orsay": "Orsay",
    "invalides": "Inval",
    "tour-eiffel": "Eiff",
    "madeleine": "Madel",
    "saint-germain": "StGer",
    "quartier-latin": "QLat",
    "jardin-des-plantes": "JPlan",
    "saint-nicolas": "StNic",
    "notre-dame": "NDame",
    "luxembourg": "Luxem",
}
"""Abbreviations of the classic board's stops used in the compact layout."""

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
        "marais": (10, 48, "b"),
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
    width=50,
    height=16,
    short=True,
    # row 0 is left free for the scoring labels of the names along the top
    stops={
        "trocadero": (2, 1, "a+1"),
        "etoile": (2, 8, "a"),
        "opera": (2, 19, "a"),
        "montmartre": (2, 30, "a-1"),
        "gare-du-nord": (2, 37, "a+1"),
        "republique": (4, 42, "r"),
        "pere-lachaise": (7, 45, "b+1"),
        "concorde": (6, 15, "b-5"),
        "louvre": (6, 20, "a"),
        "pont-neuf": (6, 25, "b+2"),
        "pompidou": (6, 30, "a+3"),
        "marais": (6, 36, "b"),
        "gare-de-l-est": (2, 47, "a-3"),
        "bastille": (9, 42, "r"),
        "hotel-de-ville": (9, 30, "b+3"),
        "orsay": (9, 21, "b"),
        "invalides": (9, 15, "b-6"),
        "tour-eiffel": (9, 2, "b"),
        "madeleine": (4, 17, "l"),
        "saint-germain": (13, 19, "l"),
        "quartier-latin": (13, 30, "b+1"),
        "jardin-des-plantes": (13, 42, "r"),
        "saint-nicolas": (4, 30, "l"),
        "notre-dame": (11, 30, "r"),
        "luxembourg": (15, 28, "l"),
    },
    routes={
        ("blue", 4): ((2, 40),),
        ("blue", 5): ((6, 44),),
        ("yellow", 0): ((6, 8),),
        ("yellow", 5): ((6, 39),),
        ("red", 0): ((2, 44),),
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
        "louvre": (6, 31, "b"),
        "pont-neuf": (6, 37, "a-1"),
        "pompidou": (6, 42, "a+5"),
        "marais": (6, 52, "b"),
        "tour-eiffel": (9, 3, "b+2"),
        "invalides": (9, 24, "b-8"),
        "orsay": (9, 33, "b"),
        "hotel-de-ville": (9, 42, "b+8"),
        "bastille": (9, 63, "r"),
        "notre-dame": (11, 42, "r"),
        "saint-germain": (13, 28, "l"),
        "quartier-latin": (13, 42, "b+8"),
        "jardin-des-plantes": (13, 56, "r"),
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
