"""treebook's C4.5 against Weka's J48 on cases neither has seen.

``test_j48.py`` compares the class distributions J48 gives its own training cases. Cases
outside the training set take paths training cases never take: a category that did not
occur at a node (J48 keeps an empty leaf for it and answers the parent's distribution
there; treebook stores no branch and answers the node's), an unknown value that meets a
test grown without unknowns, a numeric value between the cuts. Here each of Weka's ARFF
files is split by index (every third case held out, as ``J48Oracle``'s ``HOLDOUT`` job
does), both programs train on the rest, and the held-out cases' distributions must be
J48's to 1e-9, for the option sets whose semantics differ on unseen cases.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from treebook import C45Classifier

from .test_j48 import DATASETS, OPTIONS
from .weka import EXAMPLES, WEKA_JAR, read_arff, run_j48

BUILD = Path(__file__).resolve().parents[2] / "_build" / "oracles"

#: defaults, unpruned, Laplace leaves, binary categorical splits, no subtree raising
HOLDOUT_OPTIONS = ["-C 0.25 -M 2", "-U -M 2", "-C 0.25 -M 2 -A", "-C 0.25 -M 2 -B",
                   "-C 0.25 -M 2 -S"]
JOBS = [pytest.param(name, opt, id=f"{name}[{opt}]") for name in DATASETS
        for opt in HOLDOUT_OPTIONS]

pytestmark = pytest.mark.skipif(not WEKA_JAR.exists(),
                                reason="Weka is not installed: run `make crosscheck`")


@pytest.fixture(scope="module")
def j48_holdout():
    keys = [p.values for p in JOBS]
    results = run_j48([(EXAMPLES / f"{name}.arff", f"{opt}\tHOLDOUT") for name, opt in keys],
                      BUILD)
    return dict(zip(keys, results))


def test_every_option_set_is_one_of_the_oracles():
    assert set(HOLDOUT_OPTIONS) <= set(OPTIONS)


@pytest.mark.parametrize("name, options", JOBS)
def test_held_out_distributions_are_j48s(j48_holdout, name, options):
    j48 = j48_holdout[(name, options)]
    X, y, class_names = read_arff(EXAMPLES / f"{name}.arff", BUILD)
    test = np.arange(len(X)) % 3 == 0
    model = C45Classifier(**OPTIONS[options]).fit(X[~test], y[~test])
    assert j48.distribution.shape == (int(test.sum()), len(class_names))
    order = [list(model.classes_).index(c) if c in model.classes_ else -1
             for c in class_names]
    proba = np.zeros((int(test.sum()), len(class_names)))
    got = model.predict_proba(X[test])
    for k, j in enumerate(order):
        if j >= 0:
            proba[:, k] = got[:, j]
    worst = np.abs(proba - j48.distribution).max(axis=1)
    bad = np.flatnonzero(worst > 1e-9)
    assert bad.size == 0, (
        f"{bad.size} of {test.sum()} held-out cases differ (first: case "
        f"{np.flatnonzero(test)[bad[0]]}, treebook {proba[bad[0]]}, J48 "
        f"{j48.distribution[bad[0]]})\ntreebook:\n{model.export_text()}\nJ48:\n{j48.text}")
