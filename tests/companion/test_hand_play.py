"""Whole games refereed with no camera at all: every move entered by hand, as a tap.

A digital game that knows every card plays at random beside the referee (the truth). Each
of its moves is found among the referee's moves as taps (``Referee.moves``: built from the
engine's legal actions), its hidden cards named as the players would name them, and posted
as an ``act``. The referee's scores must then be the truth's.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from companion.crok_catalogs import shipped_catalog
from companion.events import InputEvent
from companion.games.cabo import Crocodile, Recall
from companion.games.cabo.actions import Look, Reveal, TurnUp
from companion.games.cabo.simulate import random_action
from companion.games.crapo import Crapo
from companion.games.crapo import Draw as CrapoDraw
from companion.games.crapo.actions import DECKS, TABLEAU
from companion.games.crapo.faces import code
from companion.games.crapo.play import random_action as crapo_random_action
from companion.games.mastercrok import MasterCrok
from companion.games.mastercrok import Play as CrokPlay
from companion.games.mastercrok import Reveal as CrokReveal
from companion.games.poolparty import PoolParty
from companion.games.poolparty.actions import CrocMove, Flip, Pass, Place
from companion.referee import Referee, Refused
from companion.store import Store

MS = 1_000_000


class HandTable:
    """A referee fed only by taps."""

    def __init__(self, tmp_path, game: str, seats, **setup):
        self.store = Store(tmp_path / "hand.sqlite3")
        self.referee = Referee(self.store, seats=list(seats))
        self.t = 1_000 * MS
        self.submit("setup", self.referee.check_setup({"game": game, "seats": list(seats), **setup}).to_json())

    def submit(self, kind: str, data: dict) -> None:
        self.t += 10 * MS
        self.referee.submit(InputEvent("phone", kind, self.t, None, data))
        self.referee.process_pending()

    @property
    def game(self) -> dict:
        return self.referee.public_state()["game"]

    def moves(self) -> list[dict]:
        return self.referee.moves()["moves"]

    def tap(self, move: dict, codes: dict | None = None) -> None:
        """Post ``move`` with its picks answered from ``codes`` (pick path -> card code)."""
        action = copy.deepcopy(move["action"])
        for pick in move["picks"]:
            target = action
            for key in pick["at"][:-1]:
                target = target[key]
            target[pick["at"][-1]] = (codes or {})[tuple(pick["at"])]
        self.referee.check_act(action)
        self.submit("act", {"action": action})


def _bare(data: dict) -> dict:
    """An action's JSON without what the camera or a pick adds (cards, stamps, paths)."""
    out = {k: v for k, v in data.items() if k not in ("card", "t_ns", "path")}
    if "cards" in out and data.get("type") != "reveal":
        out["cards"] = [{k: v for k, v in c.items() if k != "card"} for c in out["cards"]]
    if data.get("type") == "reveal":
        out.pop("cards", None)
    return out


# -- Crocodile and Recall --------------------------------------------------------------------


def _codes(data) -> set[str]:
    """Every card code in a JSON value (the moves, or the public view)."""
    text = json.dumps(data)
    return set(re.findall(r'"([2-9TJQKA][shdc]|JOKER)"', text))


def _cabo_codes(truth, action) -> dict:
    """The cards the players name for ``action``, read from the truth before it is applied."""
    t = truth.table

    def face(place):
        return t.cards[t.at(place)].face.code

    data = action.to_json()
    kind = data["type"]
    if kind == "turn_up":
        return {("card",): t.cards[t.deck[-1]].face.code}
    if kind in ("discard", "power"):
        return {("card",): t.cards[t.hand].face.code}
    if kind in ("swap", "reward"):
        return {("card",): face((action.seat, action.slot))}
    if kind in ("smack", "match"):
        return {("cards", 0, "card"): face(action.cards[0].place)}
    if kind == "reveal":
        return {("cards", seat, slot): t.cards[cid].face.code
                for seat, layout in enumerate(t.layouts) for slot, cid in enumerate(layout) if cid is not None}
    return {}


