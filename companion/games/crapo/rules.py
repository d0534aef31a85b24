"""The rules of Crapô (RULES.md CP-01 ... CP-14 and the house rules CP-G4 ... CP-G8):
what each action may do, what it does, and every legal action of a table.

Each ``*_fault`` function answers "which rule does this break?" with a :class:`Fault`
(``None``: it is legal) and raises :class:`IllegalAction` for what cannot happen at all
(a card that is not there, a draw from an empty deck). The same answers serve three
callers: ``apply`` (refuse the move, or under the Stop house rule record it as an
offence the opponent may punish), ``legal_actions`` and move inference.

``play`` mutates the table it is given; callers hand it a copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import ActionFormatError, Event, IllegalAction, Ruling
from companion.games.crapo.actions import (
    DECKS,
    DRAWN,
    FOUNDATIONS,
    KIND,
    TABLEAU,
    TRASHES,
    CrapoAction,
    Draw,
    Flip,
    Move,
    Sequence,
    Stop,
    Trash,
)
from companion.games.crapo.deal import Shuffler
from companion.games.crapo.faces import ACES, RANK, Face, builds_down, builds_up, code, loads, pretty
from companion.games.crapo.table import Offence, Table
from companion.games.options import HouseRules


@dataclass(frozen=True)
class Fault:
    """The rule an action breaks. ``revert``: a Stop! call takes the action back (an
    illegal move); a missed compulsory move (CP-G4) or an early draw stands."""

    rule_id: str
    message: str
    revert: bool = True


@dataclass(frozen=True)
class Context:
    """What the rules need besides the table: the house rules, the seed (for a shuffle
    on flip) and the players' names (for messages)."""

    rules: HouseRules
    seed: int | None
    players: tuple[str, ...]

    @property
    def stop(self) -> bool:
        return bool(self.rules.compulsory_and_stop)

    def name(self, seat: int) -> str:
        return self.players[seat]


# -- what goes where ---------------------------------------------------------------------


def targets(seat: int, rules: HouseRules) -> tuple[str, ...]:
    """Every pile the player to move may put a card on with a move."""
    extra = (DECKS[1 - seat],) if rules.play_on_opponent_deck else ()
    return TABLEAU + FOUNDATIONS + (TRASHES[1 - seat],) + extra


def judged(t: Table, seat: int, target: str, rules: HouseRules) -> tuple[str, Face | None]:
    """How a card put on ``target`` is judged, and against which card: ``down`` on a
    tableau top (CP-03; ``None``: an empty space, CP-06), ``up`` on a foundation (CP-04),
    ``load`` on the top of the opponent's trash (CP-13; also for his deck under CP-G6),
    ``never`` elsewhere."""
    kind = KIND[target]
    if kind == "tableau" or kind == "foundation":
        pile = t.piles[target]
        return ("down" if kind == "tableau" else "up"), (pile[-1] if pile else None)
    if target == TRASHES[1 - seat] or (target == DECKS[1 - seat] and rules.play_on_opponent_deck):
        trash = t.piles[TRASHES[1 - seat]]
        return "load", (trash[-1] if trash else None)
    return "never", None


def fits(how: str, card: Face, top: Face | None) -> bool:
    """Whether ``card`` may go where :func:`judged` said ``how`` and ``top``."""
    if how == "down":
        return top is None or builds_down(card, top)
    if how == "up":
        return builds_up(card, top)
    return how == "load" and top is not None and loads(card, top)


