"""Crapô's house rules: the gaps CP-G1 ... CP-G8 of RULES.md as options with their defaults."""

from __future__ import annotations

from companion.games.options import HouseRule, IntRange, check_options_table

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "deck_ownership", "one_pack_each", ("one_pack_each", "mixed"), "CP-G1",
        "\"Each player gets 52 cards\" reads most directly as one pack each; 'mixed' is the "
        "Portuguese deal (both packs mixed and dealt alternately).",
        "Pagat, Russian Bank [S22]; Portuguese Crapô [S28]",
    ),
    HouseRule(
        "layout", "classical", ("classical", "custom"), "CP-G2",
        "Where the piles lie on the table: the classical Russian Bank layout, or a calibrated custom "
        "one. The rules are the same either way.",
        "[S22][S28]",
    ),
    HouseRule(
        "first_player", "lower_top_card", ("lower_top_card", "higher_top_card", "players_choose"), "CP-G3",
        "Not stated and the sources disagree: compare the top cards of the decks (ties go to the next "
        "card), or the players say who starts.",
        "[S22][S26][S28][S29]",
    ),
    HouseRule(
        "compulsory_and_stop", False, (False, True), "CP-G4",
        "The text is silent and the Portuguese Crapô makes foundation plays optional. When on, foundation "
        "plays are compulsory and the opponent may call Stop! on an illegal or missed move.",
        "[S22]-[S29]",
    ),
    HouseRule(
        "initial_aces", "to_centre", ("to_centre", "optional"), "CP-G5",
        "The text puts the aces in the centre; in Russian Bank moving the dealt aces is the compulsory "
        "first move.",
        "bingoclubuk [S25]; seed",
    ),
    HouseRule(
        "play_on_opponent_deck", False, (False, True), "CP-G6",
        "The text allows loading only the opponent's trash; classical Russian Bank also allows his reserve.",
        "[S22][S27a]",
    ),
    HouseRule(
        "shuffle_on_flip", False, (False, True), "CP-G7",
        "Zank-Patience turns the whole waste pile face down as the new deck, without shuffling.",
        "Zank-Patience rules [S29]",
    ),
    HouseRule(
        "flip_ends_turn", False, (False, True), "CP-G7",
        "Nothing says that turning the trash over ends the turn.",
        "Zank-Patience rules [S29]",
    ),
    HouseRule(
        "stalemate_cycles", 3, (IntRange(0),), "CP-G8",
        "Two packs can deadlock: after both players have turned their trash over this many times with no "
        "card played to a foundation, the game is drawn (0: never).",
        "Foster's Russian Bank (1922) [S21]",
    ),
)

check_options_table(HOUSE_RULES)
