"""Selection bias of split criteria, and what unbiased selection costs (chapter 5's section
"Unbiased selection" reads the CSVs this script writes).

Four parts, each a CSV under ``benchmarks/experiments/results/`` whose header lines
(``# command``, ``# commit``, ``# date``, ``# load average``) this script writes:

* ``selection_bias_nominal.csv`` — the root's choice between two categorical attributes on
  ``n`` cases with two classes: a **noise** attribute with ``V`` equally likely values,
  drawn independently of the class, and a binary **competitor**. In the scenario
  ``useless`` the competitor is noise too (an unbiased criterion picks either half the
  time, whatever ``V``); in ``weak`` it is informative, ``P(y = 1 | x = 1) = 1/2 + δ``,
  ``P(y = 1 | x = 0) = 1/2 − δ``; in ``power`` the roles turn: the ``V``-valued attribute
  (still called ``noise`` in the columns) is the informative one, ``P(y = 1 | v) = 1/2 + δ``
  for the values ``v < V/2`` and ``1/2 − δ`` for the others, and the binary competitor is
  noise, so choosing the ``V``-valued attribute is right (a criterion biased *against*
  many values shows here, where ``weak`` would reward it). Per scenario, ``V`` and criterion: how many of the
  ``reps`` draws chose the noise attribute (ties broken by a fair coin, so the count is
  an integer and a binomial proportion); ``ties`` counts the draws decided by the coin,
  ``decisive = reps − ties`` the others and ``noise_decisive`` how many of those chose the
  noise attribute (a proportion free of the coin). Criteria: information gain, gain ratio, Gini
  gain, the conditional likelihood score (chapter 5: ``-H(D|A)``), the G-test's ``χ²``
  p-value, the G-test's permutation p-value (``--perms`` relabellings, ``p = (1 + #{G* ≥
  G}) / (1 + R)``), and the learners' root tests with their stop switched off (the
  question is which variable they *choose*, not whether they split): ctree's p-values
  (``treebook.ctree.root_pvalues``, on the first ``learner_reps`` draws) and CHAID's
  Kass-adjusted p-values (``treebook.chaid.root_p_values``, on the first
  ``chaid_reps`` draws: CHAID's merging of 100 categories takes about 0.2 s of CPU). A
  predictor CHAID cannot test (its categories all merged into one group) counts as
  p = 1. For the two learners ``splits`` counts the draws in which the learner would
  split the root at all (ctree: the smaller p-value, Šidák-adjusted for the two
  variables, below α = 0.05; CHAID: the smaller Kass-adjusted p-value below
  ``alpha_split`` = 0.05) and ``splits_noise`` how many of those splits are on the noise
  attribute; for the measures both are empty.
* ``selection_bias_numeric.csv`` — the same with a **numeric** noise attribute with
  ``k`` levels (``k`` equally likely values spread over ``[0, 1)``; for ``k ≥ n`` a
  continuous U(0, 1) draw, every case its own value) against the binary competitor;
  ``observed_distinct`` is the mean number of distinct values the draws actually show
  (``k`` levels on ``n`` cases show about ``k (1 − (1 − 1/k)^n)``); CART and C4.5 (``pruning=None, collapse=False``) fitted to depth
  1 (a stump that stays a leaf chose neither: ``none``), ctree and CHAID (which bins the
  numeric column into at most 10 bins) by their root tests as above (with ``splits`` and
  ``splits_noise``).
* ``selection_bias_accuracy.csv`` — what it costs: stratified 5-fold cross-validation,
  repeated ``--cv-repeats`` times, on data sets of chapter 6 (``pruning_comparison``):
  CART with cost-complexity pruning (α by 5-fold CV, 1-SE rule,
  ``teaching.experiments.alpha_tuner``), C4.5 (defaults: error-based pruning, CF 0.25),
  ctree (defaults) and CHAID (defaults). One row per data set, fold and learner: test
  accuracy, leaves, whether the tree is a single leaf.
* ``selection_bias_importance.csv`` — importance without the bias: a data set of chapter
  6 with three added columns drawn independently of the class (``noise_id``: a unique
  number per row, ID-like; ``noise_u0``: U(0, 1); ``noise_cat2``: two levels). Per
  repeat (a new 70/30 split and new noise): CART grown to purity (its MDI,
  ``feature_importances_``) and ctree (the impurity decrease of *its* splits,
  ``Tree.impurity_decrease_by_feature`` normalised, the same formula on a tree whose
  splits were chosen without the bias), and for both the permutation importance on the
  test rows. The two differ in their stopping as well as their selection (CART grows to
  purity, ctree stops at α = 0.05 with its minimum node sizes), so a third arm,
  ``ctree grown`` (``GROWN_CTREE``: α = 1 − 1e-9, no Bonferroni, ``min_samples_split=2``,
  ``min_samples_leaf=1``, ``min_prob=0``), grows ctree to purity as CART does: against
  CART it differs only in how a split is chosen.

Each header records the configuration keys its part uses and the commit checked out when
the run started (read once, before the first part).

Usage::

    nice python benchmarks/experiments/selection_bias.py               # the committed run
    python benchmarks/experiments/selection_bias.py --smoke --out /tmp/sb   # seconds
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import sys
import time

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from treebook import C45Classifier, CARTClassifier
from treebook.core.impurity import (
    conditional_log_likelihood, g_statistic, g_test_pvalue, gain_ratio, gini_gain,
    information_gain,
)
from treebook.teaching.experiments import (
    _commit, alpha_tuner, load_average, repeated_folds, results_path, write_results,
)

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")

_spec = importlib.util.spec_from_file_location("pruning_comparison",
                                               os.path.join(HERE, "pruning_comparison.py"))
pruning_comparison = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pruning_comparison)

#: the configuration of the committed run
FULL = dict(n=200, delta=0.1, values=(2, 3, 5, 10, 20, 50, 100), reps=1000, perms=199,
            learner_reps=300, chaid_reps=300, distinct=(2, 5, 10, 20, 50, 100, 200),
            numeric_reps=300,
            datasets=("iris", "wine", "breast_cancer", "biopsy", "pima", "titanic"),
            cv_repeats=2, importance_dataset="breast_cancer", importance_repeats=10,
            importance_test_size=0.3)
#: seconds: the test suite runs it
SMOKE = dict(n=60, delta=0.1, values=(2, 10), reps=40, perms=49, learner_reps=10,
             chaid_reps=5, distinct=(2, 60), numeric_reps=10, datasets=("iris",), cv_repeats=1,
             importance_dataset="iris", importance_repeats=1,
             importance_test_size=0.3)

#: the configuration keys each part reads (its CSV header records these only)
PART_KEYS = {"nominal": ("n", "delta", "values", "reps", "perms", "learner_reps", "chaid_reps"),
             "numeric": ("n", "delta", "distinct", "numeric_reps"),
             "accuracy": ("datasets", "cv_repeats"),
             "importance": ("importance_dataset", "importance_repeats", "importance_test_size")}
#: ctree with no stopping by its test and CART's node sizes: grown to purity as CART is,
#: so that against CART only the selection rule differs (the importance part)
GROWN_CTREE = dict(alpha=1 - 1e-9, testtype="univariate", min_samples_split=2,
                   min_samples_leaf=1, min_prob=0.0)
#: the level at which the learners' root tests decide whether to split (both defaults)
ALPHA = 0.05

#: the measures of chapter 1 and chapter 5 (the package's, on batches of tables);
#: True: larger is better, False: smaller is better (p-values)
MEASURES = {
    "information gain": (information_gain, True),
    "gain ratio": (gain_ratio, True),
    "Gini gain": (gini_gain, True),
    "CLS score": (conditional_log_likelihood, True),
    "G-test p-value (χ²)": (g_test_pvalue, False),
}


# ------------------------------------------------------------------- the learners
def learners_available() -> dict:
    """The unbiased learners this checkout has: name -> class (absent ones omitted)."""
    out = {}
    try:
        from treebook.ctree import ConditionalTreeClassifier
        out["ctree"] = ConditionalTreeClassifier
    except ImportError:
        pass
    try:
        from treebook.chaid import CHAIDClassifier
        out["CHAID"] = CHAIDClassifier
    except ImportError:
        pass
    return out


def root_pvalues_of(name: str, X, y) -> np.ndarray:
    """Per column of X, the p-value by which the learner compares it at the root, with
    the learner's stop switched off (the question is which variable it *chooses*, not
    whether it splits); a column the learner cannot test counts as p = 1.

    ctree: :func:`treebook.ctree.root_pvalues`, unadjusted (the adjustment for the number
    of variables is the same for both columns and cannot change their order). CHAID:
    :func:`treebook.chaid.root_p_values`, adjusted by Kass's multipliers (part of CHAID's
    choice); a predictor whose categories all merged into one group has no test."""
    if name == "ctree":
        from treebook.ctree import root_pvalues

        p = root_pvalues(X, y, testtype="univariate")["pvalue"].to_numpy(float)
    elif name == "CHAID":
        from treebook.chaid import root_p_values

        p = root_p_values(X, y)["adjusted_p_value"].to_numpy(float)
    else:
        raise ValueError(f"unknown learner {name!r}")
    return np.where(np.isfinite(p), p, 1.0)


def root_feature(model) -> int:
    """Column index of the root's split, or -1 when the root is a leaf."""
    tree = model.tree_
    return -1 if tree.n_leaves == 1 else int(tree.feature[0])


