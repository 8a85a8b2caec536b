"""Bagging and random forests, grown from the package's own CART, as scikit-learn grows them.

A forest of ``B`` trees (Breiman 1996, 2001) averages trees grown on resampled rows:

* **bootstrap** (``bootstrap=True``, scikit-learn 1.9's rule, ``_forest.py``): tree ``b``
  draws ``k`` row indices with replacement, row ``i`` with probability
  ``w_i / Σ_j w_j`` (``w``: ``sample_weight`` times the ``class_weight`` of the row's
  class; uniform when neither is given), and is fitted on the *counts alone*: a row drawn
  ``c`` times has weight ``c`` in the tree, whatever its ``sample_weight``. ``k`` is
  ``max_samples``: None → ``n`` (the number of rows), an int → that many draws, a float
  ``f`` → ``max(⌊f · Σ_i w_i⌋, 1)`` (relative to the total weight, so integer weights
  mean what repeated rows mean; ``Σ_i w_i = n`` without weights). The rows never drawn —
  about ``e⁻¹ ≈ 37 %`` of them when ``k = n`` — are the tree's *out-of-bag* (OOB) rows;
* **subsampling without replacement** (``bootstrap="subsample"``, not in scikit-learn):
  tree ``b`` draws ``k`` *distinct* rows (the same probabilities, drawn one after the
  other) and each has weight 1 in the tree. Strobl et al. (2007) showed that the
  bootstrap's repeated rows add to the bias of split selection towards features with
  many candidate splits, and that subsamples of ``0.632 · n`` rows without replacement
  remove that part of it. Here ``k`` is ``max_samples``: None → ``⌊0.632 · n⁺⌋``, a
  float ``f`` → ``max(⌊f · n⁺⌋, 1)``, an int as it is, ``n⁺`` the number of rows with
  positive weight (a draw without replacement can take no more, and the scale of the
  weights means nothing here);
* ``bootstrap=False``: every tree on all rows with weights ``w``;
* **random features** (forests only): every node chooses its split among
  ``max_features`` features drawn at random (``treebook.core.feature_draw``);
  ``max_features=None`` is plain bagging;
* **prediction**: the mean of the trees' class probabilities (the class with the largest
  mean; ties to the first class), or of their predictions for regression;
* **OOB estimate**: each row predicted by the mean over the trees that did not draw it,
  ``oob_decision_function_`` (``oob_prediction_``); ``oob_score_`` the accuracy (R²) of
  those predictions over *all* rows, unweighted, as scikit-learn computes it: a row that
  every tree drew gets a row of zeros (prediction 0), is counted (as class ``classes_[0]``
  for a classifier), and a ``UserWarning`` says that some rows have no OOB prediction;
* **importance**: ``feature_importances_`` is the mean of the normalised MDI
  importances of the trees that have more than one node, renormalised to sum to 1
  (zeros when every tree is a single leaf) — scikit-learn's rule.

**The random numbers are scikit-learn's.** ``random_state`` becomes a legacy
``numpy.random.RandomState`` (an int seeds it; a ``RandomState`` is used and advanced as
it is; None is a fresh one; a ``numpy.random.Generator``, which scikit-learn does not
take, seeds one with ``integers(2**32)``), which gives tree ``b`` the seed
``randint(2**31 - 1)``, in tree order; the tree's rows are then drawn by
``RandomState(seed).randint(0, n, k)`` (no weights) or
``RandomState(seed).choice(n, k, replace=True, p=w / Σw)`` (weights), exactly as
scikit-learn's ``_generate_sample_indices``. So the same ``random_state`` draws the same
rows in both packages (``estimators_samples_`` can be compared index for index), and with
``max_features=None`` on data where no two splits tie the two packages grow the same trees.
``warm_start=True`` skips the seeds of the trees already grown, as scikit-learn does, so
growing 10 trees and then 10 more gives the 20 trees of one fit.

**Where it differs from scikit-learn, on purpose:**

* the trees are :class:`treebook.cart.CARTClassifier` / ``CARTRegressor``, and the
  random choices inside a tree are the package's, from the same seed: the
  ``max_features`` draws come from the tree's own generator (the trees are reproducible
  from the seed alone, not from scikit-learn's C generator), and ties between the best
  cuts of several features go to the first feature in a random order of the columns
  drawn once per tree (``tie_break="random"``; scikit-learn visits the features in a
  fresh random order at every node; column order, the single tree's default, would
  make a whole forest prefer the first columns, which costs it accuracy). So the rows
  drawn are scikit-learn's, the trees are scikit-learn's where no split ties and every
  feature is a candidate, and otherwise the forests are equal in distribution, which
  ``tests/test_ensemble.py`` checks by a paired equivalence test; sparse ``X`` breaks
  ties in column order (the sparse scan knows no other);
* the trees take what CART takes: pandas categorical columns (split into subsets),
  missing values (``missing="learn"``), sparse matrices;
* a pandas categorical ``y`` keeps every declared category as a class, used or not
  (``classes_``, and one probability column each, as the package's trees do);
  scikit-learn drops unused categories;
* ``bootstrap="subsample"`` (above) and a ``numpy.random.Generator`` as ``random_state``
  exist here only; ``oob_score`` takes True or False, not a scoring function;
* ``score`` compares labels one by one, so tuple labels work (scikit-learn's
  ``accuracy_score`` reads a list of tuples as a multilabel matrix).

Each tree is grown with its own seed, so a forest is reproducible, and ``n_jobs`` trees
grow at once in threads (the growers spend their time in compiled kernels and numpy,
which release the GIL).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import NotFittedError

from .core.base import AnyOf, Interval, Options, RandomState
from .cart import CART_CONSTRAINTS, CARTClassifier, CARTRegressor, dict_class_weights
from .core.targets import check_sample_weight, encode_labels, encode_targets, label_array
from .growers.sparse import is_sparse

__all__ = ["RandomForestClassifier", "RandomForestRegressor", "BaggingClassifier",
           "tree_seeds", "draw_rows", "rows_to_draw", "SUBSAMPLE_FRACTION"]

#: scikit-learn's bound for the trees' seeds (``np.iinfo(np.int32).max``)
MAX_INT = np.iinfo(np.int32).max
#: the share of rows each tree draws without replacement by default (Strobl et al. 2007)
SUBSAMPLE_FRACTION = 0.632

_TREE_PARAMS = ("criterion", "max_depth", "min_samples_split", "min_samples_leaf",
                "min_weight_fraction_leaf", "max_features", "max_leaf_nodes",
                "min_impurity_decrease", "ccp_alpha")

_FOREST_CONSTRAINTS = {
    "n_estimators": Interval(int, 1, None),
    "bootstrap": Options(True, False, "subsample"),
    "oob_score": Options(True, False),
    "n_jobs": Interval(int, -1, None, allow_none=True),
    "random_state": RandomState(),
    "warm_start": Options(True, False),
    "max_samples": AnyOf(Interval(int, 1, None, allow_none=True),
                         Interval(float, 0.0, None, closed="neither", strict=True)),
    # the trees' own parameters are checked as CART checks them
    **{k: CART_CONSTRAINTS[k] for k in _TREE_PARAMS if k != "criterion"},
}


# ------------------------------------------------------------ the draws, as scikit-learn's
def _legacy_random_state(random_state) -> np.random.RandomState:
    """``random_state`` as scikit-learn's ``check_random_state`` makes it (see the module
    docstring; a Generator seeds a fresh ``RandomState``)."""
    if random_state is None:
        return np.random.RandomState()
    if isinstance(random_state, np.random.RandomState):
        return random_state
    if isinstance(random_state, np.random.Generator):
        return np.random.RandomState(int(random_state.integers(2**32)))
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if not 0 <= random_state < 2**32:
            raise ValueError(f"random_state must be in [0, 2**32) (a numpy RandomState "
                             f"seed, as in scikit-learn); got {random_state}")
        return np.random.RandomState(int(random_state))
    raise TypeError(f"random_state must be None, an int or a numpy random generator; got "
                    f"{random_state!r}")


def tree_seeds(random_state, n_trees: int, skip: int = 0) -> np.ndarray:
    """The seeds of trees ``skip … skip + n_trees - 1``: scikit-learn's
    ``_set_random_states`` draws ``randint(2**31 - 1)`` once per tree, in order."""
    rs = _legacy_random_state(random_state)
    if skip:
        rs.randint(MAX_INT, size=skip)
    return np.array([rs.randint(MAX_INT) for _ in range(n_trees)], dtype=np.int64)


def rows_to_draw(n_rows: int, max_samples, sample_weight, bootstrap) -> int:
    """``k``, the number of rows each tree draws (see the module docstring); for the
    bootstrap, scikit-learn's ``_get_n_samples_bootstrap``."""
    if bootstrap is True:
        if max_samples is None:
            return n_rows
        if isinstance(max_samples, numbers.Integral):
            return int(max_samples)
        total = n_rows if sample_weight is None else float(np.sum(sample_weight))
        k = max(int(max_samples * total), 1)
        if k < max(10, n_rows ** (1 / 3)):
            warnings.warn(f"max_samples={max_samples} of a total weight of {total} draws only "
                          f"{k} rows per tree; pass max_samples as an int instead",
                          UserWarning, stacklevel=3)
        return k
    positive = n_rows if sample_weight is None else int(np.count_nonzero(sample_weight))
    if isinstance(max_samples, numbers.Integral):
        k = int(max_samples)
    else:
        k = max(int((SUBSAMPLE_FRACTION if max_samples is None else max_samples) * positive), 1)
    if k > positive:
        raise ValueError(f"max_samples asks for {k} rows without replacement, but only "
                         f"{positive} rows have a positive weight")
    return k


