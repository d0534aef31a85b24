"""The rules engines, one module per game family, and the registry that names them.

Pure Python (see docs/DESIGN.md): nothing here does I/O, reads a clock or imports cv2,
flask or gpiozero.
"""

from __future__ import annotations

import importlib

from companion.games.base import Game, GameError

# Registry name -> "module:Class". Imported lazily so one engine's import cost (or a
# half-built engine) never touches the others.
GAMES: dict[str, str] = {
    "crocodile": "companion.games.cabo:Crocodile",
    "recall": "companion.games.cabo:Recall",
    "pool-party": "companion.games.poolparty:PoolParty",
    "crapo": "companion.games.crapo:Crapo",
    "master-crok": "companion.games.mastercrok:MasterCrok",
}


class UnknownGame(GameError):
    pass


def game_class(name: str) -> type[Game]:
    """The engine class registered as ``name``; :class:`UnknownGame` lists the known ones."""
    try:
        target = GAMES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
    module_name, class_name = target.split(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def available_games() -> list[str]:
    """Registered games whose engine module can be imported."""
    names = []
    for name in GAMES:
        try:
            game_class(name)
        except ImportError:
            continue
        names.append(name)
    return names
