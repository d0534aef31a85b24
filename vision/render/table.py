"""Render a game's table state on its mat: "these cards in these zones, a hand here".

The demo scripts a game this way::

    state = TableState(
        zones={"seat0": [down("7h"), down("Kd"), down("2c"), down("As")],
               "draw": [down()] * 30, "discard": ["9s", "Qh"]},
        hands=[HandOver("discard", seat=1)],
    )
    frame = render(table_scene(layout, state, seed=7)).image

A string in a zone is a face-up card (``"Qh"``) or ``"BACK"`` (face down, unknown); use
:func:`down` for a face-down card whose identity the truth should carry, and
``TableCard(..., flip=0.3)`` for a card being turned over. Cards sit in a zone bottom
to top; a seat's cards go to its slots in order; a tableau column fans toward its
player. The jitter of every card comes from ``seed`` and the card's place, so an
unchanged table renders identically frame after frame.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from companion.cards import BACK, is_card_code
from vision.mat.layout import MatLayout, Zone
from vision.render.camera import Camera, overhead_camera
from vision.render.effects import CLEAN, Effects
from vision.render.faces import CardStyle, index_box_mm
from vision.render.hands import SKIN_TONES, HandPlacement
from vision.render.scene import CardPlacement, Scene

PILE_DRAWN = 6
"""Only the top cards of a pile are drawn: the rest cannot be seen."""
FAN_STEP_MM = 18.0
"""How far each card of a tableau column lies below the previous one, when the column
has room; it is never less than the deck's index needs to show, so a long column runs
past the end of its zone, as it does on a real table."""


class TableStateError(ValueError):
    """A table state that does not fit its mat (unknown zone, too many cards for a seat)."""


@dataclass(frozen=True)
class TableCard:
    code: str = BACK
    face_up: bool = True
    flip: float = 0.0
    lift_mm: float = 0.0
    variant: int = 0


def up(code: str, **kw: float) -> TableCard:
    """A face-up card."""
    return TableCard(code, True, **kw)  # type: ignore[arg-type]


def down(code: str = BACK, **kw: float) -> TableCard:
    """A face-down card; ``code`` is what it really is (for the truth), ``BACK`` if unknown."""
    return TableCard(code, False, **kw)  # type: ignore[arg-type]


@dataclass(frozen=True)
class HandOver:
    """A hand over ``zone``, reaching in from ``seat`` (or from the nearest edge)."""

    zone: str
    seat: int | None = None
    lift_mm: float = 60.0
    offset_mm: tuple[float, float] = (0.0, 0.0)
    skin: tuple[int, int, int] = SKIN_TONES[0]


@dataclass(frozen=True)
class TableState:
    zones: Mapping[str, Sequence[TableCard | str]] = field(default_factory=dict)
    hands: Sequence[HandOver | HandPlacement] = ()
    loose: Sequence[CardPlacement] = ()
    """Cards anywhere on or over the table (one being carried), drawn above the zones."""


def _as_card(item: TableCard | str, where: str) -> TableCard:
    if isinstance(item, TableCard):
        card = item
    elif isinstance(item, str):
        card = TableCard(item, item != BACK)
    else:
        raise TableStateError(f"{where}: expected a card code or TableCard, got {item!r}")
    if card.code is None or not is_card_code(card.code):
        raise TableStateError(f"{where}: unknown card code {card.code!r}")
    return card


def _rng(seed: int, zone: str, i: int) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(zone.encode()), i])


def toward_player(facing: int) -> np.ndarray:
    """Unit vector on the mat from a zone toward the player it faces."""
    a = np.radians(facing)
    return np.array([-np.sin(a), np.cos(a)])


def _placement(card: TableCard, x: float, y: float, angle: float, zone: str) -> CardPlacement:
    return CardPlacement(card.code, float(x), float(y), float(angle), card.face_up, card.flip, card.lift_mm,
                         variant=card.variant, zone=zone)


def _pile(zone: Zone, cards: Sequence[TableCard], seed: int, name: str) -> list[CardPlacement]:
    cx, cy = zone.rect.centre
    out = []
    first = max(0, len(cards) - PILE_DRAWN)
    for i in range(first, len(cards)):
        r = _rng(seed, name, i)
        dx, dy = r.normal(0, 1.2, 2)
        out.append(_placement(cards[i], cx + dx, cy + dy, zone.facing + r.normal(0, 2.0), name))
    return out


def min_fan_step(deck: CardStyle) -> float:
    """The least overlap step (mm) at which a covered card's top-left index still shows."""
    _, y, _, h = index_box_mm(deck)
    return y + h + 1.5


