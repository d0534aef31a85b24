"""The house rules of Crocodile and Recall (RULES.md 1.2 and 4.2) as data, and the
:class:`Policy` the engine reads: one frozen value that says, for one game and one set
of house rules, how every family rule is played.

The engine never asks "is this Crocodile?"; it asks the policy ("may a player claim an
opponent's card?", "what power has a drawn 9?"). Fixed behaviour of one game (Recall's
tie-break, RE-11) is a policy value set by that game, not an option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

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
# ``reason`` is what the setup page tells the players (what changes at the table, with the
# values as the page shows them: yes/no, "next action"); ``source`` keeps where each
# default comes from, for the maintainers.

_BLANK = "The owners' rules name it but do not say yet how it works, so it stays off until they do."

_JOKERS = HouseRule(
    "jokers_per_deck", 2, (IntRange(0, 2),), "CR-G1",
    "How many jokers go into each deck. A joker is worth 0 points.", "Dom's Game Index, Cambio [S14]",
)
_DECKS = HouseRule(
    "decks", "auto", ("auto", 1, 2), "CR-G1",
    "How many decks are shuffled together. Auto: one deck for up to 6 players, two for 7 or 8.", "[S14]",
)
_DIRECTION = HouseRule(
    "turn_direction", "clockwise", ("clockwise", "counterclockwise"), "CR-G2",
    "Which way play goes round the table. Clockwise: the player to the dealer's left starts and play "
    "passes to the left. Counterclockwise: the player to the dealer's right starts and play passes to "
    "the right.",
    "seed (\"the player to the left of dealer begins\"); Wikipedia, Cabo [S9]",
)
_DECK_EXHAUSTED = HouseRule(
    "deck_exhausted", "reshuffle_discards", ("reshuffle_discards", "end_round"), "CR-G15",
    "When the deck runs out. Reshuffle discards: every card of the discard pile but the top one is "
    "shuffled into a new deck. End round: the round ends after the turn that took the last card.",
    "Rat-a-Tat Cat [S17]; Cabo 2nd ed. [S10]",
)
_MATCH_TARGET = HouseRule(
    "match_target", "none", ("none", IntRange(1)), "CR-G18",
    "None: one round. A number: rounds are played one after another, each player's points adding up, "
    "until someone's total reaches that number; the lowest total wins.",
    "Wikipedia, Cabo [S9]; Cabo 2nd ed. [S10]",
)
_TAKE_MUST_SWAP = HouseRule(
    "discard_take_must_swap", True, (True, False), "CR-G3",
    "Yes: a card you take from the discard pile must replace one of your face-down cards. No: you may "
    "also put it straight back on the pile.",
    "seed (CR-07b); playcabo.com [S15]; Rat-a-Tat Cat [S17]",
)


def _for_recall(rule: HouseRule, gap: str = "RE-G10") -> HouseRule:
    """Crocodile's option as Recall's: the same choice at the table, under Recall's gap id."""
    return replace(rule, gap=gap)


