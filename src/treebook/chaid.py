"""CHAID (Kass 1980): merged categories, Bonferroni-adjusted χ² tests, multiway splits.

At each node, for every predictor, CHAID

1. **merges** the predictor's categories: the pair of groups whose ``2 × K`` sub-table
   is least significant is merged while its p-value is at least ``alpha_merge`` (only
   adjacent groups for an ordinal predictor, any two for a nominal one; a group holding
   less weight than ``min_samples_leaf`` is then merged with its least different
   partner) — ``treebook.growers.chaid_merge.merge_categories``;
2. **tests** the merged ``r × K`` table (Pearson's ``X²`` by default, the likelihood
   ratio ``G`` with ``criterion="likelihood"``) and multiplies its p-value by Kass's
   Bonferroni multiplier, the number of ways its ``c`` categories could have been reduced
   to ``r`` groups: ``S(c, r)`` (Stirling number of the second kind) for a nominal
   predictor, ``C(c − 1, r − 1)`` for an ordinal one
   (``treebook.growers.chaid_merge.bonferroni_multiplier``);
3. **splits** on the predictor with the smallest adjusted p-value, one branch per group,
   if that p-value is below ``alpha_split``; otherwise the node is a leaf.

A predictor is not used up on its path: a branch holding several merged categories may be
split on the same predictor again. Kass's step 3 — a merged group of three or more
categories whose most significant binary split has a p-value below ``alpha_merge`` is
split in two, and merging resumes — is done with ``split_merged=True``
(``treebook.growers.chaid_merge``, which says why ``alpha_merge`` is the level). It is off
by default: the variant of the CHAID package (PyPI ``CHAID``, version 5.5.1, the oracle of
``tests/oracles/test_chaid_oracle.py``) and of SPSS's default (``SPLITMERGED=NO``); the
package also applies no Bonferroni adjustment (``bonferroni=False`` reproduces it).

**Kinds of predictor.** A categorical column is nominal, unless it is a pandas ordered
``Categorical`` or is named in ``ordinal`` (then its categories are ordered as the
encoder sorts them, or as the ordered dtype lists them). A **numeric column is binned**
into at most ``max_bins`` (default 10) bins of about equal frequency and treated as
ordinal, as SPSS's CHAID treats a scale predictor: the bins are those of
``treebook.growers.binning.bin_edges`` on the training rows of positive weight (a column
with at most ``max_bins`` distinct values gets one bin per value; otherwise cuts after
the values whose cumulative counts are nearest to ``k·N/max_bins``, ``k = 1 …
max_bins − 1``, ``N`` the total weight: an integer weight counts as that many copies of
the row); a value ``x`` goes to bin ``#{edges < x}``,
at fit and predict alike (``bin_edges_``).

**Prediction.** A leaf predicts its majority class (ties to the first in ``classes_``).
A category that has no branch at a node — never seen in training, or not present at
that node — stops the case there: it gets that node's class distribution (the rule of
every multiway split in the package).

**Missing values** (NaN, None, ``pd.NA``; in categorical and numeric columns) are a
category of their own, as Kass (1980) and the CHAID programs treat them: for a nominal
predictor one more category that merges like any other, for an ordinal one (a numeric
column's bins included) Kass's *floating* category, which may merge with any group while
the others keep their order, and whose Bonferroni multiplier is ``C(c−2, r−2) +
r·C(c−2, r−1)`` (``c`` counting the missing category; at a node without missing values
the ordinary ``C(c−1, r−1)``). ``root_table`` lists it as ``"<missing>"``, and so do the
rules and drawings of a tree fitted on missing values, in the branch a missing value
takes. In prediction, a case missing the split variable follows the group its category
merged into; at a node
whose training cases had no missing value there, it follows the branch with the most
training weight (ties to the first) — the tree's ``missing_go``, kept in the JSON model
file. An unseen category still stops the case at the node.

**Weights** count cases: ``sample_weight`` multiplies a row's count in every table (an
integer weight is that many copies of the row), so the tests depend on their scale.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from .core.base import DecisionTreeClassifierBase, Interval, Options
from .growers.binning import bin_edges
from .growers.chaid import grow_chaid
from .growers.chaid_merge import STATISTICS

__all__ = ["CHAIDClassifier", "MISSING_LABEL", "root_p_values"]

#: how :meth:`CHAIDClassifier.root_table` names the missing category
MISSING_LABEL = "<missing>"


def _interval_labels(edges: np.ndarray) -> np.ndarray:
    """The labels of the bins cut at ``edges``: ``≤ e0``, ``(e0, e1]``, …, ``> e_last``."""
    e = [f"{v:.6g}" for v in edges]
    if not e:
        labels = ["all"]
    else:
        labels = [f"≤ {e[0]}"] + [f"({a}, {b}]" for a, b in zip(e[:-1], e[1:])] + [f"> {e[-1]}"]
    out = np.empty(len(labels), dtype=object)
    out[:] = labels
    return out


class CHAIDClassifier(DecisionTreeClassifierBase):
    """CHAID decision tree (Kass 1980): merged categories, Bonferroni-adjusted tests.

    Parameters
    ----------
    alpha_merge : float in (0, 1]
        two groups of categories whose sub-table has a p-value of at least this are
        merged.
    alpha_split : float in (0, 1]
        a node is split only if its best (adjusted) p-value is below this.
    max_depth : int ≥ 0 or None
        nodes at this depth are leaves (the root has depth 0).
    min_samples_split : int ≥ 2
        a node with fewer cases (rows of positive weight) is a leaf.
    min_samples_leaf : int ≥ 1
        after merging, a group holding less weight is merged with its least different
        partner, so every child holds at least this much.
    criterion : ``"pearson"`` or ``"likelihood"``
        the test statistic: Pearson's ``X²`` or the likelihood ratio ``G``.
    bonferroni : bool
        multiply each predictor's p-value by Kass's multiplier before comparing
        predictors and with ``alpha_split``.
    ordinal : None or a list of column names (a DataFrame) or indices
        categorical columns to treat as ordinal (adjacent merges only), besides pandas
        ordered categoricals; numeric columns are always ordinal (binned).
    max_bins : int ≥ 2
        the most bins of a numeric column.
    split_merged : bool
        Kass's step 3: after merging, split a merged group of three or more categories in
        two where its most significant binary split has a p-value below ``alpha_merge``,
        then merge again. False (the default): the CHAID package's and SPSS's default.

    Notes
    -----
    The algorithm, the binning of numeric columns and the prediction rule are described
    in the module docstring. ``fit(X, y, sample_weight=None)`` takes a DataFrame or a
    2-D array of any labels.

    Attributes after ``fit``: ``tree_`` (the fitted :class:`treebook.core.tree.Tree`),
    ``classes_``, ``ordinal_`` (per column: treated as ordinal), ``bin_edges_`` (per
    column: the bin edges of a numeric column, None for a categorical one); per node of
    ``tree_`` (index = node id), the test of the predictor chosen there (at a leaf, of
    the best one, which failed ``alpha_split``; NaN where nothing was tested):
    ``node_statistic_``, ``node_dof_``, ``node_p_value_`` (unadjusted),
    ``node_adjusted_p_value_``, ``node_best_feature_`` (-1: none); per column, its test
    at the root (NaN where it has fewer than two groups): ``root_statistic_``,
    ``root_dof_``, ``root_p_value_``, ``root_multiplier_``, ``root_adjusted_p_value_``,
    ``root_n_groups_`` and ``root_groups_`` (the merged category codes; code
    ``len(tree_.categories[f])``, one past column ``f``'s last, is its missing
    category), also as a table
    by :meth:`root_table`. The root is tested even with ``max_depth=0``.

    Examples
    --------
    >>> from treebook.datasets import load_play_tennis
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> model = CHAIDClassifier(alpha_merge=0.2, alpha_split=0.5).fit(X, y)
    >>> print(model.export_text())
    root: n = 14 [No 5, Yes 9]
    |--- Humidity = High: n = 7 [No 4, Yes 3]
    |   |--- Outlook ∈ {Overcast, Rain}: n = 4 [No 1, Yes 3] → Yes
    |   |--- Outlook = Sunny: n = 3 [No 3, Yes 0] → No
    |--- Humidity = Normal: n = 7 [No 1, Yes 6] → Yes
    """

    _parameter_constraints = {
        "alpha_merge": Interval(float, 0.0, 1.0, closed="right"),
        "alpha_split": Interval(float, 0.0, 1.0, closed="right"),
        "max_depth": Interval(int, 0, None, allow_none=True),
        "min_samples_split": Interval(int, 2, None),
        "min_samples_leaf": Interval(int, 1, None),
        "criterion": Options(*STATISTICS),
        "bonferroni": Options(True, False),
        "max_bins": Interval(int, 2, 65535),
        "split_merged": Options(True, False),
    }
    _all_categorical = False
    _missing = "rule"  # a category of its own; see the module docstring
    _weight_units = "cases"  # the χ² tests read weights as counts of cases

    def __init__(self, alpha_merge=0.05, alpha_split=0.05, max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, criterion="pearson",
                 bonferroni=True, ordinal=None, max_bins=10, split_merged=False):
        self.alpha_merge = alpha_merge
        self.alpha_split = alpha_split
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.criterion = criterion
        self.bonferroni = bonferroni
        self.ordinal = ordinal
        self.max_bins = max_bins
        self.split_merged = split_merged

    # ------------------------------------------------------------------ input
    def _ordinal_columns(self, X) -> np.ndarray:
        names = list(self.encoder_.names)
        cats = self.encoder_.categories
        out = np.array([c is None for c in cats])
        if isinstance(X, pd.DataFrame):
            for j in range(X.shape[1]):
                dt = X.dtypes.iloc[j]
                if isinstance(dt, pd.CategoricalDtype) and dt.ordered:
                    out[j] = True
        if self.ordinal is None:
            return out
        if isinstance(self.ordinal, (str, bytes)) or not hasattr(self.ordinal, "__iter__"):
            raise TypeError(f"ordinal must be None or a list of column names or indices; "
                            f"got {self.ordinal!r}")
        for item in self.ordinal:
            if isinstance(item, numbers.Integral) and not isinstance(item, bool):
                if not 0 <= item < len(names):
                    raise ValueError(f"ordinal names column {item}, but X has {len(names)} "
                                     "columns")
                out[int(item)] = True
            elif isinstance(item, str) and item in names:
                out[names.index(item)] = True
            else:
                raise ValueError(f"ordinal names {item!r}, which is not a column of X "
                                 f"(columns: {names})")
        return out

    def _bin(self, Xe: np.ndarray) -> np.ndarray:
        """Numeric columns to their bin codes ``#{edges < x}`` (categorical ones as they are)."""
        if all(e is None for e in self.bin_edges_):
            return Xe
        out = np.array(Xe, dtype=float, order="C")
        for f, e in enumerate(self.bin_edges_):
            if e is not None:
                col = out[:, f]  # a missing value stays NaN (its own category)
                out[:, f] = np.where(np.isnan(col), np.nan, np.searchsorted(e, col, side="left"))
        return out

    def _encode_fit(self, X, sample_weight):
        Xe, w = super()._encode_fit(X, sample_weight)
        self.ordinal_ = self._ordinal_columns(X)
        edges = []
        for f, cats in enumerate(self.encoder_.categories):
            if cats is not None:
                edges.append(None)
                continue
            # weights count cases: the bins are equal-frequency bins of the weighted cases
            known = (w > 0) & ~np.isnan(Xe[:, f])
            values, inverse = np.unique(Xe[known, f], return_inverse=True)
            counts = np.bincount(inverse, weights=w[known], minlength=values.size)
            edges.append(bin_edges(values, counts, self.max_bins)[0] if values.size
                         else np.empty(0))
        self.bin_edges_ = tuple(edges)
        return self._bin(Xe), w

    def _encode(self, X):
        return self._bin(super()._encode(X))

    def _metadata(self, classes=None):
        meta = super()._metadata(classes)
        meta["categories"] = tuple(_interval_labels(e) if e is not None else c
                                   for c, e in zip(meta["categories"], self.bin_edges_))
        return meta

    def _grow_metadata(self, X):
        meta = self._metadata(self.classes_)
        if np.isnan(X).any():  # drawings and rules show where the missing category goes
            meta["extra"] = {**meta.get("extra", {}), "missing_label": MISSING_LABEL}
        return meta

    # ------------------------------------------------------------------ growing
    def _grow(self, X, y, w):
        n_categories = [e.size + 1 if e is not None else len(c)
                        for c, e in zip(self.encoder_.categories, self.bin_edges_)]
        tree, tests = grow_chaid(
            X, y, w, n_categories=n_categories, ordinal=self.ordinal_,
            n_classes=self.n_classes_, alpha_merge=self.alpha_merge,
            alpha_split=self.alpha_split, statistic=self.criterion,
            bonferroni=self.bonferroni, max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf, split_merged=self.split_merged,
            metadata=self._grow_metadata(X))
        self.node_statistic_ = tests.statistic
        self.node_dof_ = tests.dof
        self.node_p_value_ = tests.p_value
        self.node_adjusted_p_value_ = tests.adjusted_p_value
        self.node_best_feature_ = tests.feature
        root = list(tests.root) or [None] * X.shape[1]

        def column(field, empty=np.nan):
            return np.array([empty if t is None else getattr(t, field) for t in root],
                            dtype=float)

        self.root_statistic_ = column("statistic")
        self.root_dof_ = column("dof")
        self.root_p_value_ = column("p_value")
        self.root_multiplier_ = column("multiplier")
        self.root_adjusted_p_value_ = column("adjusted_p_value")
        self.root_n_groups_ = np.array([0 if t is None else len(t.groups) for t in root],
                                       dtype=np.int64)
        self.root_groups_ = tuple(None if t is None else t.groups for t in root)
        return tree

    # ------------------------------------------------------------------ reading
    def root_table(self) -> pd.DataFrame:
        """Every predictor's test at the root, one row per column of ``X``: ``kind``
        (``"ordinal"``/``"nominal"``), ``n_groups``, ``groups`` (the merged categories,
        by their labels, the missing category as ``"<missing>"``; a numeric column's by
        its bins), ``statistic``, ``dof``,
        ``p_value``, ``multiplier``, ``adjusted_p_value`` and ``chosen`` (the predictor
        CHAID splits the root on, or would with ``alpha_split=1``)."""
        self._check_fitted()
        cats = self.tree_.categories

        def label(f, c):  # code len(cats[f]) is the missing category
            return MISSING_LABEL if c == len(cats[f]) else cats[f][c]

        groups = [None if g is None else tuple(tuple(label(f, c) for c in grp) for grp in g)
                  for f, g in enumerate(self.root_groups_)]
        frame = pd.DataFrame({
            "kind": np.where(self.ordinal_, "ordinal", "nominal"),
            "n_groups": self.root_n_groups_, "groups": groups,
            "statistic": self.root_statistic_, "dof": self.root_dof_,
            "p_value": self.root_p_value_, "multiplier": self.root_multiplier_,
            "adjusted_p_value": self.root_adjusted_p_value_},
            index=pd.Index(list(self.encoder_.names), name="feature"))
        key = self.root_adjusted_p_value_ if self.bonferroni else self.root_p_value_
        chosen = np.zeros(len(frame), dtype=bool)
        ok = np.flatnonzero(np.isfinite(key))
        if ok.size:  # smallest p-value, ties to the larger statistic, then the first
            order = np.lexsort((ok, -self.root_statistic_[ok], key[ok]))
            chosen[ok[order[0]]] = True
        frame["chosen"] = chosen
        return frame


def root_p_values(X, y, sample_weight=None, **params) -> pd.DataFrame:
    """Every predictor's CHAID test at the root of ``(X, y)``, as
    :meth:`treebook.chaid.CHAIDClassifier.root_table` gives it, without growing the tree (a
    ``CHAIDClassifier(**params, max_depth=0)`` is fitted): the cheap way to ask which
    predictor CHAID chooses at the root (the row where ``chosen`` is True) and with
    what adjusted p-value."""
    if "max_depth" in params:
        raise TypeError("root_p_values tests the root only; it takes no max_depth")
    return CHAIDClassifier(**params, max_depth=0).fit(X, y, sample_weight).root_table()
