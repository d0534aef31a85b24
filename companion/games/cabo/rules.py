"""The house rules of Crocodile and Recall (RULES.md 1.2 and 4.2) as data, and the
:class:`Policy` the engine reads: one frozen value that says, for one game and one set
of house rules, how every family rule is played.

The engine never asks "is this Crocodile?"; it asks the policy ("may a player claim an
opponent's card?", "what power has a drawn 9?"). Fixed behaviour of one game (Recall's
tie-break, RE-11) is a policy value set by that game, not an option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.cards import Card
from companion.games.options import HouseRule, HouseRules, IntRange

# -- power kinds ------------------------------------------------------------------------

SELFIE = "selfie"
"""Look at one of your own face-down cards (Crocodile 7, CR-10; Recall family 7/8)."""
SNEAKY = "sneaky"
"""Look at one face-down card of another player (Crocodile 8, CR-11; Recall family 9/10)."""
LOOK_ANY = "look"
"""Look at any one card on the table, yours or another's (Recall Q, RE-02)."""
BLIND_SWAP = "blind_swap"
"""Crocodile 9 (CR-12): one of yours with another's, or one each of two other players."""
SWITCH_ANY = "switch"
"""Recall J, ``blind_any_two`` (RE-G9): any two cards on the table, unseen."""
SWITCH_TWO_PLAYERS = "switch_two_players"
"""Recall J, ``blind_two_players`` (RE-G9): two cards of two different players, unseen."""
POWER_SWAP = "power_swap"
"""Crocodile 10 (CR-13), Recall family black K: look at one of yours and one of
another's, then swap exactly those two or not."""

PEEKS = (SELFIE, SNEAKY, LOOK_ANY)
SWITCHES = (BLIND_SWAP, SWITCH_ANY, SWITCH_TWO_PLAYERS)

POWER_NAMES = {
    SELFIE: "selfie",
    SNEAKY: "sneaky",
    LOOK_ANY: "look",
    BLIND_SWAP: "blind swap",
    SWITCH_ANY: "switch",
    SWITCH_TWO_PLAYERS: "switch",
    POWER_SWAP: "power swap",
}

BLACK_KING = "Kb"
"""Key of the black king in a power table (the red king has no power anywhere)."""


def power_key(card: Card) -> str:
    """The key of ``card`` in a power table: its rank, or ``Kb`` for a black king."""
    if card.rank == "K" and not card.is_red:
        return BLACK_KING
    return card.rank


# -- the options ------------------------------------------------------------------------

_BLANK = "The owners' text stops after the title; it stays disabled until they define it."

_JOKERS = HouseRule(
    "jokers_per_deck", 2, (IntRange(0, 2),), "CR-G1",
    "A standard deck has two jokers.", "Dom's Game Index, Cambio [S14]",
)
_DECKS = HouseRule(
    "decks", "auto", ("auto", 1, 2), "CR-G1",
    "Cambio uses one deck up to 6 players and a second above that (auto).", "[S14]",
)
_DIRECTION = HouseRule(
    "turn_direction", "clockwise", ("clockwise", "counterclockwise"), "CR-G2",
    "The text starts to the left of the dealer; Cabo plays clockwise.", "Wikipedia, Cabo [S9]",
)
_DECK_EXHAUSTED = HouseRule(
    "deck_exhausted", "reshuffle_discards", ("reshuffle_discards", "end_round"), "CR-G15",
    "Reshuffling the discards (all but the top card) keeps the round going.", "Rat-a-Tat Cat [S17]; Cabo 2nd ed. [S10]",
)


def _match_target(gap: str) -> HouseRule:
    return HouseRule(
        "match_target", "none", ("none", IntRange(1)), gap,
        "The text scores one round; the Cabo family plays rounds until a total reaches 100.",
        "Wikipedia, Cabo [S9]; Cabo 2nd ed. [S10]",
    )


