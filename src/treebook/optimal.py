"""Optimal shallow trees: the tree of depth at most ``max_depth`` that minimises the
training objective over CART's own splits (chapter 9).

The objective of a tree ``T`` on training set ``D`` is cost-complexity's::

    R_α(T) = Σ_{leaves l} |D_l|/|D| · I(l) + α·|leaves(T)|,

``I`` the misclassification error, the Gini index, the entropy (bits) or, for
``criterion="pessimistic"``, C4.5's pessimistic error rate ``U_CF(E, N)`` (so that
``|D_l|·I(l)`` is the leaf's estimated errors of error-based pruning). The splits are
CART's: a numeric feature cut at the midpoint between adjacent distinct values of the
node, a categorical feature split into two subsets of its categories — every subset up
to ``max_subset_categories`` categories, beyond that only the cuts along Breiman's
ordering of the categories over the whole training set (``full_space_`` is False then;
see ``treebook.growers.optimal``). A CART tree of the same depth is one of the
candidates, so its objective is never below the optimum's (when ``full_space_``).

The search is the dynamic programme of ``treebook.growers.optimal`` (cache, greedy
and single-split upper bounds, similarity lower bound, MurTree's depth-two special case
compiled); ``time_limit`` stops it with the best tree found and a lower bound.
The result is an ordinary :class:`~treebook.core.tree.Tree`: drawing, rules, JSON, pruning
and prediction work as for every learner. Missing values are refused.
"""

from __future__ import annotations



from .core.base import DecisionTreeClassifierBase, Interval, Options
from .core.criteria import get_criterion
from .growers.optimal import OptimalProblem, solve_optimal, tree_of_solution
from .prune.error_based import confidence_z

__all__ = ["OptimalTreeClassifier", "CRITERIA"]

#: the objectives the solver minimises
CRITERIA = ("misclassification", "gini", "entropy", "pessimistic")


class OptimalTreeClassifier(DecisionTreeClassifierBase):
    """The optimal classification tree of depth at most ``max_depth``.

    Parameters
    ----------
    max_depth : int in 0 … 4 (default 3) — the depth of the tree searched (the search
        grows quickly with depth: see chapter 9); 0 is the root alone, one leaf, as for
        every learner of the package (scikit-learn and rpart refuse 0).
    criterion : ``"misclassification"`` (default), ``"gini"``, ``"entropy"`` or
        ``"pessimistic"`` (C4.5's pessimistic error count, confidence ``confidence``).
    min_samples_leaf : int ≥ 1 — each leaf keeps at least this many rows.
    ccp_alpha : float ≥ 0 — the price α of one leaf in ``R_α``: the optimum at α over
        all trees of the depth, not a pruning of one grown tree.
    time_limit : float > 0 or None (default) — seconds; past it the search stops with
        the best tree found (``optimal_`` is then False and ``lower_bound_`` bounds the
        optimum).
    confidence : float in (0, 0.5] — C4.5's CF for ``criterion="pessimistic"``.
    max_subset_categories : int in 1 … 12 — a categorical feature with at most this many
        categories offers every subset split.

    Attributes after ``fit`` (besides ``tree_``, ``classes_``, …): ``objective_`` (``R_α``
    of ``tree_``), ``lower_bound_`` (≤ the optimum), ``gap_`` (``objective_ −
    lower_bound_``, 0 when proved optimal), ``optimal_``, ``full_space_`` and ``search_``
    (the solver's ``treebook.growers.optimal.SearchResult``: upper bounds, counts).
    """

    _parameter_constraints = {
        "max_depth": Interval(int, 0, 4),
        "criterion": Options(*CRITERIA),
        "min_samples_leaf": Interval(int, 1, None),
        "ccp_alpha": Interval(float, 0.0, None),
        "time_limit": Interval(float, 0.0, None, closed="neither", allow_none=True),
        "confidence": Interval(float, 0.0, 0.5, closed="right"),
        "max_subset_categories": Interval(int, 1, 12),
    }

    def __init__(self, max_depth=3, criterion="misclassification", min_samples_leaf=1,
                 ccp_alpha=0.0, time_limit=None, confidence=0.25, max_subset_categories=8):
        self.max_depth = max_depth
        self.criterion = criterion
        self.min_samples_leaf = min_samples_leaf
        self.ccp_alpha = ccp_alpha
        self.time_limit = time_limit
        self.confidence = confidence
        self.max_subset_categories = max_subset_categories

    @property
    def search_(self):
        """The solver's ``treebook.growers.optimal.SearchResult`` of the last fit
        (upper bounds, counts, seconds; not written to JSON)."""
        self._check_fitted()
        return getattr(self, "_search", None)

    def problem(self, X, y, sample_weight=None) -> OptimalProblem:
        """The solver's ``treebook.growers.optimal.OptimalProblem`` of ``(X, y)``
        under this estimator's parameters (encoded as ``fit`` encodes them)."""
        self._validate_params()
        Xe, w = self._encode_fit(X, sample_weight)
        yc = self._encode_target(y, Xe.shape[0])
        keep = w > 0
        return self._problem(Xe[keep], yc[keep], w[keep])

    def _problem(self, X, y, w) -> OptimalProblem:
        enc = self.encoder_
        return OptimalProblem.build(
            X, y, w, self.n_classes_, categorical=enc.is_categorical,
            n_categories=[0 if c is None else len(c) for c in enc.categories],
            objective=self.criterion, alpha=self.ccp_alpha, min_leaf=self.min_samples_leaf,
            confidence=self.confidence, z=confidence_z(self.confidence),
            max_subset_categories=self.max_subset_categories)

    def _grow(self, X, y, w):
        prob = self._problem(X, y, w)
        result = solve_optimal(prob, self.max_depth, time_limit=self.time_limit)
        total = float(w.sum())
        self._search = result  # not a fitted attribute: it does not go to JSON
        self.objective_ = result.cost / total
        self.lower_bound_ = result.lower_bound / total
        self.gap_ = self.objective_ - self.lower_bound_
        self.optimal_ = bool(result.complete)
        self.full_space_ = bool(prob.full_space)
        stored = "misclassification" if self.criterion == "pessimistic" else self.criterion
        crit = get_criterion(stored)
        metadata = self._metadata(self.classes_)
        metadata.setdefault("extra", {}).update(
            algorithm="optimal", criterion=self.criterion, max_depth=self.max_depth,
            objective=self.objective_, lower_bound=self.lower_bound_,
            proved_optimal=self.optimal_)
        return tree_of_solution(
            prob, result.solution,
            n_categories=[0 if c is None else len(c) for c in self.encoder_.categories],
            impurity=lambda counts: float(crit.node_impurity(counts)), metadata=metadata)