def play_cabo_round(table: HandTable, truth, rng: random.Random) -> None:
    while truth.outcome() is None:
        if truth.table.phase == "look":  # the referee records the first look by itself, as the rules say
            for seat in range(len(truth.players)):
                looks = [a for a in truth.legal_actions(seat) if isinstance(a, Look) and a.slots]
                if looks:
                    truth.apply(looks[0])
            continue
        action = TurnUp(truth.table.dealer) if truth.table.phase == "deal" else (
            Reveal() if truth.table.phase == "reveal" else random_action(truth, rng))
        if len(getattr(action, "cards", None) or ()) > 1:
            continue  # one card per claim: the page's claims flip one card each
        wanted = _bare(action.to_json())
        offered = table.moves()
        assert _codes(offered) <= _codes(table.game["view"])  # no card a player alone may know
        moves = [m for m in offered if _bare(m["action"]) == wanted]
        assert len(moves) == 1, (wanted, [m["action"] for m in offered])
        table.tap(moves[0], _cabo_codes(truth, action))
        truth.apply(action)


@pytest.mark.parametrize("game, cls, seed", [("crocodile", Crocodile, 3), ("crocodile", Crocodile, 8),
                                             ("recall", Recall, 4)])
def test_a_whole_match_entered_by_taps_ends_with_the_truths_scores(tmp_path, game, cls, seed):
    seats = ["Ann", "Bob", "Cid"]
    table = HandTable(tmp_path, game, seats, rounds=2)
    rng = random.Random(seed)
    expected = {seat: 0 for seat in range(3)}
    dealer = 0
    for number in (1, 2):
        truth = cls(seats, seed=seed * 10 + number, setup={"dealer": dealer})
        play_cabo_round(table, truth, rng)
        for seat, points in truth.outcome().scores.items():
            expected[seat] += points
        assert table.game["scores"]["round_over"]
        assert table.moves() == []  # the round is over: no move left to offer
        if number == 1:
            table.submit("next_round", {})
            dealer = truth.next_round_setup(truth.outcome())["dealer"]
    scores = table.game["scores"]
    assert scores["totals"] == {str(seat): points for seat, points in expected.items()}
    assert scores["over"] and scores["winners"] == [s for s in range(3) if expected[s] == min(expected.values())]
    history = table.referee.history()
    assert history[0]["over"] and {p["name"] for p in history[0]["players"] if p["winner"]}


def test_a_card_nobody_saw_is_named_by_the_players_and_never_shown_before(tmp_path):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"])
    (turn_up,) = table.moves()
    assert turn_up["path"] == ["Turn up the first card"] and "card" not in turn_up["action"]
    assert turn_up["picks"] == [{"at": ["card"], "prompt": "Which card was turned up?"}]
    table.tap(turn_up, {("card",): "5h"})
    draw = next(m for m in table.moves() if m["path"][0] == "Draw from the deck")
    assert draw["seat"] == 1  # Bob, left of the dealer, starts
    take = next(m for m in table.moves() if m["path"][0].startswith("Take the discard"))
    assert take["path"] == ["Take the discard (5♥)"]  # everyone saw it
    table.tap(take)
    swap = next(m for m in table.moves() if m["path"][0].startswith("Swap"))
    assert swap["path"] == ["Swap the card in hand for one of theirs", "Bob's card 1"]
    assert swap["picks"][0]["prompt"] == "Which card went from Bob's card 1 to the pile?"
    table.tap(swap, {("card",): "9c"})
    # The 5♥ went face down into Bob's card 1, seen by everyone: a claim on it needs no pick.
    claims = [m for m in table.moves() if m["path"][0] == "Smack down a card"]
    known = next(m for m in claims if m["path"][1] == "Bob's card 1")
    unknown = next(m for m in claims if m["path"][1] == "Ann's card 1")
    assert known["action"]["cards"] == [{"seat": 1, "slot": 0, "card": "5h"}] and known["picks"] == []
    assert unknown["picks"] and "card" not in unknown["action"]["cards"][0] and "t_ns" not in unknown["action"]
    table.tap(unknown, {("cards", 0, "card"): "9s"})
    assert table.game["rulings"][0]["message"] == "Smackdown: Ann plays their 9♠ on 9♣; one card fewer"


