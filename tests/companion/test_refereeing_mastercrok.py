"""The live referee for Master Crok: what the camera sees in the battle spots and on the
piles, the attacker's pad and the page's taps in; rulings (with their MC ids), questions
and the game's state out. The referee knows no card until the camera names it."""

from __future__ import annotations

import pytest

from companion.crok_catalogs import shipped_catalog
from companion.observation import Observation
from companion.refereeing.mastercrok import MasterCrokTable
from companion.refereeing.protocol import BlinkSeat, LightSeat, MatZones, TableInput
from companion.refereeing.setup import SetupError, TableSetup
from vision.mat.battle import battle_layout

SEATS = ("Ann", "Bob")
MS = 1_000_000
CATALOG = shipped_catalog("example")


def game_setup(decks=("red", "blue")) -> dict:
    catalog = CATALOG.to_json()
    return {"catalog": catalog, "decks": [list(catalog["decks"][d]) if isinstance(d, str) else d for d in decks],
            "deck_names": ["ann-deck", "bob-deck"][: len(decks)]}


def sighting(code, zone):
    return {"code": code, "confidence": 0.9 if code else 0.5, "corners": [[0, 0], [10, 0], [10, 14], [0, 14]],
            "zone": zone}


class Table:
    """A Master Crok table fed as the referee feeds it: readings, presses and taps."""

    def __init__(self, house_rules=None, decks=("red", "blue"), piles=False, first=0):
        mat = MatZones()
        if piles:
            layout = battle_layout(2)
            mat = MatZones.from_json([z.to_json() for z in layout.zones])
        setup = TableSetup("master-crok", SEATS, house_rules or {}, first, game_setup=game_setup(decks))
        MasterCrokTable.check_setup(setup)
        self.table = MasterCrokTable(setup, mat)
        self.t = 10_000 * MS
        self.effects = []

    def _input(self, kind, seat=None, data=None, observation=None):
        self.t += 500 * MS
        self.effects = self.table.handle(TableInput(kind, self.t, seat, data or {}, observation))
        return self.effects

    def see(self, spots=None, **piles):
        """The camera's reading: ``spots`` seat -> code (``BACK``, an id, None unread);
        piles as ``seat0_winners=("id", ...)``."""
        cards = [sighting(code, f"seat{seat}/battle") for seat, code in (spots or {}).items()]
        for key, ids in piles.items():
            seat, pile = key.split("_")
            cards += [sighting(code, f"{seat}/{pile}") for code in ids]
        data = {"t_ns": self.t, "frame_index": 0, "calibration": "fresh", "cards": cards}
        return self._input("observation", observation=Observation.from_json(data), data=data)

    def tap(self, label):
        question = self.question
        assert question is not None, "no question to answer"
        labels = [o["label"] for o in question["options"]]
        assert label in labels, f"{label!r} not among {labels}"
        return self._input("answer", data={"question": question["id"], "option": labels.index(label)})

    def press(self, seat):
        return self._input("press", seat=seat, data={"kind": "call", "seat": seat})

    @property
    def state(self):
        return self.table.public_state()

    @property
    def question(self):
        return self.state["question"]

    @property
    def view(self):
        return self.state["view"]

    def rulings(self, kind=None):
        return [(r["rule_id"], r["message"]) for r in self.table.rulings if kind is None or r["kind"] == kind]

    def battle(self, ann, bob, battle_type="Power"):
        """A battle to its reveal: Ann attacks (taps the type), both Croks down, then turned."""
        self.tap(battle_type)
        self.see({0: "BACK"})
        self.see({0: "BACK", 1: "BACK"})
        self.see({0: ann, 1: bob})


# -- set-up: each player's deck (MC-01, MC-02) ---------------------------------------------------------


def test_MC_01_a_deck_under_ten_croks_is_refused_at_setup_naming_it():
    short = list(CATALOG.decks["red"][:9])
    with pytest.raises(SetupError) as refused:
        MasterCrokTable.check_setup(TableSetup("master-crok", SEATS, {}, 0, game_setup=game_setup(("red", short))))
    assert refused.value.field == "decks"
    assert "Bob's deck 'bob-deck'" in str(refused.value) and "at least 10" in str(refused.value)


