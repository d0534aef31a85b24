"""The annotated picture: what the reader saw, drawn over the frame (for ``companion vision
watch`` and the web page's camera view).

Labels speak as the mat does: seats and cards counted from 1 ("Seat 1 card 4"), the way
"Seat 1" is printed on the mat. Each label is placed where it overlaps no other and lies
wholly inside the picture: next to its card's first corner, or moved down (then up) until
it is clear."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cards import BACK
from companion.observation import CardSighting, Observation
from companion.zones import Zone

SURE = (60, 200, 60)
DOUBTFUL = (0, 165, 255)
UNKNOWN = (0, 0, 230)
FACE_DOWN = (230, 140, 40)
FONT = cv2.FONT_HERSHEY_SIMPLEX
PAD = 2
TRIES = 40
"""How many places a label tries before it settles where it overlaps least."""


def _colour(code: str | None, confidence: float) -> tuple[int, int, int]:
    if code is None:
        return UNKNOWN
    if code == BACK:
        return FACE_DOWN
    return SURE if confidence >= 0.9 else DOUBTFUL


def zone_label(name: str | None) -> str:
    """A zone as the mat prints it: ``seat0/slot3`` -> ``Seat 1 card 4``."""
    place = Zone.read(name)
    if place is None:
        return name or ""
    if place.kind == "slot" and place.seat is not None:
        return f"Seat {place.seat + 1} card {(place.index or 0) + 1}"
    words = place.words()
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class Label:
    lines: tuple[str, ...]
    x: int
    y: int
    """Top-left corner of the label's box, in pixels."""
    w: int
    h: int
    line_h: int
    colour: tuple[int, int, int]

    def overlaps(self, other: Label) -> int:
        """The area this label's box shares with ``other``'s."""
        dx = min(self.x + self.w, other.x + other.w) - max(self.x, other.x)
        dy = min(self.y + self.h, other.y + other.h) - max(self.y, other.y)
        return max(0, dx) * max(0, dy)


def _scale(width: int) -> float:
    return max(0.4, width / 1600)


def layout_labels(observation: Observation, size: tuple[int, int], zones: bool = True) -> list[Label]:
    """Every card's label (its code, ``?`` when unidentified, the confidence in percent and,
    with ``zones``, its zone) placed inside a picture of ``size`` (width, height), clear of
    each other."""
    width, height = size
    scale = _scale(width)
    placed: list[Label] = []
    for card in observation.cards:
        lines = [f"{card.code or '?'} {round(100 * card.confidence)}%"]
        if zones and card.zone:
            lines.append(zone_label(card.zone))
        sizes = [cv2.getTextSize(line, FONT, scale, 1) for line in lines]
        line_h = max(th + base for (_tw, th), base in sizes) + PAD
        w = min(width, max(tw for (tw, _th), _base in sizes) + 2 * PAD)
        h = min(height, line_h * len(lines) + PAD)
        corner = _first_corner(card)
        best: Label | None = None
        for attempt in range(TRIES):
            # The corner first, then further below it, then above it.
            step = (attempt + 1) // 2 * (h + 1) * (1 if attempt % 2 else -1) if attempt else 0
            x = int(np.clip(corner[0], 0, width - w))
            y = int(np.clip(corner[1] - h + step, 0, height - h))
            label = Label(tuple(lines), x, y, w, h, line_h, _colour(card.code, card.confidence))
            clash = sum(label.overlaps(other) for other in placed)
            if best is None or clash < sum(best.overlaps(other) for other in placed):
                best = label
            if clash == 0:
                break
        assert best is not None
        placed.append(best)
    return placed


def _first_corner(card: CardSighting) -> tuple[int, int]:
    """Where the card's readable index is: its outline's first corner."""
    x, y = card.corners[0]
    return int(round(x)), int(round(y))


def annotate(image: np.ndarray, observation: Observation, zones: bool = True) -> np.ndarray:
    """A copy of ``image`` (BGR) with every card's outline and label (:func:`layout_labels`).
    Covered cards are outlined thinner."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = _scale(out.shape[1])
    for card in observation.cards:
        pts = np.round(np.array(card.corners)).astype(np.int32)
        cv2.polylines(out, [pts], True, _colour(card.code, card.confidence), 1 if card.covered else 2, cv2.LINE_AA)
    for label in layout_labels(observation, (out.shape[1], out.shape[0]), zones):
        cv2.rectangle(out, (label.x, label.y), (label.x + label.w - 1, label.y + label.h - 1), (0, 0, 0), -1)
        for row, line in enumerate(label.lines):
            baseline = label.y + (row + 1) * label.line_h - PAD
            cv2.putText(out, line, (label.x + PAD, baseline), FONT, scale, label.colour, 1, cv2.LINE_AA)
    status = f"calibration {observation.calibration}" + ("" if observation.stable else "  (moving)")
    for problem in observation.camera.problems:
        status += f"  {problem}"
    (tw, _th), base = cv2.getTextSize(status, FONT, scale, 1)
    fit = scale * min(1.0, (out.shape[1] - 16) / max(1, tw))  # a long status shrinks, never runs off
    cv2.putText(out, status, (8, out.shape[0] - 8 - base), FONT, fit, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def annotate_jpeg(image: np.ndarray, observation: Observation, quality: int = 80) -> bytes:
    """:func:`annotate` encoded as JPEG bytes (for a web page's <img>)."""
    ok, buf = cv2.imencode(".jpg", annotate(image, observation), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("could not encode the annotated frame as JPEG")
    return buf.tobytes()
