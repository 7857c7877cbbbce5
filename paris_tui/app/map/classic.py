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
        "louvre": (10, 28, "a"),
        "pont-neuf": (10, 34, "b"),
        "pompidou": (10, 40, "a+5"),
        "marais": (10, 48, "b"),
        # red, from the north-east down and across
        "gare-de-l-est": (4, 68, "a"),
        "bastille": (14, 60, "r"),
        "hotel-de-ville": (14, 40, "b+8"),
        "orsay": (14, 30, "a"),
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
    height=15,
    short=True,
    stops={
        "trocadero": (1, 1, "a+1"),
        "etoile": (1, 8, "a"),
        "opera": (1, 19, "a"),
        "montmartre": (1, 28, "a-1"),
        "gare-du-nord": (1, 35, "a+1"),
        "republique": (3, 42, "r"),
        "pere-lachaise": (6, 45, "b+1"),
        "concorde": (5, 15, "b-5"),
        "louvre": (5, 20, "b"),
        "pont-neuf": (5, 24, "a"),
        "pompidou": (5, 28, "a+3"),
        "marais": (5, 35, "b"),
        "gare-de-l-est": (1, 47, "a"),
        "bastille": (8, 42, "r"),
        "hotel-de-ville": (8, 28, "b+3"),
        "orsay": (8, 21, "a"),
        "invalides": (8, 15, "b-6"),
        "tour-eiffel": (8, 2, "b"),
        "madeleine": (3, 17, "l"),
        "saint-germain": (12, 19, "b"),
        "quartier-latin": (12, 28, "b+3"),
        "jardin-des-plantes": (12, 38, "r"),
        "saint-nicolas": (3, 28, "r"),
        "notre-dame": (10, 28, "r"),
        "luxembourg": (14, 26, "l"),
    },
    routes={
        ("blue", 4): ((1, 40),),
        ("blue", 5): ((5, 44),),
        ("yellow", 0): ((5, 8),),
        ("yellow", 5): ((5, 39),),
        ("red", 0): ((1, 44),),
        ("pink", 0): ((3, 17),),
    },
    no_letter=frozenset({("red", 1)}),
)

WIDE = LayoutSpec(
    name="wide",
    width=78,
    height=15,
    stops={
        "trocadero": (1, 4, "a"),
        "etoile": (1, 13, "a"),
        "opera": (1, 28, "a"),
        "montmartre": (1, 42, "a"),
        "gare-du-nord": (1, 57, "a"),
        "gare-de-l-est": (1, 73, "a-2"),
        "madeleine": (3, 26, "l"),
        "saint-nicolas": (3, 42, "r"),
        "republique": (3, 63, "r"),
        "pere-lachaise": (5, 70, "b+1"),
        "concorde": (5, 24, "b-7"),
        "louvre": (5, 31, "b"),
        "pont-neuf": (5, 37, "a-1"),
        "pompidou": (5, 42, "a+5"),
        "marais": (5, 52, "b"),
        "tour-eiffel": (8, 3, "b+2"),
        "invalides": (8, 24, "b-8"),
        "orsay": (8, 33, "a"),
        "hotel-de-ville": (8, 42, "b+8"),
        "bastille": (8, 63, "r"),
        "notre-dame": (10, 42, "r"),
        "saint-germain": (12, 28, "b"),
        "quartier-latin": (12, 42, "b+8"),
        "jardin-des-plantes": (12, 56, "r"),
        "luxembourg": (14, 40, "l"),
    },
    routes={
        ("blue", 4): ((1, 61),),
        ("blue", 5): ((5, 65),),
        ("yellow", 0): ((5, 13),),
        ("yellow", 5): ((5, 60),),
        ("red", 0): ((1, 65),),
        ("pink", 0): ((3, 26),),
    },
    no_letter=frozenset({("red", 1)}),
)

LAYOUTS: Final[tuple[LayoutSpec, ...]] = (COMFORTABLE, WIDE, COMPACT)
"""The hand-made layouts, largest first: the order in which a map area tries them."""
