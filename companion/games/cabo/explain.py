"""Explain a camera reading of a Crocodile or Recall table: which action(s) turn the
current state into what the camera sees, or which rule the change breaks.

The camera sees the discard pile's top (and maybe its size), the deck's size when it
can, each seat's slot occupancy, cards lying face up in layouts, and at the end the
cards held up at the reveal. It never sees a face-down card, a draw in a hand, a peek
or a call: those come from buttons or are inferred.

A turn at a real table passes through several stable readings (a slot lifted, then a
card on the pile, then the slot refilled). :func:`explain` therefore answers with one of:

* ``unchanged``: nothing the rules care about changed (also while a card is only lifted:
  ``unexplained`` then names the lifted slots, "move in progress");
* a move caught half-way (the old card on the pile, its slot still empty): the lines it
  may become as ``candidates``, with the lifted slots in ``unexplained`` (wait for the
  next reading before applying);
* ``candidates``: every short sequence of legal actions (a :class:`Line`) whose result
  agrees with the reading, e.g. ``[draw, swap slot 2 -> 7c]``, several when the camera
  cannot tell them apart (a drawn 7 discarded, or played for its power);
* ``violation``: no legal sequence explains it, but a move out of turn, a smackdown after
  the window closed, or a touch of the caller's locked cards would: the rule it breaks;
* otherwise ``unexplained`` lists the zones that changed and nothing explains.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.cards import UnknownCard, parse_card
from companion.games.base import ActionFormatError, Explanation, GameError, Ruling

from .actions import (
    CaboAction,
    ClaimedCard,
    Discard,
    Draw,
    Give,
    PlayPower,
    Reveal,
    Reward,
    Smackdown,
    Swap,
    TakeDiscard,
    TurnUp,
)

if TYPE_CHECKING:
    from .engine import CaboGame

VISIBLE = (TurnUp, Draw, TakeDiscard, Discard, Swap, PlayPower, Smackdown, Reward, Give)
"""Actions that can change what the camera sees (peeks, calls and blind swaps of
face-down cards cannot)."""
_CARD_FIELD = (TurnUp, Discard, Swap, PlayPower, Reward)


@dataclass(frozen=True)
class TableObservation:
    """One stable camera reading of a Cabo-family table. ``None`` means "not read"."""

    discard_top: str | None = None
    """Code of the top card of the discard pile."""
    discard_size: int | None = None
    """Cards in the discard pile, if counted (``0``: the pile is empty)."""
    deck_size: int | None = None
    slots: Mapping[int, tuple[bool, ...]] = field(default_factory=dict)
    """Per seat: for each slot position, is a card there? Seats left out were not read."""
    face_up: Mapping[tuple[int, int], str] | None = None
    """Cards lying face up in layouts, by ``(seat, slot)``; ``None``: not read."""
    revealed: tuple[tuple[str | None, ...], ...] | None = None
    """At the reveal: per seat, the code held up for each slot (``None`` for an empty slot)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableObservation:
        """Parse ``{"discard_top": "7c", "slots": {"0": [true, ...]}, "face_up": [[seat, slot, code]]}``."""
        if not isinstance(data, Mapping):
            raise ActionFormatError("an observation is a JSON object")
        slots = {}
        for key, row in dict(data.get("slots") or {}).items():
            if not isinstance(row, list) or any(not isinstance(v, bool) for v in row):
                raise ActionFormatError(f"observation slots of seat {key}: a list of true/false, got {row!r}")
            slots[int(key)] = tuple(row)
        face_up = None
        if data.get("face_up") is not None:
            face_up = {(int(s), int(k)): str(code) for s, k, code in data["face_up"]}
        revealed = data.get("revealed")
        return cls(
            discard_top=data.get("discard_top"),
            discard_size=data.get("discard_size"),
            deck_size=data.get("deck_size"),
            slots=slots,
            face_up=face_up,
            revealed=tuple(tuple(row) for row in revealed) if revealed is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "discard_top": self.discard_top,
            "discard_size": self.discard_size,
            "deck_size": self.deck_size,
            "slots": {str(s): list(row) for s, row in self.slots.items()},
            "face_up": None if self.face_up is None else [[s, k, c] for (s, k), c in sorted(self.face_up.items())],
            "revealed": None if self.revealed is None else [list(row) for row in self.revealed],
        }

    def check(self, players: int) -> None:
        """Bad input (an unknown code, a seat that does not exist) raises ActionFormatError."""
        codes = [self.discard_top] + list((self.face_up or {}).values())
        codes += [c for row in self.revealed or () for c in row]
        for code in codes:
            if code is not None:
                try:
                    parse_card(code, "observation")
                except UnknownCard as exc:
                    raise ActionFormatError(str(exc)) from None
        seats = list(self.slots) + [s for s, _k in (self.face_up or {})]
        for seat in seats:
            if not 0 <= seat < players:
                raise ActionFormatError(f"observation: seat {seat} does not exist (seats 0 to {players - 1})")


