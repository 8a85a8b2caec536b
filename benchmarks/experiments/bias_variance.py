"""Where a forest's gain comes from: Domingos's bias–variance decomposition of the 0-1
loss, the variance of an average of correlated trees, and the instability of one tree
(chapter 7, §5).

Three parts; each writes one CSV under ``benchmarks/experiments/results/``:

* ``bias_variance.csv`` — for each data set, ``--sets`` training sets of ``n_train`` rows
  are drawn (independently, without replacement within a set) from a pool, and every
  learner is fitted on each and predicts one fixed test set; the predictions go through
  :func:`treebook.teaching.bias_variance.bias_variance_01`. Data: ``adult`` (integer codes, pool
  = the training split, test = 2,000 rows of the test split, ``n_train`` 1,000),
  ``independent`` and ``independent_noise`` (the synthetic data of ``forest_vs_tree.py``,
  without and with 100 irrelevant columns; ``n_train`` 500, 2,000 test rows). Learners:
  ``tree_full``, ``tree_1se`` (CCP α by 5-fold CV on the training set, 1-SE rule),
  ``bagging`` and ``forest`` (``--trees`` trees).
* ``forest_variance.csv`` — from the same fits: for each test case the class-1
  probability ``p`` of every single tree of every bagging / forest fit gives the
  variance ``σ²`` of one tree's ``p`` (over training sets and bootstraps) and the
  correlation ``ρ`` of two trees grown on the same training set; the variance of the
  mean of the first ``B`` trees, measured over the training sets, is recorded for
  ``B = 1 … --trees`` beside ``ρσ² + (1 - ρ)σ²/B``. Means over the test cases.
* ``instability.csv`` — Adult with its categorical columns as categories (CART subset
  splits), one training sample of ``n_train`` rows (1,000 and 4,000), ``--boots``
  bootstrap samples of it; on each, a tree grown to purity and the same tree pruned at
  the α chosen by CV (1-SE) on the original sample. Per bootstrap tree: root feature,
  leaves, test accuracy, disagreement of its test predictions with the original
  sample's tree and, on average, with the other bootstrap trees.

Usage::

    nice python benchmarks/experiments/bias_variance.py            # full configuration
    python benchmarks/experiments/bias_variance.py --sets 5 --trees 10 --boots 10 --out-dir /tmp
    python benchmarks/experiments/bias_variance.py --smoke --out /tmp/bv       # seconds
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forests_common import RESULTS, adult, noise_columns, smoke, write_csv  # noqa: E402
from forest_vs_tree import _synthetic  # noqa: E402

FULL = dict(sets=15, trees=30, boots=40, datasets=("adult", "independent", "independent_noise"),
            instability_sizes=(1000, 4000))
#: ``--smoke``: adult (integer codes) and the synthetic data with noise columns, a few fits
SMOKE = dict(sets=2, trees=3, boots=3, datasets=["adult", "independent_noise"],
             instability_sizes=[200])
N_TRAIN = {"adult": 1000, "independent": 500, "independent_noise": 500}
N_TEST = 2000


def pools(name: str, rng):
    """``(X_pool, y_pool, X_test, y_test)`` for one data set (test rows fixed by ``rng``)."""
    if name == "adult":
        X, y = adult("train", codes=True)
        Xt, yt = adult("test", codes=True)
        te = rng.choice(len(yt), N_TEST, replace=False)
        return X.to_numpy(float), y, Xt.to_numpy(float)[te], yt[te]
    X, y = _synthetic(correlated=False)
    if name == "independent_noise":
        X = np.hstack([X, noise_columns(len(y), rng, continuous=100).to_numpy()])
    te = rng.choice(len(y), N_TEST, replace=False)
    rest = np.setdiff1d(np.arange(len(y)), te)
    return X[rest], y[rest], X[te], y[te]


def decompose(sets: int, trees: int, datasets, log=print):
    """The rows of ``bias_variance.csv`` and ``forest_variance.csv``."""
    from treebook import CARTClassifier
    from treebook.teaching.bias_variance import bias_variance_01
    from treebook.ensemble import RandomForestClassifier
    from treebook.prune import prune_ccp, select_alpha_cv

    bv_rows, var_rows = [], []
    for name in datasets:
        t0 = time.time()
        rng = np.random.default_rng(0)
        X, y, X_te, y_te = pools(name, rng)
        preds = {k: [] for k in ("tree_full", "tree_1se", "bagging", "forest")}
        tree_p = {"bagging": [], "forest": []}   # [set][tree, case]: class-1 probability
        for s in range(sets):
            tr = rng.choice(len(y), N_TRAIN[name], replace=False)
            X_tr, y_tr = X[tr], y[tr]
            full = CARTClassifier().fit(X_tr, y_tr)
            preds["tree_full"].append(full.predict(X_te))
            alpha = select_alpha_cv(CARTClassifier(), X_tr, y_tr, cv=5, random_state=s).alpha
            preds["tree_1se"].append(full.predict_with(prune_ccp(full.tree_, alpha), X_te))
            for learner, mf in (("bagging", None), ("forest", "sqrt")):
                f = RandomForestClassifier(n_estimators=trees, max_features=mf,
                                           random_state=s).fit(X_tr, y_tr)
                preds[learner].append(f.predict(X_te))
                tree_p[learner].append(np.stack([t.predict_proba(X_te)[:, 1]
                                                 for t in f.estimators_]))
        for learner, P in preds.items():
            d = bias_variance_01(np.stack(P), y_te)
            bv_rows.append(dict(dataset=name, learner=learner, n_train=N_TRAIN[name],
                                sets=sets, trees=trees, **d.as_dict()))
        for learner, P in tree_p.items():
            P = np.stack(P)                      # (sets, trees, cases)
            sigma2 = P.reshape(-1, P.shape[2]).var(axis=0, ddof=1)  # one tree, all sources
            within = P.var(axis=1, ddof=1).mean(axis=0)             # same training set
            rho = np.where(sigma2 > 0, 1 - within / np.where(sigma2 > 0, sigma2, 1), 0)
            for B in range(1, trees + 1):
                measured = P[:, :B].mean(axis=1).var(axis=0, ddof=1).mean()
                var_rows.append(dict(dataset=name, learner=learner, B=B,
                                     measured=measured, sigma2=sigma2.mean(),
                                     rho=float(np.sum(rho * sigma2) / np.sum(sigma2)),
                                     predicted=float(np.mean(rho * sigma2
                                                             + (1 - rho) * sigma2 / B))))
        log(f"decomposition {name}: {time.time() - t0:.0f} s")
    return pd.DataFrame(bv_rows), pd.DataFrame(var_rows)


def instability(boots: int, sizes, log=print) -> pd.DataFrame:
    """The rows of ``instability.csv``."""
    from treebook import CARTClassifier
    from treebook.prune import prune_ccp, select_alpha_cv

    X_all, y_all = adult("train")
    X_te_all, y_te_all = adult("test")
    rows = []
    for n in sizes:
        t0 = time.time()
        rng = np.random.default_rng(n)
        tr = rng.choice(len(y_all), n, replace=False)
        te = rng.choice(len(y_te_all), N_TEST, replace=False)
        X, y = X_all.iloc[tr].reset_index(drop=True), y_all[tr]
        X_te, y_te = X_te_all.iloc[te].reset_index(drop=True), y_te_all[te]
        alpha = select_alpha_cv(CARTClassifier(), X, y, cv=5, random_state=0).alpha
        base = CARTClassifier().fit(X, y)
        base_pred = {"full": base.predict(X_te),
                     "pruned": base.predict_with(prune_ccp(base.tree_, alpha), X_te)}
        fits = []
        for b in range(boots):
            idx = rng.integers(0, n, n)
            m = CARTClassifier().fit(X.iloc[idx], y[idx])
            for kind, tree in (("full", m.tree_), ("pruned", prune_ccp(m.tree_, alpha))):
                root = tree.feature[0]
                fits.append(dict(n_train=n, boot=b, tree=kind,
                                 root_feature=(m.feature_names_in_[root] if root >= 0 else "(leaf)"),
                                 leaves=tree.n_leaves, pred=m.predict_with(tree, X_te)))
        for kind in ("full", "pruned"):
            mine = [f for f in fits if f["tree"] == kind]
            P = np.stack([f["pred"] for f in mine])
            pair = (P[:, None, :] != P[None, :, :]).mean(axis=2)
            for i, f in enumerate(mine):
                rows.append(dict(n_train=n, boot=f["boot"], tree=kind, alpha=alpha,
                                 root_feature=f["root_feature"], leaves=f["leaves"],
                                 test_accuracy=float(np.mean(f["pred"] == y_te)),
                                 disagree_original=float(np.mean(f["pred"] != base_pred[kind])),
                                 disagree_pairwise=float(pair[i].sum() / (len(mine) - 1))))
        log(f"instability n={n}: {time.time() - t0:.0f} s")
    return pd.DataFrame(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sets", type=int, default=FULL["sets"])
    p.add_argument("--trees", type=int, default=FULL["trees"])
    p.add_argument("--boots", type=int, default=FULL["boots"])
    p.add_argument("--datasets", nargs="+", default=list(FULL["datasets"]))
    p.add_argument("--instability-sizes", type=int, nargs="+",
                   default=list(FULL["instability_sizes"]))
    p.add_argument("--parts", nargs="+", default=["instability", "decomposition"],
                   choices=["instability", "decomposition"], help="which parts to run")
    p.add_argument("--out-dir", "--out", dest="out_dir", default=RESULTS)
    p.add_argument("--smoke", action="store_true", help=f"the tiny configuration {SMOKE}")
    p.add_argument("--tag", default="", help="appended to the decomposition's file names "
                   "(to split a run by data set over processes; the chapter reads them all)")
    a = p.parse_args(argv)
    smoke(a, SMOKE)
    config = dict(sets=a.sets, trees=a.trees, boots=a.boots, datasets=a.datasets,
                  instability_sizes=a.instability_sizes)
    if "instability" in a.parts:
        inst = instability(a.boots, a.instability_sizes)
        write_csv(inst, os.path.join(a.out_dir, "instability.csv"), config)
    if "decomposition" in a.parts:
        bv, var = decompose(a.sets, a.trees, a.datasets)
        write_csv(bv, os.path.join(a.out_dir, f"bias_variance{a.tag}.csv"), config)
        write_csv(var, os.path.join(a.out_dir, f"forest_variance{a.tag}.csv"), config)


if __name__ == "__main__":
    main()