def draw_rows(seed: int, n_rows: int, k: int, sample_weight, bootstrap) -> np.ndarray:
    """The row indices (int32) tree ``seed`` draws: scikit-learn's
    ``_generate_sample_indices`` for ``bootstrap=True``; ``k`` distinct rows for
    ``"subsample"``; with weights, row ``i`` with probability ``w_i / Σw``."""
    rs = np.random.RandomState(seed)
    p = None if sample_weight is None else sample_weight / np.sum(sample_weight)
    if bootstrap is True:
        idx = rs.randint(0, n_rows, k) if p is None else rs.choice(n_rows, k, replace=True, p=p)
    else:
        idx = rs.choice(n_rows, k, replace=False, p=p)
    return idx.astype(np.int32)


def _balanced(codes: np.ndarray, weights: np.ndarray, n_classes: int) -> np.ndarray:
    """Per-row weights of ``class_weight="balanced"`` with row weights ``weights``:
    class ``k`` gets ``W / (K⁺ · W_k)``, ``W_k`` the weight of its rows, ``W`` the total
    and ``K⁺`` the number of classes with weight (scikit-learn's ``compute_class_weight``);
    a class without weight gets 0 (it has no rows to weigh)."""
    per_class = np.bincount(codes, weights=weights, minlength=n_classes)
    present = per_class > 0
    cw = np.zeros(n_classes)
    cw[present] = per_class.sum() / (present.sum() * per_class[present])
    return cw[codes]


