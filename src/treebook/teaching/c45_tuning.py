"""Choosing C4.5's confidence factor by cross-validation on the training data.

The confidence factor CF is error-based pruning's one knob. It must be chosen without
looking at the test set: :func:`cross_validate_confidence` splits the *training* data
into folds (repeated, stratified), grows one tree on each fold's training part, prunes
it at every CF (growth does not depend on CF, so one fit per fold suffices, through
:meth:`treebook.c45.C45Classifier.pruned_tree`) and scores each pruned tree on the
fold's held-out part. The table it returns has one row per repeat, fold and CF, so that
differences between two CFs can be taken fold by fold (paired).
"""

from __future__ import annotations

import copy
from numbers import Integral

import numpy as np

__all__ = ["cross_validate_confidence", "DEFAULT_CONFIDENCES"]

#: The grid of confidence factors tried by default (C4.5 allows 0 < CF ≤ 0.5).
DEFAULT_CONFIDENCES = (0.01, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


def _rows(X, idx):
    return X.iloc[idx] if hasattr(X, "iloc") else np.asarray(X)[idx]


def cross_validate_confidence(estimator, X, y, *, confidences=DEFAULT_CONFIDENCES,
                              n_splits: int = 5, n_repeats: int = 2, random_state=0):
    """Held-out accuracy of a C4.5 estimator at each confidence factor, by repeated CV.

    Parameters
    ----------
    estimator : a :class:`~treebook.c45.C45Classifier` (its other parameters are kept;
        pruning is set to ``"ebp"``). It is not modified.
    X, y : the training data (never the test set).
    confidences : the confidence factors to compare, each in (0, 0.5].
    n_splits : folds per repeat (≥ 2); folds are stratified by class.
    n_repeats : how many times the folds are redrawn (≥ 1).
    random_state : seed of the fold assignment.

    Returns
    -------
    pandas.DataFrame with columns ``repeat``, ``fold``, ``confidence``, ``accuracy``
    (on the held-out part) and ``leaves`` (of the pruned tree): one row per repeat,
    fold and confidence factor.
    """
    import pandas as pd
    from sklearn.model_selection import RepeatedStratifiedKFold

    if not (hasattr(estimator, "pruned_tree") and hasattr(estimator, "get_params")):
        raise TypeError("estimator must be a C4.5 estimator (with pruned_tree); "
                        f"got {type(estimator).__name__}")
    for name, value, low in (("n_splits", n_splits, 2), ("n_repeats", n_repeats, 1)):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    try:
        cfs = [float(c) for c in confidences]
    except (TypeError, ValueError):
        raise TypeError(f"confidences must be numbers; got {confidences!r}") from None
    if not cfs:
        raise ValueError("confidences is empty")
    bad = [c for c in cfs if not 0.0 < c <= 0.5]
    if bad:
        raise ValueError(f"confidences must lie in (0, 0.5]; got {bad}")
    labels = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if labels.ndim != 1 or labels.shape[0] != len(X):
        raise ValueError(f"y must be one-dimensional with one label per row of X "
                         f"({len(X)}); got shape {labels.shape}")

    params = estimator.get_params()
    params["pruning"] = "ebp"
    folds = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats,
                                    random_state=random_state)
    records = []
    for k, (fit_idx, held_idx) in enumerate(folds.split(np.zeros(len(labels)), labels)):
        X_fit, y_fit = _rows(X, fit_idx), labels[fit_idx]
        X_held, y_held = _rows(X, held_idx), labels[held_idx]
        model = type(estimator)(**params).fit(X_fit, y_fit)
        for cf in cfs:
            pruned = copy.copy(model)
            pruned.tree_ = model.pruned_tree(X_fit, y_fit, confidence=cf)
            records.append(dict(repeat=k // n_splits, fold=k % n_splits, confidence=cf,
                                accuracy=pruned.score(X_held, y_held),
                                leaves=int(pruned.tree_.n_leaves)))
    return pd.DataFrame.from_records(records)
