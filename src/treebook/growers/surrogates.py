"""rpart's surrogate splits (Breiman et al. 1984, §5.3; rpart's ``surrogate.c``,
``choose_surg.c``): for a node's primary split, the splits of the other features that
send the most weight the primary's way, used for a case missing the primary feature.
"""

from __future__ import annotations

import numpy as np

from ..core.splits import Surrogate, node_summaries
from ..core.tree import NodeKind

__all__ = ["absolute_improvement", "rpart_left_branch", "surrogate_splits"]

def absolute_improvement(right, y, w, n_classes, criterion):
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
