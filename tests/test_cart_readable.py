"""The one-page CART of chapter 4 (treebook.teaching.cart_readable) against the package's CART.

The readable recursion and the production growers share the sorted scan's tables
(``threshold_tables``) but nothing else: the readable one scores cuts by
``|D| Gini(D, A)`` from :func:`treebook.gini_index` and recurses; the estimators score
by the split-score proxies and grow level by level. Where no two candidate splits tie,
both must give the same tree: the same feature and threshold at every internal node and
the same counts (or means) at every node, in pre-order.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_classification, make_regression

from treebook import CARTClassifier, CARTRegressor
from treebook.teaching.cart_readable import naive_best_threshold
from treebook.teaching.cart_readable import best_cut, grow_binary, predict_binary


def preorder(node):
    """(feature, threshold, n) of every node of a nested-dict tree, in pre-order."""
    out = [(node.get("feature", -1), node.get("threshold", np.nan), node["n"])]
    if "feature" in node:
        out += preorder(node["left"]) + preorder(node["right"])
    return out


def package_preorder(tree, node=0):
    out = [(int(tree.feature[node]) if not tree.is_leaf[node] else -1,
            float(tree.threshold[node]) if not tree.is_leaf[node] else np.nan,
            int(tree.n_samples[node]))]
    if not tree.is_leaf[node]:
        for c in tree.children_of(node):
            out += package_preorder(tree, int(c))
    return out


def same(a, b):
    assert len(a) == len(b)
    for (fa, ta, na), (fb, tb, nb) in zip(a, b):
        assert fa == fb and na == nb
        assert (np.isnan(ta) and np.isnan(tb)) or ta == tb


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("params", [dict(min_samples_leaf=20), dict(max_depth=4, min_samples_leaf=5)])
def test_readable_tree_equals_the_package_tree(n_classes, params):
    X, y = make_classification(n_samples=1500, n_features=6, n_informative=4,
                               n_classes=n_classes, random_state=1)
    ours = grow_binary(X, y, n_classes, **params)
    pkg = CARTClassifier(**params).fit(X, y).tree_
    same(preorder(ours), package_preorder(pkg))
    assert np.array_equal(predict_binary(ours, X), CARTClassifier(**params).fit(X, y).predict(X))


def test_readable_tree_on_breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    ours = grow_binary(X, y, 2, min_samples_leaf=10)
    same(preorder(ours), package_preorder(CARTClassifier(min_samples_leaf=10).fit(X, y).tree_))


def test_readable_regression_tree_equals_the_package_tree():
    X, y = make_regression(n_samples=800, n_features=5, noise=5.0, random_state=0)
    ours = grow_binary(X, y, None, min_samples_leaf=15)
    pkg = CARTRegressor(min_samples_leaf=15).fit(X, y)
    same(preorder(ours), package_preorder(pkg.tree_))
    assert np.allclose(predict_binary(ours, X), pkg.predict(X), rtol=1e-12)


def test_li_hang_exercise_5_2_by_the_readable_tree():
    x = np.arange(1, 11, dtype=float)
    y = np.array([4.50, 4.75, 4.91, 5.34, 5.80, 7.05, 7.90, 8.23, 8.70, 9.00])
    t = grow_binary(x[:, None], y, max_depth=2)
    assert [t["threshold"], t["left"]["threshold"], t["right"]["threshold"]] == [5.5, 3.5, 7.5]
    # m(5) = SSE(x <= 5) + SSE(x > 5), from plain sums
    m5 = ((y[:5] - y[:5].mean()) ** 2).sum() + ((y[5:] - y[5:].mean()) ** 2).sum()
    assert np.isclose(best_cut(x, y)[1], m5) and round(m5, 2) == 3.36


def test_best_cut_agrees_with_the_naive_scan():
    X, y = make_classification(n_samples=600, n_features=4, n_informative=2, random_state=3)
    for j in range(4):
        t_naive, g_naive = naive_best_threshold(X[:, j], y, 2)
        t, cost = best_cut(X[:, j], y, 2)
        assert t == t_naive and np.isclose(cost / len(y), g_naive, rtol=1e-12)


def test_best_cut_respects_min_samples_leaf_and_says_none():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    y = np.array([0, 1, 1, 1])
    assert best_cut(x, y, 2)[0] == 1.5
    assert best_cut(x, y, 2, min_samples_leaf=2)[0] == 2.5
    assert best_cut(x, y, 2, min_samples_leaf=3) is None
    assert best_cut(np.ones(4), y, 2) is None          # one value: nothing to cut


@pytest.mark.parametrize("args, err, match", [
    ((np.ones((2, 2)), np.zeros(2, int), 2), ValueError, "1-D"),
    ((np.ones(3), np.zeros(2, int), 2), ValueError, "shape"),
    ((np.ones(3), np.zeros(3, int), 1), ValueError, "n_classes"),
    ((np.ones(3), np.array([0, 1, 2]), 2), ValueError, "class codes"),
    ((np.array([1.0, np.nan]), np.zeros(2, int), 2), ValueError, "missing"),
])
def test_bad_input(args, err, match):
    with pytest.raises(err, match=match):
        best_cut(*args)
    with pytest.raises(ValueError, match="2-D"):
        grow_binary(np.ones(3), np.zeros(3, int), 2)