CROCODILE_RULES: tuple[HouseRule, ...] = (
    _JOKERS,
    _DECKS,
    _DIRECTION,
    _TAKE_MUST_SWAP,
    HouseRule("discard_take_power", False, (True, False), "CR-G3",
              "Yes: a 7, 8, 9 or 10 taken from the discard pile may be played straight back for its power "
              "(only when a taken card need not replace one of yours). No: a taken card counts only for "
              "its points.",
              "playcabo.com [S15]"),
    HouseRule("call_timing", "any_time", ("any_time", "own_turn_instead_of_action", "own_turn_after_action"),
              "CR-G4",
              "When \"Crocodile\" may be called. Any time: by anyone during play; the turn in progress is "
              "that player's last, then every other player has one more turn. Own turn instead of action: "
              "calling is your whole turn. Own turn after action: right after you finish your turn, before "
              "the next player starts.",
              "seed (\"at any point\"); Cabo [S9]; Cambio [S12][S14]"),
    HouseRule("caller_cards_locked", True, (True, False), "CR-G5",
              "Yes: once \"Crocodile\" is called, nobody may smack, swap or look at the caller's cards. "
              "No: they stay in play until the end.",
              "Cambio (chlopez) rule 6 [S12]"),
    HouseRule("smack_match", "rank", ("rank", "rank_and_colour"), "CR-G6",
              "What counts as the same card for a smackdown. Rank: any card of the same rank, so a red "
              "king may be smacked on a black king. Rank and colour: the same rank in the same colour.",
              "Recall text; Cambio notes [S13]"),
    HouseRule("smack_window_end", "next_action", ("next_action", "next_discard"), "CR-G7",
              "How long you may smack on a discard. Next action: until the next player starts their turn "
              "or another card lands on the pile. Next discard: until another card lands on the pile.",
              "Recall text (\"until the next player plays\"); Cambio [S11]"),
    HouseRule("smacks_per_discard", 1, (1, "unlimited"), "CR-G7",
              "1: only the first right smackdown on a discard counts; a slower player's card is only shown "
              "to everyone. Unlimited: every right smackdown counts.",
              "seed (CR-18); Cambio [S11]; [S14]"),
    HouseRule("combine_smackdowns", True, (True, False), "CR-G8",
              "Yes: one smackdown may flip several matching cards at once, yours and other players', each "
              "counting as a smackdown. No: one card per smackdown.",
              "seed (\"a or multiple\"); Cambio notes [S13]"),
    HouseRule("smack_chains", False, (True, False), "CR-G9",
              "Yes: a card smacked down is a new discard that others may smack on in turn, and so is a "
              "reward card. No: nobody smacks on a smacked card; a second smack of the same rank is too slow.",
              "Cambio notes [S13]"),
    HouseRule("smack_on_reward_discard", True, (True, False), "CR-G9",
              "After smacking another player's card you may discard one of your own. Yes: that card lands "
              "face up on the pile like any discard, so anyone holding the same rank may smack it. No: "
              "nobody may smack on a reward card.",
              "seed: CR-15 \"whenever a card is placed face up on the discard pile\"; CR-17 \"you may discard\"",
              v1_default=False),
    HouseRule("clarkey_two_hand", "disabled", ("disabled",), "CR-G10",
              "\"Clarkey two hand\", from the owners' rules.", "", disabled_reason=_BLANK),
    HouseRule("snatchdown", "disabled", ("disabled",), "CR-G11",
              "\"The snatchdown\", from the owners' rules.", "", disabled_reason=_BLANK),
    HouseRule("wrong_smack_penalty_cards", 1, (IntRange(0),), "CR-G12",
              "A smackdown with a card that does not match: the card goes back face down where it was, now "
              "known to everyone, and whoever smacked it takes this many penalty cards from the deck, face "
              "down and unseen. 0: the card only goes back.",
              "[S10][S11][S12][S13][S16]"),
    HouseRule("opponent_smack_reward", "discard_own", ("discard_own", "give_own", "none"), "CR-G13",
              "After you smack another player's card. Discard own: their place is refilled from the deck "
              "and you may discard one of your own face-down cards. Give own: you give them one of your "
              "own face-down cards to fill the place instead. None: their place is refilled from the deck "
              "and that is all.",
              "seed (CR-17); Cambio [S12]"),
    HouseRule("race_loser_card", "return_face_down", ("return_face_down", "stay_face_up"), "CR-G14",
              "When two players smack at once, the slower one's card is shown to everyone. Return face "
              "down: it then goes back face down where it was. Stay face up: it stays face up there.",
              "seed (inference)"),
    _DECK_EXHAUSTED,
    HouseRule("tie_break", "fewer_cards", ("shared", "fewer_cards", "caller_loses", "caller_wins"), "CR-G16",
              "When the lowest totals are equal. Fewer cards: whoever holds fewer cards wins, and any tie "
              "left is shared. Shared: they all win. Caller loses: the player who called does not share "
              "the win. Caller wins: the player who called wins it.",
              "Recall text; [S12][S15b]"),
    HouseRule("fill_empty_slots", False, (True, False), "CR-G17",
              "Yes: a penalty card fills a gap left by a smackdown first. No: penalty cards always go "
              "beside your other cards.",
              "Cambio [S11][S13] (inference)"),
    HouseRule("deed_trigger", "empty_layout", ("empty_layout", "four_smackdowns"), "CR-G17",
              "What wins the round at once (\"doing the deed\"). Empty layout: having no cards left, penalty "
              "cards included. Four smackdowns: your fourth smackdown, whatever you still hold.",
              "seed (CR-19); inference"),
    _MATCH_TARGET,
)

