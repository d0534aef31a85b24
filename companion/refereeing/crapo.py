"""Refereeing Crapô at a real table, from the overhead camera, the Call pads and taps.

Two players, two packs, on the mat ``companion mat crapo`` prints: eight tableau spaces
(``tableau0-3`` are dealt by the player at the bottom of the mat, ``tableau4-7`` by the
one at the top), eight foundations across the middle, each player's deck and trash.

**The deal.** The referee waits until the camera sees one card face up on each of the
eight spaces. Who starts follows the house rule (CP-G3): the players' choice on the setup
page, or the cut: each player turns the top card of their deck face up on their trash
place, the lower (or higher) starts, a tie turns up the next card on top; the turned-up
cards then go back on the decks, where the engine knows them.

**Play.** Each stable reading of the camera (:class:`~companion.games.crapo.reading.CrapoReading`,
made from the core's observation) is explained by the engine (``explain``):

* one run of legal actions, or several that leave the same table: applied (a draw and the
  play of the drawn card, a block carried card by card through the empty spaces);
* several that leave different tables: a one-tap question;
* a change the rules forbid: a ruling with its CP id, and the referee waits until the
  table is put right (under the ``compulsory_and_stop`` house rule the move stands as an
  offence instead, and the opponent may call Stop!);
* a card read without confidence where the table changed: a one-tap question first (a
  doubtful card the referee already knows, under a card it knows, is taken as known);
* a change nothing explains: shown and waited out, never guessed.

**Stop!** (``compulsory_and_stop`` on): the opponent's Call pad. The press is stamped by
the pad (``t_ns``), like a slap: moves seen to land after it are taken back first, so a
call made in time is not lost to a camera that settled late. A move taken back by the
call must be put right on the table before anything else is read.

The table never reads a clock, owns no thread and does no I/O: the same inputs give the
same game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.cards import UnknownCard
from companion.games.base import Action, ActionFormatError, Event, GameError, IllegalAction
from companion.games.crapo import Crapo
from companion.games.crapo.actions import (
    DECKS,
    DRAWN,
    KIND,
    TABLEAU,
    TRASHES,
    CrapoAction,
    Draw,
    Flip,
    Move,
    Stop,
    Trash,
)
from companion.games.crapo.actions import Sequence as Run
from companion.games.crapo.deal import SetupError
from companion.games.crapo.faces import CODES, RANK, Face, builds_down, code, face, pretty
from companion.games.crapo.reading import CrapoReading, Doubt
from companion.observation import Observation
from companion.refereeing.moves import Move as HandMove
from companion.refereeing.moves import Pick, moves_json
from companion.refereeing.protocol import NO_MAT, Beep, BlinkSeat, Effect, LightSeat, MatZones, TableInput, ZoneArea
from companion.refereeing.questions import Option
from companion.refereeing.setup import TableSetup
from companion.refereeing.table import MATCH_INPUTS, MatchTable, games_to_play


@dataclass(frozen=True)
class HandDeal(Action):
    """The deal entered on the page (an ``act`` before the game starts): the eight tableau
    cards, seat 0's four first, and who starts (the players settled the cut, CP-G3, at the
    table). The table's notation, not the engine's: the engine starts from it."""

    type: ClassVar[str] = "deal"
    tableau: tuple[Face, ...]
    first_player: int

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> HandDeal:
        tableau = raw.get("tableau")
        if not isinstance(tableau, list) or len(tableau) != len(TABLEAU):
            raise ActionFormatError(f"field 'tableau': give the {len(TABLEAU)} cards dealt, seat 1's four first")
        cards = tuple(face(card, f"field 'tableau' [{i}]") for i, card in enumerate(tableau))
        first = raw.get("first_player")
        if first not in (0, 1) or isinstance(first, bool):
            raise ActionFormatError(f"field 'first_player': {first!r} is not a seat (0 or 1)")
        return cls(cards, first)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "tableau": [code(card) for card in self.tableau], "first_player": self.first_player}

MAX_OPTIONS = 24
"""A question never offers more buttons than fit on a phone."""
COLUMN_REACH_MM = 120.0
"""A card the reader placed on no zone, this close to a tableau space and within its
width, is a card of that column: a long fan runs past the end of its space, past the edge
of the mat, and out of the picture."""


class CrapoTable(MatchTable):
    """A match of Crapô (two players; games won count)."""

    SEAT_ROLES = ("bottom of the mat", "top of the mat")
    FIRST_LABEL = "Who starts (when you choose)"
    MATCH_ENDS = games_to_play("the most games won wins")

    def __init__(self, setup: TableSetup, mat: MatZones = NO_MAT) -> None:
        super().__init__(setup)
        self.mat = mat
        self.fan_starts = fan_starts(mat)
        self.game: Crapo | None = None
        """``None`` while the cards are dealt (and cut)."""
        self.cut: list[tuple[Face, Face]] = []
        """The cards turned up to decide who starts, top of the decks first."""
        self.cut_lies = False
        """The turned-up cards still lie on the trashes, to go back on the decks."""
        self.last_reading: CrapoReading | None = None
        self.confirmed: dict[tuple[str, int], Face] = {}
        """Doubtful cards the players named, by (pile, place), until that pile changes."""
        self.landed: list[int] = []
        """When each of the engine's actions was seen to happen (a Stop! is ordered by it)."""
        self._waiting = False
        """A ruling was given: the table must be put right."""
        self._taken_back = False
        """A move was taken back (Stop!, the admin's undo): nothing is read until the
        table looks as the engine has it."""
        self._now = 0
        self._effects: list[Effect] = []

    # -- inputs ----------------------------------------------------------------------------

    def handle(self, event: TableInput) -> list[Effect]:
        self._effects = []
        self._now = event.t_ns
        if event.kind in MATCH_INPUTS:
            self.on_match_input(event.kind, event.data)
        elif event.kind == "observation" and event.observation is not None:
            self._now = event.observation.landed_ns
            self._on_reading(self._read(event.observation))
        elif event.kind == "press" and event.data.get("kind") == "call" and event.seat is not None:
            self._on_call(event.seat, event.t_ns)
        elif event.kind == "answer":
            self._on_answer(event.data)
        elif event.kind == "act":
            self._on_act(event.data)
        elif event.kind == "undo":
            self._on_undo()
        elif event.kind == "next_round":
            self._next_game()
        return self._effects

    def _read(self, observation: Observation) -> CrapoReading:
        return CrapoReading.from_observation(onto_columns(observation, self.mat), self.fan_starts)

    def _on_reading(self, reading: CrapoReading) -> None:
        if not reading.piles:
            self._note("The camera does not see the mat: nothing is read until it does.")
            return
        last = self.last_reading
        if last is not None:
            # a name the players gave holds while its pile reads the same
            self.confirmed = {key: card for key, card in self.confirmed.items()
                              if last.piles.get(key[0]) == reading.piles.get(key[0])}
        self.last_reading = reading
        if self.game is None:
            self._on_deal(reading)
        else:
            self._explain(reading)

    # -- the deal and the cut ----------------------------------------------------------------

    def _on_deal(self, reading: CrapoReading) -> None:
        reading = reading.settled({key: card for key, card in self.confirmed.items()
                                   if any((d.pile, d.index) == key for d in reading.doubts)})
        dealt = [reading.piles.get(name, ()) for name in TABLEAU]
        if any(len(pile) != 1 for pile in dealt) or any(reading.piles.get(f"foundation{i}") for i in range(8)):
            self._note(f"Deal: {self._seat_name(0)} lays four cards face up on tableau 1-4, "
                       f"{self._seat_name(1)} on tableau 5-8.")
            return
        if self._doubtful(reading):
            return
        unread = [d for d in reading.doubts if d.pile in TABLEAU]
        if unread:
            where = _place_words(unread[0], reading, self._seat_name)
            self._note(f"The camera cannot read {where}; waiting for a clearer view.")
            return
        cards = [pile[0] for pile in dealt]
        if self._dealt_twice(cards):
            return
        setup: dict[str, Any] = {"tableau": [code(card) for card in cards]}
        if self.match.house_rules["first_player"] == "players_choose":
            setup["first_player"] = self.setup.dealer
        elif not self._cut(reading):
            return
        else:
            setup["start_cards"] = [[code(a), code(b)] for a, b in self.cut]
        if not self._begin(setup):
            return
        self.cut_lies = bool(self.cut)
        if self.cut_lies:
            self._note("Put the turned-up cards back on top of your decks.")

    def _dealt_twice(self, cards: Sequence[Face | None]) -> bool:
        """CP-G1: with a pack each, a code dealt twice on one side is a ruling."""
        if self.match.house_rules["deck_ownership"] != "one_pack_each":
            return False
        for seat in (0, 1):
            mine = cards[4 * seat: 4 * seat + 4]
            twice = sorted({card for card in mine if card is not None and mine.count(card) > 1})
            if twice:
                self._rule_deal("CP-G1", f"{self._seat_name(seat)} dealt {pretty(twice[0])} twice: each "
                                         "player deals from their own pack", seat)
                return True
        return False

    def _begin(self, setup: dict[str, Any]) -> bool:
        """Start the game the players dealt (the camera's or the page's deal)."""
        try:
            game = self._start_round(setup)
            assert isinstance(game, Crapo)
        except SetupError as exc:
            self._rule_deal("CP-01", str(exc), None)
            return False
        self.game = game
        self.landed = []
        self._waiting = False
        self.notes = []
        self._announce_start()
        return True

    def _cut(self, reading: CrapoReading) -> bool:
        """Follow the cut (CP-G3) on the trash places; True once it decides who starts."""
        tops = [reading.piles.get(name, ()) for name in TRASHES]
        if not all(tops) or any(top[-1] is None for top in tops):
            higher = self.match.house_rules["first_player"] == "higher_top_card"
            self._note("Who starts: each player turns the top card of their deck face up on their trash "
                       f"place; the {'higher' if higher else 'lower'} card starts.")
            return False
        pair = (tops[0][-1], tops[1][-1])
        assert pair[0] is not None and pair[1] is not None
        if not self.cut or self.cut[-1] != pair:
            self.cut.append((pair[0], pair[1]))
        if RANK[pair[0]] == RANK[pair[1]]:
            self._note(f"A tie ({pretty(pair[0])} and {pretty(pair[1])}): turn up the next card of each deck "
                       "on top.")
            return False
        return True

    def _rule_deal(self, rule_id: str, message: str, seat: int | None) -> None:
        if not self.rulings or self.rulings[-1]["message"] != self._human(message):
            self._announce({"rule_id": rule_id, "kind": "violation", "seat": seat, "message": message})
            if seat is not None:
                self._effects.append(BlinkSeat(self._now, seat))
        self._note("Waiting for the deal to be put right.")

    def _announce_start(self) -> None:
        assert self.game is not None
        start = self.game.start
        first = start["first_player"]
        if start.get("compared"):
            a, b = start["compared"][-1]
            word = "higher" if start["rule"] == "higher_top_card" else "lower"
            winner, other = (a, b) if first == 0 else (b, a)
            message = (f"{self._seat_name(first)}'s {pretty(face(winner))} is {word} than "
                       f"{self._seat_name(1 - first)}'s {pretty(face(other))}: {self._seat_name(first)} starts")
        else:
            message = f"{self._seat_name(first)} starts, as the players chose"
        if self.game.table.opening:
            message += "; the dealt aces go to the centre first"
        self._announce({"rule_id": "CP-G3", "kind": "info", "seat": first,
                        "message": f"Game {len(self.match.rounds)}: {message}"})

    # -- play --------------------------------------------------------------------------------

    def _explain(self, reading: CrapoReading) -> None:
        game = self.game
        assert game is not None
        if self.cut_lies:
            if self._cut_still_lies(reading):
                return
            self.cut_lies = False
            self.notes = []
        if game.outcome() is not None:
            return
        seen, reading = reading, self._settle(reading)
        if self._doubtful(reading):
            return
        try:
            explanation = game.explain(reading)
        except GameError as exc:
            self._note(f"The camera's reading of the table cannot be used: {exc}")
            return
        if explanation.unchanged:
            if self._waiting or self._taken_back:
                self._announce({"rule_id": "", "kind": "info", "seat": None, "message": "The table is put right"})
            self._waiting = self._taken_back = False
            self.notes = []
            return
        if self._taken_back:
            self._note("Waiting for the table to be put right: the move taken back goes back where it was.")
            return
        if explanation.violation is not None and self._out_of_sight(seen):
            # what a card was put on, or taken from, is not in the picture: no ruling on that
            where = ", ".join(_pile_words(name, self._seat_name) for name in self._out_of_sight(seen))
            self._note(f"The camera cannot see all of {where}: waiting for a clearer view.")
            return
        if explanation.candidates:  # under Stop!, an offence stands until called
            self._choose(list(explanation.candidates), sure=not reading.doubts)
            return
        if explanation.violation is not None:
            blink = self._ruled_until_put_right(explanation.violation, self._waiting, self._now, "the table")
            self._effects.extend([blink] if blink else [])
            self._waiting = True
            return
        where = ", ".join(_pile_words(name, self._seat_name) for name in explanation.unexplained)
        self._note(f"The camera sees a change no legal move explains ({where}); waiting.")

    def _cut_still_lies(self, reading: CrapoReading) -> bool:
        """Whether a trash still shows its player's card of the cut (nothing played yet; the
        players put them back one by one)."""
        assert self.game is not None
        last = self.cut[-1]
        tops = [reading.piles.get(name, ()) for name in TRASHES]
        if self.game.actions or not any(tops):
            return False
        if any(top and top[-1] != last[seat] for seat, top in enumerate(tops)):
            return False
        self._note("Put the turned-up cards back on top of your decks.")
        return True

    def _settle(self, reading: CrapoReading) -> CrapoReading:
        """The reading with what the players said, and what the referee knows, put in.

        * A doubtful card is the card known to lie there when the camera's best reading is
          that card, or when a card it knows lies right on it was read surely.
        * A column whose bottom and top cards read as the known ones is the known column,
          whatever its covered index strips read (missed, imagined, or one read as
          another): a covered card changes only when every card on it leaves, and a column
          rebuilt on the same bottom card runs down one rank at a time in alternating
          colours, so nothing but a card of the same rank and colour put back in its place
          can differ; were it so, the card taken out shows up elsewhere, nothing explains
          that, and the referee waits. So is a column of two or more cards read with the
          known top, the known cards in order under it and its bottom strip missed (a
          column whose bottom card left is rebuilt in its space only through a long
          detour). A column whose top runs out of sight is, so, the
          known column up to the last card read, when the cards read are known ones in order.
        * Likewise, under a card read surely at its known place in a column (the column
          grew or shrank above it), the cards are the known ones.
        """
        assert self.game is not None
        piles = self.game.table.piles
        known: dict[tuple[str, int], Face] = {}
        for doubt in reading.doubts:
            key = (doubt.pile, doubt.index)
            if key in self.confirmed:
                known[key] = self.confirmed[key]
                continue
            pile = piles[doubt.pile]
            index = doubt.index if KIND[doubt.pile] == "tableau" else len(pile) - 1
            card = pile[index] if 0 <= index < len(pile) else None
            if card is None:
                continue
            seen = reading.piles[doubt.pile]
            above = doubt.index + 1
            covered_by_known = (KIND[doubt.pile] == "tableau" and above < len(seen) and above < len(pile)
                                and seen[above] is not None and seen[above] == pile[above])
            if doubt.code == code(card) or covered_by_known:
                known[key] = card
        reading = reading.settled(known)
        columns: dict[str, tuple[Face | None, ...]] = {}
        settled_to: dict[str, int] = {}
        for name in TABLEAU:
            read, have = reading.piles.get(name), piles[name]
            if not read or not have or tuple(read) == tuple(have):
                continue
            if (read[-1] is not None and name not in reading.partial and read[-1] == have[-1]
                    and (read[0] in (None, have[0]) or (len(read) > 1 and _in_order(read, have)))):
                columns[name] = tuple(have)
                continue
            known_under = _known_under(read, have)
            if known_under is not None:
                place, column = known_under
                columns[name] = column
                settled_to[name] = place
        return reading.replaced(columns, settled_to)

    def _out_of_sight(self, reading: CrapoReading) -> list[str]:
        """The columns whose top ``reading`` (the camera's own) does not see, and whose cards
        that show are not the known ones."""
        assert self.game is not None
        piles = self.game.table.piles
        return [name for name in sorted(reading.partial)
                if tuple(reading.piles[name]) != tuple(piles[name][:len(reading.piles[name])])]

    def _doubtful(self, reading: CrapoReading) -> bool:
        """Ask about the first card ``reading`` could not read for sure (True); else a card
        question answered or read away is dropped. A card of which the camera made nothing
        at all is no question (there is nothing to offer): it stands for any card, and a
        move the table then shows is confirmed before it is applied (:meth:`_choose`)."""
        named = [d for d in reading.doubts if d.choices]
        if named:
            self._ask_doubt(named[0])
            return True
        if self.question is not None and self.question.kind == "card":
            self.question = None
        return False

    def _ask_doubt(self, doubt: Doubt) -> None:
        zone = f"{doubt.pile}/{doubt.index}"
        if self.question is not None and self.question.kind == "card" and self.question.zone == zone:
            return
        where = _place_words(doubt, self.last_reading, self._seat_name)
        choices = list(doubt.choices)[:MAX_OPTIONS - 1]
        options = [Option(f"It is {pretty(face(c))}", code=c) for c in choices]
        options.append(Option("None of these: read it again", code="again"))
        self._ask("card", f"The camera is unsure of {where}: which card is it?", options, zone=zone)

    def _choose(self, candidates: Sequence[CrapoAction], sure: bool = True) -> None:
        """Apply the run the reading singles out; ask when the runs it fits leave different
        tables, or when the reading was not ``sure`` (a card in it unread): then the players
        confirm the move, or say none of these."""
        tables: dict[object, CrapoAction] = {}
        for action in candidates:
            tables.setdefault(self._table_after(action), action)
        if len(tables) == 1 and sure:
            self._try(candidates[0])
            return
        options = [Option(self._describe(a), (a.to_json(),)) for a in list(tables.values())[:MAX_OPTIONS - 1]]
        if sure:
            prompt = "The camera saw a change that could be one of these: which was it?"
        else:
            prompt = "The camera could not read every card of this change: was it this?"
            options.append(Option("None of these: read it again", code="again"))
        self._ask("which_move", prompt, options)

    def _table_after(self, action: CrapoAction) -> object:
        game = self.game
        assert game is not None
        try:
            game.apply(action)
        except GameError:
            return ("refused", repr(action))
        try:
            return game.table.key()
        finally:
            game.undo()

    # -- the pads and the phones ---------------------------------------------------------------

    def _on_call(self, seat: int, t_ns: int) -> None:
        """Stop! (CP-G4), ordered by the pad's own time: moves seen to land after the press
        are taken back first, and put back if the call stops nothing."""
        game = self.game
        if game is None:
            return
        later: list[tuple[CrapoAction, int]] = []
        while self.landed and self.landed[-1] > t_ns and game.actions:
            later.append((game.undo(), self.landed.pop()))  # type: ignore[arg-type]
        offence = game.table.offence
        if offence is not None and offence.seat != seat and game.house_rules.compulsory_and_stop:
            self.question = None
            if self._try(Stop(seat, t_ns), t_ns):
                self._taken_back = offence.revert or bool(later)
                if self._taken_back:
                    self._note("Stop! Waiting for the table to be put right.")
                return
        for action, landed in reversed(later):
            game.apply(action)
            self.landed.append(landed)
        self._try(Stop(seat, t_ns), t_ns)  # refused: the ruling says why

    def _on_answer(self, data: Mapping[str, Any]) -> None:
        question = self.question
        index = data.get("option")
        if question is None or data.get("question") != question.id:
            return  # answered already, or by an older page
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(question.options):
            return
        option = question.options[index]
        self.question = None
        if question.kind == "card":
            if option.code not in (None, "again") and question.zone is not None:
                pile, place = question.zone.split("/")
                self.confirmed[(pile, int(place))] = face(option.code)
                if self.last_reading is not None:
                    self._on_reading(self.last_reading)
            return
        assert self.game is not None
        if option.code == "again":
            return  # none of these: the next reading is explained afresh
        for data_action in option.actions:
            if not self._try(self.game.action_from_json(data_action)):
                return
        if self.last_reading is not None:
            self._explain(self.last_reading)

    def parse_hand_action(self, raw: Mapping[str, Any], t_ns: int = 0) -> Action:
        """The deal by hand before the game starts (:class:`HandDeal`), then the engine's moves."""
        if self.game is None:
            if raw.get("type") != HandDeal.type:
                raise GameError("the cards are not dealt yet: enter the deal first")
            try:
                return HandDeal.from_json(raw)
            except UnknownCard as exc:
                raise ActionFormatError(str(exc)) from None
        return self.game.action_from_json(raw)

    def _on_act(self, data: Mapping[str, Any]) -> None:
        given = data.get("action")
        try:
            action = self.parse_hand_action(given if isinstance(given, Mapping) else {}, self._now)
        except GameError as exc:
            self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": f"Not a move: {exc}"})
            return
        if isinstance(action, HandDeal):
            if not self._dealt_twice(list(action.tableau)):
                self._begin({"tableau": [code(card) for card in action.tableau], "first_player": action.first_player})
            return
        self._try(action)  # type: ignore[arg-type]

    def _on_undo(self) -> None:
        if self.undo_match_input() or self.game is None or not self.game.actions:
            return
        undone = self.game.undo()
        if self.landed:
            self.landed.pop()
        self.question = None
        self.confirmed = {}
        self._taken_back = True
        self._announce({"rule_id": "", "kind": "info", "seat": None,
                        "message": f"Undone by the admin: {self._describe(undone)}"})  # type: ignore[arg-type]
        self._note("Waiting for the table to be put back as it was before that move.")

    def _next_game(self) -> None:
        if self.game is None or self.game.outcome() is None or self.match.is_over():
            return
        self.game = None
        self.cut = []
        self.cut_lies = False
        self.question = None
        self.confirmed = {}
        self.landed = []
        self._waiting = self._taken_back = False
        self._note(f"Game {len(self.match.rounds) + 1}: deal the cards.")

    # -- applying ----------------------------------------------------------------------------

    def _try(self, action: CrapoAction, landed: int | None = None) -> bool:
        """Apply ``action``; a refused one becomes a violation ruling. True if applied."""
        game = self.game
        assert game is not None
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            seat = _seat_of(action)
            self._announce({"rule_id": exc.rule_id, "kind": "violation", "seat": seat, "message": exc.reason})
            if seat is not None:
                self._effects.append(BlinkSeat(self._now, seat))
            return False
        except GameError as exc:
            self._announce({"rule_id": "", "kind": "violation", "seat": None, "message": str(exc)})
            return False
        self.landed.append(self._now if landed is None else landed)
        self._after(action, events)
        return True

    def _after(self, action: CrapoAction, events: Sequence[Event]) -> None:
        assert self.game is not None
        self._waiting = False
        self.notes = []
        for ruling in table_rulings(action, events, self.setup.seats):
            self._announce(ruling)
            if ruling["kind"] in ("violation", "penalty") and ruling.get("seat") is not None:
                self._effects.append(BlinkSeat(self._now, ruling["seat"]))
        if self.game.table.offence is not None:
            self._note(f"{self._seat_name(1 - self.game.table.offence.seat)} may call Stop! on the Call pad.")
        outcome = self.game.outcome()
        if outcome is not None:
            for seat in outcome.winners:
                self._effects.append(LightSeat(self._now, seat))
            self._effects.append(Beep(self._now))

    # -- presentation ----------------------------------------------------------------------

    def _describe(self, action: CrapoAction) -> str:
        return self._human(action_text(action, self.setup.seats))

    def hand_moves(self) -> dict[str, Any]:
        """Before the deal, the deal itself (the cards a pick names, who starts); then every
        legal move (:meth:`MatchTable.hand_moves`)."""
        if self.game is not None or self.closed():
            return super().hand_moves()
        picks = tuple(Pick(("tableau", i), f"{self._seat_name(i // 4)}'s space {i % 4 + 1}: which card?")
                      for i in range(len(TABLEAU)))
        deals = [HandMove(None, ("Deal by hand", f"{self._seat_name(seat)} starts"),
                          {"type": HandDeal.type, "tableau": [None] * len(TABLEAU), "first_player": seat}, picks)
                 for seat in (0, 1)]
        return moves_json(deals, self._card_codes())

    def _hand_move(self, action: Action) -> HandMove | None:
        """A legal action as the page offers it, in the words of the table's questions; a
        draw of a card nobody has seen asks which card it is."""
        seat = getattr(action, "seat", None)
        picks: tuple[Pick, ...] = ()
        if isinstance(action, Draw) and action.card is None and self.game is not None:
            deck = self.game.table.piles[DECKS[action.seat]]
            if deck and deck[-1] is None:
                picks = (Pick(("card",), f"{self._seat_name(action.seat)} drew: which card?"),)
        return HandMove(seat if isinstance(seat, int) and seat >= 0 else None,
                        (self._describe(action),), action.to_json(), picks)  # type: ignore[arg-type]

    def _card_codes(self) -> list[str]:
        """A pick may name any card of a pack (two packs: every code twice over)."""
        return list(CODES)

    def public_state(self) -> dict[str, Any]:
        """The table page's state: every pile as everyone sees it, whose turn, the deal and
        the cut while they go on, the rulings, the question and the match (games won)."""
        if self.game is None:
            view = {"game": "crapo", "players": list(self.setup.seats), "phase": "deal", "turn": None,
                    "cut": [[code(a), code(b)] for a, b in self.cut],
                    "first_player": self.match.house_rules["first_player"],
                    "house_rules": dict(self.match.house_rules)}
            return self._public(view, False)
        return self._public(self.game.view(None), self.game.outcome() is not None)

    def private_state(self, seat: int) -> dict[str, Any]:
        """Nothing in Crapô is private: the public view with ``seat``'s legal actions."""
        return {"view": self.game.view(seat) if self.game is not None else None}