def _rows(X) -> int:
    n = getattr(X, "shape", None)
    return int(n[0]) if n is not None else len(X)


class _Forest(BaseEstimator):
    _tree_class = None

    # ------------------------------------------------------------------ fitting
    def _check_params(self):
        for name, constraint in _FOREST_CONSTRAINTS.items():
            constraint.check(name, getattr(self, name))
        if self.oob_score and self.bootstrap is False:
            raise ValueError("oob_score=True needs bootstrap=True (or 'subsample'): "
                             "without resampling no row is out of bag")
        if self.bootstrap is False and self.max_samples is not None:
            raise ValueError("max_samples needs bootstrap=True (or 'subsample'); with "
                             "bootstrap=False every tree sees every row")

    def _tree_params(self) -> dict:
        return {k: getattr(self, k) for k in _TREE_PARAMS}

    def _fit_trees(self, X, y_tree, codes, n_classes, sample_weight):
        """Grow the trees still missing; ``y_tree`` is what every tree is fitted on,
        ``codes`` the class codes (None for regression), ``sample_weight`` the weights
        the rows are drawn by (None: uniform)."""
        from joblib import Parallel, delayed

        n = _rows(X)
        self._n_samples = n
        self._sample_weight = sample_weight
        self._n_samples_bootstrap = (None if self.bootstrap is False else
                                     rows_to_draw(n, self.max_samples, sample_weight,
                                                  self.bootstrap))
        if not self.warm_start or not hasattr(self, "estimators_"):
            self.estimators_ = []
        n_more = self.n_estimators - len(self.estimators_)
        if n_more < 0:
            raise ValueError(f"n_estimators={self.n_estimators} must be at least "
                             f"len(estimators_)={len(self.estimators_)} with warm_start=True")
        if n_more == 0:
            warnings.warn("warm_start fit without a larger n_estimators grows no new tree",
                          UserWarning, stacklevel=3)
            return 0
        seeds = tree_seeds(self.random_state, n_more, skip=len(self.estimators_))
        # ties between features by a random order per tree (scikit-learn's: per node), so
        # the forest prefers no column; the sparse scan has column order only
        params = {**self._tree_params(), "tie_break": "column" if is_sparse(X) else "random"}
        subsample_balanced = getattr(self, "class_weight", None) == "balanced_subsample"

        def grow(seed):
            tree = self._tree_class(random_state=int(seed), **params)
            if self.bootstrap is False:
                return tree.fit(X, y_tree, sample_weight=sample_weight)
            idx = draw_rows(seed, n, self._n_samples_bootstrap, sample_weight, self.bootstrap)
            counts = np.bincount(idx, minlength=n).astype(float)
            if subsample_balanced:
                counts *= _balanced(codes, counts, n_classes)
            return tree.fit(X, y_tree, sample_weight=counts)

        jobs = self.n_jobs if self.n_jobs is not None else 1
        self.estimators_ += Parallel(n_jobs=jobs, prefer="threads")(
            delayed(grow)(s) for s in seeds)
        first = self.estimators_[0]
        self.n_features_in_ = first.n_features_in_
        if hasattr(first, "feature_names_in_"):
            self.feature_names_in_ = first.feature_names_in_
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_outputs_ = 1
        return n_more

    def _drawn_rows(self):
        """Each tree's drawn row indices (redrawn from its seed, as scikit-learn does)."""
        if not hasattr(self, "_n_samples"):
            raise AttributeError(
                "estimators_samples_ is not known for a forest loaded from a model file: "
                "redrawing the rows needs the training weights, which the file does not hold")
        for tree in self.estimators_:
            if self.bootstrap is False:
                yield np.arange(self._n_samples, dtype=np.int32)
            else:
                yield draw_rows(tree.random_state, self._n_samples, self._n_samples_bootstrap,
                                self._sample_weight, self.bootstrap)

    @property
    def estimators_samples_(self) -> list:
        """Each tree's drawn rows, as in scikit-learn. The ``k`` indices drawn (a row drawn
        twice appears twice), or every row with ``bootstrap=False``."""
        self._check_fitted()
        return list(self._drawn_rows())

    def _check_fitted(self):
        if not hasattr(self, "estimators_") or not self.estimators_:
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet; call fit first")

    def to_json(self, *, indent: int | None = None) -> str:
        """The fitted forest as a JSON text in treebook's versioned schema (every tree
        in it; see ``treebook.io.serialize``); :func:`treebook.io.serialize.from_json`
        reads it back; before ``fit``, scikit-learn's ``NotFittedError``."""
        from .io.serialize import to_json

        self._check_fitted()
        return to_json(self, indent=indent)

    # ------------------------------------------------------------------ reading the trees
    @property
    def feature_importances_(self) -> np.ndarray:
        """The impurity (MDI) importances by scikit-learn's rule. The mean of the trees'
        normalised MDI importances over the trees with more than one node, divided by its
        sum (zeros if every tree is a leaf)."""
        self._check_fitted()
        grown = [t.feature_importances_ for t in self.estimators_ if t.tree_.node_count > 1]
        if not grown:
            return np.zeros(self.n_features_in_)
        mean = np.mean(grown, axis=0)
        return mean / mean.sum()

    def _encode(self, X):
        """``X`` encoded once for every tree: all trees were fitted on the same rows (the
        draws only change their weights), so their encoders are equal."""
        self._check_fitted()
        return self.estimators_[0]._encode(X)

    @staticmethod
    def _tree_output(tree, Xe) -> np.ndarray:
        """One tree's class probabilities (or predictions) on encoded rows ``Xe``."""
        return tree._tree_distribution(tree.tree_, Xe, missing=tree._route_missing,
                                       laplace=getattr(tree, "_laplace", False))

    def _mean_output(self, X) -> np.ndarray:
        Xe = self._encode(X)
        total = None
        for tree in self.estimators_:  # summed tree by tree, as scikit-learn does
            out = self._tree_output(tree, Xe)
            total = out.astype(float, copy=True) if total is None else total + out
        return total / len(self.estimators_)

    def apply(self, X) -> np.ndarray:
        """``(n_rows, n_trees)``: the node each row reaches in each tree (a leaf, or the
        node where a missing value or an unseen category stops it)."""
        Xe = self._encode(X)
        return np.array([t._tree_apply(t.tree_, Xe) for t in self.estimators_]).T

    def decision_path(self, X):
        """``(indicator, n_nodes_ptr)`` as scikit-learn's: a CSR matrix whose columns
        ``n_nodes_ptr[b] … n_nodes_ptr[b + 1] - 1`` mark the nodes of tree ``b`` each row
        visits."""
        from scipy.sparse import hstack

        self._check_fitted()
        paths = [t.decision_path(X) for t in self.estimators_]
        ptr = np.cumsum([0] + [p.shape[1] for p in paths])
        return hstack(paths).tocsr(), ptr

    def _oob_mean(self, X, width: int | None):
        """Per row, the mean output over the trees that did not draw it (zeros for a row
        every tree drew, with scikit-learn's warning)."""
        Xe = self._encode(X)
        n = self._n_samples
        total = np.zeros((n, width) if width else n)
        seen = np.zeros(n, dtype=np.int64)
        for tree, idx in zip(self.estimators_, self._drawn_rows()):
            out = np.flatnonzero(np.bincount(idx, minlength=n) == 0)
            if out.size:
                total[out] += self._tree_output(tree, Xe[out])
                seen[out] += 1
        if (seen == 0).any():
            warnings.warn(f"{int((seen == 0).sum())} of {n} rows were drawn by every tree "
                          "and have no out-of-bag prediction (counted as predicted 0, as "
                          "in scikit-learn): use more trees", UserWarning, stacklevel=3)
        seen[seen == 0] = 1
        return total / (seen[:, None] if width else seen)


