"""CHAID's pure parts (Kass 1980): merging a predictor's categories and the Bonferroni
multipliers of the merged test.

Notation: at a node, a predictor has ``c`` categories with cases (its *present*
categories), each with class counts (a row of the ``(L, K)`` table of all its codes);
merging leaves ``r`` groups of categories, ``1 ≤ r ≤ c``.

**The test of a table.** A table of ``V`` rows and ``K`` class columns is tested for
independence of row and class with Pearson's ``X²``
(:func:`treebook.core.impurity.pearson_chi2`, the default) or the likelihood-ratio
``G`` (:func:`treebook.core.impurity.g_statistic`), on ``(V' − 1)(K' − 1)`` degrees of
freedom (:func:`treebook.core.impurity.g_test_dof`: only non-empty rows and classes
count), ``p = P(χ²_df ≥ X²)``; with 0 degrees of freedom there is nothing to test and
``p = 1`` (:func:`table_test`).

**Merging** (Kass's step 2, :func:`merge_categories`). Start with one group per present
category. Among the pairs of groups that may merge — *adjacent* groups for an ordinal
(Kass's "monotonic") predictor, *any* two for a nominal ("free") one — test each pair's
``2 × K`` sub-table and take the least significant (largest ``p``; ties to the larger
statistic, then to the first pair in order; a pair with one class only has nothing to
test and is taken at once — the CHAID package takes it only if a pair it tried before
in that round reached ``alpha_merge``, and otherwise stops merging, which
``tests/oracles`` pins as a deviation). If its ``p ≥ alpha_merge``
the two are not significantly different: merge them and repeat; otherwise stop. Then,
while a group holds less weight than ``min_samples_leaf``, the smallest such group is
merged with the partner it may merge with whose pair is least significant.

**The missing category** (``missing=True``: the table's last row holds the cases whose
value is missing). Kass (1980) and the CHAID programs keep those cases as a category of
their own. For a nominal predictor it is one more category, merged like any other. For an
ordinal one it is Kass's *floating* category: while it stands alone it may merge with
any group (the ordered groups keep their order and merge only with their neighbours);
once merged, its group is an ordinary ordered group. The pairs are tried in the CHAID
package's working order, which decides ties: the missing category first; for an ordinal
predictor the adjacent pairs, then the missing category with each group in order.

**Re-splitting merged groups** (Kass's step 3, ``split_merged=True``; off by default).
When merging stops, every group ``G`` that holds three or more of the original categories
is examined: among its binary splits ``G = G₁ ∪ G₂`` (both non-empty, allowed by the
predictor's type) take the most significant, the one whose ``2 × K`` table
``[n(G₁, ·); n(G₂, ·)]`` has the largest statistic ``X²(G₁, G₂)`` (or ``G``), on
``df = K_G − 1`` degrees of freedom (``K_G`` the classes present in ``G``, the same for
every split of ``G``), ``p(G₁, G₂) = P(χ²_df ≥ X²(G₁, G₂))``. Over all such groups, the
split with the smallest ``p`` (ties to the larger statistic, then the first group) is made
if ``p < alpha_merge`` — the exact complement of the merging rule (``p ≥ alpha_merge``
merges), as in Kass (1980), whose step 3 splits "if the χ² is significant beyond the
critical value" of the merging step. SPSS's ``TREE`` syntax switches the step with
``SPLITMERGED`` (default ``NO``) and sets no level of its own for it; Luchman's Stata
``chaid`` has a separate level (``respalpha``), which here would be one more parameter
for a rarely used step. Then merging (step 2) resumes from the new groups, and so on until
no group splits; a partition met a second time ends the loop (so it cannot cycle). The
binary splits tried: a nominal group, all ``2^{m−1} − 1`` splits of its ``m``
categories when ``m ≤ 12`` or when there are two classes (then the ``m − 1`` cuts of the
categories sorted by their share of the second class, which contain the best split for
``X²`` and ``G`` alike, Breiman et al. 1984, §4.2); with more classes and ``m > 12``, the
``m − 1`` cuts of the categories sorted by their share of the group's majority class (a
heuristic, not the exhaustive search). An ordinal group, the ``m − 1`` cuts between
neighbours; if it holds the missing category, each cut with the missing category on
either side, and the missing category alone (it then floats again). Kass's multiplier
is unchanged (it counts groupings of ``c`` categories into ``r`` groups, however they
were found). The CHAID package (Ramotowski and Fitzgerald, PyPI ``CHAID``), the oracle
of ``tests/oracles``, has no step 3: the default ``split_merged=False`` is its variant.

**The Bonferroni multiplier** (Kass 1980; :func:`bonferroni_multiplier`): the number of
ways ``c`` categories can be reduced to ``r`` groups, by which the merged table's
``p`` is multiplied (capped at 1) because the merging chose the best of them:

* free (nominal) predictor: ``B = Σ_{i=0}^{r−1} (−1)^i (r−i)^c / (i! (r−i)!)``, the
  Stirling number of the second kind ``S(c, r)`` (partitions of ``c`` labelled
  categories into ``r`` non-empty groups);
* monotonic (ordinal) predictor: ``B = C(c−1, r−1)`` (the ``c − 1`` gaps between
  neighbours, of which ``r − 1`` are cut);
* floating predictor (ordinal categories plus one "missing" category that may join any
  group or stay alone; ``c`` counts it): ``B = C(c−2, r−2) + r·C(c−2, r−1)``, which is
  Kass's ``[(r−1) + r(c−r)] / (c−1) · C(c−1, r−1)``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..core import impurity as imp

__all__ = ["STATISTICS", "MULTIPLIER_KINDS", "bonferroni_multiplier", "table_test",
           "MergeStep", "merge_categories", "PredictorTest", "predictor_test"]

#: the test statistics CHAID may use (Pearson's X² and the likelihood-ratio G)
STATISTICS = ("pearson", "likelihood")
#: the kinds of predictor :func:`bonferroni_multiplier` knows
MULTIPLIER_KINDS = ("free", "monotonic", "floating")


def bonferroni_multiplier(c: int, r: int, kind: str = "free") -> float:
    """Kass's Bonferroni multiplier for ``c`` categories reduced to ``r`` groups.

    ``kind`` is ``"free"`` (nominal: ``S(c, r) = Σ_{i=0}^{r−1} (−1)^i (r−i)^c /
    (i! (r−i)!)``), ``"monotonic"`` (ordinal: ``C(c−1, r−1)``) or ``"floating"``
    (ordinal plus a floating category, counted in ``c``: ``C(c−2, r−2) + r·C(c−2,
    r−1)``). Computed in exact integer arithmetic; a multiplier beyond the largest float
    is ``inf`` (the adjusted p-value is then 1).
    """
    for name, v in (("c", c), ("r", r)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an int; got {v!r}")
    c, r = int(c), int(r)
    if kind not in MULTIPLIER_KINDS:
        raise ValueError(f"kind must be one of {list(MULTIPLIER_KINDS)}; got {kind!r}")
    low = 2 if kind == "floating" else 1
    if c < low:
        raise ValueError(f"c must be >= {low} for a {kind} predictor; got {c}")
    if not 1 <= r <= c:
        raise ValueError(f"r must be in [1, c] = [1, {c}]; got {r}")
    if kind == "free":
        # r! S(c, r) = Σ_i (−1)^i C(r, i) (r−i)^c, exactly
        b = sum((-1) ** i * math.comb(r, i) * (r - i) ** c for i in range(r)) // math.factorial(r)
    elif kind == "monotonic":
        b = math.comb(c - 1, r - 1)
    else:
        b = (math.comb(c - 2, r - 2) if r >= 2 else 0) + r * math.comb(c - 2, r - 1)
    try:
        return float(b)
    except OverflowError:
        return math.inf


def _statistic(tables: np.ndarray, statistic: str) -> np.ndarray:
    if statistic == "pearson":
        return np.asarray(imp.pearson_chi2(tables, check=False), dtype=float)
    return np.asarray(imp.g_statistic(tables, check=False), dtype=float)


def _tests(tables: np.ndarray, statistic: str):
    """Statistic, degrees of freedom and p-value of each table of a ``(..., V, K)`` stack."""
    from scipy.stats import chi2  # scipy is a package dependency; imported when used

    stat = _statistic(tables, statistic)
    dof = np.asarray(imp.g_test_dof(tables, check=False))
    p = np.where(dof > 0, chi2.sf(stat, np.maximum(dof, 1)), 1.0)
    return stat, dof, p


def table_test(table, statistic: str = "pearson") -> tuple[float, int, float]:
    """``(statistic, dof, p)`` of the test of independence of the rows and classes of a
    ``(V, K)`` table: Pearson's ``X²`` or the likelihood-ratio ``G`` (``statistic=
    "likelihood"``), on ``(V' − 1)(K' − 1)`` degrees of freedom (non-empty rows and
    columns); ``p = P(χ²_df ≥ statistic)``, 1 when ``df = 0``."""
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {list(STATISTICS)}; got {statistic!r}")
    t = np.asarray(table, dtype=float)
    if t.ndim != 2:
        raise ValueError(f"table must be 2-D (V, K); got shape {t.shape}")
    stat, dof, p = _tests(t, statistic)
    return float(stat), int(dof), float(p)


class MergeStep(NamedTuple):
    """One merge: the groups before it, the pair merged (indices into ``groups``), its
    sub-table's statistic, degrees of freedom and p-value, and why (``"alpha"``: not
    significantly different; ``"min_samples_leaf"``: a group too small). A step of Kass's
    step 3 (``reason="split"``) records instead the split of a merged group: ``pair``
    holds the two sub-groups (tuples of codes) and the test is that of their ``2 × K``
    table."""

    groups: tuple
    pair: tuple
    statistic: float
    dof: int
    p_value: float
    reason: str


def _pairs(n_groups: int, ordinal: bool, floating: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``(i, j)`` of groups that may merge, in the order ties are broken.
    ``floating``: group 0 is the missing category, still alone (the others are ordered)."""
    if not ordinal:
        i, j = np.triu_indices(n_groups, k=1)  # (0,1), (0,2), …, (1,2), …: itertools order
        return i, j
    if not floating:
        i = np.arange(n_groups - 1)
        return i, i + 1
    i = np.arange(1, n_groups - 1)  # neighbours among the ordered groups 1 … n−1,
    g = np.arange(1, n_groups)      # then the missing category with each of them
    return np.concatenate([i, g]), np.concatenate([i + 1, np.zeros_like(g)])


