"""A tree or a forest? Test accuracy as irrelevant columns are added and as n shrinks
(chapter 7, §5).

Four data sets, all numeric (so every learner uses the fast level-wise grower):

* ``adult``: UCI Adult, categorical columns as integer codes (``?`` a code of its own),
  without ``fnlwgt`` and ``education-num``; training rows from the training split, the
  test rows from the test split;
* ``breast_cancer``: Wisconsin diagnostic, 569 cases, 30 strongly correlated features;
  the test rows are those not drawn for training;
* ``independent``: ``make_classification`` — 5 informative features (Gaussian clusters
  at hypercube corners, mixed within each cluster by a random linear map, so not
  independent; no column repeats another), 5 % of labels flipped, one population of
  20,000 rows (seed 0);
* ``correlated``: the same 5 latent features, each observed through 6 noisy copies
  (``x = z + 0.3·ε``, correlation about 0.95 within a group): 30 features in 5 groups.

Two experiments, each repeated ``--repeats`` times (seed = repeat):

* ``noise``: ``n_train`` rows (adult 500, breast_cancer 300, synthetic 500) plus ``p``
  irrelevant U(0, 1) columns, ``p`` in ``--noise``;
* ``n``: no added columns, ``n_train`` in ``--sizes`` (those the data set can afford).

Learners, fitted on the training rows only: ``tree_full`` (CART grown to purity);
``tree_cv`` and ``tree_1se`` (the same tree pruned at the ``ccp_alpha`` chosen by 5-fold
CV on the training rows, least CV error or the 1-SE rule:
:func:`treebook.prune.select_alpha_cv`); ``bagging`` and ``forest`` (``--trees`` CART
trees on bootstrap samples, every feature or ``√m`` per node).

``--learners`` fits only some of them: every run draws the same rows for a setting and
repeat, so the ensembles and the trees can be re-run apart and still pair row by row.

Usage::

    nice python benchmarks/experiments/forest_vs_tree.py          # full configuration
    python benchmarks/experiments/forest_vs_tree.py --repeats 1 --trees 10 --out /tmp/fvt.csv
    python benchmarks/experiments/forest_vs_tree.py --smoke --out /tmp/fvt      # seconds

Writes ``benchmarks/experiments/results/forest_vs_tree.csv`` (``--out``: the committed run
is split by data set over several processes, ``forest_vs_tree_<name>.csv``; the chapter
reads every ``forest_vs_tree*.csv``).
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

FULL = dict(repeats=5, trees=25, noise=(0, 10, 100, 300), sizes=(50, 100, 200, 400),
            datasets=("adult", "breast_cancer", "independent", "correlated"))
#: ``--smoke``: both kinds of test rows (adult's test split, breast cancer's rest), both
#: experiments, three trees
SMOKE = dict(repeats=1, trees=3, noise=[0, 10], sizes=[50], datasets=["adult", "breast_cancer"])
N_NOISE = {"adult": 500, "breast_cancer": 300, "independent": 500, "correlated": 500}
N_TEST = 3000


def _synthetic(correlated: bool):
    from sklearn.datasets import make_classification

    Z, y = make_classification(n_samples=20000, n_features=5, n_informative=5,
                               n_redundant=0, n_repeated=0, flip_y=0.05, class_sep=0.8,
                               random_state=0)
    if not correlated:
        return Z, y
    rng = np.random.default_rng(0)
    X = np.repeat(Z, 6, axis=1) + 0.3 * rng.standard_normal((Z.shape[0], 30))
    return X, y


def load(name: str):
    """``(X_pool, y_pool, X_test, y_test)``; ``X_test`` is None when the test rows are
    the pool's rows not drawn for training."""
    if name == "adult":
        X, y = adult("train", codes=True)
        Xt, yt = adult("test", codes=True)
        return X.to_numpy(float), y, Xt.to_numpy(float), yt
    if name == "breast_cancer":
        from sklearn.datasets import load_breast_cancer

        X, y = load_breast_cancer(return_X_y=True)
        return X, y, None, None
    if name in ("independent", "correlated"):
        X, y = _synthetic(name == "correlated")
        return X, y, None, None
    raise ValueError(f"unknown data set {name!r}")


def draw(data, n_train: int, p_noise: int, rng):
    """Training and test rows for one repeat, with ``p_noise`` noise columns added."""
    X, y, Xt, yt = data
    tr = rng.choice(len(y), n_train, replace=False)
    if Xt is None:
        rest = np.setdiff1d(np.arange(len(y)), tr)
        te = rng.choice(rest, min(N_TEST, rest.size), replace=False)
        X_tr, y_tr, X_te, y_te = X[tr], y[tr], X[te], y[te]
    else:
        te = rng.choice(len(yt), N_TEST, replace=False)
        X_tr, y_tr, X_te, y_te = X[tr], y[tr], Xt[te], yt[te]
    if p_noise:
        X_tr = np.hstack([X_tr, noise_columns(len(y_tr), rng, continuous=p_noise).to_numpy()])
        X_te = np.hstack([X_te, noise_columns(len(y_te), rng, continuous=p_noise).to_numpy()])
    return X_tr, y_tr, X_te, y_te


