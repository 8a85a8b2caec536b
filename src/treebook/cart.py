"""CART (Breiman, Friedman, Olshen and Stone 1984): binary trees for classes and numbers.

Every split is binary. A numeric feature ``x`` is cut at the midpoint ``t`` of two
adjacent distinct values at the node (``x <= t`` goes left); a categorical feature splits
its categories into two subsets. The split chosen maximises the decrease of impurity: Gini
or entropy for classes, squared error (variance) for regression.

The numerics follow scikit-learn's ``DecisionTreeClassifier``/``Regressor``
{cite}`pedregosa2011`, so that on numeric data where no two candidate splits tie the two
packages grow the same tree:

* a cut lies between sorted neighbours ``v < v'`` only when ``v' > v + 1e-7``
  (scikit-learn's ``FEATURE_THRESHOLD``), at ``t = v/2 + v'/2`` (``v`` if that rounds up
  to ``v'``);
* both children must keep ``min_samples_leaf`` rows; a node with fewer than
  ``max(min_samples_split, 2·min_samples_leaf)`` rows, with impurity ``<= eps`` (machine
  epsilon) or at ``max_depth`` is a leaf;
* the weighted impurity improvement
  ``(|D|/|D_root|)·(I(D) - |D_1|/|D|·I(D_1) - |D_2|/|D|·I(D_2))`` plus ``eps`` must reach
  ``min_impurity_decrease``;
* rows with zero sample weight take no part.

**Ties.** scikit-learn visits features in a random order (``random_state``) and keeps
the first best split it meets, so when two splits score the same its choice depends on
the seed. Here the tree is deterministic: scores within a relative ``1e-12`` of each
other tie (two features that cut the same rows score the same up to rounding), and the
first feature in column order wins, then within a feature the smallest threshold.
``random_state`` is accepted so that code written for scikit-learn runs, and is used
only by ``max_features`` draws and by ``tie_break="random"``, which breaks ties by a
random order of the columns drawn once per tree (what the forests use).

**Categorical features** (pandas categorical/object/bool columns) split into two subsets
of the categories present at the node:

* two classes, or regression: the categories are sorted by the proportion of class 1
  (by the mean response) and only the ``L - 1`` cuts along that order are scanned; one of
  them is optimal (Breiman et al.; Fisher 1958 for regression; chapter 4 proves it), so
  the result is the best of all ``2^(L-1) - 1`` subsets;
* three or more classes: every subset is tried when at most 12 categories are present
  (at most 2047 partitions); above that, a heuristic — for each class ``k``, the cuts
  along the order of the proportion of class ``k`` — which is *not* guaranteed optimal;
* a category absent at the node gets no branch: a case with it stops at the node and
  receives the node's distribution (as does a category never seen in training).

**Growers.** Data without missing values grow with the fast level-wise grower
(:func:`treebook.levelwise.grow_levelwise`, compiled kernels; categorical columns through
the same subset search); the readable recursive grower (:func:`treebook.grow.grow_tree`
with :func:`cart_split_finder`) builds the identical tree (tested); ``grower=`` chooses
explicitly; data with missing values grow level-wise too under ``missing="learn"`` (the
same tree as the recursive grower's, tested), recursively under ``missing="surrogate"``.

**Missing values** (NaN, None and ``pd.NA`` alike, :mod:`treebook.encoding`):
``missing="learn"`` (the default) is scikit-learn's rule (1.9, ``_splitter.pyx``): every
cut is tried with the missing rows on the left and on the right, and the split of the
known rows from the missing ones (threshold +inf) is a candidate too; a node whose
training rows had no missing value sends one at prediction to the child with more
training rows (ties to the right). ``missing="surrogate"`` is Breiman et al.'s (ch. 5.3)
as rpart computes it (``bsplit.c``, ``surrogate.c``, ``choose_surg.c``, ``nodesplit.c``,
``pred_rpart.c``): a feature is scored on its known rows by the impurity decrease in
units of weight (so a feature with many missing values scores less), the node keeps up to
``max_surrogates`` surrogate splits (:func:`surrogate_splits`), and a case missing the
primary feature follows the first surrogate it has, else the majority way (also a
category the node never saw). ``missing="error"`` refuses missing values.

**Sparse input.** A ``scipy.sparse`` matrix (any format) is never densified: it grows
through :func:`treebook.sparse_scan.grow_sparse_cart`, which scans only the stored
entries and grows the tree the dense input grows (``grower`` is then not used;
``max_features`` and ``max_leaf_nodes`` as for dense X; ``missing="surrogate"`` is
refused, and so are NaN stored in the matrix, as scikit-learn 1.9 refuses them);
``predict``, ``apply`` and ``decision_path`` take sparse rows too.

**Pruning.** ``ccp_alpha > 0`` prunes the grown tree by minimal cost-complexity pruning
(:mod:`treebook.prune.cost_complexity`); ``ccp_risk`` chooses the risk ``R(t)``
(``"impurity"``: scikit-learn's; ``"misclassification"``: Breiman et al.'s and rpart's).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from .base import (AnyOf, DecisionTreeClassifierBase, DecisionTreeRegressorBase, Interval,
                   Options, RandomState, Registered, clone)
from .criteria import Criterion, criterion_names, get_criterion
from .feature_draw import draw_seed, features_to_consider, node_permutation, resolve_max_features
from .bestfirst import grow_best_first
from .grow import NodeStats, grow_tree
from .levelwise import grow_levelwise
from .sparse_scan import (check_sparse_X, grow_sparse_cart, is_sparse, sparse_apply,
                          sparse_decision_path)
from .splits import (
    FEATURE_THRESHOLD,
    Surrogate,
    IMPURITY_TOLERANCE,
    Split,
    all_subset_masks,
    categorical_table,
    category_order,
    class_split_score,
    first_best,
    midpoint_threshold,
    node_summaries,
    ordered_subset_masks,
    subset_branch_of_code,
    subset_tables,
    threshold_moments,
    tie_floor,
    threshold_tables,
)
from .tree import NodeKind, Tree

__all__ = [
    "CARTClassifier",
    "CARTRegressor",
    "cart_split_finder",
    "grow_cart",
    "category_stats",
    "subset_masks",
    "subset_split_of_stats",
    "learn_split_of_sums",
    "naive_best_threshold",
    "surrogate_splits",
    "missing_rule_of_tree",
    "dict_class_weights",
    "MISSING_RULES",
    "MAX_EXHAUSTIVE_CATEGORIES",
]

#: with three or more classes, every subset split is tried up to this many categories
MAX_EXHAUSTIVE_CATEGORIES = 12


# ------------------------------------------------------------------ one node, one feature
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
        w_left = tables[:, 0, :].sum(axis=1)
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


def category_stats(codes, y, w, n_classes: int, n_categories: int):
    """Per-category sums of a node's rows: ``(stats, rows_per_category)``, ``stats`` the
    class table ``(L, K)`` (:func:`treebook.splits.categorical_table`) or, for
    regression (``n_classes=0``), ``[Σ w, Σ w·y]`` per category. ``codes``: integer
    category codes ``0 … L-1`` (no missing values)."""
    codes = np.asarray(codes, dtype=np.int64)
    rows_per_cat = np.bincount(codes, minlength=n_categories)
    if n_classes == 0:
        Wc = np.bincount(codes, weights=w, minlength=n_categories)
        S1c = np.bincount(codes, weights=w * y, minlength=n_categories)
        return np.stack([Wc, S1c], axis=1), rows_per_cat
    table, _ = categorical_table(codes.astype(float), y, w, n_categories, n_classes)
    return table, rows_per_cat


def subset_masks(stats, present, n_classes: int, n_categories: int) -> np.ndarray:
    """The category subsets CART scores at a node, as left masks ``(S, L)``, from the
    per-category sums ``stats`` of :func:`category_stats` (or the same sums from a
    histogram) and the ``present`` categories: Breiman's ordering for two classes (by
    class-1 proportion) and regression (by mean), all subsets of the present categories
    for K >= 3 up to ``MAX_EXHAUSTIVE_CATEGORIES``, else the orderings by each class."""
    if n_classes == 0:
        Wc, S1c = stats[:, 0], stats[:, 1]
        means = np.divide(S1c, Wc, out=np.zeros_like(S1c), where=Wc > 0)
        return ordered_subset_masks(category_order(Wc[:, None], means=means), n_categories)
    if n_classes == 2:
        return ordered_subset_masks(category_order(stats), n_categories)
    if present.size <= MAX_EXHAUSTIVE_CATEGORIES:
        return all_subset_masks(present, n_categories)
    return np.concatenate([ordered_subset_masks(category_order(stats, by=k), n_categories)
                           for k in range(n_classes)])


def _subset_masks(codes, y, w, n_classes: int, n_categories: int):
    """:func:`subset_masks` of a node's rows: ``(masks, stats, rows_per_category,
    present)``, or None with < 2 categories present."""
    stats, rows_per_cat = category_stats(codes, y, w, n_classes, n_categories)
    present = np.flatnonzero(rows_per_cat > 0)
    if present.size < 2:
        return None
    return subset_masks(stats, present, n_classes, n_categories), stats, rows_per_cat, present


def subset_split_of_stats(stats, rows_per_cat, node, n_classes, n_categories, criterion,
                          min_samples_leaf, min_weight_leaf=0.0):
    """Best split of a categorical feature into two category subsets, from its
    per-category sums (:func:`category_stats`): ``(score, nan, branch_of_code)`` or None.
    ``node = (value, W)``: the node's class weights (mean response) and weight."""
    value, W = node
    present = np.flatnonzero(rows_per_cat > 0)
    if present.size < 2:
        return None
    masks = subset_masks(stats, present, n_classes, n_categories)
    if n_classes == 0:
        sides = masks.astype(float) @ stats
        w_left = sides[:, 0]
        s_left = sides[:, 1] - w_left * value[0]
    else:
        left_table = subset_tables(stats, masks)[:, 0, :]
        w_left = left_table.sum(axis=1)
    n_left = masks.astype(np.int64) @ rows_per_cat
    n_rows = int(rows_per_cat.sum())
    ok = (n_left >= min_samples_leaf) & (n_rows - n_left >= min_samples_leaf)
    w_right = W - w_left
    if min_weight_leaf > 0:
        ok &= (w_left >= min_weight_leaf) & (w_right >= min_weight_leaf)
    if not ok.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if n_classes == 0:
            score = criterion.split_proxy(s_left, w_left, w_right)
        else:
            score = class_split_score(left_table, value, w_left, w_right, n_classes, criterion)
    score, i = first_best(np.where(ok, score, -np.inf))
    return score, np.nan, subset_branch_of_code(masks[i], present)


