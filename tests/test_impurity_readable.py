"""The chapter-1 reading versions compute what the production measures compute."""

import numpy as np
import pytest

from treebook.core import impurity as prod
from treebook.teaching import impurity_readable as readable


@pytest.mark.parametrize("seed", range(5))
def test_class_counts_and_table_match_production(seed):
    rng = np.random.default_rng(seed)
    x = rng.choice(["a", "b", "c"], size=40)
    y = rng.choice(["no", "yes", "maybe"], size=40)
    w = rng.random(40)
    for weights in (None, w):
        c1, n1 = readable.class_counts(y, sample_weight=weights)
        c2, n2 = prod.class_counts(y, sample_weight=weights)
        assert c1.tolist() == c2.tolist() and np.allclose(n1, n2)
        v1, k1, t1 = readable.contingency_table(x, y, sample_weight=weights)
        v2, k2, t2 = prod.contingency_table(x, y, sample_weight=weights)
        assert v1.tolist() == v2.tolist() and k1.tolist() == k2.tolist()
        assert np.allclose(t1, t2)


def test_counts_by_hand():
    classes, counts = readable.class_counts(["b", "a", "b", "b"])
    assert classes.tolist() == ["a", "b"] and counts.tolist() == [1, 3]
    _, _, table = readable.contingency_table(["x", "y", "x"], [1, 1, 0], [2.0, 1.0, 0.5])
    assert table.tolist() == [[0.5, 2.0], [0.0, 1.0]]


def test_variance_matches_production_and_numpy():
    rng = np.random.default_rng(0)
    y, w = rng.normal(size=30), rng.random(30)
    assert np.isclose(readable.variance(y), np.var(y))
    assert np.isclose(readable.variance(y, w), prod.variance(y, w))
    # two passes keep a far-from-zero sample exact, where one pass loses it
    far = 1e8 + np.array([1.0, 2.0, 3.0, 4.0])
    assert readable.variance(far) == 1.25
