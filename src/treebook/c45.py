"""C4.5 (Quinlan 1993, release 8), the learner: options → grower → collapse → pruning.

:class:`C45Classifier` grows with C4.5's split search (``treebook.growers.c45_search``,
which states every rule: gain and split information with unknowns, MDL-corrected
thresholds, the average-gain filter), by the fast grower (``treebook.growers.c45``) or
the readable recursion (``treebook.growers.recursive.grow_tree``); then collapses
subtrees that do not lower the training error (:func:`collapse`) and prunes, error-based
(:mod:`treebook.prune.error_based`, C4.5's default, with subtree raising) or pessimistic
(:mod:`treebook.prune.pessimistic`, Quinlan 1987). :func:`candidate_table` shows every
attribute's test at the root, for reading.
"""

from __future__ import annotations


import numpy as np

from .core import impurity as imp
from .core.base import DecisionTreeClassifierBase, Interval, Options, Registered, validate_params
from .core.encoding import FeatureEncoder
from .core.targets import check_sample_weight, encode_labels
from .core.splits import ROUTING_POLICIES, FractionalRouting
from .core.tree import Tree
from .growers.c45 import grow_c45
from .growers.c45_search import AVERAGE_GAIN_SLACK, C45Context, c45_split_finder, choose_candidate
from .growers.recursive import grow_tree
from .prune.error_based import CONFIDENCE, prune_error_based
from .prune.pessimistic import prune_pessimistic

__all__ = ["C45Classifier", "candidate_table", "collapse", "training_errors",
           "subtree_training_errors"]

#: C4.5's ``Epsilon`` in the collapse test: a subtree that lowers the training errors by
#: less than this becomes a leaf.
COLLAPSE_TOLERANCE = 1e-3


# ----------------------------------------------------------------------------- reading


@validate_params({"min_samples_leaf": Interval(int, 1, None),
                  "mdl_correction": Options(True, False)})
def candidate_table(X, y, sample_weight=None, *, min_samples_leaf: int = 2,
                    mdl_correction: bool = True):
    """Every attribute's C4.5 test at the root, as a table (for reading and teaching).

    ``X``, ``y``: training data as for :meth:`C45Classifier.fit`. Returns a
    :class:`pandas.DataFrame` indexed by feature name with the columns ``gain``,
    ``split_info``, ``gain_ratio``, ``raw_gain`` (numeric: before the MDL correction),
    ``mdl_penalty``, ``n_cuts``, ``threshold``, ``admissible`` (the test may be made at
    all), ``eligible`` (admissible, with gain at least the average) and ``chosen``; an
    attribute with no candidate test at all has NaN scores. The frame's
    ``attrs["average_gain"]`` holds the average gain of the filter.
    """
    import pandas as pd

    enc, Xe = FeatureEncoder.fit(X, allow_missing=True)
    w = check_sample_weight(sample_weight, Xe.shape[0])
    classes, yc = encode_labels(y, Xe.shape[0])
    cats = enc.categories
    ctx = C45Context.from_data(Xe, [c is not None for c in cats],
                               [0 if c is None else len(c) for c in cats], len(classes),
                               min_samples_leaf, mdl_correction)
    cands = ctx.evaluate(Xe, yc, w, np.arange(Xe.shape[0]), np.ones(Xe.shape[1], bool))
    best, average = choose_candidate(cands)
    rows = {}
    for name, c in zip(enc.names, cands):
        if c is None:
            rows[name] = dict(gain=np.nan, split_info=np.nan, gain_ratio=np.nan,
                              raw_gain=np.nan, mdl_penalty=np.nan, n_cuts=0,
                              threshold=np.nan, admissible=False, eligible=False,
                              chosen=False)
            continue
        rows[name] = dict(gain=c.gain, split_info=c.split_info, gain_ratio=c.gain_ratio,
                          raw_gain=c.raw_gain, mdl_penalty=c.penalty, n_cuts=c.n_cuts,
                          threshold=c.threshold, admissible=c.admissible,
                          eligible=bool(c.admissible and c.gain >= average - AVERAGE_GAIN_SLACK),
                          chosen=c is best)
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.attrs["average_gain"] = average
    return frame


# ----------------------------------------------------------------------------- collapse
def training_errors(tree: Tree) -> np.ndarray:
    """Per node, the training errors of it as a leaf: ``e(t) = |D_t| - max_k C_k``."""
    return tree.weighted_n - tree.value.max(axis=1)