def _forest_doc(kind: str) -> str:
    """The parameters both forests share, in the numpy docstring style of the API pages."""
    return f"""
    Parameters
    ----------
    n_estimators : int
        The number of trees ``B``.
    criterion, max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, max_leaf_nodes, min_impurity_decrease, ccp_alpha
        As for :class:`treebook.cart.CART{kind}`, for every tree (``ccp_alpha`` prunes
        each tree after it grows; ``min_weight_fraction_leaf`` and
        ``min_impurity_decrease`` are relative to the tree's own total weight, its draw
        count).
    max_features
        The features each node draws (None: every feature, bagging).
    bootstrap : True, "subsample" or False
        scikit-learn's bootstrap, subsampling without replacement (Strobl et al. 2007),
        or every tree on every row; see the module docstring.
    max_samples : None, int or float
        The rows each tree draws (module docstring); refused with ``bootstrap=False``.
    oob_score : bool
        Compute the out-of-bag estimate (needs resampling).
    warm_start : bool
        ``fit`` keeps the trees grown and adds ``n_estimators - len(estimators_)``
        more, with the seeds a single fit would have given them (fit on the same data).
    n_jobs : int or None
        Trees grown at once (threads); None or 1 is one at a time, -1 every core.
    random_state : None, int, RandomState or Generator
        The trees' seeds (module docstring: the same as scikit-learn's); an int in
        ``[0, 2**32)``.
"""


