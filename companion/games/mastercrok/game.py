"""The Master Crok referee engine (RULES.md section 3, MC-01..MC-15, MC-G1..MC-G9).

A game is a set-up (a catalog and one deck list per seat) plus actions: the attacker
chooses the battle type, everyone plays a Crok face down in order, the Croks are
revealed, the abilities round runs, and the battle resolves by itself once every ability
is used, declined or lapsed. Seats are numbered clockwise from 0.

Two ways to play, told apart by the seed:

* **digital** (``seed`` given): the engine shuffles the decks and knows every card; a
  play names the Crok played (``legal_actions`` lists them).
* **refereed** (``seed`` null): a real table. Nobody tells the engine what is drawn; a
  face-down Crok is unknown until the reveal names it (from the camera, see
  :meth:`MasterCrok.explain`), and the engine checks the named Crok is still among the
  cards left in its owner's deck list.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from companion.games.base import (
    Action,
    ActionFormatError,
    Event,
    Explanation,
    Game,
    GameError,
    IllegalAction,
    Outcome,
    Ruling,
)
from companion.games.mastercrok.actions import (
    BattleType,
    Choose,
    Decline,
    Play,
    Reserve,
    Reveal,
    Use,
    action_from_json,
)
from companion.games.mastercrok.catalog import Catalog, Crok, Timing, deck_ids, parse_catalog
from companion.games.mastercrok.decks import check_deck, size_warnings
from companion.games.mastercrok.effects import MANUAL, NO_EFFECT, Effect, EffectKind
from companion.games.mastercrok.house_rules import HOUSE_RULES
from companion.games.mastercrok.state import (
    AbilityStatus,
    Battle,
    BattleCrok,
    Copy,
    Modifier,
    Player,
)
from companion.observation import Observation

if TYPE_CHECKING:
    from companion.games.mastercrok.inference import BattleReading

STARTING_HAND = 4  # MC-04
GROUP_VICTORY = 6  # MC-14
MANUAL_SETTLEMENTS = (NO_EFFECT, Effect(EffectKind.WIN_BATTLE), Effect(EffectKind.LOSE_BATTLE, target="self"))
"""What ``legal_actions`` offers for a manual ability; any effect of the vocabulary is legal."""


class SetupError(GameError):
    """A set-up that names no usable catalog or decks; says which field."""


class MasterCrok(Game):
    """Master Crok for any number of players (MC-01). Set-up data::

        {"catalog": {embedded catalog},
         "decks": [deck, ...],          # one per seat: a list of Crok ids, a table of
                                        # id -> copies, or the name of a catalog deck
         "first_attacker": 0}           # MC-04; drawn from the seed when omitted

    The engine stores the set-up with the catalog embedded and the decks spelled out, so
    a record replays without any file (docs/rules/master-crok.md).
    """

    name = "master-crok"
    HOUSE_RULES = HOUSE_RULES
    MIN_PLAYERS = 2
    MAX_PLAYERS = 32  # "any number of players"; the table and camera set the real limit

    catalog: Catalog
    deck_lists: tuple[tuple[str, ...], ...]
    table: list[Player]
    battle: Battle
    warnings: list[Ruling]
    last_battle: dict[str, Any] | None
    _outcome: Outcome | None

    # -- set-up ---------------------------------------------------------------------------

    def _setup(self) -> None:
        self.catalog = self._setup_catalog()
        self.deck_lists = self._setup_decks()
        self.warnings = size_warnings([len(d) for d in self.deck_lists], self.players)
        rng = random.Random(self.seed) if self.seed is not None else None
        self.table = []
        for seat, ids in enumerate(self.deck_lists):
            if rng is None:
                deck = [Copy(seat) for _ in ids]
            else:
                deck = [Copy(seat, crok) for crok in ids]
                rng.shuffle(deck)
            self.table.append(Player(deck=deck))
        first = self._setup_first_attacker(rng)
        self.setup_data = {
            "catalog": self.catalog.to_json(),
            "decks": [list(d) for d in self.deck_lists],
            "first_attacker": first,
        }
        for player in self.table:
            for _ in range(STARTING_HAND):
                if player.deck:
                    player.hand.append(player.deck.pop())
        self.last_battle = None
        self._outcome = None
        self.mixed_owners: set[int] = set()
        self.battle = Battle(number=0, attacker=first, participants=())
        self._start_battle(first, tuple(range(len(self.players))), blind=False)

    def _setup_catalog(self) -> Catalog:
        spec = self.setup_data.get("catalog")
        if isinstance(spec, Mapping):
            return parse_catalog(spec, where="setup.catalog")
        raise SetupError(
            f"setup.catalog: embed the catalog as data (companion.crok_catalogs.shipped_catalog('example')"
            f".to_json() reads the shipped one), got {spec!r}"
        )

    def _setup_decks(self) -> tuple[tuple[str, ...], ...]:
        specs = self.setup_data.get("decks")
        if not isinstance(specs, list) or len(specs) != len(self.players):
            raise SetupError(f"setup.decks: one deck per player ({len(self.players)}), got {specs!r}")
        decks = []
        for seat, spec in enumerate(specs):
            where = f"setup.decks[{seat}] ({self.players[seat]})"
            if isinstance(spec, str):
                if spec not in self.catalog.decks:
                    known = ", ".join(self.catalog.decks) or "none"
                    raise SetupError(f"{where}: catalog {self.catalog.name!r} has no deck {spec!r} (decks: {known})")
                ids = self.catalog.decks[spec]
            else:
                try:
                    ids = deck_ids(spec, self.catalog)
                except ValueError as exc:
                    raise SetupError(f"{where}: {exc}") from None
            check_deck(self.catalog, ids, self.house_rules.copy_limit, where)
            decks.append(tuple(ids))
        return tuple(decks)

    def _setup_first_attacker(self, rng: random.Random | None) -> int:
        first = self.setup_data.get("first_attacker")
        if first is None:
            return rng.randrange(len(self.players)) if rng is not None else 0
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(self.players):
            raise SetupError(f"setup.first_attacker: a seat from 0 to {len(self.players) - 1}, got {first!r}")
        return first

    # -- small helpers ----------------------------------------------------------------------

    def crok(self, copy: Copy | BattleCrok) -> Crok:
        """The catalog entry of a known card."""
        card = copy.card if isinstance(copy, BattleCrok) else copy
        assert card.crok is not None, "the card has not been identified"
        return self.catalog[card.crok]

    def effect_of(self, crok: BattleCrok) -> Effect:
        """The effect the referee applies: the catalog's, or ``manual`` with card_db = none (MC-G2)."""
        if self.house_rules.card_db == "none":
            return MANUAL
        return self.crok(crok).ability.effect

    def _timing(self, crok: BattleCrok) -> Timing:
        return self.crok(crok).ability.timing

    def all_cards(self) -> Iterator[Copy]:
        """Every physical card of the game, wherever it is (decks, hands, piles, battle)."""
        for player in self.table:
            yield from player.deck
            yield from player.hand
            yield from player.winners
            yield from player.losers
        for crok in self.battle.croks:
            yield crok.card

    def sharing(self, owner: int) -> frozenset[int]:
        """The owners whose unseen cards may be mistaken for ``owner``'s. Normally just
        ``owner``; after a card is taken unseen from a hand, the referee cannot tell
        which unseen card a player later plays, so the taker's and the card owner's decks
        are checked together from then on (``mixed_owners``)."""
        return frozenset(self.mixed_owners) if owner in self.mixed_owners else frozenset((owner,))

    def unaccounted(self, owners: frozenset[int]) -> Counter[str]:
        """Crok ids of these owners' deck lists not yet seen anywhere: what an unseen card
        of theirs can still be (refereed play)."""
        listed: Counter[str] = Counter()
        for owner in owners:
            listed.update(self.deck_lists[owner])
        seen = Counter(c.crok for c in self.all_cards() if c.owner in owners and c.crok is not None)
        return listed - seen

    def _clockwise_from(self, seat: int, among: set[int] | tuple[int, ...]) -> tuple[int, ...]:
        n = len(self.players)
        return tuple(s % n for s in range(seat, seat + n) if s % n in among)

    def _require_crok_id(self, crok: str, what: str) -> None:
        if crok not in self.catalog:
            raise ActionFormatError(f"{what}: {crok!r} is not a Crok of catalog {self.catalog.name!r}")

    # -- battles ----------------------------------------------------------------------------

    def _start_battle(self, attacker: int, participants: tuple[int, ...], *, blind: bool) -> list[Event]:
        """MC-05 (draw, then plays in order) or MC-13 (the blind battle: the top card of each
        deck, unseen, or a hand card when the deck is empty)."""
        order = self._clockwise_from(attacker, participants)
        battle = Battle(number=self.battle.number + 1, attacker=attacker, participants=order, blind=blind)
        self.battle = battle
        events = [Event("battle_started", {"number": battle.number, "attacker": attacker, "blind": blind,
                                           "participants": list(order)})]
        for seat in order:
            player = self.table[seat]
            if blind:
                if player.deck:
                    battle.croks.append(BattleCrok(player.deck.pop(), seat, seat, unseen=True))
                else:
                    battle.to_play.append(seat)  # MC-13, [S20]: from hand when the deck is empty
                continue
            battle.to_play.append(seat)
            limit = self.house_rules.hand_limit
            if limit != "none" and len(player.hand) >= limit:
                events.append(Event("draw_skipped", {"seat": seat, "reason": "hand_limit"}))
            elif not player.deck:
                events.append(Event("draw_skipped", {"seat": seat, "reason": "empty_deck"}))  # MC-G7
            else:
                events.extend(self._draw(seat))
        return events

    def _draw(self, seat: int) -> list[Event]:
        card = self.table[seat].deck.pop()
        self.table[seat].hand.append(card)
        events = [Event("drew", {"seat": seat})]
        if card.crok is not None:
            events.append(Event("drew_crok", {"seat": seat, "crok": card.crok}, private_to=(seat,)))
        return events

    def phase(self) -> str:
        """``choose``, ``play``, ``reveal`` (everyone has played), ``abilities`` or ``over``."""
        battle = self.battle
        if self._outcome is not None:
            return "over"
        if battle.revealed:
            return "abilities"
        if battle.battle_type is None and (not battle.blind or not battle.to_play):
            return "choose"
        return "play" if battle.to_play else "reveal"

    # -- actions ----------------------------------------------------------------------------

    @classmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> Action:
        return action_from_json(data)

    def check(self, action: Action) -> Any:
        """Raise :class:`IllegalAction` (or :class:`ActionFormatError`) if ``action`` is not
        legal now; otherwise return what applying it needs. Never changes the state."""
        if self._outcome is not None:
            raise IllegalAction(self._outcome.rule_id, "the game is over")
        if isinstance(action, Choose):
            return self._check_choose(action)
        if isinstance(action, Play):
            return self._check_play(action)
        if isinstance(action, Reveal):
            return self._check_reveal(action)
        if isinstance(action, Use):
            return self._check_use(action)
        if isinstance(action, Decline):
            return self._check_decide(action.seat, "declined")
        if isinstance(action, Reserve):
            return self._check_reserve(action)
        raise ActionFormatError(f"not a Master Crok action: {action!r}")

    def _apply(self, action: Action) -> list[Event]:
        plan = self.check(action)
        if isinstance(action, Choose):
            return self._do_choose(action)
        if isinstance(action, Play):
            return self._do_play(action, plan)
        if isinstance(action, Reveal):
            return self._do_reveal(plan)
        if isinstance(action, Use):
            return self._do_use(action, *plan)
        if isinstance(action, Decline):
            return self._do_decline(plan)
        assert isinstance(action, Reserve)
        return self._do_reserve(action, *plan)

    # choose (MC-05, MC-13)

    def _check_choose(self, action: Choose) -> None:
        battle = self.battle
        rule = "MC-13" if battle.blind else "MC-05"
        if battle.revealed:
            raise IllegalAction(rule, "the battle type is chosen before the reveal")
        if battle.battle_type is not None:
            raise IllegalAction(rule, f"the battle type is already {battle.battle_type.value}")
        if action.seat != battle.attacker:
            raise IllegalAction(rule, f"the attacker ({self.players[battle.attacker]}) chooses the battle type")

    def _do_choose(self, action: Choose) -> list[Event]:
        self.battle.battle_type = action.battle_type
        return [Event("battle_type", {"seat": action.seat, "battle_type": action.battle_type.value})]

    # play (MC-05, MC-13)

    def _check_play(self, action: Play) -> int:
        battle, seat = self.battle, action.seat
        if battle.revealed:
            raise IllegalAction("MC-06", "the Croks are already revealed")
        if not battle.blind and battle.battle_type is None:
            raise IllegalAction("MC-05", "the attacker chooses the battle type before anyone plays")
        if seat not in battle.participants:
            raise IllegalAction("MC-G5", f"{self._name(seat)} is not in this blind battle")
        if seat not in battle.to_play:
            why = "plays the top card of the deck" if battle.blind else "has already played"
            raise IllegalAction("MC-13" if battle.blind else "MC-05", f"{self._name(seat)} {why}")
        if battle.to_play[0] != seat:
            raise IllegalAction(
                "MC-05", f"{self._name(battle.to_play[0])} plays next: the attacker first, then clockwise"
            )
        return self._hand_index(seat, action.crok)

    def _hand_index(self, seat: int, crok: str | None) -> int:
        hand = self.table[seat].hand
        if not hand:
            raise IllegalAction("MC-15", f"{self._name(seat)} has no Crok in hand")
        if crok is None:
            for index in range(len(hand) - 1, -1, -1):
                if hand[index].crok is None:
                    return index
            raise ActionFormatError(f"{self._name(seat)}'s hand is known: name the Crok played ('crok')")
        self._require_crok_id(crok, "play")
        for index, card in enumerate(hand):
            if card.crok == crok:
                return index
        for index, card in enumerate(hand):
            if card.crok is None and self.unaccounted(self.sharing(card.owner))[crok] > 0:
                return index
        raise IllegalAction("MC-05", f"{self._name(seat)} has no {crok!r} in hand")

    def _do_play(self, action: Play, index: int) -> list[Event]:
        card = self.table[action.seat].hand.pop(index)
        if card.crok is None and action.crok is not None:
            card = Copy(card.owner, action.crok)
        self.battle.croks.append(BattleCrok(card, action.seat, action.seat))
        self.battle.to_play.remove(action.seat)
        events = [Event("played_face_down", {"seat": action.seat})]
        if card.crok is not None:
            events.append(Event("played", {"seat": action.seat, "crok": card.crok}, private_to=(action.seat,)))
        return events

    # reveal (MC-06, then MC-08 for immediate abilities)

    def _check_reveal(self, action: Reveal) -> list[Copy]:
        battle = self.battle
        if battle.revealed:
            raise IllegalAction("MC-06", "the Croks are already revealed")
        if battle.to_play:
            raise IllegalAction("MC-06", f"{self._name(battle.to_play[0])} has not played yet")
        if battle.battle_type is None:
            raise IllegalAction("MC-13" if battle.blind else "MC-05",
                                "the attacker chooses the battle type before the reveal")
        given = dict(action.croks)
        for seat, crok_id in given.items():
            self._require_crok_id(crok_id, "reveal")
            if battle.crok_of(seat) is None:
                raise IllegalAction("MC-06", f"seat {seat} has no Crok in this battle")
        cards: list[Copy] = []
        pools: dict[frozenset[int], Counter[str]] = {}
        for crok in battle.croks:
            seen = given.get(crok.holder)
            if crok.card.crok is not None:
                if seen is not None and seen != crok.card.crok:
                    raise IllegalAction("MC-06", f"{self._name(crok.holder)} played {crok.card.crok!r} face down, "
                                                 f"not {seen!r}")
                cards.append(crok.card)
                continue
            if seen is None:
                raise ActionFormatError(f"reveal: name {self._name(crok.holder)}'s Crok (it has not been seen)")
            owners = self.sharing(crok.card.owner)
            pool = pools.setdefault(owners, self.unaccounted(owners))
            if pool[seen] <= 0:
                raise IllegalAction("MC-01", f"{seen!r} is not among the cards left in "
                                             f"{self._name(crok.card.owner)}'s deck")
            pool[seen] -= 1
            cards.append(Copy(self._likely_owner(crok.card.owner, owners, seen), seen))
        return cards

    def _likely_owner(self, owner: int, owners: frozenset[int], seen: str) -> int:
        """Whose deck an unseen Crok revealed as ``seen`` is put down to: its owner's if
        that deck can still hold it, else the first of the mixed owners' that can (the
        players sort the cards by owner after the game)."""
        for candidate in sorted(owners, key=lambda o: o != owner):
            if self.unaccounted(frozenset((candidate,)))[seen] > 0:
                return candidate
        return owner

    def _do_reveal(self, cards: list[Copy]) -> list[Event]:
        battle = self.battle
        for crok, card in zip(battle.croks, cards, strict=True):
            crok.card = card
            crok.face_up = True
        battle.revealed = True
        events = [Event("revealed", {"croks": {str(c.holder): c.card.crok for c in battle.croks}}, undoable=False)]
        if battle.blind and not self.house_rules.blind_battle_abilities:
            for crok in battle.croks:
                crok.status = AbilityStatus.OFF  # MC-G9
            return events + self._resolve()
        for seat in battle.participants:  # MC-08: immediate abilities act at once, from the attacker
            index = battle.ability_of(seat)
            assert index is not None
            if self._timing(battle.croks[index]) is Timing.IMMEDIATE and battle.croks[index].status.open:
                options = self.use_options(index)
                if len(options) == 1 and options[0].settled is None:
                    events += self._use_effect(index, self.effect_of(battle.croks[index]), options[0])
        return events + self._advance(after_decision=False)

    # the abilities round (MC-07..MC-10, MC-G3)

    def pending_immediate(self) -> list[int]:
        """Battle Croks whose immediate ability waits for its holder's choice (targets, or
        the players' settling of a manual ability). They come before any decision."""
        return [
            i for i, c in enumerate(self.battle.croks)
            if c.status is AbilityStatus.WAITING and self._timing(c) is Timing.IMMEDIATE
        ]

    def to_act(self) -> int | None:
        """The seat whose conditional ability is up (use, decline or reserve), if any."""
        battle = self.battle
        if self._outcome is not None or not battle.revealed or self.pending_immediate():
            return None
        if battle.turn < len(battle.participants):
            return battle.participants[battle.turn]
        return None

    def _decides(self, seat: int) -> bool:
        index = self.battle.ability_of(seat)
        if index is None:
            return False
        crok = self.battle.croks[index]
        return crok.status.open and self._timing(crok) is Timing.CONDITIONAL

    def _advance(self, *, after_decision: bool) -> list[Event]:
        """Move the abilities round on to the next seat with a decision; end it (and resolve
        the battle) when a full round passes with nothing used or declined (MC-G3
        priority_loop), or after one round (single_pass)."""
        battle = self.battle
        if self.pending_immediate():
            return []
        if after_decision:
            battle.turn += 1
        while True:
            while battle.turn < len(battle.participants):
                if self._decides(battle.participants[battle.turn]):
                    return []
                battle.turn += 1
            if self.house_rules.ability_order == "single_pass" or not battle.progress:
                return self._end_abilities()
            battle.turn = 0
            battle.progress = False

    def _end_abilities(self) -> list[Event]:
        events = []
        for crok in self.battle.croks:
            if crok.status is AbilityStatus.RESERVED:
                crok.status = AbilityStatus.LAPSED
                events.append(Event("ability_lapsed", {"seat": crok.played_by, "crok": crok.card.crok}))
        return events + self._resolve()

    def _open_crok(self, seat: int) -> int:
        """The index of the Crok ``seat`` played if its ability may be decided now (MC-07, MC-08)."""
        battle = self.battle
        if not battle.revealed:
            raise IllegalAction("MC-07", "abilities are used after the reveal")
        index = battle.ability_of(seat)
        if index is None:
            raise IllegalAction("MC-07", f"{self._name(seat)} has no Crok in this battle")
        crok = battle.croks[index]
        if crok.status is AbilityStatus.OFF:
            raise IllegalAction("MC-G9", "blind battles are played without abilities (blind_battle_abilities)")
        if not crok.status.open:
            raise IllegalAction("MC-07", f"{self.crok(crok).ability.name} is {crok.status.value}: "
                                         "each ability only once")
        pending = self.pending_immediate()
        if pending and index not in pending:
            waiting = ", ".join(self._name(battle.croks[i].played_by) for i in pending)
            raise IllegalAction("MC-08", f"immediate abilities take effect first (waiting for {waiting})")
        if not pending and self.to_act() != seat:
            raise IllegalAction("MC-07", f"it is {self._name(self.to_act())}'s turn to use, decline or reserve")
        return index

    def _check_decide(self, seat: int, verb: str) -> int:
        index = self._open_crok(seat)
        if self._timing(self.battle.croks[index]) is Timing.IMMEDIATE:
            raise IllegalAction("MC-08", f"an immediate ability takes effect; it cannot be {verb}")
        return index

    def _check_reserve(self, action: Reserve) -> tuple[int, int | None]:
        index = self._check_decide(action.seat, "reserved")
        if self.house_rules.ability_order == "single_pass":
            raise IllegalAction("MC-G3", "no reserving with one pass round (ability_order = single_pass)")
        winners = self.table[action.seat].winners
        if action.pay is not None:
            for position in range(len(winners) - 1, -1, -1):
                if winners[position].crok == action.pay:
                    return index, position
            raise IllegalAction("MC-09", f"{action.pay!r} is not among {self._name(action.seat)}'s winners")
        if winners:
            return index, len(winners) - 1
        if self.house_rules.reserve_requires_winner:
            raise IllegalAction("MC-G4", f"{self._name(action.seat)} has no winning Crok to pay for the reserve")
        return index, None

    def _do_reserve(self, action: Reserve, index: int, pay: int | None) -> list[Event]:
        crok = self.battle.croks[index]
        crok.status = AbilityStatus.RESERVED
        player = self.table[action.seat]
        paid = None
        if pay is not None:
            card = player.winners.pop(pay)
            player.losers.append(card)
            paid = card.crok
        message = f"{self._name(action.seat)} reserves {self.crok(crok).ability.name}" + (
            f", paying {self.catalog[paid].name} ({paid}) to the losers" if paid else " at no cost"
        )
        event = Event("ability_reserved", {"seat": action.seat, "crok": crok.card.crok, "paid": paid},
                      ruling=Ruling("MC-09", message, seat=action.seat))
        return [event, *self._advance(after_decision=True)]

    def _do_decline(self, index: int) -> list[Event]:
        crok = self.battle.croks[index]
        crok.status = AbilityStatus.DECLINED
        self.battle.progress = True
        return [Event("ability_declined", {"seat": crok.played_by, "crok": crok.card.crok}),
                *self._advance(after_decision=True)]

    # use: the effects

    def targets_for(self, index: int, effect: Effect) -> list[tuple[int, ...]]:
        """The target choices for battle Crok ``index`` using ``effect``: ``[()]`` when it
        takes none, ``[]`` when it would need one and none exists (then it has no effect)."""
        battle = self.battle
        user = battle.croks[index].played_by
        holders = [s for s in battle.participants if battle.crok_of(s) is not None]
        others = [s for s in holders if s != user]
        opponents = [s for s in self._clockwise_from(user, tuple(range(len(self.players)))) if s != user]
        kind = effect.kind
        if kind in (EffectKind.CHANGE_STAT, EffectKind.LOSE_BATTLE) and effect.target == "opponent":
            return [(s,) for s in others]
        if kind is EffectKind.SWAP_CROKS:
            if effect.between == "any_two":
                return [(a, b) for i, a in enumerate(sorted(holders)) for b in sorted(holders)[i + 1:]]
            return [(s,) for s in others]
        if kind is EffectKind.TAKE_CARD and effect.source == "opponent_hand":
            return [(s,) for s in opponents if self.table[s].hand]
        if kind is EffectKind.TAKE_CARD and effect.source == "opponent_winners":
            return [(s,) for s in opponents if self.table[s].winners]
        if kind is EffectKind.CANCEL_ABILITY:
            cancellable = (AbilityStatus.WAITING, AbilityStatus.RESERVED, AbilityStatus.USED)
            return [(c.played_by,) for i, c in enumerate(battle.croks) if i != index and c.status in cancellable]
        return [()]

    def use_options(self, index: int) -> list[Use]:
        """The ways the holder of battle Crok ``index`` may use its ability now (a manual one:
        settled as no effect, an outright win or an outright loss; any effect is legal)."""
        crok = self.battle.croks[index]
        effect = self.effect_of(crok)
        manual = effect.kind is EffectKind.MANUAL
        options = []
        for candidate in MANUAL_SETTLEMENTS if manual else (effect,):
            settled = candidate if manual else None
            choices = self.targets_for(index, candidate) or [()]
            options += [Use(crok.played_by, targets=t, settled=settled) for t in choices]
        return options

    def _check_use(self, action: Use) -> tuple[int, Effect]:
        index = self._open_crok(action.seat)
        crok = self.battle.croks[index]
        ability = self.crok(crok).ability
        effect = self.effect_of(crok)
        if effect.kind is EffectKind.MANUAL:
            if action.settled is None:
                raise IllegalAction("MC-G2", f"{ability.name} is settled by the players: say what they chose "
                                             "('settled')")
            effect = action.settled
        elif action.settled is not None:
            raise IllegalAction("MC-G2", f"{ability.name}'s effect comes from the catalog; only a manual "
                                         "ability is settled")
        choices = self.targets_for(index, effect)
        targets = tuple(sorted(action.targets)) if effect.target_seats_needed() == 2 else action.targets
        if choices and targets not in choices:
            shown = "; ".join(", ".join(self._name(s) for s in c) or "no target" for c in choices)
            raise IllegalAction("MC-07", f"{ability.name}: choose {shown}, not {list(action.targets)}")
        if not choices and targets:
            raise IllegalAction("MC-07", f"{ability.name} has no possible target now")
        self._check_take_details(effect, action)
        return index, effect

    def _check_take_details(self, effect: Effect, action: Use) -> None:
        takes_winner = effect.kind is EffectKind.TAKE_CARD and effect.source == "opponent_winners"
        takes_hand = effect.kind is EffectKind.TAKE_CARD and effect.source == "opponent_hand"
        if action.crok is not None:
            if not takes_winner or not action.targets:
                raise ActionFormatError("use action: 'crok' only names the winning Crok taken from an opponent")
            if all(c.crok != action.crok for c in self.table[action.targets[0]].winners):
                raise IllegalAction("MC-07", f"{action.crok!r} is not among "
                                             f"{self._name(action.targets[0])}'s winners")
        if action.index is not None:
            if not takes_hand or not action.targets:
                raise ActionFormatError("use action: 'index' only names the hand card taken from an opponent")
            if action.index >= len(self.table[action.targets[0]].hand):
                raise IllegalAction("MC-07", f"{self._name(action.targets[0])} has no card at hand position "
                                             f"{action.index}")

    def _do_use(self, action: Use, index: int, effect: Effect) -> list[Event]:
        conditional = self._timing(self.battle.croks[index]) is Timing.CONDITIONAL
        events = self._use_effect(index, effect, action)
        if conditional:
            self.battle.progress = True
        return events + self._advance(after_decision=conditional)

    def _use_effect(self, index: int, effect: Effect, action: Use) -> list[Event]:
        """Mark the ability of battle Crok ``index`` used and apply ``effect`` (already
        checked). ``self`` is the Crok its user holds now; changes stick to the Croks
        they were made to, so a later swap carries them along."""
        battle = self.battle
        crok = battle.croks[index]
        crok.status = AbilityStatus.USED
        user = crok.played_by
        data = {"seat": user, "crok": crok.card.crok, "ability": self.crok(crok).ability.name,
                "effect": effect.to_json(), "targets": list(action.targets)}
        if action.settled is not None:
            data["settled"] = True
        if action.note:
            data["note"] = action.note
        events = [Event("ability_used", data)]
        targets = tuple(sorted(action.targets)) if effect.target_seats_needed() == 2 else action.targets
        held = battle.crok_of(user)
        own = [held] if held is not None else []
        chosen = [i for i in (battle.crok_of(s) for s in targets) if i is not None]
        others = [i for i in range(len(battle.croks)) if i != held]
        aimed = {"self": own, "opponent": chosen, "all_opponents": others, "all": own + others}
        kind = effect.kind
        if kind is EffectKind.CHANGE_STAT:
            stat = self._battle_type() if effect.stat == "battle" else effect.stat
            assert effect.amount is not None
            for i in aimed[effect.target or "self"]:
                battle.croks[i].modifiers.append(Modifier(index, "stat", stat, effect.amount))
        elif kind is EffectKind.SWAP_CROKS and targets:
            a, b = [battle.croks[i] for i in (chosen if effect.between == "any_two" else own + chosen)]
            events.append(Event("croks_swapped", {"seats": sorted([a.holder, b.holder])}))
            a.holder, b.holder = b.holder, a.holder
        elif kind is EffectKind.WIN_BATTLE:
            for i in own:
                battle.croks[i].modifiers.append(Modifier(index, "win"))
        elif kind is EffectKind.LOSE_BATTLE:
            for i in aimed[effect.target or "opponent"]:
                battle.croks[i].modifiers.append(Modifier(index, "lose"))
        elif kind is EffectKind.TAKE_CARD:
            events += self._take_card(user, effect, action, targets)
        elif kind is EffectKind.CANCEL_ABILITY and targets:
            cancelled = battle.ability_of(targets[0])
            assert cancelled is not None
            events += self._cancel(cancelled)
        return events

    def _battle_type(self) -> str:
        assert self.battle.battle_type is not None
        return self.battle.battle_type.value

    def _take_card(self, user: int, effect: Effect, action: Use, targets: tuple[int, ...]) -> list[Event]:
        taker = self.table[user]
        if effect.source == "own_deck":
            return self._draw(user) if taker.deck else [Event("no_effect", {"seat": user, "reason": "empty_deck"})]
        if not targets:
            return [Event("no_effect", {"seat": user, "reason": "nothing_to_take"})]
        victim = self.table[targets[0]]
        if effect.source == "opponent_hand":
            card = victim.hand.pop(action.index if action.index is not None else -1)
            taker.hand.append(card)
            if card.crok is None:  # see sharing()
                self.mixed_owners.update((user, card.owner))
            events = [Event("card_taken", {"seat": user, "from": targets[0], "pile": "hand"})]
            if card.crok is not None:
                events.append(Event("card_taken_crok", {"crok": card.crok}, private_to=(user, targets[0])))
            return events
        position = len(victim.winners) - 1
        if action.crok is not None:
            position = max(i for i, c in enumerate(victim.winners) if c.crok == action.crok)
        card = victim.winners.pop(position)
        taker.winners.append(card)
        return [Event("card_taken", {"seat": user, "from": targets[0], "pile": "winners", "crok": card.crok})]

    def _cancel(self, target: int) -> list[Event]:
        battle = self.battle
        cancelled = battle.croks[target]
        undone = cancelled.status is AbilityStatus.USED
        if undone:
            for crok in battle.croks:
                crok.modifiers = [m for m in crok.modifiers if m.source != target]
        cancelled.status = AbilityStatus.CANCELLED
        return [Event("ability_cancelled", {"seat": cancelled.played_by, "crok": cancelled.card.crok,
                                            "effects_removed": undone})]

    # resolution (MC-11..MC-15)

    def values(self) -> dict[int, int]:
        """Each battle Crok's value in the battle type (printed stat plus changes)."""
        stat = self._battle_type()
        return {i: c.value(self.crok(c).stat(stat), stat) for i, c in enumerate(self.battle.croks)}

    def _resolve(self) -> list[Event]:
        battle = self.battle
        values = self.values()
        running = [i for i, c in enumerate(battle.croks) if not c.has("lose")]
        outright = [i for i in running if battle.croks[i].has("win")]
        pool = outright or running
        best = max((values[i] for i in pool), default=None)
        top = [i for i in pool if values[i] == best]
        summary: dict[str, Any] = {
            "number": battle.number, "blind": battle.blind, "battle_type": self._battle_type(),
            "croks": [{"holder": c.holder, "crok": c.card.crok, "value": values[i],
                       "wins_outright": c.has("win"), "loses_outright": c.has("lose")}
                      for i, c in enumerate(battle.croks)],
        }
        if len(top) == 1:
            winner = battle.croks[top[0]].holder
            for i, crok in enumerate(battle.croks):
                pile = self.table[crok.holder].winners if i == top[0] else self.table[crok.holder].losers
                pile.append(crok.card)
            how = "outright" if outright else f"with {values[top[0]]} {self._battle_type()}"
            rule = "MC-11"
            message = f"{self._name(winner)} wins battle {battle.number} {how} ({self.crok(battle.croks[top[0]]).name})"
            summary.update(winner=winner, tied=[])
            events = [Event("battle_won", {"seat": winner, "crok": battle.croks[top[0]].card.crok},
                            ruling=Ruling(rule, message, seat=winner))]
            next_battle = (winner, tuple(range(len(self.players))), False)
        else:
            tied = sorted({battle.croks[i].holder for i in top}) if top else list(battle.participants)
            for crok in battle.croks:
                self.table[crok.holder].losers.append(crok.card)
            blind_players = battle.participants if self.house_rules.partial_tie == "all_lose" else tuple(tied)
            attacker = self._next_attacker_after_tie(tied)
            summary.update(winner=None, tied=tied)
            message = (f"tie in battle {battle.number} ({', '.join(self._name(s) for s in tied)}): every Crok "
                       f"goes to the losers; blind battle, {self._name(attacker)} attacks")
            events = [Event("battle_tied", {"tied": tied, "next_attacker": attacker},
                            ruling=Ruling("MC-13", message))]
            next_battle = (attacker, blind_players, True)
        battle.croks = []  # every Crok is now on a pile; ``last_battle`` keeps the account
        self.last_battle = summary
        self._outcome = self._check_end(summary["winner"])
        if self._outcome is not None:
            names = ", ".join(self._name(s) for s in self._outcome.winners)
            return events + [Event("game_over", self._outcome.to_json(),
                                   ruling=Ruling(self._outcome.rule_id, f"{names} wins", kind="result"))]
        attacker, players, blind = next_battle
        return events + self._start_battle(attacker, players, blind=blind)

    def _next_attacker_after_tie(self, tied: list[int]) -> int:
        """MC-13 / MC-G6: the last defending player of the tied battle attacks the blind
        battle. With partial_tie = tied_only only tied players play it, so the last tied
        defender is taken whatever tie_next_attacker says."""
        order = self.battle.participants
        if self.house_rules.tie_next_attacker == "last_defender" and self.house_rules.partial_tie == "all_lose":
            return order[-1]
        defenders = [s for s in order[1:] if s in tied]
        return defenders[-1] if defenders else order[-1]

    def groups_won(self, seat: int) -> list[str]:
        """MC-14: the distinct group symbols among ``seat``'s winning Croks."""
        return sorted({self.crok(c).group for c in self.table[seat].winners})

    def _check_end(self, battle_winner: int | None) -> Outcome | None:
        seats = range(len(self.players))
        groups = {s: self.groups_won(s) for s in seats}
        scores = {s: len(self.table[s].winners) for s in seats}
        details: dict[str, Any] = {"groups": {str(s): g for s, g in groups.items()}}
        six = [s for s in seats if len(groups[s]) >= GROUP_VICTORY]
        if six:
            winners = (battle_winner,) if battle_winner in six else self._best(six, groups, scores)
            return Outcome(tuple(w for w in winners if w is not None), scores, "sixth_group_victory",
                           "MC-14", details)
        out = [s for s in seats if self.table[s].croks_left() == 0]
        if out:
            details["out_of_croks"] = out
            return Outcome(self._best(list(seats), groups, scores), scores, "out_of_croks", "MC-15", details)
        return None

    def _best(self, seats: list[int], groups: Mapping[int, list[str]], scores: Mapping[int, int]) -> tuple[int, ...]:
        """Most winners (MC-15), then more group symbols (MC-G8 group_symbols), then shared."""
        most = max(scores[s] for s in seats)
        best = [s for s in seats if scores[s] == most]
        if len(best) > 1 and self.house_rules.end_tie_break == "group_symbols":
            widest = max(len(groups[s]) for s in best)
            best = [s for s in best if len(groups[s]) == widest]
        return tuple(best)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def next_round_setup(self, outcome: Outcome) -> dict[str, Any]:
        """Match play: the same catalog and decks; the (first) winner attacks first."""
        return {"catalog": self.setup_data["catalog"], "decks": self.setup_data["decks"],
                "first_attacker": outcome.winners[0] if outcome.winners else 0}

    # -- what may be done -------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action (for ``seat``: that seat's). In refereed play the reveal is
        not listed while a face-down Crok is unknown: it comes from the camera
        (:meth:`explain`) or the page. A manual ability lists three settlements (none,
        outright win, outright loss); any effect of the vocabulary may be recorded."""
        if self._outcome is not None:
            return []
        battle = self.battle
        actions: list[Action] = []
        phase = self.phase()
        if phase == "choose" or (phase == "play" and battle.blind and battle.battle_type is None):
            actions += [Choose(battle.attacker, t) for t in BattleType]
        if phase == "play":
            player_seat = battle.to_play[0]
            hand = self.table[player_seat].hand
            known = sorted({c.crok for c in hand if c.crok is not None})
            actions += [Play(player_seat, crok) for crok in known]
            if any(c.crok is None for c in hand):
                actions.append(Play(player_seat, None))
        if phase == "reveal" and all(c.card.crok is not None for c in battle.croks):
            actions.append(Reveal(tuple(sorted((c.holder, str(c.card.crok)) for c in battle.croks))))
        if phase == "abilities":
            actions += self._ability_actions()
        if seat is not None:
            actions = [a for a in actions if getattr(a, "seat", None) == seat]
        return actions

    def _ability_actions(self) -> list[Action]:
        pending = self.pending_immediate()
        if pending:
            return [option for index in pending for option in self.use_options(index)]
        seat = self.to_act()
        if seat is None:
            return []
        index = self.battle.ability_of(seat)
        assert index is not None
        actions: list[Action] = [*self.use_options(index), Decline(seat)]
        if self.house_rules.ability_order == "priority_loop":
            winners = sorted({str(c.crok) for c in self.table[seat].winners})
            actions += [Reserve(seat, crok) for crok in winners]
            if not winners and not self.house_rules.reserve_requires_winner:
                actions.append(Reserve(seat))
        return actions

    # -- views ------------------------------------------------------------------------------

    def _name(self, seat: int | None) -> str:
        return self.players[seat] if seat is not None and 0 <= seat < len(self.players) else f"seat {seat}"

    def crok_info(self, crok_id: str) -> dict[str, Any]:
        """A Crok as the page shows it face up."""
        crok = self.catalog[crok_id]
        return {"id": crok.id, "name": crok.name, "group": crok.group, "power": crok.power,
                "intelligence": crok.intelligence, "reflex": crok.reflex,
                "ability": {"name": crok.ability.name, "text": crok.ability.text,
                            "timing": crok.ability.timing.value, "effect": crok.ability.effect.describe(),
                            "definition": crok.ability.definition}}

    def _battle_crok_view(self, index: int, seat: int | None) -> dict[str, Any]:
        crok = self.battle.croks[index]
        out: dict[str, Any] = {"played_by": crok.played_by, "holder": crok.holder, "face_up": crok.face_up}
        if crok.face_up:
            out["crok"] = self.crok_info(str(crok.card.crok))
            out["status"] = crok.status.value
            out["wins_outright"] = crok.has("win")
            out["loses_outright"] = crok.has("lose")
            out["changes"] = [{"stat": m.stat, "amount": m.amount} for m in crok.modifiers if m.kind == "stat"]
            if self.battle.battle_type is not None:
                out["value"] = self.values()[index]
        elif seat == crok.played_by and not crok.unseen and crok.card.crok is not None:
            out["crok"] = self.crok_info(crok.card.crok)  # only its player has seen it
        return out

    def view(self, seat: int | None = None) -> dict[str, Any]:
        battle = self.battle
        players = []
        for s, player in enumerate(self.table):
            entry: dict[str, Any] = {
                "seat": s, "name": self.players[s], "deck": len(player.deck), "hand": len(player.hand),
                "winners": [{"crok": c.crok, "owner": c.owner} for c in player.winners],
                "losers": [{"crok": c.crok, "owner": c.owner} for c in player.losers],
                "groups": self.groups_won(s),
            }
            if seat == s:
                entry["hand_croks"] = [c.crok for c in player.hand]
            players.append(entry)
        return {
            "game": self.name,
            "catalog": {"name": self.catalog.name, "title": self.catalog.title,
                        "house_definitions": self.catalog.house_definitions},
            "refereed": self.seed is None,
            "phase": self.phase(),
            "battle": {
                "number": battle.number, "blind": battle.blind, "attacker": battle.attacker,
                "battle_type": battle.battle_type.value if battle.battle_type else None,
                "participants": list(battle.participants), "to_play": list(battle.to_play),
                "to_act": self.to_act(),
                "pending_immediate": [battle.croks[i].played_by for i in self.pending_immediate()]
                if battle.revealed and self._outcome is None else [],
                "croks": [self._battle_crok_view(i, seat) for i in range(len(battle.croks))],
            },
            "players": players,
            "last_battle": self.last_battle,
            "warnings": [w.to_json() for w in self.warnings],
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    # -- the camera and the page ------------------------------------------------------------

    def explain(self, observation: BattleReading | Observation) -> Explanation:
        """The action that explains the Croks seen face up in the battle (see
        :func:`.inference.explain_observation`)."""
        from companion.games.mastercrok.inference import explain_observation

        return explain_observation(self, observation)

    def explain_choice(self, seat: int, choice: Mapping[str, Any]) -> Explanation:
        """The ability action(s) a player's choices on the page mean (see
        :func:`.inference.explain_choice`)."""
        from companion.games.mastercrok.inference import explain_choice

        return explain_choice(self, seat, choice)
