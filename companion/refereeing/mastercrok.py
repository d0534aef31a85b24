"""Refereeing Master Crok at a real table, from the battle camera, the seat pads and taps.

Every player brings their own deck of Croks, taught to the camera once (``companion teach
deck``, or the Teach page). The camera reads each seat's battle spot (``seat{n}/battle``)
and, on a mat that has them, each seat's winners' and losers' piles (``seat{n}/winners``,
``seat{n}/losers``). :class:`MasterCrokTable` turns what it sees and what is tapped into the
engine's actions:

* **The battle type** (MC-05): the attacker taps it on the page, or presses their pad, one
  press per type (power, then intelligence, then reflex, then power again: the page shows
  the choice) until their Crok is down.
* **The Croks played face down** (MC-05): a back seen in a battle spot is that seat's play,
  taken in order from the attacker. A back seen before the seats ahead of it have played is
  a ruling (MC-05); it is taken in its turn once they have.
* **The reveal** (MC-06): when every spot shows a face, the engine's ``explain`` names the
  reveal. A Crok turned face up too early is a ruling (MC-06); a card the camera cannot
  name (never taught, or hard to read) is a question, never a guess; a Crok its owner's
  deck cannot hold is a ruling (MC-01), and the referee waits until it is put right.
* **The abilities** (MC-07..MC-10, in the order of MC-G3): the engine says whose decision
  is due, and the page asks that player, one tap per choice (use it, on whom; decline;
  reserve, paying a winner, MC-09). With ``card_db = catalog`` the catalog's effects are
  applied; otherwise the players settle each ability on the page (MC-G2). Two Croks seen
  changing places are the swap ability that allows it, or a ruling (MC-07).
* **The end of a battle** (MC-11..MC-13): the engine's ruling. The battle's Croks still
  lying in the spots are waited for (they go to the piles); on a mat with piles, a Crok laid
  on the wrong pile is a ruling (MC-12) until put right. A tie starts the blind battle.
* **The end of the game** (MC-14, MC-15): the winners' pads light and the buzzer sounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Action, Event, GameError, IllegalAction
from companion.games.mastercrok import BattleType, Choose, DeckError, Decline, MasterCrok, Play, Reserve, Reveal, Use
from companion.games.mastercrok.catalog import CatalogError, parse_catalog
from companion.games.mastercrok.decks import check_deck
from companion.games.mastercrok.effects import EffectKind
from companion.games.mastercrok.inference import BACK, BattleReading
from companion.observation import CardSighting, Observation
from companion.refereeing.moves import Move as HandMove
from companion.refereeing.moves import Pick
from companion.refereeing.protocol import NO_MAT, Beep, BlinkSeat, Effect, LightSeat, MatZones, TableInput
from companion.refereeing.questions import Option
from companion.refereeing.setup import SetupError, TableSetup
from companion.refereeing.table import MatchTable, games_to_play

BATTLE_TYPES = tuple(BattleType)
PILES = ("winners", "losers")
AGAIN, NONE_OF_THESE = ":again", ":none"
"""The card question's answers besides a Crok (no Crok id starts with a colon)."""
MAX_OPTIONS = 48
"""A question lists at most this many Croks to choose from (a deck of 40 holds fewer kinds)."""


