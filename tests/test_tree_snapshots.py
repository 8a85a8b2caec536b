"""Every learner's fitted tree on every bundled data set, pinned bit for bit.

The digests in ``tests/snapshots/trees.json`` were recorded before the seams refactor
(issue 10) from the code as it was then (those of ``adult``, bundled later, after it); a refactor that is meant to change no tree must
leave every digest as it is. A digest covers every array of the fitted ``Tree`` (dtype,
shape and bytes), the class probabilities the estimator predicts on its training rows
(which exercises prediction-time routing, fractional for C4.5) and, for CART, the
cost-complexity pruning path. A change that is *meant* to change trees regenerates the
file with ``TREEBOOK_UPDATE_SNAPSHOTS=1 pytest tests/test_tree_snapshots.py`` and says
which digests moved and why.

The digests hash every bit of the impurities, so they depend on the logarithm numpy runs:
on a CPU with AVX-512 (SKX) numpy's ``log``/``log2`` are SVML's vector routines, elsewhere
the C library's, and the two differ in the last bit for some arguments. ``trees.json`` was
recorded with AVX-512; ``trees_without_avx512.json`` holds, for the cases whose digest
differs without it (only the learners that take logarithms: entropy, the likelihood score
and C4.5's gain ratio on the larger sets), the digest the same code gives with the C
library's logarithm — recorded from the code of ``trees.json`` on such a machine, never
from a changed tree. A case passes with either digest; updating on a machine without
AVX-512 writes only the second file.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets as skd

from treebook import CARTClassifier, CARTRegressor, C45Classifier, CLSClassifier, ID3Classifier
from treebook import datasets as tbd

SNAPSHOT = Path(__file__).parent / "snapshots" / "trees.json"
SNAPSHOT_PLAIN_LOG = SNAPSHOT.with_name("trees_without_avx512.json")


def _numpy_uses_svml_log() -> bool:
    """Whether numpy dispatches float64 ``log`` to its AVX-512 (SVML) loops on this CPU."""
    from numpy._core._multiarray_umath import __cpu_features__

    return bool(__cpu_features__.get("AVX512_SKX"))
FIELDS = ("kind", "feature", "threshold", "children_ptr", "children", "code_ptr",
          "branch_of_code", "parent", "depth", "value", "weighted_n", "n_samples", "impurity")


def _digest_arrays(h, arrays):
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())


def tree_digest(est, X) -> str:
    t = est.tree_
    h = hashlib.sha256()
    _digest_arrays(h, [getattr(t, name) for name in FIELDS])
    h.update(repr((t.is_regression, t.feature_names)).encode())
    pred = est.predict_proba(X) if hasattr(est, "predict_proba") else est.predict(X)
    _digest_arrays(h, [np.asarray(pred, dtype=float)])
    if hasattr(est, "cost_complexity_pruning_path"):
        from treebook.prune.cost_complexity import cost_complexity_path

        path = cost_complexity_path(est.tree_, risk=est.ccp_risk)
        _digest_arrays(h, [path.ccp_alphas, path.impurities, path.pruned])
    return h.hexdigest()[:24]


def _sk(loader):
    def load():
        d = loader(as_frame=True)
        return d.data, d.target
    return load


DATA = {
    "loan": lambda: tbd.load_loan(return_X_y=True),
    "play_tennis": lambda: tbd.load_play_tennis(return_X_y=True),
    "golf": lambda: tbd.load_golf(return_X_y=True),
    "hmda": lambda: tbd.load_hmda(return_X_y=True),
    "monica": lambda: tbd.load_monica(return_X_y=True),
    "credit": lambda: tbd.load_credit(return_X_y=True),
    # the first 2,000 training rows of UCI Adult (all of it would take minutes per learner)
    "adult": lambda: tuple(part.iloc[:2000].reset_index(drop=True)
                           for part in tbd.load_adult(return_X_y=True)),
    "iris": _sk(skd.load_iris),
    "wine": _sk(skd.load_wine),
    "breast_cancer": _sk(skd.load_breast_cancer),
}
REGRESSION = {"diabetes": _sk(skd.load_diabetes)}


def _complete(X, y):
    """Rows without a missing value (for the learners that reject them)."""
    keep = ~X.isna().any(axis=1).to_numpy() & ~pd.isna(np.asarray(y))
    return X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)


LEARNERS = {
    "id3": (lambda: ID3Classifier(max_depth=6), False),
    "c45_ebp": (lambda: C45Classifier(), True),
    "c45_ebp_noraise": (lambda: C45Classifier(subtree_raising=False), True),
    "c45_pep": (lambda: C45Classifier(pruning="pep"), True),
    "c45_unpruned": (lambda: C45Classifier(pruning=None), True),
    "cart_gini": (lambda: CARTClassifier(), False),
    "cart_entropy": (lambda: CARTClassifier(criterion="entropy"), False),
    "cart_gini_recursive": (lambda: CARTClassifier(grower="recursive", min_samples_leaf=3), False),
    "cart_misclass_alpha": (lambda: CARTClassifier(ccp_alpha=0.01, ccp_risk="misclassification"), False),
    "cls_likelihood": (lambda: CLSClassifier(max_depth=8), False),
    "cls_positive": (lambda: CLSClassifier(score="positive_class", max_depth=5, significance=0.05), False),
}
REGRESSORS = {
    "cart_regressor": lambda: CARTRegressor(min_samples_leaf=5),
    "cart_regressor_recursive": lambda: CARTRegressor(grower="recursive", max_depth=6),
    "cart_regressor_alpha": lambda: CARTRegressor(ccp_alpha=50.0),
}

_cache: dict = {}


def _data(name):
    if name not in _cache:
        _cache[name] = (DATA | REGRESSION)[name]()
    return _cache[name]


def _cases():
    for d in DATA:
        for learner in LEARNERS:
            yield f"{learner}/{d}"
    for d in REGRESSION:
        for learner in REGRESSORS:
            yield f"{learner}/{d}"


def compute(case: str) -> str:
    learner, data = case.split("/")
    X, y = _data(data)
    if learner in REGRESSORS:
        est = REGRESSORS[learner]()
    else:
        make, missing_ok = LEARNERS[learner]
        est = make()
        if not missing_ok:
            X, y = _complete(X, y)
        if learner == "cls_positive" and y.nunique() != 2:
            est.set_params(positive_class=sorted(y.unique())[0])
    est.fit(X, y)
    return tree_digest(est, X)


CASES = list(_cases())


def _read(path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def _accepted(case) -> set:
    """The digests the case may have: the main file's, and for a log-taking learner the
    one recorded with the C library's logarithm. Both are accepted whatever this CPU
    reports, because which logarithm numpy dispatches to is numpy's choice, not the
    package's; a changed tree matches neither."""
    return {d for d in (_read(SNAPSHOT).get(case), _read(SNAPSHOT_PLAIN_LOG).get(case)) if d}