def target_fault(t: Table, seat: int, card: Face, target: str, rules: HouseRules) -> Fault | None:
    """The rule broken by putting ``card`` on ``target`` (one card, the player to move)."""
    how, top = judged(t, seat, target, rules)
    if fits(how, card, top):
        return None
    if how == "down":
        if RANK[card] == 1:
            return Fault("CP-03", f"an ace is never built on {pretty(top)}: the tableau builds down to the 2 "
                                  "and aces go to the centre")
        return Fault("CP-03", f"{pretty(card)} does not go on {pretty(top)}: the tableau builds down "
                              "in alternating colours")
    if how == "up":
        if top is None:
            return Fault("CP-04", f"a foundation starts with an ace, not {pretty(card)}")
        return Fault("CP-04", f"{pretty(card)} does not go on {pretty(top)}: foundations build up in suit")
    if how == "load":
        if top is None:
            return Fault("CP-13", "the opponent's trash is empty: there is no card to load on")
        return Fault("CP-13", f"{pretty(card)} cannot be loaded on {pretty(top)}: same suit, one rank "
                              "up or down")
    if target == DECKS[1 - seat]:
        return Fault("CP-G6", "cards may be loaded on the opponent's trash, not on his deck")
    return Fault("CP-08", "only the drawn card goes on your own trash")


def foundation_wants(t: Table) -> set[Face]:
    """The faces some foundation takes now (CP-04)."""
    wants: set[Face] = set()
    empty = False
    for name in FOUNDATIONS:
        pile = t.piles[name]
        if not pile:
            empty = True
        elif RANK[pile[-1]] < 13:  # type: ignore[index]
            wants.add(pile[-1] + 1)  # type: ignore[operator]
    if empty:
        wants.update(ACES)
    return wants


def sources(t: Table, seat: int) -> list[str]:
    """The piles whose top card the player to move may play: the drawn card while he
    holds one (CP-14), else every tableau top and his own trash's top (CP-12)."""
    if t.holding:
        return [DRAWN]
    names = [name for name in TABLEAU if t.piles[name]]
    if t.piles[TRASHES[seat]]:
        names.append(TRASHES[seat])
    return names


def compulsory_fault(t: Table, seat: int, ctx: Context) -> Fault | None:
    """CP-G4 (house rule on): a card that can go to a foundation must go there first."""
    if not ctx.stop:
        return None
    wants = foundation_wants(t)
    for name in sources(t, seat):
        card = t.piles[name][-1]
        if card in wants:
            return Fault("CP-G4", f"{pretty(card)} on {name} had to go to a foundation first", revert=False)
    return None


def opening_fault(t: Table) -> Fault | None:
    if t.opening:
        return Fault("CP-G5", "the aces of the deal go to the centre before anything else")
    return None


def _block_rule(t: Table, ctx: Context, seat: int) -> Fault | None:
    """CP-11: no draw (and no turning over) while a space is empty, unless the trash is empty."""
    if t.empty_spaces() and t.piles[TRASHES[seat]]:
        return Fault("CP-11", "drew a card with an empty space on the table: fill it from your trash first",
                     revert=False)
    return None


# -- faults of each action ---------------------------------------------------------------


def check_turn(t: Table, ctx: Context, seat: int) -> None:
    if t.over:
        raise IllegalAction("CP-10", "the game is over")
    if seat != t.turn:
        raise IllegalAction("CP-07", f"it is {ctx.name(t.turn)}'s turn, not {ctx.name(seat)}'s")


def locate(t: Table, card: Face, source: str) -> int:
    """How many cards a move of ``card`` from ``source`` takes: 1 for the top card, more
    for a block. :class:`IllegalAction` when the card is not there."""
    pile = t.piles[source]
    if pile and (pile[-1] == card or (source == DRAWN and pile[-1] is None)):
        return 1
    if KIND[source] == "tableau":
        for depth in range(2, len(pile) + 1):
            if pile[-depth] == card:
                return depth
    top = f"its top card is {pretty(pile[-1])}" if pile else "it is empty"
    raise IllegalAction("CP-05", f"{pretty(card)} is not on {source} ({top})")


