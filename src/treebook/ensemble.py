"""Bagging and random forests, grown from the package's own CART.

A forest of ``B`` trees (Breiman 1996, 2001) averages trees grown on bootstrap samples:

* **bootstrap**: tree ``b`` sees ``n`` rows drawn with replacement; a row drawn ``c``
  times gets weight ``c`` (times its own ``sample_weight``), and the rows never drawn —
  about ``e⁻¹ ≈ 37 %`` of them — are its *out-of-bag* (OOB) rows;
* **random features** (forests only): every node chooses its split among ``max_features``
  features drawn at random (``treebook.core.feature_draw``); ``max_features=None`` is
  plain bagging;
* **prediction**: the mean of the trees' class probabilities (the class with the largest
  mean; ties to the first class), or of their predictions for regression;
* **OOB estimate**: each row predicted by the trees that did not see it,
  ``oob_score_`` their accuracy (R² for regression) over the rows that have such trees.

Each tree is a :class:`treebook.cart.CARTClassifier` / ``CARTRegressor`` with its own
seed drawn from ``random_state``, so a forest is reproducible, and ``n_jobs`` trees grow
at once in threads (the growers spend their time in numpy, which releases the GIL).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import NotFittedError

from .core.base import Interval, Options, RandomState
from .cart import CART_CONSTRAINTS, CARTClassifier, CARTRegressor
from .core.targets import check_sample_weight, encode_labels, encode_targets
from .core.feature_draw import draw_seed

__all__ = ["RandomForestClassifier", "RandomForestRegressor", "BaggingClassifier"]

_FOREST_CONSTRAINTS = {
    "n_estimators": Interval(int, 1, None),
    "bootstrap": Options(True, False),
    "oob_score": Options(True, False),
    "n_jobs": Interval(int, -1, None, allow_none=True),
    "random_state": RandomState(),
    # the trees' own parameters are checked as CART checks them
    **{k: CART_CONSTRAINTS[k] for k in ("max_depth", "min_samples_split", "min_samples_leaf",
                                         "max_features")},
}


def _rows(X) -> int:
    n = getattr(X, "shape", None)
    return int(n[0]) if n is not None else len(X)


class _Forest(BaseEstimator):
    _tree_class = None

    def _tree_params(self) -> dict:
        return dict(criterion=self.criterion, max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split,
                    min_samples_leaf=self.min_samples_leaf, max_features=self.max_features)

    def _check_params(self):
        for name, constraint in _FOREST_CONSTRAINTS.items():
            constraint.check(name, getattr(self, name))
        if self.oob_score and not self.bootstrap:
            raise ValueError("oob_score=True needs bootstrap=True: without bootstrap samples "
                             "no row is out of bag")

    def _fit_trees(self, X, y_full, w):
        from joblib import Parallel, delayed

        n = _rows(X)
        master = np.random.default_rng(draw_seed(self.random_state))
        seeds = master.integers(0, 2**63 - 1, size=self.n_estimators)
        counts = []
        for s in seeds:
            rng = np.random.default_rng(s)
            counts.append(np.bincount(rng.integers(0, n, n), minlength=n).astype(float)
                          if self.bootstrap else np.ones(n))
        params = self._tree_params()

        def grow(seed, c):
            tree = self._tree_class(random_state=int(seed), **params)
            return tree.fit(X, y_full, sample_weight=w * c)

        jobs = self.n_jobs if self.n_jobs is not None else 1
        self.estimators_ = Parallel(n_jobs=jobs, prefer="threads")(
            delayed(grow)(s, c) for s, c in zip(seeds, counts))
        self.estimators_samples_ = [np.flatnonzero(c > 0) for c in counts]
        self._in_bag = np.stack([c > 0 for c in counts])
        self.n_features_in_ = self.estimators_[0].n_features_in_
        if hasattr(self.estimators_[0], "feature_names_in_"):
            self.feature_names_in_ = self.estimators_[0].feature_names_in_

    def _check_fitted(self):
        if not hasattr(self, "estimators_"):
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet; call fit first")

    @property
    def feature_importances_(self) -> np.ndarray:
        """The mean of the trees' normalised MDI importances (scikit-learn's rule)."""
        self._check_fitted()
        return np.mean([t.feature_importances_ for t in self.estimators_], axis=0)

    def _encode(self, X) -> np.ndarray:
        """``X`` encoded once for every tree: all trees were fitted on the same rows (the
        bootstrap only changes their weights), so their encoders are equal."""
        self._check_fitted()
        return self.estimators_[0]._encode(X)

    @staticmethod
    def _tree_output(tree, Xe) -> np.ndarray:
        """One tree's class probabilities (or predictions) on encoded rows ``Xe``."""
        return tree.tree_.distribution(Xe, missing=tree._route_missing,
                                       laplace=getattr(tree, "_laplace", False))

    def _oob_mean(self, X):
        """Per row, the mean output over the trees that did not see it, and the number of
        such trees."""
        Xe = self._encode(X)
        n = Xe.shape[0]
        total = None
        seen = np.zeros(n)
        for tree, in_bag in zip(self.estimators_, self._in_bag):
            out = np.flatnonzero(~in_bag)
            if out.size == 0:
                continue
            p = self._tree_output(tree, Xe[out])
            if total is None:
                total = np.zeros((n,) + p.shape[1:])
            total[out] += p
            seen[out] += 1
        if total is None:
            raise ValueError("no row was out of bag for any tree: use more trees")
        with np.errstate(invalid="ignore"):
            return total / np.expand_dims(seen, tuple(range(1, total.ndim))), seen


