"""Honest experiments on real data: repeated cross-validation, nested tuning, thresholds.

Chapter 7 runs every comparison through the few functions here, so that the book shows
one short loop and the scripts in ``benchmarks/experiments/`` run exactly that loop:

* :func:`repeated_folds` — stratified ``k``-fold cross-validation repeated ``r`` times;
* :func:`mean_se` — the mean of ``J = r·k`` fold scores and its standard error,
  corrected for the overlap of the training sets (Nadeau and Bengio 2003;
  Bouckaert and Frank 2004): ``SE = sqrt((1/J + n_test/n_train) · s²)``, where ``s²`` is
  the variance of the fold scores. Applied to per-fold *differences* of two models on the
  same folds it gives the paired comparison;
* :func:`encode` — the encodings of categorical columns, always fitted on the training
  rows only (the target encoding cross-fitted, as scikit-learn's ``TargetEncoder`` does);
* :func:`cross_validate` — one row of scores per fold (accuracy, AUC, leaves, fit time);
* :func:`depth_scores` — a whole ``max_depth`` grid from one fit: the tree grown to the
  largest depth is cut with :meth:`treebook.core.tree.Tree.truncate`, which gives the same
  tree as refitting with the smaller ``max_depth`` (the growers choose a node's split
  without looking at the depth limit);
* :func:`grid_tuner`, :func:`alpha_tuner`, :func:`nested_cv` — tuning inside each outer
  training set, so the outer score of the tuned model is honest;
* :func:`best_f1_threshold` — a decision threshold read off the precision–recall curve;
* :func:`write_results` / :func:`read_results` — CSV files whose first lines record the
  command, the date, the git commit that produced them and the machine's load average;
  :func:`results_path` — where a script's ``--out`` (a ``.csv`` file or a folder) puts it.

Scores are computed with scikit-learn's metrics; the positive class of a binary problem
is the last of the model's ``classes_`` unless ``pos_label`` says otherwise.
"""

from __future__ import annotations

import datetime as _dt
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.base import clone

__all__ = ["Fold", "repeated_folds", "mean_se", "summarise", "fill_missing", "ENCODINGS",
           "encode", "naive_target_encoding", "scores", "cross_validate", "depth_scores",
           "grid_scores", "grid_tuner", "alpha_tuner", "nested_cv", "out_of_fold_proba",
           "best_f1_threshold", "threshold_scores", "write_results", "read_results",
           "results_path", "load_average"]


# ----------------------------------------------------------------------------- folds
@dataclass(frozen=True)
class Fold:
    """One split of repeated cross-validation: row indices into the data."""

    repeat: int
    fold: int
    train: np.ndarray
    test: np.ndarray


