"""The flat-array Tree: routing every node kind, decision paths, pruning and the builder.

A small tree with all three kinds of test is built by hand; its vectorized routing is
compared with a plain one-row-at-a-time walk written here from the definitions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tree_invariants import assert_tree_invariants
from treebook.core.tree import NodeKind, Tree, TreeBuilder

# feature 0 numeric, feature 1 with 3 categories, feature 2 with 4 categories
#
#   0: x0 <= 2.5 ?                                   counts [10, 10]
#   ├─ 1: multiway on x1: code 0 → 2, code 2 → 3     counts [7, 3]  (code 1 has no branch)
#   │   ├─ 2: leaf                                   counts [6, 1]
#   │   └─ 3: leaf                                   counts [1, 2]
#   └─ 4: subset on x2: {0, 3} → 5, {1, 2} → 6       counts [3, 7]
#       ├─ 5: leaf                                   counts [3, 1]
#       └─ 6: leaf                                   counts [0, 6]


def hand_tree() -> Tree:
    b = TreeBuilder()
    root = b.add_node(-1, [10, 10], 20, 20, 1.0)
    b.set_split(root, 0, NodeKind.THRESHOLD, threshold=2.5)
    left = b.add_node(root, [7, 3], 10, 10, 0.88)
    right = b.add_node(root, [3, 7], 10, 10, 0.88)
    b.set_split(left, 1, NodeKind.MULTIWAY, branch_of_code=[0, -1, 1])
    b.add_node(left, [6, 1], 7, 7, 0.59)
    b.add_node(left, [1, 2], 3, 3, 0.92)
    b.set_split(right, 2, NodeKind.SUBSET, branch_of_code=[0, 1, 1, 0])
    b.add_node(right, [3, 1], 4, 4, 0.81)
    b.add_node(right, [0, 6], 6, 6, 0.0)
    return b.build(feature_names=("x0", "x1", "x2"), classes=np.array(["a", "b"]),
                   categories=(None, np.array(["p", "q", "r"], dtype=object),
                               np.array(["s", "t", "u", "v"], dtype=object)))


def walk_one(tree: Tree, x) -> list[int]:
    """Reference: the nodes one row visits, following the definitions in tree.py."""
    node, path = 0, [0]
    while tree.kind[node] != NodeKind.LEAF:
        v = x[tree.feature[node]]
        if np.isnan(v):
            break
        if tree.kind[node] == NodeKind.THRESHOLD:
            b = 0 if v <= tree.threshold[node] else 1
        else:
            codes = tree.codes_of(node)
            c = int(v)
            if c < 0 or c >= len(codes) or codes[c] < 0:
                break
            b = codes[c]
        node = int(tree.children_of(node)[b])
        path.append(node)
    return path


rows_strategy = st.lists(
    st.tuples(
        st.one_of(st.floats(-10, 10, allow_nan=False), st.just(2.5), st.just(np.nan)),
        st.one_of(st.integers(-1, 4).map(float), st.just(np.nan)),
        st.one_of(st.integers(-1, 5).map(float), st.just(np.nan)),
    ),
    min_size=1, max_size=40,
)


def test_hand_tree_shape_and_invariants():
    t = hand_tree()
    assert_tree_invariants(t)
    assert (t.node_count, t.n_leaves, t.max_depth) == (7, 4, 2)
    assert t.kind.tolist() == [NodeKind.THRESHOLD, NodeKind.MULTIWAY, 0, 0, NodeKind.SUBSET, 0, 0]
    assert t.children_of(0).tolist() == [1, 4]
    assert t.subtree(1).tolist() == [1, 2, 3] and t.leaves_below(0).tolist() == [2, 3, 5, 6]
    assert t.n_branches(4) == 2 and t.n_classes == 2
    assert t.predicted_class_index().tolist() == [0, 0, 0, 1, 1, 0, 1]  # ties → class 0


@settings(max_examples=60, deadline=None)
@given(rows_strategy)
def test_apply_and_decision_path_match_a_row_by_row_walk(rows):
    t = hand_tree()
    X = np.array(rows, dtype=float)
    paths = [walk_one(t, x) for x in X]
    assert t.apply(X).tolist() == [p[-1] for p in paths]
    dp = t.decision_path(X).toarray()
    for i, p in enumerate(paths):
        assert np.flatnonzero(dp[i]).tolist() == sorted(p)
    # a row stops early exactly when its value is missing or has no branch
    proba = t.distribution(X)
    expected = t.value[[p[-1] for p in paths]]
    assert np.allclose(proba, expected / expected.sum(axis=1, keepdims=True))


def test_threshold_boundary_goes_left_and_unseen_codes_stop():
    t = hand_tree()
    X = np.array([[2.5, 0, 0],    # x0 == t goes left, then code 0 → node 2
                  [2.5, 1, 0],    # code 1 has no branch at node 1: stop there
                  [2.5, -1, 0],   # a category unseen in training (code -1): stop
                  [3.0, 0, 3],    # right, code 3 in the left subset → node 5
                  [3.0, 0, 5],    # code beyond the node's table: stop at node 4
                  [np.nan, 0, 0]])  # missing at the root: stop at the root
    assert t.apply(X).tolist() == [2, 1, 1, 5, 4, 0]
    assert np.allclose(t.distribution(X)[1], [0.7, 0.3])


@settings(max_examples=40, deadline=None)
@given(rows_strategy)
def test_distribute_sends_weights_that_sum_to_one_to_leaves(rows):
    t = hand_tree()
    X = np.array(rows, dtype=float)
    r, nodes, w = t.route(X, missing="distribute")
    assert np.all(t.kind[nodes] == NodeKind.LEAF)
    assert np.allclose(np.bincount(r, weights=w, minlength=len(X)), 1.0)
    assert np.allclose(t.distribution(X, missing="distribute").sum(axis=1), 1.0)


def test_distribute_shares_follow_training_weights():
    t = hand_tree()
    r, nodes, w = t.route(np.array([[np.nan, np.nan, np.nan]]), missing="distribute")
    got = dict(zip(nodes.tolist(), w.tolist()))
    # root: 10/20 each way; node 1: 7/10 and 3/10; node 4: 4/10 and 6/10
    assert got == pytest.approx({2: 0.35, 3: 0.15, 5: 0.2, 6: 0.3})


def test_route_rejects_unknown_mode():
    with pytest.raises(ValueError, match="missing"):
        hand_tree().route(np.zeros((1, 3)), missing="guess")


def test_truncate_and_prune():
    t = hand_tree()
    stump = t.truncate(0)
    assert stump.node_count == 1 and stump.n_leaves == 1
    assert stump.value[0].tolist() == [10, 10]
    one = t.truncate(1)
    assert_tree_invariants(one)
    assert (one.node_count, one.n_leaves, one.max_depth) == (3, 2, 1)
    assert t.truncate(5).node_count == t.node_count
    pruned = t.prune([1])
    assert_tree_invariants(pruned)
    assert pruned.node_count == 5 and pruned.kind[1] == NodeKind.LEAF
    assert pruned.children_of(0).tolist() == [1, 2]       # renumbered in pre-order
    assert pruned.value[2].tolist() == [3, 7]
    mask = np.zeros(t.node_count, dtype=bool)
    mask[4] = True
    assert t.prune(mask).node_count == 5
    # pruning a node's descendant together with the node itself is harmless
    assert t.prune([1, 2]).node_count == 5
    # the metadata travels with the tree
    assert pruned.feature_names == t.feature_names and pruned.classes is t.classes
    # routing through the pruned tree stops at the new leaf
    assert pruned.apply(np.array([[1.0, 0, 0]])).tolist() == [1]
    with pytest.raises(ValueError, match="max_depth"):
        t.truncate(-1)
    with pytest.raises(ValueError, match="one entry per node"):
        t.prune(np.zeros(3, dtype=bool))


def test_builder_renumbers_breadth_first_additions_in_pre_order():
    b = TreeBuilder()
    root = b.add_node(-1, [2, 2], 4, 4, 1.0)
    b.set_split(root, 0, NodeKind.MULTIWAY, branch_of_code=[0, 1])
    a = b.add_node(root, [2, 1], 3, 3, 0.9)
    c = b.add_node(root, [0, 1], 1, 1, 0.0)
    b.set_split(a, 1, NodeKind.THRESHOLD, threshold=0.5)  # a's children added last
    b.add_node(a, [2, 0], 2, 2, 0.0)
    b.add_node(a, [0, 1], 1, 1, 0.0)
    t = b.build()
    assert_tree_invariants(t)
    assert t.children_of(0).tolist() == [1, 4]  # a's subtree (1, 2, 3) comes before c
    assert t.value[4].tolist() == [0, 1] and t.depth.tolist() == [0, 1, 2, 2, 1]
    assert c == 2  # the builder's own id, before renumbering


def test_builder_make_leaf_and_errors():
    b = TreeBuilder()
    root = b.add_node(-1, [1, 1], 2, 2, 1.0)
    b.set_split(root, 0, NodeKind.THRESHOLD, threshold=0.0)
    b.add_node(root, [1, 0], 1, 1, 0.0)
    b.add_node(root, [0, 1], 1, 1, 0.0)
    b.make_leaf(root)
    t = b.build()
    assert t.node_count == 1 and t.n_leaves == 1
    with pytest.raises(ValueError, match="LEAF"):
        b.set_split(root, 0, NodeKind.LEAF)
    with pytest.raises(ValueError, match="branch_of_code"):
        b.set_split(root, 0, NodeKind.MULTIWAY)
    b2 = TreeBuilder()
    r = b2.add_node(-1, [1, 1], 2, 2, 1.0)
    b2.set_split(r, 0, NodeKind.THRESHOLD, threshold=0.0)
    with pytest.raises(ValueError, match="no children"):
        b2.build()


def test_regression_tree_values():
    b = TreeBuilder(is_regression=True)
    root = b.add_node(-1, [2.0], 4, 4, 1.0)
    b.set_split(root, 0, NodeKind.THRESHOLD, threshold=0.0)
    b.add_node(root, [1.0], 2, 2, 0.0)
    b.add_node(root, [3.0], 2, 2, 0.0)
    t = b.build()
    assert_tree_invariants(t)
    assert t.n_classes == 0
    assert t.distribution(np.array([[-1.0], [1.0], [np.nan]])).tolist() == [1.0, 3.0, 2.0]
    with pytest.raises(ValueError, match="regression"):
        t.predicted_class_index()


def test_apply_is_one_pass_per_level_on_many_rows():
    """Routing many rows returns the same as routing them one at a time."""
    t = hand_tree()
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.uniform(0, 5, 5000), rng.integers(-1, 3, 5000),
                         rng.integers(0, 4, 5000)]).astype(float)
    expected = [walk_one(t, x)[-1] for x in X[:200]]
    assert t.apply(X)[:200].tolist() == expected
    assert np.bincount(t.apply(X), minlength=7)[[2, 3, 5, 6]].sum() + \
        np.count_nonzero(t.apply(X) == 1) == 5000


# ----------------------------------------------------------------------------- every learner
def _golf():
    from treebook.datasets import load_golf

    return load_golf(return_X_y=True)


def learner_trees():
    """(name, fitted model, exact_samples) for every learner on the golf data (numeric and
    categorical features), C4.5 also with missing values (fractional cases)."""
    from treebook import C45Classifier, CARTClassifier, CARTRegressor, CLSClassifier, ID3Classifier

    X, y = _golf()
    Xm = X.copy()
    Xm.loc[[1, 5], "humidity"] = np.nan
    Xm.loc[3, "outlook"] = None
    return [
        ("ID3", ID3Classifier().fit(X, y), True),
        ("C4.5", C45Classifier().fit(X, y), True),
        ("C4.5 with missing values", C45Classifier().fit(Xm, y), False),
        ("CLS", CLSClassifier().fit(X, y), True),
        ("CART", CARTClassifier().fit(X, y), True),
        ("CART regression", CARTRegressor().fit(X.drop(columns="temperature"),
                                                X["temperature"]), True),
    ]


def test_every_learners_tree_satisfies_the_invariants():
    from tree_invariants import assert_predictions_follow_leaves

    X, _ = _golf()
    kinds = set()
    for name, model, exact in learner_trees():
        assert_tree_invariants(model.tree_, exact_samples=exact)
        kinds |= set(model.tree_.kind.tolist())
        if name in ("ID3", "C4.5", "CLS", "CART"):
            assert_predictions_follow_leaves(model, X)
    # between them the learners use every kind of node
    assert kinds == {NodeKind.LEAF, NodeKind.THRESHOLD, NodeKind.MULTIWAY, NodeKind.SUBSET}


def test_route_takes_no_rows():
    import numpy as np

    from treebook import C45Classifier

    tree = C45Classifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]).tree_
    rows, nodes, weights = tree.route(np.empty((0, 1)), missing="distribute")
    assert rows.size == nodes.size == weights.size == 0
    assert tree.distribution(np.empty((0, 1)), missing="distribute").shape == (0, 2)