def subtree_training_errors(tree: Tree) -> np.ndarray:
    """Per node, the summed training errors of the leaves below it, ``Σ_{l ≤ t} e(l)``."""
    err = np.where(tree.is_leaf, training_errors(tree), 0.0)
    out = err.copy()
    for i in range(tree.node_count - 1, 0, -1):   # reverse pre-order: children first
        out[tree.parent[i]] += out[i]
    return out


def collapse(tree: Tree, tol: float = COLLAPSE_TOLERANCE) -> Tree:
    """Replace each subtree that does not lower the training error by a leaf.

    C4.5 does this while growing (``build.c``: "see whether we would have been no worse
    off with a leaf") and J48 right after (``collapse()``): a node whose leaves make at
    least ``e(t) - tol`` training errors, ``e(t)`` being its own errors as a leaf,
    becomes a leaf. Checked top-down, so the largest such subtree goes.
    """
    if tree.is_regression:
        raise ValueError("collapse works on classification trees")
    mask = ~tree.is_leaf & (subtree_training_errors(tree) >= training_errors(tree) - tol)
    return tree.prune(mask) if mask.any() else tree


# ----------------------------------------------------------------------------- estimator
#: ``predict``'s routing for ``missing="distribute"``, by ``unseen``: unknown values go
#: down every branch either way
_PREDICT_ROUTING = {"node": FractionalRouting(unseen="stop"),
                    "fan": FractionalRouting(unseen="fan")}