class MasterCrokTable(MatchTable):
    """A match of Master Crok for any number of players, each with their own deck."""

    FIRST_LABEL = "First attacker"
    MATCH_ENDS = games_to_play("the most group symbols in all wins")

    @classmethod
    def check_setup(cls, setup: TableSetup) -> None:
        """Every player has a deck of the catalog: at least 10 Croks (MC-01), none over the
        copy limit of the house rules (MC-02, MC-G1); the message names the deck and the Crok."""
        game_setup = setup.game_setup
        catalog_data, decks = game_setup.get("catalog"), game_setup.get("decks")
        if not isinstance(catalog_data, Mapping) or not isinstance(decks, list):
            raise SetupError("decks", "each player's deck of Croks: teach one on the Teach page or with "
                                      "`companion teach deck`, then choose it for the seat")
        if len(decks) != len(setup.seats):
            raise SetupError("decks", f"one deck per player: {len(setup.seats)} players, {len(decks)} decks")
        try:
            catalog = parse_catalog(catalog_data, where="the decks' catalog")
        except CatalogError as exc:
            raise SetupError("decks", str(exc)) from None
        names = list(game_setup.get("deck_names") or [])
        rule = str(setup.rules()["copy_limit"])
        for seat, ids in enumerate(decks):
            deck = f" {names[seat]!r}" if seat < len(names) else ""
            who = f"{setup.seats[seat]}'s deck{deck}"
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise SetupError("decks", f"{who}: a list of Crok ids")
            try:
                check_deck(catalog, ids, rule, who)
            except DeckError as exc:
                raise SetupError("decks", _named(str(exc), catalog)) from None

    def __init__(self, setup: TableSetup, mat: MatZones = NO_MAT) -> None:
        super().__init__(setup)
        game_setup = setup.game_setup
        self.deck_names: list[str] = [str(n) for n in game_setup.get("deck_names") or []]
        self.untaught: list[list[str]] = [list(u) for u in game_setup.get("untaught") or []]
        """Per seat, the Croks of the deck the camera was never taught: it asks for them."""
        self.game: MasterCrok = self._start_round({"catalog": game_setup.get("catalog"),
                                                   "decks": game_setup.get("decks"),
                                                   "first_attacker": setup.dealer})
        self.piles_followed = bool([a for a in mat.areas if a.zone.kind in PILES])
        self.spots: dict[int, CardSighting] = {}
        """What the camera last saw in each seat's battle spot."""
        self.piles: dict[tuple[int, str], tuple[str, ...]] = {}
        """The Croks the camera last saw on each seat's piles."""
        self.leftover: dict[int, str | None] = {}
        """Seat -> what the camera read of the last battle's Crok still lying in its spot
        (``None``: a card it could not name): not a new play."""
        self.refused: set[int] = set()
        """Seats whose unread Crok the players said is none of their deck's (MC-01)."""
        self._card_choices: list[str] = []
        """What each option of the card question means: a Crok id, or again / none of these."""
        self.named: dict[int, str] = {}
        """Seat -> the Crok the players named for a card the camera could not (this battle)."""
        self.pad: dict[str, Any] | None = None
        """The battle type the attacker's pad chose, and by how many presses (for the page)."""
        self.problems: dict[str, dict[str, Any]] = {}
        """What the table must put right before the referee goes on, by where it is."""
        self._pile_problems: dict[tuple[int, str], dict[str, Any]] = {}
        self._shown: dict[str, dict[str, Any]] = {}
        self._fresh_piles: set[tuple[int, str]] = set()
        self._now = 0
        self._effects: list[Effect] = []
        self._follow(fresh=False)

    def _start_round(self, setup: Mapping[str, Any]) -> MasterCrok:
        game = super()._start_round(setup)
        assert isinstance(game, MasterCrok)
        return game

    # -- inputs ------------------------------------------------------------------------

    def handle(self, event: TableInput) -> list[Effect]:
        self._effects = []
        self._now = event.t_ns
        if event.kind == "observation" and event.observation is not None:
            self._now = event.observation.landed_ns
            self._on_reading(event.observation)
        elif event.kind == "press" and event.seat is not None:
            self._on_press(event.seat)
        elif event.kind == "answer":
            self._on_answer(event.data)
        elif event.kind == "act":
            self._on_act(event.data)
        elif event.kind == "undo":
            self._on_undo()
        elif event.kind == "next_round":
            self._next_game()
        return self._effects

    def _on_reading(self, observation: Observation) -> None:
        spots: dict[int, CardSighting] = {}
        piles: dict[tuple[int, str], list[str]] = {}
        for card in observation.cards:
            place = card.place
            if place is None or place.seat is None:
                continue
            if place.kind == "battle":
                spots[place.seat] = self._spot_card(place.seat, card, spots.get(place.seat))
            elif place.kind in PILES and card.code not in (None, BACK):
                piles.setdefault((place.seat, place.kind), []).append(str(card.code))
        seen_piles = {key: tuple(sorted(codes)) for key, codes in piles.items()}
        changed_piles = {key for key in set(self.piles) | set(seen_piles)
                         if self.piles.get(key, ()) != seen_piles.get(key, ())}
        before = _codes(self.spots)
        spots_changed = _codes(spots) != before
        self.refused = {s for s in self.refused if s in spots and spots[s].code == before.get(s)}
        self.spots = spots
        self.piles = seen_piles
        self._fresh_piles = changed_piles
        self._follow(fresh=spots_changed)

    def _spot_card(self, seat: int, card: CardSighting, other: CardSighting | None) -> CardSighting:
        """Of two cards in one spot, the new one: not the last battle's Crok waiting to be
        put on a pile; else the one read with more confidence."""
        if other is None:
            return card
        leftover = self.leftover.get(seat)
        if other.code == leftover and card.code != leftover:
            return card
        if card.code == leftover and other.code != leftover:
            return other
        return card if card.confidence > other.confidence else other

    def _on_press(self, seat: int) -> None:
        """The attacker's pad: each press chooses the next battle type (MC-05), until the
        attacker's Crok is down; the page shows the choice."""
        game, battle = self.game, self.game.battle
        if game.outcome() is not None or seat != battle.attacker or battle.revealed:
            return
        last = game.actions[-1] if game.actions else None
        if battle.battle_type is None:
            chosen = BATTLE_TYPES[0]
        elif isinstance(last, Choose) and last.seat == seat:
            chosen = BATTLE_TYPES[(BATTLE_TYPES.index(battle.battle_type) + 1) % len(BATTLE_TYPES)]
            game.undo()  # nothing was played on the last choice yet: it is changed, not added to
        else:
            self._note(f"{self._seat_name(seat)}'s pad: the battle type is {battle.battle_type.value}; it can no "
                       "longer change once the attacker's Crok is down")
            return
        presses = self.pad["presses"] + 1 if self.pad and self.pad["battle"] == battle.number else 1
        if self._try(Choose(seat, chosen)):
            self.pad = {"seat": seat, "battle": battle.number, "battle_type": chosen.value, "presses": presses,
                        "next": BATTLE_TYPES[(BATTLE_TYPES.index(chosen) + 1) % len(BATTLE_TYPES)].value}
        self._follow(fresh=False)

    def _on_answer(self, data: Mapping[str, Any]) -> None:
        answered = self._answered(data)
        if answered is None:
            return
        question, option = answered
        if question.kind == "card" and question.seat is not None:
            self._named_card(question.seat, self._card_choices[question.options.index(option)])
        else:
            for action in option.actions:
                if not self._try(self.game.action_from_json(action)):
                    break
        self._follow(fresh=False)

    def _named_card(self, seat: int, choice: str) -> None:
        if choice == AGAIN:
            self._note(f"The camera reads {self._seat_name(seat)}'s Crok again: lay it flat in the spot, in good light")
        elif choice == NONE_OF_THESE:
            self.refused.add(seat)  # until another card lies in the spot
        else:
            self.named[seat] = choice

    def _on_act(self, data: Mapping[str, Any]) -> None:
        action = self._action_of(data, self.game)
        if action is not None:
            self._try(action)
            self._follow(fresh=False)

    def _on_undo(self) -> None:
        if not self.game.actions:
            return
        undone = self.game.undo()
        self.question = None
        self.problems.clear()
        self._announce({"rule_id": "", "kind": "info", "seat": None,
                        "message": f"Undone by the admin: {self._describe(undone)}"})
        self._follow(fresh=False)

    def _next_game(self) -> None:
        if self.game.outcome() is None or self.match.is_over():
            return
        self.game = self._start_round({})
        self.question = None
        self.named, self.leftover, self.problems, self.pad, self.refused = {}, {}, {}, None, set()
        self._announce({"rule_id": "MC-04", "kind": "info", "seat": self.game.battle.attacker,
                        "message": f"Game {len(self.match.rounds)}: shuffle, draw 4; "
                                   f"{self._seat_name(self.game.battle.attacker)} attacks first"})
        self._follow(fresh=False)

    # -- following the table -----------------------------------------------------------

    def _follow(self, *, fresh: bool) -> None:
        """Take every action the camera's last reading implies, then ask what only the
        players can say. ``fresh``: the battle spots changed in this reading (a swap is
        only read from a change, never from a reading the referee has moved past)."""
        for _ in range(64):  # each pass applies at most one action
            if not self._step(fresh):
                break
            fresh = False
        if self.piles_followed:
            self._judge_piles(self._fresh_piles)
        self._fresh_piles = set()
        self._show_problems()

    def _step(self, fresh: bool) -> bool:
        """One action from the reading, if it implies one; True if the game moved on."""
        game, battle = self.game, self.game.battle
        self._forget_leftovers()
        for kind in ("battle", "reveal"):
            self.problems.pop(kind, None)
        if game.outcome() is not None:
            self.question = None
            self.notes = []
            return False
        seen = self._battle_reading()
        if game.phase() == "abilities":
            self._clear_question("battle_type", "card")
            if fresh and self._swap_seen(seen):
                return True
            self._ask_decision()
            return False
        self._clear_question("ability", "which_move")
        holders = {c.holder for c in battle.croks}
        face_up = {s: code for s, code in seen.items() if code != BACK and (s in holders or s in battle.to_play)}
        if battle.battle_type is None:
            self._ask_battle_type()
            rule = "MC-13" if battle.blind else "MC-05"
            down = [s for s in battle.to_play if seen.get(s) == BACK and not battle.blind]
            if face_up:
                self._problem("battle", rule, min(face_up), "the attacker chooses the battle type before the reveal")
            elif down:
                self._problem("battle", rule, down[0], f"the attacker ({self._seat_name(battle.attacker)}) "
                                                       "chooses the battle type before anyone plays")
            if not battle.blind:
                self._note_waiting()
                return False
        else:
            self._clear_question("battle_type")
        if battle.to_play:
            next_seat = battle.to_play[0]
            if seen.get(next_seat) == BACK:
                return self._try(Play(next_seat, None), problem="battle")
            early = [s for s in battle.to_play[1:] if seen.get(s) == BACK]
            if early:
                self._problem("battle", "MC-05", early[0],
                              f"{self._seat_name(next_seat)} plays next: the attacker first, then clockwise")
        if battle.battle_type is None or not (face_up or not battle.to_play):
            self._clear_question("card")
            self._note_waiting()
            return False
        return self._reveal(seen)

    def _battle_reading(self) -> dict[int, str | None]:
        """Seat -> what lies in its battle spot for this battle: a Crok id, ``BACK`` or
        ``None`` (unread); spots holding nothing, or the last battle's Crok, are left out."""
        out: dict[int, str | None] = {}
        for seat, card in self.spots.items():
            if seat in self.leftover and card.code == self.leftover[seat]:
                continue
            out[seat] = self.named.get(seat) if card.code is None else card.code
        return out

    def _reveal(self, seen: dict[int, str | None]) -> bool:
        """The reveal (MC-06) the faces in the spots show, once every Crok is turned; a card
        the camera cannot name is asked for; a Crok the owner cannot hold is a ruling."""
        game = self.game
        for seat in self.refused:
            self._problem("reveal", "MC-01", seat, f"{self._seat_name(seat)}'s Crok is none their deck can hold: "
                                                   "play a Crok of your own deck")
        explanation = game.explain(BattleReading({s: c for s, c in seen.items() if s not in self.refused}))
        if explanation.candidates and not self.refused:
            self._clear_question("card")
            return self._try(explanation.candidates[0], problem="reveal")
        if explanation.violation is not None:
            ruling = explanation.violation
            self._problem("reveal", ruling.rule_id, ruling.seat, ruling.message)
            self._clear_question("card")
            return False
        holders = [c.holder for c in game.battle.croks]
        unread = [s for s in holders if s in seen and seen[s] is None and s not in self.refused]
        if game.phase() == "reveal" and unread:
            self._ask_card(unread[0])
            return False
        self._clear_question("card")
        if game.phase() == "reveal" and not self.refused:
            self._note("Reveal: every Crok turned face up together (MC-06)")
        return False

    def _problem(self, where: str, rule_id: str, seat: int | None, message: str) -> None:
        self.problems[where] = {"rule_id": rule_id, "kind": "violation", "seat": seat, "message": message}

    def _swap_seen(self, seen: dict[int, str | None]) -> bool:
        """Two Croks seen changing places during the abilities round: the swap that allows
        it, a question when several do, or a ruling (MC-07)."""
        explanation = self.game.explain(BattleReading(seen))
        if explanation.violation is not None:
            ruling = explanation.violation
            self._problem("swap", ruling.rule_id, ruling.seat, ruling.message)
            return False
        self.problems.pop("swap", None)
        candidates = list(explanation.candidates)
        if len(candidates) == 1:
            return self._try(candidates[0], problem="swap")
        if candidates:
            self._ask("which_move", "The camera saw two Croks change places: whose ability swapped them?",
                      [Option(self._describe(a), (a.to_json(),)) for a in candidates[:MAX_OPTIONS]])
        return False

    def _forget_leftovers(self) -> None:
        """A spot no longer showing the last battle's Crok has been cleared."""
        for seat in list(self.leftover):
            card = self.spots.get(seat)
            if card is None or card.code != self.leftover[seat]:
                del self.leftover[seat]

    def _note_waiting(self) -> None:
        battle = self.game.battle
        if self.leftover:
            names = ", ".join(self._crok_name(c) if c else "an unread card" for c in self.leftover.values())
            self._note(f"Put battle {battle.number - 1}'s Croks on the piles ({names})")
        elif battle.battle_type is None:
            self._note(f"{self._seat_name(battle.attacker)} attacks: choose the battle type (MC-05)")
        elif battle.to_play:
            self._note(f"{self._seat_name(battle.to_play[0])} plays a Crok face down (MC-05)")
        else:
            self.notes = []

    # -- piles ---------------------------------------------------------------------------

    def _judge_piles(self, fresh: set[tuple[int, str]]) -> None:
        """A Crok the camera sees on a pile must be one of that pile's (MC-12): the battle's
        winner on its holder's winners, every other Crok on its holder's losers, a reserve's
        payment on its player's losers. A pile is found wrong only when its reading has just
        changed (after a battle the camera still sees the piles as they were: that is no
        mistake until someone lays a Crok down), and right again whenever it is. A Crok of
        the battle under way laid down early is waited for, not ruled on."""
        players = self.game.table
        in_battle = {c.card.crok for c in self.game.battle.croks}
        for key in set(self.piles) | set(self._pile_problems):
            seat, pile = key
            if not 0 <= seat < len(players):
                continue
            expected = [c.crok for c in getattr(players[seat], pile)]
            wrong = [code for code in self.piles.get(key, ()) if code not in expected and code not in in_battle]
            if not wrong:
                self._pile_problems.pop(key, None)
                continue
            if key not in fresh and key not in self._pile_problems:
                continue
            crok = wrong[0]
            belongs = self._pile_of(crok)
            where = f"it belongs on {belongs}" if belongs else "it is none of that pile's Croks"
            self._pile_problems[key] = {
                "rule_id": "MC-12", "kind": "violation", "seat": seat,
                "message": f"{self._crok_name(crok)} lies on {self._seat_name(seat)}'s {pile}; {where}",
            }

    def _pile_of(self, crok: str) -> str | None:
        for seat, player in enumerate(self.game.table):
            for pile in PILES:
                if any(c.crok == crok for c in getattr(player, pile)):
                    return f"{self._seat_name(seat)}'s {pile}"
        return None

    # -- what must be put right ------------------------------------------------------------

    def _show_problems(self) -> None:
        """Announce each new thing to put right once (with its rule id, and the seat's LED
        blinking), and say so when the table is put right."""
        current = {**self.problems, **{f"pile:{k[0]}:{k[1]}": v for k, v in self._pile_problems.items()}}
        shown = self._shown
        for key, problem in current.items():
            if shown.get(key, {}).get("message") != problem["message"]:
                self._announce(problem)
                if problem.get("seat") is not None:
                    self._effects.append(BlinkSeat(self._now, int(problem["seat"])))
        if shown and not current:
            self._announce({"rule_id": "", "kind": "info", "seat": None, "message": "Put right: the game goes on"})
        self._shown = current
        if current:
            first = next(iter(current.values()))
            self._note("Waiting to be put right: " + self._human(first["message"]))

    # -- questions -------------------------------------------------------------------------

    def _clear_question(self, *kinds: str) -> None:
        if self.question is not None and self.question.kind in kinds:
            self.question = None

    def _keep(self, kind: str, seat: int | None, labels: Sequence[str]) -> bool:
        """The question already shown asks the same: keep it (and its id)."""
        question = self.question
        return (question is not None and question.kind == kind and question.seat == seat
                and [o.label for o in question.options] == list(labels))

    def _ask_battle_type(self) -> None:
        attacker = self.game.battle.attacker
        options = [Option(t.value.capitalize(), (Choose(attacker, t).to_json(),)) for t in BATTLE_TYPES]
        if self._keep("battle_type", attacker, [o.label for o in options]):
            return
        blind = " of the blind battle" if self.game.battle.blind else ""
        self._ask("battle_type", f"{self._seat_name(attacker)} attacks: which battle type{blind}? "
                                 "(or press your pad: once power, twice intelligence, three times reflex)",
                  options, seat=attacker)

    def _ask_card(self, seat: int) -> None:
        game = self.game
        owner = next(c.card.owner for c in game.battle.croks if c.holder == seat)
        possible = sorted(game.unaccounted(game.sharing(owner)))[:MAX_OPTIONS]
        options = [Option(crok_label(game, crok)) for crok in possible]
        options += [Option("Read it again"), Option("None of these")]
        if self._keep("card", seat, [o.label for o in options]):
            return
        # A Crok's id is no card code the page draws a face for: the choices are kept here.
        self._card_choices = [*possible, AGAIN, NONE_OF_THESE]
        self._ask("card", f"The camera cannot name {self._seat_name(seat)}'s Crok (a card never taught?): which is it?",
                  options, seat=seat, zone=f"seat{seat}/battle")

    def _ask_decision(self) -> None:
        """The decision the abilities round waits for: an immediate ability's target (or its
        settling, MC-08), or the next player's use, decline or reserve (MC-07, MC-09)."""
        game = self.game
        actions = game.legal_actions()
        if not actions:
            self.question = None
            return
        pending = game.pending_immediate()
        seat = game.battle.croks[pending[0]].played_by if pending else game.to_act()
        mine = [a for a in actions if getattr(a, "seat", None) == seat]
        options = [Option(self._describe(a), (a.to_json(),)) for a in mine[:MAX_OPTIONS]]
        if self._keep("ability", seat, [o.label for o in options]):
            return
        index = game.battle.ability_of(seat) if seat is not None else None
        crok = game.battle.croks[index] if index is not None else None
        if crok is None or seat is None:
            return
        ability = game.crok(crok).ability
        how = "it takes effect at once (MC-08)" if pending else "use it, decline it or reserve it (MC-09)"
        settle = " The players settle it: choose what it did." if game.effect_of(crok).kind is EffectKind.MANUAL else ""
        self._ask("ability", f"{self._seat_name(seat)}'s {ability.name} ({self._crok_name(str(crok.card.crok))}): "
                             f"{how}.{settle} {ability.text}".strip(), options, seat=seat)

    # -- applying --------------------------------------------------------------------------

    def _try(self, action: Action, problem: str | None = None) -> bool:
        """Apply ``action``; a refused one becomes a violation ruling (with ``problem``,
        the camera's: shown once, and waited on until the table changes). True if applied."""
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            seat = getattr(action, "seat", None)
            if problem is not None:
                self._problem(problem, exc.rule_id, seat if isinstance(seat, int) else None, exc.reason)
                return False
            self._announce({"rule_id": exc.rule_id, "kind": "violation", "seat": seat, "message": exc.reason})
            if isinstance(seat, int):
                self._effects.append(BlinkSeat(self._now, seat))
            return False
        except GameError as exc:
            self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": str(exc)})
            return False
        self._after(action, events)
        return True

    def _after(self, action: Action, events: Sequence[Event]) -> None:
        self.notes = []
        for event in events:
            self._tell(event)
        if any(e.kind in ("battle_won", "battle_tied") for e in events):
            # The battle's Croks still lie in the spots until the players put them on the
            # piles: what the camera reads there now is no play of the next battle.
            self.leftover = {seat: card.code for seat, card in self.spots.items()}
            self.named, self.refused, self.pad = {}, set(), None
            self.problems.pop("swap", None)
        outcome = self.game.outcome()
        if outcome is not None:
            for seat in outcome.winners:
                self._effects.append(LightSeat(self._now, seat))
            self._effects.append(Beep(self._now))

    def _tell(self, event: Event) -> None:
        """The engine's rulings, and what happened in the abilities round, for the page."""
        data = event.data
        if event.ruling is not None:
            self._announce(event.ruling.to_json())
            if event.kind == "battle_won":
                self._effects.append(LightSeat(self._now, int(data["seat"])))
            return
        seat = data.get("seat")
        who = self._seat_name(seat) if isinstance(seat, int) else ""
        if event.kind == "revealed":
            shown = ", ".join(f"{self._seat_name(int(s))}: {self._crok_name(str(c))}" for s, c in data["croks"].items())
            message, rule = f"Revealed: {shown}", "MC-06"
        elif event.kind == "ability_used":
            targets = [self._seat_name(t) for t in data.get("targets") or []]
            on = f" on {', '.join(targets)}" if targets else ""
            settled = " (settled by the players)" if data.get("settled") else ""
            message, rule = f"{who} uses {data['ability']}{on}{settled}", "MC-07"
        elif event.kind == "ability_declined":
            message, rule = f"{who} declines {self._ability_of(str(data['crok']))}", "MC-09"
        elif event.kind == "ability_lapsed":
            message, rule = f"{who}'s reserved {self._ability_of(str(data['crok']))} lapses: nobody acted", "MC-G3"
        elif event.kind == "ability_cancelled":
            message, rule = f"{who}'s {self._ability_of(str(data['crok']))} is cancelled", "MC-07"
        elif event.kind == "croks_swapped":
            a, b = data["seats"]
            message, rule = f"The Croks of {self._seat_name(a)} and {self._seat_name(b)} change places", "MC-07"
        elif event.kind == "card_taken":
            what = "a card from the hand" if data.get("pile") == "hand" else "a winning Crok"
            message, rule = f"{who} takes {what} of {self._seat_name(int(data['from']))}", "MC-07"
        else:
            return
        # ``event``: what happened, told by the table (the engine's own rulings carry none).
        self._announce({"rule_id": rule, "kind": "info", "seat": seat if isinstance(seat, int) else None,
                        "message": message, "event": event.kind})

    # -- presentation ------------------------------------------------------------------------

    def _crok_name(self, crok: str) -> str:
        catalog = self.game.catalog
        return catalog[crok].name if crok in catalog else crok

    def _ability_of(self, crok: str) -> str:
        catalog = self.game.catalog
        return catalog[crok].ability.name if crok in catalog else "the ability"

    def _describe(self, action: Action) -> str:
        return self._human(action_label(self.game, action, self.setup.seats))

    # -- by hand ---------------------------------------------------------------------------

    def hand_moves(self) -> dict[str, Any]:
        """The engine's moves as taps, and the reveal of Croks played face down (the
        players name each one among its owner's deck)."""
        offered = super().hand_moves()
        reveal = self._reveal_by_hand()
        if reveal is not None:
            offered["moves"].append(reveal.to_json())
        return offered

    def _hand_move(self, action: Action) -> HandMove | None:
        seat = getattr(action, "seat", None)
        return HandMove(seat if isinstance(seat, int) and seat >= 0 else None, (self._describe(action),),
                        action.to_json())

    def _reveal_by_hand(self) -> HandMove | None:
        game = self.game
        if game.outcome() is not None or self.closed() or game.phase() != "reveal":
            return None
        battle = game.battle.croks
        if all(c.card.crok is not None for c in battle):
            return None  # the engine lists it
        picks = tuple(
            Pick(("croks", str(c.holder)), f"{self._seat_name(c.holder)}'s Crok: which is it?",
                 tuple((crok, self._crok_name(crok)) for crok in dict.fromkeys(game.deck_lists[c.card.owner])))
            for c in battle if c.card.crok is None)
        return HandMove(None, ("Reveal the Croks",),
                        {"type": Reveal.type, "croks": {str(c.holder): c.card.crok for c in battle}}, picks)

    def public_state(self) -> dict[str, Any]:
        """The table page's state: the battle (face-down Croks show only who played them),
        every player's piles and group symbols, the rulings, the question and the match."""
        state = self._public(self.game.view(None), self.game.outcome() is not None)
        catalog = self.game.catalog
        state["mastercrok"] = {
            "decks": self.deck_names,
            "untaught": self.untaught,
            "pad": self.pad,
            "piles_followed": self.piles_followed,
            "leftover": {str(s): c for s, c in self.leftover.items()},
            "refused": sorted(self.refused),
            "groups": sorted({c.group for c in catalog.croks}),
            "croks": {c.id: {"name": c.name, "group": c.group} for c in catalog.croks},
        }
        return state

    def private_state(self, seat: int) -> dict[str, Any]:
        """The seat's hand as far as the referee knows it (unseen cards as ``null``)."""
        return {"view": self.game.view(seat)}


