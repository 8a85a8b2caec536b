"""treebook's ``missing="surrogate"`` against R's rpart on R's own data with missing values.

The data (``tests/oracles/data``, exported once by ``export_rpart_data.R``): stagec
(classes, NA in g2/gleason/eet, categorical ploidy), cu.summary (5 classes, NA in
Mileage, categorical Country and Type), car90 (regression, NA in many columns, six
categorical columns) and airquality (regression, NA in Solar.R). For each:

(a) grown as rpart grows with ``cp = 0, minsplit = 2, minbucket = 1, maxcompete = 0,
    maxsurrogate = 5, usesurrogate = 2`` (and at minsplit/minbucket 6/3 and 20/7; see
    ``TIES`` for the sets whose smallest nodes tie): the same nodes (split variable, n, risk), at
    every internal node the same cut point or the same levels to each side (rpart's
    ``splits`` index, ``ncat`` and ``csplit``), the same surrogates in the same order with the same agreement
    and adjusted agreement, and the same predictions on every training row and on the
    training rows with a further 30 % of their values made missing;
(b) the same cp table (CP, nsplit, rel error, xerror, xstd) on the same fold ids
    (stagec at minbucket 1, all four at minsplit 20, minbucket 7);
(c) ``like_rpart()`` grows rpart's *default* tree (same nodes and predictions);
(d) with ``maxsurrogate = 0`` (a case missing the primary stays at the node) the same
    tree and the same cp table.

Run by ``make crosscheck`` (Debian's ``r-cran-rpart``).
"""

from __future__ import annotations

import shutil
from collections import Counter
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from treebook import CARTClassifier, CARTRegressor
from treebook.core.tree import NodeKind
from treebook.prune.rpart import cp_table

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

pytestmark = pytest.mark.skipif(shutil.which("Rscript") is None,
                                reason="R is not installed: run `make crosscheck`")

#: data set -> rpart method
SETS = {"stagec": "class", "cu_summary": "class", "car90": "anova", "airquality": "anova"}
GROW = dict(missing="surrogate", max_surrogates=5, cp=0.0, min_samples_split=2,
            min_samples_leaf=1)

_cache: dict = {}


def load(name):
    frame = pd.read_csv(DATA / f"{name}.csv")
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def more_missing(X, seed=0, frac=0.3):
    mask = np.random.default_rng(seed).random(X.shape) < frac
    return X.mask(mask)


def run_rpart(name, mode, tmp, minsplit=2, minbucket=1, maxsurrogate=5):
    key = (name, mode, minsplit, minbucket, maxsurrogate)
    if key in _cache:
        return _cache[key]
    X, y = load(name)
    folds = np.random.default_rng(0).integers(1, 6, len(y))
    out = tmp / f"{name}_{mode}_{minsplit}_{minbucket}_{maxsurrogate}"
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"f": folds}).to_csv(out / "folds.csv", index=False)
    more_missing(X).to_csv(out / "new.csv", index=False)
    subprocess.run(["Rscript", str(HERE / "rpart_surrogate.R"), str(DATA / f"{name}.csv"),
                    SETS[name], mode, str(out / "folds.csv"), str(out / "new.csv"),
                    str(out), str(minsplit), str(minbucket), str(maxsurrogate)], check=True,
                   capture_output=True)
    res = {f: pd.read_csv(out / f"{f}.csv") for f in
           ("frame", "splits", "pred_train", "pred_new")}
    if (out / "cptable.csv").exists():
        res["cptable"] = pd.read_csv(out / "cptable.csv")
    res["folds"] = folds
    _cache[key] = res
    return res


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("rpart_missing")


def estimator(name, **params):
    cls = CARTClassifier if SETS[name] == "class" else CARTRegressor
    return cls(**params)


def our_nodes(model):
    """Per node: (split variable or <leaf>, n, risk), and per internal node its
    surrogates (variable, agreement, adjusted agreement) in rank order."""
    t = model.tree_
    names = list(model.encoder_.names)
    if t.is_regression:
        dev = t.weighted_n * t.impurity
    else:
        dev = t.weighted_n - t.value.max(axis=1)
    nodes, surrogates = [], {}
    for i in range(t.node_count):
        var = "<leaf>" if t.is_leaf[i] else names[t.feature[i]]
        key = (var, int(t.n_samples[i]), float(f"{float(dev[i]):.9g}"))
        nodes.append(key)
        if not t.is_leaf[i]:
            surrogates.setdefault(key, []).append(
                [(names[s.feature], round(s.agreement, 9), round(s.adjusted, 9))
                 for s in (t.surrogates[i] if t.surrogates else ())])
    return sorted(nodes), surrogates


