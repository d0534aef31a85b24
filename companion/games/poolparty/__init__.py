"""Crocodile Pool Party (RULES.md section 2): a two-player race across a 6 x 14 pool in
which swimmers turn into numbered crocodiles.

One module per job: :mod:`.board` (the pool as data), :mod:`.tiles`, :mod:`.actions`
(the JSON notation), :mod:`.movement` (paths), :mod:`.diagnosis` (why a move is not
allowed), :mod:`.placement` (set-up), :mod:`.position` (the state), :mod:`.scoring`,
:mod:`.inference` (what move the camera saw) and :mod:`.engine` (the game).
"""

from companion.games.poolparty.actions import BAR, CrocMove, Flip, Layout, Pass, Place, Reveal, Swim
from companion.games.poolparty.board import DEFAULT_BOARD, Board, BoardConfigError, Square
from companion.games.poolparty.engine import PoolParty
from companion.games.poolparty.inference import ObservationError
from companion.games.poolparty.position import PositionError
from companion.games.poolparty.tiles import Colour

__all__ = [
    "BAR", "DEFAULT_BOARD", "Board", "BoardConfigError", "Colour", "CrocMove", "Flip", "Layout",
    "ObservationError", "Pass", "Place", "PoolParty", "PositionError", "Reveal", "Square", "Swim",
]
