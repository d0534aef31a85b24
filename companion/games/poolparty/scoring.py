"""The end of a game (PP-17, PP-G5, PP-G9) and its score (PP-18, PP-G6).

Tiles at a pool bar count for the bar's owner whatever their colour (PP-16). Most tiles
wins; on a tie, the higher sum of crocodile numbers at the bar (``visible_crocodiles``:
only crocodile faces; ``flip_all``: every tile turned over, swimmers too).
"""

from __future__ import annotations

from companion.games.base import Outcome
from companion.games.poolparty.position import Position
from companion.games.poolparty.tiles import Colour


def bar_sum(position: Position, colour: Colour, tiebreak_sum: str) -> int | None:
    """The tie-break sum of ``colour``'s bar; ``None`` while a number in it is unknown."""
    total = 0
    for tile in position.bars[colour]:
        if tile.crocodile or tiebreak_sum == "flip_all":
            if tile.number is None:
                return None
            total += tile.number
    return total


def bar_to_reveal(position: Position, tiebreak_sum: str) -> Colour | None:
    """The first bar whose swimmers must be turned over before the game can be scored
    (refereed play, ``flip_all``, a tie on tiles), else ``None``."""
    counts = {c: len(position.bars[c]) for c in Colour}
    if tiebreak_sum != "flip_all" or counts[Colour.RED] != counts[Colour.YELLOW]:
        return None
    for colour in Colour:
        if bar_sum(position, colour, tiebreak_sum) is None:
            return colour
    return None


def score(position: Position, tiebreak_sum: str) -> Outcome:
    """The outcome of a finished game. Scores are tiles won (what a match sums, PP-19)."""
    assert position.ending is not None
    termination, end_rule = position.ending
    tiles = {c: len(position.bars[c]) for c in Colour}
    sums = {c: bar_sum(position, c, tiebreak_sum) for c in Colour}
    red, yellow = Colour.RED, Colour.YELLOW
    if tiles[red] != tiles[yellow]:
        decided_by = "tiles"
        winners: tuple[Colour, ...] = (red,) if tiles[red] > tiles[yellow] else (yellow,)
    elif sums[red] != sums[yellow]:
        decided_by = "crocodile_sum"
        winners = (red,) if (sums[red] or 0) > (sums[yellow] or 0) else (yellow,)
    else:
        decided_by = "tie"
        winners = (red, yellow)
    return Outcome(
        winners=tuple(c.seat for c in winners),
        scores={c.seat: tiles[c] for c in Colour},
        termination=termination,
        rule_id="PP-18",
        details={
            "ended_by": end_rule,
            "decided_by": decided_by,
            "tiles": {c.value: tiles[c] for c in Colour},
            "crocodile_sums": {c.value: sums[c] for c in Colour},
            "tiebreak_sum": tiebreak_sum,
            "winners": [c.value for c in winners],
        },
    )


def describe(outcome: Outcome) -> str:
    """One sentence for the referee's announcement."""
    d = outcome.details
    tiles = d["tiles"]
    text = f"Red {tiles['red']} tile(s), Yellow {tiles['yellow']} tile(s)"
    if d["decided_by"] == "tiles":
        return f"{text}: {d['winners'][0].capitalize()} wins"
    sums = d["crocodile_sums"]
    text += f"; crocodile sums Red {sums['red']}, Yellow {sums['yellow']}"
    if d["decided_by"] == "crocodile_sum":
        return f"{text}: {d['winners'][0].capitalize()} wins on the tie-break"
    return f"{text}: a draw"
