"""Error-based pruning (EBP): C4.5's pruning by a confidence limit on the error rate.

A leaf that misclassifies ``E`` of the ``N`` training cases reaching it is given the
pessimistic error rate ``U_CF(E, N)``: the upper limit of a one-sided binomial confidence
interval at confidence level ``CF`` (the *confidence factor*, default 0.25). With the
normal approximation and a continuity correction, ``U`` solves
``(f - U)² = z² U (1 - U) / N`` for ``f = (E + ½)/N`` and ``z`` the upper ``CF``
quantile of the standard normal:

    U = ( f + z²/2N + z·sqrt( f/N - f²/N + z²/4N² ) ) / ( 1 + z²/N ).

The leaf's *estimated errors* are ``N · U_CF(E, N)``. Two cases are special (both
programs, after the Documenta Geigy tables): for ``E = 0`` the exact binomial limit
``U = 1 - CF^(1/N)``; for ``0 < E < 1`` (fractional cases) a linear interpolation between
``E = 0`` and ``E = 1``.

Pruning visits the tree bottom-up. At each internal node ``t`` it compares

* the estimated errors of ``t`` as a leaf,
* the summed estimated errors of the leaves of its (already pruned) subtree, and
* with *subtree raising*, the estimated errors of its largest branch if *all* of ``t``'s
  training cases were sent down that branch;

it makes ``t`` a leaf if that is no worse (within 0.1 errors) than both alternatives,
else replaces ``t`` by its largest branch if that is no worse than the subtree, and then
prunes the raised subtree again (its cases have changed). Raising needs the training
cases, because the cases of the other branches are re-distributed through the raised
subtree; :func:`prune_error_based` therefore takes the (encoded) training data. While it
prunes, a multiway test has a branch for *every* value of its attribute, as in J48: a
value that no case had at the node gets an empty leaf, and a raised case with that value
goes there (not spread over the other branches); branches still empty at the end are
dropped again, so their values have no branch, as the grower makes them.

``z`` comes from one of two places (``z_source``):

* ``"table"`` — C4.5 release 8 (``stats.c``): linear interpolation in the table
  ``CF: 0, .001, .005, .01, .05, .10, .20, .40, 1`` ↦ ``z: 4, 3.09, 2.58, 2.33, 1.65,
  1.28, 0.84, 0.25, 0``; at ``CF = 0.25`` this gives ``z = 0.6925``. For ``E + ½ ≥ N``
  it returns ``0.67 (N - E)`` added errors. These are the numbers of Quinlan's book.
* ``"normal"`` — Weka's J48 (``Stats.addErrs``): the exact quantile
  ``z = Φ⁻¹(1 - CF)`` (0.6745 at ``CF = 0.25``), and ``N - E`` added errors when
  ``E + ½ ≥ N``.
"""

from __future__ import annotations

import math
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ..core import impurity as imp
from ..core.base import InstanceOf, Interval, Options, Registered, validate_params
from ..core.splits import FAN, ROUTING_POLICIES, Split
from ..core.tree import NodeKind, Tree, TreeBuilder
from .reduced_error import check_pruning_X

#: J48's ``Utils.SMALL``: sizes within this of each other are equal.
SMALL = 1e-6

__all__ = [
    "CF_TABLE",
    "Z_TABLE",
    "confidence_z",
    "added_errors",
    "estimated_errors",
    "upper_error_rate",
    "prune_error_based",
    "CONFIDENCE",
]

#: C4.5 release 8, ``stats.c``: confidence levels and their normal deviates.
CF_TABLE = (0.0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00)
Z_TABLE = (4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00)
#: A leaf is kept only if it is worse than the alternative by more than this many errors.
SLACK = 0.1
_SOURCES = ("normal", "table")


#: The check of the confidence factor CF, a number in (0, 0.5], used by every function
#: here and by :class:`treebook.c45.C45Classifier`.
CONFIDENCE = Interval(float, 0.0, 0.5, closed="right")
Z_SOURCE = Options(*_SOURCES)


def _z(cf: float, z_source: str) -> float:
    if z_source == "normal":
        return NormalDist().inv_cdf(1.0 - cf)
    i = int(np.searchsorted(CF_TABLE, cf, side="left"))   # first CF_TABLE[i] >= cf
    lo, hi = CF_TABLE[i - 1], CF_TABLE[i]
    return Z_TABLE[i - 1] + (Z_TABLE[i] - Z_TABLE[i - 1]) * (cf - lo) / (hi - lo)