class RandomForestClassifier(ClassifierMixin, _Forest):
    """A random forest (or, with ``max_features=None``, bagged trees) of CART classifiers,
    drawn and averaged as scikit-learn's ``RandomForestClassifier`` (module docstring).
    """

    _tree_class = CARTClassifier

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt", max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None,
                 warm_start=False, class_weight=None, ccp_alpha=0.0, max_samples=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples

    def _row_class_weights(self, codes, w):
        """The rows' ``class_weight`` factors (None when there are none to apply)."""
        cw = self.class_weight
        if cw is None or (cw == "balanced_subsample" and self.bootstrap is not False):
            return None
        if isinstance(cw, str):
            if cw not in ("balanced", "balanced_subsample"):
                raise ValueError("class_weight must be None, 'balanced', "
                                 f"'balanced_subsample' or a dict; got {cw!r}")
            return _balanced(codes, np.ones(codes.size) if w is None else w,
                             len(self.classes_))
        return dict_class_weights(cw, self.classes_)[codes]

    def fit(self, X, y, sample_weight=None):
        """Grow the forest on ``(X, y)``: ``n_estimators`` CART classifiers, each on its
        draw of the rows (``sample_weight`` the probabilities of the draws; with
        ``bootstrap=False`` the weights of every tree), then the out-of-bag estimate when
        ``oob_score=True``. Returns the forest."""
        self._check_params()
        if isinstance(self.class_weight, str) and self.class_weight not in (
                "balanced", "balanced_subsample"):
            raise ValueError("class_weight must be None, 'balanced', 'balanced_subsample' "
                             f"or a dict; got {self.class_weight!r}")
        n = _rows(X)
        self.classes_, codes = encode_labels(y, n)
        self.n_classes_ = len(self.classes_)
        w = None if sample_weight is None else check_sample_weight(sample_weight, n)
        cw = self._row_class_weights(codes, w)
        w = cw if w is None else (w if cw is None else w * cw)
        # every tree gets the codes of all rows (a row not drawn has weight 0), so every
        # tree has every class a draw missed; an unused category needs a categorical
        # over all classes to be a class of the trees too
        used = np.bincount(codes, minlength=self.n_classes_) > 0
        y_tree = (codes if used.all() else
                  pd.Categorical.from_codes(codes, categories=np.arange(self.n_classes_)))
        grown = self._fit_trees(X, y_tree, codes, self.n_classes_, w)
        if self.oob_score and (grown or not hasattr(self, "oob_score_")):
            proba = self._oob_mean(X, self.n_classes_)
            self.oob_decision_function_ = proba
            self.oob_score_ = float(np.mean(np.argmax(proba, axis=1) == codes))
        return self

    def predict_proba(self, X) -> np.ndarray:
        """The mean of the trees' class probabilities (columns in ``classes_`` order)."""
        return self._mean_output(X)

    def predict_log_proba(self, X) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X) -> np.ndarray:
        """The class with the largest mean probability (ties to the first in ``classes_``)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def score(self, X, y, sample_weight=None) -> float:
        """(Weighted) accuracy of :meth:`predict`, comparing labels one by one (so labels
        may be tuples)."""
        pred = self.predict(X)
        y = label_array(y)
        if y.ndim != 1 or y.shape[0] != pred.shape[0]:
            raise ValueError(f"y must hold one label per row of X ({pred.shape[0]}); got "
                             f"shape {y.shape}")
        w = check_sample_weight(sample_weight, pred.shape[0])
        same = np.fromiter((a == b for a, b in zip(pred.tolist(), y.tolist())), dtype=bool,
                           count=pred.shape[0])
        return float(np.average(same, weights=w))


class RandomForestRegressor(RegressorMixin, _Forest):
    """A random forest of CART regression trees: the mean of the trees' predictions, drawn
    as scikit-learn's ``RandomForestRegressor`` (module docstring); ``max_features=1.0``
    (every feature: bagging) by default, as scikit-learn (Breiman suggests ``m/3``).
    """

    _tree_class = CARTRegressor

    def __init__(self, n_estimators=100, *, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None,
                 warm_start=False, ccp_alpha=0.0, max_samples=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.warm_start = warm_start
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples

    def fit(self, X, y, sample_weight=None):
        """Grow the forest on ``(X, y)``: ``n_estimators`` CART regressors, each on its
        draw of the rows (``sample_weight`` the probabilities of the draws; with
        ``bootstrap=False`` the weights of every tree), then the out-of-bag estimate when
        ``oob_score=True``. Returns the forest."""
        self._check_params()
        n = _rows(X)
        target = encode_targets(y, n)
        w = None if sample_weight is None else check_sample_weight(sample_weight, n)
        grown = self._fit_trees(X, target, None, 0, w)
        if self.oob_score and (grown or not hasattr(self, "oob_score_")):
            pred = self._oob_mean(X, None)
            self.oob_prediction_ = pred
            resid = float(np.sum((target - pred) ** 2))
            spread = float(np.sum((target - target.mean()) ** 2))
            # r2_score's force_finite rule for a constant target
            self.oob_score_ = 1 - resid / spread if spread > 0 else float(resid == 0)
        return self

    def predict(self, X) -> np.ndarray:
        """The mean of the trees' predictions."""
        return self._mean_output(X)


