"""Master Crok: the referee engine and the card catalog (RULES.md section 3).

``MasterCrok`` is the engine (registered as ``master-crok``); ``parse_catalog(data)``
validates a catalog into a :class:`Catalog` whose ``to_json()`` is the plain card list
(id, name, group, stats, ability) that the composition root hands to vision. Catalog
files are read by ``companion.crok_catalogs`` (the engine does no I/O).
"""

from __future__ import annotations

from companion.games.mastercrok.actions import BattleType, Choose, Decline, Play, Reserve, Reveal, Use
from companion.games.mastercrok.catalog import Ability, Catalog, CatalogError, Crok, Timing, parse_catalog
from companion.games.mastercrok.decks import DeckError, check_deck, copy_limit
from companion.games.mastercrok.effects import Effect, EffectKind
from companion.games.mastercrok.game import MasterCrok, SetupError

__all__ = [
    "Ability", "BattleType", "Catalog", "CatalogError", "Choose", "Crok", "DeckError", "Decline", "Effect",
    "EffectKind", "MasterCrok", "Play", "Reserve", "Reveal", "SetupError", "Timing", "Use", "check_deck",
    "copy_limit", "parse_catalog",
]