def _least_significant(rows: np.ndarray, i: np.ndarray, j: np.ndarray, statistic: str):
    """Index (into the pairs ``i``, ``j``) of the least significant pair and its test."""
    tables = np.stack([rows[i], rows[j]], axis=1)  # (P, 2, K)
    stat, dof, p = _tests(tables, statistic)
    nothing = np.flatnonzero(dof == 0)
    if nothing.size:  # one class only in the pair: nothing to test, merge it first
        b = int(nothing[0])
    else:
        top = np.flatnonzero(p == p.max())
        b = int(top[np.argmax(stat[top])])  # ties: the larger statistic, then the first
    return b, float(stat[b]), int(dof[b]), float(p[b])


#: the most categories of a nominal group whose binary splits are all tried (step 3)
EXHAUSTIVE_SPLIT_MAX = 12


def _binary_splits(group: tuple, rows_by_code, ordinal: bool, missing_code):
    """The binary splits ``(G₁, G₂)`` of a merged group (tuples of codes) that Kass's step
    3 tries, as the module docstring lists them; ``rows_by_code[c]`` is code ``c``'s
    class counts, ``missing_code`` the missing category's code (None: there is none).
    ``G₁`` holds the smaller first code."""
    return [(a, b) if a[0] < b[0] else (b, a)
            for a, b in _binary_splits_any(group, rows_by_code, ordinal, missing_code)]


