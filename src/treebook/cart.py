"""CART (Breiman, Friedman, Olshen and Stone 1984): binary trees for classes and numbers.

Every split is binary. A numeric feature ``x`` is cut at the midpoint ``t`` of two
adjacent distinct values at the node (``x <= t`` goes left); a categorical feature splits
its categories into two subsets. The split chosen maximises the decrease of impurity: Gini
or entropy for classes, squared error (variance) for regression.

The numerics follow scikit-learn's ``DecisionTreeClassifier``/``Regressor``
:cite:p:`pedregosa2011`, so that on numeric data where no two candidate splits tie the two
packages grow the same tree:

* a cut lies between sorted neighbours ``v < v'`` only when ``v' > v + 1e-7``
  (scikit-learn's ``FEATURE_THRESHOLD``), at ``t = v/2 + v'/2`` (``v`` if that rounds up
  to ``v'``);
* both children must keep ``min_samples_leaf`` rows; a node with fewer than
  ``max(min_samples_split, 2·min_samples_leaf)`` rows, with impurity ``<= eps`` (machine
  epsilon) or at ``max_depth`` is a leaf;
* the weighted impurity improvement
  ``(|D|/|D_root|)·(I(D) - |D_1|/|D|·I(D_1) - |D_2|/|D|·I(D_2))`` plus ``eps`` must reach
  ``min_impurity_decrease``;
* rows with zero sample weight take no part.

**Ties.** scikit-learn visits features in a random order (``random_state``) and keeps
the first best split it meets, so when two splits score the same its choice depends on
the seed. Here the tree is deterministic: scores within a relative ``1e-12`` of each
other tie (two features that cut the same rows score the same up to rounding), and the
first feature in column order wins, then within a feature the smallest threshold.
``random_state`` is accepted so that code written for scikit-learn runs, and is used
only by ``max_features`` draws and by ``tie_break="random"``, which breaks ties by a
random order of the columns drawn once per tree (what the forests use).

**Categorical features** (pandas categorical/object/bool columns) split into two subsets
of the categories present at the node:

* two classes, or regression: the categories are sorted by the proportion of class 1
  (by the mean response) and only the ``L - 1`` cuts along that order are scanned; one of
  them is optimal (Breiman et al.; Fisher 1958 for regression; chapter 4 proves it), so
  the result is the best of all ``2^(L-1) - 1`` subsets;
* three or more classes: every subset is tried when at most 12 categories are present
  (at most 2047 partitions); above that, a heuristic — for each class ``k``, the cuts
  along the order of the proportion of class ``k`` — which is *not* guaranteed optimal;
* a category absent at the node gets no branch: a case with it stops at the node and
  receives the node's distribution (as does a category never seen in training).

**Growers.** Data without missing values grow with the fast level-wise grower
(``treebook.growers.levelwise.grow_levelwise``, compiled kernels; categorical columns through
the same subset search); the readable recursive grower (``treebook.growers.recursive.grow_tree``
with ``cart_split_finder``) builds the identical tree (tested); ``grower=`` chooses
explicitly; data with missing values grow level-wise too under ``missing="learn"`` (the
same tree as the recursive grower's, tested), recursively under ``missing="surrogate"``.

**Missing values** (NaN, None and ``pd.NA`` alike, ``treebook.core.encoding``):
``missing="learn"`` (the default) is scikit-learn's rule (1.9, ``_splitter.pyx``): every
cut is tried with the missing rows on the left and on the right, and the split of the
known rows from the missing ones (threshold +inf) is a candidate too; a node whose
training rows had no missing value sends one at prediction to the child with more
training rows (ties to the right). ``missing="surrogate"`` is Breiman et al.'s (ch. 5.3)
as rpart computes it (``bsplit.c``, ``surrogate.c``, ``choose_surg.c``, ``nodesplit.c``,
``pred_rpart.c``): a feature is scored on its known rows by the impurity decrease in
units of weight (so a feature with many missing values scores less), the node keeps up to
``max_surrogates`` surrogate splits (``surrogate_splits``), and a case missing the
primary feature (or with a category the node never saw) follows the first surrogate it
has, else the majority way: in training (``nodesplit.c``) the branch with more weight
among the rows whose primary is known, staying at the node on a tie; at prediction
(``pred_rpart.c``) the child with more training rows, staying on a tie. With
``max_surrogates=0`` rpart computes no surrogates and no training default, so such a case
*stays at the node* in training (the children's sizes add up to the known rows, as in
rpart's ``frame$n``); at prediction it still goes to the larger child, as rpart's
``predict`` sends it. ``missing="error"`` refuses missing values.

**Sparse input.** A ``scipy.sparse`` matrix (any format) is never densified: it grows
through ``treebook.growers.sparse.grow_sparse_cart``, which scans only the stored
entries and grows the tree the dense input grows (``grower`` is then not used;
``max_features`` and ``max_leaf_nodes`` as for dense X; ``missing="surrogate"`` is
refused, and so are NaN stored in the matrix, as scikit-learn 1.9 refuses them);
``predict``, ``apply`` and ``decision_path`` take sparse rows too.

**Pruning.** ``ccp_alpha > 0`` prunes the grown tree by minimal cost-complexity pruning
(:mod:`treebook.prune.cost_complexity`); ``ccp_risk`` chooses the risk ``R(t)``
(``"impurity"``: scikit-learn's; ``"misclassification"``: Breiman et al.'s and rpart's).
"""

