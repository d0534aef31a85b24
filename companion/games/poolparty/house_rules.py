"""Pool Party's house rules: every gap of RULES.md 2.4 as a named option with its default.

The board's geometry (PP-G2 row capacities, PP-G3 bar and step squares) is a board
config (``setup["board"]``, see :mod:`.board`), not an option here: it is a list of
squares, which the option table cannot hold. PP-G7 is fixed behaviour (one tile or one
stack per square), so it has no option.
"""

from __future__ import annotations

from companion.games.options import HouseRule, check_options_table

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "start_layout", "observed", ("observed", "placeholder", "alternate_placement"), "PP-G1",
        "The first-game picture is missing: record the players' own set-up (checked against the PP-02 row "
        "limits), use the documented placeholder layout, or place alternately as in later games.",
        "English rules transcript [S2]",
    ),
    HouseRule(
        "goal_end", "far", ("far", "near"), "PP-G3",
        "Three of four reviews put a player's pool bar at the far end, opposite his start rows.",
        "[S3][S5][S6] vs [S7]",
    ),
    HouseRule(
        "bar_entry", "orthogonal_from_step", ("orthogonal_from_step", "any_from_step"), "PP-G4",
        "Tiles leave the pool 'by' the step squares; the bar is the last space of an exact move. "
        "any_from_step lets the 1 also step diagonally from a step square into the bar.",
        "seed wording",
    ),
    HouseRule(
        "no_legal_move", "pass", ("pass", "end_game"), "PP-G5",
        "Not covered by the rules: the stuck player passes (the game ends when neither can move), "
        "or the game ends at once.",
    ),
    HouseRule(
        "tiebreak_sum", "visible_crocodiles", ("visible_crocodiles", "flip_all"), "PP-G6",
        "The text sums 'the numbers on the crocodiles': swimmers are not crocodiles, so they do not count "
        "unless flip_all turns every tile at the bars over.",
    ),
    HouseRule(
        "steps_are_water", True, (True, False), "PP-G8",
        "Step squares are ordinary water that also lets tiles leave the pool; false: a move may not pass "
        "through a step square except on its way into the bar.",
        "inference",
    ),
    HouseRule(
        "empty_pool_ends", True, (True, False), "PP-G9",
        "Nothing is left to play once every tile is at a bar.",
        "inference",
    ),
    HouseRule(
        "allow_reversal", False, (True, False), "PP-G10",
        "Only 'a right-angle turn' is allowed; true lets a 2-5 crocodile turn back 180° once instead.",
        "seed",
    ),
)

check_options_table(HOUSE_RULES)
