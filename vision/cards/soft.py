"""Reading a camera out of focus.

Focus decides, more than anything else left, whether a small index is read (``vision.focus``):
blurred over a tenth of its rank's height, an index's strokes run together, and the index
net, which learnt mostly from sharp frames, leaves cards unread or reads a club for a spade.
The reader warns that the camera wants focusing; until someone turns the lens it reads such
frames with a second network of the index net's shape, fine-tuned on rendered tables seen
out of focus and on the real photos' development split blurred (``vision.train.train_soft``;
on rendered tables alone it read blurred real photos far worse than the index net), in the
index net's place, candidate by candidate, and its second look at clubs and spades is taken
by a club-or-spade net tuned on such frames too (:mod:`vision.cards.black_suits`). The mat's
markers tell which frames: a photograph without a mat is read by the index net.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from vision.cards.net import IndexNet

WEIGHTS = Path(__file__).resolve().parent / "weights" / "soft_index_net.npz"
WEIGHTS_SHA256 = "47f240ec10a13d9829f9e5481c63fefb26d811774d95ca7b35402b4047d5f7ac"
"""The shipped weights' file, byte for byte: ``python -m vision.train.train_soft --workers 1``
makes it at commit 9b171e2 (``git worktree add DIR 9b171e2``, run in DIR), fine-tuning the
shipped index net (``vision.cards.indices.WEIGHTS``): made twice at once, the same file, in
1050 s each on two cores (numpy 2.4.6, OpenCV 5.0.0)."""

FOCUS_LIMIT = 0.1
"""The camera's blur (sigma, :mod:`vision.focus`) above which the frame is out of focus, as a
share of an index's rank height (rendered still frames: isolated cards 99.9 % right under
it, 78 % over it with the index net; training-like seeds)."""


@cache
def default_soft_net() -> IndexNet:
    """The shipped weights (``vision/cards/weights/soft_index_net.npz``), loaded once."""
    return IndexNet.load(WEIGHTS)


def out_of_focus(blur_px: float, rank_px: float) -> bool:
    """Whether a camera blurring edges over ``blur_px`` (sigma) is out of focus for indices
    whose rank is ``rank_px`` tall."""
    return blur_px > FOCUS_LIMIT * rank_px