def move_fault(t: Table, ctx: Context, move: Move) -> tuple[Fault | None, int]:
    """The rule ``move`` breaks (or ``None``) and how many cards it takes."""
    seat, card, source, target = move.seat, move.card, move.source, move.target
    if source == target:
        raise IllegalAction("CP-05", "a move takes a card from one pile to another")
    if KIND[source] == "deck":
        raise IllegalAction("CP-08", "a card leaves a deck only when it is drawn")
    if target == DRAWN:
        raise IllegalAction("CP-08", "only a draw puts a card in hand")
    if target == DECKS[seat]:
        raise IllegalAction("CP-09", "your deck only grows when you turn your trash over")
    count = locate(t, card, source)
    if t.opening and not (KIND[source] == "tableau" and count == 1 and RANK[card] == 1
                          and KIND[target] == "foundation"):
        return opening_fault(t), count
    if t.holding and source != DRAWN:
        return Fault("CP-14", f"{ctx.name(seat)} drew a card: play it or trash it before any other move"), count
    if KIND[source] == "foundation":
        return Fault("CP-04", "a card never leaves a foundation"), count
    if source == TRASHES[1 - seat]:
        return Fault("CP-12", "only the top card of your own trash may be played"), count
    if count > 1:
        return Fault("CP-05", f"only one card at a time: {count} cards moved together from {source}"), count
    fault = target_fault(t, seat, card, target, ctx.rules)
    if fault is None and KIND[target] != "foundation":
        fault = compulsory_fault(t, seat, ctx)
    return fault, count


def draw_fault(t: Table, ctx: Context, seat: int) -> Fault | None:
    if t.holding:
        raise IllegalAction("CP-14", "play or trash the drawn card before drawing another")
    if not t.piles[DECKS[seat]]:
        raise IllegalAction("CP-09", f"deck{seat} is empty: turn the trash over first")
    return opening_fault(t) or _block_rule(t, ctx, seat) or compulsory_fault(t, seat, ctx)


def flip_fault(t: Table, ctx: Context, seat: int) -> Fault | None:
    if t.holding:
        raise IllegalAction("CP-14", "play or trash the drawn card first")
    if t.piles[DECKS[seat]]:
        raise IllegalAction("CP-09", "the trash is turned over only when the deck is empty")
    if not t.piles[TRASHES[seat]]:
        raise IllegalAction("CP-09", "there is no trash to turn over")
    block = _block_rule(t, ctx, seat)
    if block is not None:
        return Fault("CP-11", "turned the trash over with an empty space on the table: fill it from the "
                              "trash first")
    return opening_fault(t) or compulsory_fault(t, seat, ctx)


def trash_fault(t: Table, ctx: Context, seat: int) -> Fault | None:
    if not t.holding:
        raise IllegalAction("CP-08", "only a drawn card is put on the trash")
    return compulsory_fault(t, seat, ctx)


# -- what each action does ---------------------------------------------------------------


def reveal(t: Table, card: Face, where: str) -> None:
    """A card nobody had seen turns out to be ``card``: CP-01 allows two of each face."""
    if sum(pile.count(card) for pile in t.piles.values()) >= 2:
        raise IllegalAction("CP-01", f"{where}: a third {pretty(card)}, but two packs hold only two")


def _named(t: Table, pile: str, claimed: Face | None, what: str, kind: str) -> Face:
    """The face of the top card of ``pile`` (a deck or the drawn card), checked against
    the face the action names; an unseen card takes the claimed face."""
    top = t.piles[pile][-1]
    if top is None:
        if claimed is None:
            raise ActionFormatError(f"{kind}: nobody has seen {what} yet: name it in field 'card'")
        reveal(t, claimed, what)
        t.piles[pile][-1] = claimed
        return claimed
    if claimed is not None and claimed != top:
        raise IllegalAction("CP-08", f"{what} is {pretty(top)}, not {pretty(claimed)}")
    return top


def end_turn(t: Table) -> Event:
    t.turn = 1 - t.turn
    t.turn_number += 1
    t.moves_this_turn = 0
    return Event("turn", {"seat": t.turn, "turn_number": t.turn_number})


