"""ID3 (Quinlan 1986): multiway splits on discrete attributes chosen by information gain.

At each node ID3 computes, for every attribute ``A`` not yet used on the path, the
information gain ``g(D, A) = H(D) - H(D|A)`` (eq. :eq:`eq-info-gain`) of splitting ``D``
into one branch per value of ``A``, and splits on the attribute with the largest gain.

* Every column is treated as discrete: a numeric column becomes its set of values.
* Each attribute is used at most once on a path (its branches are pure in it).
* Only attributes with two or more values among the node's cases compete; with the
  default ``min_gain=0`` the best of them is split on even when its gain is 0 (XOR
  needs that), so an unpruned tree fits any consistent training table exactly.
* Ties between attributes go to the first in column order; a leaf predicts its
  majority class, ties to the class that sorts first in ``classes_``.
* A split has one branch per value present at the node. At prediction time a value
  with no branch there (never seen in training, or not at this node) stops the case at
  that node: it gets the node's class distribution (C4.5 labels a branch without
  cases with the most frequent class at its parent, the same prediction).
* Stopping: ``max_depth``, ``min_samples_split``, a pure node, no attribute left, or
  best gain below ``min_gain`` (Li Hang's ε).
* Missing values are not part of ID3: they raise an error that points to C4.5.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from .core import impurity as imp
from .core.base import DecisionTreeClassifierBase, Interval, Options
from .growers.recursive import grow_tree
from .growers.multiway import grow_multiway
from .core.splits import best_index, categorical_table, multiway_split

__all__ = ["ID3Classifier", "id3_split_finder"]


def _warn_if_memorizing(names, categories, n_rows: int) -> None:
    """Warn (``UserWarning``) when a numeric column has more distinct values than half
    the ``n_rows`` training rows: ID3 gives every value its own branch, so such a column
    (a measurement) separates the training cases by identity and the tree memorises
    them (breast cancer: training accuracy 1.0, 5-fold accuracy 0.63)."""
    many = [f"{name!r} ({len(c)} values)" for name, c in zip(names, categories)
            if 2 * len(c) > n_rows and all(isinstance(v, numbers.Real)
                                           and not isinstance(v, (bool, np.bool_))
                                           for v in c)]
    if many:
        warnings.warn(
            f"ID3 treats every column as discrete, and the numeric column(s) "
            f"{', '.join(many)} have more distinct values than half the {n_rows} rows: "
            "each value becomes a branch, so the tree memorises the training cases. Use "
            "C45Classifier or CARTClassifier, which cut numeric columns at thresholds "
            "(or bin the column first).", UserWarning, stacklevel=4)


def id3_split_finder(n_categories, n_classes):
    """The ID3 choice: the available attribute with the largest information gain.

    The returned ``find(X, y, w, rows, available)`` builds each available attribute's
    contingency table at the node and passes them to ``find.choose(candidates,
    class_counts, scores)``, the choice itself, which the level-wise grower
    (``treebook.growers.multiway.grow_multiway``) calls with the same tables (and their
    gains, ``find.score_tables`` of all nodes' tables at once)."""

    def choose(candidates, class_counts=None, scores=None):
        feats = [c[0] for c in candidates]
        tables = [c[1] for c in candidates]
        if scores is None:
            scores = [None] * len(tables)
        # only attributes that actually partition this node's cases can be chosen
        useful = [np.count_nonzero(t.sum(axis=1) > 0) >= 2 for t in tables]
        if not any(useful):
            return None
        gains = np.array([(imp.information_gain(t, check=False) if g is None else g)
                          if u else -np.inf for t, u, g in zip(tables, useful, scores)])
        j = best_index(gains)
        return multiway_split(int(feats[j]), tables[j], gains[j], gain=float(gains[j]))

    def find(X, y, w, rows, available):
        feats = np.flatnonzero(available)
        return choose([(int(f), categorical_table(X[rows, f], y[rows], w, n_categories[f],
                                                  n_classes)[0], None) for f in feats])

    find.choose = choose
    find.score_tables = lambda tables: imp.information_gain(tables, check=False)
    find.batchable = True
    return find


class ID3Classifier(DecisionTreeClassifierBase):
    """ID3 decision tree (Quinlan 1986): information gain, multiway splits.

    Parameters
    ----------
    max_depth : int ≥ 0 or None
        stop growing at this depth (root has depth 0);
        ``max_depth=0`` is the root alone, one leaf (scikit-learn and rpart refuse 0).
    min_samples_split : int ≥ 2
        a node with fewer cases (rows of positive weight) stays a leaf.
    min_gain : float ≥ 0
        a split whose gain (bits) is below this ε is not made.
    grower : ``"levelwise"`` (default) or ``"recursive"``
        ``"levelwise"`` grows all nodes of a depth at once
        (``treebook.growers.multiway.grow_multiway``); ``"recursive"`` is the readable
        ``treebook.growers.recursive.grow_tree``. Both build the identical tree (tested).

    Notes
    -----
    Tie rules, unseen values and missing values are described in the module docstring.
    ``fit(X, y, sample_weight=None)`` takes a DataFrame or a 2-D array of any labels;
    a case weight ``w`` counts as ``w`` identical cases.

    Attributes after ``fit``: ``tree_`` (the fitted :class:`treebook.core.tree.Tree`),
    ``classes_`` (the sorted class labels), ``feature_names_in_`` (the column names, when
    X is a DataFrame), ``n_leaves_`` and ``depth_``.

    Examples
    --------
    Mitchell's PlayTennis tree (Mitchell 1997, Figure 3.1):

    >>> from treebook.datasets import load_play_tennis
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> tree = ID3Classifier().fit(X, y)
    >>> print(tree.export_text())
    root: n = 14 [No 5, Yes 9]
    |--- Outlook = Overcast: n = 4 [No 0, Yes 4] → Yes
    |--- Outlook = Rain: n = 5 [No 2, Yes 3]
    |   |--- Wind = Strong: n = 2 [No 2, Yes 0] → No
    |   |--- Wind = Weak: n = 3 [No 0, Yes 3] → Yes
    |--- Outlook = Sunny: n = 5 [No 3, Yes 2]
    |   |--- Humidity = High: n = 3 [No 3, Yes 0] → No
    |   |--- Humidity = Normal: n = 2 [No 0, Yes 2] → Yes
    >>> tree.get_depth(), tree.get_n_leaves()
    (2, 5)
    """

    _parameter_constraints = {
        "max_depth": Interval(int, 0, None, allow_none=True),
        "min_samples_split": Interval(int, 2, None),
        "min_gain": Interval(float, 0.0, None),
        "grower": Options("levelwise", "recursive"),
    }
    _all_categorical = True
    _missing = "error"
    _missing_hint = ("ID3 has no rule for missing values; use C45Classifier, which sends "
                     "such cases down every branch with fractional weights.")

    def __init__(self, max_depth=None, min_samples_split=2, min_gain=0.0,
                 grower="levelwise"):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_gain = min_gain
        self.grower = grower

    def _grow(self, X, y, w):
        _warn_if_memorizing(self.encoder_.names, self.encoder_.categories, X.shape[0])
        n_categories = [len(c) for c in self.encoder_.categories]
        finder = id3_split_finder(n_categories, self.n_classes_)
        if self.grower == "levelwise":
            return grow_multiway(
                X, y, w, finder=finder, is_categorical=np.ones(X.shape[1], dtype=bool),
                n_categories=n_categories, n_classes=self.n_classes_,
                node_impurity=imp.entropy, max_depth=self.max_depth,
                min_samples_split=self.min_samples_split, min_gain=self.min_gain,
                metadata=self._metadata(self.classes_))
        return grow_tree(
            X, y, w,
            find_split=finder,
            n_classes=self.n_classes_,
            node_impurity=imp.entropy,
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_gain=self.min_gain,
            metadata=self._metadata(self.classes_),
        )
