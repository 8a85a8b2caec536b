"""MDI against permutation importance on UCI Adult, with irrelevant columns (chapter 7, §4).

For each repeat ``r`` (seed ``r``):

1. ``--n-train`` rows drawn at random from Adult's training split and ``--n-test`` from its
   test split (Adult without ``fnlwgt`` and ``education-num``; a ``?`` is the category
   ``missing``; categorical columns stay categorical, so CART splits them into subsets);
2. three irrelevant columns are added to both, drawn afresh: ``noise_u0`` (continuous,
   U(0, 1)), ``noise_cat2`` (two equally likely levels) and ``noise_cat100`` (100 levels);
3. a CART tree grown to purity and a random forest (``--trees`` trees, ``max_features=
   "sqrt"``) are fitted on the training rows;
4. each feature's MDI (``feature_importances_``, normalised to sum 1) and its permutation
   importance on the test rows (the mean drop of accuracy over ``--perm-repeats``
   shuffles of that column, scikit-learn's ``permutation_importance``) are recorded, and
   also the permutation importance on the training rows.

Usage::

    nice python benchmarks/experiments/importance.py                 # full configuration
    python benchmarks/experiments/importance.py --n-train 1000 --trees 10 --repeats 2 --out /tmp/imp.csv
    python benchmarks/experiments/importance.py --smoke --out /tmp/imp     # seconds

Writes ``benchmarks/experiments/results/importance.csv`` (the committed run was split over
processes with ``--first-repeat`` and ``--out importance_<k>.csv``; the chapter reads every
``importance*.csv``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forests_common import (RESULTS, adult, noise_columns, results_path, smoke,  # noqa: E402
                            write_csv)

FULL = dict(n_train=2000, n_test=2000, trees=25, repeats=8, perm_repeats=3)
SMOKE = dict(n_train=200, n_test=200, trees=3, repeats=1, perm_repeats=1)
NOISE = dict(continuous=1, levels={"noise_cat2": 2, "noise_cat100": 100})


def run(n_train: int, n_test: int, trees: int, repeats: int, perm_repeats: int,
        log=print, first_repeat: int = 0, checkpoint=None) -> pd.DataFrame:
    """Repeats ``first_repeat … first_repeat + repeats - 1`` (seed = repeat number);
    ``checkpoint(frame)`` is called with the rows so far after each repeat."""
    from sklearn.inspection import permutation_importance

    from treebook import CARTClassifier
    from treebook.ensemble import RandomForestClassifier

    X_all, y_all = adult("train")
    X_te_all, y_te_all = adult("test")
    rows = []
    for r in range(first_repeat, first_repeat + repeats):
        t0 = time.time()
        rng = np.random.default_rng(r)
        tr = rng.choice(len(y_all), n_train, replace=False)
        te = rng.choice(len(y_te_all), n_test, replace=False)
        X_tr = pd.concat([X_all.iloc[tr].reset_index(drop=True),
                          noise_columns(n_train, rng, **NOISE)], axis=1)
        X_te = pd.concat([X_te_all.iloc[te].reset_index(drop=True),
                          noise_columns(n_test, rng, **NOISE)], axis=1)
        y_tr, y_te = y_all[tr], y_te_all[te]
        models = {"tree": CARTClassifier(),
                  "forest": RandomForestClassifier(n_estimators=trees, random_state=r)}
        for name, model in models.items():
            model.fit(X_tr, y_tr)
            acc = model.score(X_te, y_te)
            perm = {}
            for where, (Xp, yp) in {"test": (X_te, y_te), "train": (X_tr, y_tr)}.items():
                perm[where] = permutation_importance(model, Xp, yp, n_repeats=perm_repeats,
                                                     random_state=r)
            for j, feature in enumerate(X_tr.columns):
                col = X_tr[feature]
                rows.append(dict(
                    repeat=r, model=name, feature=feature,
                    kind=("noise" if feature.startswith("noise") else "real"),
                    type=("categorical" if col.dtype == object else "numeric"),
                    levels=int(col.nunique()), mdi=model.feature_importances_[j],
                    perm_test=perm["test"].importances_mean[j],
                    perm_test_sd=perm["test"].importances_std[j],
                    perm_train=perm["train"].importances_mean[j],
                    test_accuracy=acc))
        log(f"repeat {r}: {time.time() - t0:.0f} s")
        if checkpoint is not None:
            checkpoint(pd.DataFrame(rows))
    return pd.DataFrame(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for k, v in FULL.items():
        p.add_argument("--" + k.replace("_", "-"), type=int, default=v)
    p.add_argument("--first-repeat", type=int, default=0,
                   help="number of the first repeat (to split a run over processes)")
    p.add_argument("--out", default=os.path.join(RESULTS, "importance.csv"),
                   help="CSV path, or a folder for importance.csv")
    p.add_argument("--smoke", action="store_true", help=f"the tiny configuration {SMOKE}")
    a = p.parse_args(argv)
    smoke(a, SMOKE)
    a.out = str(results_path(a.out, "importance.csv"))
    config = {k: getattr(a, k) for k in FULL}
    config["first_repeat"] = a.first_repeat
    frame = run(**config, checkpoint=lambda f: write_csv(f, a.out, {**config, "complete": False}))
    write_csv(frame, a.out, {**config, "complete": True})


if __name__ == "__main__":
    main()
