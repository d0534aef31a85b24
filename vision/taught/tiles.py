"""Which taught tile face an upright crop shows.

Every taught view is compared in its four quarter turns (a tile may lie any way round)
by :func:`vision.taught.features.tile_vectors`: the light-normalised pattern (the
swimmer, the crocodile, its number) and the colour grid. The nearest face wins when it
is near enough; otherwise the crop is no taught face (a hand, a card, a coin), which
the reader reports as not seen rather than guessing.

The confidence compares the winner with the nearest face that *means* something else:
the six red swimmers may look alike and still be one reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.taught.features import rotations, squared_distances, tile_vectors
from vision.taught.store import TileSet

MAX_DISTANCE = 1.5
"""Squared distance beyond which a crop is no taught face. About 0.05-0.3 separates
two views of one face under different light and blur, and over 1 two faces."""
MIN_SEPARATION = 1.0
"""Two faces that mean different things must be at least this far apart (see
:meth:`TileMatcher.separations`) to be told apart reliably."""
NUMBER_SCALE = 0.05
"""1 - correlation of two numbers at which two faces of one kind count as plainly different."""


@dataclass(frozen=True)
class TileGuess:
    label: str | None
    """The taught face (``red/crocodile/4``), or None: no taught face is near enough."""
    face: Mapping[str, Any] | None
    """What it means in the engine's observation format."""
    distance: float
    """Squared distance to the nearest view of that face."""
    confidence: float
    """0..1: how clearly it beats the nearest face that means something else."""
    turns: int = 0
    """Quarter turns (counter-clockwise) of the view that matched."""
    crop: int = 0
    """Which crop of the batch the guess was made from."""


def meaning_key(face: Mapping[str, Any]) -> tuple[Any, ...]:
    return (face.get("side"), face.get("colour"), face.get("number"))


