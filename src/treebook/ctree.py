"""Conditional inference trees (Hothorn, Hornik & Zeileis 2006), the learners: R's
``partykit::ctree`` with ``majority = TRUE``.

A node's variable is the one whose test of independence from the response has the
smallest p-value (:mod:`treebook.core.independence`: Strasser & Weber's linear
statistic and its quadratic form, asymptotic χ² or Monte-Carlo permutation p-value);
the node is split only when that p-value, adjusted for the number of variables tested,
is below ``alpha``; the split point is the binary split of that variable with the largest
maximally selected statistic (at an observed value, ``intersplit = FALSE``). The grower
is ``treebook.growers.ctree.grow_ctree``. Because the variable is chosen by a
p-value, a variable with many values or cut points has no advantage over one with few:
the selection bias of information gain and Gini is gone.

**Inputs.** Numeric columns are tested on their values; categorical columns as nominal
(the indicators of their categories); a pandas ``Categorical`` with ``ordered=True`` as
ordered, scored ``1, 2, …`` over the categories present in the training data (partykit
drops unused levels) and split at a level (the levels up to it go left). Only this
learner reads the ordering (``ordered_features_``); the encoder and the JSON schema are
unchanged, because an ordered split is stored as a subset split (``SUBSET``, the levels
sent left).

**Missing values.** A variable's test uses the cases where it is known. A case missing
the split variable (or holding a category the node never saw) follows the node's
surrogate splits (``max_surrogates > 0``, partykit's ``maxsurrogate``), else goes to the
branch most of the node's cases took (partykit's ``majority = TRUE``; its default
``majority = FALSE`` sends it at random with the branches' shares, which no test can
reproduce), in fitting and prediction alike.

**Test types.** ``testtype="bonferroni"`` is partykit's ``"Bonferroni"``: it adjusts
``p`` to ``1 - (1 - p)^k`` over the ``k`` variables tested at the node (Šidák's form;
partykit multiplies ``log(1 - p)`` by ``k``), ``"univariate"`` uses ``p`` itself.
partykit's ``"Teststatistic"`` (choose and stop by the raw statistic, ``log c_quad``
against ``log(mincriterion)``) is not offered: it compares statistics with different
degrees of freedom, which brings the selection bias back. ``pvalue="permutation"`` is
partykit's ``"MonteCarlo"`` (``nresample`` = ``n_resamples``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .core import independence as ind
from .core.base import (DecisionTreeClassifierBase, DecisionTreeRegressorBase, Interval,
                        Options, RandomState, validate_params)
from .core.encoding import FeatureEncoder
from .core.feature_draw import draw_seed
from .core.targets import check_sample_weight, encode_labels, encode_targets
from .growers.ctree import NOMINAL, NUMERIC, ORDERED, CtreeSettings, grow_ctree, variable_tests

__all__ = ["ConditionalTreeClassifier", "ConditionalTreeRegressor", "root_pvalues"]

_CONSTRAINTS = {
    "alpha": Interval(float, 0, 1, closed="neither"),
    "testtype": Options("bonferroni", "univariate"),
    "pvalue": Options("asymptotic", "permutation"),
    "n_resamples": Interval(int, 1, None),
    "min_samples_split": Interval(int, 1, None),
    "min_samples_leaf": Interval(int, 1, None),
    "min_prob": Interval(float, 0, 1, closed="left"),
    "max_depth": Interval(int, 0, None, allow_none=True),
    "max_surrogates": Interval(int, 0, None),
    "random_state": RandomState(),
}


def _ordered_flags(X, n_features) -> np.ndarray:
    """Which columns of ``X`` are pandas ordered Categoricals."""
    if not isinstance(X, pd.DataFrame):
        return np.zeros(n_features, bool)
    return np.array([isinstance(X.iloc[:, j].dtype, pd.CategoricalDtype)
                     and bool(X.iloc[:, j].dtype.ordered) for j in range(X.shape[1])])


def _kinds_scores(encoder, ordered, Xe):
    """Per feature: the kind of test, the scores of an ordered one's codes (1, 2, … over
    the codes present in ``Xe``) and its number of codes."""
    kinds, scores, n_codes = [], [], []
    for j, cats in enumerate(encoder.categories):
        if cats is None:
            kinds.append(NUMERIC), scores.append(None), n_codes.append(0)
            continue
        n_codes.append(len(cats))
        if ordered[j]:
            col = Xe[:, j]
            present = np.zeros(len(cats), bool)
            present[np.unique(col[~np.isnan(col)]).astype(np.int64)] = True
            kinds.append(ORDERED)
            scores.append(np.cumsum(present).astype(float))
        else:
            kinds.append(NOMINAL)
            scores.append(None)
    return kinds, scores, n_codes


class _ConditionalTreeMixin:
    _parameter_constraints = _CONSTRAINTS
    _missing = "rule"  # a case missing the split variable: surrogates, then the majority
    _weight_units = "cases"  # a significance test counts cases

    def _encode_fit(self, X, sample_weight):
        Xe, w = super()._encode_fit(X, sample_weight)
        self.ordered_features_ = _ordered_flags(X, Xe.shape[1])
        return Xe, w

    def _settings(self):
        rng = (np.random.default_rng(draw_seed(self.random_state))
               if self.pvalue == "permutation" else None)
        return CtreeSettings(alpha=self.alpha, bonferroni=self.testtype == "bonferroni",
                             pvalue=self.pvalue, n_resamples=self.n_resamples,
                             min_samples_split=self.min_samples_split,
                             min_samples_leaf=self.min_samples_leaf, min_prob=self.min_prob,
                             max_depth=self.max_depth, max_surrogates=self.max_surrogates,
                             rng=rng)

    def _grow_ctree(self, X, y, w, n_classes, classes):
        kinds, scores, n_codes = _kinds_scores(self.encoder_, self.ordered_features_, X)
        meta = self._metadata(classes)
        meta.setdefault("extra", {}).update(algorithm="ctree")
        tree, info = grow_ctree(X, y, w, kinds=kinds, scores=scores, n_codes=n_codes,
                                n_classes=n_classes, settings=self._settings(), metadata=meta)
        self.node_pvalues_ = info["pvalue"]
        self.node_variable_pvalues_ = info["pvalues"]
        self.node_statistics_ = info["statistics"]
        return tree


_DOC_PARAMS = """
    Parameters
    ----------
    alpha : float in (0, 1)
        a node is split when the smallest (adjusted) p-value is below ``alpha``
        (partykit's ``mincriterion = 1 - alpha``; default 0.05).
    testtype : ``"bonferroni"`` or ``"univariate"``
        adjust the p-values for the number ``k`` of variables tested, as partykit's
        ``"Bonferroni"`` does (``1 - (1 - p)^k``), or not.
    pvalue : ``"asymptotic"`` or ``"permutation"``
        the χ² approximation of the quadratic form (default) or the Monte-Carlo
        permutation p-value (partykit's ``testtype = "MonteCarlo"``) from ``n_resamples``
        permutations drawn from ``random_state``; weights must then be whole numbers.
    n_resamples : int ≥ 1
        permutations of the Monte-Carlo p-value (partykit's ``nresample``, 9999).
    min_samples_split : int ≥ 1
        a node of less weight stays a leaf (``minsplit``, 20).
    min_samples_leaf : int ≥ 1
        each side of a split holds at least this weight of cases with the split variable
        known (``minbucket``, 7), or ``ceil(min_prob · |D|)`` if larger.
    min_prob : float in [0, 1)
        partykit's ``minprob`` (0.01).
    max_depth : int ≥ 0 or None
        nodes at this depth are leaves (``maxdepth``).
    max_surrogates : int ≥ 0
        surrogate splits per node for cases missing the split variable
        (``maxsurrogate``, 0: such a case goes to the majority branch).
    random_state : None, int or numpy generator
        the permutations' seed (only with ``pvalue="permutation"``).

    Attributes
    ----------
    tree_ : Tree
        the fitted tree.
    node_pvalues_ : numpy.ndarray
        shape ``(n_nodes,)``; per node, the smallest (adjusted) p-value of its tests; NaN where no test was
        made (a node stopped by ``max_depth`` or ``min_samples_split``, or with no
        variable to test).
    node_variable_pvalues_ : numpy.ndarray
        shape ``(n_nodes, n_features)``; per node and variable, the (adjusted) p-value, NaN for no test.
    node_statistics_ : numpy.ndarray
        shape ``(n_nodes, n_features)``; per node and variable, the statistic ``c_quad``.
    ordered_features_ : numpy.ndarray
        booleans, one per column;
        the columns read as ordered (pandas ordered Categoricals).
"""


class ConditionalTreeClassifier(_ConditionalTreeMixin, DecisionTreeClassifierBase):
    __doc__ = ("Conditional inference tree for classes (partykit's ``ctree`` with "
               "``majority = TRUE``; see :mod:`treebook.ctree`).\n" + _DOC_PARAMS)

    def __init__(self, alpha=0.05, testtype="bonferroni", pvalue="asymptotic",
                 n_resamples=9999, min_samples_split=20, min_samples_leaf=7, min_prob=0.01,
                 max_depth=None, max_surrogates=0, random_state=None):
        self.alpha = alpha
        self.testtype = testtype
        self.pvalue = pvalue
        self.n_resamples = n_resamples
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_prob = min_prob
        self.max_depth = max_depth
        self.max_surrogates = max_surrogates
        self.random_state = random_state

    def _grow(self, X, y, w):
        return self._grow_ctree(X, y, w, self.n_classes_, self.classes_)


class ConditionalTreeRegressor(_ConditionalTreeMixin, DecisionTreeRegressorBase):
    __doc__ = ("Conditional inference tree for a numeric response (partykit's ``ctree`` "
               "with ``majority = TRUE``; see :mod:`treebook.ctree`).\n" + _DOC_PARAMS)

    def __init__(self, alpha=0.05, testtype="bonferroni", pvalue="asymptotic",
                 n_resamples=9999, min_samples_split=20, min_samples_leaf=7, min_prob=0.01,
                 max_depth=None, max_surrogates=0, random_state=None):
        self.alpha = alpha
        self.testtype = testtype
        self.pvalue = pvalue
        self.n_resamples = n_resamples
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_prob = min_prob
        self.max_depth = max_depth
        self.max_surrogates = max_surrogates
        self.random_state = random_state

    def _target_exponent(self, y) -> int:
        return 0  # the test is scale-free; the tree keeps the caller's units

    def _grow(self, X, y, w, **_):
        return self._grow_ctree(X, y, w, 0, None)


@validate_params({"testtype": Options("bonferroni", "univariate"),
                  "pvalue": Options("asymptotic", "permutation"),
                  "n_resamples": Interval(int, 1, None), "random_state": RandomState()})
def root_pvalues(X, y, sample_weight=None, *, regression: bool = False,
                 testtype: str = "bonferroni", pvalue: str = "asymptotic",
                 n_resamples: int = 9999, random_state=None):
    """Every variable's test at the root, as a table: the variable a conditional
    inference tree would choose, without growing one (for selection-bias simulations).

    ``X``, ``y``, ``sample_weight`` as for ``fit`` (``regression=True``: ``y`` is a numeric
    response). Returns a :class:`pandas.DataFrame` indexed by feature name with the
    columns ``statistic`` (``c_quad``), ``df``, ``pvalue`` (unadjusted), ``adjusted``
    (``1 - (1 - p)^k`` under ``testtype="bonferroni"``, else ``pvalue``) and ``chosen``
    (the smallest adjusted p-value; ties: the larger statistic, then the first column).
    """
    if not isinstance(regression, bool):
        raise TypeError(f"regression must be True or False; got {regression!r}")
    enc, Xe = FeatureEncoder.fit(X, allow_missing=True)
    w = check_sample_weight(sample_weight, Xe.shape[0])
    if regression:
        yv = encode_targets(y, Xe.shape[0])
        h = yv[:, None]
    else:
        classes, yc = encode_labels(y, Xe.shape[0])
        h = np.eye(len(classes))[yc]
    keep = w > 0
    Xe, h, w = Xe[keep], h[keep], w[keep]
    kinds, scores, n_codes = _kinds_scores(enc, _ordered_flags(X, Xe.shape[1]), Xe)
    settings = CtreeSettings(pvalue=pvalue, n_resamples=n_resamples,
                             rng=np.random.default_rng(draw_seed(random_state))
                             if pvalue == "permutation" else None)
    stat, df, pv = variable_tests(Xe, h, w, kinds, scores, n_codes, settings)
    k = int(np.isfinite(pv).sum())
    adj = np.array([ind.sidak(p, k) for p in pv]) if testtype == "bonferroni" else pv
    key = np.where(np.isfinite(adj), adj, np.inf)
    chosen = np.zeros(len(pv), bool)
    if k:
        order = sorted(range(len(pv)), key=lambda j: (key[j], -np.nan_to_num(stat[j]), j))
        chosen[order[0]] = True
    return pd.DataFrame({"statistic": stat, "df": df, "pvalue": pv, "adjusted": adj,
                         "chosen": chosen}, index=list(enc.names))
