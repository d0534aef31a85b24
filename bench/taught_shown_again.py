"""A Crok shown twice while teaching: how much of a taught card's keypoints the same card
matches when shown again, against the best match among the other Croks
(``vision.taught.teach.SHOWN_AGAIN`` is chosen between the two).

Every Croks of the example catalog is taught from one rendered picture on the battle mat for
two (1280x720, the camera tilted 3 degrees), then shown again four times, moved 10-15 mm and
turned up to 6 degrees, with new noise. Run it under each OpenCV the project supports.

    .venv/bin/python bench/taught_shown_again.py [--zone seat1/battle]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from companion.crok_catalogs import shipped_catalog  # noqa: E402
from vision.mat.battle import battle_layout  # noqa: E402
from vision.render.camera import overhead_camera  # noqa: E402
from vision.render.croks import crok_piece  # noqa: E402
from vision.render.scene import Scene, SceneRenderer  # noqa: E402
from vision.taught.defaults import TEACH_LIGHT  # noqa: E402
from vision.taught.teach import SHOWN_AGAIN, CardTeacher, DeckIndex, TeachItem, build_deck, without  # noqa: E402

POSES = ((15.0, 0.0, 0.0), (0.0, 10.0, 0.0), (-10.0, 5.0, 4.0), (5.0, -8.0, -6.0))
"""Moved (mm, mm) and turned (degrees) from where the card was taught."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zone", default="seat0/battle", help="where on the mat the cards are laid")
    args = parser.parse_args()
    layout = battle_layout(2)
    cards = shipped_catalog("example").to_json()["crok"]
    renderer = SceneRenderer()
    camera = overhead_camera(layout.size_mm, tilt_deg=3.0, pan_deg=-2.0)
    x, y = layout.zone(args.zone).rect.centre
    teacher = CardTeacher(layout)

    def view(card, dx=0.0, dy=0.0, turn=0.0, seed=0):
        piece = crok_piece(card, x + dx, y + dy, face_up=True)
        piece = replace(piece, angle_deg=piece.angle_deg + turn)
        image = renderer.render(Scene(camera, layout=layout, effects=replace(TEACH_LIGHT, noise_seed=seed),
                                      pieces=(piece,))).image
        got = teacher.capture(image)
        return None if isinstance(got, str) else got

    taught = {c["id"]: v for i, c in enumerate(cards) if (v := view(c, seed=100 + i)) is not None}
    deck = build_deck("example", [TeachItem(c["id"], c["id"], c) for c in cards], taught)
    index = DeckIndex(deck)
    same, other = [], []
    for i, card in enumerate(cards):
        if card["id"] not in taught:
            continue
        rest = DeckIndex(without(deck, card["id"]))
        for j, (dx, dy, turn) in enumerate(POSES):
            shown = view(card, dx, dy, turn, seed=500 + 10 * i + j)
            if shown is None:
                continue
            found = index.find(shown.grey, most=1)
            hit = found and deck.ids[found[0].card] == card["id"]
            same.append(found[0].inliers / index.keypoints_per_card[found[0].card] if hit else 0.0)
            found = rest.find(shown.grey, most=1)
            other.append(found[0].inliers / rest.keypoints_per_card[found[0].card] if found else 0.0)
    a, b = np.array(same), np.array(other)
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}; {len(taught)} Croks taught, {len(a)} shown again "
          f"in {args.zone}")
    print(f"the same card: {a.min():.2f}-{a.max():.2f} of its keypoints (median {np.median(a):.2f})")
    print(f"the best other card: {b.min():.2f}-{b.max():.2f} (median {np.median(b):.2f})")
    print(f"at SHOWN_AGAIN = {SHOWN_AGAIN}: {int((a < SHOWN_AGAIN).sum())} shown again not recognised, "
          f"{int((b >= SHOWN_AGAIN).sum())} other cards taken for it")


if __name__ == "__main__":
    main()