def repeated_folds(y, n_splits: int = 5, n_repeats: int = 3, random_state=0) -> list:
    """Stratified ``n_splits``-fold CV repeated ``n_repeats`` times (each repeat a new
    shuffle, seeded by ``random_state``): a list of :class:`Fold`."""
    from sklearn.model_selection import RepeatedStratifiedKFold

    for name, v, low in (("n_splits", n_splits, 2), ("n_repeats", n_repeats, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise ValueError(f"{name} must be an integer >= {low}; got {v!r}")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y.shape}")
    cv = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats,
                                 random_state=random_state)
    return [Fold(i // n_splits, i % n_splits, tr, te)
            for i, (tr, te) in enumerate(cv.split(np.zeros(len(y)), y))]


def mean_se(values, n_splits: int | None = None, *,
            test_train_ratio: float | None = None) -> tuple[float, float]:
    """Mean of fold scores and its standard error.

    With ``n_splits = k`` (the folds came from ``k``-fold CV, possibly repeated) the
    variance is corrected for overlapping training sets:
    ``SE = sqrt((1/J + 1/(k-1)) · s²)``, ``J`` scores, ``s²`` their sample variance
    (``n_test/n_train = 1/(k-1)``). With ``test_train_ratio = n_test/n_train`` instead
    (``J`` repeated random splits, each training on ``n_train`` cases and testing on
    ``n_test``: Nadeau and Bengio's corrected resampled variance),
    ``SE = sqrt((1/J + n_test/n_train) · s²)``. With neither, the naive ``s/√J``.
    An interval uses Student's t with ``J - 1`` degrees of freedom.
    """
    v = np.asarray(values, dtype=float)
    if v.ndim != 1 or v.size < 2:
        raise ValueError(f"values must be a 1-d array of at least 2 scores; got shape {v.shape}")
    var = v.var(ddof=1)
    if n_splits is not None and test_train_ratio is not None:
        raise TypeError("give at most one of n_splits and test_train_ratio")
    if test_train_ratio is not None:
        r = float(test_train_ratio)
        if not np.isfinite(r) or r <= 0:
            raise ValueError(f"test_train_ratio must be a positive number; got {test_train_ratio!r}")
        return float(v.mean()), float(np.sqrt((1 / v.size + r) * var))
    if n_splits is None:
        return float(v.mean()), float(np.sqrt(var / v.size))
    if isinstance(n_splits, bool) or not isinstance(n_splits, (int, np.integer)) or n_splits < 2:
        raise ValueError(f"n_splits must be an integer >= 2 or None; got {n_splits!r}")
    return float(v.mean()), float(np.sqrt((1 / v.size + 1 / (n_splits - 1)) * var))


def summarise(frame: pd.DataFrame, by, metrics, n_splits: int | None = None) -> pd.DataFrame:
    """Per group of ``by``, each metric's mean and (corrected) standard error, as columns
    ``<metric>`` and ``<metric>_se``."""
    rows = []
    for key, g in frame.groupby(by, sort=False):
        row = dict(zip([by] if isinstance(by, str) else by, key if isinstance(key, tuple) else (key,)))
        for m in metrics:
            row[m], row[m + "_se"] = mean_se(g[m].to_numpy(), n_splits)
        rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------- encodings
def _categorical_columns(X: pd.DataFrame) -> list:
    return [c for c in X.columns
            if X[c].dtype == object or isinstance(X[c].dtype, pd.CategoricalDtype)
            or pd.api.types.is_string_dtype(X[c].dtype)]


def _check_frame(X, name: str = "X") -> pd.DataFrame:
    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame; got {type(X).__name__}")
    return X


def fill_missing(X, label: str = "missing") -> pd.DataFrame:
    """A copy of ``X`` in which a missing value of a categorical column is the category
    ``label`` (a learner that refuses NaN then sees "unknown" as one more category)."""
    X = _check_frame(X).copy()
    for c in _categorical_columns(X):
        col = X[c].astype(object)
        X[c] = col.where(col.notna(), label)
    return X


def _integer_codes(X_train, X_test):
    A, B = fill_missing(X_train), fill_missing(X_test)
    for c in _categorical_columns(A):
        levels = sorted(A[c].unique())
        lookup = {v: i for i, v in enumerate(levels)}
        A[c] = A[c].map(lookup).astype(float)
        B[c] = B[c].map(lookup).fillna(-1).astype(float)  # unseen: a code of its own
    return A, B


def _one_hot(X_train, X_test):
    from sklearn.preprocessing import OneHotEncoder

    A, B = fill_missing(X_train), fill_missing(X_test)
    cats = _categorical_columns(A)
    enc = OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(A[cats])
    names = enc.get_feature_names_out(cats)
    num = [c for c in A.columns if c not in cats]
    return (pd.concat([A[num].astype(float), pd.DataFrame(enc.transform(A[cats]), index=A.index,
                                                          columns=names)], axis=1),
            pd.concat([B[num].astype(float), pd.DataFrame(enc.transform(B[cats]), index=B.index,
                                                          columns=names)], axis=1))


def _target(X_train, y_train, X_test, *, cross_fit: bool, random_state=0):
    from sklearn.model_selection import KFold, StratifiedKFold
    from sklearn.preprocessing import TargetEncoder
    from sklearn.utils.multiclass import type_of_target

    A, B = fill_missing(X_train), fill_missing(X_test)
    cats = _categorical_columns(A)
    y = np.asarray(y_train)
    split = KFold if type_of_target(y) == "continuous" else StratifiedKFold
    enc = TargetEncoder(cv=split(5, shuffle=True, random_state=random_state))
    coded_train = enc.fit_transform(A[cats], y) if cross_fit else enc.fit(A[cats], y).transform(A[cats])
    names = enc.get_feature_names_out(cats)
    A = A.drop(columns=cats).astype(float)
    B = B.drop(columns=cats).astype(float)
    A[list(names)] = coded_train
    B[list(names)] = enc.transform(fill_missing(X_test)[cats])
    return A, B


#: the encodings :func:`encode` knows, with what each does to a categorical column
ENCODINGS = {
    "raw": "unchanged, missing values kept (for C4.5, which routes them fractionally)",
    "category": "a missing value becomes the category 'missing' (CART's subset splits)",
    "integer": "categories numbered in alphabetical order (what LabelEncoder does)",
    "onehot": "one 0/1 column per category",
    "target": "the smoothed mean of y per category, cross-fitted on the training rows "
              "(scikit-learn's TargetEncoder.fit_transform)",
}


def encode(method: str, X_train, y_train, X_test, *, random_state=0):
    """``(A_train, A_test)``: the categorical columns of ``X_train`` and ``X_test``
    encoded by ``method`` (a key of :data:`ENCODINGS`), fitted on the training rows only.

    Numeric columns pass through. Missing categorical values are the category
    ``"missing"`` for every method but ``"raw"``.
    """
    _check_frame(X_train, "X_train")
    _check_frame(X_test, "X_test")
    if method not in ENCODINGS:
        raise ValueError(f"method must be one of {sorted(ENCODINGS)}; got {method!r}")
    if method == "raw":
        return X_train, X_test
    if method == "category":
        return fill_missing(X_train), fill_missing(X_test)
    if method == "integer":
        return _integer_codes(X_train, X_test)
    if method == "onehot":
        return _one_hot(X_train, X_test)
    return _target(X_train, y_train, X_test, cross_fit=True, random_state=random_state)


def naive_target_encoding(X, y, X_other=None, *, random_state=0):
    """The leaky target encoding: the per-category means of ``y`` computed on *all* of
    ``X`` and written back onto the same rows (no cross-fitting). Returns the encoded
    ``X`` (and ``X_other`` encoded with the same means, if given)."""
    A, B = _target(_check_frame(X), y, X if X_other is None else _check_frame(X_other, "X_other"),
                   cross_fit=False, random_state=random_state)
    return A if X_other is None else (A, B)


# --------------------------------------------------------------------------- scoring
def _positive_column(model, pos_label):
    classes = list(model.classes_)
    if pos_label is None:
        return len(classes) - 1
    if pos_label not in classes:
        raise ValueError(f"pos_label {pos_label!r} is not one of the classes {classes}")
    return classes.index(pos_label)


def scores(model, X, y, *, tree=None, pos_label=None) -> dict:
    """Accuracy, AUC (of the positive class) and number of leaves of a fitted model on
    ``(X, y)``; with ``tree=``, of that pruned or truncated version of ``model.tree_``."""
    from sklearn.metrics import roc_auc_score

    tree = model.tree_ if tree is None else tree
    proba = model.predict_proba_with(tree, X)
    y = np.asarray(y)
    k = _positive_column(model, pos_label)
    pred = model.classes_[np.argmax(proba, axis=1)]
    return {"accuracy": float(np.mean(pred == y)),
            "auc": float(roc_auc_score(y == model.classes_[k], proba[:, k])),
            "n_leaves": int(tree.n_leaves)}


def _rows(A, idx):
    return A.iloc[idx] if hasattr(A, "iloc") else np.asarray(A)[idx]


def cross_validate(model, X, y, folds, *, encoding: str | None = None, pos_label=None,
                   fit_params=None) -> pd.DataFrame:
    """Fit a clone of ``model`` on each fold's training rows and score it on its test
    rows: one row per fold (``repeat``, ``fold``, ``accuracy``, ``auc``, ``n_leaves``,
    ``fit_seconds``, ``encode_seconds``). With ``encoding``, the fold's rows are first
    encoded by :func:`encode`, fitted on its training rows."""
    y = np.asarray(y)
    out = []
    for f in folds:
        X_tr, X_te = _rows(X, f.train), _rows(X, f.test)
        t0 = time.perf_counter()
        if encoding is not None:
            X_tr, X_te = encode(encoding, X_tr, y[f.train], X_te)
        t1 = time.perf_counter()
        fitted = clone(model).fit(X_tr, y[f.train], **(fit_params or {}))
        t2 = time.perf_counter()
        out.append({"repeat": f.repeat, "fold": f.fold,
                    **scores(fitted, X_te, y[f.test], pos_label=pos_label),
                    "fit_seconds": t2 - t1, "encode_seconds": t1 - t0})
    return pd.DataFrame(out)


# --------------------------------------------------------------------------- tuning
def depth_scores(model, X_train, y_train, X_test, y_test, depths, *, pos_label=None) -> pd.DataFrame:
    """Scores of ``model`` for every ``max_depth`` in ``depths`` from a single fit: the
    tree is grown to ``max(depths)`` and cut with :meth:`~treebook.core.tree.Tree.truncate`.
    One row per depth (``max_depth``, ``accuracy``, ``auc``, ``n_leaves``)."""
    depths = sorted(set(int(d) for d in depths))
    if not depths or depths[0] < 1:
        raise ValueError(f"depths must be integers >= 1; got {depths!r}")
    fitted = clone(model, max_depth=depths[-1]).fit(X_train, y_train)
    return pd.DataFrame([{"max_depth": d, **scores(fitted, X_test, y_test,
                                                   tree=fitted.tree_.truncate(d),
                                                   pos_label=pos_label)}
                         for d in depths])


def grid_scores(model, X, y, depths, leaves, folds) -> pd.DataFrame:
    """Cross-validated scores over the grid ``max_depth ∈ depths`` ×
    ``min_samples_leaf ∈ leaves``: one fit per fold and leaf size (:func:`depth_scores`).
    One row per cell: ``max_depth``, ``min_samples_leaf``, the mean ``accuracy``,
    ``auc`` and ``n_leaves`` over the folds."""
    y = np.asarray(y)
    rows = []
    for f in folds:
        for leaf in leaves:
            t = depth_scores(clone(model, min_samples_leaf=int(leaf)), _rows(X, f.train),
                             y[f.train], _rows(X, f.test), y[f.test], depths)
            rows.append(t.assign(min_samples_leaf=int(leaf)))
    return (pd.concat(rows).groupby(["max_depth", "min_samples_leaf"], as_index=False)
            [["accuracy", "auc", "n_leaves"]].mean())


def grid_tuner(model, depths, leaves, *, n_splits: int = 3, random_state=0,
               metric: str = "accuracy"):
    """A tuner for :func:`nested_cv`: on the training rows it is given, ``n_splits``-fold
    CV over the grid (:func:`grid_scores`), then a refit at the best cell (ties: the
    first, i.e. the shallowest tree with the smallest leaves).
    Returns ``(fitted_model, {"max_depth": …, "min_samples_leaf": …}, grid_table)``."""

    def tune(X, y):
        grid = grid_scores(model, X, y, depths, leaves,
                           repeated_folds(y, n_splits, 1, random_state))
        best = grid.loc[grid[metric].idxmax()]
        params = {"max_depth": int(best["max_depth"]),
                  "min_samples_leaf": int(best["min_samples_leaf"])}
        return clone(model, **params).fit(X, y), params, grid

    return tune


def _errors_along_path(fitted, path, X, y) -> np.ndarray:
    """Number of rows of ``(X, y)`` misclassified by each subtree ``T_k`` of ``path``
    (a weakest-link path of ``fitted.tree_``), from one pass down the full tree.

    A row that ends in leaf ``l`` of the full tree ends, in ``T_k``, at the most rootward
    node of its path already collapsed by step ``k`` (or at ``l``). With ``s(a)`` the step
    that collapses node ``a`` (the row's own end node, a leaf or a node where an unseen
    category stops it: 0; never: ∞), node ``a`` of the path is where
    the row ends for ``s(a) ≤ k < min`` of ``s`` over ``a``'s strict ancestors."""
    tree = fitted.tree_
    K = len(path)
    step = np.full(tree.node_count, K, dtype=np.int64)  # K: never collapsed
    step[path.pruned[1:]] = np.arange(1, K)
    nodes = np.asarray(fitted.apply(X), dtype=np.int64)
    predicted = fitted.classes_[tree.predicted_class_index()]
    y = np.asarray(y)
    diff = np.zeros(K + 1)
    # walk up from the leaves; 'above' is the least step among the strict ancestors
    above = np.full(nodes.size, K, dtype=np.int64)
    chain = [nodes]
    cur = nodes
    while (cur >= 0).any():
        cur = np.where(cur >= 0, tree.parent[np.maximum(cur, 0)], -1)
        chain.append(cur)
    for c in range(len(chain) - 2, -1, -1):  # from the root's level down to the leaves
        a = chain[c]
        live = a >= 0
        s_a = np.zeros(a.size, np.int64) if c == 0 else step[np.maximum(a, 0)]
        ends = live & (s_a < above)
        w = (predicted[a[ends]] != y[ends]).astype(float)
        np.add.at(diff, s_a[ends], w)
        np.add.at(diff, above[ends], -w)
        above = np.where(live, np.minimum(above, s_a), above)
    return np.cumsum(diff)[:K]


def alpha_tuner(model, *, cv: int = 5, rule: str = "1se", random_state=0):
    """A tuner for :func:`nested_cv`: ``ccp_alpha`` chosen by ``cv``-fold CV on the
    training rows it is given, then a refit with that α.

    The procedure is that of :func:`treebook.prune.cost_complexity.select_alpha_cv`,
    with its candidates and its choice (candidate α:
    :func:`~treebook.prune.cost_complexity.alpha_candidates`, rpart's points of the
    intervals of the full tree's Breiman sequence, on the model's ``ccp_risk``; per fold,
    the fold tree's weakest-link path, computed once, gives the subtree for each
    candidate; :func:`~treebook.prune.cost_complexity.choose_alpha`: ``rule="1se"``, the
    largest α within one standard error of the least CV error, ``"min"``: the least
    error, ties to the largest α). Returns ``(fitted_model, {"ccp_alpha": …}, table)``.
    """
    from ..prune.cost_complexity import alpha_candidates, choose_alpha, cost_complexity_path

    if rule not in ("1se", "min"):
        raise ValueError(f"rule must be '1se' or 'min'; got {rule!r}")
    if isinstance(cv, bool) or not isinstance(cv, (int, np.integer)) or cv < 2:
        raise ValueError(f"cv must be an integer >= 2; got {cv!r}")

    def tune(X, y):
        y = np.asarray(y)
        base = clone(model, ccp_alpha=0.0)
        full = base.fit(X, y)
        risk = getattr(model, "ccp_risk", "impurity")
        _, _, betas = alpha_candidates(full.tree_, risk)
        n_wrong = np.zeros(betas.size)
        for f in repeated_folds(y, cv, 1, random_state):
            fold = clone(base).fit(_rows(X, f.train), y[f.train])
            path = cost_complexity_path(fold.tree_, risk)
            steps = np.searchsorted(path.ccp_alphas, betas, side="right") - 1
            n_wrong += _errors_along_path(fold, path, _rows(X, f.test), y[f.test])[steps]
        error = n_wrong / y.size
        se = np.sqrt(error * (1 - error) / y.size)  # sd of 0/1 losses over sqrt(n)
        _, chosen, _ = choose_alpha(error, se, rule)
        table = pd.DataFrame({"alpha": betas, "cv_error": error, "std_error": se})
        alpha = float(betas[chosen])
        return clone(model, ccp_alpha=alpha).fit(X, y), {"ccp_alpha": alpha}, table

    return tune


def nested_cv(tuners: dict, X, y, folds, *, pos_label=None) -> pd.DataFrame:
    """Nested cross-validation: for each outer fold, every tuner of ``tuners``
    (name → tuner, e.g. :func:`grid_tuner`) chooses its parameters using the fold's
    training rows only; the model it returns is scored on the fold's test rows. One row
    per outer fold and tuner, with the chosen parameters."""
    y = np.asarray(y)
    out = []
    for f in folds:
        for name, tune in tuners.items():
            t0 = time.perf_counter()
            fitted, params, _ = tune(_rows(X, f.train), y[f.train])
            out.append({"repeat": f.repeat, "fold": f.fold, "tuner": name, **params,
                        **scores(fitted, _rows(X, f.test), y[f.test], pos_label=pos_label),
                        "tune_seconds": time.perf_counter() - t0})
    return pd.DataFrame(out)


# -------------------------------------------------------------------- thresholds
def out_of_fold_proba(model, X, y, folds, *, pos_label=None) -> np.ndarray:
    """The positive-class probability of every row, predicted by a clone of ``model``
    fitted on the folds that do not contain it (``folds`` must cover each row once, as
    one repeat of :func:`repeated_folds` does)."""
    y = np.asarray(y)
    proba = np.full(len(y), np.nan)
    for f in folds:
        fitted = clone(model).fit(_rows(X, f.train), y[f.train])
        proba[f.test] = fitted.predict_proba(_rows(X, f.test))[:, _positive_column(fitted, pos_label)]
    if np.isnan(proba).any():
        raise ValueError("folds must cover every row: some rows were never in a test fold")
    return proba


def best_f1_threshold(y_true, score) -> tuple[float, float]:
    """``(threshold, F1)``: the point of the precision–recall curve of ``score`` against
    the 0/1 (or boolean) ``y_true`` with the largest ``F1 = 2PR/(P+R)``; predict positive
    when ``score >= threshold``."""
    from sklearn.metrics import precision_recall_curve

    y_true = np.asarray(y_true)
    if y_true.dtype != bool and not np.isin(y_true, (0, 1)).all():
        raise ValueError("y_true must be 0/1 or boolean")
    precision, recall, thresholds = precision_recall_curve(y_true.astype(int), np.asarray(score))
    p, r = precision[:-1], recall[:-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(p + r > 0, 2 * p * r / (p + r), 0.0)
    i = int(np.argmax(f1))
    return float(thresholds[i]), float(f1[i])


def threshold_scores(y_true, score, threshold: float) -> dict:
    """Scores of the rule "positive when ``score >= threshold``" against the 0/1 (or
    boolean) ``y_true``: ``accuracy``, ``balanced_accuracy`` (the mean of the recalls of
    the two classes), ``precision``, ``recall``, ``f1``, and the threshold-free ``auc``
    and ``average_precision`` (the area under the precision–recall curve, as
    scikit-learn computes it)."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    y = np.asarray(y_true)
    if y.dtype != bool and not np.isin(y, (0, 1)).all():
        raise ValueError("y_true must be 0/1 or boolean")
    y = y.astype(bool)
    score = np.asarray(score, dtype=float)
    pred = score >= threshold
    tp, fp = np.sum(pred & y), np.sum(pred & ~y)
    fn, tn = np.sum(~pred & y), np.sum(~pred & ~y)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {"accuracy": float((tp + tn) / y.size),
            "balanced_accuracy": float((recall + (tn / (tn + fp) if tn + fp else 0.0)) / 2),
            "precision": float(precision), "recall": float(recall),
            "f1": float(2 * precision * recall / (precision + recall)) if precision + recall else 0.0,
            "auc": float(roc_auc_score(y, score)),
            "average_precision": float(average_precision_score(y, score))}


# ---------------------------------------------------------------------- results files
def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages now, as ``"a b c"`` (the machine is shared:
    a time measured at a load of 8 on 2 cores is not a time measured on a quiet one);
    ``"unknown"`` where the platform has none."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - no load average on this platform
        return "unknown"


def results_path(out, name: str) -> Path:
    """The file a script writes: ``out`` itself when it ends in ``.csv``, otherwise
    ``out/name`` (``out`` a folder, created if missing). So ``--out DIR`` sends every
    file of a run (a smoke run, say) away from the committed ``results/`` folder."""
    out = Path(out)
    path = out if out.suffix == ".csv" else out / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def write_results(frame: pd.DataFrame, path, command: str, commit: str | None = None) -> None:
    """Write ``frame`` as CSV preceded by ``# command: …``, ``# date: …`` (UTC),
    ``# commit: …`` and ``# load average: …`` (when written) lines. ``commit``: the commit
    the run started from (a script that writes several files reads it once, so that one
    run records one commit); by default the one checked out now."""
    date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = _commit() if commit is None else commit
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"# command: {command}\n# date: {date}\n# commit: {commit}\n"
                 f"# load average: {load_average()} (when written)\n")
        frame.to_csv(fh, index=False)


def read_results(path) -> pd.DataFrame:
    """Read a file written by :func:`write_results`; the header lines go to ``attrs``."""
    meta, skip = {}, 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("# "):
                break
            key, _, value = line[2:].partition(":")
            meta[key.strip()] = value.strip()
            skip += 1
    frame = pd.read_csv(path, skiprows=skip)
    frame.attrs.update(meta)
    return frame
