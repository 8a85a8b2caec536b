"""The textbook recursion (treebook.teaching.recursive.id3) grows the package's ID3 tree.

Chapter 2 shows :func:`treebook.teaching.recursive.id3` as the algorithm and then lets
:class:`treebook.ID3Classifier` (flat arrays, an explicit stack) grow "the same tree".
These tests make that sentence true node by node: same test, same class counts, same
branches in the same order, and the same predictions, on the book's tables and on random
ones, under every stopping rule both share.
"""

import numpy as np
import pandas as pd
import pytest

from treebook import ID3Classifier
from treebook.datasets import load_loan, load_monica, load_play_tennis
from treebook.teaching.recursive import Node, id3, predict, predict_one
from treebook.core.tree import NodeKind


def assert_same_tree(node: Node, model: ID3Classifier, i: int = 0, path="root"):
    """The nested tree below ``node`` equals the subtree of ``model.tree_`` at ``i``."""
    t = model.tree_
    assert node.counts.index.tolist() == model.classes_.tolist(), path
    np.testing.assert_array_equal(node.counts.to_numpy(float), t.value[i], err_msg=path)
    assert len(node.cases) == t.n_samples[i], path
    if node.is_leaf:
        assert t.kind[i] == NodeKind.LEAF, f"{path}: package splits, recursion does not"
        return
    assert t.kind[i] == NodeKind.MULTIWAY, f"{path}: recursion splits, package does not"
    f = int(t.feature[i])
    assert model.feature_names_in_[f] == node.feature, path
    cats = list(t.categories[f])
    branch_of = t.codes_of(i)
    kids = t.children_of(i)
    assert len(kids) == len(node.children), path
    for b, (value, child) in enumerate(node.children.items()):
        code = cats.index(value)
        assert branch_of[code] == b, f"{path}: branch order of {value!r}"
        assert_same_tree(child, model, int(kids[b]), f"{path} / {node.feature}={value}")


def monica_banded():
    X, y = load_monica(return_X_y=True)
    X["age"] = pd.cut(X["age"], [34, 44, 54, 64, 69],
                      labels=["35-44", "45-54", "55-64", "65-69"]).astype(str)
    return X, y


def random_table(seed, n=60, m=4):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"a{j}": rng.choice(list("pqrs")[: rng.integers(2, 5)], n)
                      for j in range(m)})
    # a class that depends on two features plus noise, so trees have some depth
    y = np.where((X["a0"] == "p") ^ (X["a1"] == "q"), "yes", "no")
    flip = rng.random(n) < 0.2
    y[flip] = rng.choice(["yes", "no", "maybe"], flip.sum())
    return X, pd.Series(y, name="class")


PARAMS = [{}, {"max_depth": 1}, {"max_depth": 2}, {"min_samples_split": 10},
          {"min_gain": 0.05}]


@pytest.mark.parametrize("params", PARAMS)
@pytest.mark.parametrize("loader", [load_loan, load_play_tennis])
def test_textbook_tables(loader, params):
    X, y = loader(return_X_y=True)
    tree = id3(X, y, **params)
    model = ID3Classifier(**params).fit(X, y)
    assert_same_tree(tree, model)
    assert str(tree) == model.export_text()
    assert (predict(tree, X) == model.predict(X)).all()


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("params", PARAMS)
def test_random_tables(seed, params):
    X, y = random_table(seed)
    tree = id3(X, y, **params)
    model = ID3Classifier(**params).fit(X, y)
    assert_same_tree(tree, model)
    assert (tree.n_leaves, tree.depth) == (model.n_leaves_, model.depth_)
    # new cases, some with values never seen at some node
    X_new, _ = random_table(seed + 1000, n=40)
    X_new.iloc[::7, 0] = "unseen"
    assert (predict(tree, X_new) == model.predict(X_new)).all()


def test_monica():
    X, y = monica_banded()
    tree = id3(X, y)
    model = ID3Classifier().fit(X, y)
    assert_same_tree(tree, model)
    assert tree.n_leaves == model.n_leaves_ > 500


def test_min_samples_leaf():
    X, y = monica_banded()
    big = id3(X, y, min_samples_leaf=50)
    small = id3(X, y)

    def leaves(node):
        return [node] if node.is_leaf else [l for c in node.children.values()
                                            for l in leaves(c)]

    assert min(len(l.cases) for l in leaves(big)) >= 50
    assert min(len(l.cases) for l in leaves(small)) < 50
    assert big.n_leaves < small.n_leaves
    # min_samples_leaf=1 is no constraint at all
    X2, y2 = load_play_tennis(return_X_y=True)
    assert str(id3(X2, y2, min_samples_leaf=1)) == str(id3(X2, y2))
    # on PlayTennis, 3 cases per branch rules out every attribute at the root
    # (each has a value with fewer than 3 days except Humidity and Wind, whose
    # gains then decide); check against the table by hand
    counts = {A: X2[A].value_counts().min() for A in X2}
    stump = id3(X2, y2, min_samples_leaf=3)
    ok = [A for A, c in counts.items() if c >= 3]
    assert stump.feature in ok


def test_cases_partition_the_training_set():
    X, y = load_play_tennis(return_X_y=True)
    tree = id3(X, y, max_depth=1)
    assert tree.feature == "Outlook"
    parts = {v: set(c.cases) for v, c in tree.children.items()}
    assert set().union(*parts.values()) == set(X.index)
    assert sum(len(p) for p in parts.values()) == len(X)
    # Mitchell (1997), Figure 3.4: Sunny {D1, D2, D8, D9, D11}, Overcast {D3, D7,
    # D12, D13}, Rain {D4, D5, D6, D10, D14} (days numbered from 1)
    assert {v: sorted(i + 1 for i in p) for v, p in parts.items()} == {
        "Sunny": [1, 2, 8, 9, 11], "Overcast": [3, 7, 12, 13],
        "Rain": [4, 5, 6, 10, 14]}


def test_predict_one_stops_at_unseen_value():
    X, y = load_play_tennis(return_X_y=True)
    tree = id3(X, y)
    assert predict_one(tree, {"Outlook": "Sunny", "Temperature": "Hot",
                              "Humidity": "High", "Wind": "Strong"}) == "No"
    assert predict_one(tree, {"Outlook": "Fog"}) == "Yes"  # the root's majority


def test_bad_input():
    X, y = load_play_tennis(return_X_y=True)
    with pytest.raises(TypeError, match="X must be a pandas DataFrame"):
        id3(X.to_numpy(), y)
    with pytest.raises(ValueError, match="one label per row"):
        id3(X, y[:-1])
    with pytest.raises(ValueError, match="missing values"):
        id3(X.mask(X == "Hot"), y)
    with pytest.raises(ValueError, match="attributes"):
        id3(X, y, attributes=["Colour"])
    with pytest.raises(TypeError, match="X must be a pandas DataFrame"):
        predict(id3(X, y), X.to_numpy())
