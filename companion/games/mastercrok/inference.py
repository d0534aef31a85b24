"""Move inference for the referee: what a camera reading of the battle, or a player's
choices on the page, mean as Master Crok actions (answers are :class:`Explanation`).

The camera's reading is the core's typed :class:`~companion.observation.Observation`; what
this game needs of it is a :class:`BattleReading`: what lies face up at each seat's battle
place (``seat{n}/battle``): a catalog id, ``BACK`` (face down) or ``None`` (a card the reader
could not identify). Records and tests write it as ``{"battle": {seat: code}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.games.base import Action, ActionFormatError, Explanation, IllegalAction, Ruling
from companion.games.mastercrok.actions import Decline, Reserve, Reveal, Use, parse_settled
from companion.games.mastercrok.effects import Effect, EffectKind
from companion.observation import Observation

if TYPE_CHECKING:
    from companion.games.mastercrok.game import MasterCrok

BACK = "BACK"


@dataclass(frozen=True)
class BattleReading:
    """Seat -> what lies at that seat's battle place; seats with nothing seen are absent."""

    by_seat: Mapping[int, str | None] = field(default_factory=dict)

    @classmethod
    def from_observation(cls, observation: Observation) -> BattleReading:
        """The cards vision found in the battle places (``seat{n}/battle``)."""
        reading: dict[int, str | None] = {}
        for card in observation.cards:
            place = card.place
            if place is not None and place.kind == "battle" and place.seat is not None:
                reading[place.seat] = card.code
        return cls(reading)

    @classmethod
    def from_json(cls, data: object) -> BattleReading:
        """``{"battle": {seat: code}}``; :class:`ActionFormatError` names what is wrong."""
        raw = data.get("battle") if isinstance(data, Mapping) else None
        if not isinstance(raw, Mapping):
            raise ActionFormatError(f"a Master Crok reading is {{'battle': {{seat: code}}}}, got {data!r}")
        reading: dict[int, str | None] = {}
        for seat, code in raw.items():
            if not str(seat).isdigit() or not (code is None or isinstance(code, str)):
                raise ActionFormatError(f"battle reading: {seat!r}: {code!r} is not seat -> Crok id, BACK or null")
            reading[int(seat)] = code
        return cls(reading)


def battle_reading(observation: BattleReading | Observation) -> dict[int, str | None]:
    """Seat -> what lies face up at that seat's battle place (see :class:`BattleReading`)."""
    if isinstance(observation, Observation):
        return dict(BattleReading.from_observation(observation).by_seat)
    if isinstance(observation, BattleReading):
        return dict(observation.by_seat)
    raise ActionFormatError(f"not a reading of the battle: {type(observation).__name__}")


def _violation(exc: IllegalAction, seat: int | None = None) -> Ruling:
    return Ruling(exc.rule_id, exc.reason, kind="violation", seat=seat)


