"""The play mat: its layout per game (zones and ArUco markers in millimetres), what is
printed on it (``art``: drawn as a picture by ``draw`` for the renderer, as a vector PDF on
sheets of any paper by ``pdf``), and the per-frame calibration that maps camera pixels to the mat.

Zone names follow ``vision.observation``.
"""

from vision.mat.games import GAMES, mat_layout
from vision.mat.layout import (
    PAPERS_MM,
    POKER_CARD_MM,
    Marker,
    MatError,
    MatLayout,
    MatTooSmall,
    Rect,
    Zone,
    custom_layout,
    paper_size,
)

__all__ = [
    "GAMES",
    "PAPERS_MM",
    "POKER_CARD_MM",
    "MatError",
    "MatLayout",
    "MatTooSmall",
    "Marker",
    "Rect",
    "Zone",
    "custom_layout",
    "mat_layout",
    "paper_size",
]