CROCODILE_RULES: tuple[HouseRule, ...] = (
    _JOKERS,
    _DECKS,
    _DIRECTION,
    HouseRule("discard_take_must_swap", True, (True, False), "CR-G3",
              "The text offers the top discard only as a swap (CR-07b).", "playcabo.com [S15]; Rat-a-Tat Cat [S17]"),
    HouseRule("discard_take_power", False, (True, False), "CR-G3",
              "Across the family, discard-pile cards count only for their value.", "playcabo.com [S15]"),
    HouseRule("call_timing", "any_time", ("any_time", "own_turn_instead_of_action", "own_turn_after_action"),
              "CR-G4", "The text says 'at any point'; the turn in progress counts as that player's last.",
              "Cabo [S9]; Cambio [S12][S14]"),
    HouseRule("caller_cards_locked", True, (True, False), "CR-G5",
              "After the call nobody may touch the caller's cards (Cambio).", "Cambio (chlopez) rule 6 [S12]"),
    HouseRule("smack_match", "rank", ("rank", "rank_and_colour"), "CR-G6",
              "Recall says colour is irrelevant; Cambio matches number or face.", "Recall text; Cambio notes [S13]"),
    HouseRule("smack_window_end", "next_action", ("next_action", "next_discard"), "CR-G7",
              "Recall's text: 'until the next player plays'.", "Recall text; Cambio [S11]"),
    HouseRule("smacks_per_discard", 1, (1, "unlimited"), "CR-G7",
              "The first smack claims the discard; later claims lose as in CR-18.", "Cambio [S11]; [S14]"),
    HouseRule("combine_smackdowns", True, (True, False), "CR-G8",
              "The text allows 'a or multiple' matching cards in one smackdown.", "seed; Cambio notes [S13]"),
    HouseRule("smack_chains", False, (True, False), "CR-G9",
              "Avoids endless chains: a smacked or reward card opens no new window.", "Cambio notes [S13]"),
    HouseRule("smack_on_reward_discard", True, (True, False), "CR-G9",
              "After smacking another player's card you may discard one of your own. On: that card lands "
              "face up on the pile like any discard, so anyone holding the same rank may smack it. Off: "
              "nobody may smack on a reward card.",
              "seed: CR-15 \"whenever a card is placed face up on the discard pile\"; CR-17 \"you may discard\"",
              v1_default=False),
    HouseRule("clarkey_two_hand", "disabled", ("disabled",), "CR-G10",
              "No public source describes it.", "", disabled_reason=_BLANK),
    HouseRule("snatchdown", "disabled", ("disabled",), "CR-G11",
              "No public source describes it.", "", disabled_reason=_BLANK),
    HouseRule("wrong_smack_penalty_cards", 1, (IntRange(0),), "CR-G12",
              "Family rule: the card goes back face down (now known) and the offender takes a penalty card.",
              "[S10][S11][S12][S13][S16]"),
    HouseRule("opponent_smack_reward", "discard_own", ("discard_own", "give_own", "none"), "CR-G13",
              "Follows the text: the smacker may discard any one of their own face-down cards.", "seed; Cambio [S12]"),
    HouseRule("race_loser_card", "return_face_down", ("return_face_down", "stay_face_up"), "CR-G14",
              "The text's punishment is the reveal; returning the card keeps the layout intact.", "seed (inference)"),
    _DECK_EXHAUSTED,
    HouseRule("tie_break", "fewer_cards", ("shared", "fewer_cards", "caller_loses", "caller_wins"), "CR-G16",
              "The card count follows the owners' Recall rules and rewards smackdowns.", "Recall text; [S12][S15b]"),
    HouseRule("fill_empty_slots", False, (True, False), "CR-G17",
              "Penalty cards become extra slots; an emptied slot stays empty.", "Cambio [S11][S13] (inference)"),
    HouseRule("deed_trigger", "empty_layout", ("empty_layout", "four_smackdowns"), "CR-G17",
              "With a penalty card, four smackdowns no longer empty the layout.", "inference"),
    _match_target("CR-G18"),
)

