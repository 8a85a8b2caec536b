"""The textbook recursion of chapter 5 grows CLSClassifier's trees on categorical data."""

import itertools

import numpy as np
import pandas as pd
import pytest

from treebook import CLSClassifier
from treebook.datasets import load_loan, load_play_tennis
from treebook.teaching.hunt import Node, best_attribute, classify, concept_learning_system, tree_text


def leaves(tree):
    return sum(leaves(t) for t in tree.branches.values()) if isinstance(tree, Node) else 1


def depth(tree):
    return 1 + max(map(depth, tree.branches.values())) if isinstance(tree, Node) else 0


def random_table(seed, n=300):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"a{j}": rng.choice(list("pqrs")[: 2 + j % 3], size=n)
                      for j in range(5)})
    signal = (X["a1"] == "p") ^ (X["a3"] == "q") ^ (rng.random(n) < 0.2)
    return X, np.where(signal, "yes", "no")


def grid(X):
    """Every combination of the values seen, and the training rows themselves."""
    combos = pd.DataFrame(list(itertools.product(*(sorted(X[c].unique()) for c in X))),
                          columns=X.columns)
    return pd.concat([combos, X], ignore_index=True)


CASES = [load_loan(return_X_y=True), load_play_tennis(return_X_y=True)] + [
    random_table(seed) for seed in range(3)]


@pytest.mark.parametrize("X, y", CASES)
@pytest.mark.parametrize("options", [{}, {"max_depth": 2}, {"significance": 0.05},
                                     {"significance": 0.001, "max_depth": 3}])
def test_same_tree_as_the_package(X, y, options):
    y = np.asarray(y)
    mine = concept_learning_system(X, y, **options)
    package = CLSClassifier(**options).fit(X, y)
    assert leaves(mine) == package.n_leaves_
    assert depth(mine) == package.tree_.max_depth
    G = grid(X)
    expected = package.predict(G)
    assert [classify(mine, row) for _, row in G.iterrows()] == list(expected)
    if isinstance(mine, Node):
        root = package.feature_names_in_[package.tree_.feature[0]]
        assert mine.attribute == root


def test_the_loan_tree_by_hand():
    # Li Hang, Example 5.3: owns a house first, then has a job
    X, y = load_loan(return_X_y=True)
    tree = concept_learning_system(X, y)
    assert tree.attribute == "owns_house"
    assert tree.branches["yes"] == "yes"
    assert tree.branches["no"].attribute == "has_job"
    assert tree_text(tree).splitlines() == [
        "owns_house = no", "|   has_job = no: no", "|   has_job = yes: yes",
        "owns_house = yes: yes"]
    # an unseen value stops at the node and predicts its majority
    assert classify(tree, {"owns_house": "maybe"}) == "yes"


def test_stop_rules():
    X, y = load_play_tennis(return_X_y=True)
    assert concept_learning_system(X, y, significance=0.05) == "Yes"   # 9 Yes, 5 No
    assert concept_learning_system(X, y, max_depth=0) == "Yes"
    assert best_attribute(X[["Outlook"]].iloc[:1], np.asarray(y)[:1]) is None


@pytest.mark.parametrize("args, kwargs, error, match", [
    ((np.zeros((3, 2)), [0, 1, 0]), {}, TypeError, "X must be a pandas DataFrame"),
    ((pd.DataFrame({"a": list("xyz")}), [0, 1]), {}, ValueError, "y must be one label"),
    ((pd.DataFrame({"a": []}), []), {}, ValueError, "empty"),
    ((pd.DataFrame({"a": ["x", None]}), [0, 1]), {}, ValueError, "missing values"),
    ((pd.DataFrame({"a": list("xy")}), [0, 1]), {"choose": "gain"}, TypeError, "choose"),
    ((pd.DataFrame({"a": list("xy")}), [0, 1]), {"max_depth": -1}, ValueError,
     "max_depth"),
])
def test_bad_input_is_named(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        concept_learning_system(*args, **kwargs)