def test_MC_02_a_deck_over_the_copy_limit_names_the_crok_and_the_house_rule_decides():
    doubled = list(CATALOG.decks["red"][1:19]) + ["sun-kroko", "sun-kroko"]
    assert len(doubled) == 20 and doubled.count("sun-kroko") == 2
    with pytest.raises(SetupError) as refused:
        MasterCrokTable.check_setup(TableSetup("master-crok", SEATS, {}, 0, game_setup=game_setup((doubled, "blue"))))
    message = str(refused.value)
    assert "Ann's deck 'ann-deck'" in message and "'sun-kroko' (Kroko the Bold)" in message and "MC-02" in message
    # MC-G1 per_ten: a deck of 20 may hold two of each.
    MasterCrokTable.check_setup(TableSetup("master-crok", SEATS, {"copy_limit": "per_ten"}, 0,
                                           game_setup=game_setup((doubled, "blue"))))


def test_a_setup_without_decks_says_how_to_get_one():
    with pytest.raises(SetupError) as refused:
        MasterCrokTable.check_setup(TableSetup("master-crok", SEATS, {}, 0))
    assert refused.value.field == "decks" and "teach" in str(refused.value)


# -- the battle type, the plays, the reveal (MC-05, MC-06) --------------------------------------------


def test_MC_05_the_attacker_chooses_the_battle_type_on_the_page():
    t = Table()
    question = t.question
    assert question["kind"] == "battle_type" and question["seat"] == 0
    assert [o["label"] for o in question["options"]] == ["Power", "Intelligence", "Reflex"]
    t.tap("Intelligence")
    assert t.view["battle"]["battle_type"] == "intelligence" and t.question is None


def test_MC_05_one_pad_press_per_type_until_the_attackers_crok_is_down():
    t = Table()
    t.press(1)  # a defender's pad chooses nothing
    assert t.view["battle"]["battle_type"] is None
    t.press(0)
    t.press(0)
    assert t.view["battle"]["battle_type"] == "intelligence"
    assert t.state["mastercrok"]["pad"] == {"seat": 0, "battle": 1, "battle_type": "intelligence", "presses": 2,
                                            "next": "reflex"}
    t.press(0)
    t.press(0)
    assert t.view["battle"]["battle_type"] == "power"  # round again
    t.see({0: "BACK"})
    t.press(0)
    assert t.view["battle"]["battle_type"] == "power" and t.view["battle"]["to_play"] == [1]
    assert "can no longer change" in t.state["notes"][0]


def test_MC_05_a_crok_down_before_the_battle_type_is_a_ruling():
    t = Table()
    effects = t.see({0: "BACK"})
    assert t.rulings("violation") == [("MC-05", "the attacker (Ann) chooses the battle type before anyone plays")]
    assert [e.seat for e in effects if isinstance(e, BlinkSeat)] == [0]
    t.tap("Reflex")  # chosen after all: the Crok already down is the attacker's play
    assert t.view["battle"]["to_play"] == [1]
    assert t.rulings()[-1] == ("", "Put right: the game goes on")


def test_MC_05_the_croks_are_played_in_order_from_the_attacker():
    t = Table()
    t.tap("Power")
    t.see({1: "BACK"})
    assert t.rulings("violation") == [("MC-05", "Ann plays next: the attacker first, then clockwise")]
    t.see({1: "BACK"})  # the same reading again: no second ruling
    assert len(t.rulings("violation")) == 1
    t.see({0: "BACK", 1: "BACK"})
    assert t.view["phase"] == "reveal" and t.view["battle"]["to_play"] == []


def test_MC_06_every_crok_is_revealed_together():
    t = Table()
    t.tap("Power")
    t.see({0: "BACK"})
    t.see({0: "stone-flint"})
    assert t.rulings("violation")[-1] == ("MC-06", "Croks turned face up before everyone has played")
    t.see({0: "BACK"})
    t.see({0: "BACK", 1: "BACK"})
    t.see({0: "stone-flint", 1: "BACK"})
    assert t.view["phase"] == "reveal"  # waiting for the other Crok to turn
    t.see({0: "stone-flint", 1: "moon-nox"})
    assert t.view["phase"] == "abilities"
    assert t.rulings()[-2:] == [("", "Put right: the game goes on"),
                                ("MC-06", "Revealed: Ann: Flint Hide, Bob: Nox the Quiet")]


