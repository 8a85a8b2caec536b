"""Helpers for the pruning tests: hand-built trees, random grown trees, and an
independent enumeration of pruned subtrees (used as the brute-force reference).

(``tests/`` is on ``sys.path`` when pytest runs the test files in it.)
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import strategies as st

from treebook import CARTClassifier
from treebook.core.tree import NodeKind, Tree, TreeBuilder


def build(spec, n_features: int = 3) -> Tree:
    """A tree from a nested spec: a leaf is ``counts``; an internal node is
    ``(feature, threshold, counts, [left, right])`` (a threshold test)."""
    b = TreeBuilder()

    def add(node, parent):
        if isinstance(node, tuple):
            f, thr, counts, kids = node
            i = b.add_node(parent, counts, sum(counts), int(sum(counts)), 0.0)
            b.set_split(i, f, NodeKind.THRESHOLD, thr)
            for k in kids:
                add(k, i)
        else:
            b.add_node(parent, node, sum(node), int(sum(node)), 0.0)

    add(spec, -1)
    return b.build(feature_names=tuple(f"x{j}" for j in range(n_features)))


def predict_codes(tree: Tree, X) -> np.ndarray:
    """Class codes a tree predicts (its node majority at the end node of each row)."""
    return np.argmax(tree.node_prediction(), axis=1)[tree.apply(np.asarray(X, float))]


def errors(tree: Tree, X, y) -> int:
    return int(np.count_nonzero(predict_codes(tree, X) != np.asarray(y)))


def pruned_subtrees(tree: Tree):
    """Every pruned subtree of ``tree``, as the set of node ids made leaves (a frozenset of
    internal nodes where the cut is made), by plain recursion."""

    def below(i):
        if tree.kind[i] == NodeKind.LEAF:
            return [frozenset()]
        options = [frozenset([i])]
        for combo in itertools.product(*[below(c) for c in tree.children_of(i)]):
            options.append(frozenset().union(*combo))
        return options

    return below(0)


def is_pruned_subtree(original: Tree, pruned: Tree) -> bool:
    """Same root and tests; each node of ``pruned`` is a node of ``original`` with all its
    branches, or a leaf standing for a node of ``original`` (same class counts)."""

    def same(i, j):
        if not np.allclose(original.value[i], pruned.value[j]):
            return False
        if pruned.kind[j] == NodeKind.LEAF:
            return True
        if (original.kind[i] != pruned.kind[j] or original.feature[i] != pruned.feature[j]
                or original.threshold[i] != pruned.threshold[j]):
            return False
        ci, cj = original.children_of(i), pruned.children_of(j)
        return len(ci) == len(cj) and all(same(a, b) for a, b in zip(ci, cj))

    return same(0, 0)


@st.composite
def grown_problem(draw, max_depth: int = 4, n_classes: int = 3):
    """A CART tree grown to ``max_depth`` on random integer data, plus a second random data
    set on the same features (a pruning or test set): ``(tree, X2, y2)``."""
    seed = draw(st.integers(0, 2**31 - 1))
    n = draw(st.integers(8, 60))
    n2 = draw(st.integers(0, 40))
    k = draw(st.integers(2, n_classes))
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n, 3)).astype(float)
    y = rng.integers(0, k, size=n)
    # a little signal so that some splits are real
    y = np.where(rng.random(n) < 0.5, (X[:, 0] > 1).astype(int) % k, y)
    y[:k] = np.arange(k)   # every class is seen, so labels and class codes coincide
    model = CARTClassifier(max_depth=max_depth).fit(X, y)
    X2 = rng.integers(0, 4, size=(n2, 3)).astype(float)
    y2 = np.where(rng.random(n2) < 0.5, (X2[:, 0] > 1).astype(int) % k, rng.integers(0, k, n2))
    assert list(model.classes_) == list(range(k))
    return model.tree_, X2, y2
