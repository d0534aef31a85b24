"""Setting up a Crapô table: the shuffle, the deal (CP-01, CP-02, CP-G1), who starts
(CP-G3), and hand-built positions.

Three ways in, chosen by the game's ``seed`` and ``setup`` data:

* **seed given** (digital play, simulations): the engine shuffles the packs with its own
  small generator (SplitMix64, so a record replays the same on every Python version) and
  deals.
* **seed null** (a refereed table): ``setup["tableau"]`` lists the 8 dealt cards as the
  camera read them (seat 0's four, then seat 1's four); the decks are unseen cards.
* ``setup["position"]``: any position, as a mapping pile name -> list of codes (top last),
  like a camera observation. A deck may be a list of codes (``null`` for unseen cards), a
  count of cards, or ``"rest"``: counts and ``"rest"`` are filled with the cards the
  position does not name (shuffled from the seed; unseen when the seed is null). All 104
  cards must be accounted for (CP-01). ``"turn"`` says who is to move; ``"drawn"``
  names the card in hand, if any.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from companion.cards import UnknownCard
from companion.games.base import GameError
from companion.games.crapo.actions import DECKS, DRAWN, FOUNDATIONS, KIND, TABLEAU
from companion.games.crapo.faces import RANK, Face, builds_up, code, face, pretty
from companion.games.crapo.table import Table
from companion.games.options import HouseRules

_MASK = (1 << 64) - 1
CARDS_PER_DECK = 48
"""52 cards each (one pack, or half of the mixed 104) less the 4 laid out (CP-02)."""
SETUP_KEYS = ("tableau", "first_player", "start_cards", "position")


class SetupError(GameError):
    """Set-up data that cannot make a Crapô table; says which field and why."""


class Shuffler:
    """SplitMix64: a tiny generator of our own so that a seed deals the same cards on
    every Python version (records replay the same forever)."""

    def __init__(self, *parts: int) -> None:
        state = 0x243F6A8885A308D3
        for part in parts:
            state = self._mix((state ^ (part & _MASK)) & _MASK)
        self.state = state

    @staticmethod
    def _mix(z: int) -> int:
        z = (z + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        self.state = self._mix(self.state)
        return self.state % n  # the bias of 2**64 mod n is far below anything a table could notice

    def shuffle(self, cards: list[Any]) -> list[Any]:
        """Fisher-Yates in place; returns ``cards``."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


def _face(value: object, where: str) -> Face:
    try:
        return face(value, where)
    except UnknownCard as exc:
        raise SetupError(str(exc)) from None


def _seat(value: object, where: str) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise SetupError(f"{where} must be 0 or 1, got {value!r}")
    return int(value)


def check_copies(cards: Iterable[Face | None], where: str) -> None:
    """CP-01: two packs hold each face twice, no more."""
    counts = Counter(c for c in cards if c is not None)
    extra = sorted(c for c, n in counts.items() if n > 2)
    if extra:
        raise SetupError(f"{where}: {', '.join(pretty(c) for c in extra)} appear more than twice "
                         "(two packs hold each card twice)")


def new_table(seed: int | None, rules: HouseRules, setup: Mapping[str, Any]) -> tuple[Table, dict[str, Any]]:
    """The table at the start of play and a public note of how the first player was found."""
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise SetupError(f"setup: unknown field(s) {', '.join(unknown)}; Crapô takes {', '.join(SETUP_KEYS)}")
    if "position" in setup:
        return position_table(setup["position"], seed), {"rule": "position"}
    table = dealt_table(seed, rules, setup)
    start = choose_first_player(table, rules, setup)
    table.turn = start["first_player"]
    table.opening = rules.initial_aces == "to_centre" and any(
        table.piles[name] and RANK[table.piles[name][-1]] == 1 for name in TABLEAU  # type: ignore[index]
    )
    return table, start


def dealt_table(seed: int | None, rules: HouseRules, setup: Mapping[str, Any]) -> Table:
    """The deal: each player lays 4 cards from his deck face up (seat 0 on tableau0-3,
    seat 1 on tableau4-7); the rest of his 52 is his deck."""
    table = Table.empty()
    if seed is None:
        dealt = setup.get("tableau")
        if not isinstance(dealt, list) or len(dealt) != 8:
            raise SetupError("setup['tableau'] must list the 8 dealt cards (seat 0's four, then seat 1's) "
                             "when the game is refereed (seed null)")
        faces = [_face(c, f"setup['tableau'][{i}]") for i, c in enumerate(dealt)]
        check_copies(faces, "setup['tableau']")
        if rules.deck_ownership == "one_pack_each":
            for seat in (0, 1):
                mine = faces[4 * seat: 4 * seat + 4]
                if len(set(mine)) < 4:
                    raise SetupError(f"setup['tableau']: seat {seat} dealt the same card twice from one pack")
        for name, card in zip(TABLEAU, faces, strict=True):
            table.piles[name].append(card)
        for deck in DECKS:
            table.piles[deck].extend([None] * CARDS_PER_DECK)
        return table
    if "tableau" in setup:
        raise SetupError("setup['tableau'] is for refereed games (seed null); with a seed the engine deals")
    shuffler = Shuffler(seed, 1)
    if rules.deck_ownership == "one_pack_each":
        packs: list[list[Face | None]] = [shuffler.shuffle(list(range(52))), shuffler.shuffle(list(range(52)))]
    else:
        both = shuffler.shuffle(list(range(52)) * 2)
        packs = [both[0::2], both[1::2]]
    for seat, pack in enumerate(packs):
        for name in TABLEAU[4 * seat: 4 * seat + 4]:
            table.piles[name].append(pack.pop())
        table.piles[DECKS[seat]] = pack
    return table


