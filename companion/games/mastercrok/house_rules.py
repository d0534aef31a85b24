"""Master Crok's house-rule options: one per gap of RULES.md section 3.2 (MC-G1..MC-G9)."""

from __future__ import annotations

from companion.games.options import HouseRule, IntRange, check_options_table

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "copy_limit", "seed_examples", ("seed_examples", "per_ten"), "MC-G1",
        "The owners' examples (20 -> 1 copy, 30 -> 2, 40 -> 3) contradict 'once every 10 cards'; "
        "the examples are their own text",
        "Hungarian Q&A [S20]",
    ),
    HouseRule(
        "card_db", "none", ("none", "catalog"), "MC-G2",
        "No owners' card list: with 'none' the catalog gives names, groups and stats and the players "
        "settle every ability on the page; 'catalog' applies the catalog's effects",
    ),
    HouseRule(
        "ability_order", "priority_loop", ("priority_loop", "single_pass"), "MC-G3",
        "Go round from the attacker until a full round passes with no ability used or declined, "
        "matching 'wait for our turn to come around again'",
        "seed",
    ),
    HouseRule(
        "reserve_requires_winner", True, (True, False), "MC-G4",
        "Reserving costs a winning Crok; without one the cost cannot be paid",
        "[S20] (inference)",
    ),
    HouseRule(
        "partial_tie", "all_lose", ("all_lose", "tied_only"), "MC-G5",
        "The text: 'each participating Crok goes among the losers'",
        "seed",
    ),
    HouseRule(
        "tie_next_attacker", "last_defender", ("last_defender", "last_tied_defender"), "MC-G6",
        "Literal reading of 'the last defending player in a tied battle'",
        "seed",
    ),
    HouseRule(
        "empty_deck_draw", "skip", ("skip",), "MC-G7",
        "Not stated: a player whose deck is empty simply does not draw",
        "inference",
    ),
    HouseRule(
        "hand_limit", "none", ("none", IntRange(1)), "MC-G7",
        "Not stated: no hand limit; with a limit, a player holding that many Croks does not draw",
        "inference",
    ),
    HouseRule(
        "end_tie_break", "group_symbols", ("group_symbols", "shared"), "MC-G8",
        "Group symbols are the main victory measure (MC-14)",
    ),
    HouseRule(
        "blind_battle_abilities", True, (True, False), "MC-G9",
        "The text: play 'continues with the uncovering of the Croks'",
        "seed",
    ),
)

check_options_table(HOUSE_RULES)
