"""Splits: the test at a node, how cases travel through it, and the statistics criteria
score candidate tests by (CART's binary scores and tolerances: :mod:`treebook.core.cart_scores`).

A criterion (:mod:`treebook.core.criteria`) scores a *contingency table*: the class counts of
each branch, shape ``(V, K)``. This module turns a node's cases into such tables:

* :func:`categorical_table` — one branch per category (a multiway split, ID3/C4.5/CLS);
* :func:`threshold_tables` — every binary cut ``x <= t`` of a numeric feature at once,
  from **one sort and one cumulative sum** (a ``(n_cuts, 2, K)`` stack of tables), never
  the O(n²) loop that builds a mask per candidate threshold;
* :func:`threshold_moments` — the same scan for regression (sums of ``w``, ``w·y``,
  ``w·y²`` on each side);
* :func:`node_summaries` — the statistics of many nodes at once (class counts or mean,
  weight, size, impurity), the one place every grower takes them from.

**Routing.** A chosen test is a :class:`Split`, and :meth:`Split.route` is the one rule
for where a case goes at a node and with what share of its weight. A case with a known
value takes its branch (:func:`branch_codes`, used by :class:`treebook.core.tree.Tree` for
prediction too); a case whose value is missing, or whose category has no branch at the
node, is handled by a :class:`RoutingPolicy`: ``"stop"`` (:class:`StopRouting`: it stays
at the node) or ``"distribute"`` (:class:`FractionalRouting`, C4.5: it goes down every
branch with the branch's share of the training weight). Policies live in a registry
(:func:`register_routing`), so a new rule (majority branch, learned direction, …) is one
object, used alike by the grower, prediction, pruning and the rules. CART's rules
(a learnt side per node, and Breiman's surrogate splits, :class:`Surrogate`) are carried
by the split itself and resolved first (:func:`resolve_missing`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np

from . import impurity as imp

__all__ = [
    "NodeKind",
    "Split",
    "Surrogate",
    "resolve_missing",
    "RoutingPolicy",
    "StopRouting",
    "FractionalRouting",
    "ROUTING_POLICIES",
    "register_routing",
    "get_routing",
    "branch_codes",
    "branch_index",
    "best_index",
    "categorical_table",
    "multiway_split",
    "threshold_tables",
    "threshold_moments",
    "NodeSummaries",
    "node_summaries",
    "summaries_from_sums",
]


class NodeKind(IntEnum):
    """The kind of test at a node (see :class:`treebook.core.tree.Tree`)."""

    LEAF = 0
    THRESHOLD = 1
    MULTIWAY = 2
    SUBSET = 3


#: raw branch code of a missing value (NaN); as a routing decision: "down every branch"
MISSING = -2
#: raw branch code of a category with no branch at the node; as a decision: "stay here"
UNSEEN = -1
STOP = UNSEEN
FAN = MISSING


def branch_codes(kind, threshold, code_start, code_width, branch_of_code, x) -> np.ndarray:
    """The branch each value ``x`` takes at its node: ``0 … V-1``, ``UNSEEN`` (-1: a
    category with no branch there, or a leaf) or ``MISSING`` (-2: NaN).

    Every argument but ``branch_of_code`` is per case (or broadcasts): the node's
    :class:`NodeKind`, its threshold, and where its ``branch_of_code`` entries start and
    how many there are. ``THRESHOLD``: ``x > t`` takes branch 1, else 0; ``MULTIWAY`` /
    ``SUBSET``: category code ``c`` takes ``branch_of_code[start + c]``. This is the whole
    rule for known values; :meth:`Split.branch` and :meth:`treebook.core.tree.Tree.route` both
    use it.
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[0]
    kind = np.broadcast_to(np.asarray(kind), (n,))
    out = np.full(n, UNSEEN, dtype=np.int64)
    missing = np.isnan(x)
    thr = (kind == NodeKind.THRESHOLD) & ~missing
    if np.any(thr):
        t = np.broadcast_to(np.asarray(threshold, dtype=float), (n,))
        out[thr] = (x[thr] > t[thr]).astype(np.int64)
    cat = ((kind == NodeKind.MULTIWAY) | (kind == NodeKind.SUBSET)) & ~missing
    if np.any(cat):
        code = x[cat].astype(np.int64)
        start = np.broadcast_to(np.asarray(code_start, dtype=np.int64), (n,))[cat]
        width = np.broadcast_to(np.asarray(code_width, dtype=np.int64), (n,))[cat]
        known = (code >= 0) & (code < width)
        b = np.full(code.shape[0], UNSEEN, dtype=np.int64)
        b[known] = branch_of_code[start[known] + code[known]]
        out[cat] = b
    out[missing & (kind != NodeKind.LEAF)] = MISSING
    return out