RandomForestClassifier.__doc__ += _forest_doc("Classifier") + """
""" + """    class_weight : None, "balanced", "balanced_subsample" or dict
        scikit-learn's: a dict ``{class: weight}`` or ``"balanced"`` (class ``k`` weighs
        ``W / (K⁺ · W_k)`` with ``sample_weight``) multiplies the rows' weights, which
        (with resampling) are the draw probabilities, not the trees' weights;
        ``"balanced_subsample"`` weighs each tree's drawn rows by the balanced weights of
        its own draw (the counts), and is ``"balanced"`` with ``bootstrap=False``.

    Notes
    -----
    Attributes after ``fit``: ``estimators_`` (the trees), ``estimators_samples_``,
    ``classes_``, ``n_classes_``, ``n_features_in_`` (``feature_names_in_`` for a table),
    ``feature_importances_``, and with ``oob_score=True`` ``oob_score_`` and
    ``oob_decision_function_``. A pandas categorical ``y`` keeps every declared category
    in ``classes_``, used or not, with a probability column each (as the package's trees;
    scikit-learn's forest drops the unused ones).
"""
RandomForestRegressor.__doc__ += _forest_doc("Regressor") + """
    Notes
    -----
    Attributes after ``fit``: ``estimators_``, ``estimators_samples_``, ``n_features_in_``,
    ``feature_importances_``, and with ``oob_score=True`` ``oob_prediction_`` and
    ``oob_score_`` (the out-of-bag R² over all rows, unweighted, as scikit-learn's).
"""


class BaggingClassifier(RandomForestClassifier):
    """Bagged CART classifiers (Breiman 1996): a :class:`RandomForestClassifier` whose
    nodes see every feature (``max_features=None`` by default) — the same
    implementation, only the default differs. Parameters and attributes as there."""

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None,
                 warm_start=False, class_weight=None, ccp_alpha=0.0, max_samples=None):
        super().__init__(n_estimators, criterion=criterion, max_depth=max_depth,
                         min_samples_split=min_samples_split,
                         min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf,
                         max_features=max_features, max_leaf_nodes=max_leaf_nodes,
                         min_impurity_decrease=min_impurity_decrease, bootstrap=bootstrap,
                         oob_score=oob_score, n_jobs=n_jobs, random_state=random_state,
                         warm_start=warm_start, class_weight=class_weight,
                         ccp_alpha=ccp_alpha, max_samples=max_samples)