@dataclass(frozen=True)
class Line:
    """A sequence of actions that explains a reading, in the order to apply them."""

    actions: tuple[CaboAction, ...]

    def to_json(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self.actions]


@dataclass(frozen=True)
class Visible:
    top: str | None
    size: int
    deck: int
    slots: dict[int, tuple[bool, ...]]
    face_up: dict[tuple[int, int], str]


def visible(game: CaboGame) -> Visible:
    """What a camera could see of the current state."""
    t = game.table
    slots = {s: _trim(tuple(cid is not None for cid in layout)) for s, layout in enumerate(t.layouts)}
    face_up = {}
    for s, layout in enumerate(t.layouts):
        for k, cid in enumerate(layout):
            if cid is not None and t.cards[cid].face_up:
                face_up[(s, k)] = game.code_public(cid) or ""
    return Visible(game.code_public(t.discard[-1]) if t.discard else None, len(t.discard), len(t.deck), slots, face_up)


def _trim(row: tuple[bool, ...]) -> tuple[bool, ...]:
    while row and not row[-1]:
        row = row[:-1]
    return row


def differences(obs: TableObservation, seen: Visible) -> list[str]:
    """The zones where ``obs`` disagrees with ``seen`` (only what was read counts)."""
    out = []
    if obs.discard_top is not None and obs.discard_top != seen.top:
        out.append("discard")
    if obs.discard_top is None and obs.discard_size == 0 and seen.size:
        out.append("discard")
    if obs.discard_size is not None and obs.discard_size != seen.size and "discard" not in out:
        out.append("discard")
    if obs.deck_size is not None and obs.deck_size != seen.deck:
        out.append("draw")
    for seat, row in obs.slots.items():
        mine, theirs = _trim(tuple(row)), seen.slots.get(seat, ())
        for k in range(max(len(mine), len(theirs))):
            if (k < len(mine) and mine[k]) != (k < len(theirs) and theirs[k]):
                out.append(f"seat{seat}/slot{k}")
    if obs.face_up is not None:
        for place in sorted(set(obs.face_up) | set(seen.face_up)):
            if obs.face_up.get(place) != seen.face_up.get(place):
                out.append(f"seat{place[0]}/slot{place[1]}")
    return out


def fork(game: CaboGame) -> CaboGame:
    """A copy of ``game`` to try actions on; the original is never touched."""
    other = copy.copy(game)
    other.table = game.table.clone()
    other.canonical = list(game.canonical)
    other.actions = list(game.actions)
    other.events = list(game.events)
    return other


def _with_code(action: CaboAction, code: str | None) -> CaboAction:
    """``action`` carrying ``code`` as the card that it turns face up."""
    if code is None:
        return action
    if isinstance(action, _CARD_FIELD):
        return dataclasses.replace(action, card=code)
    if isinstance(action, Smackdown):
        cards = tuple(ClaimedCard(c.seat, c.slot, code) for c in action.cards)
        return dataclasses.replace(action, cards=cards)
    return action


def _try(game: CaboGame, line: tuple[CaboAction, ...]) -> CaboGame | None:
    trial = fork(game)
    try:
        for action in line:
            trial.apply(action)
    except GameError:
        return None
    return trial


def _search(game: CaboGame, obs: TableObservation, seats: Iterable[int] | None = None) -> list[Line]:
    """Lines of one or two visible actions whose result agrees with ``obs``. Two-step
    lines start with a draw or a take (the card in hand is not seen until it lands)."""
    found: list[Line] = []
    seat_filter = None if seats is None else set(seats)
    slot_changed = any(zone.startswith("seat") for zone in differences(obs, visible(game)))
    for first in game.legal_actions():
        if not isinstance(first, VISIBLE) or (seat_filter is not None and first.seat not in seat_filter):
            continue
        if isinstance(first, Smackdown) and not _claim_may_explain(game, first, obs, slot_changed):
            continue
        step = (_with_code(first, obs.discard_top),)
        trial = _try(game, step)
        if trial is None:
            continue
        if not differences(obs, visible(trial)):
            found.append(Line(step))
        if isinstance(first, (Draw, TakeDiscard)):
            for second in trial.legal_actions(first.seat):
                if not isinstance(second, (Discard, Swap, PlayPower)):
                    continue
                line = step + (_with_code(second, obs.discard_top),)
                result = _try(game, line)
                if result is not None and not differences(obs, visible(result)):
                    found.append(Line(line))
    return found


def _claim_may_explain(game: CaboGame, claim: Smackdown, obs: TableObservation, slot_changed: bool) -> bool:
    """Cheap test before trying a one-card claim: a claim that wins puts its card on top
    (so it must be the card read there); one that loses or is wrong changes a layout."""
    if slot_changed:
        return True
    cid = game.table.at(claim.cards[0].place)
    face = game.table.cards[cid].face if cid is not None else None
    return obs.discard_top is not None and (face is None or face.code == obs.discard_top)