def do_move(t: Table, move: Move, count: int) -> list[Event]:
    source, target = t.piles[move.source], t.piles[move.target]
    if move.source == DRAWN and source[-1] is None:
        reveal(t, move.card, "the drawn card")
    moving = source[-count:]
    moving[0] = move.card
    del source[-count:]
    target.extend(moving)
    t.moves_this_turn += 1
    if KIND[move.target] == "foundation":
        t.idle_flips = [0, 0]
    if t.opening and not any(t.piles[n] and RANK[t.piles[n][-1]] == 1 for n in TABLEAU):  # type: ignore[index]
        t.opening = False
    data = {"seat": move.seat, "card": code(move.card), "from": move.source, "to": move.target}
    if count > 1:
        data["count"] = count
    return [Event("move", data)]


def do_draw(t: Table, draw: Draw) -> list[Event]:
    deck = DECKS[draw.seat]
    card = t.piles[deck][-1]
    if card is not None or draw.card is not None:
        card = _named(t, deck, draw.card, f"the top card of {deck}", "draw")
    t.piles[DRAWN].append(t.piles[deck].pop())
    # A seen card cannot be unseen: undoing the draw would not make the table forget it.
    return [Event("draw", {"seat": draw.seat, "card": code(card), "deck_left": len(t.piles[deck])},
                  undoable=card is None)]


def do_trash(t: Table, trash: Trash) -> list[Event]:
    card = _named(t, DRAWN, trash.card, "the drawn card", "trash")
    t.piles[TRASHES[trash.seat]].append(t.piles[DRAWN].pop())
    return [Event("trash", {"seat": trash.seat, "card": code(card)}), end_turn(t)]


def do_flip(t: Table, ctx: Context, flip: Flip) -> list[Event]:
    seat = flip.seat
    trash = t.piles[TRASHES[seat]]
    deck = trash[::-1]  # the pile turned face down: its first card is now on top
    t.flips[seat] += 1
    t.idle_flips[seat] += 1
    if ctx.rules.shuffle_on_flip:
        if ctx.seed is None:
            deck = [None] * len(deck)  # shuffled at the table: nobody knows the order
        else:
            Shuffler(ctx.seed, 3, seat, t.flips[seat]).shuffle(deck)
    t.piles[DECKS[seat]] = deck
    t.piles[TRASHES[seat]] = []
    events = [Event("flip", {"seat": seat, "cards": len(deck), "flips": t.flips[seat]})]
    cycles = ctx.rules.stalemate_cycles
    if cycles and min(t.idle_flips) >= cycles:
        t.stalemate = True
        events.append(Event("stalemate", {"flips": t.flips[:]}, ruling=Ruling(
            "CP-G8", f"both players turned their trash over {cycles} times with no card played to a "
                     "foundation: the game is drawn", kind="result")))
    elif ctx.rules.flip_ends_turn:
        events.append(end_turn(t))
    return events


def check_win(t: Table, ctx: Context, seat: int) -> list[Event]:
    if t.winner is None and not t.stalemate and t.cards_left(seat) == 0:
        t.winner = seat
        return [Event("win", {"seat": seat}, ruling=Ruling(
            "CP-10", f"{ctx.name(seat)} has no cards left in deck and trash and wins", kind="result", seat=seat))]
    return []


def check_wins(t: Table, ctx: Context, seat: int) -> list[Event]:
    """CP-10 for the player who acted, then for the other one: an opponent's illegal move
    that nobody called Stop! on stands, and may have emptied that player's deck and trash
    (the first player with no cards left wins, whoever's move it was)."""
    return check_win(t, ctx, seat) + check_win(t, ctx, 1 - seat)


# -- the Stop! call ----------------------------------------------------------------------


