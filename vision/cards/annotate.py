"""The annotated picture: what the reader saw, drawn over the frame (for ``companion vision
watch`` and the web page's camera view)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.cards import BACK
from companion.observation import Observation

SURE = (60, 200, 60)
DOUBTFUL = (0, 165, 255)
UNKNOWN = (0, 0, 230)
FACE_DOWN = (230, 140, 40)


def _colour(code: str | None, confidence: float) -> tuple[int, int, int]:
    if code is None:
        return UNKNOWN
    if code == BACK:
        return FACE_DOWN
    return SURE if confidence >= 0.9 else DOUBTFUL


def annotate(image: np.ndarray, observation: Observation, zones: bool = True) -> np.ndarray:
    """A copy of ``image`` (BGR) with every card's outline and label: its code (``?`` when
    unidentified), confidence in percent and, with ``zones``, its zone. Covered cards are
    outlined thinner."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = max(0.4, out.shape[1] / 1600)
    for card in observation.cards:
        pts = np.round(np.array(card.corners)).astype(np.int32)
        colour = _colour(card.code, card.confidence)
        cv2.polylines(out, [pts], True, colour, 1 if card.covered else 2, cv2.LINE_AA)
        label = f"{card.code or '?'} {round(100 * card.confidence)}%"
        if zones and card.zone:
            label += f" {card.zone}"
        # the label sits at the card's first corner, where its readable index is
        x, y = (int(v) for v in pts[0])
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        x = int(np.clip(x, 0, max(0, out.shape[1] - tw - 2)))
        y = int(np.clip(y, th + 2, out.shape[0] - base - 1))
        cv2.rectangle(out, (x, y - th - 2), (x + tw + 2, y + base), (0, 0, 0), -1)
        cv2.putText(out, label, (x + 1, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
    status = f"calibration {observation.calibration}" + ("" if observation.stable else "  (moving)")
    for problem in observation.camera.problems:
        status += f"  {problem}"
    cv2.putText(out, status, (8, out.shape[0] - 8), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def annotate_jpeg(image: np.ndarray, observation: Observation, quality: int = 80) -> bytes:
    """:func:`annotate` encoded as JPEG bytes (for a web page's <img>)."""
    ok, buf = cv2.imencode(".jpg", annotate(image, observation), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("could not encode the annotated frame as JPEG")
    return buf.tobytes()