def explain(game: CaboGame, obs: TableObservation) -> Explanation:
    obs.check(len(game.players))
    t = game.table
    if t.phase == "reveal" and obs.revealed is not None:
        return _explain_reveal(game, obs)
    now = visible(game)
    changed = differences(obs, now)
    if not changed:
        return Explanation(unchanged=True)
    found = _search(game, obs)
    if found:
        return Explanation(candidates=_shortest_first(found))
    lifted = _lifted(obs, now, changed)
    notes = tuple(f"{zone}: card lifted (move in progress)" for zone in lifted)
    if lifted and len(lifted) == len(changed):
        return Explanation(unchanged=True, unexplained=notes)
    if lifted:
        # A move caught half-way (the old card already on the pile, the slot not yet
        # refilled): the lines it may become, flagged as in progress.
        settled = dict(obs.slots)
        for zone in lifted:
            seat, slot = _zone_place(zone)
            row = list(settled[seat])
            row.extend([False] * (slot + 1 - len(row)))  # a trailing slot (a penalty card) not read yet
            row[slot] = True
            settled[seat] = tuple(row)
        found = _search(game, dataclasses.replace(obs, slots=settled))
        if found:
            return Explanation(candidates=_shortest_first(found), unexplained=notes)
    violation = _violation(game, obs)
    return Explanation(violation=violation, unexplained=tuple(changed))


def _shortest_first(found: list[Line]) -> tuple[Line, ...]:
    return tuple(sorted(found, key=lambda line: len(line.actions)))


def _zone_place(zone: str) -> tuple[int, int]:
    seat_part, slot_part = zone.split("/")
    return int(seat_part[len("seat"):]), int(slot_part[len("slot"):])


def _lifted(obs: TableObservation, now: Visible, changed: list[str]) -> list[str]:
    """The changed zones that are slots shown empty where a card lies: a hand is moving
    a card (a swap, a peek, a smackdown being made)."""
    lifted = []
    for zone in changed:
        if not zone.startswith("seat"):
            continue
        seat, slot = _zone_place(zone)
        row = obs.slots.get(seat, ())
        shown = slot < len(row) and row[slot]
        there = now.slots.get(seat, ())
        if not shown and slot < len(there) and there[slot]:
            lifted.append(zone)
    return lifted


def _violation(game: CaboGame, obs: TableObservation) -> Ruling | None:
    """Which rule the change breaks, found by relaxing one rule at a time."""
    t = game.table
    if t.phase in ("turn", "holding", "power"):
        for seat in range(len(game.players)):
            if seat == t.turn:
                continue
            trial = fork(game)
            trial.table.turn, trial.table.phase, trial.table.hand = seat, "turn", None
            trial.table.pending = []
            if _search(trial, obs, [seat]):
                return game.ruling("turn", f"seat {seat} played out of turn: it is seat {t.turn}'s turn",
                                   "violation", seat)
        if t.window is None and t.discard:
            trial = fork(game)
            trial.open_window(t.discard[-1], t.last_player if t.last_player is not None else t.dealer)
            lines = [line for line in _search(trial, obs) if isinstance(line.actions[0], Smackdown)]
            if lines:
                seat = lines[0].actions[0].seat
                return game.ruling("window", f"a {game.policy.claim_word} after the window on "
                                   f"{game.pretty(t.discard[-1])} closed", "violation", seat)
        if t.caller is not None and game.policy.caller_cards_locked:
            trial = fork(game)
            trial.table.caller = None
            if _search(trial, obs):
                return game.ruling("locked", f"seat {t.caller}'s cards are locked since the call", "violation")
    return None


def _explain_reveal(game: CaboGame, obs: TableObservation) -> Explanation:
    assert obs.revealed is not None
    action = Reveal(obs.revealed)
    trial = fork(game)
    try:
        trial.apply(action)
    except GameError as exc:
        return Explanation(violation=Ruling(game.policy.rule("score"), f"the revealed cards do not agree: {exc}",
                                            "violation"), unexplained=("reveal",))
    return Explanation(candidates=(Line((action,)),))


def as_observed(game: CaboGame, action: CaboAction) -> CaboAction:
    """``action`` as a referee would enter it: every card it turns face up carries its
    code, read from ``game`` (digital play, before the action is applied). A refereed
    game fed these actions follows the digital one using public facts only."""
    t = game.table

    def code(cid: int | None) -> str | None:
        return game.code(cid) if cid is not None else None

    if isinstance(action, TurnUp):
        return dataclasses.replace(action, card=code(t.deck[-1]))
    if isinstance(action, (Discard, PlayPower)):
        return dataclasses.replace(action, card=code(t.hand))
    if isinstance(action, (Swap, Reward)):
        return dataclasses.replace(action, card=code(t.at((action.seat, action.slot))))
    if isinstance(action, Smackdown):
        cards = tuple(ClaimedCard(c.seat, c.slot, code(t.at(c.place))) for c in action.cards)
        return dataclasses.replace(action, cards=cards)
    if isinstance(action, Reveal):
        return Reveal(tuple(tuple(code(cid) for cid in layout) for layout in t.layouts))
    return action