# --------------------------------------------------------------- simulated columns
def class_labels(x_comp, delta, rng):
    """Two classes, ``P(y = 1 | x) = 1/2 + δ(2x − 1)`` (δ = 0: independent of x)."""
    return (rng.random(x_comp.shape) < 0.5 + delta * (2 * x_comp - 1)).astype(np.int64)


def tables(codes, y, V):
    """Contingency tables ``(reps, V, 2)`` of rows of codes against rows of labels."""
    reps = codes.shape[0]
    cells = (np.arange(reps)[:, None] * V + codes) * 2 + y
    return np.bincount(cells.ravel(), minlength=reps * V * 2).reshape(reps, V, 2)


def permutation_pvalues(codes, V, y, perms, rng):
    """Permutation p-values of G for each row of ``codes`` against its row of ``y``
    (``perms`` relabellings; called twice with the same ``rng`` state, the attributes of
    one draw meet the same relabellings): ``(1 + #{G* ≥ G}) / (1 + R)``.

    With two classes a relabelled table is fixed by its class-1 counts per value, one
    matrix product of the relabellings with the value indicators."""
    reps, n = codes.shape
    out = np.empty(reps)
    g_obs = g_statistic(tables(codes, y, V))
    for r in range(reps):
        shuffled = rng.permuted(np.broadcast_to(y[r], (perms, n)), axis=1)
        onehot = np.eye(V)[codes[r]]                      # n × V
        ones = shuffled @ onehot                           # perms × V: class-1 counts
        null = np.stack([onehot.sum(axis=0) - ones, ones], axis=-1)
        g_null = g_statistic(null)
        out[r] = (1 + np.sum(g_null >= g_obs[r] * (1 - 1e-12))) / (1 + perms)
    return out


