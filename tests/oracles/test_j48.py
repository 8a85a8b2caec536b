"""treebook's C4.5 against Weka's J48 on Weka's own ARFF examples.

For every data set and option set, J48 (run in one JVM by ``J48Oracle.java``) and
``C45Classifier`` are fitted on the whole file; they must build the same tree: the same
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

#: Known differences, each checked to still differ (strict): J48's subtree raising on
#: soybean (19 classes, many unknown values) keeps a different set of leaves at CF 0.25
#: and 0.1; with -S (no raising) and unpruned the trees are equal, so the difference is
#: in how raising re-distributes fractional cases. Not yet explained.
KNOWN_DIFFERENCES = {("soybean", "-C 0.25 -M 2"), ("soybean", "-C 0.1 -M 2"),
                     ("soybean", "-C 0.25 -M 2 -A"), ("soybean", "-C 0.25 -M 2 -B")}

JOBS = [pytest.param(name, opt, id=f"{name}[{opt}]",
                     marks=[pytest.mark.xfail(strict=True, reason="J48 raising on soybean")]
                     if (name, opt) in KNOWN_DIFFERENCES else [])
        for name in DATASETS for opt in OPTIONS]

pytestmark = pytest.mark.skipif(not WEKA_JAR.exists(),
                                reason="Weka is not installed: run `make crosscheck`")


@pytest.fixture(scope="module")
def j48_results():
    keys = [p.values for p in JOBS]
    results = run_j48([(EXAMPLES / f"{name}.arff", opt) for name, opt in keys], BUILD)
    return dict(zip(keys, results))


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


@pytest.mark.parametrize("name, options", JOBS)
def test_c45_builds_j48s_tree(j48_results, name, options):
    j48 = j48_results[(name, options)]
    X, y, class_names = read_arff(EXAMPLES / f"{name}.arff", BUILD)
    model = C45Classifier(**OPTIONS[options]).fit(X, y)
    assert _same_leaves(_treebook_leaves(model), j48.leaves), (
        f"leaves differ\ntreebook:\n{model.export_text()}\nJ48:\n{j48.text}")
    order = [list(model.classes_).index(c) for c in class_names]
    proba = model.predict_proba(X)[:, order]
    assert np.allclose(proba, j48.distribution, rtol=0, atol=1e-9)
    # J48 predicts the first class (in the ARFF's order) among equally probable ones
    predicted = np.asarray(class_names)[np.argmax(j48.distribution, axis=1)]
    assert (model.predict(X) == predicted).all()
