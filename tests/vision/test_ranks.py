"""vision.ranks: percentiles and medians from a histogram are numpy's, to the last bit."""

import numpy as np
import pytest

from vision.ranks import counts_of, median, percentile


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("q", [0.0, 1.0, 37.3, 50.0, 98.0, 99.5, 100.0])
def test_percentile_is_numpys_for_grey_levels_and_edge_strengths(seed, q):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 5000))
    grey = rng.integers(0, 256, n).astype(np.uint8)
    edges = np.abs(rng.normal(0, 300, n)).astype(np.int16)
    assert percentile(np.bincount(grey), q) == float(np.percentile(grey, q))
    assert percentile(np.bincount(edges), q) == float(np.percentile(edges, q))


@pytest.mark.parametrize("n", [1, 2, 3, 10, 11, 4096])
def test_median_is_numpys_for_odd_and_even_counts(n):
    values = np.random.default_rng(n).integers(0, 256, n).astype(np.uint8)
    assert median(np.bincount(values)) == float(np.median(values))
    # a median between two values (an even count) is their mean, not either
    assert median(np.bincount(np.array([3, 8]))) == 5.5


def test_counts_under_a_mask_count_the_masked_pixels_only():
    rng = np.random.default_rng(1)
    plane = rng.integers(0, 256, (40, 60)).astype(np.uint8)
    mask = (rng.random((40, 60)) > 0.7).astype(np.uint8) * 255
    counts = counts_of(plane, mask)
    assert counts.sum() == np.count_nonzero(mask)
    assert median(counts) == float(np.median(plane[mask > 0]))
    assert percentile(counts, 99.5) == float(np.percentile(plane[mask > 0], 99.5))


def test_no_values_is_a_clear_error():
    with pytest.raises(ValueError, match="no values"):
        percentile(np.zeros(256), 50)
    with pytest.raises(ValueError, match="no values"):
        median(np.zeros(256))
