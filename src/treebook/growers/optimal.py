"""The exact solver for shallow trees: dynamic programming over (rows, depth), with bounds.

The tree of depth at most ``d`` that minimises the training objective

    R_α(T) = Σ_{leaves l} C(D_l) + α·|D|·|leaves(T)|,

``C(D_l)`` the cost of a leaf (:func:`treebook.kernels.optimal.leaf_cost`: the weight it
misclassifies, ``|D_l|·Gini``, ``|D_l|·H`` in bits, or C4.5's pessimistic error count),
over **CART's own splits**: a numeric feature cut at the midpoint between two adjacent
distinct values of the node (values closer than ``FEATURE_THRESHOLD`` — chained, over the
whole training set — count as one, the only departure from CART's node-by-node test), a
categorical feature split into two subsets of its categories.

**Categorical subsets.** A feature with at most ``max_subset_categories`` categories in
training offers every subset split (``2^(L-1) - 1``, :func:`treebook.core.splits.all_subset_masks`),
so every split CART can make is searched. With more categories only the ``L - 1`` cuts
along Breiman's order of the categories *over the whole training set* are offered (by the
proportion of class 1 with two classes, by each class's proportion with more): CART
orders the categories anew at each node, so with such a feature the optimum is over a
smaller space than CART's, and a CART tree can be better. :attr:`OptimalProblem.full_space`
says which.

**The recursion** (the readable version, :mod:`treebook.teaching.optimal_readable`, is
the definition; this one is tested equal to it):

    OPT(D, 0) = C(D) + α'          (α' = α·|D_root|, the cost of one leaf)
    OPT(D, d) = min( C(D) + α',  min_{splits s of D} OPT(D_s,left, d-1) + OPT(D_s,right, d-1) )

solved depth first with

* a **cache** of solved subproblems keyed by (row set, depth): the same rows reached by
  different paths (``a`` then ``b``, ``b`` then ``a``) are solved once;
* **upper bounds**: the search only looks for trees cheaper than the incumbent, which
  starts as the best of the leaf, the best single split and two greedy trees (CART's
  Gini greedy growth and greedy growth on the objective itself), so a subproblem is
  given the budget ``incumbent − (lower bound of its sibling)``;
* **lower bounds**: a cached bound, and the *similarity bound* (Demirović et al. 2022;
  see :mod:`treebook.kernels.optimal`) between neighbouring cuts of one column, which
  skips cuts that cannot beat the incumbent;
* **MurTree's depth-two special case**: a subproblem of depth two is solved by
  :func:`treebook.kernels.optimal.depth_two` (compiled), one pass per root cut;
* a **time limit**: past it the search stops and returns its incumbent with a lower
  bound on the optimum (``lower_bound ≤ OPT ≤ cost``). The clock is read between cuts
  and between compiled calls (a depth-two subproblem scans its root columns 16 at a time,
  one at a time at the root), so one call can overrun the limit, most with the
  pessimistic objective, which has no similarity bound. The bound of a stopped search is
  weak: every root cut it has not reached counts at its trivial bound (two leaves,
  ``2α'``), so it is usually 0 without ``ccp_alpha``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..kernels import optimal as K
from ..core.cart_scores import FEATURE_THRESHOLD, all_subset_masks, category_order, midpoint_threshold, ordered_subset_masks
from ..core.splits import NodeKind
from ..core.tree import Tree, TreeBuilder

__all__ = ["OBJECTIVES", "OptimalProblem", "Solution", "solve_optimal", "tree_of_solution",
           "solution_cost", "greedy_solution", "MAX_SUBSET_CATEGORIES"]

#: objective name -> leaf-cost code of :mod:`treebook.kernels.optimal`
OBJECTIVES = {"misclassification": K.MISCLASSIFICATION, "gini": K.GINI,
              "entropy": K.ENTROPY, "pessimistic": K.PESSIMISTIC}

#: a categorical feature with at most this many categories offers every subset split
MAX_SUBSET_CATEGORIES = 8


@dataclass
class OptimalProblem:
    """A training set laid out for the solver: every candidate split as a column of ranks.

    ``columns[c]`` is ``(feature, left_codes)``: ``left_codes`` is None for a numeric
    feature (column ``c`` holds the rank of each row's value; the split "rank <= r" is
    CART's cut after rank ``r``) or a boolean mask over the feature's category codes (the
    column holds 0 for rows in that subset, 1 for the others). ``rank`` ``(C, n)``,
    ``order`` ``(C, n)`` (the rows sorted by rank, stable), ``y`` class codes, ``w``
    weights; ``alpha`` is the cost of one leaf in units of weight (``α·|D|``).
    """

    X: np.ndarray
    y: np.ndarray
    w: np.ndarray
    n_classes: int
    columns: list
    rank: np.ndarray
    order: np.ndarray
    objective: str = "misclassification"
    alpha: float = 0.0
    min_leaf: int = 1
    confidence: float = 0.25
    z: float = 0.6744897501960817
    full_space: bool = True

    @property
    def crit(self) -> int:
        return OBJECTIVES[self.objective]

    @property
    def lam(self) -> float:
        """λ of the similarity bound (module docstring of :mod:`treebook.kernels.optimal`):
        1 (misclassification), 2 (Gini), ``inf`` (entropy: the growing side only), -1
        (none: the pessimistic error is not superadditive, and a minimum leaf size breaks
        the argument that a subset's optimum is no larger)."""
        if self.min_leaf > 1:
            return -1.0
        return {"misclassification": 1.0, "gini": 2.0, "entropy": np.inf}.get(
            self.objective, -1.0)

    @property
    def kernel_args(self) -> tuple:
        """``(crit, cf, z, top, alpha, min_leaf)`` as the kernels take them."""
        return (self.crit, float(self.confidence), float(self.z), 1.0, float(self.alpha),
                int(self.min_leaf))

    @classmethod
    def build(cls, X, y, w, n_classes: int, *, categorical=None, n_categories=None,
              objective: str = "misclassification", alpha: float = 0.0, min_leaf: int = 1,
              confidence: float = 0.25, z: float = 0.6744897501960817,
              max_subset_categories: int = MAX_SUBSET_CATEGORIES) -> "OptimalProblem":
        """Columns of every CART split of encoded ``X`` (numeric floats; categorical
        integer codes, no missing values). ``alpha`` is ``ccp_alpha`` (per leaf, as a
        fraction of the total weight); it is stored in units of weight."""
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {list(OBJECTIVES)}; got {objective!r}")
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=np.int64)
        w = np.asarray(w, dtype=float)
        n, F = X.shape
        if np.isnan(X).any():
            raise ValueError("X has missing values; the optimal solver needs complete data")
        categorical = np.zeros(F, bool) if categorical is None else np.asarray(categorical, bool)
        columns, ranks, full = [], [], True
        for j in range(F):
            x = X[:, j]
            if categorical[j]:
                L = int(n_categories[j]) if n_categories is not None else int(x.max()) + 1
                codes = x.astype(np.int64)
                table = np.zeros((L, n_classes))
                np.add.at(table, (codes, y), w)
                present = np.flatnonzero(table.sum(axis=1) > 0)
                if present.size < 2:
                    continue
                if present.size <= max_subset_categories:
                    masks = all_subset_masks(present, L)
                else:
                    full = False
                    orders = ([category_order(table)] if n_classes == 2 else
                              [category_order(table, by=k) for k in range(n_classes)])
                    masks = np.unique(np.concatenate(
                        [ordered_subset_masks(o, L) for o in orders]), axis=0)
                for mask in masks:
                    columns.append((j, mask))
                    ranks.append(np.where(mask[codes], 0, 1))
            else:
                values = np.unique(x)
                group = np.concatenate([[0], np.cumsum(values[1:] > values[:-1] + FEATURE_THRESHOLD)])
                if group[-1] == 0:
                    continue  # constant: no cut
                columns.append((j, None))
                ranks.append(group[np.searchsorted(values, x)])
        rank = (np.array(ranks, dtype=np.int64) if ranks else np.zeros((0, n), np.int64))
        order = np.argsort(rank, axis=1, kind="stable").astype(np.int64)
        return cls(X=X, y=y, w=w, n_classes=int(n_classes), columns=columns, rank=rank,
                   order=order, objective=objective, alpha=float(alpha) * float(w.sum()),
                   min_leaf=int(min_leaf), confidence=float(confidence), z=float(z),
                   full_space=full)

    def leaf_cost(self, rows) -> float:
        """``C(D) + α'`` of the rows as one leaf."""
        counts = np.bincount(self.y[rows], weights=self.w[rows], minlength=self.n_classes)
        crit, cf, z, top, alpha, _ = self.kernel_args
        return K.leaf_cost(counts.astype(float), float(counts.sum()), crit, cf, z, top) + alpha

    def goes_left(self, rows, column: int, r: int) -> np.ndarray:
        return self.rank[column, rows] <= r


#: a solution: None for a leaf, or ``(column, rank, left, right)`` — the rows with
#: ``rank[column] <= rank`` go left
Solution = object


@dataclass
class SearchResult:
    """What :func:`solve_optimal` returns: the ``solution`` with its ``cost`` (``R_α``
    in units of weight), a ``lower_bound`` on the optimum, whether the search was
    ``complete`` (then ``lower_bound == cost``: proved optimal), and counters."""

    solution: Solution
    cost: float
    lower_bound: float
    complete: bool
    upper_bounds: dict = field(default_factory=dict)
    subproblems: int = 0
    cache_hits: int = 0
    depth_two_cuts: int = 0
    seconds: float = 0.0


class _Timeout(Exception):
    pass


class _Search:
    """The depth-first search of :func:`solve_optimal` (one object per fit)."""

    def __init__(self, prob: OptimalProblem, deadline: float | None, use_bounds: bool,
                 max_cache: int = 200_000):
        self.p = prob
        self.deadline = deadline
        self.use_bounds = use_bounds
        self.cache: dict = {}
        self.max_cache = max_cache
        self.mask = np.zeros(prob.y.shape[0], dtype=bool)
        self.is_left = np.zeros(prob.y.shape[0], dtype=np.bool_)
        self.out = np.empty(10)
        self.timed_out = False
        self.subproblems = 0
        self.cache_hits = 0
        self.depth_two_cuts = 0

    # ------------------------------------------------------------------ helpers
    def _late(self) -> bool:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.timed_out = True
        return self.timed_out

    def _key(self, order, depth):
        self.mask[order[0]] = True
        key = (depth, np.packbits(self.mask).tobytes())
        self.mask[order[0]] = False
        return key

    def _split(self, order, c, p):
        """The children's orders of the cut after position ``p`` of column ``c``."""
        m = order.shape[1]
        self.mask[order[c, :p]] = True
        sel = self.mask[order]
        self.mask[order[c, :p]] = False
        C = order.shape[0]
        return order[sel].reshape(C, p), order[~sel].reshape(C, m - p)

    def leaf(self, order) -> float:
        return self.p.leaf_cost(order[0]) if order.shape[0] else self.p.leaf_cost(
            np.arange(self.p.y.shape[0]))

    # ------------------------------------------------------------------ depth 1 and 2
    def depth_one(self, order):
        p = self.p
        out = self.out
        lam = p.lam if self.use_bounds else -1.0
        K.best_split(order, p.rank, p.y, p.w, p.n_classes, *p.kernel_args, lam, self.is_left,
                     out)
        col = int(out[1])
        return float(out[0]), (None if col < 0 else (col, int(out[2]), None, None))

    def depth_two(self, order, target, leaf, interruptible):
        """Best depth-2 tree below ``target`` (or the leaf): ``(cost, solution, lb)``."""
        p = self.p
        lam = p.lam if self.use_bounds else -1.0
        C = order.shape[0]
        best, sol = leaf, None
        target = min(target, leaf)
        # root columns a few at a time, so that the time limit is checked between calls
        step = 1 if interruptible else 16
        for c0 in range(0, C, step):
            if self._late():
                return best, sol, min(best, target, 2 * p.alpha)
            out = self.out
            K.depth_two(order, p.rank, p.y, p.w, p.n_classes, *p.kernel_args, lam,
                        float(target), c0, min(c0 + step, C), self.is_left, out)
            self.depth_two_cuts += int(out[9])
            if out[1] >= 0 and out[0] < target:
                target = best = float(out[0])
                side_l = None if out[4] < 0 else (int(out[4]), int(out[5]), None, None)
                side_r = None if out[7] < 0 else (int(out[7]), int(out[8]), None, None)
                sol = (int(out[1]), int(out[2]), side_l, side_r)
        return best, sol, min(best, target)

    # ------------------------------------------------------------------ the recursion
    def solve(self, order, depth: int, upper: float, root: bool = False):
        """``(cost, solution, lower_bound)`` of the rows of ``order`` at ``depth``: the
        best tree found (the leaf at worst) and a bound ``lb ≤ OPT``; when the search is
        complete, ``lb = min(OPT, upper)``."""
        p = self.p
        self.subproblems += 1
        leaf = self.leaf(order)
        m = order.shape[1]
        if depth == 0 or m < 2 * p.min_leaf or m < 2 or order.shape[0] == 0:
            return leaf, None, leaf
        key = None
        if depth >= 2:
            key = self._key(order, depth)
            hit = self.cache.get(key)
            if hit is not None:
                cost, sol, lb = hit
                if lb >= cost or lb >= upper:
                    self.cache_hits += 1
                    return cost, sol, lb
        if depth == 1:
            cost, sol = self.depth_one(order)
            return cost, sol, cost
        if depth == 2:
            cost, sol, lb = self.depth_two(order, upper, leaf, interruptible=root)
        else:
            cost, sol, lb = self._general(order, depth, upper, leaf)
        if key is not None and (len(self.cache) < self.max_cache or key in self.cache):
            old = self.cache.get(key)
            if old is None or lb > old[2] or cost < old[0]:
                keep = (cost, sol) if old is None or cost <= old[0] else old[:2]
                self.cache[key] = (*keep, max(lb, old[2] if old else -np.inf))
        return cost, sol, lb

    def _general(self, order, depth, upper, leaf):
        p = self.p
        alpha = p.alpha
        lam = p.lam if self.use_bounds else -1.0
        best, sol = leaf, None
        target = min(upper, leaf)
        C, m = order.shape
        for c in range(C):
            ranks = p.rank[c, order[c]]
            cuts = np.flatnonzero(ranks[1:] != ranks[:-1]) + 1  # rows left of each cut
            cuts = cuts[(cuts >= p.min_leaf) & (m - cuts >= p.min_leaf)]
            w_left = np.cumsum(p.w[order[c]])
            anchor = None
            for q in cuts:
                if self._late():
                    return best, sol, min(best, target, 2 * alpha)
                W_L = w_left[q - 1]
                if anchor is not None and lam >= 0:
                    a_L, a_R, a_W = anchor
                    right = alpha if lam == np.inf else max(a_R - lam * (W_L - a_W), alpha)
                    if a_L + right >= target - 1e-12 * abs(target):
                        continue
                L, R = self._split(order, c, int(q))
                cL, sL, lbL = self.solve(L, depth - 1, target - alpha)
                if lbL + alpha >= target - 1e-12 * abs(target):
                    anchor = (lbL, alpha, W_L)
                    continue
                cR, sR, lbR = self.solve(R, depth - 1, target - cL)
                anchor = (lbL, lbR, W_L)
                if cL + cR < target - 1e-12 * abs(target):
                    target = best = cL + cR
                    sol = (c, int(ranks[q - 1]), sL, sR)
        return best, sol, min(best, target)


def solution_cost(prob: OptimalProblem, rows, sol) -> float:
    """``R_α`` (units of weight) of a solution on ``rows``."""
    if sol is None:
        return prob.leaf_cost(rows)
    c, r, left, right = sol
    go = prob.goes_left(rows, c, r)
    return solution_cost(prob, rows[go], left) + solution_cost(prob, rows[~go], right)


def greedy_solution(prob: OptimalProblem, order, depth: int, choose: str):
    """Greedy growth to ``depth``: at each node the best single split under the leaf cost
    ``choose`` (``"gini"``: CART's choice), kept if it lowers the objective of the node."""
    if depth == 0 or order.shape[0] == 0 or order.shape[1] < 2:
        return None
    chooser = OptimalProblem(**{**prob.__dict__, "objective": choose})
    search = _Search(chooser, None, True)
    _, sol = search.depth_one(order)
    if sol is None:
        return None
    c, r, _, _ = sol
    rows = order[0]
    go = prob.goes_left(rows, c, r)
    sub = _Search(prob, None, True)
    L, R = sub._split(order, c, int(np.count_nonzero(go)))
    sol = (c, r, greedy_solution(prob, L, depth - 1, choose),
           greedy_solution(prob, R, depth - 1, choose))
    if solution_cost(prob, rows, sol) >= prob.leaf_cost(rows):
        return None
    return sol


def solve_optimal(prob: OptimalProblem, max_depth: int, *, time_limit: float | None = None,
                  use_bounds: bool = True) -> SearchResult:
    """The tree of depth ``<= max_depth`` minimising ``R_α`` over the problem's splits.

    ``use_bounds=False`` turns off the greedy upper bounds and the similarity bound (the
    cache and the incumbent's own pruning stay): the chapter measures what they buy.
    ``time_limit`` (seconds, None: none): past it the best tree found is returned with
    ``complete=False`` and its lower bound."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + float(time_limit)
    search = _Search(prob, deadline, use_bounds)
    order = prob.order
    rows = order[0] if order.shape[0] else np.arange(prob.y.shape[0])
    leaf = prob.leaf_cost(rows)
    incumbent, inc_cost = None, leaf
    bounds = {"leaf": leaf}
    if use_bounds and order.shape[0] and max_depth >= 1:
        single = search.depth_one(order)
        bounds["single split"] = single[0]
        candidates = [single]
        for choose in dict.fromkeys(("gini", prob.objective)):
            g = greedy_solution(prob, order, max_depth, choose)
            cost = solution_cost(prob, rows, g)
            bounds[f"greedy ({choose})"] = cost
            candidates.append((cost, g))
        for cost, sol in candidates:
            if cost < inc_cost - 1e-12 * abs(inc_cost):
                incumbent, inc_cost = sol, cost
    upper = inc_cost if incumbent is not None else np.inf
    cost, sol, lb = search.solve(order, max_depth, upper, root=True)
    if incumbent is not None and not cost < inc_cost - 1e-12 * abs(inc_cost):
        cost, sol = inc_cost, incumbent
    complete = not search.timed_out
    lb = min(lb, cost)
    if complete:
        lb = cost
    return SearchResult(solution=sol, cost=float(cost), lower_bound=float(lb),
                        complete=complete, upper_bounds=bounds,
                        subproblems=search.subproblems, cache_hits=search.cache_hits,
                        depth_two_cuts=search.depth_two_cuts,
                        seconds=time.perf_counter() - start)


def tree_of_solution(prob: OptimalProblem, sol, *, n_categories=None, impurity=None,
                     metadata=None) -> Tree:
    """The :class:`~treebook.core.tree.Tree` of a solution, built with :class:`TreeBuilder`:
    a numeric split cuts at CART's midpoint between the largest value of the node's left
    rows and the smallest of its right rows; a subset split sends the node's left
    categories to branch 0, its other categories to branch 1, and a category absent at
    the node nowhere (a case with it stops there, as in CART). ``impurity(counts)`` is
    the node impurity stored (default: misclassification error)."""
    b = TreeBuilder(is_regression=False)
    K_ = prob.n_classes
    if impurity is None:
        def impurity(counts):
            tot = counts.sum()
            return float(1.0 - counts.max() / tot) if tot > 0 else 0.0

    def add(rows, parent, s):
        counts = np.bincount(prob.y[rows], weights=prob.w[rows], minlength=K_).astype(float)
        node = b.add_node(parent, counts, counts.sum(), rows.size, impurity(counts))
        if s is None:
            return
        c, r, left, right = s
        f, left_codes = prob.columns[c]
        go = prob.goes_left(rows, c, r)
        x = prob.X[rows, f]
        if left_codes is None:
            b.set_split(node, f, NodeKind.THRESHOLD,
                        float(midpoint_threshold(x[go].max(), x[~go].min())))
        else:
            L = (int(n_categories[f]) if n_categories is not None else left_codes.shape[0])
            codes = x.astype(np.int64)
            boc = np.full(L, -1, dtype=np.int64)
            boc[np.unique(codes[~go])] = 1
            boc[np.unique(codes[go])] = 0
            b.set_split(node, f, NodeKind.SUBSET, branch_of_code=boc)
        add(rows[go], node, left)
        add(rows[~go], node, right)

    add(np.arange(prob.y.shape[0]), -1, sol)
    return b.build(**(metadata or {}))