LEARNERS = ("tree_full", "tree_cv", "tree_1se", "bagging", "forest")


def fit_and_score(X_tr, y_tr, X_te, y_te, trees: int, seed: int,
                  learners=LEARNERS) -> list[dict]:
    """Test accuracy (and size) of each of ``learners`` on one draw (the draw does not
    depend on which learners run, so runs of different learners pair row by row)."""
    from treebook import CARTClassifier
    from treebook.ensemble import RandomForestClassifier
    from treebook.prune import prune_ccp, select_alpha_cv

    out = []
    if {"tree_full", "tree_cv", "tree_1se"} & set(learners):
        full = CARTClassifier().fit(X_tr, y_tr)
    if "tree_full" in learners:
        out.append(dict(learner="tree_full", accuracy=full.score(X_te, y_te),
                        leaves=full.tree_.n_leaves))
    if {"tree_cv", "tree_1se"} & set(learners):
        cv = select_alpha_cv(CARTClassifier(), X_tr, y_tr, cv=5, random_state=seed)
        for name, alpha in (("tree_cv", cv.alpha_min), ("tree_1se", cv.alpha)):
            if name not in learners:
                continue
            pruned = prune_ccp(full.tree_, alpha)
            out.append(dict(learner=name, accuracy=full.score_with(pruned, X_te, y_te),
                            leaves=pruned.n_leaves, alpha=alpha))
    for name, mf in (("bagging", None), ("forest", "sqrt")):
        if name not in learners:
            continue
        f = RandomForestClassifier(n_estimators=trees, max_features=mf, random_state=seed,
                                   oob_score=True).fit(X_tr, y_tr)
        out.append(dict(learner=name, accuracy=f.score(X_te, y_te), oob=f.oob_score_,
                        leaves=float(np.mean([t.tree_.n_leaves for t in f.estimators_]))))
    return out


def run(repeats: int, trees: int, noise, sizes, datasets, n_noise=None, log=print,
        checkpoint=None, experiments=("noise", "n"), learners=LEARNERS) -> pd.DataFrame:
    """All settings of both experiments; ``checkpoint(frame)`` is called with the rows so
    far after each setting (the script rewrites its CSV, so a stopped run keeps them)."""
    n_noise = {**N_NOISE, **(n_noise or {})}
    rows = []
    for name in datasets:
        data = load(name)
        pool = len(data[1]) - (0 if data[2] is not None else 150)
        plan = [("noise", n_noise[name], p) for p in noise] if "noise" in experiments else []
        plan += [("n", n, 0) for n in sizes if n <= pool] if "n" in experiments else []
        for experiment, n_train, p in plan:
            t0 = time.time()
            for r in range(repeats):
                rng = np.random.default_rng([r, n_train, p])
                X_tr, y_tr, X_te, y_te = draw(data, n_train, p, rng)
                for row in fit_and_score(X_tr, y_tr, X_te, y_te, trees, r, learners):
                    rows.append(dict(dataset=name, experiment=experiment, n_train=n_train,
                                     noise=p, features=X_tr.shape[1], repeat=r, **row))
            log(f"{name} {experiment} n={n_train} p={p}: {time.time() - t0:.0f} s")
            if checkpoint is not None:
                checkpoint(pd.DataFrame(rows))
    return pd.DataFrame(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=FULL["repeats"])
    p.add_argument("--trees", type=int, default=FULL["trees"])
    p.add_argument("--noise", type=int, nargs="+", default=list(FULL["noise"]))
    p.add_argument("--sizes", type=int, nargs="+", default=list(FULL["sizes"]))
    p.add_argument("--datasets", nargs="+", default=list(FULL["datasets"]))
    p.add_argument("--experiments", nargs="+", default=["noise", "n"], choices=["noise", "n"])
    p.add_argument("--learners", nargs="+", default=list(LEARNERS), choices=LEARNERS,
                   help="which learners to fit (the ensembles and the trees can be re-run "
                   "apart: every run draws the same rows)")
    p.add_argument("--out", default=os.path.join(RESULTS, "forest_vs_tree.csv"),
                   help="CSV path, or a folder for forest_vs_tree.csv")
    p.add_argument("--smoke", action="store_true", help=f"the tiny configuration {SMOKE}")
    a = p.parse_args(argv)
    smoke(a, SMOKE)
    a.out = str(results_path(a.out, "forest_vs_tree.csv"))
    config = dict(repeats=a.repeats, trees=a.trees, noise=a.noise, sizes=a.sizes,
                  datasets=a.datasets, experiments=a.experiments, learners=a.learners)
    frame = run(**config, checkpoint=lambda f: write_csv(f, a.out, {**config, "complete": False}))
    write_csv(frame, a.out, {**config, "complete": True})


if __name__ == "__main__":
    main()