def explain_observation(game: MasterCrok, observation: BattleReading | Observation) -> Explanation:
    """Before the reveal: the :class:`Reveal` that the Croks seen face up imply (or the rule
    a premature or impossible reveal breaks). During the abilities round: the swap
    abilities that explain two Croks changing places. Anything else is reported in
    ``unexplained``, never guessed."""
    reading = battle_reading(observation)
    battle = game.battle
    holders = {c.holder for c in battle.croks}
    strangers = tuple(f"seat{s}/battle" for s, code in sorted(reading.items())
                      if s not in holders and code not in (BACK, None))
    if not battle.revealed:
        face_up = {s: code for s, code in reading.items() if s in holders and code != BACK}
        if not face_up:
            return Explanation(unexplained=strangers, unchanged=not strangers)
        if game.phase() != "reveal":
            ruling = Ruling("MC-06", "Croks turned face up before everyone has played", kind="violation")
            return Explanation(violation=ruling, unexplained=strangers)
        unclear = tuple(f"seat{s}/battle" for s in sorted(holders) if face_up.get(s) is None)
        if unclear:
            return Explanation(unexplained=unclear + strangers)
        reveal = Reveal(tuple(sorted((s, str(code)) for s, code in face_up.items())))
        try:
            game.check(reveal)
        except IllegalAction as exc:
            return Explanation(violation=_violation(exc), unexplained=strangers)
        except ActionFormatError:
            unknown = tuple(f"seat{s}/battle" for s, code in sorted(face_up.items()) if code not in game.catalog)
            return Explanation(unexplained=unknown + strangers)
        return Explanation(candidates=(reveal,), unexplained=strangers)
    current = {c.holder: c.card.crok for c in battle.croks}
    changed = sorted(s for s in holders if s in reading and reading[s] != current[s])
    if not changed:
        return Explanation(unexplained=strangers, unchanged=not strangers)
    if game.outcome() is None and len(changed) == 2:
        a, b = changed
        if reading[a] == current[b] and reading[b] == current[a]:
            swaps = tuple(u for u in game.legal_actions() if isinstance(u, Use) and _swapped_pair(game, u) == {a, b})
            if swaps:
                return Explanation(candidates=swaps, unexplained=strangers)
            message = f"the Croks of {game.players[a]} and {game.players[b]} changed places; no ability allows it now"
            return Explanation(violation=Ruling("MC-07", message, kind="violation"), unexplained=strangers)
    return Explanation(unexplained=tuple(f"seat{s}/battle" for s in changed) + strangers)


def _swapped_pair(game: MasterCrok, use: Use) -> set[int] | None:
    index = game.battle.ability_of(use.seat)
    if index is None:
        return None
    effect = use.settled or game.effect_of(game.battle.croks[index])
    if effect.kind is not EffectKind.SWAP_CROKS or not use.targets:
        return None
    return set(use.targets) if effect.between == "any_two" else {use.seat, use.targets[0]}


def explain_choice(game: MasterCrok, seat: int, choice: Mapping[str, Any]) -> Explanation:
    """The action(s) meant by ``seat``'s choices on the page::

        {"decision": "use" | "decline" | "reserve",
         "targets": [seat, ...], "crok": id, "index": n,   # use, all optional
         "settled": {"effect": ...}, "note": "...",        # a manual ability
         "pay": id}                                         # reserve, optional

    Without ``targets``, every legal choice of targets is a candidate (the page then
    asks which). An illegal choice comes back as ``violation`` with its rule id."""
    decision = choice.get("decision")
    if decision == "decline":
        candidates: list[Action] = [Decline(seat)]
    elif decision == "reserve":
        candidates = [Reserve(seat, choice.get("pay"))]
    elif decision == "use":
        candidates = list(_use_candidates(game, seat, choice))
    else:
        raise ActionFormatError(f"a choice's decision is use, decline or reserve, not {decision!r}")
    legal = []
    first_error: IllegalAction | None = None
    for action in candidates:
        try:
            game.check(action)
        except IllegalAction as exc:
            first_error = first_error or exc
        else:
            legal.append(action)
    if legal:
        return Explanation(candidates=tuple(legal))
    assert first_error is not None
    return Explanation(violation=_violation(first_error, seat))


def _use_candidates(game: MasterCrok, seat: int, choice: Mapping[str, Any]) -> list[Use]:
    settled = parse_settled(choice["settled"]) if choice.get("settled") is not None else None
    extras: dict[str, Any] = {"crok": choice.get("crok"), "index": choice.get("index"),
                              "settled": settled, "note": choice.get("note")}
    if "targets" in choice:
        targets = choice["targets"]
        if not isinstance(targets, list) or not all(isinstance(t, int) for t in targets):
            raise ActionFormatError(f"choice: 'targets' must be a list of seats, got {targets!r}")
        return [Use(seat, targets=tuple(targets), **extras)]
    index = game.battle.ability_of(seat) if game.battle.revealed else None
    if index is None:
        return [Use(seat, **extras)]
    effect: Effect = settled or game.effect_of(game.battle.croks[index])
    return [Use(seat, targets=t, **extras) for t in game.targets_for(index, effect) or [()]]
