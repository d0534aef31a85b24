"""Refereeing Crocodile and Recall at a real table.

:class:`CaboTable` turns the table's inputs into engine actions:

* a stable **camera reading** is explained by the engine (``explain``); one legal move
  that fits is applied, several become a question, a move the rules forbid becomes a
  violation ruling, and a change nothing explains is shown and waited out;
* a **slap ruling** from the pads (who slapped first, by how much) is kept for the open
  window; when the camera then shows the flipped card on the pile, the smackdown is
  built for the first slapper, stamped with the pad's kernel timestamp, and the
  slower slappers' flipped cards lose the race (CR-18);
* a **Call** press calls "Crocodile" / "Recall" if the rules allow it now;
* **taps** answer questions, or make the moves the camera cannot see (a selfie's card).

It never reads a clock and owns no thread: the same inputs give the same game, which is
how a restart resumes. What the hardware should do (open a slap window from the moment
the card landed, light a seat) comes back as typed effects
(:mod:`companion.refereeing.protocol`) for the referee to carry out when live.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, cast

from companion.cards import parse_card
from companion.games.base import Action, Event, GameError, IllegalAction
from companion.games.cabo.actions import (
    BlindSwap,
    CaboAction,
    Call,
    ClaimedCard,
    Discard,
    Draw,
    Give,
    Look,
    Peek,
    PlayPower,
    PowerPeek,
    PowerSwap,
    Reveal,
    Reward,
    Skip,
    Smackdown,
    Swap,
    TakeDiscard,
    TurnUp,
)
from companion.games.cabo.engine import CaboGame
from companion.games.cabo.explain import Line, TableObservation, visible
from companion.observation import Observation
from companion.refereeing.camera import LAYOUT_SLOTS, Reading, read_table
from companion.refereeing.moves import Move, Pick
from companion.refereeing.protocol import NO_MAT, ArmSlaps, Beep, BlinkSeat, Effect, LightSeat, MatZones, TableInput
from companion.refereeing.questions import Option
from companion.refereeing.setup import TableSetup
from companion.refereeing.table import MATCH_INPUTS, MatchTable
from companion.zones import Zone, ZoneNameError

POWER_ACTIONS = (Peek, BlindSwap, PowerPeek, PowerSwap, Skip)
"""What a power's user does (a claim or a call meanwhile is another move, entered by hand)."""
MAX_STEPS = 8
"""Lines applied for one reading at most (a smackdown, the losers' claims, a reward)."""