from __future__ import annotations

import numpy as np

from .core.base import (AnyOf, DecisionTreeClassifierBase, DecisionTreeRegressorBase, Interval,
                        Options, RandomState, Registered, clone)
from .core.criteria import Criterion, criterion_names, get_criterion
from .core.feature_draw import draw_seed, resolve_max_features
from .growers.cart_search import MISSING_RULES, grow_cart, missing_rule_of_tree
from .growers.sparse import (check_sparse_X, grow_sparse_cart, is_sparse, sparse_apply,
                             sparse_decision_path)
from .prune.rpart import prune_rpart_cp

__all__ = ["CARTClassifier", "CARTRegressor", "CART_CONSTRAINTS", "dict_class_weights"]


# ------------------------------------------------------------------ one node, one feature


# ------------------------------------------------------------------ missing values


# ------------------------------------------------------------------ the naive scan


# ------------------------------------------------------------------ estimators
#: the parameter constraints CART and the forests built from it share
CART_CONSTRAINTS = {
    "max_depth": Interval(int, 0, None, allow_none=True),
    # an int is a count of rows, a float a fraction of the training rows (scikit-learn)
    "min_samples_split": AnyOf(Interval(int, 2, None),
                               Interval(float, 0.0, 1.0, closed="right", strict=True)),
    "min_samples_leaf": AnyOf(Interval(int, 1, None),
                              Interval(float, 0.0, 1.0, closed="neither", strict=True)),
    "min_impurity_decrease": Interval(float, 0.0, None),
    "ccp_alpha": Interval(float, 0.0, None),
    "ccp_risk": Registered(criterion_names, "impurity"),
    "grower": Options("auto", "levelwise", "recursive"),
    "random_state": RandomState(),
    "cp": Interval(float, 0.0, None, allow_none=True),
    "min_weight_fraction_leaf": Interval(float, 0.0, 0.5),
    "max_features": AnyOf(Options(None, "sqrt", "log2"), Interval(int, 1, None),
                          Interval(float, 0.0, 1.0, closed="right", strict=True)),
    "missing": Options(*MISSING_RULES),
    "max_surrogates": Interval(int, 0, None),
    "max_leaf_nodes": Interval(int, 2, None, allow_none=True),
    "tie_break": Options("column", "random"),
}

_MISSING_HINT = ("This estimator was built with missing='error'; use missing='learn' "
                 "(scikit-learn's rule) or missing='surrogate' (rpart's surrogate splits), "
                 "or impute the missing values first.")


def _grow_sparse(X, y, w, *, grower, categorical, n_categories, missing, max_surrogates,
                 **params):
    """``treebook.growers.sparse.grow_sparse_cart`` called as :func:`grow_cart` is."""
    return grow_sparse_cart(X, y, w, **params)