class RandomForestClassifier(ClassifierMixin, _Forest):
    """A random forest (or, with ``max_features=None``, bagged trees) of CART classifiers.

    Parameters
    ----------
    n_estimators : int
        the number of trees ``B``.
    criterion, max_depth, min_samples_split, min_samples_leaf : as for
        :class:`treebook.cart.CARTClassifier`, for every tree.
    max_features : the features each node draws (default ``"sqrt"``, Breiman's
        ``⌊√m⌋``); None is bagging.
    bootstrap : bool
        bootstrap samples (True) or every tree on all rows.
    oob_score : bool
        compute ``oob_score_`` and ``oob_decision_function_``.
    n_jobs : int or None
        trees grown at once (threads); None or 1 is one at a time,
        -1 every core.
    random_state : None, an int or a numpy generator
        seeds the bootstrap samples and
        the trees' feature draws.

    Notes
    -----
    Attributes after ``fit``: ``estimators_`` (the trees), ``estimators_samples_`` (each
    tree's in-bag rows), ``classes_``, ``n_features_in_``, ``feature_importances_``, and
    with ``oob_score=True`` ``oob_score_`` and ``oob_decision_function_``.
    """

    _tree_class = CARTClassifier

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, max_features="sqrt",
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Grow ``n_estimators`` classification trees on bootstrap samples of ``(X, y)``
        (each row's bootstrap count times its ``sample_weight``)."""
        self._check_params()
        n = _rows(X)
        self.classes_, codes = encode_labels(y, n)
        w = check_sample_weight(sample_weight, n)
        # every tree gets the class codes of all rows, so all trees share classes_
        self._fit_trees(X, codes, w)
        if self.oob_score:
            proba, seen = self._oob_mean(X)
            ok = seen > 0
            self.oob_decision_function_ = proba
            pred = np.argmax(proba[ok], axis=1)
            self.oob_score_ = float(np.average(pred == codes[ok], weights=w[ok]))
        return self

    def predict_proba(self, X) -> np.ndarray:
        """The mean of the trees' class probabilities (columns in ``classes_`` order)."""
        Xe = self._encode(X)
        return np.mean([self._tree_output(t, Xe) for t in self.estimators_], axis=0)

    def predict(self, X) -> np.ndarray:
        """The class with the largest mean probability (ties to the first in ``classes_``)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class RandomForestRegressor(RegressorMixin, _Forest):
    """A random forest of CART regression trees: the mean of the trees' predictions.

    Parameters as :class:`RandomForestClassifier`, with ``criterion="squared_error"`` and
    ``max_features=1.0`` (every feature: bagging) by default, as scikit-learn; Breiman
    suggests ``m/3``. ``oob_score_`` is the out-of-bag R².
    """

    _tree_class = CARTRegressor

    def __init__(self, n_estimators=100, *, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, max_features=1.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Grow ``n_estimators`` regression trees on bootstrap samples of ``(X, y)``
        (each row's bootstrap count times its ``sample_weight``)."""
        self._check_params()
        n = _rows(X)
        target = encode_targets(y, n)
        w = check_sample_weight(sample_weight, n)
        self._fit_trees(X, target, w)
        if self.oob_score:
            pred, seen = self._oob_mean(X)
            ok = seen > 0
            self.oob_prediction_ = pred
            resid = np.average((target[ok] - pred[ok]) ** 2, weights=w[ok])
            spread = np.average((target[ok] - np.average(target[ok], weights=w[ok])) ** 2,
                                weights=w[ok])
            self.oob_score_ = float(1 - resid / spread) if spread > 0 else float(resid == 0)
        return self

    def predict(self, X) -> np.ndarray:
        """The mean of the trees' predictions."""
        Xe = self._encode(X)
        return np.mean([self._tree_output(t, Xe) for t in self.estimators_], axis=0)


class BaggingClassifier(RandomForestClassifier):
    """Bagged CART classifiers (Breiman 1996): a :class:`RandomForestClassifier` whose
    nodes see every feature (``max_features=None`` by default) — the same
    implementation, only the default differs. Parameters and attributes as there."""

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, max_features=None,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None):
        super().__init__(n_estimators, criterion=criterion, max_depth=max_depth,
                         min_samples_split=min_samples_split,
                         min_samples_leaf=min_samples_leaf, max_features=max_features,
                         bootstrap=bootstrap, oob_score=oob_score, n_jobs=n_jobs,
                         random_state=random_state)