def _record(case, got):
    if _numpy_uses_svml_log():
        path, entries = SNAPSHOT, _read(SNAPSHOT)
    else:
        path, entries = SNAPSHOT_PLAIN_LOG, _read(SNAPSHOT_PLAIN_LOG)
        if _read(SNAPSHOT).get(case) == got:
            entries.pop(case, None)
            got = None
    if got is not None:
        entries[case] = got
    path.write_text(json.dumps(dict(sorted(entries.items())), indent=1) + "\n")


@pytest.mark.parametrize("case", CASES)
def test_tree_unchanged(case):
    got = compute(case)
    if os.environ.get("TREEBOOK_UPDATE_SNAPSHOTS"):
        _record(case, got)
        return
    accepted = _accepted(case)
    assert accepted, f"no snapshot for {case}; record it with TREEBOOK_UPDATE_SNAPSHOTS=1"
    assert got in accepted, f"{case}: the fitted tree changed"


def test_plain_log_digests_only_for_learners_that_take_logarithms():
    """The second file may only hold cases whose learner takes a logarithm (a Gini or
    variance tree does not depend on it), each also in the main file."""
    main, plain = _read(SNAPSHOT), _read(SNAPSHOT_PLAIN_LOG)
    log_learners = {"cart_entropy", "cls_likelihood", "cls_positive", "id3", "c45_ebp",
                    "c45_ebp_noraise", "c45_pep", "c45_unpruned"}
    for case in plain:
        assert case in main, case
        assert case.split("/")[0] in log_learners, case
