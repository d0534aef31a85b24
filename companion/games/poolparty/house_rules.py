"""Pool Party's house rules: every gap of RULES.md 2.4 as a named option with its default.

The board's geometry (PP-G2 row capacities, PP-G3 bar and step squares) is a board
config (``setup["board"]``, see :mod:`.board`), not an option here: it is a list of
squares, which the option table cannot hold. PP-G7 is fixed behaviour (one tile or one
stack per square), so it has no option.
"""

from __future__ import annotations

from companion.games.options import HouseRule, check_options_table

HOUSE_RULES: tuple[HouseRule, ...] = (
    # ``reason`` is the help the setup page shows the players; ``source`` is for maintainers.
    HouseRule(
        "start_layout", "observed", ("observed", "placeholder", "alternate_placement"), "PP-G1",
        "How the swimmers are set out for the first game (the picture in the rules is missing). Observed: "
        "set them out as you like in your start rows and the camera records it. Placeholder: a fixed "
        "layout the referee shows you. Alternate placement: take turns placing one swimmer at a time, as in "
        "later games.",
        "English rules transcript [S2]",
    ),
    HouseRule(
        "goal_end", "far", ("far", "near"), "PP-G3",
        "Which pool bar your swimmers head for. Far: the bar at the other end, in front of your opponent. "
        "Near: the bar at your own end.",
        "[S3][S5][S6] vs [S7]",
    ),
    HouseRule(
        "bar_entry", "orthogonal_from_step", ("orthogonal_from_step", "any_from_step"), "PP-G4",
        "How a tile gets into the bar: always from a step square, as the last space of its move. "
        "Orthogonal from step: straight in, never diagonally. Any from step: the crocodile 1 may also step "
        "in diagonally.",
        "seed wording",
    ),
    HouseRule(
        "no_legal_move", "pass", ("pass", "end_game"), "PP-G5",
        "When the player to move cannot move. Pass: they pass, and the game ends when neither player can "
        "move. End game: the game ends at once.",
    ),
    HouseRule(
        "tiebreak_sum", "visible_crocodiles", ("visible_crocodiles", "flip_all"), "PP-G6",
        "When both bars hold as many tiles, the higher sum of crocodile numbers wins. Visible crocodiles: "
        "only tiles showing a crocodile count; swimmers stay as they are. Flip all: every tile at the bars "
        "is turned over and counts.",
    ),
    HouseRule(
        "steps_are_water", True, (True, False), "PP-G8",
        "Yes: step squares are water like any other that tiles may also leave the pool from. No: a tile "
        "may cross a step square only on its way into the bar.",
        "inference",
    ),
    HouseRule(
        "empty_pool_ends", True, (True, False), "PP-G9",
        "Yes: the game ends when every tile has left the pool. No: it ends only when neither player can move.",
        "inference",
    ),
    HouseRule(
        "allow_reversal", False, (True, False), "PP-G10",
        "No: a crocodile 2 to 5 may make one right-angle turn and never turns back. Yes: it may turn back "
        "once instead, though not to end where it started.",
        "seed",
    ),
)

check_options_table(HOUSE_RULES)
