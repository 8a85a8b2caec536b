"""treebook's C4.5 against Weka's J48 on Weka's own ARFF examples.

For every data set and option set, J48 (run in one JVM by ``J48Oracle.java``) and
``C45Classifier`` (with each of its two growers, ``grower="fast"`` and ``"readable"``) are
fitted on the whole file; they must build the same tree: the same
non-empty leaves (class, weight, errors, as J48 prints them to two decimals) and, for every
training case, the same class distribution (exact, to 1e-9) and the same prediction.
Run by ``make crosscheck``, which installs Debian's ``weka`` when it is missing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from treebook import C45Classifier

from .weka import EXAMPLES, WEKA_JAR, read_arff, run_j48

BUILD = Path(__file__).resolve().parents[2] / "_build" / "oracles"

DATASETS = ["breast-cancer", "contact-lenses", "credit-g", "diabetes", "glass", "ionosphere",
            "iris", "iris.2D", "labor", "segment-challenge", "soybean", "unbalanced", "vote",
            "weather.nominal", "weather.numeric"]

#: J48 option string -> C45Classifier parameters
OPTIONS = {
    "-C 0.25 -M 2": {},
    "-U -M 2": {"pruning": None},
    "-C 0.1 -M 2": {"confidence": 0.1},
    "-C 0.25 -M 5": {"min_samples_leaf": 5},
    "-C 0.25 -M 2 -S": {"subtree_raising": False},
    "-C 0.25 -M 2 -A": {"laplace": True},
    "-U -M 2 -A": {"pruning": None, "laplace": True},
    "-C 0.25 -M 2 -B": {"binary_splits": True},
    "-U -M 2 -B": {"pruning": None, "binary_splits": True},
}

#: both C4.5 growers must build J48's tree: the fast one and the readable recursion
GROWERS = ("fast", "readable")

JOBS = [pytest.param(name, opt, id=f"{name}[{opt}]") for name in DATASETS for opt in OPTIONS]
RUNS = [pytest.param(name, opt, g, id=f"{name}[{opt}]-{g}") for name in DATASETS
        for opt in OPTIONS for g in GROWERS]

#: the committed table of this comparison, read by chapter 3 and the appendix
PARITY_CSV = Path(__file__).resolve().parents[2] / "benchmarks/experiments/results/j48_parity.csv"
_OUTCOMES: dict = {}

pytestmark = pytest.mark.skipif(not WEKA_JAR.exists(),
                                reason="Weka is not installed: run `make crosscheck`")


@pytest.fixture(scope="module")
def j48_results():
    keys = [p.values for p in JOBS]
    results = run_j48([(EXAMPLES / f"{name}.arff", opt) for name, opt in keys], BUILD)
    yield dict(zip(keys, results))
    if len(_OUTCOMES) == len(RUNS):  # a full run: record the table
        _write_parity_csv()


def _write_parity_csv():
    """Write the table, its header (command, date, commit, load average) written here by
    ``teaching.experiments.write_results``: one row per data set, option set and grower."""
    import pandas as pd

    from treebook.teaching.experiments import write_results

    rows = []
    for (name, opt, grower), o in _OUTCOMES.items():
        params = " ".join(f"{k}={v}" for k, v in OPTIONS[opt].items()) or "defaults"
        rows.append({"dataset": name, "j48_options": opt, "c45_parameters": params,
                     "grower": grower, "j48_leaves": o["j48_leaves"],
                     "treebook_leaves": o["treebook_leaves"], "same_leaves": o["leaves"],
                     "same_distributions": o["distributions"],
                     "same_predictions": o["predictions"]})
    write_results(pd.DataFrame(rows), PARITY_CSV,
                  "PYTHONPATH=src python -m pytest tests/oracles/test_j48.py "
                  f"(Weka 3.6.14 J48; C4.5 growers {' and '.join(GROWERS)})")


def _treebook_leaves(model):
    tree = model.tree_
    leaves = []
    for node in np.flatnonzero(tree.is_leaf):
        counts = tree.value[node]
        n = float(tree.weighted_n[node])
        if n <= 0:
            continue
        leaves.append((str(model.classes_[int(np.argmax(counts))]), n, n - float(counts.max())))
    return leaves


def _same_leaves(ours, theirs, tol=0.0051):
    if len(ours) != len(theirs):
        return False
    ours = sorted(ours, key=lambda t: (t[0], round(t[1], 2), round(t[2], 2)))
    theirs = sorted(theirs, key=lambda t: (t[0], t[1], t[2]))
    return all(a[0] == b[0] and abs(a[1] - b[1]) <= tol and abs(a[2] - b[2]) <= tol
               for a, b in zip(ours, theirs))


@pytest.mark.parametrize("name, options, grower", RUNS)
def test_c45_builds_j48s_tree(j48_results, name, options, grower):
    j48 = j48_results[(name, options)]
    X, y, class_names = read_arff(EXAMPLES / f"{name}.arff", BUILD)
    model = C45Classifier(grower=grower, **OPTIONS[options]).fit(X, y)
    ours = _treebook_leaves(model)
    order = [list(model.classes_).index(c) for c in class_names]
    proba = model.predict_proba(X)[:, order]
    # J48 predicts the first class (in the ARFF's order) among equally probable ones
    predicted = np.asarray(class_names)[np.argmax(j48.distribution, axis=1)]
    outcome = dict(j48_leaves=len(j48.leaves), treebook_leaves=len(ours),
                   leaves=_same_leaves(ours, j48.leaves),
                   distributions=bool(np.allclose(proba, j48.distribution, rtol=0, atol=1e-9)),
                   predictions=bool((model.predict(X) == predicted).all()))
    _OUTCOMES[(name, options, grower)] = outcome
    assert outcome["leaves"], (
        f"leaves differ\ntreebook:\n{model.export_text()}\nJ48:\n{j48.text}")
    assert outcome["distributions"]
    assert outcome["predictions"]