class CaboTable(MatchTable):
    """One table session of Crocodile or Recall, refereed from camera, pads and taps."""

    MATCH_ENDS = (
        {"label": "100 points: rounds until someone reaches 100, the lowest total wins", "target": 100},
        {"label": "50 points", "target": 50},
        {"label": "One round", "rounds": 1},
        {"label": "5 rounds", "rounds": 5},
        {"label": "Until we finish it (the Finish button)"},
    )
    """The common ways to end a match (Cabo's usual 100 points first), offered at setup."""
    MATCH_RULE = "match_target"
    """The house rule (CR-G18) that the setup's choice replaces."""

    def __init__(self, setup: TableSetup, mat: MatZones = NO_MAT) -> None:
        super().__init__(setup)
        self.mat = mat
        self.game: CaboGame = self._start_round({"dealer": setup.dealer})
        self.slaps: list[tuple[int, int]] = []
        """(seat, t_ns) of the open window's slap ruling, first slapper first."""
        self.last_reading: Reading | None = None
        self.last_t_ns = 0
        self.now_ns = 0
        """When the input being handled happened (a reading: when its change began)."""
        self.confirmed: dict[str, str] = {}
        """Codes the players confirmed for doubtful readings, by zone, until the next move."""
        self._lifted: list[tuple[int, int]] = []
        self._touched: set[str] = set()
        self._entered_moves: set[str] = set()
        """Slots a move entered by hand moved (a look, a blind switch): the next reading shows
        them moved, already explained."""
        """Zones whose card was picked up since the last move was applied."""
        self._put_right = False
        """The last move's ruling sends cards back: wait for the table before reading on."""
        self._effects: list[Effect] = []
        if self.game.table.phase == "look":
            self._look_for_everyone()  # Recall opens its round on the looks: no card is turned up

    # -- inputs ------------------------------------------------------------------------

    def handle(self, event: TableInput) -> list[Effect]:
        """Handle one input; returns what the hardware should do."""
        self._effects = []
        kind, seat, t_ns, data = event.kind, event.seat, event.t_ns, event.data
        self.now_ns = t_ns
        if kind in MATCH_INPUTS:
            self.on_match_input(kind, data)
        elif kind == "undo":
            self._on_undo()
        elif kind == "next_round":
            self._next_round()
        elif self.closed():
            pass  # the round was scored by hand, or the match finished: no more moves
        elif kind == "observation" and event.observation is not None:
            self.last_t_ns = t_ns
            self.now_ns = event.observation.landed_ns
            self._on_reading(self._read(event.observation), t_ns)
        elif kind == "slap_result":
            self._on_slaps(data)
        elif kind == "press" and data.get("kind") == "call" and seat is not None:
            self._try([Call(seat)])
        elif kind == "answer":
            self._on_answer(data)
        elif kind == "act":
            self._on_act(data)
        return self._effects

    def _read(self, observation: Observation) -> Reading:
        owed = {seat: max(0, len(row) - LAYOUT_SLOTS) for seat, row in visible(self.game).slots.items()}
        return read_table(observation, len(self.setup.seats), self.mat, reveal=self.game.table.phase == "reveal",
                          owed=owed)

    # -- camera readings ---------------------------------------------------------------

    def _on_reading(self, reading: Reading, t_ns: int) -> None:
        if self.last_reading is not None and reading is not self.last_reading:
            self._touched |= reading.touched(self.last_reading) - self._entered_moves
            self._entered_moves = set()
        self.last_reading = reading
        reading = self._with_confirmed(reading)
        if reading.doubts:
            doubt = reading.doubts[0]
            if self.question is None or self.question.kind != "card" or self.question.zone != doubt.zone:
                options = [Option(f"It is {parse_card(code).pretty()}", code=code)
                           for code in dict.fromkeys(c for c in (doubt.code, *doubt.alternatives) if c)]
                where = "the discard pile" if doubt.zone == "discard" else self._zone_name(doubt.zone)
                self._ask("card", f"The camera is unsure of the card on {where}: which is it?",
                          options, zone=doubt.zone)
            return
        if self.question is not None and self.question.kind == "card":
            self.question = None
        self._explain_and_apply(reading, t_ns)

    def _with_confirmed(self, reading: Reading) -> Reading:
        if not self.confirmed or not reading.doubts:
            return reading
        obs = reading.observation
        face_up = dict(obs.face_up or {})
        top = obs.discard_top
        left = []
        for doubt in reading.doubts:
            code = self.confirmed.get(doubt.zone)
            if code is None:
                left.append(doubt)
            elif doubt.zone == "discard":
                top = code
            else:
                seat, slot = _place_of(doubt.zone)
                face_up[(seat, slot)] = code
        observation = dataclasses.replace(obs, discard_top=top, face_up=face_up)
        return Reading(observation, left)

    def _explain_and_apply(self, reading: Reading, t_ns: int) -> None:
        for _ in range(MAX_STEPS):
            if self.game.table.phase == "over":
                return
            try:
                explanation = self.game.explain(reading.observation)
            except GameError as exc:
                self._note(f"The camera's reading cannot be used: {exc}")
                return
            if self.slaps and self._race(reading.observation):
                return  # the slappers' cards were ruled on: the table changes next
            if explanation.unchanged:
                self._notes_from(explanation.unexplained)
                self._infer_unseen(explanation.unexplained)
                if not explanation.unexplained:
                    # The table agrees with the game again (a card put back after a ruling,
                    # a peek): what was touched on the way is settled.
                    self._touched = set()
                return
            if explanation.candidates:
                if not self._choose(list(explanation.candidates), t_ns) or self._put_right:
                    return  # asked, or a ruling sends cards back: the next reading shows the table
                continue
            self._lifted = []
            if explanation.violation is not None:
                ruling = explanation.violation.to_json()
                if not self.rulings or self.rulings[-1]["message"] != self._human(ruling["message"]):
                    self._announce(ruling)
                    if ruling.get("seat") is not None:
                        self._effects.append(BlinkSeat(self.now_ns, ruling["seat"]))
                self._note("Waiting for the table to be put right: " + self._human(explanation.violation.message))
            else:
                zones = ", ".join(self._zone_name(z) for z in explanation.unexplained)
                self._note(f"The camera sees a change no legal move explains ({zones}); waiting.")
            return

    def _choose(self, lines: list[Line], t_ns: int) -> bool:
        """Apply the line the inputs single out, or ask. True if something was applied."""
        claims = [line for line in lines if isinstance(line.actions[0], Smackdown)]
        moves = [line for line in lines if not isinstance(line.actions[0], Smackdown)]
        # What the cards' movements rule out is out, unless that would leave nothing at all.
        agreeing_claims, agreeing_moves = self._consistent(claims), self._consistent(moves)
        if agreeing_claims or agreeing_moves:
            claims, moves = agreeing_claims, agreeing_moves
        if claims and self.slaps:
            for slapper, slap_ns in self.slaps:
                mine = [line for line in claims if line.actions[0].seat == slapper]
                if mine:
                    claim = cast(Smackdown, mine[0].actions[0])
                    self.slaps.remove((slapper, slap_ns))  # one claim per slap
                    return self._try([dataclasses.replace(claim, t_ns=slap_ns)])
        if len(moves) == 1 and not claims:
            return self._try(list(moves[0].actions))
        if claims and not moves and len({line.actions[0].seat for line in claims}) == 1:
            # Only one seat could have made this claim: no slap needed to know whose.
            claim = cast(Smackdown, claims[0].actions[0])
            return self._try([dataclasses.replace(claim, t_ns=t_ns)])
        options = []
        for line in claims + moves:
            actions = [dataclasses.replace(a, t_ns=t_ns) if isinstance(a, Smackdown) else a for a in line.actions]
            options.append(Option(self._describe(actions), tuple(a.to_json() for a in actions)))
        kind = "who_smacked" if claims and not moves else "which_move"
        prompt = ("A card was smacked down but no pad was slapped: who smacked it?" if kind == "who_smacked"
                  else "The camera saw a move that could be one of these: which was it?")
        self._ask(kind, prompt, options)
        return False

    def _race(self, obs: TableObservation) -> bool:
        """Several slappers at once: the reading shows the first one's card on the pile (its
        slot empty) and the slower ones' cards turned up where they lie. One engine line
        cannot explain that, so the claims are built from the pads' order: the pile's new
        card for the first slapper, each turned-up card for the slapper whose layout it is
        in (or the only one left). Applied in slap order; the engine rules the race (CR-18)."""
        seen = visible(self.game)
        emptied = [(seat, slot) for seat, row in obs.slots.items()
                   for slot, present in enumerate(seen.slots.get(seat, ()))
                   if present and not (slot < len(row) and row[slot])]
        turned = {place: code for place, code in (obs.face_up or {}).items() if place not in seen.face_up}
        claims: list[Smackdown] = []
        slappers = list(self.slaps)
        if obs.discard_top is not None and obs.discard_top != seen.top and len(emptied) == 1 and slappers:
            seat, t_ns = slappers.pop(0)
            claims.append(self._claim(seat, t_ns, emptied[0], obs.discard_top))
        for place, code in sorted(turned.items()):
            owner = next((s for s in slappers if s[0] == place[0]), slappers[0] if len(slappers) == 1 else None)
            if owner is None:
                continue
            slappers.remove(owner)
            claims.append(self._claim(owner[0], owner[1], place, code))
        if not claims:
            return False
        self.slaps = slappers  # one claim per slap
        claims.sort(key=lambda claim: claim.t_ns)
        return self._try(list(claims))

    def _claim(self, seat: int, t_ns: int, place: tuple[int, int], code: str) -> Smackdown:
        """The game's claim (a smackdown, or a Recall match) of the card at ``place``."""
        claim: Smackdown = self.game.CLAIM(seat, t_ns, (ClaimedCard(*place, code),))
        return claim

    def _consistent(self, lines: list[Line]) -> list[Line]:
        """The lines the cards' movements agree with. A face-down card swapped for another
        shows only in that it was moved: a swap or a smackdown needs its slot touched, a plain discard
        needs none of the player's slots touched, a draw needs the deck touched (when the
        deck is in view). Falls back to every line when none agrees."""
        if not self._touched:
            return lines
        deck_seen = self.last_reading is not None and "draw" in self.last_reading.poses

        def agrees(line: Line) -> bool:
            moved = {f"seat{a.seat}/slot{a.slot}" for a in line.actions if isinstance(a, Swap)}
            for action in line.actions:
                if isinstance(action, Smackdown):
                    claimed = {f"seat{c.seat}/slot{c.slot}" for c in action.cards}
                    if not claimed <= self._touched:
                        return False  # a smacked card leaves its slot (refilled or not)
                    moved |= claimed
            if any(zone.startswith("seat") and zone not in moved for zone in self._touched):
                return False  # a card was picked up that this line does not touch
            for action in line.actions:
                seat = action.seat
                if isinstance(action, Draw) and deck_seen and "draw" not in self._touched:
                    return False
                if isinstance(action, TakeDiscard) and deck_seen and "draw" in self._touched:
                    return False
                if isinstance(action, Swap) and f"seat{seat}/slot{action.slot}" not in self._touched:
                    return False
                if isinstance(action, (Discard, PlayPower)) and any(
                    zone.startswith(f"seat{seat}/") for zone in self._touched
                ):
                    return False
            return True

        return [line for line in lines if agrees(line)]

    def _infer_unseen(self, notes: Sequence[str]) -> None:
        """A selfie or sneaky peek: the camera sees the card lifted and put back."""
        lifted = [_place_of(note.split(":")[0]) for note in notes if "lifted" in note]
        if lifted:
            self._lifted = lifted
            return
        pending = self._power_peeks()
        if self._lifted and pending:
            place = self._lifted[0]
            for action in pending:
                if action.target == place:
                    self._lifted = []
                    self._try([action])
                    return
        self._lifted = []

    def _power_peeks(self) -> list[Peek]:
        t = self.game.table
        if t.phase != "power" or t.turn is None:
            return []
        return [a for a in self.game.legal_actions(t.turn) if isinstance(a, Peek)]

    # -- pads --------------------------------------------------------------------------

    def _on_slaps(self, data: Mapping[str, Any]) -> None:
        order = [(int(s["seat"]), int(s["t_ns"])) for s in data.get("order", ())]
        if not order:
            return
        names = [self._seat_name(seat) for seat, _t in order]
        margins = list(data.get("margins_ms") or [])
        if data.get("tie"):
            tied = ", ".join(self._seat_name(s) for s in data.get("tied") or [s for s, _ in order[:2]])
            self._announce({"rule_id": self._slap_rule, "kind": "tie", "seat": None,
                            "message": f"{tied} slapped within {data.get('tie_threshold_ms', 1)} ms: "
                                       "a tie, the players settle it"})
        elif len(order) == 1:
            self._announce({"rule_id": self._slap_rule, "kind": "info", "seat": order[0][0],
                             "message": f"{names[0]} slapped"})
        else:
            self._announce({"rule_id": self._slap_rule, "kind": "info", "seat": order[0][0],
                            "message": f"{names[0]} slapped first, by {margins[0]:.0f} ms"
                                       if margins and margins[0] >= 1 else f"{names[0]} slapped first"})
        if self.game.table.window is None:
            return
        self.slaps = order
        if self.question is not None and self.question.kind == "who_smacked":
            self.question = None
        if self.last_reading is not None:
            self._on_reading(self.last_reading, self.last_t_ns)

    # -- taps --------------------------------------------------------------------------

    def _on_answer(self, data: Mapping[str, Any]) -> None:
        question = self.question
        if question is None or data.get("question") != question.id:
            return  # answered already, or by an older page: nothing to do
        index = data.get("option")
        if not isinstance(index, int) or not 0 <= index < len(question.options):
            return
        option = question.options[index]
        self.question = None
        if question.kind == "card" and option.code is not None and question.zone is not None:
            self.confirmed[question.zone] = option.code
            if self.last_reading is not None:
                self._on_reading(self.last_reading, self.last_t_ns)
            return
        actions = [self.game.action_from_json(a) for a in option.actions]
        if self._try(actions) and self.last_reading is not None:
            self._explain_and_apply(self._with_confirmed(self.last_reading), self.last_t_ns)

    def _on_act(self, data: Mapping[str, Any]) -> None:
        """A move entered by hand. A claim without its stamp (a tap, not a pad) is stamped
        when it was entered."""
        given = data.get("action")
        try:
            action = self.parse_hand_action(given if isinstance(given, Mapping) else {}, self.now_ns)
        except GameError as exc:
            self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": f"Not an action: {exc}"})
            return
        self.question = None  # the move entered answers whatever was asked
        if self._try([action]):
            self._entered_moves = _places_moved(action)

    def _on_undo(self) -> None:
        if self.undo_match_input() or not self.game.actions:
            return
        undone = cast(CaboAction, self.game.undo())
        self.question = None
        self.confirmed = {}
        self.slaps = []
        self._announce({"rule_id": "", "kind": "info", "seat": None,
                        "message": f"Undone by the admin: {self._describe([undone])}"})
        self._ask_unseen()

    def _next_round(self) -> None:
        outcome = self.match.current_outcome()
        if outcome is None or self.match.is_over():
            return
        self.game = self._start_round(self.game.next_round_setup(outcome))
        self.question = None
        self.confirmed = {}
        self.slaps = []
        self.notes = []
        if self.game.table.phase == "look":
            self._look_for_everyone()  # Recall's next round opens on the looks too

    # -- applying ----------------------------------------------------------------------

    def _start_round(self, setup: Mapping[str, Any]) -> CaboGame:
        game = super()._start_round(setup)
        assert isinstance(game, CaboGame)
        return game

    def _try(self, actions: Sequence[CaboAction]) -> bool:
        """Apply ``actions`` in order; a refused one becomes a violation ruling. True if
        at least one was applied."""
        applied = False
        for action in actions:
            window_before = self._window_card()
            try:
                events = self.game.apply(action)
            except IllegalAction as exc:
                self._announce({"rule_id": exc.rule_id, "kind": "violation", "seat": getattr(action, "seat", None),
                                "message": exc.reason})
                if getattr(action, "seat", None) is not None and action.seat >= 0:
                    self._effects.append(BlinkSeat(self.now_ns, action.seat))
                return applied
            except GameError as exc:
                self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": str(exc)})
                return applied
            applied = True
            self._after(events, window_before)
        return applied

    def _after(self, events: Sequence[Event], window_before: int | None) -> None:
        self.confirmed = {}
        self._touched = set()
        self.notes = []
        self._put_right = False
        for event in events:
            if event.ruling is not None:
                ruling = event.ruling.to_json()
                self._announce(ruling)
                if ruling["kind"] == "penalty":
                    # A wrong or late card goes back, a penalty card comes: the reading
                    # that showed the claim is out of date.
                    self._put_right = True
                    if ruling.get("seat") is not None:
                        self._effects.append(BlinkSeat(self.now_ns, ruling["seat"]))
        if self.game.table.phase == "look":
            self._look_for_everyone()
        window_after = self._window_card()
        if window_after is not None and window_after != window_before:
            self.slaps = []
            self._effects.append(ArmSlaps(self.now_ns))
        elif window_after is None:
            self.slaps = []
        outcome = self.game.outcome()
        if outcome is not None:
            for seat in outcome.winners:
                self._effects.append(LightSeat(self.now_ns, seat))
            self._effects.append(Beep(self.now_ns))
        self._ask_unseen()

    def _look_for_everyone(self) -> None:
        """The first look happens in the players' hands, out of the camera's sight: the
        referee records it as the rules say (CR-05: the two near cards; RE-06: any two,
        recorded as the first two)."""
        for seat in range(len(self.setup.seats)):
            looks = [a for a in self.game.legal_actions(seat) if isinstance(a, Look) and a.slots]
            if looks:
                for event in self.game.apply(looks[0]):
                    if event.ruling is not None:
                        self._announce(event.ruling.to_json())

    def _ask_unseen(self) -> None:
        """A power the turn player must use: the page offers its choices (the camera
        cannot see a peek or a blind swap); a peek seen as a lifted card answers itself."""
        t = self.game.table
        if self.question is not None or t.phase != "power" or t.turn is None:
            return
        actions = [a for a in self.game.legal_actions(t.turn) if isinstance(a, POWER_ACTIONS)]
        if not actions:
            return
        options = tuple(Option(self._describe([a]), (a.to_json(),)) for a in actions)
        self._ask_move("unseen", f"{self._seat_name(t.turn)} uses a power: what did they do?", options, seat=t.turn)

    # -- presentation ------------------------------------------------------------------

    def _window_card(self) -> int | None:
        window = self.game.table.window
        return None if window is None else window.card

    def _notes_from(self, unexplained: Sequence[str]) -> None:
        lifted = [self._zone_name(note.split(":")[0]) for note in unexplained if "lifted" in note]
        self.notes = [f"Move in progress: a card is lifted from {', '.join(lifted)}"] if lifted else []

    @property
    def _slap_rule(self) -> str:
        """The rule that settles who slapped first, in the game's own numbering (CR-18, RE-09)."""
        return self.game.policy.rule("race")

    def _zone_name(self, zone: str) -> str:
        place = Zone.read(zone)
        if place is None:
            return zone
        return place.words(self._seat_name(place.seat) if place.seat is not None else None)

    def _describe(self, actions: Sequence[CaboAction]) -> str:
        return "; then ".join(self._human(_action_text(a)) for a in actions)

    def public_state(self) -> dict[str, Any]:
        """The table page's state: only public facts (the engine's public view)."""
        return self._public(self.game.view(None), self.game.outcome() is not None)

    # -- moves by hand -------------------------------------------------------------------

    def parse_hand_action(self, raw: Mapping[str, Any], t_ns: int = 0) -> CaboAction:
        """A claim entered without its stamp (a tap, not a pad) is stamped ``t_ns``: when
        it was entered."""
        if raw.get("type") == self.game.CLAIM.type and "t_ns" not in raw:
            raw = {**raw, "t_ns": t_ns}
        return self.game.action_from_json(raw)

    def _hand_move(self, action: Action) -> Move | None:
        """A legal action as the page offers it. A card turned face up that nobody has
        seen yet is left for the players to name (a :class:`Pick`); one everybody saw is
        filled in; nothing only one player knows is ever in it."""
        assert isinstance(action, CaboAction)
        t = self.game.table
        data = action.to_json()
        seat = action.seat if action.seat >= 0 else None
        who = self._seat_name(seat)
        claim = "Claim a match" if self.setup.game == "recall" else "Smack down a card"
        call = "Call “Recall!”" if self.setup.game == "recall" else "Call “Crocodile!”"

        def card(place: tuple[int, int]) -> str:
            owner, slot = place
            return f"{self._seat_name(owner)}'s card {slot + 1}"

        def face_of(cid: int | None, at: tuple[str | int, ...], prompt: str) -> list[Pick]:
            code = self.game.code_public(cid) if cid is not None else None
            if code is not None:
                _put(data, at, code)
                return []
            return [Pick(at, prompt)]

        picks: list[Pick] = []
        if isinstance(action, TurnUp):
            path: tuple[str, ...] = ("Turn up the first card",)
            picks = face_of(t.deck[-1] if t.deck else None, ("card",), "Which card was turned up?")
        elif isinstance(action, Look):
            path = ("Look at their cards", ", ".join(f"card {s + 1}" for s in action.slots) or "No look")
        elif isinstance(action, Draw):
            path = ("Draw from the deck",)
        elif isinstance(action, TakeDiscard):
            top = self.game.code_public(t.discard[-1]) if t.discard else None
            path = (f"Take the discard ({_card_text(top)})" if top else "Take the discard",)
        elif isinstance(action, (Discard, PlayPower)):
            path = ("Discard the card in hand",) if isinstance(action, Discard) else (
                "Play the card in hand for its power",)
            picks = face_of(t.hand, ("card",), f"Which card did {who} put on the pile?")
        elif isinstance(action, Swap):
            path = ("Swap the card in hand for one of theirs", card((action.seat, action.slot)))
            picks = face_of(t.at((action.seat, action.slot)), ("card",),
                            f"Which card went from {card((action.seat, action.slot))} to the pile?")
        elif isinstance(action, Smackdown):
            place = action.cards[0].place
            path = (claim, card(place))
            data.pop("t_ns", None)  # stamped when it is entered
            picks = face_of(t.at(place), ("cards", 0, "card"), f"Which card was flipped from {card(place)}?")
        elif isinstance(action, Peek):
            path = ("Look at a card (power)", card(action.target))
        elif isinstance(action, BlindSwap):
            path = ("Swap two cards unseen (power)", card(action.a), f"with {card(action.b)}")
        elif isinstance(action, PowerPeek):
            path = ("Look at one of theirs and another's (power)", card((action.seat, action.own)),
                    f"and {card(action.other)}")
        elif isinstance(action, PowerSwap):
            path = ("Swap the two cards looked at?", "Swap them" if action.swap else "Keep them where they are")
        elif isinstance(action, Reward):
            path = ("Discard one of their own cards (reward)", card((action.seat, action.slot)))
            picks = face_of(t.at((action.seat, action.slot)), ("card",),
                            f"Which card did {who} discard from {card((action.seat, action.slot))}?")
        elif isinstance(action, Give):
            path = ("Give one of their cards", card((action.seat, action.slot)))
        elif isinstance(action, Skip):
            path = ("Pass: nothing more to do",)
        elif isinstance(action, Call):
            path = (call,)
        elif isinstance(action, Reveal):
            rows: list[list[str | None]] = []
            for owner, layout in enumerate(t.layouts):
                row: list[str | None] = []
                for slot, cid in enumerate(layout):
                    code = self.game.code_public(cid) if cid is not None else None
                    row.append(code)
                    if cid is not None and code is None:
                        picks.append(Pick(("cards", owner, slot), f"{card((owner, slot))}: which card is it?"))
                rows.append(row)
            data = {"type": "reveal", "cards": rows}
            path = ("Reveal every card",)
        else:
            return super()._hand_move(action)
        return Move(seat, path, data, tuple(picks))

    def _card_codes(self) -> list[str]:
        """The faces a pick may name: the deck's, but those whose every copy is in sight."""
        seen = Counter(card.face for card in self.game.table.cards if card.public and card.face is not None)
        return sorted((face.code for face, count in self.game.composition.items() if seen[face] < count),
                      key=_deck_order)

    def private_state(self, seat: int) -> dict[str, Any]:
        """What ``seat`` knows besides the public state: the engine's view for that seat."""
        return {"view": self.game.view(seat)}


