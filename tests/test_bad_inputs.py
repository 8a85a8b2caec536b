"""Every public entry point, fed bad and awkward inputs: a correct result or an error
that names the argument (issue 12). Never an obscure crash, never a silent wrong answer.

Three layers:

* the probe catalogue of ``benchmarks/probe_inputs.py`` (every reproducer of the issue,
  over all five learners), each probe required to come out ``correct`` or ``clear``;
* a catalogue of bad inputs crossed with every entry point (the five learners' ``fit`` /
  ``predict`` / ``predict_proba`` / ``score``, the impurity measures, the pruning
  functions, the renderers and the explorers);
* hypothesis strategies for the awkward dtypes (nullable, categorical, datetime, mixed
  objects, float16/32, extreme magnitudes, zero weights) with properties that hold
  whatever is drawn.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.exceptions import NotFittedError

import treebook
from treebook.core import impurity as imp
from treebook.io import explorers, render, widgets
from treebook.prune.cost_complexity import cost_complexity_path, prune_ccp
from treebook.prune.error_based import prune_error_based
from treebook.prune.pessimistic import prune_pessimistic

# ============================================================================ the probes
_spec = importlib.util.spec_from_file_location(
    "probe_inputs", Path(__file__).resolve().parents[1] / "benchmarks" / "probe_inputs.py")
probes = importlib.util.module_from_spec(_spec)
sys.modules["probe_inputs"] = probes  # dataclasses look their module up
_spec.loader.exec_module(probes)


# The isolated probes (model files, many-level categories: a child process each, a few
# seconds for its start) are run by the script; their regression tests are
# tests/test_model_files.py, tests/test_consistency.py and the categorical benchmark's.
_IN_PROCESS = probes.select(isolated=False)


@pytest.mark.parametrize("p", _IN_PROCESS, ids=[p.name for p in _IN_PROCESS])
def test_probe_is_correct_or_a_clear_error(p):
    outcome, detail = probes.classify(p)
    assert outcome in ("correct", "clear"), f"{outcome}: {detail}"


def test_probe_classifier_can_fail():
    """The classifier itself tells a crash and a wrong answer from a right one."""
    crash = probes.Probe("crash", lambda: [][1], None, ("X",))
    wrong = probes.Probe("wrong", lambda: 2, lambda r: r == 3)
    vague = probes.Probe("vague", lambda: (_ for _ in ()).throw(ValueError("bad")), None,
                         ("sample_weight",))
    assert probes.classify(crash)[0] == "obscure"
    assert probes.classify(wrong)[0] == "wrong"
    assert probes.classify(vague)[0] == "obscure"


# ============================================================================ catalogue
ESTIMATORS = ["ID3Classifier", "C45Classifier", "CARTClassifier", "CARTRegressor",
              "CLSClassifier"]
rng = np.random.default_rng(0)
X = np.round(rng.normal(size=(40, 3)), 1)
Y_CLS = (X[:, 0] > 0).astype(int)
Y_REG = X[:, 0] * 2 + X[:, 1]


def _y(name):
    return Y_REG if name == "CARTRegressor" else Y_CLS


def _fitted(name):
    return getattr(treebook, name)().fit(X, _y(name))


class _Ragged:
    pass


BAD_X = {
    "None": (None, "X"),
    "a string": ("abc", "X"),
    "a scalar": (3.0, "X"),
    "1-D": (X[:, 0], "X"),
    "3-D": (X[:, :, None], "X"),
    "no rows": (np.zeros((0, 3)), "X"),
    "no columns": (np.zeros((40, 0)), "X"),
    "complex": (X + 1j, "X"),
    "lists in cells": (pd.DataFrame({"a": [[1]] * 40, "b": 1.0, "c": 2.0}), "holds a list"),
    "a Series": (pd.Series(X[:, 0]), "X"),
    "infinite values": (np.where(X > 1, np.inf, X), "X column"),
    "sparse": (None, "X"),  # filled below when scipy is present
    "an object": (_Ragged(), "X"),
}
try:
    from scipy import sparse

    BAD_X["sparse"] = (sparse.csr_matrix(X), "X")
except ImportError:  # pragma: no cover
    del BAD_X["sparse"]


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("case", list(BAD_X))
def test_bad_X_to_fit(name, case):
    if case == "sparse" and name.startswith("CART"):
        # CART accepts sparse X (tests/test_sparse.py): the same tree as the dense input
        sparse_fit = getattr(treebook, name)().fit(BAD_X[case][0], _y(name))
        np.testing.assert_array_equal(sparse_fit.predict(X), _fitted(name).predict(X))
        return
    bad, word = BAD_X[case]
    with pytest.raises((ValueError, TypeError), match=word):
        rows = getattr(bad, "shape", (40,))[0] if getattr(bad, "shape", ()) else 40
        getattr(treebook, name)().fit(bad, _y(name)[:rows])


def _has(name, methods):
    """(name, method) pairs for the methods the estimator has: a pair it lacks is not a test."""
    return [(name, m) for m in methods if hasattr(getattr(treebook, name), m)]


@pytest.mark.parametrize(("name", "method"), [
    pair for name in ESTIMATORS for pair in _has(name, ["predict", "predict_proba", "score",
                                                        "apply"])])
@pytest.mark.parametrize("case", [c for c in BAD_X if c not in ("no rows",)] +
                         ["too few columns"])
def test_bad_X_to_predict(name, method, case):
    m = _fitted(name)
    if case == "sparse" and name.startswith("CART"):
        # CART accepts sparse X (tests/test_sparse.py): the same answers as the dense rows
        sparse_X = BAD_X[case][0]
        if method == "score":
            assert m.score(sparse_X, _y(name)) == m.score(X, _y(name))
        elif hasattr(m, method):
            np.testing.assert_array_equal(getattr(m, method)(sparse_X), getattr(m, method)(X))
        return
    bad, word = (X[:, :2], "X has 2 features") if case == "too few columns" else BAD_X[case]
    call = getattr(m, method)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a DataFrame after numpy: names warn
        with pytest.raises((ValueError, TypeError), match=word):
            call(bad, _y(name)) if method == "score" else call(bad)


BAD_Y = {
    "None": (None, "y"),
    "a scalar": (1, "y"),
    "a string": ("ab", "y"),
    "wrong length": (np.arange(39), "y has 39"),
    "2 columns": (np.zeros((40, 2)), "y"),
    "NaN": (np.where(np.arange(40) == 3, np.nan, 1.0), "y"),
    "infinite": (np.where(np.arange(40) == 3, np.inf, 1.0), "y"),
    "complex": (np.ones(40) + 1j, "y"),
}
BAD_LABELS = {
    "str and int": ([1, "1"] * 20, "y mixes string"),
    "bool and int": (np.array([True, 2] * 20, dtype=object), "y mixes booleans"),
    "continuous": (np.linspace(0, 1, 40), "Unknown label type: continuous"),
}
BAD_TARGETS = {
    "text": (np.array(["a"] * 40, dtype=object), "y must hold numbers"),
    "booleans": (np.ones(40, dtype=bool), "y holds booleans"),
    "beyond 1e150": (np.full(40, 1e200) * np.arange(40), "y has values up to"),
}


@pytest.mark.parametrize(("name", "case"), [
    (name, case) for name in ESTIMATORS for case in list(BAD_Y) + (
        ["targets: " + c for c in BAD_TARGETS] if name == "CARTRegressor"
        else ["labels: " + c for c in BAD_LABELS])])
def test_bad_y_to_fit_and_score(name, case):
    if case.startswith("labels: "):
        bad, word = BAD_LABELS[case[8:]]
    elif case.startswith("targets: "):
        bad, word = BAD_TARGETS[case[9:]]
    else:
        bad, word = BAD_Y[case]
    with pytest.raises((ValueError, TypeError), match=word):
        getattr(treebook, name)().fit(X, bad)
    if case in ("wrong length", "2 columns", "None", "a scalar"):
        with pytest.raises((ValueError, TypeError), match="y"):
            _fitted(name).score(X, bad)


BAD_W = {
    "wrong length": (np.ones(3), "sample_weight"),
    "negative": (-np.ones(40), "sample_weight"),
    "NaN": (np.full(40, np.nan), "sample_weight"),
    "all zero": (np.zeros(40), "sample_weight"),
    "text": (["a"] * 40, "sample_weight"),
    "complex": (np.ones(40) + 1j, "sample_weight"),
    "overflowing total": (np.full(40, 1e308), "sample_weight"),
    "2-D": (np.ones((40, 1)), "sample_weight"),
}


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("case", list(BAD_W))
def test_bad_sample_weight(name, case):
    bad, word = BAD_W[case]
    with pytest.raises((ValueError, TypeError), match=word):
        getattr(treebook, name)().fit(X, _y(name), sample_weight=bad)
    with pytest.raises((ValueError, TypeError), match=word):
        _fitted(name).score(X, _y(name), sample_weight=bad)


@pytest.mark.parametrize(("name", "method"), [
    pair for name in ESTIMATORS for pair in _has(
        name, ["predict", "predict_proba", "score", "apply", "decision_path", "export_text",
               "to_rules", "to_graphviz", "get_depth", "get_n_leaves"])])
def test_unfitted_raises_not_fitted_error(name, method):
    m = getattr(treebook, name)()
    args = {"predict": (X,), "predict_proba": (X,), "score": (X, _y(name)), "apply": (X,),
            "decision_path": (X,)}.get(method, ())
    with pytest.raises(NotFittedError, match="not fitted"):
        getattr(m, method)(*args)


# ------------------------------------------------------------------ measures
NODE_MEASURES = ["entropy", "gini", "misclassification_error"]
SPLIT_MEASURES = ["conditional_entropy", "information_gain", "split_information",
                  "gain_ratio", "gini_index", "gini_gain", "conditional_log_likelihood",
                  "positive_class_score", "g_statistic", "g_test_dof", "g_test_pvalue"]
BAD_COUNTS = {
    "None": None, "text": "ab", "empty": [], "negative": [1, -1], "NaN": [np.nan, 1],
    "inf": [np.inf, 1], "complex": [1 + 1j, 1], "zero total": [0, 0], "dict": {"a": 1},
}


@pytest.mark.parametrize("fn", NODE_MEASURES)
@pytest.mark.parametrize("case", list(BAD_COUNTS))
def test_node_measures_refuse_bad_counts(fn, case):
    with pytest.raises((ValueError, TypeError), match="counts"):
        getattr(imp, fn)(BAD_COUNTS[case])


@pytest.mark.parametrize("fn", SPLIT_MEASURES)
@pytest.mark.parametrize("case", list(BAD_COUNTS) + ["1-D", "zero table"])
def test_split_measures_refuse_bad_tables(fn, case):
    bad = {"1-D": [1, 2], "zero table": [[0, 0], [0, 0]]}.get(case)
    if bad is None:
        bad = BAD_COUNTS[case]
        bad = [bad, bad] if isinstance(bad, list) and bad else bad
    with pytest.raises((ValueError, TypeError), match="counts_by_branch"):
        getattr(imp, fn)(bad)


@pytest.mark.parametrize("fn, want", [("entropy", 1.0), ("gini", 0.5),
                                      ("misclassification_error", 0.5)])
@pytest.mark.parametrize("scale", [1e-320, 1.0, 1e300, 1e308])
def test_node_measures_do_not_depend_on_scale(fn, want, scale):
    assert getattr(imp, fn)([scale, scale]) == pytest.approx(want)


@pytest.mark.parametrize("fn, want", [("information_gain", 1.0), ("gain_ratio", 1.0),
                                      ("split_information", 1.0), ("gini_gain", 0.5),
                                      ("conditional_entropy", 0.0), ("gini_index", 0.0),
                                      ("conditional_log_likelihood", 0.0)])
@pytest.mark.parametrize("scale", [1e-300, 1.0, 1e308])
def test_split_measures_do_not_depend_on_scale(fn, want, scale):
    t = np.array([[1.0, 0.0], [0.0, 1.0]]) * scale
    assert getattr(imp, fn)(t) == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("bad, word", [(["a"], "y"), ([[1.0, 2.0]], "y"), (None, "y"),
                                       ([], "y"), ([np.nan], "y"), ([True, False], "y"),
                                       ([1e200, -1e200], "y")])
def test_variance_refuses(bad, word):
    with pytest.raises((ValueError, TypeError), match=word):
        imp.variance(bad)


def test_variance_of_large_and_weighted_values():
    assert imp.variance([1e150, -1e150]) == pytest.approx(1e300)
    assert imp.variance([1.0, 3.0], sample_weight=[1e308, 1e308]) == pytest.approx(1.0)


@pytest.mark.parametrize("bad", [[1, "1"], [1, True], ["a", 2.5], None, 3])
def test_class_counts_refuses_mixed_or_missing_labels(bad):
    with pytest.raises((ValueError, TypeError), match="y"):
        imp.class_counts(bad)


# ------------------------------------------------------------------ pruning, render, explorers
TREE = treebook.CARTClassifier(max_depth=3).fit(X, Y_CLS).tree_
REG_TREE = treebook.CARTRegressor(max_depth=3).fit(X, Y_REG).tree_
NOT_TREES = {"None": None, "an estimator": treebook.CARTClassifier().fit(X, Y_CLS),
             "an array": np.zeros(3), "a string": "tree"}


@pytest.mark.parametrize("fn", [
    lambda t: prune_ccp(t, 0.01), cost_complexity_path, prune_pessimistic,
    lambda t: prune_error_based(t, subtree_raising=False), render.export_text,
    render.to_graphviz, render.to_rules])
@pytest.mark.parametrize("case", list(NOT_TREES))
def test_functions_of_a_tree_refuse_non_trees(fn, case):
    with pytest.raises((TypeError, ValueError), match="tree"):
        fn(NOT_TREES[case])


@pytest.mark.parametrize("call, word", [
    (lambda: prune_ccp(TREE, -1.0), "alpha"), (lambda: prune_ccp(TREE, np.nan), "alpha"),
    (lambda: prune_ccp(TREE, "x"), "alpha"),
    (lambda: cost_complexity_path(TREE, risk="x"), "risk"),
    (lambda: cost_complexity_path(REG_TREE, risk="misclassification"), "risk"),
    (lambda: prune_pessimistic(REG_TREE), "classification"),
    (lambda: prune_error_based(REG_TREE, subtree_raising=False), "classification"),
    (lambda: prune_error_based(TREE, subtree_raising=False, confidence=2.0), "confidence"),
    (lambda: prune_error_based(TREE), "X and y"),
    (lambda: render.export_text(TREE, max_depth=-1), "max_depth"),
    (lambda: render.export_text(TREE, max_depth=1.5), "max_depth"),
    (lambda: render.to_graphviz(TREE, max_depth="x"), "max_depth"),
    (lambda: render.to_graphviz(TREE, rankdir="XY"), "rankdir"),
])
def test_pruning_and_render_arguments(call, word):
    with pytest.raises((TypeError, ValueError), match=word):
        call()


@pytest.mark.parametrize("explorer", [widgets.depth_explorer, explorers.confidence_explorer,
                                      explorers.alpha_explorer])
@pytest.mark.parametrize("case, estimator", [("None", None),
                                             ("a class", treebook.CARTClassifier),
                                             ("a string", "CART")])
def test_explorers_refuse_non_estimators(explorer, case, estimator):
    with pytest.raises(TypeError, match="estimator"):
        explorer(estimator, X, Y_CLS, X, Y_CLS)


@pytest.mark.parametrize("explorer, est", [
    (widgets.depth_explorer, treebook.ID3Classifier()),
    (explorers.confidence_explorer, treebook.C45Classifier()),
    (explorers.alpha_explorer, treebook.CARTClassifier())])
def test_explorers_refuse_bad_data(explorer, est):
    with pytest.raises(ValueError, match="y"):
        explorer(est, X, Y_CLS, X, Y_CLS[:-1])
    with pytest.raises(ValueError, match="X"):
        explorer(est, X, Y_CLS, X[:, :2], Y_CLS)


# ============================================================================ hypothesis
N_ROWS = 24


def _column(kind, data):
    """One awkward column of N_ROWS values, drawn by ``data``."""
    if kind == "nullable Int64":
        vals = data.draw(st.lists(st.one_of(st.none(), st.integers(-5, 5)), min_size=N_ROWS,
                                  max_size=N_ROWS))
        return pd.array(vals, dtype="Int64")
    if kind == "nullable Float64":
        vals = data.draw(st.lists(st.one_of(st.none(), st.floats(-10, 10)), min_size=N_ROWS,
                                  max_size=N_ROWS))
        return pd.array(vals, dtype="Float64")
    if kind == "categorical":
        vals = data.draw(st.lists(st.sampled_from(["lo", "mid", "hi"]), min_size=N_ROWS,
                                  max_size=N_ROWS))
        return pd.Categorical(vals, categories=["lo", "mid", "hi", "unused"])
    if kind == "datetime":
        days = data.draw(st.lists(st.integers(0, 3000), min_size=N_ROWS, max_size=N_ROWS))
        return pd.Timestamp("2015-06-01") + pd.to_timedelta(days, unit="D")
    if kind == "timedelta":
        mins = data.draw(st.lists(st.integers(0, 10_000), min_size=N_ROWS, max_size=N_ROWS))
        return pd.to_timedelta(mins, unit="min")
    if kind == "mixed objects":
        vals = data.draw(st.lists(st.one_of(st.sampled_from(["a", "b"]), st.integers(0, 2),
                                            st.none()), min_size=N_ROWS, max_size=N_ROWS))
        return pd.Series(vals, dtype=object)
    if kind == "float16":
        return np.asarray(data.draw(st.lists(st.floats(-100, 100, width=16), min_size=N_ROWS,
                                             max_size=N_ROWS)), dtype=np.float16)
    if kind == "float32":
        return np.asarray(data.draw(st.lists(st.floats(-1e6, 1e6, width=32), min_size=N_ROWS,
                                             max_size=N_ROWS)), dtype=np.float32)
    if kind == "extreme magnitudes":
        return np.asarray(data.draw(st.lists(st.floats(-1e300, 1e300), min_size=N_ROWS,
                                             max_size=N_ROWS)))
    raise AssertionError(kind)  # pragma: no cover


KINDS = ["nullable Int64", "nullable Float64", "categorical", "datetime", "timedelta",
         "mixed objects", "float16", "float32", "extreme magnitudes"]
WORDS = ("X", "y", "sample_weight", "column")
HYP = settings(max_examples=15, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@HYP
@given(data=st.data(), name=st.sampled_from(ESTIMATORS), kind=st.sampled_from(KINDS),
       zero_weights=st.booleans())
def test_awkward_columns_fit_and_predict_or_refuse_clearly(data, name, kind, zero_weights):
    frame = pd.DataFrame({"a": _column(kind, data),
                          "b": np.arange(N_ROWS) % 3})
    y = (np.arange(N_ROWS) % 2 if name != "CARTRegressor"
         else np.arange(N_ROWS, dtype=float))
    w = np.where(np.arange(N_ROWS) % 5 == 0, 0.0, 1.0) if zero_weights else None
    m = getattr(treebook, name)()
    try:
        m.fit(frame, y, sample_weight=w)
    except (ValueError, TypeError) as exc:
        assert any(word in str(exc) for word in WORDS), str(exc)
        return
    pred = m.predict(frame)
    assert pred.shape == (N_ROWS,)
    if name == "CARTRegressor":
        assert np.all(np.isfinite(pred))
    else:
        assert set(np.unique(pred)) <= set(m.classes_)
        proba = m.predict_proba(frame)
        assert np.allclose(proba.sum(axis=1), 1.0)
    assert isinstance(m.export_text(), str)


@HYP
@given(data=st.data(), name=st.sampled_from(ESTIMATORS))
def test_zero_weights_count_as_absent(data, name):
    x = np.asarray(data.draw(st.lists(st.integers(0, 5), min_size=N_ROWS, max_size=N_ROWS)),
                   dtype=float)
    X2 = np.column_stack([x, np.arange(N_ROWS) % 4])
    y = (x > 2).astype(int) if name != "CARTRegressor" else x * 1.5
    w = np.asarray(data.draw(st.lists(st.sampled_from([0.0, 1.0]), min_size=N_ROWS,
                                      max_size=N_ROWS)))
    if w.sum() == 0:
        w[0] = 1.0
    est = getattr(treebook, name)
    weighted = est().fit(X2, y, sample_weight=w)
    keep = w > 0
    if name != "CARTRegressor" and len(np.unique(y[keep])) < len(np.unique(y)):
        return  # a class seen only with weight 0: classes_ differ by construction
    dropped = est().fit(X2[keep], y[keep])
    assert np.array_equal(weighted.predict(X2), dropped.predict(X2))


@HYP
@given(data=st.data(), name=st.sampled_from(ESTIMATORS))
def test_float32_is_looked_up_by_value(data, name):
    x = np.round(np.asarray(data.draw(st.lists(st.floats(0, 1), min_size=N_ROWS,
                                               max_size=N_ROWS))), 2)
    X1 = x[:, None]
    y = (x > 0.5).astype(int) if name != "CARTRegressor" else x * 3
    m = getattr(treebook, name)().fit(X1, y)
    assert np.array_equal(m.predict(X1.astype(np.float32)), m.predict(X1))


@HYP
@given(data=st.data(), name=st.sampled_from(ESTIMATORS),
       scale=st.sampled_from([2.0 ** -830, 2.0 ** -130, 2.0 ** 130, 2.0 ** 660]))
def test_scaling_weights_keeps_scale_free_trees(data, name, scale):
    # powers of 2, so that the scaled weights are exactly proportional (a decimal factor
    # rounds each weight, which may flip a tie); without the rescaling in fit, squares
    # of such weights overflow or underflow and the trees differ
    if name == "C45Classifier":
        return  # C4.5's weights count cases (minimum cases, pruning), as in J48
    w = np.asarray(data.draw(st.lists(st.floats(0.5, 2.0), min_size=N_ROWS, max_size=N_ROWS)))
    X2 = np.column_stack([np.arange(N_ROWS) % 7, np.arange(N_ROWS) % 3]).astype(float)
    y = (np.arange(N_ROWS) % 7 > 3).astype(int) if name != "CARTRegressor" else \
        np.arange(N_ROWS) % 7 * 1.0
    est = getattr(treebook, name)
    a = est().fit(X2, y, sample_weight=w)
    b = est().fit(X2, y, sample_weight=w * scale)
    assert np.array_equal(a.tree_.feature, b.tree_.feature)
    assert np.allclose(a.tree_.threshold, b.tree_.threshold, equal_nan=True)
    assert np.allclose(b.tree_.weighted_n / scale, a.tree_.weighted_n)


@HYP
@given(data=st.data(), name=st.sampled_from(ESTIMATORS))
def test_dates_are_ordered_numbers(data, name):
    days = np.asarray(data.draw(st.lists(st.integers(0, 500), min_size=N_ROWS,
                                         max_size=N_ROWS)))
    dates = pd.Timestamp("2021-01-01") + pd.to_timedelta(days, unit="D")
    ns = dates.to_numpy("datetime64[ns]").view(np.int64)
    y = (days > 250).astype(int) if name != "CARTRegressor" else days * 1.0
    est = getattr(treebook, name)
    m = est().fit(pd.DataFrame({"d": dates}), y)
    ref = est().fit(pd.DataFrame({"d": ns}), y)
    probe_days = pd.Timestamp("2021-01-01") + pd.to_timedelta(np.arange(0, 500, 7) + 0.5,
                                                              unit="D")
    assert np.array_equal(
        m.predict(pd.DataFrame({"d": probe_days})),
        ref.predict(pd.DataFrame({"d": probe_days.to_numpy("datetime64[ns]").view(np.int64)})))