# ------------------------------------------------------------------------- routing policies
@runtime_checkable
class RoutingPolicy(Protocol):
    """What happens to a case that has no known branch at a node.

    ``decide(codes)`` maps raw branch codes (``>= 0``, ``UNSEEN``, ``MISSING``) to where
    each case goes: a branch ``>= 0``, ``STOP`` (it stays at the node) or ``FAN`` (it goes
    down every branch, its weight multiplied by the branch's share). ``shares(weights)``
    gives those shares from the branches' training weights (last axis = branches).
    """

    def decide(self, codes: np.ndarray) -> np.ndarray: ...

    def shares(self, branch_weight: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class StopRouting:
    """A case with a missing value or an unseen category stops at the node and gets the
    node's prediction (ID3, CART and CLS here)."""

    def decide(self, codes):
        return np.where(np.asarray(codes) >= 0, codes, STOP)

    def shares(self, branch_weight):
        return np.zeros_like(np.asarray(branch_weight, dtype=float))


@dataclass(frozen=True)
class FractionalRouting:
    """C4.5's rule (Quinlan 1993, ch. 3; J48's ``C45Split.weights``): a case whose value
    is unknown goes down every branch with weight ``w · |D_v| / Σ_u |D_u|``, the branch's
    share of the node's known training weight; so does a category with no branch at the
    node (``unseen="fan"``; ``"stop"`` keeps it at the node). With no training weight on
    any branch the shares are equal."""

    unseen: str = "fan"

    def decide(self, codes):
        codes = np.asarray(codes)
        out = np.where(codes == MISSING, FAN, codes)
        return np.where(out == UNSEEN, FAN if self.unseen == "fan" else STOP, out)

    def shares(self, branch_weight):
        bw = np.asarray(branch_weight, dtype=float)
        tot = bw.sum(axis=-1, keepdims=True)
        if bw.ndim == 1:
            return bw / tot if tot[0] > 0 else np.full(bw.shape, 1.0 / bw.shape[0])
        safe = np.where(tot > 0, tot, 1.0)
        return np.where(tot > 0, bw / safe, 1.0 / bw.shape[-1])


#: the routing policies by name; :func:`register_routing` adds one
ROUTING_POLICIES: dict = {"stop": StopRouting(), "distribute": FractionalRouting()}


def register_routing(name: str, policy: RoutingPolicy) -> RoutingPolicy:
    """Make ``policy`` available by ``name`` wherever a routing is chosen (``grow_tree``'s
    ``missing``, :meth:`treebook.core.tree.Tree.route`, C4.5's ``missing``)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string; got {name!r}")
    if not isinstance(policy, RoutingPolicy):
        raise TypeError("policy must have decide(codes) and shares(branch_weight) methods; "
                        f"got {policy!r}")
    ROUTING_POLICIES[name] = policy
    return policy


def get_routing(missing) -> RoutingPolicy:
    """The policy named ``missing`` (or ``missing`` itself if it is a policy)."""
    if isinstance(missing, str):
        if missing not in ROUTING_POLICIES:
            raise ValueError(f"missing must be one of {list(ROUTING_POLICIES)}; got {missing!r}")
        return ROUTING_POLICIES[missing]
    if isinstance(missing, RoutingPolicy):
        return missing
    raise TypeError(f"missing must be a routing name or policy; got {missing!r}")


@dataclass(frozen=True, eq=False)
class Surrogate:
    """A surrogate split of a CART node (Breiman et al. 1984, ch. 5.3; rpart's
    ``surrogate.c``): a split on another feature that mimics the node's primary split,
    used for a case whose primary feature is missing.

    ``THRESHOLD``: a value ``x < threshold`` takes branch ``low_branch``, a larger one the
    other branch (rpart's ``x < split`` rule). ``SUBSET``: category code ``c`` takes
    ``branch_of_code[c]`` (``-1``: no direction, the next surrogate is tried).
    ``agreement`` is the share of the node's training weight with a known primary
    direction that the surrogate sends the same way (a case missing the surrogate counts
    as a disagreement); ``adjusted`` is rpart's ``adj = (agreement - majority) /
    (1 - majority)``, the gain over going with the majority.
    """

    feature: int
    kind: NodeKind
    agreement: float
    adjusted: float
    threshold: float = np.nan
    low_branch: int = 0
    branch_of_code: np.ndarray | None = None

    def branch(self, x) -> np.ndarray:
        """The branch (0 or 1) each value of ``x`` takes, ``-1`` where ``x`` is missing or
        its category has no direction."""
        x = np.asarray(x, dtype=float)
        out = np.full(x.shape[0], -1, dtype=np.int64)
        known = ~np.isnan(x)
        if self.kind == NodeKind.THRESHOLD:
            low = x[known] < self.threshold
            out[known] = np.where(low, self.low_branch, 1 - self.low_branch)
        else:
            codes = x[known].astype(np.int64)
            table = self.branch_of_code
            ok = (codes >= 0) & (codes < table.shape[0])
            b = np.full(codes.shape[0], -1, dtype=np.int64)
            b[ok] = table[codes[ok]]
            out[known] = b
        return out


def resolve_missing(raw, X_rows, surrogates=(), missing_go: int = -1,
                    unseen_as_missing: bool = False) -> np.ndarray:
    """CART's rule for the cases with no known branch at a node (raw code ``MISSING``,
    and ``UNSEEN`` when ``unseen_as_missing``): each takes the branch of the first
    surrogate whose feature it has (``X_rows``: the cases' whole rows), else
    ``missing_go`` when it is a branch (>= 0); otherwise it keeps its raw code."""
    raw = np.asarray(raw, dtype=np.int64).copy()
    todo = raw == MISSING
    if unseen_as_missing:
        todo |= raw == UNSEEN
    if not todo.any():
        return raw
    idx = np.flatnonzero(todo)
    for s in surrogates:
        if idx.size == 0:
            break
        b = s.branch(X_rows[idx, s.feature])
        done = b >= 0
        raw[idx[done]] = b[done]
        idx = idx[~done]
    if missing_go >= 0 and idx.size:
        raw[idx] = missing_go
    return raw


@dataclass
class Split:
    """A test at a node. ``score`` is what the learner maximised (gain, ratio, …)."""

    feature: int
    kind: NodeKind
    score: float
    threshold: float = np.nan
    branch_of_code: np.ndarray | None = None
    n_branches: int = 2
    info: dict | None = None  # learner-specific numbers (gain, split info, …) for display
    #: CART's missing-value rule at this node: the branch a case with a missing value
    #: takes when no surrogate decides (-1: none, it stays at the node)
    missing_go: int = -1
    #: ranked surrogate splits (:class:`Surrogate`), tried in order for such a case
    surrogates: tuple = ()
    #: whether a category with no branch here is routed like a missing value (rpart)
    unseen_as_missing: bool = False

    def branch(self, x: np.ndarray, X_rows: np.ndarray | None = None) -> np.ndarray:
        """Raw branch code of each value of ``x``: ``0 … V-1``, ``UNSEEN`` or ``MISSING``.
        With ``X_rows`` (the cases' whole rows) a missing value is first resolved by the
        node's surrogates and ``missing_go`` (:func:`resolve_missing`)."""
        table = self.branch_of_code if self.branch_of_code is not None else np.empty(0, np.int64)
        raw = branch_codes(self.kind, self.threshold, 0, table.shape[0], table, x)
        if X_rows is not None and (self.surrogates or self.missing_go >= 0):
            raw = resolve_missing(raw, X_rows, self.surrogates, self.missing_go,
                                  self.unseen_as_missing)
        return raw

    def route(self, x: np.ndarray, branch_weight, missing="stop"):
        """Where the cases with values ``x`` go at this node, and with what share.

        Returns ``(go, share)``: ``go[i]`` is case ``i``'s branch, ``STOP`` (-1: it stays
        at the node) or ``FAN`` (-2: it goes down every branch ``b`` with its weight times
        ``share[b]``). ``branch_weight`` holds the training weight of each branch (the
        known cases that took it); ``missing`` is a routing policy or its name.
        """
        policy = get_routing(missing)
        return policy.decide(self.branch(x)), policy.shares(branch_weight)

    def route_cases(self, x: np.ndarray, w: np.ndarray, missing="stop", X_rows=None):
        """:meth:`route` for training cases: the branch weights are those of the cases
        themselves that have a known branch (the rule of growing and of C4.5's subtree
        raising). Returns ``(go, share, known_weight)``. ``X_rows``: see :meth:`branch`."""
        policy = get_routing(missing)
        raw = self.branch(x, X_rows)
        known = raw >= 0
        nb = self.n_branches
        known_w = np.bincount(raw[known], weights=w[known], minlength=nb)[:nb]
        return policy.decide(raw), policy.shares(known_w), known_w


def branch_index(split: Split, x: np.ndarray) -> np.ndarray:
    """Branch taken by each value of ``x``: ``0 … V-1``, ``-1`` unseen, ``-2`` missing
    (:meth:`Split.branch`)."""
    return split.branch(x)


def best_index(scores, rtol: float = 1e-12) -> int:
    """Index of the best score; ties (within ``rtol``) go to the first, i.e. the first
    attribute in column order. A tolerance is needed because the same partition scored
    through different arithmetic paths can differ in the last bits."""
    s = np.asarray(scores, dtype=float)
    if s.size == 0:
        raise ValueError("scores is empty")
    top = np.nanmax(s)
    return int(np.flatnonzero(s >= top - rtol * max(1.0, abs(top)))[0])


def categorical_table(codes, y, w, n_categories: int, n_classes: int):
    """Class counts per category: ``(table, missing)``.

    ``table[c, k]`` is the weight of cases with category code ``c`` and class ``k``;
    ``missing[k]`` the weight of class-``k`` cases whose value is missing (NaN).
    """
    codes = np.asarray(codes, dtype=float)
    known = ~np.isnan(codes)
    c = codes[known].astype(np.int64)
    flat = np.bincount(c * n_classes + y[known], weights=w[known],
                       minlength=n_categories * n_classes)
    missing = np.bincount(y[~known], weights=w[~known], minlength=n_classes)
    return flat.reshape(n_categories, n_classes), missing.astype(float)


def multiway_split(feature: int, table: np.ndarray, score: float, **info) -> Split:
    """A multiway split with one branch per category that has cases at this node.

    Categories absent at the node get no branch (code → -1, ``UNSEEN``). Where a case with
    such a value goes is the routing policy's choice: :class:`StopRouting` (ID3, CLS,
    CART without surrogates) stops it here with this node's class distribution, which is
    what C4.5 predicts when it labels an empty branch with its parent's majority (Quinlan
    1993); :class:`FractionalRouting` (C4.5's default, ``unseen="fan"``) sends it down
    every branch like an unknown value. ID3 as Li Hang states it makes branches only for
    non-empty subsets and leaves unseen values undefined.
    """
    present = table.sum(axis=1) > 0
    branch_of_code = np.where(present, np.cumsum(present) - 1, UNSEEN).astype(np.int64)
    return Split(feature=feature, kind=NodeKind.MULTIWAY, score=float(score),
                 branch_of_code=branch_of_code, n_branches=int(present.sum()),
                 info=info or None)


def _sorted_known(x, w):
    x = np.asarray(x, dtype=float)
    known = ~np.isnan(x)
    idx = np.flatnonzero(known)
    order = idx[np.argsort(x[idx], kind="stable")]
    return order, x[order]


def threshold_tables(x, y, w, n_classes: int):
    """Every binary cut of a numeric feature, scored from one sorted scan.

    Sort the cases with known ``x``; the class counts left of position ``i`` are the
    cumulative sum of one-hot weights (a prefix sum). A cut is possible only between two
    *distinct* adjacent values ``v_i < v_{i+1}``.

    Returns a dict with

    * ``tables`` — shape ``(n_cuts, 2, K)``: left (``x <= cut``) and right class counts;
    * ``lower``, ``upper`` — the values either side of each cut (``v_i``, ``v_{i+1}``):
      CART cuts at the midpoint, C4.5 reports ``v_i``, the largest value not above it;
    * ``known`` — class counts of the cases with a known value; ``missing`` — of the rest.
    """
    y = np.asarray(y)
    w = np.asarray(w, dtype=float)
    order, xs = _sorted_known(x, w)
    ys, ws = y[order], w[order]
    onehot = np.zeros((xs.shape[0], n_classes))
    onehot[np.arange(xs.shape[0]), ys] = ws
    prefix = np.cumsum(onehot, axis=0)
    known = prefix[-1] if xs.size else np.zeros(n_classes)
    cut = np.flatnonzero(xs[1:] > xs[:-1])  # cut after sorted position `cut`
    left = prefix[cut]
    tables = np.stack([left, known - left], axis=1)
    miss = np.isnan(np.asarray(x, dtype=float))
    missing = np.bincount(y[miss], weights=w[miss], minlength=n_classes).astype(float)
    return {"tables": tables, "lower": xs[cut], "upper": xs[cut + 1],
            "known": known, "missing": missing}


def threshold_moments(x, y, w):
    """The regression version of :func:`threshold_tables`.

    Returns ``lower``, ``upper`` and, for the left side of every cut, the prefix sums
    ``W = Σ w``, ``S1 = Σ w·y``, ``S2 = Σ w·y²`` (arrays of shape ``(n_cuts,)``), plus the
    totals ``W_tot, S1_tot, S2_tot`` over known cases.
    """
    y = np.asarray(y, dtype=float)
    w = np.asarray(w, dtype=float)
    order, xs = _sorted_known(x, w)
    ws, wy = w[order], w[order] * y[order]
    W, S1, S2 = np.cumsum(ws), np.cumsum(wy), np.cumsum(wy * y[order])
    cut = np.flatnonzero(xs[1:] > xs[:-1])
    tot = (W[-1], S1[-1], S2[-1]) if xs.size else (0.0, 0.0, 0.0)
    return {"lower": xs[cut], "upper": xs[cut + 1], "W": W[cut], "S1": S1[cut], "S2": S2[cut],
            "W_tot": tot[0], "S1_tot": tot[1], "S2_tot": tot[2]}


# =========================================================================================
# Node statistics: one place for every grower
# =========================================================================================
class NodeSummaries(NamedTuple):
    """Statistics of a batch of nodes, one row per node (see :func:`node_summaries`)."""

    value: np.ndarray       # (n_nodes, K) class weights, or (n_nodes, 1) mean response
    weighted_n: np.ndarray  # (n_nodes,) total weight
    n_samples: np.ndarray   # (n_nodes,) number of rows
    impurity: np.ndarray    # (n_nodes,) impurity under the criterion


#: a regression node whose variance is at most this fraction of its mean square is checked
#: for equal responses (rounding residue, not spread)
CONSTANT_RESIDUE = 1e-12


def node_summaries(keys, y, w, n_nodes: int, n_classes: int, criterion) -> NodeSummaries:
    """Statistics of many nodes at once from rows labelled by node ``keys``.

    ``w=None`` means unit weights (the sums are then counts: the same numbers).
    Returns :class:`NodeSummaries` ``(value, weighted_n, n_samples, impurity)``:
    classification ``value`` = weighted class counts ``C_k`` and impurity by
    ``criterion`` (a :class:`treebook.core.criteria.Criterion`, its ``node_impurity``);
    regression (``n_classes=0``) ``value`` = the weighted mean ``ȳ = S1/W`` and impurity
    ``S2/W - ȳ²`` (scikit-learn's formula), with ``W = Σ w``, ``S1 = Σ w y``,
    ``S2 = Σ w y²``. Every sum is a ``np.bincount``, which adds in row order: the
    recursive grower calls this for one node (all keys 0) and gets the same bits as the
    level-wise grower calling it for a whole level (whose compiled engine adds the same
    numbers in the same order in a loop and calls :func:`summaries_from_sums`).
    """
    keys = np.asarray(keys, dtype=np.intp)
    n = np.bincount(keys, minlength=n_nodes)
    W = n.astype(float) if w is None else np.bincount(keys, weights=w, minlength=n_nodes)
    if n_classes == 0:
        wy = y if w is None else w * y
        S1 = np.bincount(keys, weights=wy, minlength=n_nodes)
        S2 = np.bincount(keys, weights=wy * y, minlength=n_nodes)
        return summaries_from_sums(n, W, (S1, S2), 0, criterion, lambda: (keys, y, w))
    flat = np.bincount(keys * n_classes + y, weights=w, minlength=n_nodes * n_classes)
    return summaries_from_sums(n, W, flat, n_classes, criterion)


def summaries_from_sums(n, W, sums, n_classes: int, criterion, rows=None) -> NodeSummaries:
    """:func:`node_summaries` from the nodes' sums: ``n`` rows and weight ``W`` per node;
    ``sums``: ``(S1, S2)`` in regression, else the class weights, flat (node-major).
    ``rows``: a function giving ``(keys, y, w)`` of the rows, asked only in regression
    when some node's variance is within rounding of 0 (equal responses are checked)."""
    n_nodes = n.shape[0]
    if n_classes == 0:
        S1, S2 = sums
        safe = np.where(W > 0, W, 1.0)
        value = (S1 / safe)[:, None]
        from_sums = getattr(criterion, "impurity_from_sums", imp.variance_from_sums)
        impurity = np.asarray(from_sums(W, S1, S2, check=False), dtype=float)
        # equal values have variance 0, but S2/W - ȳ² leaves rounding residue (≈ 4e-16 for
        # ten copies of 1.1): a node of equal responses is pure, however it was summed
        tiny = np.flatnonzero((impurity > 0) & (impurity <= CONSTANT_RESIDUE * (S2 / safe)))
        if tiny.size:
            keys, y, w = rows()
            rows_ = np.isin(keys, tiny) if w is None else np.isin(keys, tiny) & (w > 0)
            k, v = keys[rows_], y[rows_]
            lo = np.full(n_nodes, np.inf)
            hi = np.full(n_nodes, -np.inf)
            np.minimum.at(lo, k, v)
            np.maximum.at(hi, k, v)
            impurity[tiny[lo[tiny] == hi[tiny]]] = 0.0
    else:
        value = sums.reshape(n_nodes, n_classes).astype(float)
        impurity = np.asarray(criterion.node_impurity(value), dtype=float)
    return NodeSummaries(value, W, n, impurity.reshape(n_nodes))
