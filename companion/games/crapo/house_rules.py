"""Crapô's house rules: the gaps CP-G1 ... CP-G8 of RULES.md as options with their defaults."""

from __future__ import annotations

from companion.games.options import HouseRule, IntRange, check_options_table

HOUSE_RULES: tuple[HouseRule, ...] = (
    # ``reason`` is the help the setup page shows the players; ``source`` is for maintainers.
    HouseRule(
        "deck_ownership", "one_pack_each", ("one_pack_each", "mixed"), "CP-G1",
        "Whose 52 cards are whose. One pack each: each player plays with a pack of their own (packs with "
        "different backs help the camera). Mixed: both packs are shuffled together and dealt out one card "
        "each in turn.",
        "seed (\"each player gets 52 cards\"); Pagat, Russian Bank [S22]; Portuguese Crapô [S28]",
    ),
    HouseRule(
        "layout", "classical", ("classical", "custom"), "CP-G2",
        "Where the piles lie on the table. Classical: each player's four piles in a column, the eight "
        "centre piles between the two columns, each player's deck and trash in front of them. Custom: a "
        "layout of your own, shown to the camera once. The rules are the same either way.",
        "[S22][S28]",
    ),
    HouseRule(
        "first_player", "lower_top_card", ("lower_top_card", "higher_top_card", "players_choose"), "CP-G3",
        "Who starts. Lower top card: each player turns up the top card of their deck and the lower one "
        "starts (on a tie, the next card decides). Higher top card: the higher one starts. Players choose: "
        "you say who starts.",
        "[S22][S26][S28][S29]",
    ),
    HouseRule(
        "compulsory_and_stop", False, (False, True), "CP-G4",
        "No: a card that can go to the centre may stay where it is, and a move against the rules is simply "
        "refused. Yes: a card that can go to the centre must go there first, and when a player breaks a "
        "rule the other may call \"Stop!\": that player's turn ends at once and a wrong move is taken back.",
        "[S22]-[S29]",
    ),
    HouseRule(
        "initial_aces", "to_centre", ("to_centre", "optional"), "CP-G5",
        "Aces among the eight cards dealt face up. To centre: the first player moves them all to the centre "
        "before anything else. Optional: they stay until someone chooses to play them.",
        "seed; bingoclubuk [S25]",
    ),
    HouseRule(
        "play_on_opponent_deck", False, (False, True), "CP-G6",
        "No: you load cards only on your opponent's trash. Yes: you may also put them face down on your "
        "opponent's deck, on the same condition (same suit, one rank up or down from the top of their trash).",
        "seed; [S22][S27a]",
    ),
    HouseRule(
        "shuffle_on_flip", False, (False, True), "CP-G7",
        "When your deck runs out and you turn your trash over as a new deck. No: it is turned over as it "
        "is, so the first card you trashed is the first you draw. Yes: it is shuffled first.",
        "Zank-Patience rules [S29]",
    ),
    HouseRule(
        "flip_ends_turn", False, (False, True), "CP-G7",
        "No: after turning your trash over you play on. Yes: turning it over ends your turn.",
        "Zank-Patience rules [S29]",
    ),
    HouseRule(
        "stalemate_cycles", 3, (IntRange(0),), "CP-G8",
        "Two packs can go round and round forever: once both players have turned their trash over this "
        "many times without a card going to the centre, the game is a draw. 0: never.",
        "Foster's Russian Bank (1922) [S21]",
    ),
)

check_options_table(HOUSE_RULES)
