"""C4.5's split search (Quinlan 1993, release 8): gain ratio, numeric thresholds, unknown values.

What this module implements is what C4.5 release 8 does (its sources ``build.c``,
``contin.c``, ``discr.c``, ``info.c``) and what Weka's J48 reimplements
(``C45ModelSelection``, ``C45Split``, ``InfoGainSplitCrit``, ``GainRatioSplitCrit``).
Notation: a node holds the cases ``D`` of total weight ``|D|``; for an attribute ``A``,
``D_?`` are the cases whose value of ``A`` is unknown and ``D_k = D \\ D_?`` the known
ones, ``F = |D_k| / |D|`` the known fraction.

* **Gain with unknowns**: ``g(D, A) = F · (H(D_k) - H(D_k | A))`` — the gain on the known
  cases, scaled by their share (:func:`c45_gain`).
* **Split information with unknowns**: the entropy of the partition of ``D`` into the
  branches *and* the bag of unknowns, ``H_A(D) = -Σ_{v ∈ branches ∪ {?}} |D_v|/|D| log2
  |D_v|/|D|`` (:func:`c45_split_information`).
* **Numeric attribute**: one binary test ``x <= t``. Candidate cuts lie between
  consecutive sorted known values (more than ``1e-5`` apart); each side must hold at
  least ``minSplit = clip(0.1 · |D_k| / K, M, 25)`` of the weight (C4.5's MINOBJS rule,
  ``K`` the number of classes, ``M = min_samples_leaf``). The best cut maximises the gain
  over one sorted scan with prefix sums (:func:`treebook.core.splits.threshold_tables`). The
  MDL correction of release 8 (Quinlan 1996) then charges the choice among the
  ``N_cuts`` admissible cuts: ``g ← g - log2(N_cuts) / |D|``. The reported threshold
  is the largest training value not above the midpoint of the chosen cut.
* **Categorical attribute**: multiway, one branch per category present at the node;
  admissible only if at least two branches hold ``M`` cases.
* **Choice**: the largest gain ratio ``g / H_A(D)`` among the admissible tests whose gain
  is at least the average gain of the admissible tests (less ``AVERAGE_GAIN_SLACK`` =
  1e-3, both programs' tolerance); categorical attributes with at least ``0.3 · n`` values (``n`` training
  rows) are left out of the average unless every attribute is such. Ties go to the
  first attribute. No test with a positive gain ratio: the node is a leaf.
* **Stopping**: a pure node, or total weight below ``2M``; after growth a subtree whose
  training errors are not below its root's (as a leaf) collapses to a leaf
  (:func:`treebook.c45.collapse`).
* **Unknown values** go down every branch with weight ``|D_v^known| / |D_k|``, one rule
  (:class:`treebook.core.splits.FractionalRouting`) applied in fit (by
  :func:`treebook.growers.recursive.grow_tree`), in predict (by :meth:`treebook.core.tree.Tree.route`) and
  in subtree raising, so all class counts are weighted. ``missing=`` names another
  registered routing policy (:func:`treebook.core.splits.register_routing`).

Both growers use it: :func:`c45_split_finder` plugs it into the readable recursion
(:func:`treebook.growers.recursive.grow_tree`), :class:`C45Context` feeds the fast grower
(:mod:`treebook.growers.c45`). The learner is :class:`treebook.c45.C45Classifier`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import impurity as imp
from ..core.splits import Split, best_index, categorical_table, multiway_split, threshold_tables
from ..core.tree import NodeKind

__all__ = [
    "Candidate", "C45Context", "c45_gain", "c45_split_information", "c45_gain_ratio",
    "min_split_weight", "numeric_candidate", "threshold_candidate", "threshold_at",
    "categorical_candidate", "binary_categorical_candidate", "choose_candidate",
    "c45_split_finder", "AVERAGE_GAIN_SLACK", "MIN_CUT_GAP", "SMALL", "MANY_VALUES",
]

#: C4.5's ``Epsilon`` in the average-gain filter: a test whose gain is at least the average
#: less this is eligible.
AVERAGE_GAIN_SLACK = 1e-3


#: Cuts closer than this are not cuts (``contin.c``: ``Val(i) < Val(i+1) - 1E-5``).
MIN_CUT_GAP = 1e-5


#: J48's ``Utils.SMALL``: weights within this of a bound meet it.
SMALL = 1e-6


#: A categorical attribute with at least this fraction of ``n`` values counts as
#: "many-valued" and is left out of the average gain (``build.c``, ``MultiVal``).
MANY_VALUES = 0.3


def _with_unknown_row(table, missing) -> np.ndarray:
    table = np.asarray(table, dtype=float)
    missing = np.zeros(table.shape[-1]) if missing is None else np.asarray(missing, float)
    return np.concatenate([table, missing[None, :]], axis=0)


def c45_gain(table, missing=None) -> float:
    r"""C4.5's information gain with unknown values, in bits.

    ``g(D, A) = F · (H(D_k) - H(D_k | A))`` where ``table`` (shape ``(V, K)``) holds the
    class counts of the known cases per branch, ``missing`` (shape ``(K,)``) those of the
    cases with an unknown value, and ``F = |D_k| / |D|`` is the known fraction. Without
    unknowns it is :func:`treebook.core.impurity.information_gain`.
    """
    full = _with_unknown_row(table, missing)
    known = full[:-1]
    total = full.sum()
    if total <= 0:
        raise ValueError("table and missing have zero total weight")
    if known.sum() <= 0:
        return 0.0
    return float(known.sum() / total * imp.information_gain(known, check=False))


def c45_split_information(table, missing=None) -> float:
    r"""Split information with unknown values: the unknowns form one more branch.

    ``H_A(D) = -Σ_{v ∈ {1..V, ?}} |D_v|/|D| log2(|D_v|/|D|)``, i.e.
    :func:`treebook.core.impurity.split_information` of the table with the row of unknown
    cases appended.
    """
    full = _with_unknown_row(table, missing)
    return float(imp.split_information(full))


def c45_gain_ratio(table, missing=None) -> float:
    """``g(D, A) / H_A(D)`` with both parts as in C4.5 (0 when the split information is 0)."""
    iv = c45_split_information(table, missing)
    return c45_gain(table, missing) / iv if iv > 0 else 0.0


def min_split_weight(known_weight: float, n_classes: int, min_samples_leaf: int) -> float:
    """C4.5's least weight on each side of a numeric cut (``contin.c``, ``MinSplit``).

    ``0.1 · |D_k| / K``, raised to ``min_samples_leaf`` if below it, else capped at 25:
    a threshold must not split off a handful of cases, more so in a large node.
    """
    m = 0.1 * known_weight / n_classes
    return float(min_samples_leaf) if m <= min_samples_leaf else min(m, 25.0)


@dataclass
class Candidate:
    """The best test on one attribute at one node, with everything C4.5 scores it by.

    ``gain`` is the gain used for the choice (for a numeric attribute, after the MDL
    correction ``penalty``; ``raw_gain`` before it). ``table`` holds the known cases per
    branch, ``missing`` the class counts of the cases with an unknown value.
    """

    feature: int
    kind: NodeKind
    gain: float
    split_info: float
    gain_ratio: float
    table: np.ndarray
    missing: np.ndarray
    raw_gain: float
    penalty: float = 0.0
    threshold: float = np.nan
    midpoint: float = np.nan
    n_cuts: int = 0
    many_valued: bool = False
    admissible: bool = True
    #: a binary test on a category (J48's ``-B``): this code goes left, every other code of
    #: the attribute's ``n_categories`` right
    left_code: int = -1
    n_categories: int = 0

    def to_split(self) -> Split:
        info = dict(gain=self.gain, split_info=self.split_info, gain_ratio=self.gain_ratio)
        if self.kind == NodeKind.SUBSET:
            branch_of_code = np.ones(self.n_categories, dtype=np.int64)
            branch_of_code[self.left_code] = 0
            return Split(feature=self.feature, kind=NodeKind.SUBSET, score=self.gain_ratio,
                         branch_of_code=branch_of_code, n_branches=2, info=info)
        if self.kind == NodeKind.THRESHOLD:
            info.update(raw_gain=self.raw_gain, mdl_penalty=self.penalty, n_cuts=self.n_cuts,
                        midpoint=self.midpoint)
            return Split(feature=self.feature, kind=NodeKind.THRESHOLD, score=self.gain_ratio,
                         threshold=self.threshold, n_branches=2, info=info)
        return multiway_split(self.feature, self.table, self.gain_ratio, **info)


def _ratio(gain: float, split_info: float) -> float:
    return gain / split_info if split_info > 0 else 0.0


def numeric_candidate(x, y, w, *, feature: int, n_classes: int, min_samples_leaf: int,
                      mdl_correction: bool = True, training_values=None) -> Candidate | None:
    """The best threshold test ``x <= t`` of one numeric attribute at a node, or None.

    ``x``, ``y``, ``w``: the node's values (NaN unknown), class codes and weights.
    ``training_values``: the sorted distinct known values of the attribute in the whole
    training set, from which the reported threshold is taken (default: the node's).
    """
    x = np.asarray(x, dtype=float)
    w = np.asarray(w, dtype=float)
    scan = threshold_tables(x, y, w, n_classes)           # one sort, prefix sums
    return threshold_candidate(scan, float(w.sum()), int(np.count_nonzero(~np.isnan(x))),
                               feature=feature, n_classes=n_classes,
                               min_samples_leaf=min_samples_leaf,
                               mdl_correction=mdl_correction,
                               training_values=training_values)


def threshold_candidate(scan: dict, total: float, n_known: int, *, feature: int,
                        n_classes: int, min_samples_leaf: int, mdl_correction: bool = True,
                        training_values=None) -> Candidate | None:
    """C4.5's best threshold test from one sorted scan of a node, or None.

    ``scan``: the cuts of the node's attribute, as :func:`treebook.core.splits.threshold_tables`
    returns them (``tables``, ``lower``, ``upper``, ``known``, ``missing``); ``total``: the
    node's weight ``|D|``; ``n_known``: how many of its cases have a known value. The
    admissible cuts (gap above ``MIN_CUT_GAP``, ``min_split_weight`` each side) are scored
    by ``F · g(D_k, cut)``, the best (ties to the lowest) is charged the MDL penalty
    ``log2(N_cuts)/|D|``. Shared by :func:`numeric_candidate` (which sorts the node's
    cases) and the fast grower (:func:`treebook.growers.c45.grow_c45`, which keeps them
    sorted), so both score a cut with the same arithmetic.
    """
    known_w = float(scan["known"].sum())
    min_split = min_split_weight(known_w, n_classes, min_samples_leaf)
    if n_known < 2 * min_split:                           # J48: too few known cases
        return None
    tables = scan["tables"]
    left = tables[:, 0, :].sum(axis=1)
    ok = ((scan["lower"] + MIN_CUT_GAP < scan["upper"])   # J48: previous + 1e-5 < next
          & (left >= min_split - SMALL) & (known_w - left >= min_split - SMALL))
    n_cuts = int(np.count_nonzero(ok))
    if n_cuts == 0:
        return None
    gains = known_w / total * imp.information_gain(tables[ok], check=False)
    j = best_index(gains)                                  # ties: the first (lowest) cut
    values = scan["lower"] if training_values is None else training_values
    return threshold_at(tables[ok][j], scan["missing"], scan["lower"][ok][j],
                        scan["upper"][ok][j], float(gains[j]), n_cuts, total,
                        feature=feature, mdl_correction=mdl_correction, values=values)


def threshold_at(table, missing, lower: float, upper: float, raw_gain: float, n_cuts: int,
                 total: float, *, feature: int, mdl_correction: bool, values,
                 split_info: float | None = None) -> Candidate:
    """The candidate of the chosen cut between the sorted values ``lower < upper``.

    ``table``: its known cases' class weights (left, right); ``missing``: the unknown
    cases'; ``raw_gain``: ``F · g``; ``n_cuts``: how many cuts were admissible; ``total``:
    ``|D|``; ``values``: the sorted distinct values a threshold is reported from. The MDL
    charge, the midpoint, the threshold and the split information
    (:func:`c45_split_information`, unless ``split_info`` brings it: the fast grower
    computes it for all attributes of a node in one call) are computed here, once for
    both growers.
    """
    penalty = np.log2(n_cuts) / total if mdl_correction else 0.0
    gain = raw_gain - penalty
    # no cut gains anything, or the best one does not pay for its choice: inadmissible
    admissible = raw_gain > SMALL and gain >= SMALL
    midpoint = (lower + upper) / 2
    if midpoint >= upper:                                  # rounding: keep the cut between
        midpoint = lower
    values = np.asarray(values)
    # C4.5 reports the largest training value not above the midpoint (GreatestValueBelow);
    # the values are sorted, so it is the one before where the midpoint would go
    at = int(np.searchsorted(values, midpoint, side="right"))
    threshold = float(values[at - 1]) if at > 0 else float(lower)
    if split_info is None:
        split_info = c45_split_information(table, missing)
    return Candidate(feature, NodeKind.THRESHOLD, gain, split_info, _ratio(gain, split_info),
                     table, missing, raw_gain, penalty, threshold, float(midpoint),
                     n_cuts, admissible=admissible)


def categorical_candidate(codes, y, w, *, feature: int, n_categories: int, n_classes: int,
                          min_samples_leaf: int) -> Candidate | None:
    """The multiway test on one categorical attribute at a node (None if no case has a
    known value); inadmissible unless two branches hold ``min_samples_leaf`` weight."""
    w = np.asarray(w, dtype=float)
    table, missing = categorical_table(codes, y, w, n_categories, n_classes)
    sizes = table.sum(axis=1)
    if sizes.sum() <= 0:
        return None
    gain = c45_gain(table, missing)
    split_info = c45_split_information(table, missing)
    return Candidate(feature, NodeKind.MULTIWAY, gain, split_info, _ratio(gain, split_info),
                     table, missing, gain,
                     admissible=np.count_nonzero(sizes >= min_samples_leaf - SMALL) >= 2)


def binary_categorical_candidate(codes, y, w, *, feature: int, n_categories: int,
                                 n_classes: int, min_samples_leaf: int) -> Candidate | None:
    """The best test ``A = a`` against ``A ≠ a`` on one categorical attribute (J48's
    ``-B``, ``BinC45Split``), or None when no value can make one.

    Every value ``a`` holding at least ``min_samples_leaf`` known weight, with at least
    as much left for the other values, is tried; the one with the largest gain ratio is
    kept (ties to the first value, as J48, which also keeps the first value whenever it
    qualifies). Unlike a multiway test the attribute stays usable below, and a case
    whose value is not ``a`` goes right, whether or not its value occurred at the node.
    """
    w = np.asarray(w, dtype=float)
    table, missing = categorical_table(codes, y, w, n_categories, n_classes)
    sizes = table.sum(axis=1)
    if sizes.sum() <= 0:
        return None
    best = None
    for a in range(n_categories):
        if sizes[a] < min_samples_leaf - SMALL:
            continue
        two = np.stack([table[a], table.sum(axis=0) - table[a]])
        if np.count_nonzero(two.sum(axis=1) >= min_samples_leaf - SMALL) < 2:
            continue
        gain = c45_gain(two, missing)
        split_info = c45_split_information(two, missing)
        ratio = _ratio(gain, split_info)
        if best is None or a == 0 or ratio - best.gain_ratio > SMALL:
            best = Candidate(feature, NodeKind.SUBSET, gain, split_info, ratio, two, missing,
                             gain, left_code=a, n_categories=n_categories)
    return best


def choose_candidate(candidates: list) -> tuple[Candidate | None, float]:
    """C4.5's choice among the admissible tests: ``(best, average gain)``.

    The average gain is taken over the admissible candidates that are not many-valued
    (when every attribute is many-valued none is marked so, see :func:`c45_split_finder`);
    the best is the one with the largest gain ratio among the admissible candidates whose
    gain is at least that average less ``AVERAGE_GAIN_SLACK``, ties to the first. None when no
    candidate counts in the average (C4.5 then sets the average to 10⁶, J48 returns "no
    split"), when nothing qualifies, or when the best gain ratio is not positive.
    """
    valid = [c for c in candidates if c is not None and c.admissible]
    counted = [c for c in valid if not c.many_valued]
    if not counted:
        return None, np.nan
    average = float(np.mean([c.gain for c in counted]))
    eligible = [c for c in valid if c.gain >= average - AVERAGE_GAIN_SLACK]
    if not eligible:
        return None, average
    ratios = np.array([c.gain_ratio for c in eligible])
    best = eligible[best_index(ratios)]
    return (best if best.gain_ratio > SMALL else None), average


@dataclass(frozen=True)
class C45Context:
    """What C4.5's split finder knows about the training set, fixed for one fit.

    ``categorical[f]`` (feature ``f`` holds category codes, with ``n_categories[f]``
    categories) or numbers; ``many_valued[f]``: left out of the average gain (at least
    ``MANY_VALUES · n`` categories, unless every attribute is so); ``values[f]``: the
    sorted distinct known training values of a numeric feature (None for a categorical
    one), from which thresholds are reported.
    """

    categorical: tuple
    n_categories: tuple
    n_classes: int
    min_samples_leaf: int
    mdl_correction: bool
    many_valued: np.ndarray
    values: tuple
    binary_splits: bool = False

    @classmethod
    def from_data(cls, X, categorical, n_categories, n_classes, min_samples_leaf,
                  mdl_correction, binary_splits=False) -> "C45Context":
        n = X.shape[0]
        many = np.array([bool(c) and n_categories[f] >= MANY_VALUES * n
                         for f, c in enumerate(categorical)])
        # when every attribute is many-valued, all count in the average (release 8's MultiVal)
        if many.all():
            many[:] = False
        values = tuple(None if c else np.unique(X[~np.isnan(X[:, f]), f])
                       for f, c in enumerate(categorical))
        return cls(tuple(categorical), tuple(n_categories), n_classes, min_samples_leaf,
                   mdl_correction, many, values, binary_splits)

    def evaluate(self, X, y, w, rows, available) -> list:
        """Every attribute's best test at a node (None where there is none)."""
        out = []
        for f in range(X.shape[1]):
            if not available[f]:
                out.append(None)
                continue
            x = X[rows, f]
            if self.categorical[f]:
                make = (binary_categorical_candidate if self.binary_splits
                        else categorical_candidate)
                c = make(x, y[rows], w, feature=f,
                                          n_categories=self.n_categories[f],
                                          n_classes=self.n_classes,
                                          min_samples_leaf=self.min_samples_leaf)
                if c is not None:
                    c.many_valued = self.many_valued[f]
            else:
                c = numeric_candidate(x, y[rows], w, feature=f, n_classes=self.n_classes,
                                      min_samples_leaf=self.min_samples_leaf,
                                      mdl_correction=self.mdl_correction,
                                      training_values=self.values[f])
            out.append(c)
        return out


def c45_split_finder(X, categorical, n_categories, n_classes, *, min_samples_leaf=2,
                     mdl_correction=True, binary_splits=False):
    """The C4.5 split finder for :func:`treebook.growers.recursive.grow_tree` on the encoded ``X``.

    ``categorical[f]`` says whether feature ``f`` holds category codes (with
    ``n_categories[f]`` categories) or numbers; ``binary_splits`` makes every categorical
    test one value against the rest (J48's ``-B``).
    """
    ctx = C45Context.from_data(X, categorical, n_categories, n_classes, min_samples_leaf,
                               mdl_correction, binary_splits)

    def find(X, y, w, rows, available):
        if w.sum() < 2 * min_samples_leaf:       # too little weight to make two branches
            return None
        best, _ = choose_candidate(ctx.evaluate(X, y, w, rows, available))
        return None if best is None else best.to_split()

    return find