class _CARTMixin:
    _missing = "error"
    _missing_hint = _MISSING_HINT

    def _accepts_missing(self) -> bool:
        return self.missing != "error"

    def _validate_params(self):
        super()._validate_params()
        if self.missing == "surrogate" and self.grower == "levelwise":
            raise ValueError("missing='surrogate' needs grower='recursive' (or 'auto'): the "
                             "level-wise grower has no surrogate splits")

    def _grow_cart(self, X, y, w, n_classes, classes, *, min_impurity_decrease, ccp_alpha):
        """CART's tree of encoded ``(X, y, w)``; ``min_impurity_decrease`` and ``ccp_alpha``
        are passed in (a regressor's are in the units of its scaled responses), never read
        from the estimator."""
        from .prune.cost_complexity import prune_ccp

        categorical = self.encoder_.is_categorical
        grower = self.grower
        grow = grow_cart
        if is_sparse(X):  # the scan over nonzeros (treebook.growers.sparse)
            if self.missing == "surrogate":  # scikit-learn has no surrogates either
                raise ValueError("missing='surrogate' is not supported with sparse X; "
                                 "pass X.toarray()")
            grow, grower = _grow_sparse, "sparse"
        elif grower == "auto":
            # the one dispatch point: the level-wise grower has scikit-learn's rule for
            # missing values (missing="learn") but no surrogates, and grows level by
            # level, so rpart's surrogates, data with NaN under any other rule and
            # best-first growth (max_leaf_nodes) use the recursive grower
            grower = ("recursive" if self.missing == "surrogate"
                      or (self.missing != "learn" and np.isnan(X).any())
                      or self.max_leaf_nodes is not None
                      else "levelwise")
        metadata = self._metadata(classes)
        metadata.setdefault("extra", {}).update(algorithm="CART",
                                                criterion=get_criterion(self.criterion).name)
        random_ties = self.tie_break == "random"
        if random_ties and grower == "sparse":
            raise ValueError("tie_break='random' is not supported with sparse X (the sparse "
                             "scan breaks ties in column order); use tie_break='column'")
        seed = (draw_seed(self.random_state)
                if self.max_features is not None or random_ties else 0)
        extra = {}
        if random_ties:  # its own stream of the tree's seed: the feature draws stay as they are
            extra["feature_order"] = np.random.default_rng([seed, 1]).permutation(X.shape[1])
        tree = grow(
            X, y, w, n_classes=n_classes, criterion=self.criterion, categorical=categorical,
            n_categories=[0 if c is None else len(c) for c in self.encoder_.categories],
            max_depth=self.max_depth, **self._min_samples(X.shape[0]),
            max_features=resolve_max_features(self.max_features, X.shape[1]),
            seed=seed, min_weight_leaf=self.min_weight_fraction_leaf * float(np.sum(w)),
            min_impurity_decrease=min_impurity_decrease, grower=grower,
            metadata=metadata, missing=self.missing, max_surrogates=self.max_surrogates,
            max_leaf_nodes=self.max_leaf_nodes, **extra)
        tree = missing_rule_of_tree(tree, self.missing)
        if self.cp is not None:
            tree = prune_rpart_cp(tree, self.cp)
        self.full_tree_ = tree
        if ccp_alpha > 0:
            tree = prune_ccp(tree, ccp_alpha, risk=self.ccp_risk)
        return tree

    # ---------------------------------------------------------------- sparse input
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _encode_fit(self, X, sample_weight):
        if not is_sparse(X):
            return super()._encode_fit(X, sample_weight)
        from .core.encoding import FeatureEncoder
        from .core.targets import check_sample_weight

        Xs = check_sparse_X(X, format="csc" if getattr(X, "format", "") == "csc" else "csr")
        self.encoder_ = FeatureEncoder(tuple(f"x{j}" for j in range(Xs.shape[1])),
                                       (None,) * Xs.shape[1], False)
        if hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_features_in_ = Xs.shape[1]
        return Xs, check_sample_weight(sample_weight, Xs.shape[0])

    def _encode(self, X):
        if not is_sparse(X):
            return super()._encode(X)
        self._check_fitted()
        if self.encoder_.is_categorical.any() or self.encoder_.temporal:
            raise TypeError("X is a scipy.sparse matrix, but this model was fitted on "
                            "categorical or temporal columns, which a sparse matrix cannot "
                            "hold; pass the same kind of table as in fit")
        return check_sparse_X(X, n_features=self.n_features_in_)

    def _tree_apply(self, tree, Xe):
        return sparse_apply(tree, Xe) if is_sparse(Xe) else tree.apply(Xe)

    def _tree_distribution(self, tree, Xe, **kwargs):
        if not is_sparse(Xe):
            return tree.distribution(Xe, **kwargs)
        tables = tree.tables  # node_prediction(laplace), built once with the tree
        value = tables.node_value_laplace if kwargs.get("laplace") else tables.node_value
        return value[sparse_apply(tree, Xe)]

    def decision_path(self, X):
        """The nodes each row visits, as a ``scipy.sparse`` CSR indicator matrix (rows ×
        nodes); ``X`` may be sparse."""
        if is_sparse(X):
            return sparse_decision_path(self.tree_, self._encode(X))
        return super().decision_path(X)

    def _min_samples(self, n_rows: int) -> dict:
        """``min_samples_split`` and ``min_samples_leaf`` as row counts: a float is a
        fraction of the ``n_rows`` training rows, rounded up (``min_samples_split`` at
        least 2), as in scikit-learn."""
        split, leaf = self.min_samples_split, self.min_samples_leaf
        if isinstance(leaf, float):
            leaf = int(np.ceil(leaf * n_rows))
        if isinstance(split, float):
            split = max(2, int(np.ceil(split * n_rows)))
        return dict(min_samples_split=split, min_samples_leaf=leaf)

    @classmethod
    def like_rpart(cls, **params):
        """An estimator with rpart's defaults (``rpart.control()``): ``cp = 0.01``,
        ``minsplit = 20`` (``min_samples_split``), ``minbucket = 7``
        (``min_samples_leaf``), ``maxdepth = 30``, ``maxsurrogate = 5`` with
        ``usesurrogate = 2`` (``missing="surrogate", max_surrogates=5``); ``params``
        override them."""
        defaults = dict(cp=0.01, min_samples_split=20, min_samples_leaf=7, max_depth=30,
                        missing="surrogate", max_surrogates=5)
        defaults.update(params)
        return cls(**defaults)

    def cost_complexity_pruning_path(self, X, y, sample_weight=None, risk=None):
        """The weakest-link pruning path of the tree grown on ``(X, y)`` with
        ``ccp_alpha=0``: a :class:`~treebook.prune.cost_complexity.PruningPath` with
        ``ccp_alphas`` (increasing) and ``impurities`` (the total leaf risk ``R(T_α)`` of
        each subtree), like scikit-learn's. ``risk`` (default: ``ccp_risk``) is
        ``"impurity"`` (scikit-learn: ``R(t) = |D_t|/|D|·I(t)``) or
        ``"misclassification"`` (Breiman et al., rpart: ``R(t)`` = the weight ``t``
        misclassifies over ``|D|``)."""
        from .prune.cost_complexity import cost_complexity_path

        est = clone(self, ccp_alpha=0.0).fit(X, y, sample_weight=sample_weight)
        return cost_complexity_path(est.tree_, risk=risk or self.ccp_risk)


