"""ID3 as the textbooks write it: a short recursive grower on a table of labels.

This module is for reading. :func:`id3` is Mitchell's Table 3.1 (and Li Hang's
Algorithm 5.2) written in Python: a tree is a nested :class:`Node`, a branch is an entry
of a ``dict`` from feature value to child, and the recursion is a recursive call. It
makes the same choices as :class:`treebook.ID3Classifier` (ties between features go to
the first column, ties between classes to the first class in sorted order, one branch per
value present at the node, an unseen value stops at the node), and the tests check that
the two grow the same tree. The package's production grower,
:func:`treebook.growers.recursive.grow_tree`, does the same work on flat arrays with an explicit stack,
and adds what later chapters need (weighted and fractional cases, numeric thresholds,
other criteria); the appendix "How the package is built" shows it.

Only discrete features: every distinct value of a column is a category, and missing
values are refused (chapter 3, C4.5, handles them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.impurity import contingency_table, information_gain

__all__ = ["Node", "id3", "predict_one", "predict"]


@dataclass
class Node:
    """A node of a tree grown by :func:`id3`.

    ``counts`` holds the class counts ``|C_k|`` of the training cases that reached the
    node (a Series indexed by the classes, in sorted order) and ``cases`` their row
    labels. An internal node tests ``feature`` and has one child per value in
    ``children``; a leaf has ``feature = None`` and no children.
    """

    counts: pd.Series
    cases: tuple = ()
    feature: str | None = None
    children: dict = field(default_factory=dict)

    @property
    def is_leaf(self) -> bool:
        return self.feature is None

    @property
    def label(self):
        """The majority class (ties: the first class in sorted order)."""
        return self.counts.idxmax()

    @property
    def n_leaves(self) -> int:
        return 1 if self.is_leaf else sum(c.n_leaves for c in self.children.values())

    @property
    def depth(self) -> int:
        return 0 if self.is_leaf else 1 + max(c.depth for c in self.children.values())

    def __str__(self) -> str:
        """The tree as indented text, one line per node."""
        return "\n".join(_lines(self, "root", 0))


def id3(X, y, attributes=None, *, max_depth=None, min_samples_split=2,
        min_samples_leaf=1, min_gain=0.0, depth=0, classes=None) -> Node:
    """Grow an ID3 tree on the cases ``(X, y)`` by recursion (Mitchell 1997, Table 3.1).

    ``X`` is a DataFrame of discrete features, ``y`` the classes (one per row).
    ``attributes`` are the columns still available (default: all). At each node the
    attribute ``A_g`` of largest information gain ``g(D, A) = H(D) - H(D|A)`` is chosen
    among those that split the node's cases into two or more branches, each with at
    least ``min_samples_leaf`` cases. The node stays a leaf when it is pure, no
    attribute is left or qualifies, ``depth = max_depth``, it has fewer than
    ``min_samples_split`` cases, or ``g(D, A_g) < min_gain`` (Li Hang's ε).
    ``classes`` (default: the sorted labels of ``y``) are counted at every node.
    """
    X, y, attributes, classes = _checked(X, y, attributes, classes)
    node = Node(counts=y.value_counts().reindex(classes, fill_value=0),  # step 1
                cases=tuple(X.index))
    if ((node.counts > 0).sum() == 1 or not attributes or depth == max_depth
            or len(y) < min_samples_split):
        return node                                   # steps 2-3: a leaf
    gains = {A: information_gain(contingency_table(X[A], y)[2])      # step 4
             for A in attributes
             if X[A].nunique() >= 2 and X[A].value_counts().min() >= min_samples_leaf}
    if not gains:
        return node                                   # no feature splits D
    top = max(gains.values())
    best = next(A for A, g in gains.items() if g >= top - 1e-12)  # step 5
    if gains[best] < min_gain:
        return node                                   # step 6
    node.feature = best                               # step 7
    rest = [A for A in attributes if A != best]       # A_g is used up on this path
    for value in sorted(X[best].unique()):
        D_v = X[best] == value
        node.children[value] = id3(X[D_v], y[D_v], rest, max_depth=max_depth,
                                   min_samples_split=min_samples_split,
                                   min_samples_leaf=min_samples_leaf,
                                   min_gain=min_gain, depth=depth + 1, classes=classes)
    return node


def predict_one(tree: Node, case) -> object:
    """The class of one case (a dict or Series of feature values): walk from the root to
    a leaf; a value with no branch at a node stops the walk there."""
    node = tree
    while not node.is_leaf:
        child = node.children.get(case[node.feature])
        if child is None:
            break                                     # value not seen here
        node = child
    return node.label


def predict(tree: Node, X) -> np.ndarray:
    """:func:`predict_one` for every row of the DataFrame ``X``."""
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame; got {type(X).__name__}")
    return np.array([predict_one(tree, row) for _, row in X.iterrows()], dtype=object)


# ------------------------------------------------------------------------ plumbing

def _checked(X, y, attributes, classes):
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame; got {type(X).__name__}")
    if len(y) != len(X) or len(y) == 0:
        raise ValueError(f"y must have one label per row of X ({len(X)} rows, at least "
                         f"one); got {len(y)}")
    y = pd.Series(np.asarray(y, dtype=object), index=X.index, name=getattr(y, "name", None))
    if classes is None:                               # the root: check once
        if X.isna().any().any() or y.isna().any():
            raise ValueError("X and y must have no missing values: ID3 has no rule for "
                             "them (C45Classifier has)")
        classes = sorted(y.unique())
    attributes = list(X.columns) if attributes is None else list(attributes)
    unknown = [A for A in attributes if A not in X.columns]
    if unknown:
        raise ValueError(f"attributes {unknown!r} are not columns of X")
    return X, y, attributes, classes


def _fmt(counts: pd.Series) -> str:
    inner = ", ".join(f"{k} {v:g}" for k, v in counts.items())
    return f"n = {counts.sum():g} [{inner}]"


def _lines(node: Node, head: str, depth: int):
    tail = f" → {node.label}" if node.is_leaf else ""
    yield f"{head}: {_fmt(node.counts)}{tail}"
    for value, child in node.children.items():
        yield from _lines(child, "|   " * depth + f"|--- {node.feature} = {value}", depth + 1)