def do_stop(t: Table, ctx: Context, stop: Stop) -> tuple[Table, list[Event]]:
    """CP-G4: the offender's turn ends at once, an illegal move is taken back, and a
    drawn card goes to the offender's trash. Returns the table after the call."""
    if not ctx.stop:
        raise IllegalAction("CP-G4", "Stop! is not played at this table (house rule compulsory_and_stop is off)")
    off = t.offence
    if off is None:
        raise IllegalAction("CP-G4", "Stop! called, but the last action broke no rule")
    if stop.seat == off.seat:
        raise IllegalAction("CP-G4", "only the opponent of the player who broke a rule can call Stop!")
    offender = off.seat
    if off.revert:
        t = off.before.copy()
        if off.drawn is not None and t.piles[DRAWN] == [None]:
            t.piles[DRAWN] = [off.drawn]
    t.offence = None
    penalty = [f"{ctx.name(offender)}'s turn ends"]
    if off.revert:
        penalty.append("the move is taken back")
    events: list[Event] = []
    if t.turn == offender:
        if t.holding:
            card = _named(t, DRAWN, stop.card, "the offender's drawn card", "stop")
            t.piles[TRASHES[offender]].append(t.piles[DRAWN].pop())
            penalty.append(f"the drawn {pretty(card)} goes on the trash")
        events.append(end_turn(t))
    ruling = Ruling(off.rule_id, f"Stop! {off.message}", kind="penalty", seat=offender, penalty="; ".join(penalty))
    data = {"seat": stop.seat, "offender": offender, "t_ns": stop.t_ns, "reverted": off.revert}
    return t, [Event("stop", data, ruling=ruling), *events, *check_wins(t, ctx, stop.seat)]


# -- one action --------------------------------------------------------------------------


def fault_of(t: Table, ctx: Context, action: CrapoAction) -> tuple[Fault | None, int]:
    """The rule a single action breaks (``None``: legal) and, for a move, how many cards
    it takes. Raises :class:`IllegalAction` for what cannot happen at all."""
    if isinstance(action, Move):
        return move_fault(t, ctx, action)
    if isinstance(action, Draw):
        return draw_fault(t, ctx, action.seat), 0
    if isinstance(action, Trash):
        return trash_fault(t, ctx, action.seat), 0
    if isinstance(action, Flip):
        return flip_fault(t, ctx, action.seat), 0
    raise ActionFormatError(f"not a Crapô action: {action!r}")


def perform(t: Table, ctx: Context, action: CrapoAction, count: int) -> list[Event]:
    """Carry out a single action whose faults were checked; no rule checks here."""
    if isinstance(action, Move):
        return do_move(t, action, count)
    if isinstance(action, Draw):
        return do_draw(t, action)
    if isinstance(action, Trash):
        return do_trash(t, action)
    assert isinstance(action, Flip)
    return do_flip(t, ctx, action)


def play(
    t: Table, ctx: Context, action: CrapoAction, *, allow_offence: bool | None = None
) -> tuple[Table, list[Event]]:
    """Apply ``action`` to ``t`` (which it may change) and return the table after it with
    the events. A broken rule raises :class:`IllegalAction`, unless offences are allowed
    (the Stop house rule, by default): then the action happens, carries a ``violation``
    ruling, and the opponent may call Stop! until the next action."""
    if isinstance(action, Sequence):
        events: list[Event] = []
        for inner in action.actions:
            t, more = play(t, ctx, inner, allow_offence=allow_offence)
            events.extend(more)
        return t, events
    if isinstance(action, Stop):
        return do_stop(t, ctx, action)
    if isinstance(action, Move) and action.source == DRAWN and action.target == TRASHES[action.seat]:
        action = Trash(action.seat, action.card)  # the same thing said two ways (as actions.py reads it)
    check_turn(t, ctx, action.seat)
    fault, count = fault_of(t, ctx, action)
    t.offence = None  # any action closes the Stop! window of the one before
    if fault is None:
        events = perform(t, ctx, action, count)
        return t, events + check_wins(t, ctx, action.seat)
    if not (ctx.stop if allow_offence is None else allow_offence):
        raise IllegalAction(fault.rule_id, fault.message)
    before = t.copy()
    events = perform(t, ctx, action, count)
    drawn = action.card if isinstance(action, Move) and action.source == DRAWN else None
    if t.holding and t.turn == action.seat:
        drawn = t.piles[DRAWN][-1]
    t.offence = Offence(action.seat, fault.rule_id, fault.message, fault.revert, before, drawn)
    ruling = Ruling(fault.rule_id, fault.message, kind="violation", seat=action.seat,
                    penalty="the opponent may call Stop!" if ctx.stop else None)
    events.append(Event("offence", {"seat": action.seat, "rule_id": fault.rule_id}, ruling=ruling))
    return t, events + check_win(t, ctx, action.seat)