def their_nodes(res):
    fr, sp = res["frame"], res["splits"]
    nodes, surrogates, key_of = [], {}, {}
    for row in fr.itertuples():
        key = (row.var, int(row.n), float(f"{float(row.dev):.9g}"))
        nodes.append(key)
        key_of[row.node] = key
    for node, group in sp.groupby("node", sort=False):
        sur = group[group["kind"] == "surrogate"]
        surrogates.setdefault(key_of[node], []).append(
            [(v, round(a, 9), round(j, 9)) for v, a, j in
             zip(sur["var"], sur["agree"], sur["adj"])])
    return sorted(nodes), surrogates


def our_primaries(model):
    """Per internal node (keyed as in :func:`our_nodes`), its primary split: a numeric
    one as ``(cut, n of the child with x < cut)`` — treebook stores rpart's cut as the
    largest double below it, ``x <= t`` — a categorical one as the set of ``(levels,
    n)`` of its two children (levels no case at the node had are in neither)."""
    t = model.tree_
    names = list(model.encoder_.names)
    dev = t.weighted_n * t.impurity if t.is_regression else t.weighted_n - t.value.max(axis=1)
    out = {}
    for i in np.flatnonzero(~t.is_leaf):
        key = (names[t.feature[i]], int(t.n_samples[i]), float(f"{float(dev[i]):.9g}"))
        kids = t.children_of(i)
        if t.kind[i] == NodeKind.THRESHOLD:
            desc = (float(np.nextafter(t.threshold[i], np.inf)), int(t.n_samples[kids[0]]))
        else:
            labels = np.asarray(model.encoder_.categories[t.feature[i]], dtype=str)
            codes = t.codes_of(i)
            desc = frozenset((frozenset(labels[np.flatnonzero(codes == b)].tolist()),
                              int(t.n_samples[kids[b]])) for b in (0, 1))
        out.setdefault(key, []).append(desc)
    return out


def their_primaries(res):
    fr, sp = res["frame"], res["splits"]
    key_of = {row.node: (row.var, int(row.n), float(f"{float(row.dev):.9g}"))
              for row in fr.itertuples()}
    out = {}
    for row in sp[sp["kind"] == "primary"].itertuples():
        if row.ncat < 2:   # -1: x < cut goes to the left son, +1: to the right son
            desc = (float(row.index), int(row.n_left if row.ncat == -1 else row.n_right))
        else:
            side = lambda v: frozenset(str(v).split("|")) if isinstance(v, str) else frozenset()
            desc = frozenset({(side(row.levels_left), int(row.n_left)),
                              (side(row.levels_right), int(row.n_right))})
        out.setdefault(key_of[row.node], []).append(desc)
    return out


def predictions(model, X):
    if isinstance(model, CARTClassifier):
        return model.predict_proba(X)
    return model.predict(X)


def assert_same(model, res, X):
    ours, our_sur = our_nodes(model)
    theirs, their_sur = their_nodes(res)
    assert ours == theirs
    assert {k: sorted(v) for k, v in our_sur.items()} == \
        {k: sorted(v) for k, v in their_sur.items()}
    # the cut points and the category directions (rpart's splits index, ncat, csplit)
    ours_p, theirs_p = our_primaries(model), their_primaries(res)
    assert ours_p.keys() == theirs_p.keys()
    for k in ours_p:
        assert Counter(ours_p[k]) == Counter(theirs_p[k]), k
    for Z, pred in ((X, res["pred_train"]), (more_missing(X), res["pred_new"])):
        theirs_p = pred.to_numpy()
        if theirs_p.shape[1] == 1:
            theirs_p = theirs_p[:, 0]
        assert np.allclose(predictions(model, Z), theirs_p, rtol=1e-12, atol=1e-12)


#: rpart's growth settings (minsplit, minbucket) at which each set is checked node by node.
#: At minsplit 2, minbucket 1 the nodes get as small as 3 rows, where two splits often
#: lower the impurity by exactly the same amount; rpart then keeps whichever its
#: floating-point sums make larger (its comparisons are strict, its sums run in its own
#: order), treebook the first feature (scores within 1e-12 tie). Measured: cu_summary
#: 1 of 79 nodes, car90 11 of 197, airquality 4 of 217 differ, all in nodes of 3-6 rows
#: whose two candidate splits have equal improvement (cu_summary's 6-row node: Price or
#: Type, both leaving Gini sums 2.5 + 1.0); stagec has none. Their training predictions
#: agree all the same (test_training_predictions_equal_rpart_at_minbucket_1).
TIES = {"cu_summary", "car90", "airquality"}
TREE_CASES = ([pytest.param(n, 2, 1, marks=pytest.mark.xfail(
    strict=True, reason="rpart breaks exact ties by rounding (see TIES)")) if n in TIES
    else (n, 2, 1) for n in SETS]
    + [(n, ms, mb) for ms, mb in ((6, 3), (20, 7)) for n in SETS])