# -- the mat ------------------------------------------------------------------------------------


def fan_starts(mat: MatZones) -> dict[str, tuple[float, float]]:
    """Where each tableau space's fan starts on ``mat``: the end of the space (along its
    length) nearest the foundations; ``{}`` with no mat known."""
    columns = mat.of_kind("tableau")
    if not columns:
        return {}
    centre_areas = mat.of_kind("foundation") or list(mat.areas)
    cx = sum(a.x + a.w / 2 for a in centre_areas) / len(centre_areas)
    cy = sum(a.y + a.h / 2 for a in centre_areas) / len(centre_areas)
    starts = {}
    for area in columns:
        if area.h >= area.w:
            ends = [(area.x + area.w / 2, area.y), (area.x + area.w / 2, area.y + area.h)]
        else:
            ends = [(area.x, area.y + area.h / 2), (area.x + area.w, area.y + area.h / 2)]
        starts[area.zone.name] = min(ends, key=lambda p: math.dist(p, (cx, cy)))
    return starts


def onto_columns(observation: Observation, mat: MatZones) -> Observation:
    """The observation with each card the reader placed on no zone given to the tableau
    column it hangs from (see :data:`COLUMN_REACH_MM`)."""
    columns = mat.of_kind("tableau")
    if not columns or all(card.zone is not None or card.mat_xy is None for card in observation.cards):
        return observation
    cards = []
    for card in observation.cards:
        if card.zone is None and card.mat_xy is not None:
            near = [a for a in columns if _within_width(a, card.mat_xy) and a.distance(card.mat_xy) <= COLUMN_REACH_MM]
            if near:
                # off the mat the fan may run on out of the picture: taken as covered, the
                # column is compared by the cards that show
                card = replace(card, zone=min(near, key=lambda a: a.distance(card.mat_xy or (0.0, 0.0))).zone.name,
                               covered=True)
        cards.append(card)
    return replace(observation, cards=tuple(cards))


