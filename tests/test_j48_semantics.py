"""Rules where C4.5 must do what J48 does to build J48's trees (checked against J48
itself by ``make crosscheck``; here on hand-built cases that need no Java)."""

import numpy as np
import pandas as pd

from treebook import C45Classifier
from treebook.growers.c45_search import numeric_candidate
from treebook.prune.error_based import largest_branch, prune_error_based
from treebook.core.tree import NodeKind, TreeBuilder


def test_values_exactly_1e5_apart_are_not_a_cut():
    # J48 (C45Split.handleNumericAttribute) counts a cut only when previous + 1e-5 < next.
    # Recorded to five decimals, 1.5 and 1.50001 are not "more than 1e-5 apart" that way,
    # although 1.50001 - 1.5 > 1e-5 in double arithmetic.
    assert 1.50001 - 1.5 > 1e-5 and not 1.5 + 1e-5 < 1.50001
    x = np.repeat([1.5, 1.50001, 1.6], 4)
    y = np.repeat([0, 1, 1], 4)
    c = numeric_candidate(x, y, np.ones(12), feature=0, n_classes=2, min_samples_leaf=2)
    assert c.n_cuts == 1 and c.threshold == 1.50001  # only the cut between 1.50001 and 1.6


def test_raising_lifts_the_last_of_equally_large_branches():
    assert largest_branch([3.0, 3.0]) == 1
    assert largest_branch([3.0, 3.0 - 1e-7, 1.0]) == 1   # equal within J48's SMALL
    assert largest_branch([2.0, 3.0, 1.0]) == 1
    assert largest_branch([5.0, 3.0, 3.0]) == 0


def test_a_categorical_y_declares_the_classes_and_their_order():
    X = pd.DataFrame({"a": ["p", "p", "q", "q"]})
    y = pd.Categorical(["yes", "no", "yes", "no"], categories=["yes", "no", "maybe"])
    model = C45Classifier(min_samples_leaf=1).fit(X, y)
    assert model.classes_.tolist() == ["yes", "no", "maybe"]
    proba = model.predict_proba(X)
    assert proba.shape == (4, 3) and np.allclose(proba[:, 2], 0)
    # a tie between yes and no goes to the first declared class, as in J48
    assert (model.predict(X) == "yes").all()
    # without a declared order the classes are sorted, and the tie goes to "no"
    plain = C45Classifier(min_samples_leaf=1).fit(X, np.asarray(y))
    assert plain.classes_.tolist() == ["no", "yes"] and (plain.predict(X) == "no").all()


def test_laplace_leaf_probabilities():
    # one leaf per value: p → 3 yes, 1 no; q → 1 yes, 4 no (K = 2)
    X = pd.DataFrame({"a": ["p"] * 4 + ["q"] * 5})
    y = ["yes"] * 3 + ["no"] + ["yes"] + ["no"] * 4
    model = C45Classifier(pruning=None, laplace=True).fit(X, y)
    proba = model.predict_proba(pd.DataFrame({"a": ["p", "q", np.nan]}))
    classes = model.classes_.tolist()
    yes = classes.index("yes")
    assert np.isclose(proba[0, yes], (3 + 1) / (4 + 2))
    assert np.isclose(proba[1, yes], (1 + 1) / (5 + 2))
    # an unknown value: the leaves' Laplace estimates weighted 4/9 and 5/9
    assert np.isclose(proba[2, yes], 4 / 9 * 4 / 6 + 5 / 9 * 2 / 7)
    plain = C45Classifier(pruning=None).fit(X, y).predict_proba(pd.DataFrame({"a": ["p"]}))
    assert np.isclose(plain[0, yes], 3 / 4)


def test_collapse_false_keeps_a_split_that_lowers_no_training_error():
    # p → 3 yes, 1 no; q → 3 yes, 2 no: both branches predict yes, so the split makes as
    # many training errors (3) as a leaf; C4.5 and J48 collapse it, J48 -O keeps it
    X = pd.DataFrame({"a": ["p"] * 4 + ["q"] * 5})
    y = ["yes"] * 3 + ["no"] + ["yes"] * 3 + ["no"] * 2
    assert C45Classifier(pruning=None).fit(X, y).get_n_leaves() == 1
    kept = C45Classifier(pruning=None, collapse=False).fit(X, y)
    assert kept.get_n_leaves() == 2


def test_binary_splits_test_one_value_against_the_rest():
    # colour = red separates the classes; the other values go right together
    X = pd.DataFrame({"colour": ["red"] * 4 + ["green"] * 3 + ["blue"] * 3})
    y = ["a"] * 4 + ["b"] * 6
    model = C45Classifier(binary_splits=True, pruning=None).fit(X, y)
    tree = model.tree_
    assert tree.n_leaves == 2 and tree.n_branches(0) == 2
    assert model.predict(pd.DataFrame({"colour": ["red", "green", "blue"]})).tolist() == [
        "a", "b", "b"]
    multiway = C45Classifier(pruning=None).fit(X, y)
    assert multiway.tree_.n_branches(0) == 3


def test_raising_sends_cases_to_the_empty_branch_of_their_value():
    # J48's multiway test has a branch for every value; where no training case had the
    # value it is an empty leaf, and subtree raising can send cases there
    # (C45PruneableClassifierTree.getEstimatedErrorsForBranch, newDistribution).
    # Root: x0 <= 0.5 → 2 cases of class 0, all with colour 2; else a test on colour,
    # whose cases have colours 0 (20 × class 0) and 1 (20 × class 1) only.
    X = np.array([[0.0, 2.0]] * 2 + [[1.0, 0.0]] * 20 + [[1.0, 1.0]] * 20)
    y = np.array([0] * 22 + [1] * 20)
    b = TreeBuilder()
    root = b.add_node(-1, [22.0, 20.0], 42.0, 42, 1.0)
    b.set_split(root, 0, NodeKind.THRESHOLD, 0.5)
    b.add_node(root, [2.0, 0.0], 2.0, 2, 0.0)
    colour = b.add_node(root, [20.0, 20.0], 40.0, 40, 1.0)
    b.set_split(colour, 1, NodeKind.MULTIWAY, branch_of_code=[0, 1, -1])
    b.add_node(colour, [20.0, 0.0], 20.0, 20, 0.0)
    b.add_node(colour, [0.0, 20.0], 20.0, 20, 0.0)
    pruned = prune_error_based(b.build(), X, y)
    # raising the colour test costs nothing when colour 2 gets its own leaf (2 cases,
    # 0 errors, as at the root's left branch): J48 raises it, with three branches. Spread
    # over the two non-empty branches instead, the 2 cases would add about one estimated
    # error, and the root would stay.
    assert pruned.kind[0] == NodeKind.MULTIWAY and pruned.feature[0] == 1
    assert pruned.codes_of(0).tolist() == [0, 1, 2]
    assert [pruned.value[c].tolist() for c in pruned.children_of(0)] == [
        [20.0, 0.0], [0.0, 20.0], [2.0, 0.0]]
    # without raising, or with no case to send there, the empty branch never appears
    kept = prune_error_based(b.build(), X, y, subtree_raising=False)
    assert kept.node_count == 5 and kept.codes_of(2).tolist() == [0, 1, -1]
