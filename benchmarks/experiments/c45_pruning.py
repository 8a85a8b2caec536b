"""C4.5's pruning knobs measured: the confidence factor by cross-validation, tree size
against the number of training cases, and what Quinlan's (1996) MDL charge buys.
Chapter 3 reads the three CSVs this script writes.

``c45_confidence_cv.csv``
    The credit data (``load_credit``) split once 70/30 (stratified, seed 0, as in the
    chapter); on the training part, repeated stratified 5-fold CV
    (``RepeatedStratifiedKFold(random_state=0)``, so the first repeats of a longer run are
    those of a shorter one): each fold's tree is grown once and pruned at every CF of
    ``DEFAULT_CONFIDENCES`` (``cross_validate_confidence``). One row per repeat, fold, CF.
``c45_size_n.csv``
    Tree size against n (Oates & Jensen 1997): for each n of :data:`SIZES`, ``repeats``
    stratified subsamples of the same training part (seed = repeat), each grown once and
    pruned at CF 0.05 and 0.25; leaves and accuracy on the fixed test part. The whole
    training part is one tree (one repeat).
``c45_mdl.csv``
    ``mdl_correction`` on and off on the 15 ARFF sets of ``tests/oracles/test_j48.py``
    (read as Weka reads them, by ``tests/oracles/weka.py``: Weka must be installed), by
    stratified 10-fold CV (seed 0; a set whose largest class has fewer than 10 cases, the
    two weather sets, gets as many folds as that class has cases), J48's other defaults: one row per data set, fold and setting,
    with held-out accuracy and the leaves of the fold's tree.

Usage::

    nice python benchmarks/experiments/c45_pruning.py              # the committed run
    nice python benchmarks/experiments/c45_pruning.py --only mdl   # one of the three files
    python benchmarks/experiments/c45_pruning.py --smoke --out /tmp/c45p   # seconds

Each file starts with ``#`` lines: the command, date, commit and load average.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold, train_test_split

from treebook import C45Classifier
from treebook.datasets import load_credit
from treebook.teaching.c45_tuning import DEFAULT_CONFIDENCES, cross_validate_confidence
from treebook.teaching.experiments import results_path, write_results

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "experiments" / "results"
FILES = {"confidence": "c45_confidence_cv.csv", "size": "c45_size_n.csv",
         "mdl": "c45_mdl.csv"}
#: training-set sizes of the size-against-n run (the last is the whole training part)
SIZES = (250, 500, 1000, 2000, None)
#: the 15 ARFF sets of the J48 oracle
DATASETS = ["breast-cancer", "contact-lenses", "credit-g", "diabetes", "glass", "ionosphere",
            "iris", "iris.2D", "labor", "segment-challenge", "soybean", "unbalanced", "vote",
            "weather.nominal", "weather.numeric"]
FULL = dict(confidence=dict(n_repeats=3, n_rows=None, confidences=DEFAULT_CONFIDENCES),
            size=dict(sizes=SIZES, repeats=5, n_rows=None),
            mdl=dict(datasets=DATASETS, folds=10))
#: ``--smoke``: a few hundred credit rows, two CFs, two small ARFF sets
SMOKE = dict(confidence=dict(n_repeats=1, n_rows=400, confidences=(0.05, 0.25)),
             size=dict(sizes=(100, None), repeats=1, n_rows=400),
             mdl=dict(datasets=["weather.nominal", "iris"], folds=2))


def credit_split(n_rows=None):
    """The chapter's split of the credit data: 70 % training, 30 % test, stratified, seed 0
    (``n_rows``: only the first rows, for a smoke run)."""
    X, y = load_credit(return_X_y=True)
    if n_rows is not None:
        X, y = X.iloc[:n_rows], y.iloc[:n_rows]
    return train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


def confidence_cv(n_repeats=5, n_rows=None, confidences=DEFAULT_CONFIDENCES) -> pd.DataFrame:
    """Repeated 5-fold CV of the confidence factor on the credit training part."""
    X_tr, _, y_tr, _ = credit_split(n_rows)
    return cross_validate_confidence(C45Classifier(), X_tr, y_tr, confidences=confidences,
                                     n_splits=5, n_repeats=n_repeats, random_state=0)


def size_against_n(sizes=SIZES, repeats=5, n_rows=None) -> pd.DataFrame:
    """Leaves and test accuracy of C4.5 at CF 0.05 and 0.25 (and unpruned) against n."""
    X_tr, X_te, y_tr, y_te = credit_split(n_rows)
    rows = []
    for n in sizes:
        n_use = len(X_tr) if n is None else n
        # the whole training part is one tree, whatever the seed: one row
        for r in range(repeats if n_use < len(X_tr) else 1):
            if n_use < len(X_tr):
                idx, _ = train_test_split(np.arange(len(X_tr)), train_size=n_use,
                                          random_state=r, stratify=y_tr)
                idx = np.sort(idx)
            else:
                idx = np.arange(len(X_tr))
            X_fit, y_fit = X_tr.iloc[idx], y_tr.iloc[idx]
            model = C45Classifier().fit(X_fit, y_fit)
            unpruned = model.unpruned_tree_
            rows.append(dict(n=n_use, repeat=r, confidence="none", leaves=unpruned.n_leaves,
                             accuracy=_score(model, unpruned, X_te, y_te)))
            for cf in (0.05, 0.25):
                tree = model.pruned_tree(X_fit, y_fit, confidence=cf)
                rows.append(dict(n=n_use, repeat=r, confidence=str(cf),
                                 leaves=tree.n_leaves,
                                 accuracy=_score(model, tree, X_te, y_te)))
    return pd.DataFrame(rows)


def _score(model, tree, X, y) -> float:
    import copy

    m = copy.copy(model)
    m.tree_ = tree
    return float(m.score(X, y))


def mdl_on_off(datasets=DATASETS, folds=10) -> pd.DataFrame:
    """Held-out accuracy and leaves with and without the MDL charge, paired by fold."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("weka_oracle", ROOT / "tests/oracles/weka.py")
    weka = sys.modules["weka_oracle"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(weka)
    EXAMPLES, WEKA_JAR, read_arff = weka.EXAMPLES, weka.WEKA_JAR, weka.read_arff
    if not WEKA_JAR.exists():
        raise SystemExit(f"the ARFF sets are Weka's: install Debian's weka ({WEKA_JAR})")
    build = ROOT / "_build" / "oracles"
    rows = []
    for name in datasets:
        X, y, _ = read_arff(EXAMPLES / f"{name}.arff", build)
        y = np.asarray(y.astype(str))
        # weather's 14 days have no class of 10: as many folds as its largest class
        k = min(folds, int(np.unique(y, return_counts=True)[1].max()))
        split = StratifiedKFold(n_splits=k, shuffle=True, random_state=0)
        with warnings.catch_warnings():  # classes smaller than the number of folds
            warnings.simplefilter("ignore", UserWarning)
            pairs = list(split.split(np.zeros(len(y)), y))
        for f, (fit, held) in enumerate(pairs):
            for mdl in (True, False):
                model = C45Classifier(mdl_correction=mdl).fit(X.iloc[fit], y[fit])
                rows.append(dict(dataset=name, n=len(y), folds=k, fold=f, mdl_correction=mdl,
                                 accuracy=float(model.score(X.iloc[held], y[held])),
                                 leaves=int(model.tree_.n_leaves)))
    return pd.DataFrame(rows)


RUNS = {"confidence": confidence_cv, "size": size_against_n, "mdl": mdl_on_off}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=RESULTS,
                    help="folder for the CSVs (default: the committed results/)")
    ap.add_argument("--only", choices=sorted(RUNS), action="append",
                    help="run only this part (repeatable)")
    ap.add_argument("--smoke", action="store_true", help=f"the tiny configuration {SMOKE}")
    args = ap.parse_args(argv)
    config = SMOKE if args.smoke else FULL
    command = "python benchmarks/experiments/c45_pruning.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    for part in args.only or RUNS:
        table = RUNS[part](**config[part])
        write_results(table, results_path(args.out, FILES[part]), command.strip())


if __name__ == "__main__":
    main()
