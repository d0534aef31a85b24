"""Move inference: which action(s) explain what the camera sees on a Crapô table.

What the camera sees is a :class:`~companion.games.crapo.reading.CrapoReading` (made from
the core's observation, or from the plain notation of records and tests: see that module).

:func:`explain` searches, best first, for the shortest run of legal actions from the
engine's table to a table that looks like the reading: one move, a draw and the play of
the drawn card, or a block carried card by card through the empty spaces while a hand
hid the table. When none exists, it looks for a run with one broken rule and names it
(``drew a card with an empty space on the table (CP-11)``). A run of several actions is
returned as one :class:`Sequence` action.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import count as counter
from typing import Any

from companion.games.base import Explanation, GameError, IllegalAction, Ruling
from companion.games.crapo.actions import (
    DECKS,
    DRAWN,
    FOUNDATIONS,
    KIND,
    TABLEAU,
    TRASHES,
    CrapoAction,
    Draw,
    Move,
    Sequence,
    Stop,
    Trash,
)
from companion.games.crapo.faces import Face, builds_down, code
from companion.games.crapo.reading import CrapoReading, ObservationError
from companion.games.crapo.rules import Context, Fault, fault_of, legal_actions, play, possible_offences
from companion.games.crapo.table import Table

LEGAL_BUDGET = 4000
"""Tables expanded while looking for a legal explanation (a 4-card block through two
empty spaces takes a few hundred)."""
OFFENCE_BUDGET = 1500
MAX_ACTIONS = 16
MAX_CANDIDATES = 8
HIDING_PILES = frozenset(TRASHES + FOUNDATIONS)
"""Piles seen by their top alone, where a wrong move can leave a card under its twin."""


@dataclass(frozen=True)
class Expect:
    """What one pile must look like: ``exact`` (every card), ``prefix`` (its bottom
    cards; more may lie on them), ``top`` (the top cards), ``count`` (how many cards) or
    ``some`` (at least one card)."""

    how: str
    cards: tuple[Face | None, ...] = ()
    count: int = 0


Goal = dict[str, Expect]


def goal_of(reading: CrapoReading) -> Goal:
    """What each pile of the table must look like for ``reading``."""
    if not isinstance(reading, CrapoReading):
        raise ObservationError(f"explain takes a CrapoReading, got {type(reading).__name__} (the plain notation "
                               "is read with CrapoReading.from_json)")
    goal: Goal = {}
    for name, cards in reading.piles.items():
        if KIND[name] == "tableau":
            goal[name] = Expect("prefix" if name in reading.partial else "exact", cards)
        else:
            goal[name] = Expect("top", cards)
    for name, count in reading.decks.items():
        goal[name] = Expect("some") if count is None else Expect("count", count=count)
    return goal


def observe(t: Table) -> dict[str, Any]:
    """What a perfect camera sees on ``t``, in the observation format (deck counts
    included; a drawn card nobody has seen is ``null``)."""
    out: dict[str, Any] = {name: [code(c) for c in t.piles[name]] for name in TABLEAU}
    for name in FOUNDATIONS + TRASHES:
        out[name] = [code(t.piles[name][-1])] if t.piles[name] else []
    for name in DECKS:
        out[name] = len(t.piles[name])
    out[DRAWN] = [code(c) for c in t.piles[DRAWN]]
    return out


def _same(have: Face | None, want: Face | None) -> bool:
    return have is None or want is None or have == want


def distance(t: Table, goal: Goal) -> tuple[int, int]:
    """(piles that differ from the goal, a lower bound on the actions needed to reach it).
    Every action takes one card off one pile and puts it on one other, so it cannot
    close more than one card's gap on each side, nor touch more than two piles."""
    differ = adds = removes = 0
    for name, want in goal.items():
        pile = t.piles[name]
        if want.how == "count":
            if len(pile) != want.count:
                differ += 1
                removes += max(0, len(pile) - want.count)
            continue
        if want.how == "some":
            differ += not pile
            continue
        cards = want.cards
        if want.how in ("exact", "prefix"):
            same = 0
            for have, need in zip(pile, cards, strict=False):
                if not _same(have, need):
                    break
                same += 1
            if same != len(cards) or (same != len(pile) and want.how == "exact"):
                differ += 1
                adds += len(cards) - same
                removes += len(pile) - same
        elif not cards:
            if pile:
                differ += 1
                removes += len(pile)
        elif len(pile) < len(cards) or not all(map(_same, pile[-len(cards):], cards)):
            differ += 1
    return differ, max(adds, removes, (differ + 1) // 2)


def _changed(t: Table, goal: Goal) -> frozenset[str]:
    return frozenset(name for name in goal if distance(t, {name: goal[name]})[0])


def _new_faces(t: Table, goal: Goal) -> list[Face]:
    """Faces the observation shows where the table does not: what a draw may have revealed."""
    faces: set[Face] = set()
    for name, want in goal.items():
        if want.how not in ("count", "some") and distance(t, {name: want})[0]:
            faces.update(c for c in want.cards if c is not None)
    return sorted(faces)


def _named(actions: Iterable[CrapoAction], t: Table, faces: list[Face]) -> list[CrapoAction]:
    """Draws and trashes of cards nobody has seen, once for each face they may turn out to be."""
    out: list[CrapoAction] = []
    deck = t.piles[DECKS[t.turn]]
    for action in actions:
        if isinstance(action, Draw) and deck and deck[-1] is None:
            out.extend(Draw(action.seat, f) for f in faces)
            out.append(action)  # the card may still be in the player's hand
        elif isinstance(action, Trash) and t.holding and t.piles[DRAWN][-1] is None:
            out.extend(Trash(action.seat, f) for f in faces)
        else:
            out.append(action)
    return out


def _useful(action: CrapoAction, t: Table, origin: Table, goal: Goal, changed: frozenset[str],
            offending: bool = False) -> bool:
    """Prune: only actions on piles the observation shows changed (or does not show
    whole), piles this run has already touched, and tableau piles as temporary places. A card put on a foundation
    or a trash never comes back, so those only count where the observation changed (a
    legal play always changes the top there; only a wrong one can hide under its twin)."""
    def open_(name: str) -> bool:
        # a column whose top the camera does not see may have lost or gained cards unseen
        return name in changed or name not in goal or goal[name].how == "prefix"

    if isinstance(action, Move):
        # A trash is seen by its top alone, and two copies of a card can lie on each other:
        # its top may leave without the observation showing it.
        live = (open_(action.source) or KIND[action.source] == "trash"
                or t.piles[action.source] != origin.piles[action.source])
        return offending or (live and (KIND[action.target] == "tableau" or open_(action.target)))
    if isinstance(action, Draw):
        return open_(DECKS[action.seat]) or open_(DRAWN)
    if isinstance(action, Trash):
        return True  # the drawn card must go somewhere, and on a copy of itself it looks like nothing
    return open_(DECKS[t.turn]) or open_(TRASHES[t.turn])


@dataclass
class Found:
    actions: tuple[CrapoAction, ...]
    table: Table
    fault: Fault | None
    offender: int | None


def search(origin: Table, ctx: Context, goal: Goal, *, offences: bool = False, budget: int = LEGAL_BUDGET,
           max_actions: int = MAX_ACTIONS) -> list[Found]:
    """The shortest runs of actions from ``origin`` to a table that matches ``goal``
    (A* on the number of actions), one per distinct resulting table. With ``offences``,
    a run may contain one action that breaks a rule."""
    changed = _changed(origin, goal)
    faces = _new_faces(origin, goal)
    tie = counter()
    start = distance(origin, goal)[1]
    frontier: list[tuple[int, int, int, Table, tuple[CrapoAction, ...], Fault | None, int | None]] = [
        (start, 0, next(tie), origin, (), None, None)]
    best: dict[tuple[object, ...], int] = {(origin.key(), False): 0}
    found: list[Found] = []
    seen_results: set[tuple[object, ...]] = set()
    cost: int | None = None
    while frontier and budget > 0:
        f, g, _, t, path, fault, offender = heapq.heappop(frontier)
        if cost is not None and f > cost:
            break
        if path and distance(t, goal)[0] == 0 and (fault is not None or not offences):
            key = t.key()
            if key not in seen_results:
                seen_results.add(key)
                found.append(Found(path, t, fault, offender))
                cost = g
                if len(found) >= MAX_CANDIDATES:
                    break
            continue
        budget -= 1
        if g >= max_actions:
            continue
        steps: list[tuple[CrapoAction, bool]] = [
            (a, False) for a in _named(legal_actions(t, ctx), t, faces) if not isinstance(a, Stop)]
        if offences and fault is None:
            steps += [(a, True) for a in _named(possible_offences(t, ctx, changed | HIDING_PILES), t, faces)]
        for action, offending in steps:
            if not _useful(action, t, origin, goal, changed, offending):
                continue
            step_fault = fault
            try:
                if offending:
                    step_fault, _ = fault_of(t, ctx, action)
                nxt, _ = play(t.copy(), ctx, action, allow_offence=offending)
            except GameError:
                continue
            key = (nxt.key(), step_fault is not None)
            if best.get(key, max_actions + 1) <= g + 1:
                continue
            best[key] = g + 1
            h = distance(nxt, goal)[1]
            who = action.seat if offending else offender  # type: ignore[union-attr]
            heapq.heappush(frontier, (g + 1 + h, g + 1, next(tie), nxt, (*path, action), step_fault, who))
    return found


def built_legally(t: Table, goal: Goal) -> bool:
    """Whether legal moves can build every column as ``goal`` shows it. A card that is not
    where it lay on ``t`` was put there after every card above its place had left, so it
    builds down on the card under it (CP-03), and so does each card laid on it since. A
    column that breaks this (a red eight on a red nine) is no legal run's work: the search,
    which may go through thousands of tables before it gives up, is not needed to say so."""
    for name, want in goal.items():
        if want.how not in ("exact", "prefix"):
            continue
        pile, cards = t.piles[name], want.cards
        same = 0
        while same < min(len(pile), len(cards)) and _same(pile[same], cards[same]):
            same += 1
        for below, card in zip(cards[max(same - 1, 0):], cards[max(same, 1):], strict=False):
            if below is not None and card is not None and not builds_down(card, below):
                return False
    return True


def as_action(actions: tuple[CrapoAction, ...]) -> CrapoAction:
    return actions[0] if len(actions) == 1 else Sequence(actions)


def explain(t: Table, ctx: Context, reading: CrapoReading) -> Explanation:
    """The legal action(s) that turn ``t`` into what ``reading`` shows (several when the
    reading cannot tell them apart), else the rule the change breaks, else the piles
    nothing explains. Under the Stop house rule an offence is a playable candidate too
    (the opponent may then call Stop!), with its ruling in ``violation``."""
    goal = goal_of(reading)
    differ, _ = distance(t, goal)
    if differ == 0:
        return Explanation(unchanged=True)
    legal = search(t, ctx, goal) if built_legally(t, goal) else []
    if legal:
        return Explanation(candidates=tuple(as_action(f.actions) for f in legal))
    wrong = search(t, ctx, goal, offences=True, budget=OFFENCE_BUDGET, max_actions=4)
    if wrong:
        first = wrong[0]
        assert first.fault is not None
        ruling = Ruling(first.fault.rule_id, first.fault.message, kind="violation", seat=first.offender,
                        penalty="the opponent may call Stop!" if ctx.stop else None)
        # runs by which the same player breaks a rule are one offence however the camera's
        # view leaves them apart, and every one of them may be what was done (a queen put
        # on its foundation's king, or the king taken off onto the trash the queen left,
        # on the twin of that king: both show the same two tops, the one breaks CP-04, the
        # other takes a card off a foundation); the ruling names the first found
        playable = tuple(as_action(f.actions) for f in wrong
                         if f.fault is not None and f.offender == first.offender) if ctx.stop else ()
        return Explanation(candidates=playable, violation=ruling)
    return Explanation(unexplained=tuple(sorted(_changed(t, goal))))


def plan_block_move(t: Table, ctx: Context, source: str, count: int, target: str) -> list[CrapoAction]:
    """The shortest run of single-card moves (CP-05) that carries the top ``count`` cards
    of tableau pile ``source`` onto ``target``, through the empty spaces and any card on
    the table that can hold one for a while, leaving everything else as it was.
    :class:`IllegalAction` (CP-05) when the table has no room for it."""
    if KIND.get(source) != "tableau" or KIND.get(target) != "tableau" or source == target:
        raise IllegalAction("CP-05", "a block moves from one tableau pile to another")
    if not 1 <= count <= len(t.piles[source]):
        raise IllegalAction("CP-05", f"{source} holds {len(t.piles[source])} cards, not {count}")
    goal: Goal = {name: Expect("exact", tuple(t.piles[name])) for name in TABLEAU}
    block = tuple(t.piles[source][-count:])
    goal[source] = Expect("exact", tuple(t.piles[source][:-count]))
    goal[target] = Expect("exact", (*t.piles[target], *block))
    for name in FOUNDATIONS + TRASHES + DECKS + (DRAWN,):
        goal[name] = Expect("count", count=len(t.piles[name]))
    found = search(t, ctx, goal, max_actions=4 * count * count + 4)
    if not found:
        raise IllegalAction("CP-05", f"there is no room to move {count} cards from {source} to {target} "
                                     "one at a time")
    return list(found[0].actions)

