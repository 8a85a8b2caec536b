"""Growing a tree: the textbook top-down, divide-and-conquer algorithm.

::

    grow(D, attributes, depth):
        make a node holding D's class counts
        if a stopping rule holds: it stays a leaf
        choose the best split of D                      (the learner's split finder)
        if there is none, or its score < min_gain:  it stays a leaf
        for each branch v:  grow(D_v, attributes', depth + 1)

One grower serves every algorithm: ID3, C4.5, CART and CLS differ only in the *split
finder* they pass (which candidates, which criterion, which tie rule) and in their
stopping parameters. Stopping rules here:

* ``max_depth`` reached;
* fewer than ``min_samples_split`` cases (rows with positive weight);
* the node is pure (one class, or zero variance for regression);
* no attribute left (a categorical attribute split multiway is used up on its path);
* no admissible split, or the best score is below ``min_gain`` (Li Hang's ε).

Where the cases go at a split is the split's business (:meth:`treebook.core.splits.Split.route`):
a case with a known value takes its branch; a case with an unknown value is handled by a
routing policy (``missing=``). C4.5's ``"distribute"`` sends it down *every* branch, its
weight multiplied by the branch's share of the known weight, so every node's counts are
weighted (fractional) counts; ``"error"`` rejects it (a learner without a rule for
missing values). Any policy registered with :func:`treebook.core.splits.register_routing`
can be named. A split may also carry its own rule (CART's ``missing_go`` and surrogate
splits, :class:`treebook.core.splits.Surrogate`): such a case then takes the branch of the
first surrogate it has, else ``missing_go``, and the rule is stored in the tree.

What a node records, and whether it is pure, is the ``node_stats`` hook's business
(default: class counts and ``node_impurity``, or mean and variance); which test to make
is the split finder's (any :class:`SplitFinder`).

The recursion is written with an explicit stack, so deep trees cannot hit Python's
recursion limit; nodes are numbered in pre-order by :class:`~treebook.core.tree.TreeBuilder`.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Protocol

import numpy as np

from ..core import impurity as imp
from ..core.splits import FAN, Split, get_routing
from ..core.tree import NodeKind, Tree, TreeBuilder

__all__ = ["grow_tree", "node_counts", "branch_cases", "NodeStats", "SplitFinder"]


class SplitFinder(Protocol):
    """A learner's choice of test: ``find_split(X, y, w, rows, available)`` returns the
    best :class:`~treebook.core.splits.Split` for the cases ``rows`` (weights ``w``, aligned
    with ``rows``) among the features where ``available`` is True, or None."""

    def __call__(self, X: np.ndarray, y: np.ndarray, w: np.ndarray, rows: np.ndarray,
                 available: np.ndarray) -> Split | None: ...


class NodeStats(NamedTuple):
    """What a node records: its ``value`` (class counts or mean), total weight
    ``weighted_n``, ``impurity``, and whether it is ``pure`` (then it stays a leaf)."""

    value: np.ndarray
    weighted_n: float
    impurity: float
    pure: bool


def node_counts(y: np.ndarray, w: np.ndarray, n_classes: int) -> np.ndarray:
    """Weighted class counts ``C_k = Σ_{i ∈ D, y_i = k} w_i`` of a node."""
    return np.bincount(y, weights=w, minlength=n_classes).astype(float)


def branch_cases(rows, w, branch, b: int, is_missing, share):
    """The cases of branch ``b`` of a split, in the order every grower lists them: the
    node's rows with ``branch == b`` (weights ``w``), then the rows whose value is
    missing, which go down every branch with weight ``w · share[b]`` (C4.5's fractional
    cases; none when no value is missing)."""
    sel = branch == b
    c_rows, c_w = rows[sel], w[sel]
    if np.any(is_missing):
        c_rows = np.concatenate([c_rows, rows[is_missing]])
        c_w = np.concatenate([c_w, w[is_missing] * share[b]])
    return c_rows, c_w


def _regression_stats(y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, float]:
    tot = w.sum()
    mean = float(np.dot(w, y) / tot) if tot > 0 else 0.0
    var = float(np.dot(w, (y - mean) ** 2) / tot) if tot > 0 else 0.0
    return np.array([mean]), var


def grow_tree(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray,
    *,
    find_split: SplitFinder,
    n_classes: int,
    node_impurity: Callable[[np.ndarray], float] = imp.entropy,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    min_gain: float = 0.0,
    missing="error",
    available: np.ndarray | None = None,
    metadata: dict | None = None,
    node_stats: Callable | None = None,
) -> Tree:
    """Grow a tree top-down.

    Parameters
    ----------
    X : (n, m) float array, categorical features as integer codes, missing as NaN.
    y : (n,) class codes ``0 … K-1`` (classification) or floats (``n_classes=0``).
    sample_weight : (n,) non-negative weights.
    find_split : ``find_split(X, y, w, rows, available) -> Split | None`` — the learner's
        choice of split for the cases ``rows`` (weights ``w``, aligned with ``rows``)
        among the features where ``available`` is True.
    node_impurity : impurity of a node from its class counts (classification): a function
        ``f(counts, check=False)`` or a :class:`treebook.core.criteria.Criterion`.
    missing : ``"error"`` (a split routing a missing value is a bug), or a routing policy
        or its name (:mod:`treebook.core.splits`): ``"distribute"`` is C4.5's fractional cases.
    available : features that may be split on (default: all).
    node_stats : optional ``node_stats(rows, w) -> NodeStats`` replacing the built-in node
        statistics, for a learner whose stopping rule or arithmetic differs (CART:
        scikit-learn's ``impurity <= eps`` leaf rule, and sums a batched grower reproduces
        bit for bit).
    """
    policy = None if missing == "error" else get_routing(missing)
    if hasattr(node_impurity, "node_impurity"):  # a criterion object
        criterion = node_impurity

        def node_impurity(counts, check=False):
            return criterion.node_impurity(counts)
    n, m = X.shape
    regression = n_classes == 0
    builder = TreeBuilder(is_regression=regression)
    max_depth = np.inf if max_depth is None else max_depth
    avail0 = np.ones(m, dtype=bool) if available is None else np.asarray(available, bool).copy()

    def default_stats(rows: np.ndarray, w: np.ndarray) -> NodeStats:
        if regression:
            value, node_imp = _regression_stats(y[rows], w)
            return NodeStats(value, w.sum(), node_imp, node_imp <= 0.0)
        value = node_counts(y[rows], w, n_classes)
        return NodeStats(value, w.sum(), float(node_impurity(value, check=False)),
                         np.count_nonzero(value > 0) <= 1)

    stats_of = default_stats if node_stats is None else node_stats

    def add(parent: int, rows: np.ndarray, w: np.ndarray) -> tuple[int, bool]:
        s = NodeStats(*stats_of(rows, w))  # a plain 4-tuple from a node_stats hook works too
        node = builder.add_node(parent, s.value, s.weighted_n, np.count_nonzero(w > 0),
                                s.impurity)
        return node, bool(s.pure)

    rows0 = np.arange(n)
    w0 = np.asarray(sample_weight, dtype=float)
    root, pure0 = add(-1, rows0, w0)
    stack = [(root, rows0, w0, 0, avail0, pure0)]
    while stack:
        node, rows, w, depth, avail, pure = stack.pop()
        if (pure or depth >= max_depth or np.count_nonzero(w > 0) < min_samples_split
                or not avail.any()):
            continue
        split = find_split(X, y, w, rows, avail)
        if split is None or not split.score >= min_gain:
            continue
        rule = split.missing_go >= 0 or bool(split.surrogates) or split.unseen_as_missing
        branch, share, known_w = split.route_cases(X[rows, split.feature], w,
                                                   policy or "stop",
                                                   X_rows=X[rows] if rule else None)
        if policy is None and np.any(branch < 0):
            raise ValueError(
                f"feature {split.feature} has missing values at a node, but this learner "
                "does not handle missing values")
        nb = split.n_branches
        is_missing = branch == FAN  # (a case the policy stops stays at this node)
        if np.count_nonzero(known_w > 0) < 2:
            continue  # the split separates nothing: stay a leaf
        builder.set_split(node, split.feature, split.kind, split.threshold, split.branch_of_code)
        if rule:  # CART's missing-value rule (learnt direction, surrogates)
            builder.set_missing_rule(node, split.missing_go, split.surrogates)
            builder.unseen_as_missing = split.unseen_as_missing
        child_avail = avail
        if split.kind == NodeKind.MULTIWAY:
            child_avail = avail.copy()
            child_avail[split.feature] = False  # a categorical attribute is used up
        children = []
        for b in range(nb):
            c_rows, c_w = branch_cases(rows, w, branch, b, is_missing, share)
            child, c_pure = add(node, c_rows, c_w)
            children.append((child, c_rows, c_w, depth + 1, child_avail, c_pure))
        stack.extend(reversed(children))
    return builder.build(**(metadata or {}))


# =========================================================================================
# The fast exact grower for numeric features (chapter 4): all nodes of a depth at once,
# from presorted attribute lists. It lives in its own module; CART uses it.
# =========================================================================================
from .levelwise import grow_levelwise  # noqa: E402

__all__ += ["grow_levelwise"]