def choose_first_player(table: Table, rules: HouseRules, setup: Mapping[str, Any]) -> dict[str, Any]:
    """CP-G3. ``setup['first_player']`` always wins (the table decided). Otherwise the top
    cards of the decks are compared, lower (or higher) rank starts, ties go to the next
    card; in a refereed game ``setup['start_cards']`` gives the pairs turned up, top first,
    which are then known cards of the decks."""
    rule = rules.first_player
    if setup.get("first_player") is not None:
        return {"rule": "given", "first_player": _seat(setup["first_player"], "setup['first_player']")}
    if rule == "players_choose":
        raise SetupError("house rule first_player='players_choose': give setup['first_player'] (0 or 1)")
    decks = [table.piles[DECKS[0]], table.piles[DECKS[1]]]
    if "start_cards" in setup:
        pairs = setup["start_cards"]
        if not isinstance(pairs, list) or not pairs or len(pairs) > CARDS_PER_DECK:
            raise SetupError("setup['start_cards'] must be a non-empty list of [seat 0's card, seat 1's card]")
        for depth, pair in enumerate(pairs):
            if not isinstance(pair, list) or len(pair) != 2:
                raise SetupError(f"setup['start_cards'][{depth}] must be a pair of card codes")
            for seat in (0, 1):
                card = _face(pair[seat], f"setup['start_cards'][{depth}][{seat}]")
                known = decks[seat][-1 - depth]
                if known is not None and known != card:
                    raise SetupError(f"setup['start_cards'][{depth}][{seat}]: deck{seat} holds {code(known)} there")
                decks[seat][-1 - depth] = card
        check_copies((c for pile in table.piles.values() for c in pile), "setup['start_cards']")
    compared = []
    for depth in range(CARDS_PER_DECK):
        pair = (decks[0][-1 - depth], decks[1][-1 - depth])
        if pair[0] is None or pair[1] is None:
            raise SetupError(f"house rule first_player={rule!r}: the top cards of both decks are not known; "
                             "give setup['start_cards'] (the cards compared) or setup['first_player']")
        compared.append([code(pair[0]), code(pair[1])])
        if RANK[pair[0]] != RANK[pair[1]]:
            lower = 0 if RANK[pair[0]] < RANK[pair[1]] else 1
            first = lower if rule == "lower_top_card" else 1 - lower
            return {"rule": rule, "compared": compared, "first_player": first}
    return {"rule": rule, "compared": compared, "first_player": 0}


def position_table(position: object, seed: int | None) -> Table:
    """A hand-built position (see the module docstring); :class:`SetupError` names the
    pile at fault."""
    if not isinstance(position, Mapping):
        raise SetupError("setup['position'] must be an object: pile name -> list of card codes")
    table = Table.empty()
    fill: dict[str, int | None] = {}
    for name, cards in position.items():
        where = f"setup['position'][{name!r}]"
        if name == "turn":
            table.turn = _seat(cards, where)
        elif name == DRAWN:
            table.piles[DRAWN] = [None if cards is None else _face(cards, where)]
        elif name not in KIND:
            raise SetupError(f"{where}: not a pile (tableau0-7, foundation0-7, deck0/1, trash0/1, drawn, turn)")
        elif KIND[name] == "deck" and (cards == "rest" or (isinstance(cards, int) and not isinstance(cards, bool))):
            if isinstance(cards, int) and cards < 0:
                raise SetupError(f"{where}: a deck cannot hold {cards} cards")
            fill[name] = None if cards == "rest" else int(cards)
        elif isinstance(cards, list):
            unseen_ok = KIND[name] == "deck"
            table.piles[name] = [
                None if (c is None and unseen_ok) else _face(c, f"{where}[{i}]") for i, c in enumerate(cards)
            ]
        else:
            raise SetupError(f"{where}: expected a list of card codes"
                             + (", a count or 'rest'" if KIND[name] == "deck" else ""))
    for name in FOUNDATIONS:
        pile = table.piles[name]
        for below, card in zip([None, *pile], pile, strict=False):
            if card is None or not builds_up(card, below):
                raise SetupError(f"setup['position'][{name!r}]: a foundation is built up in suit from the ace "
                                 f"({', '.join(code(c) or 'null' for c in pile)})")
    placed = [c for pile in table.piles.values() for c in pile]
    check_copies(placed, "setup['position']")
    _fill_decks(table, fill, seed, placed)
    return table


def _fill_decks(table: Table, fill: dict[str, int | None], seed: int | None, placed: list[Face | None]) -> None:
    missing = 104 - len(placed)
    counted = sum(n for n in fill.values() if n is not None)
    rest = [name for name, n in fill.items() if n is None]
    if len(rest) > 1:
        raise SetupError("setup['position']: only one deck can be 'rest'")
    if rest:
        fill[rest[0]] = missing - counted
    if sum(n or 0 for n in fill.values()) != missing or (rest and missing - counted < 0):
        raise SetupError(f"setup['position'] accounts for {len(placed) + counted} cards, not 104 (CP-01); "
                         "give a deck as 'rest' to hold the others")
    if seed is None:
        leftover: list[Face | None] = [None] * missing
    else:
        have = Counter(c for c in placed if c is not None)
        leftover = [c for c in range(52) for _ in range(2 - have[c])]
        unseen = sum(1 for c in placed if c is None)
        leftover = Shuffler(seed, 2).shuffle(leftover)[unseen:]
    for name in DECKS:
        n = fill.get(name) or 0
        table.piles[name] = leftover[:n] if name in fill else table.piles[name]
        del leftover[:n]