def _place_of(zone: str) -> tuple[int, int]:
    place = Zone.parse(zone)
    if place.kind != "slot" or place.seat is None or place.index is None:
        raise ZoneNameError(f"not a slot zone: {zone!r}")
    return place.seat, place.index


def _put(data: dict[str, Any], at: tuple[str | int, ...], value: Any) -> None:
    """Set ``value`` at the path ``at`` of the JSON ``data``."""
    target: Any = data
    for key in at[:-1]:
        target = target[key]
    target[at[-1]] = value


RANK_ORDER = "A23456789TJQK"
SUIT_ORDER = "shdc"


def _deck_order(code: str) -> tuple[int, int]:
    if len(code) != 2:
        return (99, 0)  # the joker last
    return (RANK_ORDER.index(code[0]), SUIT_ORDER.index(code[1]))


def _card_text(code: str | None) -> str:
    return parse_card(code).pretty() if code else "a card"


def _places_moved(action: CaboAction) -> set[str]:
    """The slots whose cards a power's use picks up and puts down: the camera sees them
    moved, and the move that explains it was entered on the phone."""
    if isinstance(action, Peek):
        places = [action.target]
    elif isinstance(action, BlindSwap):
        places = [action.a, action.b]
    elif isinstance(action, PowerPeek):
        places = [(action.seat, action.own), action.other]
    else:
        return set()
    return {f"seat{seat}/slot{slot}" for seat, slot in places}


