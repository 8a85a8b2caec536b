"""CLS: Hunt's Concept Learning System, grown with the conditional likelihood score.

"CLS" names two things, and this module is about both:

* the **Concept Learning System** of Hunt, Marin and Stone (*Experiments in Induction*,
  1966): the top-down, divide-and-conquer tree learner that ID3 grew out of. Its skeleton
  is the grower of ``treebook.growers.recursive`` (if the cases at a node are all of one class,
  make a leaf; otherwise choose a test, split, and recurse on each branch);
* the **conditional likelihood score** ``ℓ̄(D, A) = Σ_v P(v) Σ_k P(k|v) log P(k|v)``,
  the average log-likelihood of the training labels under the split's plug-in model,
  which equals ``-H(D|A)`` (:func:`treebook.core.impurity.conditional_log_likelihood`).

:class:`CLSClassifier` is that skeleton with the conditional likelihood score as its
choice of test (``score="likelihood"``), or the positive-class variant that a source
article's code computes (``score="positive_class"``,
:func:`treebook.core.impurity.positive_class_score`), and an optional significance stop: a
split is made only when the G-test of independence between branch and class
(:func:`treebook.core.impurity.g_test_pvalue`) has a p-value below ``significance``.

Candidate tests, shared with the other learners through ``treebook.core.splits``:

* a categorical feature: one multiway split, one branch per category present at the
  node; the feature is then used up on that path (as in ID3 and C4.5);
* a numeric feature: every binary cut ``x <= t`` between two distinct sorted values
  (``treebook.core.splits.threshold_tables``, one sort and a prefix sum); the threshold is
  the lower of the two values the cut lies between, at this node. (C4.5 instead takes the
  largest value of the *whole* training set not above the cut's midpoint; the two agree
  on training data but can send a new value between them differently: chapter 5.)

All candidates of all features compete on the same score; ties go to the first feature
in column order and, within a numeric feature, to the lowest cut.

:class:`CriterionTreeClassifier` is the same grower with any split measure of
:mod:`treebook.core.impurity` (information gain, gain ratio, Gini gain, …): chapter 5 uses it
to compare criteria on equal terms, everything else held fixed.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

import numpy as np

from .core import impurity as imp
from .core.base import DecisionTreeClassifierBase, Interval, Options
from .core.criteria import Criterion as CriterionObject
from .core.criteria import as_table_score, get_criterion
from .growers.recursive import grow_tree
from .growers.multiway import grow_multiway
from .core.splits import Split, best_index, categorical_table, multiway_split, threshold_tables
from .core.tree import NodeKind

__all__ = ["CLSClassifier", "CriterionTreeClassifier", "cls_split_finder"]

#: a split measure: scores of a ``(..., V, K)`` stack of contingency tables, higher is
#: better — a function ``f(tables, check=False)``, a ``treebook.core.criteria.Criterion``
#: (its ``table_score``) or the name of a registered one
Criterion = Callable[..., "float | np.ndarray"]


def cls_split_finder(
    is_categorical,
    n_categories,
    n_classes: int,
    criterion: Criterion,
    *,
    significance: float | None = None,
    required_class: int | None = None,
):
    """A split finder for ``treebook.growers.recursive.grow_tree`` that maximises ``criterion``.

    Parameters
    ----------
    is_categorical, n_categories : per feature, whether it is categorical and how many
        categories its codes range over (ignored for numeric features).
    criterion : ``criterion(tables, check=False)`` scores a stack of contingency tables
        ``(..., V, K)``; the split with the highest score wins. A
        ``treebook.core.criteria.Criterion`` (or its registered name) stands for its
        ``table_score``. This is the hook through which chapter 5 grows trees that differ
        in nothing but the criterion.
    significance : if given, the chosen split is made only when the G-test p-value of its
        contingency table is below it; otherwise the node stays a leaf.
    required_class : if given, a node with no case of this class is not split (the
        positive-class score has nothing to measure there).

    Notes
    -----
    The returned ``find`` builds the node's tables and hands them to ``find.choose``, the
    choice itself, which the level-wise grower (``treebook.growers.multiway.grow_multiway``)
    calls with the same tables.
    """
    is_categorical = np.asarray(is_categorical, dtype=bool)
    score_tables = as_table_score(criterion)

    def choose(candidates, class_counts=None, scores=None):
        """The choice from the node's tables: ``candidates`` lists ``(feature, table,
        None)`` for a categorical feature and ``(feature, tables, lower)`` for a numeric
        one (every cut's ``(n_cuts, 2, K)`` table and the value below the cut);
        ``scores``, if given, their ``score_tables`` (computed for many nodes at once)."""
        if required_class is not None and not class_counts[required_class] > 0:
            return None
        scored = []  # (score, feature, table, threshold or None)
        for c, (f, tables, lower) in enumerate(candidates):
            given = None if scores is None else scores[c]
            if lower is None:
                if np.count_nonzero(tables.sum(axis=1) > 0) < 2:
                    continue  # one category at this node: the split separates nothing
                s = score_tables(tables) if given is None else given
                scored.append((float(s), f, tables, None))
            else:
                # a cut with no weight on one side separates nothing (zero-weight cases)
                ok = np.all(tables.sum(axis=2) > 0, axis=1)
                if not ok.any():
                    continue
                s = score_tables(tables) if given is None else given
                scores_f = np.array(s, dtype=float, ndmin=1)
                scores_f[~ok] = np.nan  # never chosen by best_index
                j = best_index(scores_f)
                scored.append((float(scores_f[j]), f, tables[j], float(lower[j])))
        if not scored:
            return None
        score, feature, table, threshold = scored[best_index([c[0] for c in scored])]
        info = {"criterion": score}
        if significance is not None:
            p = float(imp.g_test_pvalue(table, check=False))
            info.update(g=float(imp.g_statistic(table, check=False)), p_value=p)
            if not p < significance:
                return None
        if threshold is None:
            return multiway_split(int(feature), table, score, **info)
        return Split(feature=int(feature), kind=NodeKind.THRESHOLD, score=score,
                     threshold=threshold, n_branches=2, info=info)

    def find(X, y, w, rows, available):
        yr = y[rows]
        counts = None
        if required_class is not None:
            counts = np.bincount(yr, weights=w, minlength=n_classes)
        candidates = []
        for f in np.flatnonzero(available):
            if is_categorical[f]:
                table, _ = categorical_table(X[rows, f], yr, w, n_categories[f], n_classes)
                candidates.append((int(f), table, None))
            else:
                cuts = threshold_tables(X[rows, f], yr, w, n_classes)
                candidates.append((int(f), cuts["tables"], cuts["lower"]))
        return choose(candidates, counts)

    find.choose = choose
    find.score_tables = score_tables
    find.batchable = _is_package_measure(criterion)
    return find


def _is_package_measure(criterion) -> bool:
    """Whether ``criterion`` is one of this package's measures, which score a stack of
    tables exactly as they score each table alone (so a grower may score many at once)."""
    f = criterion.func if isinstance(criterion, partial) else criterion
    if isinstance(f, str):
        f = get_criterion(f, regression=False)
    if isinstance(f, CriterionObject):
        parts = [getattr(f, name, None) for name in ("gain", "impurity")]
        return all(p is None or getattr(p, "__module__", "") == "treebook.core.impurity"
                   for p in parts) and type(f).__module__ == "treebook.core.criteria"
    return getattr(f, "__module__", "") == "treebook.core.impurity"


class _SharedGrowerMixin:
    """Fit machinery shared by the two learners of this module."""

    _all_categorical = False
    _missing = "error"
    _missing_hint = ("CLS has no rule for missing values; impute them, or use "
                     "C45Classifier, which sends such cases down every branch with "
                     "fractional weights.")

    def _grow_with(self, X, y, w, criterion, required_class=None):
        enc = self.encoder_
        is_cat = enc.is_categorical
        n_categories = [len(c) if c is not None else 0 for c in enc.categories]
        finder = cls_split_finder(is_cat, n_categories, self.n_classes_, criterion,
                                  significance=self.significance,
                                  required_class=required_class)
        if self.grower == "levelwise":
            return grow_multiway(
                X, y, w, finder=finder, is_categorical=is_cat, n_categories=n_categories,
                n_classes=self.n_classes_, node_impurity=imp.entropy,
                max_depth=self.max_depth, min_samples_split=self.min_samples_split,
                min_gain=-np.inf, metadata=self._metadata(self.classes_))
        return grow_tree(
            X, y, w,
            find_split=finder,
            n_classes=self.n_classes_,
            node_impurity=imp.entropy,
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            # the scores are log-likelihoods (≤ 0): stopping is the finder's job
            min_gain=-np.inf,
            metadata=self._metadata(self.classes_),
        )


class CLSClassifier(_SharedGrowerMixin, DecisionTreeClassifierBase):
    """A CLS tree: Hunt's divide and conquer, tests chosen by a conditional likelihood score.

    Parameters
    ----------
    score : ``"likelihood"`` (default)
        the conditional likelihood score
        ``Σ_v P(v) Σ_k P(k|v) log2 P(k|v) = -H(D|A)``, which chooses exactly the tests
        that information gain chooses; or ``"positive_class"`` — the source article's
        ``Σ_v P(v) log2 P̂(+|v)`` with additive smoothing (see
        :func:`treebook.core.impurity.positive_class_score`).
    significance : float in (0, 1] or None
        split a node only when the G-test of
        independence between the chosen split's branches and the class has a p-value
        below this level α (pre-pruning). ``None``: no test.
    max_depth : int ≥ 0 or None
        stop growing at this depth (root has depth 0);
        ``max_depth=0`` is the root alone, one leaf (scikit-learn and rpart refuse 0).
    min_samples_split : int ≥ 2
        a node with fewer cases stays a leaf.
    smoothing : float ≥ 0
        the ``s`` of ``P̂(+|v) = (|D_v+| + s)/(|D_v| + s·K)``, used by
        ``score="positive_class"`` only. ``0`` gives raw proportions (a branch without
        positive cases scores ``-inf``; ties between such splits go to the first).
    positive_class : a class label or None
        the positive class of
        ``score="positive_class"``. ``None`` is allowed for two classes only and means the
        class that sorts last (``1`` for 0/1 labels, ``"yes"`` for no/yes). With more
        classes it must be declared, and the score is one-vs-rest.
    grower : ``"levelwise"`` (default)
        all nodes of a depth at once
        (``treebook.growers.multiway.grow_multiway``); ``"recursive"`` — the readable
        ``treebook.growers.recursive.grow_tree``. Both build the identical tree (tested).

    Notes
    -----
    Attributes after fit: those of every learner (``tree_``, ``classes_``, …) and, with
    ``score="positive_class"``, ``positive_class_`` (the label used as positive).

    Numeric features get binary thresholds, categorical features multiway splits (see
    the module docstring). Missing values are rejected with a clear error.
    """

    _parameter_constraints = {
        "split_score": Options("likelihood", "positive_class"),
        "significance": Interval(float, 0.0, 1.0, closed="right", allow_none=True),
        "max_depth": Interval(int, 0, None, allow_none=True),
        "min_samples_split": Interval(int, 2, None),
        "smoothing": Interval(float, 0.0, None),
        "grower": Options("levelwise", "recursive"),
    }

    def __init__(self, score="likelihood", significance=None, max_depth=None,
                 min_samples_split=2, smoothing=1.0, positive_class=None,
                 grower="levelwise"):
        # The parameter ``score`` shares its name with the method ``score(X, y)`` that
        # every learner has; an attribute of that name would hide the method. Its value
        # is therefore kept as ``split_score``, and get_params / set_params translate
        # (scikit-learn's repr, clone and HTML display read get_params), so
        # ``CLSClassifier(score=...)``, ``get_params()["score"]`` and ``clf.score(X, y)``
        # all work.
        self.split_score = score
        self.significance = significance
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.smoothing = smoothing
        self.positive_class = positive_class
        self.grower = grower

    # ------------------------------------------------------- the `score` parameter
    def get_params(self, deep: bool = True) -> dict:
        params = super().get_params(deep)
        params["score"] = self.split_score
        return params

    def set_params(self, **params):
        if "score" in params:
            self.split_score = params.pop("score")
        return super().set_params(**params)

    def _validate_params(self):
        try:
            super()._validate_params()
        except (TypeError, ValueError) as exc:
            # report the parameter by the name the caller used
            raise type(exc)(str(exc).replace("split_score", "score")) from None

    # ------------------------------------------------------------------ growing
    def _positive_index(self) -> int:
        classes = self.classes_.tolist()
        if self.positive_class is None:
            if len(classes) != 2:
                raise ValueError(
                    f"score='positive_class' needs a positive class: y has {len(classes)} "
                    f"classes {classes}; declare one with positive_class=<label> (the "
                    "score is then one-vs-rest)" if len(classes) > 2 else
                    f"score='positive_class' needs two classes, but y has only {classes}: "
                    "there is no positive class to score"
                )
            return 1
        matches = [k for k, c in enumerate(classes) if c == self.positive_class]
        if not matches:
            raise ValueError(
                f"positive_class={self.positive_class!r} does not occur in y (classes "
                f"{classes}): the positive-class score would be log 0 in every branch"
            )
        return matches[0]

    def _grow(self, X, y, w):
        if self.split_score == "likelihood":
            return self._grow_with(X, y, w, imp.conditional_log_likelihood)
        k = self._positive_index()
        self.positive_class_ = self.classes_[k]
        criterion = partial(imp.positive_class_score, positive=k,
                            smoothing=float(self.smoothing))
        return self._grow_with(X, y, w, criterion, required_class=k)


class CriterionTreeClassifier(_SharedGrowerMixin, DecisionTreeClassifierBase):
    """The CLS grower with any split measure: for comparing criteria on equal terms.

    Every candidate split, the tie rule, the stopping rules and the significance stop
    are those of :class:`CLSClassifier`; only the score differs.

    Parameters
    ----------
    criterion : callable
        ``criterion(tables, check=False)`` on a ``(..., V, K)`` stack
        of contingency tables, higher is better: e.g.
        :func:`treebook.core.impurity.information_gain`, :func:`~treebook.core.impurity.gain_ratio`,
        :func:`~treebook.core.impurity.gini_gain`,
        :func:`~treebook.core.impurity.conditional_log_likelihood`; or a criterion of
        ``treebook.core.criteria`` (the object or its registered name, e.g. ``"gini"``),
        which scores tables by its gain.
    significance, max_depth, min_samples_split, grower : as in :class:`CLSClassifier`.
    """

    _parameter_constraints = {
        "significance": Interval(float, 0.0, 1.0, closed="right", allow_none=True),
        "max_depth": Interval(int, 0, None, allow_none=True),
        "min_samples_split": Interval(int, 2, None),
        "grower": Options("levelwise", "recursive"),
    }

    def __init__(self, criterion=imp.information_gain, significance=None, max_depth=None,
                 min_samples_split=2, grower="levelwise"):
        self.criterion = criterion
        self.significance = significance
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.grower = grower

    def _grow(self, X, y, w):
        criterion = self.criterion
        if isinstance(criterion, str):
            criterion = get_criterion(criterion, regression=False)
        elif not callable(criterion) and not isinstance(criterion, CriterionObject):
            raise TypeError(f"criterion must be a callable scoring contingency tables; "
                            f"got {self.criterion!r}")
        return self._grow_with(X, y, w, criterion)