def _in_order(read: Sequence[Face | None], have: Sequence[Face | None]) -> bool:
    """Whether the cards read surely in a column are cards of ``have``, in its order (the
    strips not read, or read as nothing, left out). A card read twice is not: no column
    holds a card twice, and the second may be a neighbour's strip read into this column."""
    cards = iter(have)
    return all(any(card == held for held in cards) for card in read if card is not None)


def _known_under(read: Sequence[Face | None],
                 have: Sequence[Face | None]) -> tuple[int, tuple[Face | None, ...]] | None:
    """A column read as ``read`` when the referee knows ``have`` there: the highest card
    read surely that is a known card (at its known place, or, the bottom read as known, with
    the known cards read in order under it), the known cards under it, and the cards read on
    it when they build down on it (new cards: a card put on the known ones). Returns the
    place of that card in ``read`` and the column; ``None`` when no card read fits. First,
    the known column whole with new cards on it, some of its strips missed."""
    if read[0] in (None, have[0]):
        for k in range(len(read) - 1, 0, -1):
            new = read[k:]
            if (len(have) != k and None in new) or not _in_order(read[:k], have) or not _chain(have[-1], new):
                continue
            return k - 1, (*have, *new)
    for i in range(len(read) - 1, -1, -1):
        card = read[i]
        if card is None or have.count(card) != 1:
            continue
        j = have.index(card)
        if i != j and (read[0] not in (None, have[0]) or not _in_order(read[:i + 1], have[:j + 1])):
            continue
        if i != j and any(c is None for c in read[i + 1:]):
            continue  # an unread card on it would change place: left to the players
        if _chain(card, read[i + 1:]):
            return i, (*have[:j + 1], *read[i + 1:])
    return None