def test_a_move_that_is_no_action_of_the_game_is_refused_before_it_is_stored(tmp_path):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"])
    stored = len(table.store.events(table.referee.session_id))
    with pytest.raises(Refused) as refused:
        table.referee.check_act({"type": "teleport", "seat": 0})
    assert refused.value.status == 400 and refused.value.field == "action"
    with pytest.raises(Refused):
        table.referee.check_act({"type": "turn_up", "seat": 0, "card": "Zz"})
    assert len(table.store.events(table.referee.session_id)) == stored


def test_an_illegal_move_entered_by_hand_is_ruled_like_the_cameras(tmp_path):
    table = HandTable(tmp_path, "crocodile", ["Ann", "Bob"])
    table.submit("act", {"action": {"type": "draw", "seat": 0}})  # before the first card is turned up
    ruling = table.game["rulings"][0]
    assert ruling["kind"] == "violation" and ruling["rule_id"].startswith("CR-")


# -- Pool Party --------------------------------------------------------------------------------


def play_pool_party_game(table: HandTable, truth: PoolParty, rng: random.Random) -> None:
    while truth.outcome() is None:
        legal = truth.legal_actions()
        eating = [a for a in legal if isinstance(a, CrocMove) and a.to_json()["to"] != "bar"
                  and truth.position.top(truth.board.index_by_name[a.to_json()["to"]]) is not None]
        action = rng.choice(eating or legal)  # crocodiles eat when they can: a shorter game
        if isinstance(action, Pass):
            truth.apply(action)  # the referee passes for a player with no move by itself
            continue
        origin = action.to_json().get("from")
        mover = action.colour.seat if isinstance(action, Place) else truth.position.to_move.seat
        truth.apply(action)
        wanted = _bare(action.to_json())
        if isinstance(action, Flip):  # the players say which number the swimmer shows
            wanted["number"] = truth.position.top(truth.board.index_by_name[origin]).number
        moves = [m for m in table.moves() if _bare(m["action"]) == wanted]
        assert len(moves) == 1, (wanted, [m["action"] for m in table.moves()][:8])
        assert moves[0]["seat"] == mover  # offered as the mover's
        table.tap(moves[0])


def test_a_pool_party_match_entered_by_taps_ends_with_the_truths_scores(tmp_path):
    seats = ["Ann", "Bob"]
    table = HandTable(tmp_path, "pool-party", seats, rounds=2)
    rng = random.Random(7)
    expected = {0: 0, 1: 0}
    truth = PoolParty(seats, seed=21)
    for number in (1, 2):
        play_pool_party_game(table, truth, rng)
        for seat, points in truth.outcome().scores.items():
            expected[seat] += points
        if number == 1:
            table.submit("next_round", {})
            truth = PoolParty(seats, seed=22, setup=truth.next_round_setup(truth.outcome()))
    scores = table.game["scores"]
    assert scores["totals"] == {str(s): v for s, v in expected.items()}
    assert scores["over"]


# -- Crapô -----------------------------------------------------------------------------------


def play_crapo_game(table: HandTable, truth: Crapo, rng: random.Random) -> None:
    """The deal entered card by card, then every move: a draw names the card drawn."""
    tableau = [truth.table.piles[name][-1] for name in TABLEAU]
    (deal,) = [m for m in table.moves() if m["action"]["first_player"] == truth.table.turn]
    assert deal["seat"] is None and [p["at"] for p in deal["picks"]] == [["tableau", i] for i in range(8)]
    table.tap(deal, {("tableau", i): code(card) for i, card in enumerate(tableau)})
    assert table.game["view"]["tableau"] == [[code(card)] for card in tableau]
    while truth.outcome() is None:
        action = crapo_random_action(truth, rng)
        data = action.to_json()
        codes = {}
        if isinstance(action, CrapoDraw):
            codes[("card",)] = code(truth.table.piles[DECKS[action.seat]][-1])
            data.pop("card", None)
        offered = table.moves()
        moves = [m for m in offered if m["action"] == data]
        assert len(moves) == 1, (data, [m["action"] for m in offered][:8])
        table.tap(moves[0], codes)
        truth.apply(action)
        assert table.game["view"]["turn"] == truth.table.turn