RECALL_RULES: tuple[HouseRule, ...] = (
    HouseRule("added_powers", "none", ("none", "cabo_family"), "RE-G1",
              "The owners' 'added power cards' are undefined, so only Q and J have powers; 'cabo_family' "
              "is the family preset (7/8 look at yours, 9/10 at another's, black K look at two and swap).",
              "Wikipedia, Cabo [S9]; Cambio notes [S13]"),
    HouseRule("power_trigger", "any_play", ("any_play", "drawn_and_played"), "RE-G2",
              "Which queens and jacks give their power. Any play (the default): every queen or jack put on "
              "the pile, the card you drew, one of your own cards you play instead, or one you match out of "
              "turn; a power you did not draw for may be declined. Drawn and played: only a card you draw "
              "and play at once.",
              "seed: RE-02 \"for each queen played\"; RE-07 and RE-09 call a layout card and a matched card "
              "played", v1_default="drawn_and_played"),
    HouseRule("discard_take_must_swap", True, (True, False), "RE-G3",
              "A taken discard cannot be played straight back.", "playcabo.com [S15]; Rat-a-Tat Cat [S17]"),
    HouseRule("match_window_end", "next_discard", ("next_discard", "next_action"), "RE-09",
              "How long the others may match a played card. Until the next play (the default): through "
              "the next player's draw, until that player puts a card on the pile or takes the top one. "
              "Until the next draw: matching stops as soon as the next player draws or takes the pile.",
              "seed: RE-09 \"until the next player plays\"; RE-07 a card is played onto the pile",
              v1_default="next_action"),
    HouseRule("wrong_match_penalty_cards", 1, (IntRange(0),), "RE-G4",
              "The card goes back face down (now known); the offender takes a penalty card.", "[S10]-[S16]"),
    HouseRule("match_opponent_cards", False, (True, False), "RE-G5",
              "The text: 'that player can play that card', i.e. his own.", "seed"),
    HouseRule("active_player_matches", False, (True, False), "RE-G6",
              "The text says 'any of the other players'.", "seed; Cabo [S9]"),
    HouseRule("caller_cards_locked", True, (True, False), "RE-G7",
              "Locking the caller's cards is the Cambio convention.", "Cambio (chlopez) [S12]"),
    HouseRule("empty_hand_end", "immediate", ("immediate", "finish_round"), "RE-G8",
              "The player has 'finished'.", ""),
    HouseRule("jack_swap", "blind_any_two", ("blind_any_two", "blind_two_players"), "RE-G9",
              "The text: 'switch any two playing cards of any player'.", "seed"),
    HouseRule(_JOKERS.name, _JOKERS.default, _JOKERS.allowed, "RE-G10", _JOKERS.reason, _JOKERS.source),
    HouseRule(_DECKS.name, _DECKS.default, _DECKS.allowed, "RE-G10", _DECKS.reason, _DECKS.source),
    HouseRule(_DIRECTION.name, _DIRECTION.default, _DIRECTION.allowed, "RE-G10", _DIRECTION.reason,
              _DIRECTION.source),
    HouseRule(_DECK_EXHAUSTED.name, _DECK_EXHAUSTED.default, _DECK_EXHAUSTED.allowed, "RE-G10",
              _DECK_EXHAUSTED.reason, _DECK_EXHAUSTED.source),
    _match_target("CR-G18"),
)


# -- the policy -------------------------------------------------------------------------