def _binary_splits_any(group: tuple, rows_by_code, ordinal: bool, missing_code):
    if ordinal:
        ordered = [c for c in group if c != missing_code]
        out = []
        for k in range(1, len(ordered)):
            left, right = tuple(ordered[:k]), tuple(ordered[k:])
            if missing_code in group:
                out.append((tuple(sorted(left + (missing_code,))), right))
                out.append((left, tuple(sorted(right + (missing_code,)))))
            else:
                out.append((left, right))
        if missing_code in group and ordered:
            out.append(((missing_code,), tuple(ordered)))
        return out
    m = len(group)
    counts = np.asarray([rows_by_code[c] for c in group], dtype=float)
    if counts.shape[1] == 2 or m > EXHAUSTIVE_SPLIT_MAX:
        col = 1 if counts.shape[1] == 2 else int(np.argmax(counts.sum(axis=0)))
        share = counts[:, col] / np.maximum(counts.sum(axis=1), 1e-300)
        order = [group[i] for i in np.argsort(share, kind="stable")]
        return [(tuple(sorted(order[:k])), tuple(sorted(order[k:]))) for k in range(1, m)]
    out = []
    for mask in range(1, 2 ** (m - 1)):  # the last category always on the right
        left = tuple(group[i] for i in range(m) if mask >> i & 1)
        right = tuple(group[i] for i in range(m) if not mask >> i & 1)
        out.append((left, right))
    return out