class C45Classifier(DecisionTreeClassifierBase):
    """C4.5 decision tree (Quinlan 1993, release 8; as Weka's J48).

    Parameters
    ----------
    min_samples_leaf : int ≥ 1
        C4.5's ``-m`` / J48's ``-M``: a test is admissible only
        if at least two of its branches hold this much weight (numeric tests need
        ``clip(0.1·|D_k|/K, M, 25)`` on both sides); nodes of weight below ``2M`` stay
        leaves.
    pruning : ``"ebp"`` (error-based pruning, C4.5's), ``"pep"`` (pessimistic error
        pruning, Quinlan 1987) or None (grow only; subtrees that do not lower the
        training error are still collapsed, as in C4.5).
    confidence : float in (0, 0.5]
        the confidence factor CF of error-based pruning.
    mdl_correction : bool
        charge ``log2(N_cuts)/|D|`` bits for choosing a threshold.
    subtree_raising : bool
        error-based pruning may replace a subtree by its largest
        branch.
    max_depth : int ≥ 0 or None
        an extra stopping rule (not in C4.5): nodes at this depth are leaves;
        ``max_depth=0`` is the root alone, one leaf (scikit-learn and rpart refuse 0).
    z_source : ``"normal"`` or ``"table"``
        where error-based pruning takes ``z`` from:
        the exact normal quantile (J48) or C4.5's interpolated table (release 8; this
        reproduces the numbers of Quinlan's book). See
        :func:`treebook.prune.error_based.confidence_z`.
    missing : the routing policy for unknown values, in fit, pruning and predict: a name
        in ``treebook.core.splits.ROUTING_POLICIES`` (default ``"distribute"``, C4.5's
        fractional cases).
    unseen : ``"node"`` (default) or ``"fan"``
        where ``predict`` sends a case whose category has no branch at a node (absent
        from that node's training cases, or from all of them) when ``missing`` is
        ``"distribute"``. ``"node"`` is J48's rule: the case stops there and gets the
        node's class distribution (J48 keeps an empty branch for the value, and an empty
        branch answers with its parent's distribution; C4.5 release 8 labels it with the
        parent's majority class). ``"fan"`` spreads the case over the node's branches
        like an unknown value. Growing and pruning never meet such a case.
    laplace : bool
        J48's ``-A``: a leaf's class probabilities are the Laplace estimates
        ``(C_k + 1)/(|D| + K)`` instead of the frequencies ``C_k/|D|``. The tree is the
        same; ``predict_proba`` (and, with fractional cases, ``predict``) change.
    binary_splits : bool
        J48's ``-B``: a categorical attribute is tested one value
        against the rest (``binary_categorical_candidate``) instead of multiway.
    collapse : bool
        J48's collapsing of subtrees that do not lower the training error
        (:func:`collapse`, done by C4.5 while growing); ``False`` is J48's ``-O``.
    grower : ``"fast"`` (default: each numeric column sorted once, compiled scans,
        ``treebook.growers.c45.grow_c45``) or ``"readable"`` (the textbook recursion,
        ``treebook.growers.recursive.grow_tree`` with ``c45_split_finder``, the tested
        definition). Both grow the same tree.
    """

    _parameter_constraints = {
        "min_samples_leaf": Interval(int, 1, None),
        "pruning": Options("ebp", "pep", None),
        "confidence": CONFIDENCE,
        "mdl_correction": Options(True, False),
        "subtree_raising": Options(True, False),
        "max_depth": Interval(int, 0, None, allow_none=True),
        "z_source": Options("normal", "table"),
        "missing": Registered(lambda: tuple(ROUTING_POLICIES)),
        "unseen": Options("node", "fan"),
        "laplace": Options(True, False),
        "binary_splits": Options(True, False),
        "collapse": Options(True, False),
        "grower": Options("fast", "readable"),
    }
    _all_categorical = False
    _missing = "distribute"
    _weight_units = "cases"  # J48: minimum cases and pruning count weights as cases

    def __init__(self, min_samples_leaf=2, pruning="ebp", confidence=0.25,
                 mdl_correction=True, subtree_raising=True, max_depth=None,
                 z_source="normal", missing="distribute", laplace=False, binary_splits=False,
                 collapse=True, grower="fast", unseen="node"):
        self.min_samples_leaf = min_samples_leaf
        self.pruning = pruning
        self.confidence = confidence
        self.mdl_correction = mdl_correction
        self.subtree_raising = subtree_raising
        self.max_depth = max_depth
        self.z_source = z_source
        self.missing = missing
        self.laplace = laplace
        self.binary_splits = binary_splits
        self.collapse = collapse
        self.grower = grower
        self.unseen = unseen

    @property
    def _route_missing(self):
        if isinstance(self.missing, str) and self.missing == "distribute":
            return _PREDICT_ROUTING[self.unseen]
        return self.missing

    @property
    def _laplace(self):
        return self.laplace

    def _grow_unpruned(self, X, y, w) -> Tree:
        cats = self.encoder_.categories
        categorical = [c is not None for c in cats]
        n_categories = [0 if c is None else len(c) for c in cats]
        if self.grower == "fast":
            ctx = C45Context.from_data(X, categorical, n_categories, self.n_classes_,
                                       self.min_samples_leaf, self.mdl_correction,
                                       self.binary_splits)
            tree = grow_c45(X, y, w, ctx=ctx, node_impurity=imp.entropy,
                            max_depth=self.max_depth, missing=self.missing,
                            metadata=self._metadata(self.classes_))
        else:
            finder = c45_split_finder(
                X, categorical, n_categories, self.n_classes_,
                min_samples_leaf=self.min_samples_leaf, mdl_correction=self.mdl_correction,
                binary_splits=self.binary_splits)
            tree = grow_tree(X, y, w, find_split=finder, n_classes=self.n_classes_,
                             node_impurity=imp.entropy, max_depth=self.max_depth,
                             min_samples_split=2, min_gain=0.0, missing=self.missing,
                             metadata=self._metadata(self.classes_))
        return collapse(tree) if self.collapse else tree

    def _grow(self, X, y, w):
        tree = self._grow_unpruned(X, y, w)
        # kept so that pruning can be redone (a CF slider) without regrowing
        self.unpruned_tree_ = tree
        return self._prune(tree, X, y, w)

    def pruned_tree(self, X, y, sample_weight=None, *, confidence=None) -> Tree:
        """The tree this estimator's pruning gives at another confidence factor.

        ``X``, ``y`` (and ``sample_weight``) must be the training data passed to
        :meth:`fit`: the stored ``unpruned_tree_`` is pruned again (for a CF slider),
        without regrowing. ``confidence`` defaults to the estimator's.
        """
        self._check_fitted()
        Xe = self._encode(X)
        lookup = {c: k for k, c in enumerate(self.classes_.tolist())}
        labels = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
        try:
            yc = np.fromiter((lookup[v] for v in labels.tolist()), np.int64, count=len(labels))
        except KeyError as exc:
            raise ValueError(f"y holds a label {exc.args[0]!r} not seen in fit") from None
        w = check_sample_weight(sample_weight, Xe.shape[0])
        return self._prune(self.unpruned_tree_, Xe, yc, w, confidence)

    def to_rules(self, **kwargs):
        """IF-THEN rules (:func:`treebook.io.render.to_rules`); by default each condition also
        shows the weight an unknown value carries into its branch (``show_missing``)."""
        kwargs.setdefault("show_missing", True)
        kwargs.setdefault("missing", self.missing)
        return super().to_rules(**kwargs)

    def _prune(self, tree, X, y, w, confidence=None):
        if self.pruning == "ebp":
            return prune_error_based(
                tree, X, y, w, confidence=self.confidence if confidence is None else confidence,
                subtree_raising=self.subtree_raising, z_source=self.z_source,
                missing=self.missing)
        if self.pruning == "pep":
            return prune_pessimistic(tree)
        return tree