def _subset_candidates(codes, y, w, node, n_classes, n_categories, criterion,
                       min_samples_leaf, min_weight_leaf=0.0):
    """Best split of a categorical feature into two category subsets
    (:func:`subset_split_of_stats` on the node's rows)."""
    stats, rows_per_cat = category_stats(codes, y, w, n_classes, n_categories)
    return subset_split_of_stats(stats, rows_per_cat, node, n_classes, n_categories,
                                 criterion, min_samples_leaf, min_weight_leaf)


def _varies(x, categorical: bool) -> bool:
    """Whether a feature can split the node at all (see :mod:`treebook.feature_draw`)."""
    x = x[~np.isnan(x)]
    if x.size == 0:
        return False
    if categorical:
        return np.unique(x).size > 1
    return bool(x.max() > x.min() + FEATURE_THRESHOLD)


# ------------------------------------------------------------------ missing values
#: CART's rules for missing values (the ``missing=`` parameter)
MISSING_RULES = ("learn", "surrogate", "error")


def _learn_candidates(x, y, w, node, n_classes, criterion, categorical, n_categories,
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
    if n_classes == 0:
        stat_k = np.array([wk.sum(), np.dot(wk, yk)])
        stat_m = np.array([w[nan].sum(), np.dot(w[nan], y[nan])])
    else:
        stat_k = np.bincount(yk, weights=wk, minlength=n_classes).astype(float)
        stat_m = np.bincount(y[nan], weights=w[nan], minlength=n_classes).astype(float)
    if categorical:
        found = _subset_masks(xk.astype(np.int64), yk, wk, n_classes, n_categories)
        if found is None:
            return None
        masks, stats, rows_per_cat, present = found
        left = masks.astype(float) @ stats
        n_left = masks.astype(np.int64) @ rows_per_cat
        thresholds = np.full(masks.shape[0], np.nan)
    else:
        if not xk.max() > xk.min() + FEATURE_THRESHOLD:
            return None  # constant known values: scikit-learn skips the feature
        if n_classes == 0:
            mom = threshold_moments(xk, yk, wk)
            lower, upper = mom["lower"], mom["upper"]
            left = np.stack([mom["W"], mom["S1"]], axis=1)
        else:
            tt = threshold_tables(xk, yk, wk, n_classes)
            lower, upper = tt["lower"], tt["upper"]
            left = tt["tables"][:, 0, :]
        ok = upper > lower + FEATURE_THRESHOLD
        lower, upper, left = lower[ok], upper[ok], left[ok]
        n_left = np.searchsorted(np.sort(xk), lower, side="right")
        thresholds = midpoint_threshold(lower, upper)
        masks = None
    found = learn_split_of_sums(left, n_left, stat_k, stat_m, xk.size, n_miss, node,
                                n_classes, criterion, min_samples_leaf, min_weight_leaf)
    if found is None:
        return None
    score, j, go = found
    if categorical:
        mask = masks[j] if j >= 0 else np.isin(np.arange(n_categories), present)
        return score, np.nan, subset_branch_of_code(mask, present), go
    return score, (float(thresholds[j]) if j >= 0 else np.inf), None, go


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
    w_left = lefts[:, 0] if n_classes == 0 else lefts.sum(axis=1)
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


def _absolute_improvement(right, y, w, n_classes, criterion):
    """``|D|·I(D) - |D_1|·I(D_1) - |D_2|·I(D_2)`` of a split of the rows (rpart's
    ``improve``: the impurity decrease in units of weight, not divided by ``|D|``)."""
    value, W, _, imp = node_summaries(np.zeros(y.shape[0], np.intp), y, w, 1, n_classes,
                                      criterion)
    _, cW, _, c_imp = node_summaries(right.astype(np.intp), y, w, 2, n_classes, criterion)
    return float(W[0] * imp[0] - cW[0] * c_imp[0] - cW[1] * c_imp[1])


def rpart_left_branch(right, y, w, n_classes) -> int:
    """The branch rpart calls LEFT (``gini.c``, ``anova.c``): the side whose mean class
    code (classification) or mean response (regression) is smaller; on a tie, the side
    ``x >= t`` (branch 1). ``right``: the known rows' branch (True = branch 1)."""
    key = y.astype(float)  # classes: Σ_j j·p(j | side) is the mean class code
    means = [np.dot(w[right == b], key[right == b]) / w[right == b].sum() for b in (0, 1)]
    return 0 if means[0] < means[1] else 1


def surrogate_splits(X, direction, w, primary: int, categorical, left_branch: int = 0,
                     max_surrogates: int = 5):
    """rpart's surrogate splits of a node (``surrogate.c``, ``choose_surg.c``), ranked.

    ``X``: the node's rows; ``direction``: the primary split's branch of each row (0 or 1,
    -1 where the primary feature is missing); ``left_branch``: the branch rpart calls
    LEFT (:func:`rpart_left_branch`, for its tie rule on categories). For every other
    feature, the split that sends the most weight the primary's way among the rows where
    both are known:

    * numeric: the cut between distinct sorted values with at least 2 rows on each side,
      ``x < t`` going one way, whose agreeing weight beats the majority's;
    * categorical: each category the way most of its weight goes (ties: the majority
      way), kept when at least 2 rows agree and 2 disagree.

    ``agreement = agree / T`` with ``T`` the weight with a known direction (rpart's
    default ``surrogatestyle = 0``), the majority baseline ``m = max(T_0, T_1) / T``, and
    a surrogate is kept only when ``adj = (agreement - m) / (1 - m) > 1e-10``. The best
    ``max_surrogates`` by agreement are returned (ties: the first feature).
    """
    known_dir = direction >= 0
    t_b = np.array([w[direction == 0].sum(), w[direction == 1].sum()])
    total = t_b.sum()
    if total <= 0 or max_surrogates <= 0:
        return ()
    majority = t_b.max() / total
    found = []
    for g in range(X.shape[1]):
        if g == primary:
            continue
        x = X[:, g]
        use = known_dir & ~np.isnan(x)
        xs, d, ws = x[use], direction[use], w[use]
        if xs.size == 0:
            continue
        if categorical[g]:
            codes = xs.astype(np.int64)
            L = left_branch
            m = int(codes.max()) + 1
            lw = np.bincount(codes, weights=np.where(d == L, ws, 0.0), minlength=m)
            rw = np.bincount(codes, weights=np.where(d != L, ws, 0.0), minlength=m)
            ln = np.bincount(codes[d == L], minlength=m)
            rn = np.bincount(codes[d != L], minlength=m)
            defdir_right = not lw.sum() > rw.sum()
            present = (ln + rn) > 0
            to_right = (lw < rw) | ((lw == rw) & defdir_right)
            agree = float(np.where(to_right, rw, lw)[present].sum())
            disagree_n = int(np.where(to_right, ln, rn)[present].sum())
            agree_n = int(np.where(to_right, rn, ln)[present].sum())
            if not (disagree_n > 1 and agree_n > 1):
                continue
            boc = np.where(present, np.where(to_right, 1 - L, L), -1).astype(np.int64)
            cand = dict(kind=NodeKind.SUBSET, branch_of_code=boc)
        else:
            # every row with a known x takes part in placing the cut (rpart walks them
            # all, rows with a missing primary too), only known directions count
            xa = x[~np.isnan(x)]
            da = direction[~np.isnan(x)]
            wa = w[~np.isnan(x)]
            order = np.argsort(xa, kind="stable")
            xa, da, wa = xa[order], da[order], wa[order]
            n = xa.size
            w0, w1 = np.where(da == 0, wa, 0.0), np.where(da == 1, wa, 0.0)
            low0 = np.concatenate([[0.0], np.cumsum(w0)])[:-1]  # before position i
            low1 = np.concatenate([[0.0], np.cumsum(w1)])[:-1]
            n_low = np.concatenate([[0], np.cumsum(da >= 0)])[:-1]
            n_known = int(np.count_nonzero(da >= 0))
            tot0, tot1 = w0.sum(), w1.sum()
            cut = ((n_low >= 2) & (n_known - n_low >= 2)
                   & np.concatenate([[False], xa[1:] != xa[:-1]]))
            if not cut.any():
                continue
            a0 = low0 + (tot1 - low1)  # the low side goes to branch 0
            a1 = low1 + (tot0 - low0)
            best = np.maximum(a0, a1)
            start = max(tot0, tot1)
            cand_i = np.flatnonzero(cut)
            top = best[cand_i].max()
            if not top > start:
                continue
            k = cand_i[np.flatnonzero(best[cand_i] == top)[0]]
            agree = float(best[k])
            cand = dict(kind=NodeKind.THRESHOLD, threshold=float((xa[k - 1] + xa[k]) / 2),
                        low_branch=0 if a0[k] >= a1[k] else 1)
        agreement = agree / total
        adj = (agreement - majority) / (1.0 - majority)
        if adj <= 1e-10:
            continue
        found.append(Surrogate(feature=g, agreement=float(agreement), adjusted=float(adj),
                               **cand))
    found.sort(key=lambda s: -s.agreement)  # stable: ties keep feature order
    return tuple(found[:max_surrogates])


def cart_split_finder(*, n_classes: int, criterion, categorical, n_categories,
                      min_samples_leaf: int, min_impurity_decrease: float, root_weight: float,
                      max_features: int | None = None, seed: int = 0,
                      min_weight_leaf: float = 0.0, missing: str = "error",
                      max_surrogates: int = 5, feature_order=None):
    """CART's split finder for :func:`treebook.grow.grow_tree`.

    ``criterion`` is a name in :data:`treebook.criteria.CRITERIA` or a criterion object.
    For every feature, the best binary split by the sorted scan (numeric) or the subset
    search (categorical); across features the highest score, ties to the first feature
    (in column order, or in ``feature_order``, a permutation of the columns). Returns ``None`` when no cut keeps ``min_samples_leaf`` rows on each side, or when the
    weighted impurity improvement (scikit-learn's formula, ``Split.score``) plus ``eps``
    is below ``min_impurity_decrease``. With ``max_features = k`` the node considers only
    ``k`` features drawn by :mod:`treebook.feature_draw` from ``seed``.

    ``missing`` is the rule for missing values (NaN): ``"error"`` (none may occur),
    ``"learn"`` (scikit-learn's: a feature with missing values at the node is scanned with
    them on either side, :func:`_learn_candidates`; the split remembers their side) or
    ``"surrogate"`` (rpart's: each feature is scored on its known rows by the impurity
    decrease in units of weight, the split stores its :func:`surrogate_splits` and sends
    a case missing them all the majority way).
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
        for f in (np.flatnonzero(available) if order is None else order[np.asarray(available, dtype=bool)[order]]):
            x = X[rows, f]
            nan = np.isnan(x)
            go = -1
            if missing == "surrogate":
                cand = _known_candidates(x, nan, yr, w, f)
            elif nan.any():
                if missing == "error":
                    raise ValueError(f"feature {f} has missing values at a node, but "
                                     "missing='error'")
                cand = _learn_candidates(x, yr, w, node, n_classes, criterion, categorical[f],
                                         n_categories[f], min_samples_leaf, min_weight_leaf)
                if cand is not None:
                    cand, go = cand[:3], cand[3]
            elif categorical[f]:
                cand = _subset_candidates(x, yr, w, node, n_classes, n_categories[f],
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
            improvement = _absolute_improvement(right[~nan], yr[~nan], w[~nan], n_classes,
                                                criterion) / root_weight
            direction = np.where(nan, -1, right.astype(np.int64))
            left_b = rpart_left_branch(right[~nan], yr[~nan], w[~nan], n_classes)
            split.surrogates = surrogate_splits(X[rows], direction, w, f, categorical,
                                                left_b, max_surrogates)
            t_b = np.array([w[direction == 0].sum(), w[direction == 1].sum()])
            split.missing_go = -1 if t_b[0] == t_b[1] else int(np.argmax(t_b))
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
            cand = _subset_candidates(xk, yk, wk, knode, n_classes, n_categories[f],
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
        improve = _absolute_improvement(right, yk, wk, n_classes, criterion)
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
    as the recursive one, :func:`_subset_candidates`; missing values only with
    ``missing="learn"``). ``max_features``
    (a count, or None for all) and ``seed``: the random features per node of
    :mod:`treebook.feature_draw`, the same in both growers. ``missing``: the rule for
    missing values (:func:`cart_split_finder`; the level-wise grower has ``"learn"`` only). ``max_leaf_nodes`` (an int
    >= 2): grow best-first to at most that many leaves
    (:func:`treebook.bestfirst.grow_best_first`, with the recursive grower's split finder
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
                          subset_split=_subset_candidates,
                          max_exhaustive_categories=MAX_EXHAUSTIVE_CATEGORIES)
        if np.isnan(X).any():
            if missing != "learn":
                raise ValueError("grower='levelwise' has only scikit-learn's rule for "
                                 "missing values (missing='learn'); use grower='recursive' "
                                 "(or 'auto') for data with NaN and missing="
                                 f"{missing!r}")
            params.update(missing="learn", learn_split=_learn_candidates)
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


# ------------------------------------------------------------------ the naive scan
def naive_best_threshold(x, y, n_classes: int):
    """The O(n²) split search the sorted scan replaces, for comparison only.

    For every midpoint ``t`` between distinct values it builds the mask ``x <= t``,
    counts the classes on each side and computes the weighted Gini index
    ``Gini(D, t) = |D_1|/|D|·Gini(D_1) + |D_2|/|D|·Gini(D_2)``: ``O(n)`` work for each of
    up to ``n - 1`` thresholds. Returns ``(threshold, gini_index)`` of the first best.
    """
    from .impurity import gini_index

    x = np.asarray(x, dtype=float)
    y = np.asarray(y)
    values = np.unique(x)
    best_t, best_g = np.nan, np.inf
    for t in midpoint_threshold(values[:-1], values[1:]):
        left = x <= t
        table = np.stack([np.bincount(y[left], minlength=n_classes),
                          np.bincount(y[~left], minlength=n_classes)])
        g = gini_index(table, check=False)
        if g < best_g:
            best_t, best_g = float(t), float(g)
    return best_t, best_g


# ------------------------------------------------------------------ estimators
#: the parameter constraints CART and the forests built from it share
CART_CONSTRAINTS = {
    "max_depth": Interval(int, 1, None, allow_none=True),
    # an int is a count of rows, a float a fraction of the training rows (scikit-learn)
    "min_samples_split": AnyOf(Interval(int, 2, None),
                               Interval(float, 0.0, 1.0, closed="right", strict=True)),
    "min_samples_leaf": AnyOf(Interval(int, 1, None),
                              Interval(float, 0.0, 1.0, closed="neither", strict=True)),
    "min_impurity_decrease": Interval(float, 0.0, None),
    "ccp_alpha": Interval(float, 0.0, None),
    "ccp_risk": Registered(criterion_names, "impurity"),
    "grower": Options("auto", "levelwise", "recursive"),
    "random_state": RandomState(),
    "cp": Interval(float, 0.0, None, allow_none=True),
    "min_weight_fraction_leaf": Interval(float, 0.0, 0.5),
    "max_features": AnyOf(Options(None, "sqrt", "log2"), Interval(int, 1, None),
                          Interval(float, 0.0, 1.0, closed="right", strict=True)),
    "missing": Options(*MISSING_RULES),
    "max_surrogates": Interval(int, 0, None),
    "max_leaf_nodes": Interval(int, 2, None, allow_none=True),
    "tie_break": Options("column", "random"),
}

_MISSING_HINT = ("This estimator was built with missing='error'; use missing='learn' "
                 "(scikit-learn's rule) or missing='surrogate' (rpart's surrogate splits), "
                 "or impute the missing values first.")


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


def _grow_sparse(X, y, w, *, grower, categorical, n_categories, missing, max_surrogates,
                 **params):
    """:func:`treebook.sparse_scan.grow_sparse_cart` called as :func:`grow_cart` is."""
    return grow_sparse_cart(X, y, w, **params)


def _rpart_cp_prune(tree, cp: float):
    """rpart's use of ``cp`` (``partition.c``): every node whose split does not lower the
    risk by more than ``cp · R(root)`` per split of its subtree is a leaf — decided after
    the children are grown, so a weak split with strong splits below it stays."""
    from .prune.rpart import node_risk_rpart, rpart_complexity

    _, kept = rpart_complexity(tree, alpha=cp * float(node_risk_rpart(tree)[0]))
    drop = ~tree.is_leaf & ~kept
    return tree.prune(drop) if drop.any() else tree


class _CARTMixin:
    _missing = "error"
    _missing_hint = _MISSING_HINT

    def _accepts_missing(self) -> bool:
        return self.missing != "error"

    def _validate_params(self):
        super()._validate_params()
        if self.missing == "surrogate" and self.grower == "levelwise":
            raise ValueError("missing='surrogate' needs grower='recursive' (or 'auto'): the "
                             "level-wise grower has no surrogate splits")

    def _grow_cart(self, X, y, w, n_classes, classes):
        from .prune.cost_complexity import prune_ccp

        categorical = self.encoder_.is_categorical
        grower = self.grower
        grow = grow_cart
        if is_sparse(X):  # the scan over nonzeros (treebook.sparse_scan)
            if self.missing == "surrogate":  # scikit-learn has no surrogates either
                raise ValueError("missing='surrogate' is not supported with sparse X; "
                                 "pass X.toarray()")
            grow, grower = _grow_sparse, "sparse"
        elif grower == "auto":
            # the one dispatch point: the level-wise grower has scikit-learn's rule for
            # missing values (missing="learn") but no surrogates, and grows level by
            # level, so rpart's surrogates, data with NaN under any other rule and
            # best-first growth (max_leaf_nodes) use the recursive grower
            grower = ("recursive" if self.missing == "surrogate"
                      or (self.missing != "learn" and np.isnan(X).any())
                      or self.max_leaf_nodes is not None
                      else "levelwise")
        metadata = self._metadata(classes)
        metadata.setdefault("extra", {}).update(algorithm="CART",
                                                criterion=get_criterion(self.criterion).name)
        random_ties = self.tie_break == "random"
        if random_ties and grower == "sparse":
            raise ValueError("tie_break='random' is not supported with sparse X (the sparse "
                             "scan breaks ties in column order); use tie_break='column'")
        seed = (draw_seed(self.random_state)
                if self.max_features is not None or random_ties else 0)
        extra = {}
        if random_ties:  # its own stream of the tree's seed: the feature draws stay as they are
            extra["feature_order"] = np.random.default_rng([seed, 1]).permutation(X.shape[1])
        tree = grow(
            X, y, w, n_classes=n_classes, criterion=self.criterion, categorical=categorical,
            n_categories=[0 if c is None else len(c) for c in self.encoder_.categories],
            max_depth=self.max_depth, **self._min_samples(X.shape[0]),
            max_features=resolve_max_features(self.max_features, X.shape[1]),
            seed=seed, min_weight_leaf=self.min_weight_fraction_leaf * float(np.sum(w)),
            min_impurity_decrease=self.min_impurity_decrease, grower=grower,
            metadata=metadata, missing=self.missing, max_surrogates=self.max_surrogates,
            max_leaf_nodes=self.max_leaf_nodes, **extra)
        tree = missing_rule_of_tree(tree, self.missing)
        if self.cp is not None:
            tree = _rpart_cp_prune(tree, self.cp)
        self.full_tree_ = tree
        if self.ccp_alpha > 0:
            tree = prune_ccp(tree, self.ccp_alpha, risk=self.ccp_risk)
        return tree

    # ---------------------------------------------------------------- sparse input
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _encode_fit(self, X, sample_weight):
        if not is_sparse(X):
            return super()._encode_fit(X, sample_weight)
        from .encoding import FeatureEncoder, check_sample_weight

        Xs = check_sparse_X(X, format="csc" if getattr(X, "format", "") == "csc" else "csr")
        self.encoder_ = FeatureEncoder(tuple(f"x{j}" for j in range(Xs.shape[1])),
                                       (None,) * Xs.shape[1], False)
        if hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_features_in_ = Xs.shape[1]
        return Xs, check_sample_weight(sample_weight, Xs.shape[0])

    def _encode(self, X):
        if not is_sparse(X):
            return super()._encode(X)
        self._check_fitted()
        if self.encoder_.is_categorical.any() or self.encoder_.temporal:
            raise TypeError("X is a scipy.sparse matrix, but this model was fitted on "
                            "categorical or temporal columns, which a sparse matrix cannot "
                            "hold; pass the same kind of table as in fit")
        return check_sparse_X(X, n_features=self.n_features_in_)

    def _tree_apply(self, tree, Xe):
        return sparse_apply(tree, Xe) if is_sparse(Xe) else tree.apply(Xe)

    def _tree_distribution(self, tree, Xe, **kwargs):
        if not is_sparse(Xe):
            return tree.distribution(Xe, **kwargs)
        return tree.node_prediction(laplace=kwargs.get("laplace", False))[sparse_apply(tree, Xe)]

    def decision_path(self, X):
        if is_sparse(X):
            return sparse_decision_path(self.tree_, self._encode(X))
        return super().decision_path(X)

    def _min_samples(self, n_rows: int) -> dict:
        """``min_samples_split`` and ``min_samples_leaf`` as row counts: a float is a
        fraction of the ``n_rows`` training rows, rounded up (``min_samples_split`` at
        least 2), as in scikit-learn."""
        split, leaf = self.min_samples_split, self.min_samples_leaf
        if isinstance(leaf, float):
            leaf = int(np.ceil(leaf * n_rows))
        if isinstance(split, float):
            split = max(2, int(np.ceil(split * n_rows)))
        return dict(min_samples_split=split, min_samples_leaf=leaf)

    @classmethod
    def like_rpart(cls, **params):
        """An estimator with rpart's defaults (``rpart.control()``): ``cp = 0.01``,
        ``minsplit = 20`` (``min_samples_split``), ``minbucket = 7``
        (``min_samples_leaf``), ``maxdepth = 30``, ``maxsurrogate = 5`` with
        ``usesurrogate = 2`` (``missing="surrogate", max_surrogates=5``); ``params``
        override them."""
        defaults = dict(cp=0.01, min_samples_split=20, min_samples_leaf=7, max_depth=30,
                        missing="surrogate", max_surrogates=5)
        defaults.update(params)
        return cls(**defaults)

    def cost_complexity_pruning_path(self, X, y, sample_weight=None, risk=None):
        """The weakest-link pruning path of the tree grown on ``(X, y)`` with
        ``ccp_alpha=0``: a :class:`~treebook.prune.cost_complexity.PruningPath` with
        ``ccp_alphas`` (increasing) and ``impurities`` (the total leaf risk ``R(T_α)`` of
        each subtree), like scikit-learn's. ``risk`` (default: ``ccp_risk``) is
        ``"impurity"`` (scikit-learn: ``R(t) = |D_t|/|D|·I(t)``) or
        ``"misclassification"`` (Breiman et al., rpart: ``R(t)`` = the weight ``t``
        misclassifies over ``|D|``)."""
        from .prune.cost_complexity import cost_complexity_path

        est = clone(self, ccp_alpha=0.0).fit(X, y, sample_weight=sample_weight)
        return cost_complexity_path(est.tree_, risk=risk or self.ccp_risk)


def dict_class_weights(class_weight, classes) -> np.ndarray:
    """The weight of each class in ``classes`` under a ``class_weight`` dict
    ``{class: weight}`` (scikit-learn's rule: a class the dict does not name keeps weight
    1); a ``TypeError``/``ValueError`` for anything else, a key that is not a class, or a
    weight that is not a finite number >= 0. Shared by CART and the forests."""
    if not isinstance(class_weight, dict):
        raise TypeError("class_weight must be None, 'balanced' or a dict; got "
                        f"{type(class_weight).__name__}")
    known = list(classes.tolist())
    unknown = [c for c in class_weight if c not in known]
    if unknown:
        raise ValueError(f"class_weight names classes not in y: {unknown!r}")
    out = np.ones(len(known))
    for c, wt in class_weight.items():
        if isinstance(wt, bool) or not isinstance(wt, (int, float, np.integer, np.floating)) \
                or not np.isfinite(wt) or wt < 0:
            raise ValueError(f"class_weight[{c!r}] must be a finite number >= 0; got {wt!r}")
        out[known.index(c)] = float(wt)
    return out


class CARTClassifier(_CARTMixin, DecisionTreeClassifierBase):
    """CART classification tree (Breiman et al. 1984) with scikit-learn's numerics.

    Parameters
    ----------
    criterion : ``"gini"`` (default), ``"entropy"`` (in bits), ``"misclassification"``, or
        any classification criterion registered in :data:`treebook.criteria.CRITERIA`
        (its name, or the criterion object).
    max_depth : int ≥ 1 or None — nodes at this depth are leaves.
    min_samples_split : int ≥ 2 — a node with fewer rows is a leaf.
    min_samples_leaf : int ≥ 1 — each child of a split keeps at least this many rows.
    min_impurity_decrease : float ≥ 0 — a split is made only if its weighted impurity
        improvement ``(|D|/|D_root|)·ΔI`` (plus machine epsilon) reaches this.
    ccp_alpha : float ≥ 0 — complexity parameter α of minimal cost-complexity pruning;
        0 means no pruning.
    max_features : None (every feature at every node), an int ``k``, a float fraction of
        the features, ``"sqrt"`` or ``"log2"`` — each node chooses its split among ``k``
        features drawn at random (:mod:`treebook.feature_draw`), as random forests need.
    random_state : None, an int or a numpy generator — the seed of the ``max_features``
        draws (with ``max_features=None`` nothing is random: ties are broken by column
        order, so the tree is deterministic).
    ccp_risk : ``"impurity"`` (scikit-learn) or ``"misclassification"`` (Breiman, rpart) —
        the risk ``R(t)`` used by ``ccp_alpha`` and the pruning path.
    grower : ``"auto"`` (the level-wise grower), ``"levelwise"`` or ``"recursive"``.
    cp : float ≥ 0 or None — rpart's complexity parameter: after growing, a node whose
        subtree lowers the risk (misclassified weight; squared error for regression) by
        no more than ``cp · R(root)`` per split is made a leaf, as rpart's
        ``partition.c`` decides (:func:`treebook.prune.rpart.rpart_complexity`).
        None (default): not applied. :meth:`like_rpart` sets rpart's defaults.
    min_weight_fraction_leaf : float in [0, 0.5] — each child of a split keeps at least
        this fraction of the total training weight (scikit-learn's), and a node with less
        than twice that is a leaf.
    class_weight : None, ``"balanced"`` or a dict ``{class: weight}`` — each row's weight
        is multiplied by its class's weight (scikit-learn's ``class_weight``):
        ``"balanced"`` gives class ``k`` the weight ``n / (K · n_k)``, ``n_k`` counting the
        rows of class ``k``; a class missing from the dict keeps weight 1.
    missing : ``"learn"`` (default, scikit-learn's rule), ``"surrogate"`` (Breiman's and
        rpart's surrogate splits, ``usesurrogate = 2``) or ``"error"`` (missing values are
        refused) — how missing values (NaN, None, ``pd.NA``) are split and predicted; see
        the module docstring.
    max_surrogates : int ≥ 0 (default 5, rpart's ``maxsurrogate``) — surrogate splits kept
        per node with ``missing="surrogate"``.
    max_leaf_nodes : int ≥ 2 or None — grow best-first (scikit-learn's
        ``BestFirstTreeBuilder``): the leaf whose split improves the weighted impurity
        most is split next, until the tree has this many leaves
        (:mod:`treebook.bestfirst`); the other stopping rules still apply. None: no
        limit (depth-first growth).
    tie_break : ``"column"`` (default) or ``"random"`` — which feature wins when the best
        cuts of several features score the same (within a relative ``1e-12``): the first
        in column order (deterministic), or the first in a random order of the columns
        drawn once per tree from ``random_state``. scikit-learn visits the features in a
        random order at every node; ``"random"`` is its rule with one order per tree, so
        that a forest of such trees prefers no column (the forests of
        :mod:`treebook.ensemble` use it). Not for sparse ``X`` (the sparse scan breaks
        ties in column order).

    Attributes after ``fit`` (besides the shared ones: ``tree_``, ``classes_``, …):
    ``full_tree_``, the tree before ``ccp_alpha`` pruning (``tree_`` itself when
    ``ccp_alpha == 0``).

    See the module docstring for splits, ties, categorical subsets and missing values.
    """

    _parameter_constraints = {
        "criterion": Registered(lambda: criterion_names(regression=False), objects=Criterion),
        **CART_CONSTRAINTS,
    }

    def __init__(self, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, ccp_alpha=0.0,
                 random_state=None, ccp_risk="impurity", grower="auto", cp=None,
                 class_weight=None, max_features=None, min_weight_fraction_leaf=0.0,
                 missing="learn", max_surrogates=5, max_leaf_nodes=None, tie_break="column"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.random_state = random_state
        self.ccp_risk = ccp_risk
        self.grower = grower
        self.cp = cp
        self.max_features = max_features
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.class_weight = class_weight
        self.missing = missing
        self.max_surrogates = max_surrogates
        self.max_leaf_nodes = max_leaf_nodes
        self.tie_break = tie_break

    def _class_weights(self, y) -> np.ndarray:
        """Weight of each class code under ``class_weight``."""
        K = self.n_classes_
        if self.class_weight is None:
            return np.ones(K)
        if isinstance(self.class_weight, str):
            if self.class_weight != "balanced":
                raise ValueError("class_weight must be None, 'balanced' or a dict; got "
                                 f"{self.class_weight!r}")
            counts = np.bincount(y, minlength=K).astype(float)
            return np.where(counts > 0, len(y) / (K * np.where(counts > 0, counts, 1)), 1.0)
        return dict_class_weights(self.class_weight, self.classes_)

    def _grow(self, X, y, w):
        if self.class_weight is not None:
            w = w * self._class_weights(y)[y]
        return self._grow_cart(X, y, w, self.n_classes_, self.classes_)


class CARTRegressor(_CARTMixin, DecisionTreeRegressorBase):
    """CART regression tree: least-squares splits, leaves predict the mean response.

    Parameters are those of :class:`CARTClassifier` (``tie_break`` included) with
    ``criterion="squared_error"``
    (the only choice): a split minimises ``Σ_{left}(y_i - ȳ_1)² + Σ_{right}(y_i - ȳ_2)²``
    (weighted). ``ccp_risk`` must be ``"impurity"`` (the squared error; there is no
    misclassification for numbers).
    """

    _parameter_constraints = {
        "criterion": Registered(lambda: criterion_names(regression=True), objects=Criterion),
        **CART_CONSTRAINTS,
    }

    def __init__(self, criterion="squared_error", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, ccp_alpha=0.0,
                 random_state=None, ccp_risk="impurity", grower="auto", cp=None,
                 max_features=None, min_weight_fraction_leaf=0.0, missing="learn",
                 max_surrogates=5, max_leaf_nodes=None, tie_break="column"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.random_state = random_state
        self.ccp_risk = ccp_risk
        self.grower = grower
        self.cp = cp
        self.max_features = max_features
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.missing = missing
        self.max_surrogates = max_surrogates
        self.max_leaf_nodes = max_leaf_nodes
        self.tie_break = tie_break

    def _validate_params(self):
        super()._validate_params()
        if self.ccp_risk != "impurity":
            raise ValueError("ccp_risk must be 'impurity' for a regression tree (there is "
                             f"no misclassification of numbers); got {self.ccp_risk!r}")

    def _grow(self, X, y, w):
        return self._grow_cart(X, y, w, 0, None)