def test_a_card_never_taught_is_a_question_never_a_guess():
    t = Table()
    t.tap("Power")
    t.see({0: "BACK"})
    t.see({0: "BACK", 1: "BACK"})
    t.see({0: None, 1: "moon-nox"})
    question = t.question
    assert t.view["phase"] == "reveal" and question["kind"] == "card" and question["seat"] == 0
    labels = [o["label"] for o in question["options"]]
    assert labels[-2:] == ["Read it again", "None of these"]
    # only the Croks Ann's deck can still hold
    assert len(labels) == 2 + len(set(CATALOG.decks["red"]))
    t.tap("Flint Hide (stone; power 9, intelligence 2, reflex 4)")
    assert t.view["phase"] == "abilities"
    assert t.view["battle"]["croks"][0]["crok"]["id"] == "stone-flint"


def test_MC_01_a_crok_the_deck_cannot_hold_is_a_ruling_until_put_right():
    t = Table()
    t.tap("Power")
    t.see({0: "BACK"})
    t.see({0: "BACK", 1: "BACK"})
    t.see({0: "wind-gale", 1: "moon-nox"})  # wind-gale is in Bob's deck, not Ann's
    assert t.rulings("violation")[-1][0] == "MC-01" and "wind-gale" in t.rulings("violation")[-1][1]
    assert t.view["phase"] == "reveal"
    t.see({0: "sun-kroko", 1: "moon-nox"})
    assert t.view["phase"] == "abilities" and ("", "Put right: the game goes on") in t.rulings()


def test_MC_01_none_of_these_is_a_ruling_until_another_crok_lies_there():
    t = Table()
    t.tap("Power")
    t.see({0: "BACK"})
    t.see({0: "BACK", 1: "BACK"})
    t.see({0: None, 1: "moon-nox"})
    t.tap("None of these")
    assert t.rulings("violation")[-1] == ("MC-01", "Ann's Crok is none their deck can hold: play a Crok of your own "
                                                   "deck")
    assert t.question is None
    t.see({0: "sun-kroko", 1: "moon-nox"})
    assert t.view["phase"] == "abilities"


# -- the abilities round (MC-07..MC-10, MC-G2, MC-G3, MC-G4) ------------------------------------------


def test_MC_G2_without_the_catalogs_effects_the_players_settle_each_ability_in_order():
    t = Table()
    t.battle("stone-flint", "moon-nox")
    question = t.question
    assert question["kind"] == "ability" and question["seat"] == 0 and "Police" in question["prompt"]
    labels = [o["label"] for o in question["options"]]
    assert labels == ["Use Police: no effect", "Use Police: it wins the battle", "Use Police: it loses the battle",
                      "Decline Police"]  # no winner yet to pay a reserve with (MC-G4)
    t.tap("Decline Police")
    assert t.question["seat"] == 1
    t.tap("Use Bond: it wins the battle")
    assert t.rulings()[-1] == ("MC-11", "Bob wins battle 1 outright (Nox the Quiet)")


def test_MC_08_an_immediate_ability_takes_effect_at_the_reveal():
    t = Table({"card_db": "catalog"})
    t.battle("sun-kroko", "leaf-vine")  # Samurai: +2 in the battle type, at once
    assert ("MC-07", "Ann uses Samurai") in t.rulings()
    assert t.view["battle"]["croks"][0]["value"] == 10
    assert t.question["seat"] == 1 and "Bond" in t.question["prompt"]


def test_MC_09_a_reserve_costs_a_winner_and_the_turn_comes_round_again():
    t = Table({"card_db": "catalog"})
    t.battle("stone-flint", "wind-gale", "Power")  # Bob's Priest cancels Ann's Police at once (MC-08)
    assert t.rulings()[-3:] == [("MC-07", "Bob uses Priest on Ann"), ("MC-07", "Ann's Police is cancelled"),
                                ("MC-11", "Ann wins battle 1 with 9 power (Flint Hide)")]
    t.see()  # the players put the Croks on the piles
    t.battle("moon-shade", "moon-nox", "Intelligence")
    labels = [o["label"] for o in t.question["options"]]
    assert "Reserve Police, paying Flint Hide to the losers" in labels
    t.tap("Reserve Police, paying Flint Hide to the losers")
    assert t.rulings()[-1] == ("MC-09", "Ann reserves Police, paying Flint Hide (stone-flint) to the losers")
    assert [w["crok"] for w in t.view["players"][0]["losers"]] == ["stone-flint"]
    t.tap("Decline Bond")
    assert t.question["seat"] == 0  # Ann's turn again
    t.tap("Use Police")
    assert t.rulings()[-1] == ("MC-11", "Ann wins battle 2 outright (Shade Tail)")


