"""Storm companion: the disaster rules of board games, run by a box on the game table.

The pure core lives in :mod:`companion.games`; everything that touches the world (dice tower,
buttons, OLED, projector, journal) is an adapter around it. See docs/architecture.md.
"""

__version__ = "0.1.0"