@validate_params({"confidence": CONFIDENCE, "z_source": Z_SOURCE})
def confidence_z(confidence: float = 0.25, z_source: str = "normal") -> float:
    """The normal deviate ``z`` with upper tail probability ``confidence`` (= CF).

    ``z_source="normal"``: ``Φ⁻¹(1 - CF)`` (:class:`statistics.NormalDist`), as J48.
    ``z_source="table"``: C4.5's linear interpolation in :data:`CF_TABLE` /
    :data:`Z_TABLE` (0.6925 at CF = 0.25, where the exact value is 0.6745).
    """
    return _z(float(confidence), z_source)


def _added(n: float, e: float, cf: float, z: float, top: float) -> float:
    """``AddErrs(N, E)`` for one leaf, unchecked (``top`` is 1 for J48, 0.67 for C4.5)."""
    base = n * (1.0 - cf ** (1.0 / n))              # E = 0: the exact binomial limit
    if e < 1e-6:
        return base
    if e < 0.9999:                                  # 0 < E < 1: interpolate to E = 1
        return base + e * (_added(n, 1.0, cf, z, top) - base)
    if e + 0.5 >= n:                                # the continuity correction overshoots
        return top * max(n - e, 0.0)
    f = (e + 0.5) / n
    u = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) \
        / (1 + z * z / n)
    return u * n - e


def _top(z_source: str) -> float:
    return 0.67 if z_source == "table" else 1.0


@validate_params({"confidence": CONFIDENCE, "z_source": Z_SOURCE})
def added_errors(n, errors, confidence: float = 0.25, z_source: str = "normal"):
    """C4.5's ``AddErrs(N, E)``: the errors to add to ``E`` to reach ``N · U_CF(E, N)``.

    Arguments broadcast (numbers or arrays); ``N > 0`` and ``0 ≤ E ≤ N`` (weights may be
    fractional). Cases: ``E = 0`` → ``N (1 - CF^(1/N))``; ``0 < E < 1`` → linear between
    ``E = 0`` and ``E = 1``; ``E + ½ ≥ N`` → ``N - E`` (``"normal"``, J48) or
    ``0.67 (N - E)`` (``"table"``, C4.5); otherwise ``N · U - E`` with ``U`` the normal
    formula of the module docstring. (C4.5 tests ``E < 1E-6`` and ``E < 0.9999``, J48
    ``E == 0`` and ``E < 1``: the same up to rounding.)
    """
    cf = float(confidence)
    z = _z(cf, z_source)
    n = np.asarray(n, dtype=float)
    e = np.asarray(errors, dtype=float)
    if np.any(~np.isfinite(n)) or np.any(n <= 0):
        raise ValueError("n must be positive and finite")
    if np.any(~np.isfinite(e)) or np.any(e < 0) or np.any(e > n + 1e-9):
        raise ValueError("errors must be finite and between 0 and n")
    out = np.vectorize(_added, otypes=[float])(n, e, cf, z, _top(z_source))
    return float(out) if out.ndim == 0 else out


@validate_params({"confidence": CONFIDENCE, "z_source": Z_SOURCE})
def estimated_errors(n, errors, confidence: float = 0.25, z_source: str = "normal"):
    """The pessimistic error count ``N · U_CF(E, N) = E + AddErrs(N, E)`` of a leaf."""
    out = np.asarray(errors, dtype=float) + added_errors(n, errors, confidence, z_source)
    return float(out) if np.ndim(out) == 0 else out


@validate_params({"confidence": CONFIDENCE, "z_source": Z_SOURCE})
def upper_error_rate(n, errors, confidence: float = 0.25, z_source: str = "normal"):
    """``U_CF(E, N)``: the upper confidence limit of a leaf's error rate."""
    out = estimated_errors(n, errors, confidence, z_source) / np.asarray(n, dtype=float)
    return float(out) if np.ndim(out) == 0 else out


# ----------------------------------------------------------------------------- the tree
@dataclass
class _Node:
    """A mutable node: pruning rearranges the tree and re-routes the training cases."""

    kind: NodeKind
    feature: int = -1
    threshold: float = np.nan
    codes: np.ndarray | None = None
    children: list = field(default_factory=list)
    rows: np.ndarray | None = None   # training rows that reach the node …
    w: np.ndarray | None = None      # … and their (fractional) weights
    counts: np.ndarray | None = None
    n_rows: int = 0                  # how many rows reach it with positive weight

    @property
    def is_leaf(self) -> bool:
        return self.kind == NodeKind.LEAF

    def split(self) -> Split:
        return Split(feature=self.feature, kind=self.kind, score=0.0, threshold=self.threshold,
                     branch_of_code=self.codes, n_branches=len(self.children))