def _noise_wins(s_noise, s_comp, larger_better, rng):
    """Per draw, whether the noise attribute wins, and whether it was a tie (ties are
    broken by a fair coin)."""
    s_noise, s_comp = np.asarray(s_noise, float), np.asarray(s_comp, float)
    tie = np.isclose(s_noise, s_comp, rtol=1e-12, atol=1e-15)
    better = s_noise > s_comp if larger_better else s_noise < s_comp
    return np.where(tie, rng.random(s_noise.shape) < 0.5, better), tie


def _row(wins, tie, **keys) -> dict:
    return dict(**keys, reps=int(wins.size), noise_chosen=int(wins.sum()),
                ties=int(tie.sum()), none=0, decisive=int((~tie).sum()),
                noise_decisive=int((wins & ~tie).sum()), splits=np.nan, splits_noise=np.nan)


def would_split(name: str, p_noise, p_comp) -> np.ndarray:
    """Per draw, whether the learner would split the root at all: ctree when the smaller
    p-value, Šidák-adjusted for the two variables (``1 − (1 − p)²``), is below ``ALPHA``;
    CHAID when the smaller Kass-adjusted p-value is below ``ALPHA`` (``alpha_split``)."""
    best = np.minimum(p_noise, p_comp)
    if name == "ctree":
        best = 1 - (1 - best) ** 2
    return best < ALPHA


def _learner_rows(learners, reps, make_X, y, rng, **keys) -> list:
    """One row per learner: its root choice on the first ``reps[name]`` draws."""
    rows = []
    for name in learners:
        p = np.array([root_pvalues_of(name, make_X(r), y[r]) for r in range(reps[name])])
        wins, tie = _noise_wins(p[:, 0], p[:, 1], False, rng)
        row = _row(wins, tie, criterion=name, **keys)
        split = would_split(name, p[:, 0], p[:, 1])
        row["splits"] = int(split.sum())
        row["splits_noise"] = int((split & wins & ~tie).sum())
        rows.append(row)
    return rows