@dataclass(frozen=True)
class Policy:
    """How one game plays the family rules under one set of house rules."""

    game: str
    call_word: str
    """What is called to end the round: ``Crocodile`` or ``Recall``."""
    claim_word: str
    """An out-of-turn claim in the game's words: ``smackdown`` or ``match``."""
    red_king_value: int
    decks: int
    jokers_per_deck: int
    clockwise: bool
    turn_up: bool
    """The dealer turns up the first discard (CR-04); Recall's pile starts empty (RE-07)."""
    look: str
    """Initial look: ``near`` (the two near cards, CR-05) or ``any_two`` (RE-06)."""
    take_must_swap: bool
    take_power: bool
    powers: Mapping[str, str]
    """Power table: rank (or ``Kb``) -> power kind, for a card drawn and played at once."""
    power_rules: Mapping[str, str]
    """Rank (or ``Kb``) -> the rule id of that power."""
    any_play_powers: bool
    """Powers also fire for layout cards and out-of-turn claims (Recall ``any_play``, RE-G2)."""
    call_timing: str
    caller_cards_locked: bool
    match_colour: bool
    window_end: str
    claims_per_discard: int | None
    """``1``: the first claim takes the discard; ``None``: unlimited."""
    combine: bool
    chains: bool
    """A smacked card opens a new window (CR-G9 ``smack_chains``)."""
    reward_window: bool
    """The card discarded as a smacker's reward opens a new window (CR-15 read with CR-17;
    CR-G9 ``smack_on_reward_discard``, and always under ``smack_chains``)."""
    wrong_penalty: int
    claim_opponent_cards: bool
    placer_may_claim: bool
    """May the player who put the card on the pile claim on it (Recall RE-G6)?"""
    opponent_reward: str
    race_loser_card: str
    deck_exhausted: str
    tie_break: str
    """``shared``, ``fewer_cards``, ``caller_loses``, ``caller_wins`` or ``recall`` (RE-11)."""
    fill_empty_slots: bool
    empty_layout: str
    """What an empty layout does: ``deed`` (wins at once, CR-19), ``immediate`` or
    ``finish_round`` (Recall, RE-G8)."""
    deed_trigger: str
    rules: Mapping[str, str]
    """Concept -> the rule id quoted in rulings (``claim`` -> ``CR-15``)."""

    def value(self, card: Card) -> int:
        """Points of ``card`` (CR-01, RE-01)."""
        if card.is_joker:
            return 0
        if card.rank == "K":
            return self.red_king_value if card.is_red else 10
        if card.rank in "TJQ":
            return 10
        return card.rank_index

    def power_of(self, card: Card) -> str | None:
        return self.powers.get(power_key(card))

    def matches(self, card: Card, window_card: Card) -> bool:
        """Is ``card`` "the same card" as the one on the pile (CR-G6, RE-09)?"""
        if card.rank != window_card.rank:
            return False
        return not self.match_colour or card.is_red == window_card.is_red

    def rule(self, concept: str) -> str:
        return self.rules[concept]


def resolved_decks(option: object, players: int) -> int:
    """CR-G1: ``auto`` is one deck for 2-6 players and two for 7 or more."""
    if option == "auto":
        return 2 if players >= 7 else 1
    assert isinstance(option, int)
    return option


CROCODILE_RULE_IDS = {
    "values": "CR-01", "goal": "CR-02", "deal": "CR-03", "turn_up": "CR-04", "look": "CR-05",
    "start": "CR-06", "turn": "CR-07", "drawn": "CR-08", "take": "CR-07", "take_swap": "CR-G3",
    "power_only_drawn": "CR-09", "no_power": "CR-14", "claim": "CR-15", "claim_own": "CR-16",
    "claim_other": "CR-17", "race": "CR-18", "deed": "CR-19", "call": "CR-20", "score": "CR-21",
    "players": "CR-G1", "call_timing": "CR-G4", "locked": "CR-G5", "match": "CR-G6", "window": "CR-G7",
    "combine": "CR-G8", "chains": "CR-G9", "wrong": "CR-G12", "reward": "CR-G13", "race_loser": "CR-G14",
    "deck": "CR-G15", "tie_break": "CR-G16", "penalty_slot": "CR-G17", "blind": "CR-G19",
    "placer": "CR-15", "opponent": "CR-17", "empty": "CR-19",
}

RECALL_RULE_IDS = {
    "values": "RE-01", "goal": "RE-04", "deal": "RE-06", "turn_up": "RE-07", "look": "RE-06",
    "start": "RE-07", "turn": "RE-07", "drawn": "RE-07", "take": "RE-08", "take_swap": "RE-G3",
    "power_only_drawn": "RE-G2", "no_power": "RE-02", "claim": "RE-09", "claim_own": "RE-09",
    "claim_other": "RE-G5", "race": "RE-09", "deed": "RE-05", "call": "RE-10", "score": "RE-11",
    "players": "RE-G10", "call_timing": "RE-10", "locked": "RE-G7", "match": "RE-09", "window": "RE-09",
    "combine": "RE-09", "chains": "RE-09", "wrong": "RE-G4", "reward": "RE-G5", "race_loser": "RE-09",
    "deck": "RE-G10", "tie_break": "RE-11", "penalty_slot": "RE-G4", "blind": "RE-09",
    "placer": "RE-G6", "opponent": "RE-G5", "empty": "RE-G8",
}


