"""The classical contour + template reader (the comparison baseline)."""

from __future__ import annotations

import numpy as np

from vision.cards.classical import ClassicalReader, isolate, templates_from_faces
from vision.render.camera import overhead_camera
from vision.render.faces import CardStyle, face_image
from vision.render.scene import CardPlacement, Scene, render


def _templates():
    deck = CardStyle()
    faces = {f"{r}s": face_image(f"{r}s", deck) for r in "A23456789TJQK"}
    faces.update({f"A{s}": face_image(f"A{s}", deck) for s in "hdc"})
    return templates_from_faces(faces)


def test_templates_cover_every_rank_and_suit():
    t = _templates()
    assert sorted(t.ranks) == sorted("A23456789TJQK")
    assert sorted(t.suits) == sorted("shdc")


def test_isolate_finds_rank_and_suit_blobs():
    import cv2

    gray = cv2.cvtColor(face_image("7h", CardStyle())[..., :3], cv2.COLOR_BGR2GRAY)
    rank, suit = isolate(cv2.resize(gray, (200, 300), interpolation=cv2.INTER_AREA))
    assert rank is not None and suit is not None
    assert rank.shape == (125, 70) and suit.shape == (100, 70)


def test_separate_upright_cards_on_dark_cloth_are_read():
    cards = (CardPlacement("7h", 60, 70, 0), CardPlacement("Ks", 150, 70, 90), CardPlacement("2d", 240, 70, 180))
    scene = Scene(camera=overhead_camera((300.0, 140.0), (1280, 600)), cards=cards, mat_size_mm=(300.0, 140.0))
    image = render(scene).image
    card_px = 88 * scene.camera.px_per_mm(150, 70)
    area = card_px * card_px * 63 / 88
    reader = ClassicalReader(_templates(), min_area=0.6 * area, max_area=1.6 * area)
    found = reader.read(image)
    assert len(found) == 3
    assert sorted(c.code or "?" for c in found) == ["2d", "7h", "Ks"]


def test_overlapping_cards_are_beyond_it():
    cards = (CardPlacement("7h", 100, 70, 0), CardPlacement("Ks", 118, 85, 0))
    scene = Scene(camera=overhead_camera((300.0, 160.0), (1280, 680)), cards=cards, mat_size_mm=(300.0, 160.0))
    card_px = 88 * scene.camera.px_per_mm(150, 80)
    area = card_px * card_px * 63 / 88
    found = ClassicalReader(_templates(), min_area=0.6 * area, max_area=1.6 * area).read(render(scene).image)
    assert len(found) < 2
    assert np.isfinite(area)