def test_MC_07_two_croks_seen_changing_places_are_the_swap_that_allows_it():
    t = Table({"card_db": "catalog"})
    t.battle("sun-dawn", "moon-nox")  # Ann's Master: swap with an opponent
    assert t.question["seat"] == 0
    t.see({0: "moon-nox", 1: "sun-dawn"})
    assert ("MC-07", "Ann uses Master on Bob") in t.rulings()
    assert t.view["battle"]["croks"][0]["holder"] == 1  # Ann's Crok is Bob's now
    assert t.question["seat"] == 1


def test_MC_07_croks_changing_places_with_no_ability_allowing_it_is_a_ruling():
    t = Table({"card_db": "catalog"})
    t.battle("stone-flint", "moon-nox")
    t.see({0: "moon-nox", 1: "stone-flint"})
    assert t.rulings("violation")[-1][0] == "MC-07"
    t.see({0: "stone-flint", 1: "moon-nox"})
    assert t.rulings()[-1] == ("", "Put right: the game goes on")


# -- the end of a battle: piles, ties, the blind battle (MC-11..MC-13) ---------------------------------


def tie(t):
    t.battle("leaf-vine", "leaf-vine")  # 5 power each; abilities settled as nothing
    t.tap("Use Bond: no effect")
    t.tap("Use Bond: no effect")


def test_MC_13_a_tie_sends_every_crok_to_the_losers_and_the_last_defender_attacks_the_blind_battle():
    t = Table()
    tie(t)
    assert t.rulings()[-1] == ("MC-13", "tie in battle 1 (Ann, Bob): every Crok goes to the losers; blind battle, "
                                        "Bob attacks")
    view = t.view
    assert [p["losers"] for p in view["players"]] == [[{"crok": "leaf-vine", "owner": 0}],
                                                       [{"crok": "leaf-vine", "owner": 1}]]
    assert view["battle"]["blind"] and view["battle"]["attacker"] == 1
    assert t.question["kind"] == "battle_type" and t.question["seat"] == 1
    # the tied Croks still lie face up in the spots: no early reveal of the blind battle
    t.see({0: "leaf-vine", 1: "leaf-vine"})
    assert t.rulings("violation") == []
    assert "Put battle 1's Croks on the piles" in t.state["notes"][0]
    t.tap("Reflex")
    t.see({0: "BACK", 1: "BACK"})  # the top of each deck, face down, unseen
    t.see({0: "river-reed", 1: "wind-gust"})
    assert t.view["phase"] == "abilities" and t.view["battle"]["blind"]


def test_MC_12_a_crok_laid_on_the_wrong_pile_is_a_ruling_until_put_right():
    t = Table(piles=True)
    t.battle("stone-flint", "moon-nox")
    t.tap("Decline Police")
    t.tap("Decline Bond")
    assert t.rulings()[-1][0] == "MC-11"  # Ann's 9 power beats Nox's 6
    t.see(seat0_losers=["stone-flint"], seat1_winners=["moon-nox"])
    assert sorted(t.rulings("violation")) == [
        ("MC-12", "Flint Hide lies on Ann's losers; it belongs on Ann's winners"),
        ("MC-12", "Nox the Quiet lies on Bob's winners; it belongs on Bob's losers"),
    ]
    t.see(seat0_winners=["stone-flint"], seat1_losers=["moon-nox"])
    assert t.rulings()[-1] == ("", "Put right: the game goes on")


def test_MC_12_piles_the_camera_has_not_seen_change_are_no_mistake():
    t = Table(piles=True)
    t.see(seat0_winners=[])
    t.battle("stone-flint", "moon-nox")
    t.tap("Decline Police")
    t.tap("Decline Bond")
    t.see({0: "stone-flint", 1: "moon-nox"})  # the Croks still in the spots
    assert t.rulings("violation") == []


# -- the end of the game (MC-14, MC-15) ------------------------------------------------------------------