def kind_key(face: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a face is without its number: a crocodile of a colour, a swimmer of a colour."""
    return (face.get("side"), face.get("colour"))


class _Kind:
    """The faces of one kind that mean different things (the six crocodiles of a colour):
    their views turned to one common orientation and registered, the box in which they
    differ (where the number is printed), and each view's picture in that box. The
    second look finds each of those pictures in the query by template matching, so a
    crop a pixel or two off still reads."""

    SEARCH = 4
    """Pixels the number may be off in the query, every way."""

    def __init__(self, views: list[int], turns: list[int], crops: np.ndarray, meaning: np.ndarray) -> None:
        self.views = np.array(views)
        self.meaning = meaning[self.views]
        greys = [_grey(np.rot90(crops[v], t)) for v, t in zip(views, turns, strict=True)]
        registered = [greys[0]] + [_register(g, greys[0]) for g in greys[1:]]
        means = np.stack([np.mean([g for g, m in zip(registered, self.meaning, strict=True) if m == k], axis=0)
                          for k in np.unique(self.meaning)])
        spread = cv2.GaussianBlur(means.var(axis=0), (0, 0), 2.0)
        # The tile's very edge differs most from view to view (where the outline was cut),
        # whatever is printed there: the number is looked for inside it.
        n = spread.shape[0]
        edge = max(2, n // 10)
        spread[:edge], spread[-edge:], spread[:, :edge], spread[:, -edge:] = 0, 0, 0, 0
        # The one area where they differ most (the number), not every smaller difference.
        _, labels = cv2.connectedComponents((spread >= 0.5 * spread.max()).astype(np.uint8))
        peak = np.unravel_index(int(np.argmax(spread)), spread.shape)
        ys, xs = np.nonzero(labels == labels[peak])
        pad = 2
        x0, x1 = max(self.SEARCH, xs.min() - pad), min(n - self.SEARCH, xs.max() + 1 + pad)
        y0, y1 = max(self.SEARCH, ys.min() - pad), min(n - self.SEARCH, ys.max() + 1 + pad)
        self.box = (int(x0), int(y0), int(x1), int(y1))
        self.templates = [np.ascontiguousarray(g[y0:y1, x0:x1]) for g in registered]

    def window(self, grey: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self.box
        s = self.SEARCH
        return np.ascontiguousarray(grey[y0 - s : y1 + s, x0 - s : x1 + s])

    def scores(self, grey: np.ndarray) -> np.ndarray:
        """(V,) best normalised correlation of each view's number within the query's window."""
        window = self.window(grey)
        return np.array([float(cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED).max()) for t in self.templates])


def _grey(crop: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_BGR2GRAY).astype(np.float32)
    return cv2.GaussianBlur(grey, (5, 5), 0.8)


def _register(grey: np.ndarray, anchor: np.ndarray, reach: int = 4) -> np.ndarray:
    """``grey`` moved by the whole pixels that best lay it over ``anchor``."""
    n = grey.shape[0]
    centre = np.ascontiguousarray(grey[reach : n - reach, reach : n - reach])
    score = cv2.matchTemplate(anchor, centre, cv2.TM_CCOEFF_NORMED)
    _, _, _, (dx, dy) = cv2.minMaxLoc(score)
    shift = np.array([[1, 0, dx - reach], [0, 1, dy - reach]], np.float32)
    return cv2.warpAffine(grey, shift, (n, n), borderMode=cv2.BORDER_REPLICATE)


class TileMatcher:
    """Nearest-face classification against a :class:`TileSet`: a first look at the whole
    tile (pattern and colour) finds the kind of face and how it lies, a second, finer look
    weighing where the faces of that kind differ picks among them (the number)."""

    def __init__(self, tiles: TileSet, max_distance: float = MAX_DISTANCE) -> None:
        self.tiles = tiles
        self.max_distance = max_distance
        self._refs = tile_vectors(rotations(tiles.crops))
        self._ref_face = np.repeat(tiles.view_face, 4)
        self._ref_turns = np.tile(np.arange(4), len(tiles.crops))
        keys = [meaning_key(f) for f in tiles.faces]
        self._meaning = np.array([keys.index(k) for k in keys])
        self._view_meaning = self._meaning[tiles.view_face]
        kinds = [kind_key(f) for f in tiles.faces]
        self._kind_of_face = np.array([kinds.index(k) for k in kinds])
        self._kinds: dict[int, _Kind] = {}
        self._alignment = np.zeros(len(tiles.crops), int)
        for kind in set(self._kind_of_face.tolist()):
            views = np.flatnonzero(self._kind_of_face[tiles.view_face] == kind)
            if len(set(self._view_meaning[views].tolist())) < 2:
                continue
            turns = [self._turn_to(int(views[0]), int(v)) for v in views]
            self._alignment[views] = turns
            self._kinds[kind] = _Kind(views.tolist(), turns, tiles.crops, self._view_meaning)

    def _turn_to(self, anchor: int, view: int) -> int:
        """Quarter turns that bring ``view`` closest to ``anchor`` as it lies."""
        d = squared_distances(self._refs[anchor * 4 : anchor * 4 + 1], self._refs[view * 4 : view * 4 + 4])[0]
        return int(np.argmin(d))

    def classify(self, crops: np.ndarray, groups: Sequence[int] | None = None) -> list[TileGuess]:
        """One guess per upright crop (M, S, S, 3) uint8; with ``groups`` (one id per crop:
        several outlines tried for one thing), one guess per group, in order of first
        appearance, from the crop the first look likes best."""
        if len(crops) == 0:
            return []
        d = squared_distances(tile_vectors(crops), self._refs)
        if groups is None:
            return [replace(self._guess(row, crop), crop=k) for k, (row, crop) in enumerate(zip(d, crops, strict=True))]
        nearest = d.min(axis=1)
        best: dict[int, int] = {}
        for k, g in enumerate(groups):
            if g not in best or nearest[k] < nearest[best[g]]:
                best[g] = k
        return [replace(self._guess(d[k], crops[k]), crop=k) for k in best.values()]

    def _guess(self, row: np.ndarray, crop: np.ndarray) -> TileGuess:
        best = int(np.argmin(row))
        face = int(self._ref_face[best])
        dist = float(row[best])
        if dist > self.max_distance:
            return TileGuess(None, None, dist, 0.0)
        nearness = 1.0 - min(1.0, dist / self.max_distance)
        kind = self._kinds.get(int(self._kind_of_face[face]))
        if kind is not None:
            face, margin = self._second_look(kind, best, crop)
        else:
            other = self._meaning[self._ref_face] != self._meaning[face]
            rival = float(row[other].min()) if other.any() else float("inf")
            margin = (rival - dist) / max(rival, 1e-6)
        confidence = float(np.clip(min(2 * margin, 1.0) * (0.5 + 0.5 * nearness), 0.0, 1.0))
        return TileGuess(self.tiles.labels[face], self.tiles.faces[face], dist, confidence,
                         int(self._ref_turns[best]))

    def _second_look(self, kind: _Kind, best: int, crop: np.ndarray) -> tuple[int, float]:
        """The face of ``kind`` the crop shows, and the margin over the runner-up meaning."""
        view, turn = divmod(best, 4)
        scores = kind.scores(_grey(np.rot90(crop, self._alignment[view] - turn)))
        winner = int(np.argmax(scores))
        rivals = scores[kind.meaning != kind.meaning[winner]]
        rival = float(rivals.max()) if len(rivals) else -1.0
        # Margin: how much of the winner's lead over a rival remains, on the 1 - correlation scale.
        margin = (float(scores[winner]) - rival) / max(1.0 - rival, 1e-6)
        return int(self.tiles.view_face[kind.views[winner]]), margin

    def separations(self) -> list[tuple[str, str, float]]:
        """For every face, the nearest face meaning something else and how far apart they
        are (in units of what tells them apart: 1 is plenty, below MIN_SEPARATION is too
        close), nearest pairs first: the teach step's check that each face can be told apart."""
        d = squared_distances(self._refs, self._refs)
        out = []
        for i, label in enumerate(self.tiles.labels):
            mine_views = np.flatnonzero(self.tiles.view_face == i)
            if not len(mine_views):
                continue
            best: tuple[float, int] | None = None
            for j in range(len(self.tiles.labels)):
                if self._meaning[j] == self._meaning[i]:
                    continue
                theirs = np.flatnonzero(self.tiles.view_face == j)
                if not len(theirs):
                    continue
                gap = self._gap(i, j, mine_views, theirs, d)
                if best is None or gap < best[0]:
                    best = (gap, j)
            if best is not None:
                out.append((label, self.tiles.labels[best[1]], best[0]))
        return sorted(out, key=lambda t: t[2])

    def _gap(self, i: int, j: int, mine: np.ndarray, theirs: np.ndarray, d: np.ndarray) -> float:
        kind = self._kinds.get(int(self._kind_of_face[i]))
        if kind is not None and self._kind_of_face[j] == self._kind_of_face[i]:
            a = np.flatnonzero(np.isin(kind.views, mine))
            b = np.flatnonzero(np.isin(kind.views, theirs))
            x0, y0, x1, y1 = kind.box
            best = -1.0
            for va in a:
                # Each number looked for in the other face's picture, as a query's would be.
                window = cv2.copyMakeBorder(kind.templates[va], kind.SEARCH, kind.SEARCH, kind.SEARCH, kind.SEARCH,
                                            cv2.BORDER_REPLICATE)
                for vb in b:
                    best = max(best, float(cv2.matchTemplate(window, kind.templates[vb], cv2.TM_CCOEFF_NORMED).max()))
            return (1.0 - best) / NUMBER_SCALE
        rows = (mine[:, None] * 4 + np.arange(4)).ravel()
        cols = (theirs[:, None] * 4 + np.arange(4)).ravel()
        return float(d[np.ix_(rows, cols)].min() / self.max_distance)