# -- every legal action ------------------------------------------------------------------


def legal_actions(t: Table, ctx: Context) -> list[CrapoAction]:
    """Every legal action of the table, the opponent's Stop! call included. Moves through
    empty spaces are single moves like any other (CP-05): a block travels one card at a
    time (see ``inference.plan_block_move``)."""
    calls: list[CrapoAction] = [Stop(1 - t.offence.seat)] if t.offence is not None and ctx.stop else []
    if t.over:
        return calls
    seat = t.turn
    out: list[CrapoAction] = []
    found: list[CrapoAction] = []
    places = [(target, *judged(t, seat, target, ctx.rules)) for target in targets(seat, ctx.rules)]
    for source in sources(t, seat):
        card = t.piles[source][-1]
        if card is None:
            continue  # an unseen drawn card: its moves are known once the camera names it
        if t.opening and not (KIND[source] == "tableau" and RANK[card] == 1):
            continue
        for target, how, top in places:
            if target != source and fits(how, card, top):
                (found if how == "up" else out).append(Move(seat, card, source, target))
    if t.opening or (ctx.stop and found):
        return calls + found  # the dealt aces first (CP-G5); foundation plays are compulsory (CP-G4)
    out.extend(found)
    if t.holding:
        out.append(Trash(seat, t.piles[DRAWN][-1]))
    elif t.piles[DECKS[seat]]:
        if _block_rule(t, ctx, seat) is None:
            out.append(Draw(seat))
    elif t.piles[TRASHES[seat]] and _block_rule(t, ctx, seat) is None:
        out.append(Flip(seat))
    return calls + out


def possible_offences(t: Table, ctx: Context, sources_from: frozenset[str] | None = None) -> list[CrapoAction]:
    """Actions the player to move could physically make that break a rule (a block move,
    a card on the wrong pile, an early draw, a missed compulsory move), taking cards only
    from the piles ``sources_from`` when given (and the drawn card). Move inference uses
    them to name the rule a change breaks."""
    if t.over:
        return []
    seat = t.turn
    out: list[CrapoAction] = []
    places = TABLEAU + FOUNDATIONS + TRASHES + (DECKS[1 - seat],)
    for source in TABLEAU + FOUNDATIONS + TRASHES + (DRAWN,):
        pile = t.piles[source]
        if not pile or (sources_from is not None and source not in sources_from and source != DRAWN):
            continue
        for depth in range(1, (len(pile) if KIND[source] == "tableau" else 1) + 1):
            card = pile[-depth]
            if card is None:
                continue
            out.extend(Move(seat, card, source, target) for target in places
                       if target != source and not (source == DRAWN and target == TRASHES[seat]))
    out.extend([Draw(seat), Flip(seat), Trash(seat)])
    faulty = []
    for action in out:
        try:
            fault, _ = fault_of(t, ctx, action)
        except IllegalAction:
            continue
        if fault is not None:
            faulty.append(action)
    return faulty