def crocodile_policy(rules: HouseRules, players: int) -> Policy:
    """The policy of Crocodile (RULES.md section 1) under ``rules``."""
    powers = {"7": SELFIE, "8": SNEAKY, "9": BLIND_SWAP, "T": POWER_SWAP}
    return Policy(
        game="crocodile",
        call_word="Crocodile",
        claim_word="smackdown",
        red_king_value=-1,
        decks=resolved_decks(rules.decks, players),
        jokers_per_deck=rules.jokers_per_deck,
        clockwise=rules.turn_direction == "clockwise",
        turn_up=True,
        look="near",
        take_must_swap=rules.discard_take_must_swap,
        take_power=rules.discard_take_power,
        powers=powers,
        power_rules={"7": "CR-10", "8": "CR-11", "9": "CR-12", "T": "CR-13"},
        any_play_powers=False,
        call_timing=rules.call_timing,
        caller_cards_locked=rules.caller_cards_locked,
        match_colour=rules.smack_match == "rank_and_colour",
        window_end=rules.smack_window_end,
        claims_per_discard=None if rules.smacks_per_discard == "unlimited" else 1,
        combine=rules.combine_smackdowns,
        chains=rules.smack_chains,
        reward_window=rules.smack_on_reward_discard or rules.smack_chains,
        wrong_penalty=rules.wrong_smack_penalty_cards,
        claim_opponent_cards=True,
        placer_may_claim=True,
        opponent_reward=rules.opponent_smack_reward,
        race_loser_card=rules.race_loser_card,
        deck_exhausted=rules.deck_exhausted,
        tie_break=rules.tie_break,
        fill_empty_slots=rules.fill_empty_slots,
        empty_layout="deed",
        deed_trigger=rules.deed_trigger,
        rules=CROCODILE_RULE_IDS,
    )


def recall_policy(rules: HouseRules, players: int) -> Policy:
    """The policy of Recall (RULES.md section 4) under ``rules``. Matches go on "until
    the next player plays" (RE-09): by default until the next card is put on the pile,
    through the next player's draw (``match_window_end``). Fixed Recall behaviour: any
    number of players may match one card, several own cards may go down at once, and no
    matched card opens a new window."""
    jack = SWITCH_ANY if rules.jack_swap == "blind_any_two" else SWITCH_TWO_PLAYERS
    powers = {"Q": LOOK_ANY, "J": jack}
    power_rules = {"Q": "RE-02", "J": "RE-G9"}
    if rules.added_powers == "cabo_family":
        powers.update({"7": SELFIE, "8": SELFIE, "9": SNEAKY, "T": SNEAKY, BLACK_KING: POWER_SWAP})
        power_rules.update({key: "RE-G1" for key in ("7", "8", "9", "T", BLACK_KING)})
    return Policy(
        game="recall",
        call_word="Recall",
        claim_word="match",
        red_king_value=0,
        decks=resolved_decks(rules.decks, players),
        jokers_per_deck=rules.jokers_per_deck,
        clockwise=rules.turn_direction == "clockwise",
        turn_up=False,
        look="any_two",
        take_must_swap=rules.discard_take_must_swap,
        take_power=rules.power_trigger == "any_play",
        powers=powers,
        power_rules=power_rules,
        any_play_powers=rules.power_trigger == "any_play",
        call_timing="own_turn_after_action",
        caller_cards_locked=rules.caller_cards_locked,
        match_colour=False,
        window_end=rules.match_window_end,
        claims_per_discard=None,
        combine=True,
        chains=False,
        reward_window=False,
        wrong_penalty=rules.wrong_match_penalty_cards,
        claim_opponent_cards=rules.match_opponent_cards,
        placer_may_claim=rules.active_player_matches,
        opponent_reward="none",
        race_loser_card="return_face_down",
        deck_exhausted=rules.deck_exhausted,
        tie_break="recall",
        fill_empty_slots=False,
        empty_layout=rules.empty_hand_end,
        deed_trigger="empty_layout",
        rules=RECALL_RULE_IDS,
    )