def action_label(game: MasterCrok, action: Action, seats: Sequence[str]) -> str:
    """A Master Crok action as a button says it (the same words for the same action, so the
    demo's players find their choice among the options)."""
    def name(seat: int) -> str:
        return seats[seat] if 0 <= seat < len(seats) else f"seat {seat}"

    if isinstance(action, Choose):
        return action.battle_type.value.capitalize()
    if isinstance(action, Play):
        return f"{name(action.seat)} plays a Crok face down"
    if isinstance(action, Reveal):
        return "Reveal"
    if not isinstance(action, (Use, Decline, Reserve)):
        return str(action.to_json().get("type", "a move"))
    index = game.battle.ability_of(action.seat) if game.battle.revealed else None
    ability = game.crok(game.battle.croks[index]).ability.name if index is not None else "the ability"
    if isinstance(action, Decline):
        return f"Decline {ability}"
    if isinstance(action, Reserve):
        if action.pay is None:
            return f"Reserve {ability} at no cost"
        paid = game.catalog[action.pay].name if action.pay in game.catalog else action.pay
        return f"Reserve {ability}, paying {paid} to the losers"
    targets = [name(t) for t in action.targets]
    on = f" on {' and '.join(targets)}" if targets else ""
    if action.settled is not None:
        said = {EffectKind.NONE: "no effect", EffectKind.WIN_BATTLE: "it wins the battle"}.get(action.settled.kind)
        if action.settled.kind is EffectKind.LOSE_BATTLE:
            said = "it loses the battle" if action.settled.target == "self" else "the opponent loses"
        return f"Use {ability}{on}: {said or action.settled.describe()}"
    effect = game.effect_of(game.battle.croks[index]) if index is not None else None
    if targets and effect is not None and effect.kind is EffectKind.SWAP_CROKS:
        return f"Use {ability}: swap the Croks of {' and '.join(targets)}"
    return f"Use {ability}{on}"


def crok_label(game: MasterCrok, crok: str) -> str:
    """A Crok as a button names it: its name, group and stats."""
    info = game.catalog[crok]
    return f"{info.name} ({info.group}; power {info.power}, intelligence {info.intelligence}, reflex {info.reflex})"


def _codes(spots: Mapping[int, CardSighting]) -> dict[int, str | None]:
    return {seat: card.code for seat, card in spots.items()}


def _named(message: str, catalog: Any) -> str:
    """A deck error with the Crok's name beside its id."""
    for crok in catalog.croks:
        quoted = repr(crok.id)
        if quoted in message:
            return message.replace(quoted, f"{quoted} ({crok.name})", 1)
    return message
