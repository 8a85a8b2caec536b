"""Criteria as objects: one object per impurity measure, and a registry of them by name.

A criterion says everything a learner needs to know about one measure of impurity, so
that a new measure is one object in one place (as scikit-learn's ``Criterion`` classes
are):

* :meth:`Criterion.node_impurity` — ``I(D)`` of nodes from their class weights (what a
  tree stores per node, and what the purity stop and the improvement use);
* :meth:`Criterion.split_proxy` — the score a sorted scan maximises over the candidate
  cuts of a node (the part of ``|D_1| I(D_1) + |D_2| I(D_2)`` that varies with the cut,
  negated); both CART growers call it, so equal counts give bit-for-bit equal scores.
  :meth:`Criterion.two_class_score` is the same score from the class-1 weights alone
  (what the level-wise grower accumulates with two classes);
* :meth:`Criterion.table_score` — the criterion as a split measure on contingency tables
  ``(..., V, K)``, higher is better (the gain ``I(D) - Σ_v |D_v|/|D| I(D_v)``): what the
  CLS grower (:func:`treebook.cls.cls_split_finder`) maximises;
* :meth:`Criterion.node_risk` — ``|D_t| · R(t)``, the risk of a node as a leaf that
  cost-complexity pruning charges (:func:`treebook.prune.cost_complexity.node_risk`).

:data:`CRITERIA` maps names to criteria; :func:`register_criterion` adds one, after which
``CARTClassifier(criterion=name)``, the level-wise grower and ``ccp_risk=name`` accept it
(the estimators' allowed values are read from the registry). Registered here: ``"gini"``,
``"entropy"`` (bits; its scan proxy is in nats, a constant factor), ``"misclassification"``
and, for regression, ``"squared_error"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import impurity as imp
from .cart_scores import entropy_split_score, gini_split_score, squared_error_split_score

__all__ = [
    "Criterion",
    "ClassificationCriterion",
    "RegressionCriterion",
    "TableCriterion",
    "GINI",
    "ENTROPY",
    "MISCLASSIFICATION",
    "SQUARED_ERROR",
    "CRITERIA",
    "register_criterion",
    "get_criterion",
    "criterion_names",
    "as_table_score",
]


class Criterion:
    """The interface every criterion provides (see the module docstring): a ``name``, an
    ``is_regression`` flag and the methods below."""

    def node_impurity(self, value) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def split_proxy(self, left, right, w_left, w_right):  # pragma: no cover - interface
        raise NotImplementedError

    def table_score(self, tables):  # pragma: no cover - interface
        raise NotImplementedError

    def node_risk(self, tree) -> np.ndarray:
        """``|D_t| · I(t)`` per node of ``tree``, from its class weights."""
        return tree.weighted_n * np.asarray(self.node_impurity(tree.value), dtype=float)

    def __call__(self, tables, check: bool = False):
        """A criterion called on contingency tables is its :meth:`table_score`, so it can
        stand wherever a split measure of :mod:`treebook.core.impurity` is accepted."""
        return self.table_score(tables)

    def __repr__(self) -> str:
        return f"<criterion {self.name!r}>"


@dataclass(frozen=True, repr=False)
class ClassificationCriterion(Criterion):
    """A classification criterion made of functions.

    ``impurity(counts, check=False)`` is ``I`` on class weights ``(..., K)``;
    ``proxy(left, right, w_left, w_right)`` the scan score from ``K`` arrays of class
    weights per side and the side totals; ``gain(tables, check=False)`` the table score
    (default: ``I(D) - Σ_v |D_v|/|D| I(D_v)`` built from ``impurity``);
    ``two_class`` (optional) the two-class shortcut ``(l1, r1, w_left, w_right)``.
    """

    name: str
    impurity: Callable
    proxy: Callable
    gain: Callable | None = None
    two_class: Callable | None = None
    risk: Callable | None = None
    is_regression: bool = False

    def node_impurity(self, value):
        return self.impurity(value, check=False)

    def split_proxy(self, left, right, w_left, w_right):
        return self.proxy(left, right, w_left, w_right)

    def two_class_score(self, l1, r1, w_left, w_right):
        """The scan score with two classes from the class-1 weights ``l1``/``r1`` of each
        side: the other class is ``w - c1``."""
        if self.two_class is not None:
            return self.two_class(l1, r1, w_left, w_right)
        return self.proxy([w_left - l1, l1], [w_right - r1, r1], w_left, w_right)

    def table_score(self, tables):
        if self.gain is not None:
            return self.gain(tables, check=False)
        t = np.asarray(tables, dtype=float)
        sizes = t.sum(axis=-1)
        total = sizes.sum(axis=-1)
        safe = np.where(total > 0, total, 1.0)
        after = (sizes * np.asarray(self.impurity(t, check=False))).sum(axis=-1) / safe
        return np.asarray(self.impurity(t.sum(axis=-2), check=False)) - after

    def node_risk(self, tree):
        if self.risk is not None:
            return self.risk(tree)
        return super().node_risk(tree)


@dataclass(frozen=True, repr=False)
class RegressionCriterion(Criterion):
    """A regression criterion: ``impurity_from_sums(W, S1, S2)`` per node and the scan
    score ``proxy(s_left, w_left, w_right)`` from centred left sums."""

    name: str
    impurity_from_sums: Callable
    proxy: Callable
    is_regression: bool = True

    def node_impurity(self, value):
        raise TypeError(f"the regression criterion {self.name!r} takes sums of y, not "
                        "class counts: use node_summaries")

    def split_proxy(self, s_left, w_left, w_right):
        return self.proxy(s_left, w_left, w_right)

    def table_score(self, tables):
        raise TypeError(f"the regression criterion {self.name!r} does not score "
                        "contingency tables")

    def node_risk(self, tree):
        return tree.weighted_n * tree.impurity


@dataclass(frozen=True, repr=False)
class TableCriterion(Criterion):
    """A split measure on contingency tables only (CLS's criteria: a function
    ``score(tables, check=False)``, higher is better)."""

    name: str
    score: Callable
    is_regression: bool = False

    def table_score(self, tables):
        return self.score(tables, check=False)


def _gini_two_class(l1, r1, w_left, w_right):
    return gini_split_score([None, l1], [None, r1], w_left, w_right)


def _misclassification_proxy(left, right, w_left, w_right):
    """``max_k C_{1k} + max_k C_{2k}``: the weight the two children classify correctly."""
    return np.maximum.reduce(list(left)) + np.maximum.reduce(list(right))


def _misclassified(tree):
    return tree.weighted_n - tree.value.max(axis=1)


GINI = ClassificationCriterion("gini", imp.gini, gini_split_score, gain=imp.gini_gain,
                               two_class=_gini_two_class)
ENTROPY = ClassificationCriterion("entropy", imp.entropy, entropy_split_score,
                                  gain=imp.information_gain)
MISCLASSIFICATION = ClassificationCriterion("misclassification", imp.misclassification_error,
                                            _misclassification_proxy, risk=_misclassified)
SQUARED_ERROR = RegressionCriterion("squared_error", imp.variance_from_sums,
                                    squared_error_split_score)

#: every criterion by name
CRITERIA: dict = {c.name: c for c in (GINI, ENTROPY, MISCLASSIFICATION, SQUARED_ERROR)}
#: scikit-learn's name for the entropy criterion (its trees split on the same impurity)
CRITERIA["log_loss"] = ENTROPY


def register_criterion(criterion: Criterion) -> Criterion:
    """Add ``criterion`` to :data:`CRITERIA` under its ``name`` (replacing one of that name)."""
    if not isinstance(criterion, Criterion):
        raise TypeError(f"criterion must be a treebook.core.criteria.Criterion; got {criterion!r}")
    if not isinstance(criterion.name, str) or not criterion.name:
        raise ValueError("criterion.name must be a non-empty string")
    CRITERIA[criterion.name] = criterion
    return criterion


def criterion_names(regression: bool | None = None) -> tuple:
    """Names in the registry (``regression=True``/``False``: of that kind only)."""
    return tuple(name for name, c in CRITERIA.items()
                 if regression is None or c.is_regression == regression)


def get_criterion(criterion, *, regression: bool | None = None) -> Criterion:
    """The criterion named ``criterion`` (or the object itself), checked for its kind."""
    if isinstance(criterion, Criterion):
        crit = criterion
    elif isinstance(criterion, str) and criterion in CRITERIA:
        crit = CRITERIA[criterion]
    else:
        raise ValueError(f"criterion must be one of {list(criterion_names(regression))}; "
                         f"got {criterion!r}")
    if regression is not None and crit.is_regression != regression:
        kind = "regression" if regression else "classification"
        raise ValueError(f"criterion {crit.name!r} is not a {kind} criterion; choose one of "
                         f"{list(criterion_names(regression))}")
    return crit


def as_table_score(criterion) -> Callable:
    """``tables -> scores`` from a criterion object, a registered name or a callable
    ``criterion(tables, check=False)`` (the CLS grower's split measure)."""
    if isinstance(criterion, (Criterion, str)):
        return get_criterion(criterion, regression=False).table_score
    if callable(criterion):
        return lambda tables: criterion(tables, check=False)
    raise TypeError(f"criterion must be a callable scoring contingency tables, a "
                    f"Criterion or a registered name; got {criterion!r}")