def run_nominal(n, delta, values, reps, perms, learner_reps, chaid_reps, log=print,
                **_) -> pd.DataFrame:
    rows = []
    learners = learners_available()
    lreps = {"ctree": learner_reps, "CHAID": chaid_reps}
    for scenario, d in (("useless", 0.0), ("weak", delta), ("power", delta)):
        for V in values:
            t0 = time.perf_counter()
            if scenario == "power":                        # the many-valued one informs
                rng = np.random.default_rng([V, int(d * 1000), 3])
                noise = rng.integers(0, V, (reps, n))
                comp = rng.integers(0, 2, (reps, n))
                y = class_labels((2 * noise < V).astype(np.int64), d, rng)
            else:
                rng = np.random.default_rng([V, int(d * 1000)])
                noise = rng.integers(0, V, (reps, n))
                comp = rng.integers(0, 2, (reps, n))
                y = class_labels(comp, d, rng)
            t_noise, t_comp = tables(noise, y, V), tables(comp, y, 2)
            keys = dict(scenario=scenario, V=V)
            for name, (measure, larger) in MEASURES.items():
                wins, tie = _noise_wins(measure(t_noise), measure(t_comp), larger, rng)
                rows.append(_row(wins, tie, criterion=name, **keys))
            perm_rng = np.random.default_rng([V, int(d * 1000), 1])
            state = perm_rng.bit_generator.state
            p_noise = permutation_pvalues(noise, V, y, perms, perm_rng)
            perm_rng.bit_generator.state = state          # the same relabellings
            p_comp = permutation_pvalues(comp, 2, y, perms, perm_rng)
            wins, tie = _noise_wins(p_noise, p_comp, False, rng)
            rows.append(_row(wins, tie, criterion="permutation p-value", **keys))

            def make_X(r):
                return pd.DataFrame({"noise": pd.Categorical(noise[r]),
                                     "competitor": pd.Categorical(comp[r])})

            rows += _learner_rows(learners, lreps, make_X, y, rng, **keys)
            log(f"nominal {scenario:4s} V={V:3d}: {time.perf_counter() - t0:5.1f} s")
    return pd.DataFrame(rows)


def run_numeric(n, delta, distinct, numeric_reps, log=print, **_) -> pd.DataFrame:
    """CART and C4.5 as fitted stumps; ctree and CHAID by their root tests."""
    rows = []
    stumps = {"CART": lambda: CARTClassifier(max_depth=1),
              "C4.5": lambda: C45Classifier(max_depth=1, pruning=None, collapse=False)}
    learners = learners_available()
    for scenario, d in (("useless", 0.0), ("weak", delta)):
        for k in distinct:
            t0 = time.perf_counter()
            rng = np.random.default_rng([k, int(d * 1000), 2])
            if k >= n:                                     # continuous: all distinct
                noise = rng.random((numeric_reps, n))
            else:
                noise = rng.integers(0, k, (numeric_reps, n)) / k
            observed = float(np.mean([np.unique(row).size for row in noise]))
            comp = rng.integers(0, 2, (numeric_reps, n))
            y = class_labels(comp, d, rng)
            keys = dict(scenario=scenario, distinct=k, observed_distinct=observed)

            def make_X(r):
                return pd.DataFrame({"noise": noise[r], "competitor": comp[r].astype(float)})

            for name, make in stumps.items():
                chosen = np.array([root_feature(make().fit(make_X(r), y[r]))
                                   for r in range(numeric_reps)])
                row = _row(chosen == 0, np.zeros(numeric_reps, bool), criterion=name, **keys)
                row["none"] = int(np.sum(chosen == -1))
                rows.append(row)
            rows += _learner_rows(learners, {name: numeric_reps for name in learners},
                                  make_X, y, rng, **keys)
            log(f"numeric {scenario:4s} k={k:3d}: {time.perf_counter() - t0:5.1f} s")
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- what it costs
def accuracy_learners() -> dict:
    """name -> a function ``(X, y) -> fitted model`` (CART's α tuned inside)."""
    cart = alpha_tuner(CARTClassifier(random_state=0), cv=5, rule="1se")
    out = {"CART": lambda X, y: cart(X, y)[0],
           "C4.5": lambda X, y: C45Classifier().fit(X, y)}
    for name, cls in learners_available().items():
        out[name] = lambda X, y, cls=cls: cls().fit(X, y)
    return out