def _chain(under: Face | None, cards: Sequence[Face | None]) -> bool:
    """Whether ``cards`` build down one on the other from ``under`` (CP-03); an unread card
    fits anywhere."""
    for card in cards:
        if card is not None and under is not None and not builds_down(card, under):
            return False
        under = card
    return True


def _within_width(area: ZoneArea, point: tuple[float, float]) -> bool:
    if area.h >= area.w:
        return area.x <= point[0] <= area.x + area.w
    return area.y <= point[1] <= area.y + area.h


# -- words --------------------------------------------------------------------------------------


def _seat_of(action: CrapoAction) -> int | None:
    if isinstance(action, Run):
        return _seat_of(action.actions[0]) if action.actions else None
    return action.seat


def _pile_words(name: str, seat_name: Any) -> str:
    """A pile as players say it: ``tableau 3``, ``foundation 2``, ``Ann's trash``."""
    kind = KIND.get(name, name)
    if name == DRAWN:
        return "the drawn card"
    if kind in ("deck", "trash"):
        return f"{seat_name(int(name[-1]))}'s {kind}"
    return f"{kind} {int(name[len(kind):]) + 1}"


def _place_words(doubt: Doubt, reading: CrapoReading | None, seat_name: Any) -> str:
    pile = _pile_words(doubt.pile, seat_name)
    if KIND[doubt.pile] != "tableau":
        return f"the card on {pile}"
    size = len(reading.piles.get(doubt.pile, ())) if reading is not None else 0
    if doubt.index == size - 1:
        return f"the top card of {pile}"
    return f"card {doubt.index + 1} of {pile} (from the bottom)"