def dict_class_weights(class_weight, classes) -> np.ndarray:
    """The weight of each class in ``classes`` under a ``class_weight`` dict
    ``{class: weight}`` (scikit-learn's rule: a class the dict does not name keeps weight
    1); a ``TypeError``/``ValueError`` for anything else, a key that is not a class, or a
    weight that is not a finite number >= 0. Shared by CART and the forests."""
    if not isinstance(class_weight, dict):
        raise TypeError("class_weight must be None, 'balanced' or a dict; got "
                        f"{type(class_weight).__name__}")
    known = list(classes.tolist())
    unknown = [c for c in class_weight if c not in known]
    if unknown:
        raise ValueError(f"class_weight names classes not in y: {unknown!r}")
    out = np.ones(len(known))
    for c, wt in class_weight.items():
        if isinstance(wt, bool) or not isinstance(wt, (int, float, np.integer, np.floating)) \
                or not np.isfinite(wt) or wt < 0:
            raise ValueError(f"class_weight[{c!r}] must be a finite number >= 0; got {wt!r}")
        out[known.index(c)] = float(wt)
    return out


class CARTClassifier(_CARTMixin, DecisionTreeClassifierBase):
    """CART classification tree (Breiman et al. 1984) with scikit-learn's numerics.

    Parameters
    ----------
    criterion : ``"gini"`` (default), ``"entropy"`` (in bits), ``"misclassification"``, or
        any classification criterion registered in ``treebook.core.criteria.CRITERIA``
        (its name, or the criterion object).
    max_depth : int ≥ 0 or None
        nodes at this depth are leaves (the root has depth 0);
        ``max_depth=0`` is the root alone, one leaf (scikit-learn and rpart refuse 0).
    min_samples_split : int ≥ 2
        a node with fewer rows is a leaf.
    min_samples_leaf : int ≥ 1
        each child of a split keeps at least this many rows.
    min_impurity_decrease : float ≥ 0
        a split is made only if its weighted impurity
        improvement ``(|D|/|D_root|)·ΔI`` (plus machine epsilon) reaches this.
    ccp_alpha : float ≥ 0
        complexity parameter α of minimal cost-complexity pruning;
        0 means no pruning.
    max_features : None (every feature at every node), an int ``k``, a float fraction of
        the features, ``"sqrt"`` or ``"log2"`` — each node chooses its split among ``k``
        features drawn at random (``treebook.core.feature_draw``), as random forests need.
    random_state : None, an int or a numpy generator
        the seed of the ``max_features``
        draws (with ``max_features=None`` nothing is random: ties are broken by column
        order, so the tree is deterministic).
    ccp_risk : ``"impurity"`` (scikit-learn) or ``"misclassification"`` (Breiman, rpart) —
        the risk ``R(t)`` used by ``ccp_alpha`` and the pruning path.
    grower : ``"auto"`` (the level-wise grower), ``"levelwise"`` or ``"recursive"``.
    cp : float ≥ 0 or None
        rpart's complexity parameter: after growing, a node whose
        subtree lowers the risk (misclassified weight; squared error for regression) by
        no more than ``cp · R(root)`` per split is made a leaf, as rpart's
        ``partition.c`` decides (:func:`treebook.prune.rpart.rpart_complexity`).
        None (default): not applied. :meth:`like_rpart` sets rpart's defaults.
    min_weight_fraction_leaf : float in [0, 0.5]
        each child of a split keeps at least
        this fraction of the total training weight (scikit-learn's), and a node with less
        than twice that is a leaf.
    class_weight : None, ``"balanced"`` or a dict ``{class: weight}``
        each row's weight
        is multiplied by its class's weight (scikit-learn's ``class_weight``):
        ``"balanced"`` gives class ``k`` the weight ``n / (K · n_k)``, ``n_k`` counting the
        rows of class ``k``; a class missing from the dict keeps weight 1.
    missing : ``"learn"`` (default, scikit-learn's rule), ``"surrogate"`` (Breiman's and
        rpart's surrogate splits, ``usesurrogate = 2``) or ``"error"`` (missing values are
        refused) — how missing values (NaN, None, ``pd.NA``) are split and predicted; see
        the module docstring.
    max_surrogates : int ≥ 0 (default 5, rpart's ``maxsurrogate``)
        surrogate splits kept
        per node with ``missing="surrogate"``; 0, as in rpart, also means that a
        training case missing the primary feature stays at the node.
    max_leaf_nodes : int ≥ 2 or None
        grow best-first (scikit-learn's
        ``BestFirstTreeBuilder``): the leaf whose split improves the weighted impurity
        most is split next, until the tree has this many leaves
        (``treebook.growers.bestfirst``); the other stopping rules still apply. None: no
        limit (depth-first growth).
    tie_break : ``"column"`` (default) or ``"random"`` — which feature wins when the best
        cuts of several features score the same (within a relative ``1e-12``): the first
        in column order (deterministic), or the first in a random order of the columns
        drawn once per tree from ``random_state``. scikit-learn visits the features in a
        random order at every node; ``"random"`` is its rule with one order per tree, so
        that a forest of such trees prefers no column (the forests of
        :mod:`treebook.ensemble` use it). Not for sparse ``X`` (the sparse scan breaks
        ties in column order).

    Notes
    -----
    Attributes after ``fit`` (besides the shared ones: ``tree_``, ``classes_``, …):
    ``full_tree_``, the tree before ``ccp_alpha`` pruning (``tree_`` itself when
    ``ccp_alpha == 0``).

    See the module docstring for splits, ties, categorical subsets and missing values.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True, as_frame=True)
    >>> tree = CARTClassifier(max_depth=2).fit(X, y)
    >>> print(tree.export_text())
    root: n = 150 [0 50, 1 50, 2 50]
    |--- petal length (cm) <= 2.45: n = 50 [0 50, 1 0, 2 0] → 0
    |--- petal length (cm) > 2.45: n = 100 [0 0, 1 50, 2 50]
    |   |--- petal width (cm) <= 1.75: n = 54 [0 0, 1 49, 2 5] → 1
    |   |--- petal width (cm) > 1.75: n = 46 [0 0, 1 1, 2 45] → 2
    >>> tree.score(X, y)  # training accuracy
    0.96
    """

    _parameter_constraints = {
        "criterion": Registered(lambda: criterion_names(regression=False), objects=Criterion),
        **CART_CONSTRAINTS,
    }

    def __init__(self, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, ccp_alpha=0.0,
                 random_state=None, ccp_risk="impurity", grower="auto", cp=None,
                 class_weight=None, max_features=None, min_weight_fraction_leaf=0.0,
                 missing="learn", max_surrogates=5, max_leaf_nodes=None, tie_break="column"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.random_state = random_state
        self.ccp_risk = ccp_risk
        self.grower = grower
        self.cp = cp
        self.max_features = max_features
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.class_weight = class_weight
        self.missing = missing
        self.max_surrogates = max_surrogates
        self.max_leaf_nodes = max_leaf_nodes
        self.tie_break = tie_break

    def _class_weights(self, y) -> np.ndarray:
        """Weight of each class code under ``class_weight``."""
        K = self.n_classes_
        if self.class_weight is None:
            return np.ones(K)
        if isinstance(self.class_weight, str):
            if self.class_weight != "balanced":
                raise ValueError("class_weight must be None, 'balanced' or a dict; got "
                                 f"{self.class_weight!r}")
            counts = np.bincount(y, minlength=K).astype(float)
            return np.where(counts > 0, len(y) / (K * np.where(counts > 0, counts, 1)), 1.0)
        return dict_class_weights(self.class_weight, self.classes_)

    def _grow(self, X, y, w):
        if self.class_weight is not None:
            w = w * self._class_weights(y)[y]
        return self._grow_cart(X, y, w, self.n_classes_, self.classes_,
                               min_impurity_decrease=self.min_impurity_decrease,
                               ccp_alpha=self.ccp_alpha)


class CARTRegressor(_CARTMixin, DecisionTreeRegressorBase):
    """CART regression tree: least-squares splits, leaves predict the mean response.

    Parameters are those of :class:`CARTClassifier` (``tie_break`` included) with
    ``criterion="squared_error"``
    (the only choice): a split minimises ``Σ_{left}(y_i - ȳ_1)² + Σ_{right}(y_i - ȳ_2)²``
    (weighted). ``ccp_risk`` must be ``"impurity"`` (the squared error; there is no
    misclassification for numbers).
    """

    _parameter_constraints = {
        "criterion": Registered(lambda: criterion_names(regression=True), objects=Criterion),
        **CART_CONSTRAINTS,
    }

    def __init__(self, criterion="squared_error", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_impurity_decrease=0.0, ccp_alpha=0.0,
                 random_state=None, ccp_risk="impurity", grower="auto", cp=None,
                 max_features=None, min_weight_fraction_leaf=0.0, missing="learn",
                 max_surrogates=5, max_leaf_nodes=None, tie_break="column"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.random_state = random_state
        self.ccp_risk = ccp_risk
        self.grower = grower
        self.cp = cp
        self.max_features = max_features
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.missing = missing
        self.max_surrogates = max_surrogates
        self.max_leaf_nodes = max_leaf_nodes
        self.tie_break = tie_break

    def _validate_params(self):
        super()._validate_params()
        if self.ccp_risk != "impurity":
            raise ValueError("ccp_risk must be 'impurity' for a regression tree (there is "
                             f"no misclassification of numbers); got {self.ccp_risk!r}")

    def _grow(self, X, y, w, *, min_impurity_decrease, ccp_alpha):
        return self._grow_cart(X, y, w, 0, None, min_impurity_decrease=min_impurity_decrease,
                               ccp_alpha=ccp_alpha)