def _most_significant_split(groups, rows_by_code, ordinal: bool, missing_code, statistic: str):
    """Kass's step 3 over all groups of three or more categories: ``(g, (G₁, G₂), test)``
    of the split with the smallest p-value (ties to the larger statistic, then the first
    group and split), or None when no group has three categories."""
    best, key = None, None
    for g, group in enumerate(groups):
        if len(group) < 3:
            continue
        cands = _binary_splits(group, rows_by_code, ordinal, missing_code)
        tables = np.stack([np.stack([rows_by_code[list(a)].sum(axis=0),
                                     rows_by_code[list(b)].sum(axis=0)]) for a, b in cands])
        stat, dof, p = _tests(tables, statistic)
        k = int(np.lexsort((-stat, p))[0])
        if key is None or (p[k], -stat[k]) < key:
            key = (float(p[k]), -float(stat[k]))
            best = (g, cands[k], (float(stat[k]), int(dof[k]), float(p[k])))
    return best


def _working_rank(group: tuple, ordinal: bool, missing_code) -> int:
    """Where a group stands in the working order (the order merging builds): the missing
    category's group first (nominal: any group holding it; ordinal: while it is alone),
    the rest by their smallest code."""
    if missing_code in group and (not ordinal or len(group) == 1):
        return -1
    return min(c for c in group if c != missing_code)


