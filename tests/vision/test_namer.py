"""The learned index namer: its split of the real photos, how a corner label is matched, its
training run, and the shipped model."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.cards.detect import FoundCard
from vision.cards.indices import IndexReading
from vision.train.cardcounterml import SPLIT_FILE, cardcounterml_dir, make_split, match_corner

HAVE_CCML = cardcounterml_dir().is_dir()
HAVE_TORCH = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("onnx") is not None
HAVE_DECKS = shutil.which("rsvg-convert") is not None and Path("/usr/share/aisleriot/cards").is_dir()
REPO = Path(__file__).resolve().parents[2]


def _card(code: str, x0: float, y0: float, index_at: list[tuple[float, float]]) -> FoundCard:
    corners = np.array([[x0, y0], [x0 + 63, y0], [x0 + 63, y0 + 88], [x0, y0 + 88]], float)
    indices = [IndexReading(code, 0.9, 0.9, np.array(c, float), np.array([0.0, 1.0]), 7.0) for c in index_at]
    return FoundCard(code, 0.9, corners, indices)


def test_a_corner_label_matches_the_card_whose_index_lies_in_it_whatever_its_code():
    cards = [_card("5s", 0, 0, [(6, 11)]), _card("3s", 100, 0, [(106, 11)])]
    assert match_corner((100, 2, 112, 20), cards) == 1
    assert match_corner((0, 2, 12, 20), cards) == 0


def test_a_corner_label_on_a_card_read_from_its_other_index_matches_it():
    card = _card("7h", 0, 0, [(6, 11)])  # the bottom-right index was not read
    assert match_corner((51, 68, 62, 86), [card]) == 0


def test_a_corner_label_far_from_every_card_matches_none():
    card = _card("7h", 0, 0, [(6, 11)])
    assert match_corner((300, 300, 310, 320), [card]) is None
    assert match_corner((25, 35, 37, 50), [card]) is None  # inside the card, far from its corners


def test_the_split_is_written_down_and_holds_out_about_a_third_of_every_session():
    split = json.loads(SPLIT_FILE.read_text())
    assert "how" in split
    for session, part in split["sessions"].items():
        dev, held = set(part["dev"]), set(part["held_out"])
        assert not dev & held, session
        assert 0.2 < len(held) / (len(dev) + len(held)) < 0.4, session


@pytest.mark.realcards
@pytest.mark.skipif(not HAVE_CCML, reason=f"cardcounterml photos not found at {cardcounterml_dir()}")
def test_the_split_file_is_the_one_the_photos_give():
    assert make_split(cardcounterml_dir()) == json.loads(SPLIT_FILE.read_text())


@pytest.mark.slow
@pytest.mark.skipif(not (HAVE_TORCH and HAVE_DECKS), reason="needs the [train] extra and Debian's deck designs")
def test_a_tiny_training_run_exports_a_model_opencv_reads_and_a_checkpoint(tmp_path: Path):
    from vision.cards.namer import IndexNamer

    out = tmp_path / "namer.onnx"
    subprocess.run([sys.executable, "-m", "vision.train.train_namer", "--tiny", "--workers", "1", "--threads", "1",
                    "--out", str(out)], check=True, cwd=REPO, capture_output=True, timeout=300)
    ranks, suits = IndexNamer.load(out).probabilities(np.zeros((3, 40, 32, 2), np.float32))
    assert ranks.shape == (3, 13) and suits.shape == (3, 4)
    assert np.allclose(ranks.sum(1), 1, atol=1e-4) and np.allclose(suits.sum(1), 1, atol=1e-4)
    # the torch checkpoint beside it, for a later run to fine-tune from (--init)
    import torch

    from vision.train.train_namer import make_model

    checkpoint = torch.load(out.with_suffix(".pt"), weights_only=True)
    make_model().load_state_dict(checkpoint["model"])
    assert checkpoint["t_rank"] > 0 and checkpoint["t_suit"] > 0


def test_the_shipped_namer_is_the_recorded_file():
    from vision.cards.namer import WEIGHTS, WEIGHTS_SHA256

    if not WEIGHTS.exists():
        pytest.skip("no learned namer shipped")
    assert hashlib.sha256(WEIGHTS.read_bytes()).hexdigest() == WEIGHTS_SHA256


@pytest.mark.realcards
@pytest.mark.skipif(not HAVE_CCML, reason=f"cardcounterml photos not found at {cardcounterml_dir()}")
def test_real_threes_of_a_deck_never_built_on_are_read_as_threes_not_fives():
    """The shipped reader read every real 3 of the white deck as a 5 at 0.99 before the learned
    namer. Its dev photos of threes (the namer's calibration part: never trained on)."""
    import cv2

    from vision.cards.namer import default_namer
    from vision.reader import CardReader
    from vision.train.cardcounterml import photos

    sys.path.insert(0, str(REPO / "bench"))
    from vision_realcards import Tally, found_cards, score_cardcounterml

    assert default_namer() is not None, "the learned namer is shipped"
    dev = [p for p in photos() if p.session == "IMG_2022" and not p.held_out]
    calibration = dev[4::5]  # as vision.train.train_namer keeps them apart
    threes = [p for p in calibration if any(code[0] == "3" for code in p.faces)]
    assert len(threes) >= 4
    reader, tally = CardReader(), Tally()
    for photo in threes:
        tally.add(score_cardcounterml(photo, found_cards(reader, cv2.imread(str(photo.path)))))
    assert tally.per_rank_right["3"] >= tally.per_rank["3"] - 1
    assert not any(wrong[0] == "5" for (right, wrong), _ in tally.confusions.items() if right[0] == "3")