@pytest.mark.parametrize("name, minsplit, minbucket", TREE_CASES)
def test_surrogate_tree_equals_rpart(name, minsplit, minbucket, tmp):
    X, y = load(name)
    res = run_rpart(name, "grow", tmp, minsplit, minbucket)
    model = estimator(name, **dict(GROW, min_samples_split=minsplit,
                                   min_samples_leaf=minbucket)).fit(X, y)
    assert X.isna().any().any() and model.tree_.node_count > 5
    assert_same(model, res, X)


@pytest.mark.parametrize("name", list(SETS))
def test_training_predictions_equal_rpart_at_minbucket_1(name, tmp):
    X, y = load(name)
    res = run_rpart(name, "grow", tmp)
    model = estimator(name, **GROW).fit(X, y)
    theirs = res["pred_train"].to_numpy()
    theirs = theirs[:, 0] if theirs.shape[1] == 1 else theirs
    assert np.allclose(predictions(model, X), theirs, rtol=1e-12, atol=1e-12)


#: the cp table needs every fold's tree equal too: at minbucket 7 no fold tree ties
CP_CASES = [("stagec", 2, 1)] + [(n, 20, 7) for n in SETS]


def _assert_same_cp_table(ours, theirs):
    """rpart's cp table, row for row: the sizes exactly, the numbers to 1e-12."""
    assert len(ours) == len(theirs) > 2
    assert (ours["nsplit"].to_numpy() == theirs["nsplit"].to_numpy()).all()
    for col in ("CP", "rel error", "xerror", "xstd"):
        assert np.allclose(ours[col], theirs[col], rtol=0, atol=1e-12), col


@pytest.mark.parametrize("name, minsplit, minbucket", CP_CASES)
def test_cp_table_with_missing_values_equals_rpart(name, minsplit, minbucket, tmp):
    X, y = load(name)
    res = run_rpart(name, "grow", tmp, minsplit, minbucket)
    est = estimator(name, **dict(GROW, min_samples_split=minsplit, min_samples_leaf=minbucket))
    ours = cp_table(est, X, y, folds=res["folds"])
    _assert_same_cp_table(ours, res["cptable"])


@pytest.mark.parametrize("name", list(SETS))
def test_like_rpart_equals_rparts_default_tree(name, tmp):
    X, y = load(name)
    res = run_rpart(name, "default", tmp)
    model = (CARTClassifier if SETS[name] == "class" else CARTRegressor).like_rpart().fit(X, y)
    assert model.missing == "surrogate" and model.max_surrogates == 5
    assert_same(model, res, X)


# ---- maxsurrogate = 0: a case missing the primary stays at the node -------------------
# rpart's partition.c calls surrogate() only when maxsurrogate > 0, so the node's
# lastsurrogate stays 0 and nodesplit.c leaves such a case where it is, whatever
# usesurrogate says: frame$n of the two children add up to the known cases.
# (At 6/3 every set splits on a variable with missing cases; at 20/7 cu.summary's and
# car90's trees do not. The cp tables are compared where no fold tree ties, CP_CASES: at
# 6/3 stagec's fold-5 tree has a 7-case node where eet and age improve by the same
# 0.5952380952381 and rpart's rounding picks eet.)
NO_SURROGATE_CASES = ([(n, 6, 3) for n in SETS]
                      + [("stagec", 20, 7), ("airquality", 20, 7), ("stagec", 2, 1)])

@pytest.mark.parametrize("name, minsplit, minbucket", NO_SURROGATE_CASES)
def test_no_surrogates_tree_equals_rpart(name, minsplit, minbucket, tmp):
    X, y = load(name)
    res = run_rpart(name, "grow", tmp, minsplit, minbucket, maxsurrogate=0)
    model = estimator(name, **dict(GROW, max_surrogates=0, min_samples_split=minsplit,
                                   min_samples_leaf=minbucket)).fit(X, y)
    t = model.tree_
    assert t.surrogates == () and t.node_count > 5
    # the rule is exercised: some node's children hold fewer cases than the node
    internal = np.flatnonzero(~t.is_leaf)
    kids = np.array([t.n_samples[t.children_of(i)].sum() for i in internal])
    assert (kids < t.n_samples[internal]).any()
    assert_same(model, res, X)


@pytest.mark.parametrize("name, minsplit, minbucket", CP_CASES)
def test_no_surrogates_cp_table_equals_rpart(name, minsplit, minbucket, tmp):
    X, y = load(name)
    res = run_rpart(name, "grow", tmp, minsplit, minbucket, maxsurrogate=0)
    est = estimator(name, **dict(GROW, max_surrogates=0, min_samples_split=minsplit,
                                 min_samples_leaf=minbucket))
    ours = cp_table(est, X, y, folds=res["folds"])
    _assert_same_cp_table(ours, res["cptable"])