def _from_tree(tree: Tree) -> _Node:
    nodes = []
    for i in range(tree.node_count):
        kind = NodeKind(tree.kind[i])
        codes = tree.codes_of(i).copy() if kind in (NodeKind.MULTIWAY, NodeKind.SUBSET) else None
        nodes.append(_Node(kind, int(tree.feature[i]), float(tree.threshold[i]), codes,
                           counts=tree.value[i].astype(float), n_rows=int(tree.n_samples[i])))
    K = tree.value.shape[1]
    for i in range(tree.node_count):
        node = nodes[i]
        node.children = [nodes[c] for c in tree.children_of(i)] if not node.is_leaf else []
        if node.kind == NodeKind.MULTIWAY and np.any(node.codes < 0):
            # J48's multiway test has a branch for every value, an empty leaf where no case
            # had it; subtree raising can send cases there (see _empty_leaves_dropped)
            node.children = [node.children[b] if b >= 0 else
                             _Node(NodeKind.LEAF, counts=np.zeros(K)) for b in node.codes]
            node.codes = np.arange(node.codes.shape[0], dtype=np.int64)
    return nodes[0]


def _empty_leaves_dropped(node: _Node) -> None:
    """Undo the empty branches :func:`_from_tree` added to multiway nodes where no case
    arrived: their categories get no branch again (code -1), as the grower makes them."""
    if node.kind != NodeKind.MULTIWAY:
        return
    keep = [not (c.is_leaf and float(c.counts.sum()) <= 0) for c in node.children]
    if all(keep):
        return
    new_index = np.cumsum(keep) - 1
    node.codes = np.where(np.asarray(keep)[node.codes], new_index[node.codes], -1).astype(np.int64)
    node.children = [c for c, k in zip(node.children, keep) if k]


def _branch_shares(node: _Node, X, rows, w, missing):
    """Where each case ``(rows, w)`` goes at ``node`` (a branch, or ``FAN``: down every
    branch) and each branch's share of a fanned case, by the split's routing rule
    (:meth:`treebook.core.splits.Split.route_cases`): as at prediction time, a value with no
    branch here (missing, or a category not seen at this node) is spread over all
    branches by the share of the known weight."""
    go, share, _ = node.split().route_cases(X[rows, node.feature], w, missing)
    return go, share


def _distribute(node: _Node, X, y, rows, w, n_classes, missing):
    """Send the cases ``(rows, w)`` down from ``node``, recording them at every node."""
    node.rows, node.w = rows, w
    node.counts = np.bincount(y[rows], weights=w, minlength=n_classes).astype(float)
    node.n_rows = int(np.count_nonzero(w > 0))
    if node.is_leaf:
        return
    b, share = _branch_shares(node, X, rows, w, missing)
    miss = b == FAN
    for k, child in enumerate(node.children):
        sel = b == k
        _distribute(child, X, y, np.concatenate([rows[sel], rows[miss]]),
                    np.concatenate([w[sel], w[miss] * share[k]]), n_classes, missing)


def largest_branch(sizes) -> int:
    """The branch that subtree raising lifts: the largest, ties (within J48's ``SMALL``) to
    the *last*, as C4.5 (``prune.c``: ``Factor >= MaxFactor``) and J48
    (``Distribution.maxBag``: ``Utils.grOrEq``) both choose."""
    best, best_size = -1, 0.0
    for i, size in enumerate(sizes):
        if best_size - size < SMALL:
            best, best_size = i, size
    return best


class _Pruner:
    def __init__(self, X, y, n_classes, confidence, subtree_raising, z_source,
                 missing="distribute"):
        self.X, self.y, self.K = X, y, n_classes
        self.cf, self.raising, self.missing = confidence, subtree_raising, missing
        self.z, self.top = _z(confidence, z_source), _top(z_source)

    def leaf_errors(self, counts) -> float:
        """Estimated errors ``E + AddErrs(N, E)`` of a leaf with these class counts (0 for
        an empty leaf)."""
        n = float(counts.sum())
        if n <= 0:
            return 0.0
        e = max(n - float(counts.max()), 0.0)
        return e + _added(n, e, self.cf, self.z, self.top)

    def tree_errors(self, node: _Node) -> float:
        if node.is_leaf:
            return self.leaf_errors(node.counts)
        return sum(self.tree_errors(c) for c in node.children)

    def branch_errors(self, node: _Node, rows, w) -> float:
        """Estimated errors of the subtree ``node`` if the cases ``(rows, w)`` went down it
        (J48's ``getEstimatedErrorsForBranch``); the tree is not changed."""
        if node.is_leaf:
            return self.leaf_errors(np.bincount(self.y[rows], weights=w, minlength=self.K))
        b, share = _branch_shares(node, self.X, rows, w, self.missing)
        miss = b == FAN
        return sum(self.branch_errors(c, np.concatenate([rows[b == k], rows[miss]]),
                                      np.concatenate([w[b == k], w[miss] * share[k]]))
                   for k, c in enumerate(node.children))

    def prune(self, node: _Node) -> None:
        if node.is_leaf:
            return
        for child in node.children:
            self.prune(child)
        largest = node.children[largest_branch([c.counts.sum() for c in node.children])]
        errors_leaf = self.leaf_errors(node.counts)
        errors_tree = self.tree_errors(node)
        errors_branch = (self.branch_errors(largest, node.rows, node.w)
                         if self.raising else np.inf)
        if (errors_leaf <= errors_tree + SLACK + 1e-6
                and errors_leaf <= errors_branch + SLACK + 1e-6):
            node.kind, node.feature, node.threshold = NodeKind.LEAF, -1, np.nan
            node.codes, node.children = None, []
            return
        if errors_branch <= errors_tree + SLACK + 1e-6:
            # subtree raising: the largest branch takes the node's place and all its cases
            node.kind, node.feature, node.threshold = (largest.kind, largest.feature,
                                                       largest.threshold)
            node.codes, node.children = largest.codes, largest.children
            _distribute(node, self.X, self.y, node.rows, node.w, self.K, self.missing)
            self.prune(node)


