"""Master Crok's house-rule options: one per gap of RULES.md section 3.2 (MC-G1..MC-G9)."""

from __future__ import annotations

from companion.games.options import HouseRule, IntRange, check_options_table

HOUSE_RULES: tuple[HouseRule, ...] = (
    # ``reason`` is the help the setup page shows the players; ``source`` is for maintainers.
    HouseRule(
        "copy_limit", "seed_examples", ("seed_examples", "per_ten"), "MC-G1",
        "How many copies of one Crok a deck may hold. Seed examples: as in the owners' examples, one for "
        "20 cards, two for 30, three for 40. Per ten: one for every 10 cards.",
        "seed examples; Hungarian Q&A [S20]",
    ),
    HouseRule(
        "card_db", "none", ("none", "catalog"), "MC-G2",
        "None: the referee knows each Crok's name, group and stats, and you settle every ability "
        "yourselves. Catalog: the referee also applies the abilities as the card list describes them.",
    ),
    HouseRule(
        "ability_order", "priority_loop", ("priority_loop", "single_pass"), "MC-G3",
        "Using abilities after the reveal. Priority loop: starting with the attacker, players go round "
        "again and again until nobody has an ability left to use, so a reserved ability can wait for your "
        "turn to come round. Single pass: once round the table, in seat order.",
        "seed",
    ),
    HouseRule(
        "reserve_requires_winner", True, (True, False), "MC-G4",
        "Reserving an ability costs one of your winning Croks, moved to your losers. Yes: without a "
        "winning Crok you cannot reserve. No: then you reserve for free.",
        "[S20] (inference)",
    ),
    HouseRule(
        "partial_tie", "all_lose", ("all_lose", "tied_only"), "MC-G5",
        "When only some players tie for the best Crok, every Crok of the battle goes to the losers. All "
        "lose: everyone plays the blind battle. Tied only: only the tied players play it.",
        "seed (\"each participating Crok goes among the losers\")",
    ),
    HouseRule(
        "tie_next_attacker", "last_defender", ("last_defender", "last_tied_defender"), "MC-G6",
        "Who attacks in the blind battle after a tie. Last defender: the last player to defend in the "
        "tied battle. Last tied defender: the last defender among the tied players.",
        "seed (\"the last defending player\")",
    ),
    HouseRule(
        "empty_deck_draw", "skip", ("skip",), "MC-G7",
        "A player whose deck is empty does not draw.",
        "inference",
    ),
    HouseRule(
        "hand_limit", "none", ("none", IntRange(1)), "MC-G7",
        "None: there is no limit to the Croks in your hand. A number: a player holding that many Croks "
        "does not draw.",
        "inference",
    ),
    HouseRule(
        "end_tie_break", "group_symbols", ("group_symbols", "shared"), "MC-G8",
        "When the game ends with players on as many winning Croks. Group symbols: the one whose winners "
        "show more different group symbols wins, and any tie left is shared. Shared: they share the win.",
        "group symbols decide the main victory (MC-14)",
    ),
    HouseRule(
        "blind_battle_abilities", True, (True, False), "MC-G9",
        "Yes: the Croks of a blind battle use their abilities like any others. No: a blind battle is "
        "decided as soon as they are revealed.",
        "seed (play \"continues with the uncovering of the Croks\")",
    ),
)

check_options_table(HOUSE_RULES)