def run_accuracy(datasets, cv_repeats, log=print, **_) -> pd.DataFrame:
    rows = []
    fitters = accuracy_learners()
    for name in datasets:
        X, y = pruning_comparison.load_dataset(name)
        y = np.asarray(y)
        t0 = time.perf_counter()
        for f in repeated_folds(y, 5, cv_repeats, random_state=0):
            for learner, fit in fitters.items():
                s = time.perf_counter()
                model = fit(X.iloc[f.train], y[f.train])
                seconds = time.perf_counter() - s
                pred = np.asarray(model.predict(X.iloc[f.test]))
                rows.append(dict(dataset=name, repeat=f.repeat, fold=f.fold, learner=learner,
                                 n_train=len(f.train), n_test=len(f.test),
                                 accuracy=float(np.mean(pred == y[f.test])),
                                 leaves=int(model.tree_.n_leaves),
                                 constant=bool(model.tree_.n_leaves == 1),
                                 fit_seconds=seconds))
        log(f"accuracy {name:14s}: {time.perf_counter() - t0:6.1f} s")
    return pd.DataFrame(rows)


def importance_of(model, X) -> np.ndarray:
    """Normalised impurity decrease of the model's splits, per column of X (MDI)."""
    dec = np.asarray(model.tree_.impurity_decrease_by_feature(X.shape[1]), float)
    return dec / dec.sum() if dec.sum() > 0 else dec


def run_importance(importance_dataset, importance_repeats, importance_test_size, log=print,
                   **_) -> pd.DataFrame:
    from sklearn.inspection import permutation_importance
    from sklearn.model_selection import train_test_split

    X0, y0 = pruning_comparison.load_dataset(importance_dataset)
    y0 = np.asarray(y0)
    models = {"CART": lambda: CARTClassifier()}
    for name, cls in learners_available().items():
        if name == "ctree":
            models[name] = cls
            models["ctree grown"] = lambda cls=cls: cls(**GROWN_CTREE)
    rows = []
    for r in range(importance_repeats):
        t0 = time.perf_counter()
        rng = np.random.default_rng([r, 7])
        X = X0.assign(noise_id=rng.permutation(len(y0)).astype(float),
                      noise_u0=rng.random(len(y0)),
                      noise_cat2=np.where(rng.random(len(y0)) < 0.5, "a", "b"))
        tr, te = train_test_split(np.arange(len(y0)), test_size=importance_test_size, random_state=r,
                                  stratify=y0)
        for name, make in models.items():
            model = make().fit(X.iloc[tr], y0[tr])
            acc = float(np.mean(np.asarray(model.predict(X.iloc[te])) == y0[te]))
            perm = permutation_importance(model, X.iloc[te], y0[te], n_repeats=5,
                                          random_state=r)
            mdi = importance_of(model, X)
            for j, feature in enumerate(X.columns):
                rows.append(dict(dataset=importance_dataset, repeat=r, model=name,
                                 feature=feature, noise=feature.startswith("noise_"),
                                 mdi=float(mdi[j]),
                                 perm_test=float(perm.importances_mean[j]),
                                 leaves=int(model.tree_.n_leaves), test_accuracy=acc))
        log(f"importance repeat {r}: {time.perf_counter() - t0:5.1f} s")
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ main
PARTS = {"nominal": ("selection_bias_nominal.csv", run_nominal),
         "numeric": ("selection_bias_numeric.csv", run_numeric),
         "accuracy": ("selection_bias_accuracy.csv", run_accuracy),
         "importance": ("selection_bias_importance.csv", run_importance)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--smoke", action="store_true", help="tiny configuration, seconds")
    ap.add_argument("--out", default=RESULTS, help="folder of the CSVs")
    ap.add_argument("--parts", nargs="+", default=list(PARTS), choices=list(PARTS))
    for key, value in FULL.items():
        if isinstance(value, tuple):
            ap.add_argument("--" + key.replace("_", "-"), nargs="+", default=None,
                            type=str if key == "datasets" else int)
        else:
            ap.add_argument("--" + key.replace("_", "-"), type=type(value), default=None)
    args = ap.parse_args(argv)
    command = "python benchmarks/experiments/selection_bias.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    config = dict(SMOKE if args.smoke else FULL)
    for key in FULL:
        if getattr(args, key) is not None:
            config[key] = tuple(getattr(args, key)) if isinstance(FULL[key], tuple) \
                else getattr(args, key)
    commit = _commit()                  # the code this run executes, read once at the start
    print(f"learners: {sorted(learners_available()) or 'none'}; commit {commit}; "
          f"load {load_average()}")
    for part in args.parts:
        name, run = PARTS[part]
        t0 = time.perf_counter()
        with threadpool_limits(1):
            frame = run(**config)
        frame["seconds_part"] = round(time.perf_counter() - t0, 1)
        used = {key: config[key] for key in PART_KEYS[part]}
        write_results(frame, results_path(args.out, name),
                      command + f"  # config {used}", commit=commit)
        print(f"{part}: {len(frame)} rows, {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
