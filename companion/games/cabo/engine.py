"""The Cabo-family engine that plays Crocodile and Recall: set-up, the turn, powers, and
the plumbing every rule module shares (whose card is where, who saw it, rulings).

Two ways to play, one rules code:

* **digital** (``seed`` given): the engine shuffles and deals; every face is known to it,
  and ``card`` fields in actions are optional (checked when given).
* **refereed** (``seed`` None): every face is unknown until seen face up; each action that
  turns a card face up carries the code the camera read, and the end needs a ``reveal``.

Out-of-turn claims live in ``claims.py``, the call and the scoring in ``ending.py``, the
views in ``views.py`` and the camera's side in ``explain.py``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from companion.cards import Card, UnknownCard, parse_card
from companion.games.base import ActionFormatError, Event, Explanation, Game, IllegalAction, Outcome, Ruling
from companion.games.options import HouseRules

from . import claims, ending, views
from .actions import (
    BlindSwap,
    CaboAction,
    Discard,
    Draw,
    Look,
    Peek,
    Place,
    PlayPower,
    PowerPeek,
    PowerSwap,
    Reveal,
    Skip,
    Smackdown,
    Swap,
    TakeDiscard,
    TurnUp,
    action_from_json,
)
from .rules import (
    BLIND_SWAP,
    LOOK_ANY,
    PEEKS,
    POWER_NAMES,
    POWER_SWAP,
    SELFIE,
    SNEAKY,
    SWITCH_ANY,
    SWITCH_TWO_PLAYERS,
    SWITCHES,
    Policy,
    power_key,
)
from .table import ObservationError, Pending, Table, TableCard, Window, composition, deal_table


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def place_name(place: Place) -> str:
    return f"seat {place[0]} slot {place[1]}"


class CaboGame(Game):
    """A round of a Cabo-family game. Subclasses give the name, the house rules, the
    claim action and the policy; everything else is shared."""

    LOWER_SCORE_WINS = True
    MIN_PLAYERS = 2
    MAX_PLAYERS = 8
    CLAIM: ClassVar[type[Smackdown]] = Smackdown
    TIE_NS: ClassVar[int] = 1_000_000
    """Two claims on one discard closer than this (ns) are a tie the rules do not settle
    (CR-18, HARDWARE-NOTES section 4): the earlier stamp wins and a ``tie`` ruling asks
    the players to confirm."""

    policy: Policy
    table: Table
    canonical: list[CaboAction]
    """The actions in rules order: arrival order, except that claims on one discard are
    sorted by ``t_ns`` (``claims.py``). Replaying ``actions`` rebuilds it exactly."""

    @classmethod
    def make_policy(cls, rules: HouseRules, players: int) -> Policy:
        raise NotImplementedError

    # -- set-up -------------------------------------------------------------------------

    def _setup(self) -> None:
        n = len(self.players)
        self.policy = self.make_policy(self.house_rules, n)
        dealer = self.setup_data.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ActionFormatError(f"setup 'dealer' should be a seat from 0 to {n - 1}, got {dealer!r}")
        first = self.next_seat(dealer)
        p = self.policy
        stacked: dict[str, Any] = {key: value for key, value in self.setup_data.items()
                                   if key in ("layouts", "deck_top")}
        try:
            self.table = deal_table(n, p.decks, p.jokers_per_deck, dealer, self.seats_from(first), self.seed,
                                    near_first=p.turn_up, stacked=stacked)
        except UnknownCard as exc:
            raise ActionFormatError(str(exc)) from None
        self.composition: Counter[Card] = composition(p.decks, p.jokers_per_deck)
        self.canonical = []
        if not p.turn_up:
            self.table.phase = "look"

    @property
    def digital(self) -> bool:
        return self.seed is not None

    @property
    def dealer(self) -> int:
        return self.table.dealer

    def next_seat(self, seat: int) -> int:
        step = 1 if self.policy.clockwise else -1
        return (seat + step) % len(self.players)

    def seats_from(self, seat: int) -> list[int]:
        """Every seat once, in turn order, starting with ``seat``."""
        order = [seat]
        while len(order) < len(self.players):
            order.append(self.next_seat(order[-1]))
        return order

    # -- the Game contract --------------------------------------------------------------

    @classmethod
    def action_from_json(cls, data: Mapping[str, Any]) -> CaboAction:
        action = action_from_json(data)
        cls._check_kind(action)
        return action

    @classmethod
    def _check_kind(cls, action: object) -> None:
        if not isinstance(action, CaboAction):
            raise ActionFormatError(f"{cls.name} does not know the action {action!r}")
        if isinstance(action, Smackdown) and type(action) is not cls.CLAIM:
            raise ActionFormatError(f"{cls.name} has no {action.type!r} action; a claim here is {cls.CLAIM.type!r}")
        if isinstance(action, TurnUp) and cls.name != "crocodile":
            raise ActionFormatError(f"{cls.name} has no 'turn_up': the discard pile starts empty")

    def _apply(self, action: Any) -> list[Event]:
        self._check_kind(action)
        if not isinstance(action, Reveal):
            self.check_seat(action.seat)
        if self.table.phase == "over":
            raise IllegalAction(self.policy.rule("score"), "the round is over")
        handler: Callable[[Any], list[Event]] = self._handlers()[type(action).type]
        before = len(self.canonical)
        events = handler(action)
        if len(self.canonical) == before:  # a reordering of claims sets it itself
            self.canonical.append(action)
        return events

    def _handlers(self) -> dict[str, Callable[[Any], list[Event]]]:
        return {
            "turn_up": self._turn_up, "look": self._look, "draw": self._draw, "take_discard": self._take_discard,
            "discard": self._discard, "swap": self._swap, "power": self._play_power, "peek": self._peek,
            "blind_swap": self._blind_swap, "power_peek": self._power_peek, "power_swap": self._power_swap,
            self.CLAIM.type: lambda a: claims.apply_claim(self, a),
            "reward": lambda a: claims.apply_reward(self, a), "give": lambda a: claims.apply_give(self, a),
            "skip": self._skip, "call": lambda a: ending.apply_call(self, a),
            "reveal": lambda a: ending.apply_reveal(self, a),
        }

    def legal_actions(self, seat: int | None = None) -> list[CaboAction]:  # type: ignore[override]
        """Every legal action (of ``seat``, out-of-turn ones included). ``card`` fields are
        left empty: in refereed play fill in what the camera saw before applying. Claims
        are listed one card each, stamped later than every claim so far; any combination
        of them is legal too when ``combine_smackdowns`` is on."""
        from .moves import legal_actions

        return legal_actions(self, seat)

    def outcome(self) -> Outcome | None:
        return ending.outcome(self)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return views.view(self, seat)

    def explain(self, observation: Any) -> Explanation:
        from .explain import explain

        return explain(self, observation)

    def next_round_setup(self, outcome: Outcome) -> dict[str, Any]:
        """The deal passes on to the next seat in turn order."""
        return {"dealer": self.next_seat(self.table.dealer)}

    # -- shared helpers -----------------------------------------------------------------

    def check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.players):
            raise ActionFormatError(f"seat {seat} does not exist: seats are 0 to {len(self.players) - 1}")

    def illegal(self, concept: str, message: str) -> IllegalAction:
        return IllegalAction(self.policy.rule(concept), message)

    def ruling(self, concept: str, message: str, kind: str = "info", seat: int | None = None,
               penalty: str | None = None) -> Ruling:
        return Ruling(self.policy.rule(concept), message, kind, seat, penalty)

    def pretty(self, cid: int) -> str:
        face = self.table.cards[cid].face
        return face.pretty() if face is not None else "a card"

    def code(self, cid: int) -> str | None:
        face = self.table.cards[cid].face
        return face.code if face is not None else None

    def card_at(self, place: Place, concept: str = "turn") -> int:
        """The card id at ``place``; :class:`IllegalAction` if there is none."""
        seat, slot = place
        self.check_seat(seat)
        cid = self.table.at(place)
        if cid is None:
            raise self.illegal(concept, f"{place_name(place)} holds no card")
        return cid

    def locked(self, place: Place) -> bool:
        """After the call the caller's cards may not be touched (CR-G5, RE-G7)."""
        t = self.table
        return self.policy.caller_cards_locked and t.caller is not None and place[0] == t.caller

    def check_unlocked(self, place: Place) -> None:
        if self.locked(place):
            raise self.illegal("locked", f"{place_name(place)} belongs to the caller: locked since the call")

    def observed(self, cid: int, code: str | None, where: str, also: Counter[Card] | None = None) -> Card:
        """Check the code seen when card ``cid`` was turned face up, and return its face.
        Refereed play must give the code; it must agree with what is known of the card
        and with the deck's make-up (``also``: faces identified earlier in the same
        action). Digital play may leave it out. Changes nothing."""
        card = self.table.cards[cid]
        if code is None:
            if card.face is None:
                raise ActionFormatError(f"refereed play: {where} must carry the code of the card turned up")
            return card.face
        face = parse_card(code, where)
        if card.face is not None:
            if card.face != face:
                raise ObservationError(f"{where}: the card shown is {card.face.pretty()}, not {face.pretty()}")
            return face
        counts = Counter(c.face for c in self.table.cards if c.face is not None)
        counts.update(also or Counter())
        if counts[face] >= self.composition[face]:
            raise ObservationError(
                f"{where}: {face.pretty()} cannot be there: the deck holds {self.composition[face]} "
                f"and {counts[face]} {'is' if counts[face] == 1 else 'are'} already placed"
            )
        return face

    def show(self, cid: int, face: Card | None) -> None:
        """Card ``cid`` is seen face up by everyone."""
        card = self.table.cards[cid]
        if face is not None:
            card.face = face
        card.public = True

    def to_pile(self, cid: int, face: Card | None) -> None:
        self.show(cid, face)
        self.table.cards[cid].face_up = False
        self.table.discard.append(cid)

    def open_window(self, cid: int, seat: int, chained: bool = False) -> None:
        """A new smackdown window on card ``cid``; ``chained``: opened by a smacked or
        reward card (CR-G9), continuing the chain of the window before."""
        t = self.table
        chain = t.window.chain if chained and t.window is not None else []
        t.windows_opened += 1
        t.window = Window(t.windows_opened, cid, seat, t.turn_number, chain=chain, face=t.cards[cid].face)

    def can_draw(self) -> bool:
        t = self.table
        return bool(t.deck) or (self.policy.deck_exhausted == "reshuffle_discards" and len(t.discard) > 1)

    def draw_card(self, events: list[Event]) -> int | None:
        """The top card of the deck, reshuffling the discards first when it is empty
        (CR-G15); ``None`` when no card can be had."""
        t = self.table
        if not t.deck and self.can_draw():
            keep = t.discard.pop()
            pile, t.discard = t.discard, [keep]
            for cid in pile:
                card = t.cards[cid]
                card.public, card.seen_by, card.face_up = False, set(), False
                if not self.digital:
                    card.face = None  # shuffled face down: nobody can tell which is which
            if t.rng is not None:
                t.rng.shuffle(pile)
            t.deck = pile
            events.append(Event("reshuffle", {"cards": len(pile)}, self.ruling(
                "deck", f"The deck ran out: {len(pile)} discards shuffled into a new deck")))
        return t.deck.pop() if t.deck else None

    def penalty_cards(self, seat: int, count: int, events: list[Event]) -> int:
        """Deal ``count`` penalty cards to ``seat`` face down and unseen (CR-G12, RE-G4):
        into an emptied slot when ``fill_empty_slots``, else as new slots (CR-G17)."""
        t = self.table
        given = 0
        for _ in range(count):
            cid = self.draw_card(events)
            if cid is None:
                break
            layout = t.layouts[seat]
            if self.policy.fill_empty_slots and None in layout:
                layout[layout.index(None)] = cid
            else:
                layout.append(cid)
            t.penalties[seat] += 1
            given += 1
        return given

    def private_sight(self, seat: int, places: list[Place]) -> Event:
        """``seat`` looks at the cards at ``places``: a private event (with the faces in
        digital play), which cannot be taken back (undoable False)."""
        t = self.table
        seen = []
        for place in places:
            cid = t.at(place)
            assert cid is not None
            t.cards[cid].seen_by.add(seat)
            seen.append({"seat": place[0], "slot": place[1], "card": self.code(cid)})
        return Event("seen", {"seat": seat, "cards": seen}, private_to=(seat,), undoable=False)

    # -- setup actions ------------------------------------------------------------------

    def _turn_up(self, action: TurnUp) -> list[Event]:
        t = self.table
        if t.phase != "deal":
            raise self.illegal("turn_up", "the first discard is already turned up")
        if action.seat != t.dealer:
            raise self.illegal("turn_up", f"the dealer ({seat_name(t.dealer)}) turns up the first discard")
        cid = t.deck[-1]
        face = self.observed(cid, action.card, "the turned-up card")
        t.deck.pop()
        self.to_pile(cid, face)
        t.phase = "look"
        return [Event("turn_up", {"seat": action.seat, "card": self.code(cid)})]

    def look_slots(self, seat: int) -> list[tuple[int, ...]]:
        """The looks a seat may take at the start: the near two (CR-05), any two (RE-06),
        or none (a look is allowed, not required)."""
        if self.policy.look == "near":
            return [(0, 1), ()]
        slots = range(4)
        return [(a, b) for a in slots for b in slots if a < b] + [()]

    def _look(self, action: Look) -> list[Event]:
        t = self.table
        if t.phase != "look":
            raise self.illegal("look", "the first look is only before play starts")
        if action.seat in t.looked:
            raise self.illegal("look", f"{seat_name(action.seat)} has had their look")
        if tuple(sorted(action.slots)) not in self.look_slots(action.seat):
            allowed = "the two near cards (slots 0 and 1)" if self.policy.look == "near" else "any two of slots 0-3"
            raise self.illegal("look", f"the first look is at {allowed}, not slots {list(action.slots)}")
        t.looked.add(action.seat)
        events = [Event("look", {"seat": action.seat, "slots": list(action.slots)})]
        if action.slots:
            events.append(self.private_sight(action.seat, [(action.seat, s) for s in action.slots]))
        if len(t.looked) == len(self.players):
            t.phase, t.turn_number = "turn", 1
            if t.discard:
                self.open_window(t.discard[-1], t.dealer)
            events.append(Event("play_starts", {"turn": t.turn}, self.ruling(
                "start", f"Everyone has looked: {seat_name(t.turn)} starts")))
        return events

    # -- the turn -----------------------------------------------------------------------

    def check_turn(self, seat: int, phases: tuple[str, ...]) -> None:
        t = self.table
        if t.phase in ("deal", "look"):
            raise self.illegal("look", "play starts when everyone has looked")
        if t.phase in ("reveal",):
            raise self.illegal("call", "the round is over: the cards are to be revealed")
        if seat != t.turn:
            raise self.illegal("turn", f"it is {seat_name(t.turn)}'s turn, not {seat_name(seat)}'s")
        if t.phase not in phases:
            expected = {"turn": "draw or take the discard", "holding": "play the card in hand",
                        "power": "use the power"}[t.phase]
            raise self.illegal("turn", f"{seat_name(seat)} must first {expected}")

    def begin_turn_action(self, seat: int) -> list[Event]:
        """The turn seat starts their turn: a mandatory give must be done first; the
        window closes (``next_action``), optional rewards and powers lapse."""
        t = self.table
        blocking = [p for p in t.pending if not p.optional]
        if blocking:
            raise self.illegal("reward", f"{seat_name(blocking[0].seat)} must first give a card "
                               f"to {place_name(blocking[0].victim or (0, 0))}")
        events: list[Event] = []
        if t.window is not None and self.policy.window_end == "next_action":
            events.append(self.close_window(f"{seat_name(seat)} started their turn"))
        if t.pending:
            events.append(Event("lapsed", {"pending": [p.kind for p in t.pending]}))
            t.pending = []
        return events

    def close_window(self, why: str) -> Event:
        """The window closes: no more claims on this discard (CR-G7, RE-09)."""
        t = self.table
        assert t.window is not None
        card = self.code_public(t.window.card)
        t.window = None
        return Event("window_closed", {"card": card, "why": why})

    def code_public(self, cid: int) -> str | None:
        card = self.table.cards[cid]
        return card.face.code if card.public and card.face is not None else None

    def _draw(self, action: Draw) -> list[Event]:
        self.check_turn(action.seat, ("turn",))
        if not self.can_draw():
            raise self.illegal("deck", "the deck is empty")
        t = self.table
        events = self.begin_turn_action(action.seat)
        cid = self.draw_card(events)
        assert cid is not None
        t.hand, t.hand_from, t.phase = cid, "deck", "holding"
        t.cards[cid].seen_by.add(action.seat)
        events.append(Event("draw", {"seat": action.seat}))
        events.append(Event("seen", {"seat": action.seat, "cards": [{"hand": True, "card": self.code(cid)}]},
                            private_to=(action.seat,), undoable=False))
        return events

    def _take_discard(self, action: TakeDiscard) -> list[Event]:
        self.check_turn(action.seat, ("turn",))
        t = self.table
        if not t.discard:
            raise self.illegal("take", "the discard pile is empty")
        events = self.begin_turn_action(action.seat)
        if t.window is not None:
            events.append(self.close_window(f"{seat_name(action.seat)} took the card"))
        cid = t.discard.pop()
        t.hand, t.hand_from, t.phase = cid, "discard", "holding"
        events.append(Event("take_discard", {"seat": action.seat, "card": self.code(cid)}))
        return events

    def check_taken_card_may_go_back(self) -> None:
        """A card taken from the discard pile goes back on it (discarded, or played for a
        power) only when the house rules let it (CR-G3, RE-G3); otherwise it must replace
        one of the player's cards, whatever power a play would give."""
        if self.table.hand_from == "discard" and self.policy.take_must_swap:
            raise self.illegal("take_swap", "a card taken from the discard pile must replace one of your cards")

    def _discard(self, action: Discard) -> list[Event]:
        self.check_turn(action.seat, ("holding",))
        t = self.table
        self.check_taken_card_may_go_back()
        assert t.hand is not None
        cid = t.hand
        face = self.observed(cid, action.card, "the discarded card")
        self.to_pile(cid, face)
        self.open_window(cid, action.seat)
        t.hand = None
        events = [Event("discard", {"seat": action.seat, "card": self.code(cid)})]
        return events + self.end_turn()

    def _swap(self, action: Swap) -> list[Event]:
        self.check_turn(action.seat, ("holding",))
        t = self.table
        place = (action.seat, action.slot)
        old = self.card_at(place, "drawn")
        face = self.observed(old, action.card, f"the card from {place_name(place)}")
        assert t.hand is not None
        new = t.hand
        t.layouts[action.seat][action.slot] = new
        t.cards[new].seen_by.add(action.seat)
        t.cards[old].face_up = False
        self.to_pile(old, face)
        self.open_window(old, action.seat)
        t.hand = None
        events = [Event("swap", {"seat": action.seat, "slot": action.slot, "card": self.code(old),
                                 "placed": self.code_public(new)})]
        if self.policy.any_play_powers and self.grant_power(action.seat, old, optional=True, events=events):
            return events
        return events + self.end_turn()

    def _play_power(self, action: PlayPower) -> list[Event]:
        self.check_turn(action.seat, ("holding",))
        t = self.table
        assert t.hand is not None
        cid = t.hand
        self.check_taken_card_may_go_back()
        if t.hand_from == "discard" and not self.policy.take_power:
            raise self.illegal("take_swap", "a card taken from the discard pile counts only for its value")
        face = self.observed(cid, action.card, "the card played for its power")
        kind = self.policy.power_of(face)
        if kind is None:
            raise self.illegal("no_power", f"{face.pretty()} has no power in {self.name.capitalize()}")
        if not self.power_targets(action.seat, kind):
            raise IllegalAction(self.policy.power_rules[power_key(face)],
                                f"no card can be targeted by the {POWER_NAMES[kind]}")
        self.to_pile(cid, face)
        self.open_window(cid, action.seat)
        t.hand = None
        events = [Event("power", {"seat": action.seat, "card": face.code, "power": kind}, Ruling(
            self.policy.power_rules[power_key(face)],
            f"{seat_name(action.seat)} plays {face.pretty()} for the {POWER_NAMES[kind]}", seat=action.seat))]
        self.grant_power(action.seat, cid, optional=False, events=events)
        return events

    def power_rule(self, pending: Pending) -> str:
        """The rule id of the power ``pending`` resolves (CR-10..CR-13, RE-02, RE-G1, RE-G9)."""
        face = self.table.cards[pending.card].face if pending.card is not None else None
        return self.policy.power_rules.get(power_key(face), "") if face is not None else ""

    def grant_power(self, seat: int, cid: int, optional: bool, events: list[Event]) -> bool:
        """Give ``seat`` the power of card ``cid`` when it has one and a target exists.
        The turn seat's power holds the turn (phase ``power``)."""
        face = self.table.cards[cid].face
        kind = self.policy.power_of(face) if face is not None else None
        if kind is None or not self.power_targets(seat, kind):
            return False
        t = self.table
        t.pending.append(Pending(seat, "power", optional, power=kind, card=cid))
        if seat == t.turn and t.phase == "holding":
            t.phase = "power"
        events.append(Event("power_granted", {"seat": seat, "power": kind, "optional": optional}))
        return True

    def own_power(self, seat: int, kinds: tuple[str, ...]) -> Pending:
        """The pending power of ``seat`` of one of ``kinds``; IllegalAction otherwise."""
        for p in self.table.pending:
            if p.seat == seat and p.kind == "power" and p.power in kinds:
                return p
        raise self.illegal("power_only_drawn", f"{seat_name(seat)} has no such power to use now")

    def power_targets(self, seat: int, kind: str) -> list[Place]:
        """The places the power ``kind`` of ``seat`` may target: own cards for a selfie,
        other players' cards for a sneaky, any card for the rest (the pairing rules of the
        swaps are checked by :meth:`check_switch`). Locked and empty places are out."""
        t = self.table
        places: list[Place] = []
        for s in range(len(self.players)):
            if kind == SELFIE and s != seat or kind == SNEAKY and s == seat:
                continue
            places.extend((s, slot) for slot in t.occupied(s) if not self.locked((s, slot)))
        if kind == POWER_SWAP:
            mine = [p for p in places if p[0] == seat]
            return places if mine and len(mine) < len(places) else []
        if kind in SWITCHES:
            return places if any(self.switch_allowed(kind, seat, a, b) for a in places for b in places) else []
        return places

    def switch_allowed(self, kind: str, seat: int, a: Place, b: Place) -> bool:
        if a == b:
            return False
        if kind == BLIND_SWAP:  # CR-12: yours and another's, or one each of two others
            return a[0] != b[0]
        if kind == SWITCH_TWO_PLAYERS:
            return a[0] != b[0]
        return kind == SWITCH_ANY

    def finish_power(self, pending: Pending) -> list[Event]:
        t = self.table
        t.pending.remove(pending)
        if t.phase == "power" and pending.seat == t.turn:
            return self.end_turn()
        return []

    def _peek(self, action: Peek) -> list[Event]:
        pending = self.own_power(action.seat, PEEKS)
        target = action.target
        self.card_at(target, "drawn")
        kind = pending.power
        rule = self.power_rule(pending)
        if kind == SELFIE and target[0] != action.seat:
            raise IllegalAction(rule, "the selfie looks at one of your own cards")
        if kind == SNEAKY and target[0] == action.seat:
            raise IllegalAction(rule, "the sneaky looks at another player's card")
        if target[0] != action.seat:
            self.check_unlocked(target)
        events = [Event("peek", {"seat": action.seat, "target": list(target)}),
                  self.private_sight(action.seat, [target])]
        return events + self.finish_power(pending)

    def check_switch(self, pending: Pending, a: Place, b: Place) -> None:
        for place in (a, b):
            self.card_at(place, "drawn")
            self.check_unlocked(place)
        assert pending.power is not None
        if not self.switch_allowed(pending.power, pending.seat, a, b):
            why = "two different cards"
            if pending.power in (BLIND_SWAP, SWITCH_TWO_PLAYERS):
                why = "one card each from two different players"
            raise IllegalAction(self.power_rule(pending), f"the {POWER_NAMES[pending.power]} takes {why}")

    def _blind_swap(self, action: BlindSwap) -> list[Event]:
        pending = self.own_power(action.seat, SWITCHES)
        self.check_switch(pending, action.a, action.b)
        self.exchange(action.a, action.b)
        events = [Event("blind_swap", {"seat": action.seat, "a": list(action.a), "b": list(action.b)})]
        return events + self.finish_power(pending)

    def exchange(self, a: Place, b: Place) -> None:
        """Swap the cards at two places; what anyone knows of them moves with them."""
        t = self.table
        ca, cb = t.at(a), t.at(b)
        t.layouts[a[0]][a[1]], t.layouts[b[0]][b[1]] = cb, ca

    def _power_peek(self, action: PowerPeek) -> list[Event]:
        pending = self.own_power(action.seat, (POWER_SWAP,))
        rule = self.power_rule(pending)
        if pending.peeked is not None:
            raise IllegalAction(rule, "the power swap has looked already: swap or not")
        own, other = (action.seat, action.own), action.other
        self.card_at(own, "drawn")
        self.card_at(other, "drawn")
        if other[0] == action.seat:
            raise IllegalAction(rule, "the power swap looks at one of yours and one of another player's")
        self.check_unlocked(other)
        self.check_unlocked(own)
        pending.peeked = (own, other)
        return [Event("power_peek", {"seat": action.seat, "own": action.own, "other": list(other)}),
                self.private_sight(action.seat, [own, other])]

    def _power_swap(self, action: PowerSwap) -> list[Event]:
        pending = self.own_power(action.seat, (POWER_SWAP,))
        if pending.peeked is None:
            raise IllegalAction(self.power_rule(pending), "the power swap looks at the two cards first (power_peek)")
        if action.swap:
            self.exchange(*pending.peeked)
        events = [Event("power_swap", {"seat": action.seat, "swap": action.swap,
                                       "places": [list(p) for p in pending.peeked]})]
        return events + self.finish_power(pending)

    def _skip(self, action: Skip) -> list[Event]:
        t = self.table
        for p in t.pending:
            if p.seat == action.seat and p.optional and p.peeked is None:
                if p.kind == "power" and p.seat == t.turn and t.phase == "power":
                    t.pending.remove(p)
                    return [Event("skip", {"seat": action.seat, "kind": p.kind})] + self.end_turn()
                t.pending.remove(p)
                return [Event("skip", {"seat": action.seat, "kind": p.kind})]
        raise self.illegal("turn", f"{seat_name(action.seat)} has nothing optional to decline")

    def end_turn(self) -> list[Event]:
        """The turn seat's turn is over: pass the turn on (or end the round)."""
        return ending.end_turn(self)

    # -- debugging and tests --------------------------------------------------------------

    def internal_state(self) -> dict[str, Any]:
        """Everything the engine holds, private facts included (tests compare states with
        it; never show it to players)."""
        t = self.table

        def card(c: TableCard) -> list[Any]:
            return [c.face.code if c.face else None, c.public, sorted(c.seen_by), c.face_up]

        return {
            "cards": [card(c) for c in t.cards], "deck": list(t.deck), "discard": list(t.discard),
            "layouts": [list(layout) for layout in t.layouts], "phase": t.phase, "turn": t.turn,
            "dealer": t.dealer, "hand": t.hand, "hand_from": t.hand_from, "turn_number": t.turn_number,
            "last_player": t.last_player, "looked": sorted(t.looked), "caller": t.caller,
            "final_queue": _copy(t.final_queue), "round_end_queue": _copy(t.round_end_queue),
            "window": None if t.window is None else [t.window.number, t.window.card, t.window.placed_by,
                                                     [list(c) for c in t.window.claims], t.window.won_by,
                                                     [list(c) for c in t.window.chain],
                                                     t.window.face.code if t.window.face else None],
            "pending": [[p.seat, p.kind, p.optional, p.power, p.card, p.victim, p.peeked] for p in t.pending],
            "smackdowns": list(t.smackdowns), "penalties": list(t.penalties), "deed": t.deed,
            "termination": t.termination,
            "rng": repr(t.rng.getstate()) if t.rng else None, "last_t_ns": t.last_t_ns,
            "canonical": [a.to_json() for a in self.canonical],
        }


def _copy(items: list[int] | None) -> list[int] | None:
    return None if items is None else list(items)


__all__ = ["CaboGame", "LOOK_ANY", "SWITCH_ANY", "SWITCH_TWO_PLAYERS", "ObservationError"]