def action_text(action: CrapoAction, players: Sequence[str]) -> str:
    """A short description of a Crapô action, for a button or a ruling."""
    def name(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"seat {seat}"

    if isinstance(action, Run):
        steps = [action_text(a, players) for a in action.actions]
        return "; then ".join(steps)
    if isinstance(action, Move):
        return (f"{name(action.seat)} moved {pretty(action.card)} from {_pile_words(action.source, name)} "
                f"to {_pile_words(action.target, name)}")
    if isinstance(action, Draw):
        seen = f" ({pretty(action.card)})" if action.card is not None else ""
        return f"{name(action.seat)} drew a card{seen}"
    if isinstance(action, Trash):
        seen = f" {pretty(action.card)}" if action.card is not None else " the drawn card"
        return f"{name(action.seat)} trashed{seen}"
    if isinstance(action, Flip):
        return f"{name(action.seat)} turned the trash over"
    assert isinstance(action, Stop)
    return f"{name(action.seat)} called Stop!"


def table_rulings(action: CrapoAction, events: Sequence[Event], players: Sequence[str]) -> list[dict[str, Any]]:
    """What the page announces for an applied action: the engine's rulings (an offence,
    a Stop! penalty, the win or the stalemate), and the moments the rules name: a card
    loaded on the opponent's trash (CP-13), a turn ended on the trash (CP-08), a trash
    turned over (CP-09)."""
    def name(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"seat {seat}"

    out: list[dict[str, Any]] = []
    steps = action.actions if isinstance(action, Run) else (action,)
    for step in steps:
        if isinstance(step, Move) and step.target == TRASHES[1 - step.seat]:
            out.append({"rule_id": "CP-13", "kind": "info", "seat": step.seat,
                        "message": f"{name(step.seat)} loaded {pretty(step.card)} on {name(1 - step.seat)}'s trash"})
        if isinstance(step, Move) and step.target == DECKS[1 - step.seat]:
            out.append({"rule_id": "CP-G6", "kind": "info", "seat": step.seat,
                        "message": f"{name(step.seat)} loaded {pretty(step.card)} on {name(1 - step.seat)}'s deck"})
    for event in events:
        if event.kind == "trash":
            seat = int(event.data["seat"])
            card = event.data.get("card")
            what = pretty(face(card)) if card else "the drawn card"
            out.append({"rule_id": "CP-08", "kind": "info", "seat": seat,
                        "message": f"{name(seat)} trashed {what}: {name(1 - seat)}'s turn"})
        elif event.kind == "flip":
            seat = int(event.data["seat"])
            out.append({"rule_id": "CP-09", "kind": "info", "seat": seat,
                        "message": f"{name(seat)} turned the trash over as a new deck"})
        if event.ruling is not None:
            out.append(event.ruling.to_json())
    return out