def merge_categories(table, *, ordinal: bool, alpha_merge: float, statistic: str = "pearson",
                     min_samples_leaf: float = 0.0, missing: bool = False,
                     split_merged: bool = False):
    """Kass's merging of a predictor's categories at a node (the module docstring's rule).

    ``table`` is the ``(L, K)`` class counts of every category code; categories with no
    weight take no part. With ``missing=True`` its last row (code ``L − 1``) is the
    missing category: nominal, one more category; ordinal, Kass's floating category.
    ``split_merged=True`` adds Kass's step 3 (re-splitting merged groups of three or more
    categories whose best binary split has ``p < alpha_merge``, then merging again).
    Returns ``(groups, steps)``: the groups, each a tuple of codes in increasing order,
    ordered by their smallest code (so a group of the missing category alone comes last),
    and the :class:`MergeStep` list that led there (its ``groups`` in the working order,
    the missing category first).
    """
    t = np.asarray(table, dtype=float)
    present = np.flatnonzero(t.sum(axis=1) > 0)
    if missing and present.size and present[-1] == t.shape[0] - 1:
        present = np.roll(present, 1)  # the missing category first: the package's order
        floating = bool(ordinal)       # an ordinal predictor's missing category floats
    else:
        floating = False
    groups = [(int(c),) for c in present]
    rows = t[present].copy()
    steps: list[MergeStep] = []

    def merge(a: int, b: int, test, reason: str):
        nonlocal floating
        steps.append(MergeStep(tuple(groups), (a, b), *test, reason))
        floating = floating and 0 not in (a, b)  # merged, the missing category floats no more
        groups[a] = tuple(sorted(groups[a] + groups[b]))
        rows[a] += rows[b]
        del groups[b]
        return np.delete(rows, b, axis=0)

    missing_code = int(t.shape[0] - 1) if missing else None
    seen: set = set()
    while True:
        while len(groups) > 1:
            i, j = _pairs(len(groups), ordinal, floating)
            k, *test = _least_significant(rows, i, j, statistic)
            if test[2] < alpha_merge:
                break  # every pair that may merge differs significantly
            rows = merge(int(i[k]), int(j[k]), test, "alpha")
        if not split_merged:
            break
        state = frozenset(groups)
        if state in seen:
            break  # this partition was split before: stop rather than cycle
        seen.add(state)
        found = _most_significant_split(groups, t, ordinal, missing_code, statistic)
        if found is None or not found[2][2] < alpha_merge:
            break  # no merged group splits significantly (step 3 done)
        g, (left, right), test = found
        steps.append(MergeStep(tuple(groups), (left, right), *test, "split"))
        groups[g:g + 1] = [left, right]
        groups.sort(key=lambda grp: _working_rank(grp, ordinal, missing_code))
        floating = bool(ordinal) and (missing_code,) in groups
        rows = np.stack([t[list(grp)].sum(axis=0) for grp in groups])
    while len(groups) > 1:
        size = rows.sum(axis=1)
        small = np.flatnonzero(size < min_samples_leaf)
        if not small.size:
            break
        g = int(small[np.argmin(size[small])])
        i, j = _pairs(len(groups), ordinal, floating)
        mine = np.flatnonzero((i == g) | (j == g))
        k, *test = _least_significant(rows, i[mine], j[mine], statistic)
        rows = merge(int(i[mine][k]), int(j[mine][k]), test, "min_samples_leaf")
    return sorted(groups), steps


class PredictorTest(NamedTuple):
    """A predictor's test at a node: its merged ``groups`` (tuples of codes), the
    number ``n_categories`` of categories present (``c``), the merged table's
    ``statistic``, ``dof`` and ``p_value``, the Bonferroni ``multiplier`` and the
    ``adjusted_p_value = min(1, multiplier · p_value)`` (the plain p-value without the
    adjustment)."""

    groups: tuple
    n_categories: int
    statistic: float
    dof: int
    p_value: float
    multiplier: float
    adjusted_p_value: float


def predictor_test(table, *, ordinal: bool, alpha_merge: float, statistic: str = "pearson",
                   bonferroni: bool = True, min_samples_leaf: float = 0.0,
                   missing: bool = False, split_merged: bool = False) -> PredictorTest | None:
    """Merge a predictor's categories (:func:`merge_categories`; ``missing=True``: the
    table's last row is the missing category; ``split_merged``: with Kass's step 3) and
    test the merged ``r × K`` table
    (:func:`table_test`); None when fewer than two groups are left (nothing to split).
    The multiplier is ``bonferroni_multiplier(c, r, kind)`` with ``c`` the categories
    present (the missing category counted) and ``kind`` ``"free"`` (nominal),
    ``"monotonic"`` (ordinal) or ``"floating"`` (ordinal, with cases of the missing
    category at the node); 1 without ``bonferroni``."""
    t = np.asarray(table, dtype=float)
    groups, _ = merge_categories(t, ordinal=ordinal, alpha_merge=alpha_merge,
                                 statistic=statistic, min_samples_leaf=min_samples_leaf,
                                 missing=missing, split_merged=split_merged)
    if len(groups) < 2:
        return None
    merged = np.stack([t[list(g)].sum(axis=0) for g in groups])
    stat, dof, p = _tests(merged, statistic)
    c = sum(len(g) for g in groups)
    kind = "free"
    if ordinal:
        kind = "floating" if missing and t[-1].sum() > 0 else "monotonic"
    b = bonferroni_multiplier(c, len(groups), kind) if bonferroni else 1.0
    p = float(p)
    adjusted = min(1.0, b * p) if p > 0 else 0.0
    return PredictorTest(tuple(groups), c, float(stat), int(dof), p, b, adjusted)