def _fan(zone: Zone, cards: Sequence[TableCard], seed: int, deck: CardStyle) -> list[CardPlacement]:
    card_h = deck.card_mm[1]
    d = toward_player(zone.facing)
    extent = abs(d[0]) * zone.rect.w + abs(d[1]) * zone.rect.h
    inner = np.array(zone.rect.centre) - d * extent / 2
    span = extent - card_h - 4.0
    step = FAN_STEP_MM if len(cards) < 2 else min(FAN_STEP_MM, span / (len(cards) - 1))
    step = max(step, min_fan_step(deck))
    out = []
    for i, card in enumerate(cards):
        r = _rng(seed, zone.name, i)
        x, y = inner + d * (card_h / 2 + 2.0 + i * step) + r.normal(0, 0.8, 2)
        out.append(_placement(card, x, y, zone.facing + r.normal(0, 1.5), zone.name))
    return out


def _seat(layout: MatLayout, zone: Zone, cards: Sequence[TableCard], seed: int) -> list[CardPlacement]:
    slots = [z for z in layout.zones if z.name.startswith(zone.name + "/") and z.kind == "slot"]
    if len(cards) > len(slots):
        raise TableStateError(f"{zone.name}: {len(cards)} cards for {len(slots)} slots")
    out = []
    for card, slot in zip(cards, slots, strict=False):
        out.extend(_pile(slot, [card], seed, slot.name))
    return out


def hand_over(layout: MatLayout, h: HandOver) -> HandPlacement:
    """Where a hand reaching over ``h.zone`` is (see :class:`HandOver`)."""
    try:
        target = np.array(layout.zone(h.zone).rect.centre) + np.array(h.offset_mm)
    except KeyError as exc:
        raise TableStateError(f"hand over {h.zone!r}: {exc.args[0]}") from None
    if h.seat is not None:
        try:
            seat = layout.zone(f"seat{h.seat}")
        except KeyError as exc:
            raise TableStateError(f"hand from seat {h.seat}: {exc.args[0]}") from None
        origin = np.array(seat.rect.centre) + toward_player(seat.facing) * 400.0
    else:
        w, hgt = layout.size_mm
        x, y = target
        edges = {(x, -400.0): y, (x, hgt + 400.0): hgt - y, (-400.0, y): x, (w + 400.0, y): w - x}
        origin = np.array(min(edges, key=lambda k: edges[k]))
    v = target - origin
    v /= np.linalg.norm(v) or 1.0
    toward = float(np.degrees(np.arctan2(v[0], -v[1])))
    # The fingers, not the palm, are over the target.
    palm = target - v * 55.0
    return HandPlacement(float(palm[0]), float(palm[1]), toward, h.lift_mm, skin=h.skin)


def table_cards(layout: MatLayout, state: TableState, seed: int = 0,
                deck: CardStyle | None = None) -> list[CardPlacement]:
    """The placements of every card of ``state``, bottom to top, for cards of ``deck``."""
    deck = deck or CardStyle()
    placements: list[CardPlacement] = []
    for name, items in state.zones.items():
        try:
            zone = layout.zone(name)
        except KeyError as exc:
            raise TableStateError(f"table state: {exc.args[0]}") from None
        cards = [_as_card(c, f"table state zone {name!r} card {i}") for i, c in enumerate(items)]
        if zone.kind == "seat":
            placements.extend(_seat(layout, zone, cards, seed))
        elif zone.kind == "tableau":
            placements.extend(_fan(zone, cards, seed, deck))
        else:
            placements.extend(_pile(zone, cards, seed, name))
    # Cards in the air go above everything flat.
    placements.sort(key=lambda p: p.lift_mm > 0 or 0 < p.flip < 1)
    placements.extend(state.loose)
    return placements


def table_scene(
    layout: MatLayout,
    state: TableState,
    camera: Camera | None = None,
    seed: int = 0,
    deck: CardStyle | None = None,
    effects: Effects = CLEAN,
    mat_style: str = "felt",
    size: tuple[int, int] = (1280, 720),
) -> Scene:
    """The scene of ``state`` on ``layout``; by default seen straight from above."""
    cam = camera or overhead_camera(layout.size_mm, size)
    deck = deck or CardStyle()
    hands = tuple(h if isinstance(h, HandPlacement) else hand_over(layout, h) for h in state.hands)
    return Scene(
        camera=cam,
        cards=tuple(table_cards(layout, state, seed, deck)),
        hands=hands,
        layout=layout,
        deck=deck,
        mat_style=mat_style,
        effects=effects,
    )
