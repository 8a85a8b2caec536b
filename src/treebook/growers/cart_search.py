"""CART's split search for one node (the recursive grower's split finder) and
:func:`grow_cart`, which hands a CART problem to the grower that fits it.

At a node every feature's best binary split is found — the sorted scan of a numeric
feature (:func:`treebook.core.splits.threshold_tables`), the subset search of a categorical
one (:mod:`treebook.growers.subsets`) — and the highest score wins, ties to the first
feature. Missing values follow one of :data:`MISSING_RULES`: scikit-learn's
(``"learn"``: every cut tried with the missing rows on either side,
:func:`learn_candidates`), rpart's (``"surrogate"``: features scored on their known rows,
the split keeps its :func:`treebook.growers.surrogates.surrogate_splits`), or none
(``"error"``). The learner, its parameters and the numerics it shares with scikit-learn
are described in :mod:`treebook.cart`.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..core.criteria import get_criterion
from ..core.feature_draw import features_to_consider, node_permutation
from ..core.cart_scores import FEATURE_THRESHOLD, IMPURITY_TOLERANCE, class_split_score, first_best, midpoint_threshold, side_weight, tie_floor
from ..core.splits import Split, node_summaries, threshold_moments, threshold_tables
from ..core.tree import NodeKind, Tree
from .bestfirst import grow_best_first
from .levelwise import grow_levelwise
from .recursive import NodeStats, grow_tree
from .subsets import MAX_EXHAUSTIVE_CATEGORIES, node_subset_candidates, subset_candidates
from .surrogates import absolute_improvement, rpart_left_branch, surrogate_splits

__all__ = ["MISSING_RULES", "cart_split_finder", "grow_cart", "learn_candidates",
           "learn_split_of_sums", "missing_rule_of_tree"]

def _threshold_candidates(x, y, w, node, n_classes, criterion, min_samples_leaf,
                          min_weight_leaf=0.0):
    """Scores of every admissible cut of a numeric feature (the sorted scan)."""
    value, W = node
    if n_classes == 0:
        mom = threshold_moments(x, y, w)
        lower, upper, w_left = mom["lower"], mom["upper"], mom["W"]
    else:
        tt = threshold_tables(x, y, w, n_classes)
        lower, upper, tables = tt["lower"], tt["upper"], tt["tables"]
        w_left = side_weight(tables[:, 0, :])
    ok = upper > lower + FEATURE_THRESHOLD
    n_left = np.searchsorted(np.sort(x), lower, side="right")
    ok &= (n_left >= min_samples_leaf) & (x.shape[0] - n_left >= min_samples_leaf)
    w_right = W - w_left
    if min_weight_leaf > 0:
        ok &= (w_left >= min_weight_leaf) & (w_right >= min_weight_leaf)
    if not ok.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if n_classes == 0:
            s_left = mom["S1"] - w_left * value[0]
            score = criterion.split_proxy(s_left, w_left, w_right)
        else:
            score = class_split_score(tables[:, 0, :], value, w_left, w_right, n_classes,
                                      criterion)
    score, i = first_best(np.where(ok, score, -np.inf))  # ties: the smallest threshold
    return score, float(midpoint_threshold(lower[i], upper[i])), None


def _varies(x, categorical: bool) -> bool:
    """Whether a feature can split the node at all (see :mod:`treebook.core.feature_draw`)."""
    x = x[~np.isnan(x)]
    if x.size == 0:
        return False
    if categorical:
        return np.unique(x).size > 1
    return bool(x.max() > x.min() + FEATURE_THRESHOLD)


#: CART's rules for missing values (the ``missing=`` parameter)
MISSING_RULES = ("learn", "surrogate", "error")


def learn_candidates(x, y, w, node, n_classes, criterion, categorical, n_categories,
                      min_samples_leaf, min_weight_leaf=0.0):
    """scikit-learn's split search on a feature with missing values (``_splitter.pyx``,
    1.9): every cut of the known values twice, the missing rows on the right and then on
    the left, and last the split of the known rows (left) from the missing ones (right,
    threshold +inf). Returns ``(score, threshold, codes, missing_go)`` or None."""
    value, W = node
    nan = np.isnan(x)
    xk, yk, wk = x[~nan], y[~nan], w[~nan]
    n_miss = int(nan.sum())
    if xk.size == 0:
        return None
    stat_m = _row_order_sums(y[nan], w[nan], n_classes)
    if categorical:
        stat_k = _row_order_sums(yk, wk, n_classes)
        cands = node_subset_candidates(xk.astype(np.int64), yk, wk, n_classes, n_categories)
        if cands is None:
            return None
        left, n_left = cands.sums()
    else:
        if not xk.max() > xk.min() + FEATURE_THRESHOLD:
            return None  # constant known values: scikit-learn skips the feature
        # the known rows' totals are the scan's last prefix sums (sorted order), so the
        # split known | missing scores as the cut after the last known value does
        if n_classes == 0:
            mom = threshold_moments(xk, yk, wk)
            lower, upper = mom["lower"], mom["upper"]
            left = np.stack([mom["W"], mom["S1"]], axis=1)
            stat_k = np.array([mom["W_tot"], mom["S1_tot"]])
        else:
            tt = threshold_tables(xk, yk, wk, n_classes)
            lower, upper = tt["lower"], tt["upper"]
            left = tt["tables"][:, 0, :]
            stat_k = np.asarray(tt["known"], dtype=float)
        ok = upper > lower + FEATURE_THRESHOLD
        lower, upper, left = lower[ok], upper[ok], left[ok]
        n_left = np.searchsorted(np.sort(xk), lower, side="right")
        thresholds = midpoint_threshold(lower, upper)
    found = learn_split_of_sums(left, n_left, stat_k, stat_m, xk.size, n_miss, node,
                                n_classes, criterion, min_samples_leaf, min_weight_leaf)
    if found is None:
        return None
    score, j, go = found
    if categorical:
        return score, np.nan, cands.branch_of_code(j), go
    return score, (float(thresholds[j]) if j >= 0 else np.inf), None, go


def _row_order_sums(y, w, n_classes):
    """The sums of some rows added one row after another in row order (``np.bincount``):
    ``[Σ w, Σ w·y]`` in regression, else the class weights. (Not ``np.dot``/``np.sum``,
    whose order of addition depends on the BLAS build and the length: the level-wise
    grower's kernels add these numbers in this order too.)"""
    if n_classes == 0:
        zero = np.zeros(y.shape[0], dtype=np.intp)
        return np.array([np.bincount(zero, weights=w, minlength=1)[0],
                         np.bincount(zero, weights=w * y, minlength=1)[0]])
    return np.bincount(y, weights=w, minlength=n_classes).astype(float)


def learn_split_of_sums(left, n_left, stat_k, stat_m, n_known: int, n_missing: int, node,
                        n_classes, criterion, min_samples_leaf, min_weight_leaf=0.0):
    """scikit-learn's choice among a feature's candidates when some rows miss it
    (``_splitter.pyx``, 1.9), from sums only: ``left[c]`` the known rows' sums left of
    candidate ``c`` (class weights, or ``[Σ w, Σ w·y]``), ``n_left[c]`` their count,
    ``stat_k``/``stat_m`` the sums of all known / missing rows. The candidates, in this
    order: every ``c`` with the missing rows right, every ``c`` with them left, and the
    split of the known rows (left) from the missing ones (right). Returns ``(score, c,
    missing_go)`` — ``c = -1`` for the known | missing split, ``missing_go`` 1 (right)
    or 0 (left) — or None when no candidate keeps ``min_samples_leaf`` rows (and
    ``min_weight_leaf``) each side."""
    value, W = node
    lefts = np.concatenate([left, left + stat_m, stat_k[None, :]])
    n_lefts = np.concatenate([n_left, n_left + n_missing, [n_known]])
    go = np.concatenate([np.ones(len(left), np.int64), np.zeros(len(left), np.int64), [1]])
    which = np.concatenate([np.arange(len(left)), np.arange(len(left)), [-1]])
    n = n_known + n_missing
    ok = (n_lefts >= min_samples_leaf) & (n - n_lefts >= min_samples_leaf)
    w_left = lefts[:, 0] if n_classes == 0 else side_weight(lefts)
    w_right = W - w_left
    if min_weight_leaf > 0:
        ok &= (w_left >= min_weight_leaf) & (w_right >= min_weight_leaf)
    if not ok.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if n_classes == 0:
            score = criterion.split_proxy(lefts[:, 1] - w_left * value[0], w_left, w_right)
        else:
            score = class_split_score(lefts, value, w_left, w_right, n_classes, criterion)
    score, i = first_best(np.where(ok, score, -np.inf))
    return score, int(which[i]), int(go[i])


def cart_split_finder(*, n_classes: int, criterion, categorical, n_categories,
                      min_samples_leaf: int, min_impurity_decrease: float, root_weight: float,
                      max_features: int | None = None, seed: int = 0,
                      min_weight_leaf: float = 0.0, missing: str = "error",
                      max_surrogates: int = 5, feature_order=None):
    """CART's split finder for :func:`treebook.growers.recursive.grow_tree`.

    ``criterion`` is a name in :data:`treebook.core.criteria.CRITERIA` or a criterion object.
    For every feature, the best binary split by the sorted scan (numeric) or the subset
    search (categorical); across features the highest score, ties to the first feature
    (in column order, or in ``feature_order``, a permutation of the columns).
    Returns ``None`` when no cut keeps ``min_samples_leaf`` rows on each side, or when the
    weighted impurity improvement (scikit-learn's formula, ``Split.score``) plus ``eps``
    is below ``min_impurity_decrease``. With ``max_features = k`` the node considers only
    ``k`` features drawn by :mod:`treebook.core.feature_draw` from ``seed``.

    ``missing`` is the rule for missing values (NaN): ``"error"`` (none may occur),
    ``"learn"`` (scikit-learn's: a feature with missing values at the node is scanned with
    them on either side, :func:`learn_candidates`; the split remembers their side) or
    ``"surrogate"`` (rpart's: each feature is scored on its known rows by the impurity
    decrease in units of weight, the split stores its :func:`surrogate_splits` and sends
    a case missing them all the way with more known weight — except with
    ``max_surrogates = 0``, where, as in rpart, a case missing the primary feature stays
    at the node: the children hold the cases whose primary is known).
    """
    if missing not in MISSING_RULES:
        raise ValueError(f"missing must be one of {MISSING_RULES}; got {missing!r}")
    categorical = np.asarray(categorical, dtype=bool)
    criterion = get_criterion(criterion, regression=n_classes == 0)

    order = None if feature_order is None else np.asarray(feature_order, dtype=np.int64)

    def find(X, y, w, rows, available):
        if max_features is not None:
            m = X.shape[1]
            varies = np.array([bool(available[f]) and _varies(X[rows, f], categorical[f])
                               for f in range(m)])
            perm = node_permutation(seed, rows.size, rows.min(), rows.sum(), m)
            available = features_to_consider(perm, varies, max_features)[0]
        yr = y[rows]
        value, W, _, imp_node = node_summaries(np.zeros(rows.shape[0], np.intp), yr, w, 1,
                                               n_classes, criterion)
        node = (value[0], W[0])
        if W[0] < 2 * min_weight_leaf:  # no two children could each hold min_weight_leaf
            return None
        best = None
        for f in (np.flatnonzero(available) if order is None
                  else order[np.asarray(available, dtype=bool)[order]]):
            x = X[rows, f]
            nan = np.isnan(x)
            go = -1
            if missing == "surrogate":
                cand = _known_candidates(x, nan, yr, w, f)
            elif nan.any():
                if missing == "error":
                    raise ValueError(f"feature {f} has missing values at a node, but "
                                     "missing='error'")
                cand = learn_candidates(x, yr, w, node, n_classes, criterion, categorical[f],
                                         n_categories[f], min_samples_leaf, min_weight_leaf)
                if cand is not None:
                    cand, go = cand[:3], cand[3]
            elif categorical[f]:
                cand = subset_candidates(x, yr, w, node, n_classes, n_categories[f],
                                          criterion, min_samples_leaf, min_weight_leaf)
            else:
                cand = _threshold_candidates(x, yr, w, node, n_classes, criterion,
                                             min_samples_leaf, min_weight_leaf)
            if cand is not None and (best is None or tie_floor(cand[0]) > best[1]):
                best = (int(f), *cand, go)
        if best is None:
            return None
        f, score, threshold, codes, go = best
        x = X[rows, f]
        nan = np.isnan(x)
        if codes is None:
            right = x > threshold
            split = Split(feature=f, kind=NodeKind.THRESHOLD, score=0.0, threshold=threshold)
        else:
            right = np.zeros(x.shape[0], dtype=bool)
            right[~nan] = codes[x[~nan].astype(np.int64)] == 1
            split = Split(feature=f, kind=NodeKind.SUBSET, score=0.0, branch_of_code=codes)
        if missing == "surrogate":
            # rpart: the improvement of the known rows, in units of weight
            improvement = absolute_improvement(right[~nan], yr[~nan], w[~nan], n_classes,
                                                criterion) / root_weight
            direction = np.where(nan, -1, right.astype(np.int64))
            left_b = rpart_left_branch(right[~nan], yr[~nan], w[~nan], n_classes)
            split.surrogates = surrogate_splits(X[rows], direction, w, f, categorical,
                                                left_b, max_surrogates)
            # rpart's lastsurrogate (surrogate.c): the branch with more weight among the
            # rows whose primary is known, 0 ("no default": the case stays here) on a
            # tie — and when maxsurrogate = 0, where partition.c never calls surrogate()
            # and the node's lastsurrogate keeps its calloc'd 0
            t_b = np.array([w[direction == 0].sum(), w[direction == 1].sum()])
            split.missing_go = (-1 if max_surrogates == 0 or t_b[0] == t_b[1]
                                else int(np.argmax(t_b)))
            split.unseen_as_missing = True
        else:
            if go >= 0:
                right |= nan & (go == 1)
                split.missing_go = go
            _, cW, _, c_imp = node_summaries(right.astype(np.intp), yr, w, 2, n_classes,
                                             criterion)
            Wt = W[0]
            improvement = (Wt / root_weight) * (imp_node[0] - (cW[1] / Wt * c_imp[1])
                                                - (cW[0] / Wt * c_imp[0]))
        if improvement + IMPURITY_TOLERANCE < min_impurity_decrease:
            return None
        split.score = float(improvement)
        split.info = {"improvement": float(improvement), "scan_score": score}
        return split

    def _known_candidates(x, nan, yr, w, f):
        """rpart's score of feature ``f``: its best split of the known rows, scored by
        the impurity decrease in units of weight (``bsplit.c``: ``improve``)."""
        xk, yk, wk = x[~nan], yr[~nan], w[~nan]
        if xk.size < 2:
            return None
        known = node_summaries(np.zeros(xk.shape[0], np.intp), yk, wk, 1, n_classes,
                               criterion)
        knode = (known.value[0], known.weighted_n[0])
        if categorical[f]:
            cand = subset_candidates(xk, yk, wk, knode, n_classes, n_categories[f],
                                      criterion, min_samples_leaf, min_weight_leaf)
        else:
            cand = _threshold_candidates(xk, yk, wk, knode, n_classes, criterion,
                                         min_samples_leaf, min_weight_leaf)
        if cand is None:
            return None
        _, threshold, codes = cand
        if codes is None:
            # rpart cuts at (a + b)/2 and sends x < cut one way: the largest double below
            # that cut is the same test written as treebook's x <= t
            a, b = xk[xk <= threshold].max(), xk[xk > threshold].min()
            threshold = float(np.nextafter((a + b) / 2, -np.inf))
        right = (xk > threshold) if codes is None else codes[xk.astype(np.int64)] == 1
        improve = absolute_improvement(right, yk, wk, n_classes, criterion)
        if not improve > 0:
            return None
        return improve, threshold, codes

    return find


def grow_cart(X, y, sample_weight, *, n_classes: int, criterion, categorical=None,
              n_categories=None, max_depth=None, min_samples_split: int = 2,
              min_samples_leaf: int = 1, min_impurity_decrease: float = 0.0,
              grower: str = "recursive", metadata: dict | None = None,
              max_features: int | None = None, seed: int = 0,
              min_weight_leaf: float = 0.0, missing: str = "error",
              max_surrogates: int = 5, max_leaf_nodes: int | None = None,
              feature_order=None) -> Tree:
    """Grow a CART tree with the recursive grower (``grower="recursive"``, any features)
    or the level-wise grower (``"levelwise"``; categorical columns through the same subset search
    as the recursive one, :func:`subset_candidates`; missing values only with
    ``missing="learn"``). ``max_features``
    (a count, or None for all) and ``seed``: the random features per node of
    :mod:`treebook.core.feature_draw`, the same in both growers. ``missing``: the rule for
    missing values (:func:`cart_split_finder`; the level-wise grower has ``"learn"`` only). ``max_leaf_nodes`` (an int
    >= 2): grow best-first to at most that many leaves
    (:func:`treebook.growers.bestfirst.grow_best_first`, with the recursive grower's split finder
    and node statistics). ``feature_order`` (a permutation of the columns; None: column
    order): between features whose best cuts tie, the first in this order wins, in every
    grower."""
    X = np.asarray(X, dtype=float)
    w = np.asarray(sample_weight, dtype=float)
    criterion = get_criterion(criterion, regression=n_classes == 0)
    categorical = (np.zeros(X.shape[1], bool) if categorical is None
                   else np.asarray(categorical, dtype=bool))
    params = dict(n_classes=n_classes, criterion=criterion, max_depth=max_depth,
                  min_samples_split=min_samples_split, min_samples_leaf=min_samples_leaf,
                  min_impurity_decrease=min_impurity_decrease, metadata=metadata)
    if max_leaf_nodes is not None and grower == "levelwise":
        raise ValueError("max_leaf_nodes grows best-first, not level by level: use "
                         "grower='recursive' (or 'auto')")
    if grower == "levelwise":
        params.update(max_features=max_features, seed=seed, min_weight_leaf=min_weight_leaf,
                      feature_order=feature_order)
        if categorical.any():  # the same subset search, node by node
            params.update(categorical=categorical, n_categories=n_categories,
                          subset_split=subset_candidates,
                          max_exhaustive_categories=MAX_EXHAUSTIVE_CATEGORIES)
        if np.isnan(X).any():
            if missing != "learn":
                raise ValueError("grower='levelwise' has only scikit-learn's rule for "
                                 "missing values (missing='learn'); use grower='recursive' "
                                 "(or 'auto') for data with NaN and missing="
                                 f"{missing!r}")
            params.update(missing="learn", learn_split=learn_candidates)
        return grow_levelwise(X, y, w, **params)
    if grower != "recursive":
        raise ValueError(f"grower must be 'levelwise' or 'recursive'; got {grower!r}")
    if np.any(w == 0):  # zero-weight rows take no part (scikit-learn drops them too)
        keep = w > 0
        X, y, w = X[keep], np.asarray(y)[keep], w[keep]
    y = np.asarray(y, dtype=float if n_classes == 0 else np.int64)
    root_weight = float(node_summaries(np.zeros(X.shape[0], np.intp), y, w, 1, n_classes,
                                       criterion)[1][0])
    n_categories = n_categories if n_categories is not None else [0] * X.shape[1]
    finder = cart_split_finder(n_classes=n_classes, criterion=criterion,
                               categorical=categorical, n_categories=n_categories,
                               min_samples_leaf=min_samples_leaf,
                               min_impurity_decrease=min_impurity_decrease,
                               root_weight=root_weight, max_features=max_features, seed=seed,
                               min_weight_leaf=min_weight_leaf, missing=missing,
                               max_surrogates=max_surrogates, feature_order=feature_order)

    def stats(rows, w_rows):
        value, W, _, imp_node = node_summaries(np.zeros(rows.shape[0], np.intp), y[rows],
                                               w_rows, 1, n_classes, criterion)
        return NodeStats(value[0], float(W[0]), float(imp_node[0]),
                         bool(imp_node[0] <= IMPURITY_TOLERANCE))

    grow = grow_tree
    if max_leaf_nodes is not None:
        grow = partial(grow_best_first, max_leaf_nodes=max_leaf_nodes)
    return grow(X, y, w, find_split=finder, n_classes=n_classes, max_depth=max_depth,
                min_samples_split=max(min_samples_split, 2 * min_samples_leaf),
                min_gain=-np.inf, metadata=metadata, node_stats=stats,
                missing="error" if missing == "error" else "stop")


def missing_rule_of_tree(tree: Tree, missing: str) -> Tree:
    """The tree with CART's prediction-time rule for missing values in ``missing_go``.

    ``"learn"`` (scikit-learn): a node whose split saw missing values keeps the side the
    scan chose for them; any other internal node sends them to the child with more
    training rows (counted unweighted, ties to the right). ``"surrogate"`` (rpart's
    ``pred_rpart.c``, ``usesurrogate = 2``): a case missing the primary feature and every
    surrogate goes to the child with more training rows; on a tie it stays at the node.
    """
    from dataclasses import replace

    internal = ~tree.is_leaf
    ids = np.flatnonzero(internal)
    ptr = tree.children_ptr[ids]
    n_left = tree.n_samples[tree.children[ptr]]
    n_right = tree.n_samples[tree.children[ptr + 1]]
    go = np.full(tree.node_count, -1, dtype=np.int64)
    if missing == "learn":
        learnt = (np.full(tree.node_count, -1, np.int64) if tree.missing_go is None
                  else tree.missing_go)
        by_count = np.where(n_left > n_right, 0, 1)
        go[ids] = np.where(learnt[ids] >= 0, learnt[ids], by_count)
    elif missing == "surrogate":
        go[ids] = np.where(n_left > n_right, 0, np.where(n_right > n_left, 1, -1))
    else:
        return tree
    return replace(tree, missing_go=go, unseen_as_missing=missing == "surrogate")