def test_MC_14_a_sixth_group_victory_ends_the_game_and_lights_the_winners_pad():
    t = Table()
    wins = [("sun-kroko", "moon-nox"), ("moon-shade", "star-comet"), ("star-vega", "river-delta"),
            ("river-delta", "leaf-moss"), ("leaf-moss", "stone-flint"), ("stone-flint", "fire-blaze")]
    for battle, (ann, bob) in enumerate(wins, start=1):
        t.battle(ann, bob, "Power")
        t.tap(next(o["label"] for o in t.question["options"] if o["label"].endswith("it wins the battle")))
        while t.question and t.question["kind"] == "ability":
            t.tap(next(o["label"] for o in t.question["options"] if o["label"].startswith("Decline")))
        t.see()  # the spots cleared
        if battle < 6:
            assert t.view["outcome"] is None
    assert t.view["outcome"]["rule_id"] == "MC-14" and t.view["outcome"]["winners"] == [0]
    assert t.view["players"][0]["groups"] == ["leaf", "moon", "river", "star", "stone", "sun"]
    assert t.rulings()[-1] == ("MC-14", "Ann wins")


def test_the_game_over_lights_the_winner_and_sounds_the_buzzer():
    t = Table()
    wins = [("sun-kroko", "moon-nox"), ("moon-shade", "star-comet"), ("star-vega", "river-delta"),
            ("river-delta", "leaf-moss"), ("leaf-moss", "stone-flint")]
    for ann, bob in wins:
        t.battle(ann, bob)
        t.tap("Use " + t.question["prompt"].split("'s ")[1].split(" (")[0] + ": it wins the battle")
        t.tap(next(o["label"] for o in t.question["options"] if o["label"].startswith("Decline")))
        t.see()
    t.battle("stone-flint", "fire-blaze")
    t.tap("Use Police: it wins the battle")
    effects = t.tap("Decline Bond")
    assert LightSeat(t.t, 0) in effects and any(e.kind == "beep" for e in effects)


# -- bad input and the admin ---------------------------------------------------------------------------


def test_an_act_that_is_no_move_is_a_ruling_not_a_traceback():
    t = Table()
    t._input("act", data={"action": {"type": "teleport"}})
    assert t.rulings("violation")[-1][1].startswith("Not a move:")
    t._input("act", data={"action": {"type": "choose", "seat": 1, "battle_type": "power"}})
    assert t.rulings("violation")[-1] == ("MC-05", "the attacker (Ann) chooses the battle type")


def test_an_answer_to_an_old_question_is_ignored():
    t = Table()
    old = t.question["id"]
    t.tap("Power")
    t._input("answer", data={"question": old, "option": 2})
    assert t.view["battle"]["battle_type"] == "power"


def test_undo_takes_a_tapped_choice_back_and_asks_again():
    t = Table()
    t.tap("Reflex")
    t._input("undo")
    assert t.view["battle"]["battle_type"] is None and t.question["kind"] == "battle_type"
    assert t.rulings()[-1] == ("", "Undone by the admin: Reflex")


def test_undo_of_what_the_camera_still_sees_takes_it_again():
    t = Table()
    t.tap("Power")
    t.see({0: "BACK"})
    t._input("undo")
    assert t.view["battle"]["to_play"] == [1]


def test_MC_04_the_next_game_of_the_match_starts_with_the_winner_attacking():
    t = Table(first=1)
    wins = [("moon-nox", "sun-kroko"), ("star-comet", "moon-shade"), ("river-delta", "star-vega"),
            ("leaf-moss", "river-delta"), ("stone-flint", "leaf-moss"), ("fire-blaze", "stone-flint")]
    for bob, ann in wins:  # Bob attacks and wins each battle by an outright win
        t.tap("Power")
        t.see({1: "BACK"})
        t.see({0: "BACK", 1: "BACK"})
        t.see({0: ann, 1: bob})
        while t.question and t.question["kind"] == "ability":
            seat = t.question["seat"]
            labels = [o["label"] for o in t.question["options"]]
            ends = "it wins the battle" if seat == 1 else "no effect"  # Ann's Samurai cannot be declined
            t.tap(next(lab for lab in labels if lab.startswith("Decline") and seat == 0 or lab.endswith(ends)))
        t.see()
    assert t.view["outcome"]["winners"] == [1] and t.state["scores"]["round_over"]
    t._input("next_round")
    assert t.state["round"] == 2 and t.view["battle"]["attacker"] == 1 and t.view["outcome"] is None
    assert t.rulings()[-1] == ("MC-04", "Game 2: shuffle, draw 4; Bob attacks first")
