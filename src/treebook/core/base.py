"""The scikit-learn-style API every learner shares.

A learner subclasses :class:`DecisionTreeClassifierBase` (or the regressor base), declares
its parameters in ``__init__`` (stored verbatim, as scikit-learn does) and in
``_parameter_constraints`` (validated in one place at ``fit``), and implements
``_grow(X, y, w, **y2) -> Tree`` on encoded input (``fit`` never writes a parameter).
Everything else lives here: input checks and encoding (pandas or numpy; column names
become ``feature_names_in_``; labels of any hashable type become ``classes_``),
``predict``, ``predict_proba``, ``score``, ``apply``, ``decision_path``, and the drawings
and rules.

The bases inherit scikit-learn's :class:`~sklearn.base.BaseEstimator` (with
:class:`~sklearn.base.ClassifierMixin` or :class:`~sklearn.base.RegressorMixin`), so
``get_params``/``set_params``, ``clone``, the printed form (only the parameters that
differ from their defaults), the HTML display in Jupyter and metadata routing
(``set_fit_request(sample_weight=True)`` inside a ``Pipeline`` or ``GridSearchCV``) are
scikit-learn's own. ``score`` stays the package's: the same accuracy / R² as the mixins',
with checks of ``y`` that name the argument.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import NotFittedError

from .encoding import FeatureEncoder
from .targets import check_sample_weight, encode_labels, encode_targets, label_array
from .tree import Tree

__all__ = ["DecisionTreeClassifierBase", "DecisionTreeRegressorBase", "Interval", "Options",
           "AnyOf",
           "Registered", "RandomState", "InstanceOf", "validate_params", "clone", "TreeEstimator"]


class Interval:
    """A numeric parameter constraint: type and range, ``None`` optionally allowed."""

    def __init__(self, kind, low=None, high=None, *, closed="both", allow_none=False,
                 strict=False):
        self.kind, self.low, self.high, self.closed, self.allow_none = kind, low, high, closed, allow_none
        #: with kind float, refuse ints (a fraction 0.5 is not the count 1)
        self.strict = strict

    def check(self, name, value):
        if value is None and self.allow_none:
            return
        ok_type = (isinstance(value, numbers.Integral) if self.kind is int
                   else isinstance(value, numbers.Real)) and not isinstance(value, bool)
        if self.strict and isinstance(value, numbers.Integral):
            ok_type = False
        if not ok_type:
            raise TypeError(f"{name} must be {'an int' if self.kind is int else 'a number'}"
                            f"{' or None' if self.allow_none else ''}; got {value!r}")
        lo_ok = self.low is None or (value >= self.low if self.closed in ("both", "left") else value > self.low)
        hi_ok = self.high is None or (value <= self.high if self.closed in ("both", "right") else value < self.high)
        if not (lo_ok and hi_ok and np.isfinite(value)):
            lo = "" if self.low is None else ("[" if self.closed in ("both", "left") else "(") + str(self.low)
            hi = "" if self.high is None else str(self.high) + ("]" if self.closed in ("both", "right") else ")")
            raise ValueError(f"{name} must be in {lo or '(-inf'}, {hi or 'inf)'}; got {value!r}")


class AnyOf:
    """A parameter that meets any one of several constraints (an int count or a float
    fraction, as scikit-learn's ``min_samples_leaf``)."""

    def __init__(self, *constraints):
        self.constraints = constraints

    def check(self, name, value):
        errors = []
        for c in self.constraints:
            try:
                c.check(name, value)
                return
            except (TypeError, ValueError) as exc:
                errors.append(exc)
        kind = TypeError if all(isinstance(e, TypeError) for e in errors) else ValueError
        raise kind("; or ".join(str(e) for e in errors))


class Options:
    """A parameter that takes one of a fixed set of values."""

    def __init__(self, *values):
        self.values = values

    def check(self, name, value):
        if value not in self.values:
            raise ValueError(f"{name} must be one of {list(self.values)}; got {value!r}")


class Registered:
    """A parameter that takes a name from a registry read at check time (criteria,
    routing policies), so that a name registered later is accepted: ``names()`` returns
    the allowed names; ``extra`` are further allowed values; ``objects`` a type whose
    instances are accepted as they are (a criterion object instead of its name)."""

    def __init__(self, names, *extra, objects: type | None = None):
        self.names, self.extra, self.objects = names, extra, objects

    @property
    def values(self):
        return (*self.extra, *self.names())

    def check(self, name, value):
        if self.objects is not None and isinstance(value, self.objects):
            return
        if not isinstance(value, str) and value not in self.extra:
            raise ValueError(f"{name} must be one of {list(self.values)}; got {value!r}")
        Options(*self.values).check(name, value)


class RandomState:
    """``random_state``: None, an int, or a numpy ``RandomState`` / ``Generator``."""

    def check(self, name, value):
        if isinstance(value, bool) or value is not None and not isinstance(
                value, (numbers.Integral, np.random.RandomState, np.random.Generator)):
            raise TypeError(f"{name} must be None, an int or a numpy random generator; "
                            f"got {value!r}")


class InstanceOf:
    """A parameter that must be an instance of ``kind`` (``label`` names it in errors)."""

    def __init__(self, kind, label: str | None = None):
        self.kind, self.label = kind, label or kind.__name__

    def check(self, name, value):
        if not isinstance(value, self.kind):
            raise TypeError(f"{name} must be a {self.label}; got {type(value).__name__}")


def validate_params(constraints: dict):
    """Check a public function's arguments with the estimators' constraints.

    ``@validate_params({"alpha": Interval(float, 0, None), "risk": Options(...)})``
    checks each named argument (bound as the call passed it, or its default) with the
    constraint's ``check(name, value)`` before the function runs, as scikit-learn's
    ``validate_params`` does; a bad value raises the constraint's ``TypeError`` /
    ``ValueError`` naming the argument. The constraints are kept on the function as
    ``__parameter_constraints__``.
    """

    def decorate(fn):
        sig = inspect.signature(fn)
        unknown = set(constraints) - set(sig.parameters)
        if unknown:
            raise TypeError(f"{fn.__name__} has no parameter(s) {sorted(unknown)}")

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            for name, constraint in constraints.items():
                constraint.check(name, bound.arguments[name])
            return fn(*args, **kwargs)

        wrapper.__parameter_constraints__ = dict(constraints)
        return wrapper

    return decorate


def clone(estimator, **params):
    """A new, unfitted estimator of the same class with the same parameters, changed by
    ``params`` (scikit-learn's ``clone`` followed by ``set_params``)."""
    if not isinstance(estimator, _TreeEstimatorBase):
        raise TypeError(f"estimator must be a treebook estimator; got {type(estimator).__name__}")
    return type(estimator)(**estimator.get_params(deep=False)).set_params(**params)


def _target_name(y) -> str | None:
    """The name of a pandas Series (or one-column DataFrame) of targets, else None."""
    name = getattr(y, "name", None)
    if name is None and hasattr(y, "columns") and len(y.columns) == 1:
        name = y.columns[0]
    return None if name is None else str(name)


class _TreeEstimatorBase(BaseEstimator):
    _parameter_constraints: dict = {}
    #: treat every column as categorical (ID3) or detect numeric columns
    _all_categorical = False
    #: "error" (missing values rejected), "distribute" (C4.5's fractional cases) or "rule"
    #: (the tree records the branch a missing value takes: ctree, CHAID)
    _missing = "error"
    _missing_hint = ""

    def _accepts_missing(self) -> bool:
        """Whether ``fit`` and ``predict`` take missing values (NaN, None, ``pd.NA``: one
        missing value, as :mod:`treebook.core.encoding` detects them): C4.5's fractional cases,
        a learner whose tree records a rule (``_missing = "rule"``), or one whose ``missing``
        parameter names a rule (CART overrides this)."""
        return self._missing in ("distribute", "rule")

    def __sklearn_tags__(self):
        """scikit-learn's tags (the mixins set the estimator type) with what the trees
        accept: categorical and string columns, and missing values where the learner
        handles them."""
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = self._accepts_missing()
        return tags

    def _validate_params(self):
        for name, constraint in self._parameter_constraints.items():
            constraint.check(name, getattr(self, name))

    # ------------------------------------------------------------------ input
    def _grow(self, X: np.ndarray, y: np.ndarray, w: np.ndarray, **y2) -> Tree:  # pragma: no cover
        """The tree of encoded ``X``, targets ``y`` and weights ``w`` (positive). ``y2``
        holds the parameters named in ``_y2_params`` (a regressor's) in the units of the
        scaled responses ``y``: read them there, not from the estimator."""
        raise NotImplementedError

    def _encode_target(self, y, n_rows: int) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    #: how the tree depends on the scale of the weights. ``"relative"``: multiplying
    #: every weight by one constant changes nothing (ID3, CART, CLS without its G-test),
    #: so extreme weights are rescaled exactly (by a power of 2) before growing and the
    #: stored counts scaled back. ``"cases"``: weights count cases (C4.5's minimum cases
    #: and error-based pruning, as in J48), so they are used as given.
    _weight_units = "relative"

    def _weights_are_relative(self) -> bool:
        # a significance test reads weights as counts of independent cases
        return self._weight_units == "relative" and getattr(self, "significance", None) is None

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``X`` (numpy array or DataFrame) and targets ``y``: class
        labels of any hashable type, or numbers for a regressor.

        A row of weight 0 counts for nothing, exactly as if it were absent."""
        self._validate_params()
        Xe, w = self._encode_fit(X, sample_weight)
        self.target_name_ = _target_name(y)
        yc = self._encode_target(y, Xe.shape[0])
        keep = w > 0
        if not keep.all():
            Xe, yc, w = Xe[keep], yc[keep], w[keep]
        w_exp = _power_of_two(w) if self._weights_are_relative() else 0
        y_exp = self._target_exponent(yc)
        # parameters in units of y² follow the responses (exactly); they are passed to
        # _grow, never written onto the estimator (concurrent fits of one object, and a
        # fit that raises, would leave scaled values behind)
        y2 = {p: float(np.ldexp(getattr(self, p), -2 * y_exp)) if y_exp else getattr(self, p)
              for p in self._y2_params if hasattr(self, p)}
        tree = self._grow(Xe, np.ldexp(yc, -y_exp) if y_exp else yc,
                          np.ldexp(w, -w_exp) if w_exp else w, **y2)
        if w_exp or y_exp:  # every tree this fit stored, back in the caller's units
            done = {}  # each tree once (full_tree_ is often the tree itself)

            def rescaled(t):
                if id(t) not in done:
                    done[id(t)] = (t, _rescale_tree(t, w_exp, y_exp))
                return done[id(t)][1]

            for name, value in list(vars(self).items()):
                if isinstance(value, Tree):
                    setattr(self, name, rescaled(value))
            tree = rescaled(tree)
            del done
        return self._set_tree(tree)

    _y2_params: tuple = ()

    def _target_exponent(self, y) -> int:
        return 0

    def _check_fitted(self):
        if not hasattr(self, "tree_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. "
                                 "Call 'fit' with appropriate arguments before using this "
                                 "estimator.")

    def _encode_fit(self, X, sample_weight):
        enc, Xe = FeatureEncoder.fit(X, all_categorical=self._all_categorical,
                                     allow_missing=self._accepts_missing(),
                                     missing_hint=self._missing_hint)
        self.encoder_ = enc
        # as scikit-learn: only a table with column names has feature_names_in_ (drawings
        # and rules name an array's columns x0, x1, … through encoder_.names)
        if enc.from_pandas:
            self.feature_names_in_ = np.array(enc.names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_features_in_ = enc.n_features
        return Xe, check_sample_weight(sample_weight, Xe.shape[0])

    def _encode(self, X):
        self._check_fitted()
        return self.encoder_.transform(X, allow_missing=self._accepts_missing(),
                                       missing_hint=self._missing_hint,
                                       owner=type(self).__name__)

    def _metadata(self, classes=None):
        meta = dict(feature_names=tuple(self.encoder_.names),
                    categories=tuple(self.encoder_.categories), classes=classes)
        temporal = {j: k for j, k in enumerate(self.encoder_.temporal) if k is not None}
        if temporal:  # dates and durations: drawings and rules show thresholds as such
            meta["extra"] = {"temporal": temporal}
        return meta

    def _set_tree(self, tree: Tree):
        self.tree_ = tree
        self.n_outputs_ = 1
        self.n_leaves_ = tree.n_leaves
        self.depth_ = tree.max_depth
        return self

    # ------------------------------------------------------------------ shared API
    @property
    def _route_missing(self):
        """The routing policy (name) prediction uses for missing values."""
        return "distribute" if self._missing == "distribute" else "stop"

    def apply(self, X) -> np.ndarray:
        """Node id where each row ends (see :meth:`treebook.core.tree.Tree.apply`)."""
        self._check_fitted()
        return self._tree_apply(self.tree_, self._encode(X))

    # the walk of encoded input down a tree; a learner that accepts other input (CART:
    # scipy.sparse matrices) overrides these two
    def _tree_apply(self, tree: Tree, Xe) -> np.ndarray:
        return tree.apply(Xe)

    def _tree_distribution(self, tree: Tree, Xe, **kwargs) -> np.ndarray:
        return tree.distribution(Xe, **kwargs)

    def decision_path(self, X):
        """The nodes each row visits, as a ``scipy.sparse`` CSR indicator matrix (rows ×
        nodes; see :meth:`treebook.core.tree.Tree.decision_path`)."""
        self._check_fitted()
        return self.tree_.decision_path(self._encode(X))

    def get_depth(self) -> int:
        """The depth of the fitted tree (the root alone has depth 0)."""
        self._check_fitted()
        return self.depth_

    def get_n_leaves(self) -> int:
        """The number of leaves of the fitted tree."""
        self._check_fitted()
        return self.n_leaves_

    @property
    def feature_importances_(self) -> np.ndarray:
        """The mean decrease in impurity (MDI) of each feature, normalised to sum to 1.

        Each split adds ``|D_t|·I(t) − Σ_children |D_c|·I(c)`` to its feature
        (:meth:`treebook.core.tree.Tree.impurity_decrease_by_feature`), as in
        scikit-learn's ``feature_importances_``."""
        self._check_fitted()
        total = self.tree_.impurity_decrease_by_feature(self.n_features_in_)
        s = total.sum()
        return total / s if s > 0 else total

    def to_graphviz(self, **kwargs):
        """The fitted tree as a ``graphviz.Digraph`` (see :mod:`treebook.io.render`)."""
        from ..io.render import to_graphviz

        self._check_fitted()
        return to_graphviz(self.tree_, **kwargs)

    def export_text(self, **kwargs) -> str:
        """The fitted tree as text, one line per node indented by depth (see
        :func:`treebook.io.render.export_text` for the options)."""
        from ..io.render import export_text

        self._check_fitted()
        return export_text(self.tree_, **kwargs)

    def to_json(self, *, indent: int | None = None) -> str:
        """The fitted model as a JSON text in treebook's versioned schema (see
        :mod:`treebook.io.serialize`); :func:`treebook.io.serialize.from_json` reads it
        back; before ``fit``, scikit-learn's ``NotFittedError``."""
        from ..io.serialize import to_json

        self._check_fitted()
        return to_json(self, indent=indent)

    def to_rules(self, **kwargs):
        """One IF-THEN rule per leaf (see :func:`treebook.io.render.to_rules`); the THEN part
        names the target as ``y`` was named when fitted (a Series name), else ``class``."""
        from ..io.render import to_rules

        self._check_fitted()
        kwargs.setdefault("target_name", getattr(self, "target_name_", None) or
                          ("class" if self._estimator_type == "classifier" else "value"))
        return to_rules(self.tree_, **kwargs)


def _power_of_two(w: np.ndarray) -> int:
    """The exponent ``e`` with ``max(w) / 2**e`` in [0.5, 1) when the weights are extreme
    (largest above 1e30 or below 1e-30), else 0: dividing by ``2**e`` is exact."""
    top = float(np.max(w))
    return int(np.frexp(top)[1]) if (top > 1e30 or top < 1e-30) else 0


def _rescale_tree(tree: Tree, w_exp: int, y_exp: int) -> Tree:
    """``tree`` grown on weights ``w / 2**w_exp`` and responses ``y / 2**y_exp``, in the
    original units (multiplying by powers of 2 is exact)."""
    changes = {}
    if w_exp:
        changes["weighted_n"] = np.ldexp(tree.weighted_n, w_exp)
        if not tree.is_regression:
            changes["value"] = np.ldexp(tree.value, w_exp)
    if y_exp:
        changes["value"] = np.ldexp(tree.value, y_exp)
        changes["impurity"] = np.ldexp(tree.impurity, 2 * y_exp)
    return dataclasses.replace(tree, **changes)


class DecisionTreeClassifierBase(ClassifierMixin, _TreeEstimatorBase):
    _estimator_type = "classifier"

    def _encode_target(self, y, n_rows: int) -> np.ndarray:
        self.classes_, codes = encode_labels(y, n_rows)
        self.n_classes_ = len(self.classes_)
        return codes

    #: leaf probabilities by Laplace's rule (a learner's parameter where it has one)
    _laplace = False

    def predict_proba(self, X) -> np.ndarray:
        """Class frequencies ``C_k/|D|`` of the node each row reaches (columns in the order
        of ``classes_``)."""
        self._check_fitted()
        return self._tree_distribution(self.tree_, self._encode(X), missing=self._route_missing,
                                       laplace=self._laplace)

    def predict_log_proba(self, X) -> np.ndarray:
        """``log`` of :meth:`predict_proba` (``-inf`` where a class has no weight)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X) -> np.ndarray:
        """The majority class of the node each row reaches; ties go to the class that
        comes first in ``classes_``."""
        self._check_fitted()
        return self.predict_with(self.tree_, X)

    def score(self, X, y, sample_weight=None) -> float:
        """(Weighted) accuracy of :meth:`predict` on ``(X, y)``."""
        self._check_fitted()
        return self.score_with(self.tree_, X, y, sample_weight)

    def predict_with(self, tree: Tree, X) -> np.ndarray:
        """:meth:`predict` through ``tree``, a pruned or truncated version of ``tree_``
        (same features and classes), so sliders and pruning paths never refit or copy
        the estimator."""
        self._check_fitted()
        Xe = self._encode(X)
        if self._route_missing == "stop":  # one end node per row: its majority class
            return self.classes_[tree.tables.majority[self._tree_apply(tree, Xe)]]
        proba = self._tree_distribution(tree, Xe, missing=self._route_missing,
                                        laplace=self._laplace)
        return self.classes_[np.argmax(proba, axis=1)]

    _predict_with = predict_with  # the names used before predict_with was public

    def predict_proba_with(self, tree: Tree, X) -> np.ndarray:
        """:meth:`predict_proba` through ``tree``, a pruned or truncated version of
        ``tree_`` (see :meth:`predict_with`)."""
        self._check_fitted()
        return tree.distribution(self._encode(X), missing=self._route_missing,
                                 laplace=self._laplace)

    def score_with(self, tree: Tree, X, y, sample_weight=None) -> float:
        """:meth:`score` through ``tree`` (see :meth:`predict_with`)."""
        pred = self.predict_with(tree, X)
        y = label_array(y)
        if y.ndim != 1:  # a (n, 1) column would broadcast against pred into (n, n)
            raise ValueError(f"y must be one-dimensional; got shape {y.shape}")
        if y.shape[0] != pred.shape[0]:
            raise ValueError(f"y has {y.shape[0]} labels but X has {pred.shape[0]} rows")
        w = check_sample_weight(sample_weight, pred.shape[0])
        return float(np.average(pred == y, weights=w))

    _score_with = score_with


class DecisionTreeRegressorBase(RegressorMixin, _TreeEstimatorBase):
    _estimator_type = "regressor"

    def _encode_target(self, y, n_rows: int) -> np.ndarray:
        return encode_targets(y, n_rows)

    #: parameters in units of y²: scaled with the responses and passed to ``_grow`` as
    #: keywords (those the learner has)
    _y2_params = ("min_impurity_decrease", "ccp_alpha")

    def _target_exponent(self, y) -> int:
        """The exponent ``e`` by which responses are divided (``y / 2**e``, exact) while
        the tree grows, so that the largest is in [0.5, 1). A node is pure when its
        squared error is below machine epsilon (scikit-learn's rule): an absolute test,
        which tiny responses would always pass and huge ones (whose rounding noise is
        huge) never. Scaled, the tree does not depend on the units of ``y``; its values
        and impurities are scaled back, and the parameters in units of y² are scaled with
        ``y`` while it grows."""
        top = float(np.max(np.abs(y))) if y.size else 0.0
        if top == 0.0 or 0.5 <= top < 1.0:
            return 0
        return int(np.frexp(top)[1])

    def predict(self, X) -> np.ndarray:
        """The mean response of the leaf each row reaches."""
        self._check_fitted()
        return self.predict_with(self.tree_, X)

    def score(self, X, y, sample_weight=None) -> float:
        """Coefficient of determination R² of :meth:`predict`."""
        self._check_fitted()
        return self.score_with(self.tree_, X, y, sample_weight)

    def predict_with(self, tree: Tree, X) -> np.ndarray:
        """:meth:`predict` through ``tree``, a pruned or truncated version of ``tree_``."""
        self._check_fitted()
        return self._tree_distribution(tree, self._encode(X), missing=self._route_missing)

    _predict_with = predict_with  # the names used before predict_with was public

    def score_with(self, tree: Tree, X, y, sample_weight=None) -> float:
        """:meth:`score` through ``tree`` (see :meth:`predict_with`)."""
        pred = self.predict_with(tree, X)
        y = encode_targets(y, pred.shape[0])
        w = check_sample_weight(sample_weight, pred.shape[0])
        ss_res = np.dot(w, (y - pred) ** 2)
        ss_tot = np.dot(w, (y - np.average(y, weights=w)) ** 2)
        if ss_tot > 0:
            return float(1.0 - ss_res / ss_tot)
        # a constant y: perfect predictions score 1, others 0 (scikit-learn's r2_score)
        return 1.0 if ss_res == 0 else 0.0

    _score_with = score_with


#: the class every treebook estimator derives from (for ``isinstance`` checks)
TreeEstimator = _TreeEstimatorBase
