"""Growing a conditional inference tree (Hothorn, Hornik & Zeileis 2006), as
``partykit::ctree`` grows it.

::

    grow(D, depth):
        make a node holding D's class counts (or mean)
        if depth = max_depth or |D| < min_samples_split:       it stays a leaf
        for each variable X_j:  p_j = p-value of the test of X_j ⟂ Y on D's cases with X_j known
        adjust (Bonferroni: 1 - (1 - p_j)^k over the k variables with a test)
        if every p_j ≥ alpha:                                     it stays a leaf
        for the (up to two) variables of smallest p_j < alpha, in order:
            the binary split of X_j maximising c_quad of 1(X_j in left), each side ≥ the
            minimum bucket; the first variable that has one is split on
        a case missing X_j goes with its surrogates, else to the branch most cases took
        for each branch:  grow(D_b, depth + 1)

The tests are :mod:`treebook.core.independence`'s (``g`` = the value of a numeric
variable, the score of an ordered one, the category indicators of a nominal one; ``h`` =
the class indicators or the response). The minimum bucket at a node is
``max(min_samples_leaf, ceil(min_prob · |D|))`` (partykit's ``minbucket`` and
``minprob``); weights count cases throughout (partykit's ``caseweights = TRUE``).
Ties (:func:`rank_variables`): partykit's rules, the larger statistic and then the
*last* variable; the first best cut; a case with the split variable missing goes right
when as many cases went each way.

Surrogates (``max_surrogates > 0``, partykit's ``maxsurrogate``): the other variables
ranked by the unadjusted p-value of their test against the primary split's branch (on
the cases with the primary variable known), each split by the same maximally selected
statistic with no minimum bucket, oriented so that its left side sends most of its cases
the primary's left way (counted in cases, as partykit's ``table``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core import impurity as imp
from ..core import independence as ind
from ..core.splits import NodeKind, Split, Surrogate
from ..core.tree import Tree, TreeBuilder

__all__ = ["CtreeSettings", "variable_tests", "grow_ctree", "NUMERIC", "ORDERED", "NOMINAL"]

NUMERIC, ORDERED, NOMINAL = "numeric", "ordered", "nominal"


@dataclass
class CtreeSettings:
    """The stopping and testing rules of :func:`grow_ctree` (the estimator's parameters)."""

    alpha: float = 0.05
    bonferroni: bool = True
    pvalue: str = "asymptotic"
    n_resamples: int = 9999
    min_samples_split: float = 20
    min_samples_leaf: float = 7
    min_prob: float = 0.01
    max_depth: int | None = None
    max_surrogates: int = 0
    split_try: int = 2
    rng: np.random.Generator | None = None


def _covariate(x, kind, scores, n_codes):
    """``g(X)`` of the known values ``x`` of one variable (rows: cases)."""
    if kind == NUMERIC:
        return x[:, None]
    codes = x.astype(np.int64)
    if kind == ORDERED:
        return scores[codes][:, None]
    g = np.zeros((x.shape[0], n_codes))
    g[np.arange(x.shape[0]), codes] = 1.0
    return g


def variable_tests(X, h, w, kinds, scores, n_codes, settings: CtreeSettings, columns=None):
    """Per variable, ``(statistic, df, pvalue)`` of the independence test of ``X[:, j]``
    and the response transformation ``h`` on the cases with ``X[:, j]`` known (unadjusted
    p-values; NaN where there is no test: fewer than two cases' weight, or no variance)."""
    m = X.shape[1]
    stat = np.full(m, np.nan)
    df = np.zeros(m, np.int64)
    pv = np.full(m, np.nan)
    for j in range(m) if columns is None else columns:
        x = X[:, j]
        known = ~np.isnan(x)
        if not known.any() or not w[known].sum() > 1:
            continue
        g = _covariate(x[known], kinds[j], scores[j], n_codes[j])
        lin = ind.linear_statistic(g, h[known], w[known])
        c, d = ind.quadratic_form(lin.t, lin.mu, lin.sigma)
        if not np.isfinite(c):
            continue
        stat[j], df[j] = c, d
        if settings.pvalue == "permutation":
            pv[j] = ind.permutation_pvalue(g, h[known], w[known], c, settings.n_resamples,
                                           settings.rng)
        else:
            pv[j] = ind.chi2_pvalue(c, d)
    return stat, df, pv


#: partykit's tie windows: ``sqrt(.Machine$double.xmin)`` for the node's variable,
#: ``.Machine$double.eps`` for the surrogates' ranking
XMIN_SQRT = float(np.sqrt(np.finfo(float).tiny))
EPS = float(np.finfo(float).eps)


def rank_variables(pv, stat, multiplier, window, tie_rule):
    """The variables in partykit's order of preference, and their criteria.

    The criterion is ``multiplier · log(1 - p)`` (partykit's, ``multiplier = k`` under
    Bonferroni; NaN p: no test, ``-inf``). Variables within ``window`` of the best are
    tied and get ``r / (S · 1000)`` added, ``S`` the sum of their 1-based positions in
    partykit's model frame (the response first) and ``r`` the ranks of their statistics
    (``tie_rule="rank"``, the node's variable) or ``order(statistic)`` as partykit's
    surrogate code has it (``"order"``). The order is by criterion, the last variable
    first among equals (partykit's ``.which.max``, ``rev(order(.))``)."""
    from scipy.stats import rankdata

    with np.errstate(divide="ignore", invalid="ignore"):
        crit = np.where(np.isfinite(pv), multiplier * np.log1p(-pv), -np.inf)
    if np.isfinite(crit).any():
        ties = np.flatnonzero(np.abs(crit - crit.max()) < window)
        if ties.size > 1:
            total = float((ties + 2).sum())
            if tie_rule == "rank":
                bump = rankdata(stat[ties])
            else:
                bump = np.argsort(stat[ties], kind="stable") + 1.0
            crit = crit.copy()
            crit[ties] += bump / (total * 1000.0)
    order = sorted(range(pv.shape[0]), key=lambda j: (-crit[j], -j))
    return order, crit


def _best_split(x, h, w, kind, scores, n_codes, min_bucket, feature):
    """The maximally selected split of one variable over the cases with ``x`` known, or
    None: a :class:`Split` whose ``score`` is its ``c_quad``."""
    known = ~np.isnan(x)
    xk, hk, wk = x[known], h[known], w[known]
    if not wk.sum() > 1:
        return None
    _, _, vh = ind.influence_moments(hk, wk)
    if kind == NOMINAL:
        codes = xk.astype(np.int64)
        lw = np.bincount(codes, weights=wk, minlength=n_codes)
        present = np.flatnonzero(lw > 0)
        lh = np.stack([np.bincount(codes, weights=wk * hk[:, k], minlength=n_codes)
                       for k in range(hk.shape[1])], axis=1)
        masks, c = ind.subset_statistics(lw[present], lh[present], vh, min_bucket)
        if c.size == 0 or np.all(np.isnan(c)):
            return None
        b = int(np.nanargmax(c))
        boc = np.full(n_codes, -1, np.int64)
        boc[present] = np.where(masks[b], 0, 1)
        return Split(feature, NodeKind.SUBSET, float(c[b]), branch_of_code=boc,
                     unseen_as_missing=True)
    values, inverse = np.unique(xk, return_inverse=True)
    lw = np.bincount(inverse, weights=wk)
    lh = np.stack([np.bincount(inverse, weights=wk * hk[:, k], minlength=values.size)
                   for k in range(hk.shape[1])], axis=1)
    c = ind.ordered_cut_statistics(lw, lh, vh, min_bucket)
    if c.size == 0 or np.all(np.isnan(c)):
        return None
    b = int(np.nanargmax(c))
    cut = float(values[b])
    if kind == NUMERIC:
        return Split(feature, NodeKind.THRESHOLD, float(c[b]), threshold=cut)
    boc = (np.arange(n_codes) > cut).astype(np.int64)  # the levels after the cut go right
    return Split(feature, NodeKind.SUBSET, float(c[b]), branch_of_code=boc)


def _surrogates(X, direction, w, primary, kinds, scores, n_codes, settings):
    """partykit's surrogate splits of a node (see the module docstring), ranked."""
    if settings.max_surrogates <= 0:
        return ()
    known = direction >= 0
    Xk, d, wk = X[known], direction[known], w[known]
    h = np.stack([d == 0, d == 1], axis=1).astype(float)
    others = [j for j in range(X.shape[1]) if j != primary]
    stat, _, pv = variable_tests(Xk, h, wk, kinds, scores, n_codes,
                                 CtreeSettings(pvalue="asymptotic"), columns=others)
    ranked, crit = rank_variables(pv, stat, 1, EPS, "order")
    order = [j for j in ranked if j != primary and np.isfinite(crit[j])]
    order = order[: min(len(others), settings.max_surrogates)]
    total = wk.sum()
    majority = max(wk[d == 0].sum(), wk[d == 1].sum()) / total
    found = []
    for j in order:
        s = _best_split(Xk[:, j], h, wk, kinds[j], scores[j], n_codes[j], 0.0, j)
        if s is None:
            break  # partykit then asks the same variable again: no further surrogate
        b = s.branch(Xk[:, j])
        flip = np.count_nonzero((b == 0) & (d == 0)) < np.count_nonzero((b == 0) & (d == 1))
        agree = wk[(b >= 0) & ((b == d) != flip)].sum() / total
        adj = (agree - majority) / (1.0 - majority) if majority < 1 else 0.0
        if s.kind == NodeKind.THRESHOLD:  # x <= cut (partykit) is x < the next float
            sur = Surrogate(feature=j, kind=NodeKind.THRESHOLD, agreement=float(agree),
                            adjusted=float(adj), threshold=float(np.nextafter(s.threshold,
                                                                              np.inf)),
                            low_branch=int(flip))
        else:
            boc = s.branch_of_code.copy()
            if flip:
                boc[boc >= 0] = 1 - boc[boc >= 0]
            sur = Surrogate(feature=j, kind=NodeKind.SUBSET, agreement=float(agree),
                            adjusted=float(adj), branch_of_code=boc)
        found.append(sur)
    return tuple(found)


def _node_value(y, w, n_classes):
    if n_classes == 0:
        total = w.sum()
        mean = float(w @ y / total)
        return np.array([mean]), total, float(w @ (y - mean) ** 2 / total)
    counts = np.bincount(y, weights=w, minlength=n_classes).astype(float)
    return counts, counts.sum(), float(imp.gini(counts, check=False))


def grow_ctree(X, y, w, *, kinds, scores, n_codes, n_classes: int, settings: CtreeSettings,
               metadata: dict | None = None):
    """Grow a conditional inference tree (the module docstring's recursion).

    ``X``: encoded features (codes for categorical ones, NaN missing); ``y``: class codes
    (``n_classes > 0``) or responses (``n_classes = 0``); ``w``: positive case weights;
    ``kinds[j]``: ``"numeric"``, ``"ordered"`` or ``"nominal"``; ``scores[j]``: for an
    ordered variable the score of each code (else None); ``n_codes[j]``: its number of
    categories (0 for numeric). Returns ``(tree, info)``: ``info`` holds, per node in the
    tree's order, the per-variable ``statistics`` and (adjusted) ``pvalues`` (NaN where no
    test was made) and the node's ``pvalue`` (the smallest).
    """
    regression = n_classes == 0
    h = (y.astype(float)[:, None] if regression
         else np.eye(n_classes)[np.asarray(y, np.int64)])
    m = X.shape[1]
    builder = TreeBuilder(is_regression=regression)
    tests: dict[int, tuple] = {}
    max_depth = np.inf if settings.max_depth is None else settings.max_depth

    def add(parent, rows, wr):
        value, total, node_imp = _node_value(y[rows], wr, n_classes)
        return builder.add_node(parent, value, total, int(np.count_nonzero(wr > 0)), node_imp)

    rows0 = np.arange(X.shape[0])
    stack = [(add(-1, rows0, w), rows0, np.asarray(w, float), 0)]
    while stack:
        node, rows, wr, depth = stack.pop()
        sw = wr.sum()
        if depth >= max_depth or sw < settings.min_samples_split:
            continue
        Xn, hn = X[rows], h[rows]
        stat, _, pv = variable_tests(Xn, hn, wr, kinds, scores, n_codes, settings)
        tested = np.isfinite(pv)
        if not tested.any():
            continue
        k = int(tested.sum())
        adj = np.array([ind.sidak(p, k) for p in pv]) if settings.bonferroni else pv.copy()
        order, crit = rank_variables(pv, stat, k if settings.bonferroni else 1,
                                     XMIN_SQRT, "rank")
        tests[node] = (stat, adj, adj[order[0]])
        log_min = np.log1p(-settings.alpha)
        if not np.any(crit > log_min):
            continue
        chosen = [j for j in order[: min(int(np.isfinite(crit).sum()), settings.split_try)]
                  if crit[j] > log_min]
        bucket = max(settings.min_samples_leaf, math.ceil(sw * settings.min_prob))
        split = None
        for j in chosen:
            split = _best_split(Xn[:, j], hn, wr, kinds[j], scores[j], n_codes[j], bucket, j)
            if split is not None:
                break
        if split is None:
            continue
        x = Xn[:, split.feature]
        raw = split.branch(x)
        known = raw >= 0
        if not known.any():
            continue
        counts = np.bincount(raw[known], minlength=2)
        # majority = TRUE: the branch most cases took (counted in rows, as partykit's
        # tabulate); a tie goes right (partykit's .which.max takes the last maximum)
        split.missing_go = int(counts[1] >= counts[0])
        split.surrogates = _surrogates(Xn, np.where(known, raw, -1), wr, split.feature,
                                       kinds, scores, n_codes, settings)
        split.unseen_as_missing = True
        branch = split.branch(x, Xn)
        builder.set_split(node, split.feature, split.kind, split.threshold,
                          split.branch_of_code)
        builder.set_missing_rule(node, split.missing_go, split.surrogates)
        builder.unseen_as_missing = True
        children = []
        for b in range(2):
            sel = branch == b
            children.append((add(node, rows[sel], wr[sel]), rows[sel], wr[sel], depth + 1))
        stack.extend(reversed(children))
    tree = builder.build(**(metadata or {}))
    # the builder numbers nodes in pre-order: the same walk maps its ids to the tree's
    order, walk = [], [0]
    while walk:
        i = walk.pop()
        order.append(i)
        walk.extend(reversed(builder._children[i]))
    n = len(order)
    statistics = np.full((n, m), np.nan)
    pvalues = np.full((n, m), np.nan)
    best = np.full(n, np.nan)
    for new, old in enumerate(order):
        if old in tests:
            statistics[new], pvalues[new], best[new] = tests[old]
    return tree, {"statistics": statistics, "pvalues": pvalues, "pvalue": best}