def test_CP_10_a_whole_game_of_crapo_entered_by_taps_ends_with_the_truths_winner(tmp_path):
    seats = ["Ann", "Bob"]
    table = HandTable(tmp_path, "crapo", seats, rounds=1)
    assert table.game["view"]["phase"] == "deal"
    truth = Crapo(seats, seed=4)
    play_crapo_game(table, truth, random.Random(4))
    (winner,) = truth.outcome().winners
    scores = table.game["scores"]
    assert scores["over"] and scores["winners"] == [winner]
    assert scores["totals"] == {str(winner): 1, str(1 - winner): 0}
    assert [p["name"] for p in table.referee.history()[0]["players"] if p["winner"]] == [seats[winner]]


def test_a_deal_by_hand_with_a_card_twice_on_one_side_is_ruled_CP_G1(tmp_path):
    table = HandTable(tmp_path, "crapo", ["Ann", "Bob"], house_rules={"deck_ownership": "one_pack_each"})
    (deal,) = [m for m in table.moves() if m["action"]["first_player"] == 0]
    twice = ["7h", "7h", "2c", "Ks", "3d", "4d", "5d", "6d"]
    table.tap(deal, {("tableau", i): card for i, card in enumerate(twice)})
    ruling = table.game["rulings"][0]
    assert ruling["rule_id"] == "CP-G1" and "Ann dealt 7♥ twice" in ruling["message"]
    assert table.game["view"]["phase"] == "deal"  # nothing started


def test_a_move_before_the_deal_is_refused_with_what_to_do(tmp_path):
    table = HandTable(tmp_path, "crapo", ["Ann", "Bob"])
    with pytest.raises(Refused) as refused:
        table.referee.check_act({"type": "draw", "seat": 0})
    assert "enter the deal first" in str(refused.value.message)
    with pytest.raises(Refused) as refused:
        table.referee.check_act({"type": "deal", "tableau": ["7h"] * 7, "first_player": 0})
    assert "the 8 cards dealt" in str(refused.value.message)


# -- Master Crok -----------------------------------------------------------------------------


def play_master_crok_game(table: HandTable, truth: MasterCrok, rng: random.Random) -> None:
    """Each Crok played face down by a tap, the reveal naming every Crok among its owner's
    deck, each ability decided by a tap: as the truth (which knows every hand) plays."""
    while truth.outcome() is None:
        action = rng.choice(truth.legal_actions())
        data, codes = action.to_json(), {}
        offered = table.moves()
        if isinstance(action, CrokPlay):  # the referee does not know the hand: face down
            moves = [m for m in offered if m["action"] == {"type": "play", "seat": action.seat, "crok": None}]
        elif isinstance(action, CrokReveal):
            moves = [m for m in offered if m["action"]["type"] == "reveal"]
            assert moves and all(p["options"] for p in moves[0]["picks"])
            codes = {tuple(p["at"]): data["croks"][p["at"][1]] for p in moves[0]["picks"]}
        else:
            moves = [m for m in offered if m["action"] == data]
        assert len(moves) == 1, (data, [m["action"] for m in offered][:8])
        table.tap(moves[0], codes)
        truth.apply(action)


@pytest.mark.parametrize("seed", [3, 11])
def test_MC_14_a_whole_game_of_master_crok_entered_by_taps_ends_with_the_truths_winner(tmp_path, seed):
    catalog = shipped_catalog("example").to_json()
    game_setup = {"catalog": catalog, "decks": [list(catalog["decks"]["red"]), list(catalog["decks"]["blue"])]}
    truth = MasterCrok(["Ann", "Bob"], seed=seed, setup=game_setup)
    table = HandTable(tmp_path, "master-crok", ["Ann", "Bob"], game_setup=game_setup, rounds=1,
                      dealer=truth.battle.attacker)
    play_master_crok_game(table, truth, random.Random(seed))
    outcome = truth.outcome()
    scores = table.game["scores"]
    assert scores["over"] and scores["winners"] == list(outcome.winners)
    assert scores["totals"] == {str(seat): points for seat, points in outcome.scores.items()}
    assert table.game["rulings"][0]["rule_id"] == outcome.rule_id