@contextmanager
def _recursion_room(depth: int):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * depth + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _to_tree(root: _Node, like: Tree) -> Tree:
    builder = TreeBuilder()
    stack = [(root, -1)]
    while stack:
        node, parent = stack.pop()
        _empty_leaves_dropped(node)
        counts = node.counts
        n = float(counts.sum())
        i = builder.add_node(parent, counts, n, node.n_rows, imp.entropy(counts, check=False))
        if not node.is_leaf:
            builder.set_split(i, node.feature, node.kind, node.threshold, node.codes)
            stack.extend((c, i) for c in reversed(node.children))
    # TreeBuilder numbers children in the order they are added: add them depth-first
    return builder.build(feature_names=like.feature_names, categories=like.categories,
                         classes=like.classes, extra=dict(like.extra))


@validate_params({"tree": InstanceOf(Tree, "treebook.core.tree.Tree"), "confidence": CONFIDENCE,
                  "z_source": Z_SOURCE, "subtree_raising": Options(True, False),
                  "missing": Registered(lambda: tuple(ROUTING_POLICIES))})
def prune_error_based(tree: Tree, X=None, y=None, sample_weight=None, *,
                      confidence: float = 0.25, subtree_raising: bool = True,
                      z_source: str = "normal", missing: str = "distribute") -> Tree:
    """C4.5's error-based pruning of a classification ``tree``; returns a new tree.

    ``X`` (the encoded training matrix the tree was grown on, as
    ``estimator.encoder_.transform`` gives it), ``y`` (class codes ``0 … K-1``) and
    ``sample_weight`` are needed for subtree raising, which re-distributes training cases;
    without raising the tree's own class counts suffice. ``confidence`` is CF in
    (0, 0.5]; ``z_source`` is ``"normal"`` (J48) or ``"table"`` (C4.5 release 8), see
    :func:`confidence_z`. ``missing`` is the routing policy that re-distributes cases
    with an unknown value (C4.5's ``"distribute"``; the one the tree was grown with).
    """
    if tree.is_regression:
        raise ValueError("error-based pruning needs a classification tree")
    cf = float(confidence)
    K = tree.n_classes
    root = _from_tree(tree)
    if subtree_raising:
        if X is None or y is None:
            raise ValueError("subtree raising re-distributes the training cases: pass X and y "
                             "(or subtree_raising=False)")
        X = check_pruning_X(tree, X)
        y = np.asarray(y)
        if X.ndim != 2 or X.shape[0] != y.shape[0]:
            raise ValueError(f"X must be 2-D with one row per label; got X {X.shape}, y {y.shape}")
        if y.dtype.kind not in "iu" or (y.size and (y.min() < 0 or y.max() >= K)):
            raise ValueError(f"y must hold class codes 0 … {K - 1}")
        w = (np.ones(X.shape[0]) if sample_weight is None
             else np.asarray(sample_weight, dtype=float))
        if w.shape != (X.shape[0],):
            raise ValueError(f"sample_weight must have one weight per row ({X.shape[0]})")
        _distribute(root, X, y, np.arange(X.shape[0]), w, K, missing)
        if not np.allclose(root.counts, tree.value[0], rtol=1e-9, atol=1e-9):
            raise ValueError("X, y do not reproduce the tree's class counts at the root: "
                             "pass the data the tree was grown on")
    pruner = _Pruner(X, y, K, cf, bool(subtree_raising), z_source, missing)
    with _recursion_room(tree.max_depth):
        pruner.prune(root)
    return _to_tree(root, tree)