def _action_text(action: CaboAction) -> str:
    """A short description of an action for a button."""
    data = action.to_json()
    kind = data["type"]
    seat = f"seat {data['seat']}" if "seat" in data and data["seat"] >= 0 else ""
    if kind in ("smack", "match"):
        cards = ", ".join(f"{_card_text(c.get('card'))} from seat {c['seat']}'s card {c['slot'] + 1}"
                          for c in data["cards"])
        return f"{seat} smacked {cards}"
    if kind == "draw":
        return f"{seat} drew"
    if kind == "take_discard":
        return f"{seat} took the discard"
    if kind == "discard":
        return f"{seat} discarded {_card_text(data.get('card'))} (no power)"
    if kind == "power":
        return f"{seat} played {_card_text(data.get('card'))} for its power"
    if kind == "swap":
        return f"{seat} swapped it for their card {data['slot'] + 1} ({_card_text(data.get('card'))})"
    if kind == "peek":
        target = data["target"]
        return f"{seat} looked at seat {target[0]}'s card {target[1] + 1}"
    if kind == "blind_swap":
        a, b = data["a"], data["b"]
        return f"{seat} swapped seat {a[0]}'s card {a[1] + 1} with seat {b[0]}'s card {b[1] + 1}"
    if kind == "power_peek":
        other = data["other"]
        return f"{seat} looked at their card {data['own'] + 1} and seat {other[0]}'s card {other[1] + 1}"
    if kind == "power_swap":
        return f"{seat} {'swapped' if data['swap'] else 'did not swap'} them"
    if kind == "reward":
        return f"{seat} discarded their card {data['slot'] + 1} ({_card_text(data.get('card'))})"
    if kind == "give":
        return f"{seat} gave their card {data['slot'] + 1}"
    if kind == "skip":
        return f"{seat} passed"
    if kind == "call":
        return f"{seat} called"
    return kind.replace("_", " ")