RECALL_RULES: tuple[HouseRule, ...] = (
    HouseRule("added_powers", "none", ("none", "cabo_family"), "RE-G1",
              "Which cards have powers besides queens and jacks. None: no others, as the owners' \"added "
              "power cards\" are still undefined. The other choice adds 7 and 8 (look at one of "
              "your cards), 9 and 10 (look at another player's card) and the black king (look at one of "
              "yours and one of another player's, then swap them or not).",
              "Wikipedia, Cabo [S9]; Cambio notes [S13]"),
    HouseRule("power_trigger", "any_play", ("any_play", "drawn_and_played"), "RE-G2",
              "Which queens and jacks give their power. Any play: every one put on the pile, whether you "
              "drew it, played it from your own cards instead, or matched it out of turn; a power that "
              "comes with one of your own cards or a match may be declined. Drawn and played: only a card "
              "you draw and play at once.",
              "seed: RE-02 \"for each queen played\"; RE-07 and RE-09 call a layout card and a matched card "
              "played", v1_default="drawn_and_played"),
    HouseRule("match_window_end", "next_discard", ("next_discard", "next_action"), "RE-09",
              "How long the others may match a played card. Next discard: until the next player plays, "
              "which is when they put a card on the pile (or take the top one); you may still match while "
              "they look at the card they drew. Next action: matching stops as soon as the next player "
              "draws or takes the top card.",
              "seed: RE-09 \"until the next player plays\"; RE-07 a card is played onto the pile",
              v1_default="next_action"),
    _for_recall(_TAKE_MUST_SWAP, "RE-G3"),
    HouseRule("wrong_match_penalty_cards", 1, (IntRange(0),), "RE-G4",
              "A match with a card of another rank: the card goes back face down where it was, now known to "
              "everyone, and the player takes this many penalty cards from the deck, face down and unseen. "
              "0: the card only goes back.",
              "[S10]-[S16]"),
    HouseRule("match_opponent_cards", False, (True, False), "RE-G5",
              "Yes: you may also match with another player's card; their place is refilled from the deck, "
              "unseen. No: you match only with your own cards.",
              "seed (\"that player can play that card\")"),
    HouseRule("active_player_matches", False, (True, False), "RE-G6",
              "Yes: the player who played a card may also match it with another of their own. No: only "
              "the other players may match it.",
              "seed (\"any of the other players\"); Cabo [S9]"),
    HouseRule("caller_cards_locked", True, (True, False), "RE-G7",
              "Yes: once \"Recall\" is called, nobody may match, switch or look at the caller's cards. "
              "No: they stay in play until the end.",
              "Cambio (chlopez) [S12]"),
    HouseRule("empty_hand_end", "immediate", ("immediate", "finish_round"), "RE-G8",
              "When a player has no cards left. Immediate: play stops and everyone shows their cards. "
              "Finish round: the round of turns is played to its end first.",
              "seed (\"finished\")"),
    HouseRule("jack_swap", "blind_any_two", ("blind_any_two", "blind_two_players"), "RE-G9",
              "What a jack switches, unseen. Blind any two: any two cards on the table, even two of one "
              "player's. Blind two players: two cards of two different players.",
              "seed (\"switch any two playing cards of any player\")"),
    _for_recall(_JOKERS),
    _for_recall(_DECKS),
    _for_recall(_DIRECTION),
    _for_recall(_DECK_EXHAUSTED),
    _MATCH_TARGET,
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
