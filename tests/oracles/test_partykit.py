"""treebook's conditional inference trees against R's ``partykit::ctree`` (``majority = TRUE``).

On R's own data (``tests/oracles/data``; exported once by ``export_partykit_data.R`` and
``export_rpart_data.R``): airquality (regression, NA in Solar.R), iris (3 classes),
GlaucomaM (2 classes, 62 numeric variables), stagec (NA in g2, gleason, eet; nominal
ploidy), stagec with grade and gleason as ordered factors, esoph (regression on three
ordered factors and a numeric one), each at ``testtype = "Bonferroni"`` and
``"Univariate"`` and several ``mincriterion`` / ``minsplit`` / ``minbucket``, with case
weights (1, 2, 3, 1, …) and with surrogate splits (``maxsurrogate``). For every tree:

* the same nodes in the same order (partykit's ids are treebook's plus one), each with
  the same weight and number of rows, the same split variable and the same split: the
  same cut point (an observed value, compared exactly) or the same levels sent left;
* at every node partykit tested, the same statistic ``c_quad`` per variable (relative
  tolerance ``STAT_RTOL``) and the same (adjusted) p-value per variable and for the node
  (relative tolerance ``P_RTOL``, absolute ``P_ATOL`` for p-values near 0);
* the same end node for every training row and for every training row with a further
  20 % of its values made missing (the majority rule and the surrogates).

All trees are grown by one ``Rscript`` call (``partykit_ctree.R``). Run by ``make
crosscheck`` (Debian's ``r-cran-partykit`` and ``r-cran-th.data``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from treebook import ConditionalTreeClassifier, ConditionalTreeRegressor
from treebook.core.tree import NodeKind

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

#: the statistic is the same formula in the same order of operations up to summation
#: order: agreement to about 1e-12 is seen; 1e-8 is the stated tolerance
STAT_RTOL = 1e-8
#: p-values: R's pchisq and scipy's chi2.sf, and Šidák's adjustment in logs (partykit)
#: or with log1p/expm1 (treebook)
P_RTOL, P_ATOL = 1e-6, 1e-14
EPS = float(np.finfo(float).eps)

#: id, data, type, testtype, mincriterion, minsplit, minbucket, maxsurrogate, weights
JOBS = [
    ("aq_b95", "airquality", "regression", "Bonferroni", 0.95, 20, 7, 0, "none"),
    ("aq_u95", "airquality", "regression", "Univariate", 0.95, 20, 7, 0, "none"),
    ("aq_u50_s2", "airquality", "regression", "Univariate", 0.5, 10, 3, 2, "none"),
    ("iris_b95", "iris", "class", "Bonferroni", 0.95, 20, 7, 0, "none"),
    ("iris_u99_w", "iris", "class", "Univariate", 0.99, 20, 7, 0, "cyclic"),
    ("glauc_b95", "glaucomam", "class", "Bonferroni", 0.95, 20, 7, 0, "none"),
    ("glauc_u99", "glaucomam", "class", "Univariate", 0.99, 20, 7, 0, "none"),
    ("stagec_b95", "stagec", "class", "Bonferroni", 0.95, 20, 7, 0, "none"),
    ("stagec_u50", "stagec", "class", "Univariate", 0.5, 10, 3, 0, "none"),
    ("stagec_u50_s3", "stagec", "class", "Univariate", 0.5, 10, 3, 3, "none"),
    ("stagec_b80_w", "stagec", "class", "Bonferroni", 0.8, 20, 7, 0, "cyclic"),
    ("stageco_u50", "stagec_ordered", "class", "Univariate", 0.5, 10, 3, 0, "none"),
    ("stageco_b95_s2", "stagec_ordered", "class", "Bonferroni", 0.95, 20, 7, 2, "none"),
    ("esoph_b95", "esoph", "regression", "Bonferroni", 0.95, 20, 7, 0, "none"),
    ("esoph_u80_w", "esoph", "regression", "Univariate", 0.8, 10, 3, 0, "cyclic"),
]
COLUMNS = ["id", "data", "type", "testtype", "mincriterion", "minsplit", "minbucket",
           "maxsurrogate", "weights"]


def _require_partykit():
    if shutil.which("Rscript") is None:
        pytest.fail("Rscript is not installed: run `make crosscheck` (Debian r-base-core, "
                    "r-cran-partykit, r-cran-th.data)")
    done = subprocess.run(["Rscript", "-e", "library(partykit)"], capture_output=True)
    if done.returncode != 0:
        pytest.fail("R package partykit is missing: run `make crosscheck` (Debian "
                    "r-cran-partykit)")


def ordered_levels():
    lv = pd.read_csv(DATA / "esoph_levels.csv")
    return {v: list(g.sort_values("rank")["level"]) for v, g in lv.groupby("variable")}


def prepare(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """The columns as R reads them: ordered factors where the R script makes them."""
    frame = frame.copy()
    if name == "stagec_ordered":
        frame["grade"] = pd.Categorical(frame["grade"], categories=[1, 2, 3, 4], ordered=True)
        frame["gleason"] = pd.Categorical(frame["gleason"],
                                          categories=[float(v) for v in range(3, 11)],
                                          ordered=True)
    if name == "esoph":
        for v, levels in ordered_levels().items():
            frame[v] = pd.Categorical(frame[v], categories=levels, ordered=True)
    return frame


def raw(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA / f"{'stagec' if name == 'stagec_ordered' else name}.csv")


def more_missing(frame: pd.DataFrame, seed: int = 0, frac: float = 0.2) -> pd.DataFrame:
    X = frame.iloc[:, :-1]
    mask = np.random.default_rng(seed).random(X.shape) < frac
    return pd.concat([X.mask(mask), frame.iloc[:, -1]], axis=1)


@pytest.fixture(scope="module")
def partykit(tmp_path_factory):
    """partykit's trees of every job, grown by one Rscript call."""
    _require_partykit()
    out = tmp_path_factory.mktemp("partykit")
    pd.DataFrame(JOBS, columns=COLUMNS).to_csv(out / "jobs.csv", index=False)
    for name in {j[1] for j in JOBS}:
        more_missing(raw(name)).to_csv(out / f"new_{name}.csv", index=False)
    done = subprocess.run(["Rscript", str(HERE / "partykit_ctree.R"), str(DATA),
                           str(out / "jobs.csv"), str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    def read(part, job_id):
        frame = pd.read_csv(out / f"{part}_{job_id}.csv", keep_default_na=False, dtype=str)
        return frame.rename(columns={"p.value": "pvalue"})

    return {j[0]: {part: read(part, j[0]) for part in ("nodes", "crit", "pred")}
            for j in JOBS} | {"dir": out}


def fit(job):
    _, name, kind, testtype, mincrit, minsplit, minbucket, maxsur, weights = job
    frame = prepare(raw(name), name)
    X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
    w = (np.arange(len(y)) % 3 + 1).astype(float) if weights == "cyclic" else None
    cls = ConditionalTreeClassifier if kind == "class" else ConditionalTreeRegressor
    est = cls(alpha=1 - mincrit, testtype=testtype.lower(), min_samples_split=minsplit,
              min_samples_leaf=minbucket, max_surrogates=maxsur)
    return est.fit(X, y, sample_weight=w), X


def _label(v) -> str:
    """A level as R writes it (whole numbers without a decimal point)."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


@pytest.mark.parametrize("job", JOBS, ids=[j[0] for j in JOBS])
def test_same_tree_as_partykit(job, partykit):
    est, X = fit(job)
    ref = partykit[job[0]]
    nodes, tree = ref["nodes"], est.tree_
    assert tree.node_count == len(nodes), est.export_text()
    names = list(est.encoder_.names)
    for i, row in enumerate(nodes.itertuples(index=False)):
        assert int(row.node) == i + 1
        assert tree.weighted_n[i] == pytest.approx(float(row.weight), rel=1e-12), i
        assert tree.n_samples[i] == int(row.rows), i
        if row.variable == "":
            assert tree.kind[i] == NodeKind.LEAF, (i, est.export_text())
            continue
        assert tree.kind[i] != NodeKind.LEAF, (i, est.export_text())
        assert names[tree.feature[i]] == row.variable, i
        if tree.kind[i] == NodeKind.THRESHOLD:
            assert tree.threshold[i] == float(row.breaks), i  # an observed value, exactly
        else:
            cats = est.encoder_.categories[tree.feature[i]]
            left = {_label(c) for c, b in zip(cats, tree.codes_of(i)) if b == 0}
            assert left == set(str(row.left).split(";")), i
    for i, p in enumerate(nodes["pvalue"]):
        if p == "":  # no test at this node (minsplit, maxdepth): NaN in treebook
            assert np.isnan(est.node_pvalues_[i]), i
        else:
            np.testing.assert_allclose(est.node_pvalues_[i], float(p), rtol=P_RTOL,
                                       atol=P_ATOL, err_msg=f"node {i}")


@pytest.mark.parametrize("job", JOBS, ids=[j[0] for j in JOBS])
def test_same_tests_as_partykit(job, partykit):
    est, _ = fit(job)
    crit = partykit[job[0]]["crit"]
    assert len(crit) > 0
    names = list(est.encoder_.names)
    tested = set()
    for row in crit.itertuples(index=False):
        i, j = int(row.node) - 1, names.index(row.variable)
        tested.add((i, j))
        # partykit reports max(c_quad, machine epsilon) (it stores the statistic's log)
        np.testing.assert_allclose(max(est.node_statistics_[i, j], EPS), float(row.statistic),
                                   rtol=STAT_RTOL)
        np.testing.assert_allclose(est.node_variable_pvalues_[i, j], float(row.pvalue),
                                   rtol=P_RTOL, atol=P_ATOL)
    # partykit leaves out the variables with no test; treebook has NaN there
    ours = {(i, j) for i, j in zip(*np.nonzero(np.isfinite(est.node_statistics_)))}
    assert ours == tested


@pytest.mark.parametrize("job", JOBS, ids=[j[0] for j in JOBS])
def test_same_end_nodes_as_partykit(job, partykit):
    est, X = fit(job)
    pred = partykit[job[0]]["pred"]
    np.testing.assert_array_equal(est.apply(X) + 1, pred["train"].astype(int).to_numpy())
    new = prepare(pd.read_csv(partykit["dir"] / f"new_{job[1]}.csv"), job[1]).iloc[:, :-1]
    np.testing.assert_array_equal(est.apply(new) + 1, pred["new"].astype(int).to_numpy())
