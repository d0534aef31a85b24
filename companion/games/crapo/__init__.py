"""Crapô: Russian Bank without the reserve, for two players and two packs (RULES.md
section 5, docs/rules/crapo.md).

* ``game``: the :class:`Crapo` engine (registry name ``crapo``).
* ``actions``: the actions and their JSON notation; pile names.
* ``rules``: what each action may do and does; legal actions.
* ``deal``: shuffle, deal, who starts, hand-built positions.
* ``inference``: observations of the table and the moves that explain them.
* ``play``: a random policy for simulations, tests and benchmarks.
"""

from __future__ import annotations

from companion.games.crapo.actions import Draw, Flip, Move, Sequence, Stop, Trash
from companion.games.crapo.deal import SetupError
from companion.games.crapo.game import Crapo

__all__ = ["Crapo", "Draw", "Flip", "Move", "Sequence", "SetupError", "Stop", "Trash"]
