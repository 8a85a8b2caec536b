"""Probe every public entry point with the awkward inputs of issue 12, and classify.

Each probe is one call (or a short sequence of calls) with a stated expectation. Its
outcome is one of

* ``correct``  — it returned, and the result is what it should be;
* ``clear``    — it raised ``ValueError``/``TypeError`` (or scikit-learn's
  ``NotFittedError``) whose message names the argument at fault;
* ``obscure``  — it raised anything else, an error that does not name the argument, or
  an error where the issue asks for a result;
* ``wrong``    — it returned, silently, something that is not right (or without the
  warning the probe asks for);

and, for the probes run in a process of their own (``isolate=True``: untrusted model
files, many-level categories — issue 22), also

* ``segfault`` — the process died of a signal (SIGSEGV; ``crash`` for another signal);
* ``hang``     — it did not finish within the probe's timeout (the process is killed);
* ``memory``   — it ran out of the address space allowed (``RLIMIT_AS``: the process's
  size after its imports plus :data:`HEADROOM`).

Every probe belongs to a family (``issue12`` for the first catalogue; issue 22's are
``model_files``, ``categories``, ``concurrency``, ``labels``, ``forest``, ``pruning``,
``predict_types``, ``max_depth``, ``to_json``).

Run ``python benchmarks/probe_inputs.py`` (``-v`` lists every probe; ``--families a,b``
runs only those; ``--csv PATH`` writes every outcome, under a header with the command,
commit, date and load average; ``--compare BEFORE.csv AFTER.csv`` prints the markdown
table of outcome counts per family of issue 22). The probes tolerate older versions of the package (a
name that does not exist yet is an error of the probe's call, classified like any
other), so the same script measures the code before and after a fix:
``PYTHONPATH=<old tree>/src python benchmarks/probe_inputs.py --csv before.csv``.

The test module ``tests/test_bad_inputs.py`` runs the in-process probes and requires
``correct`` or ``clear`` of every one; the isolated probes (a few seconds each, for the
process start) are left to this script and to their regression tests
(``tests/test_model_files.py``, ``tests/test_render_scale.py``,
``tests/test_cart_subsets.py``, ``tests/test_bench_categorical_levels_smoke.py``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

import treebook
from treebook.core import impurity as imp
from treebook.io import render

CLASSIFIERS = ["ID3Classifier", "C45Classifier", "CARTClassifier", "CLSClassifier"]
REGRESSORS = ["CARTRegressor"]
ESTIMATORS = CLASSIFIERS + REGRESSORS


def make(name, **kw):
    return getattr(treebook, name)(**kw)


@dataclass
class Probe:
    name: str
    run: Callable            # () -> result (raises to signal an error)
    check: Callable | None   # result -> bool; None: an error is expected
    names: tuple = ()        # words a clear error must contain (any of them)
    must_succeed: bool = False  # an error is not acceptable (the issue asks for a result)
    warn: type | None = None  # a warning of this category must be emitted
    family: str = "issue12"
    isolate: bool = False    # run in a child process (segfault, hang, memory bomb)
    timeout: float = 60.0    # seconds, for an isolated probe


def classify(p: Probe) -> tuple[str, str]:
    from sklearn.exceptions import NotFittedError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = p.run()
        except Exception as exc:  # noqa: BLE001 — classifying is the point
            msg = f"{type(exc).__name__}: {exc}"
            if p.must_succeed:
                return "obscure", msg
            if "NotFitted" in p.names:
                return ("clear" if isinstance(exc, NotFittedError) else "obscure"), msg
            named = not p.names or any(n.lower() in str(exc).lower() for n in p.names)
            if isinstance(exc, (ValueError, TypeError)) and named:
                return "clear", msg
            return "obscure", msg
    if p.check is None:
        return "wrong", f"returned {result!r:.120}"
    try:
        ok = bool(p.check(result))
    except Exception as exc:  # noqa: BLE001
        return "wrong", f"check failed: {type(exc).__name__}: {exc}"
    if ok and p.warn is not None and not any(issubclass(w.category, p.warn) for w in caught):
        return "wrong", f"no {p.warn.__name__} emitted"
    return ("correct", "") if ok else ("wrong", f"returned {result!r:.120}")


# ============================================================================ data
rng = np.random.default_rng(0)
N = 60
XNUM = np.round(rng.normal(size=(N, 3)), 1)
YCLS = (XNUM[:, 0] + 0.5 * XNUM[:, 1] > 0).astype(int)
YREG = XNUM[:, 0] * 2.0 + XNUM[:, 1] + 0.1 * rng.normal(size=N)


def y_for(name):
    return YREG if name in REGRESSORS else YCLS


def same_predictions(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return a.shape == b.shape and np.allclose(a.astype(float), b.astype(float),
                                                  rtol=1e-9, atol=0)
    return a.shape == b.shape and bool(np.all(a == b))


def same_tree(t1, t2):
    return (t1.node_count == t2.node_count and np.array_equal(t1.feature, t2.feature)
            and np.allclose(t1.threshold, t2.threshold, equal_nan=True))


PROBES: list[Probe] = []
FAMILY = "issue12"  # the family of the probes being declared


def probe(name, check=None, names=(), must_succeed=False, warn=None, isolate=False,
          timeout=60.0):
    def deco(fn):
        PROBES.append(Probe(name, fn, check, tuple(names), must_succeed, warn, FAMILY,
                            isolate, timeout))
        return fn
    return deco


# ------------------------------------------------------------------ zero sample weights
for _e in ESTIMATORS:
    def _zero_cat(e=_e):
        X = [["a"], ["b"], ["c"], ["a"], ["b"], ["c"]]
        y = [0, 1, 0, 0, 1, 0] if e in CLASSIFIERS else [0.0, 1.0, 0.0, 0.0, 1.0, 0.0]
        w = [1, 1, 0, 1, 1, 0]
        m = make(e).fit(X, y, sample_weight=w)
        ref = make(e).fit([r for r, wi in zip(X, w) if wi], [v for v, wi in zip(y, w) if wi])
        return same_predictions(m.predict([["a"], ["b"]]), ref.predict([["a"], ["b"]]))
    probe(f"{_e}: zero weights on a whole category", check=bool, must_succeed=True)(_zero_cat)

    def _zero_equiv(e=_e):
        r = np.random.default_rng(1)
        w = r.integers(0, 3, size=N)
        m = make(e).fit(XNUM, y_for(e), sample_weight=w)
        keep = np.repeat(np.arange(N), w)
        ref = make(e).fit(XNUM[keep], y_for(e)[keep])
        ok = same_predictions(m.predict(XNUM), ref.predict(XNUM))
        if e in CLASSIFIERS:
            ok &= same_predictions(m.predict_proba(XNUM), ref.predict_proba(XNUM))
        return ok
    probe(f"{_e}: integer weights with zeros = repeated rows", check=bool,
          must_succeed=True)(_zero_equiv)

# ------------------------------------------------------------------ 1e308 weights
for _e in ESTIMATORS:
    def _huge_w(e=_e):
        m = make(e).fit(XNUM, y_for(e), sample_weight=np.full(N, 1e308))
        p = m.predict(XNUM)
        if e == "C45Classifier":  # weights are J48's case units: only sanity is asked
            pr = m.predict_proba(XNUM)
            return np.all(np.isfinite(pr)) and np.allclose(pr.sum(axis=1), 1)
        return same_predictions(p, make(e).fit(XNUM, y_for(e)).predict(XNUM))
    probe(f"{_e}: sample_weight = 1e308 everywhere", check=bool, names=("sample_weight",))(_huge_w)

# ------------------------------------------------------------------ y None / __array__ only
class ArrayOnly:
    def __init__(self, a):
        self._a = np.asarray(a)

    def __array__(self, dtype=None, copy=None):
        return self._a if dtype is None else self._a.astype(dtype)


for _e in ESTIMATORS:
    probe(f"{_e}: y=None", names=("y",))(lambda e=_e: make(e).fit(XNUM, None))

    def _arr_only(e=_e):
        m = make(e).fit(XNUM, ArrayOnly(y_for(e)))
        return same_predictions(m.predict(XNUM), make(e).fit(XNUM, y_for(e)).predict(XNUM))
    probe(f"{_e}: y with only __array__", check=bool, must_succeed=True)(_arr_only)

    def _score_arr_only(e=_e):
        m = make(e).fit(XNUM, y_for(e))
        return np.isclose(m.score(XNUM, ArrayOnly(y_for(e))), m.score(XNUM, y_for(e)))
    probe(f"{_e}: score with y having only __array__", check=bool,
          must_succeed=True)(_score_arr_only)

# ------------------------------------------------------------------ dates and durations
DAYS = np.arange(40)
DATES = pd.Timestamp("2020-01-01") + pd.to_timedelta(DAYS, unit="D")
YDATE = (DAYS >= 20).astype(int)
NEW_DATES = pd.Timestamp("2020-01-01") + pd.to_timedelta(DAYS + 0.5, unit="D")


def _ns(values):
    """int64 nanoseconds of dates or durations, whatever their resolution."""
    arr = np.asarray(values)
    return arr.astype(f"{arr.dtype.str[1]}8[ns]".replace("M8", "datetime64").replace(
        "m8", "timedelta64")).view(np.int64)


def _temporal_probe(e, train_col, test_col, ns_train, ns_test):
    ns_train, ns_test = _ns(ns_train), _ns(ns_test)
    y = YDATE if e in CLASSIFIERS else YDATE.astype(float)
    m = make(e).fit(train_col, y)
    ref = make(e).fit(pd.DataFrame({"d": ns_train}), y)
    return same_predictions(m.predict(test_col), ref.predict(pd.DataFrame({"d": ns_test})))


for _e in ESTIMATORS:
    probe(f"{_e}: pandas datetime64 column, unseen dates", check=bool, must_succeed=True)(
        lambda e=_e: _temporal_probe(
            e, pd.DataFrame({"d": DATES}), pd.DataFrame({"d": NEW_DATES}),
            DATES, NEW_DATES))
    probe(f"{_e}: numpy datetime64 matrix, unseen dates", check=bool, must_succeed=True)(
        lambda e=_e: _temporal_probe(
            e, DATES.to_numpy()[:, None], NEW_DATES.to_numpy()[:, None],
            DATES, NEW_DATES))
    probe(f"{_e}: pandas timedelta column, unseen durations", check=bool, must_succeed=True)(
        lambda e=_e: _temporal_probe(
            e, pd.DataFrame({"d": pd.to_timedelta(DAYS, unit="D")}),
            pd.DataFrame({"d": pd.to_timedelta(DAYS + 0.5, unit="D")}),
            pd.to_timedelta(DAYS, unit="D"), pd.to_timedelta(DAYS + 0.5, unit="D")))


def _date_text():
    m = treebook.CARTClassifier().fit(pd.DataFrame({"d": DATES}), YDATE)
    text = m.export_text() + "\n".join(map(str, m.to_rules()))
    return "2020-01-2" in text and "e+18" not in text


probe("CARTClassifier: date thresholds read as dates in text and rules",
      check=bool, must_succeed=True)(_date_text)


def _date_graph():
    m = treebook.C45Classifier(min_samples_leaf=1).fit(pd.DataFrame({"d": DATES}), YDATE)
    src = m.to_graphviz().source
    return "2020-01-" in src and "e+18" not in src


probe("C45Classifier: date thresholds read as dates in a drawing",
      check=bool, must_succeed=True)(_date_graph)


def _delta_text():
    m = treebook.CARTRegressor().fit(pd.DataFrame({"t": pd.to_timedelta(DAYS, unit="D")}),
                                     YDATE.astype(float))
    text = m.export_text()
    return "days" in text and "e+1" not in text


probe("CARTRegressor: timedelta thresholds read as durations",
      check=bool, must_succeed=True)(_delta_text)

# ------------------------------------------------------------------ nullable dtypes
_vals = XNUM[:, 0].copy()
_vals_na = pd.array(np.round(_vals * 10).astype(int), dtype="Int64")
_vals_na[::7] = pd.NA
_float_na = pd.array(_vals, dtype="Float64")
_float_na[::7] = pd.NA

for _e in ESTIMATORS:
    for _label, _arr in (("Int64", _vals_na), ("Float64", _float_na)):
        if _e == "C45Classifier":
            def _c45_na(arr=_arr):
                X = pd.DataFrame({"a": arr, "b": XNUM[:, 1]})
                Xf = pd.DataFrame({"a": arr.to_numpy(dtype=float, na_value=np.nan),
                                   "b": XNUM[:, 1]})
                m = treebook.C45Classifier().fit(X, YCLS)
                ref = treebook.C45Classifier().fit(Xf, YCLS)
                return same_predictions(m.predict_proba(X), ref.predict_proba(Xf))
            probe(f"C45Classifier: nullable {_label} with pd.NA = unknown", check=bool,
                  must_succeed=True)(_c45_na)
        elif _e in ("CARTClassifier", "CARTRegressor"):
            # CART's missing rule: pd.NA is the same missing value as NaN (and None)
            def _cart_na(arr=_arr, e=_e):
                X = pd.DataFrame({"a": arr, "b": XNUM[:, 1]})
                Xf = pd.DataFrame({"a": arr.to_numpy(dtype=float, na_value=np.nan),
                                   "b": XNUM[:, 1]})
                m = make(e).fit(X, y_for(e))
                ref = make(e).fit(Xf, y_for(e))
                return same_predictions(m.predict(X), ref.predict(Xf))
            probe(f"{_e}: nullable {_label} with pd.NA = NaN", check=bool,
                  must_succeed=True)(_cart_na)
        else:
            probe(f"{_e}: nullable {_label} with pd.NA", names=("missing",))(
                lambda e=_e, arr=_arr: make(e).fit(pd.DataFrame({"a": arr, "b": XNUM[:, 1]}),
                                                   y_for(e)))

    def _nullable_full(e=_e):
        a = pd.array(np.round(_vals * 10).astype(int), dtype="Int64")
        m = make(e).fit(pd.DataFrame({"a": a}), y_for(e))
        ref = make(e).fit(pd.DataFrame({"a": np.round(_vals * 10).astype(int)}), y_for(e))
        return same_predictions(m.predict(pd.DataFrame({"a": a})),
                                ref.predict(pd.DataFrame({"a": np.round(_vals * 10).astype(int)})))
    probe(f"{_e}: nullable Int64 without NA = int64", check=bool,
          must_succeed=True)(_nullable_full)

    def _boolean_na(e=_e):
        b = pd.array([True, False, None, True] * 5, dtype="boolean")
        return make(e).fit(pd.DataFrame({"b": b}), y_for(e)[:20])
    if _e == "C45Classifier":
        probe("C45Classifier: nullable boolean with pd.NA = unknown",
              check=lambda m: m.predict(pd.DataFrame({"b": pd.array([True, None], dtype="boolean")})).shape == (2,),
              must_succeed=True)(_boolean_na)
    elif _e in ("CARTClassifier", "CARTRegressor"):
        def _boolean_cart(e=_e):
            b = pd.array([True, False, None, True] * 5, dtype="boolean")
            obj = pd.Series([True, False, None, True] * 5, dtype=object)
            m = make(e).fit(pd.DataFrame({"b": b}), y_for(e)[:20])
            ref = make(e).fit(pd.DataFrame({"b": obj}), y_for(e)[:20])
            return same_predictions(m.predict(pd.DataFrame({"b": b})),
                                    ref.predict(pd.DataFrame({"b": obj})))
        probe(f"{_e}: nullable boolean with pd.NA = None", check=bool,
              must_succeed=True)(_boolean_cart)
    else:
        probe(f"{_e}: nullable boolean with pd.NA", names=("missing",))(_boolean_na)

# ------------------------------------------------------------------ cells holding lists
for _e in ESTIMATORS:
    probe(f"{_e}: cells holding lists (numpy)", names=("X",))(
        lambda e=_e: make(e).fit(np.array([[[1, 2]], [[3]], [[1, 2]], [[3]]] + [[[4]]] * 0,
                                          dtype=object).reshape(4, 1), y_for(e)[:4]))
    probe(f"{_e}: cells holding lists (DataFrame)", names=("X", "'c'")) (
        lambda e=_e: make(e).fit(pd.DataFrame({"c": [[1, 2], [3], [1, 2], [3]]}), y_for(e)[:4]))
    probe(f"{_e}: dict cells", names=("X",))(
        lambda e=_e: make(e).fit(pd.DataFrame({"c": [{"a": 1}, {"b": 2}] * 2}), y_for(e)[:4]))

# ------------------------------------------------------------------ render / impurity / prune
_tree = treebook.CARTClassifier(max_depth=2).fit(XNUM, YCLS).tree_
probe("render.export_text(None)", names=("tree",))(lambda: render.export_text(None))
probe("render.to_graphviz(None)", names=("tree",))(lambda: render.to_graphviz(None))
probe("render.to_rules(None)", names=("tree",))(lambda: render.to_rules(None))
probe("render.export_text(estimator)", names=("tree",))(
    lambda: render.export_text(treebook.CARTClassifier().fit(XNUM, YCLS)))
probe("render.export_text(max_depth=-1)", names=("max_depth",))(
    lambda: render.export_text(_tree, max_depth=-1))
probe("render.to_graphviz(max_depth='x')", names=("max_depth",))(
    lambda: render.to_graphviz(_tree, max_depth="x"))
probe("impurity.variance(['a'])", names=("y",))(lambda: imp.variance(["a"]))
probe("impurity.variance([[1, 2]])", names=("y",))(lambda: imp.variance([[1.0, 2.0]]))
probe("impurity.variance(y, sample_weight=[-1])", names=("sample_weight",))(
    lambda: imp.variance([1.0], sample_weight=[-1.0]))
probe("impurity.variance([1e200, -1e200]) overflows: refused", names=("y",))(
    lambda: imp.variance([1e200, -1e200]))
probe("impurity.variance([1e150, -1e150]) = 1e300", check=lambda v: np.isclose(v, 1e300))(
    lambda: imp.variance([1e150, -1e150]))
probe("impurity.entropy('ab')", names=("counts",))(lambda: imp.entropy("ab"))
probe("impurity.entropy([])", names=("counts",))(lambda: imp.entropy([]))
probe("impurity.entropy([1, -1])", names=("counts",))(lambda: imp.entropy([1, -1]))
probe("impurity.entropy([np.nan, 1])", names=("counts",))(lambda: imp.entropy([np.nan, 1]))
probe("impurity.entropy([1+1j, 1])", names=("counts",))(lambda: imp.entropy([1 + 1j, 1]))
probe("impurity.gini(None)", names=("counts",))(lambda: imp.gini(None))
probe("impurity.information_gain([1, 2])", names=("counts_by_branch",))(
    lambda: imp.information_gain([1, 2]))
for _fn, _want in (("entropy", 1.0), ("gini", 0.5), ("misclassification_error", 0.5)):
    probe(f"impurity.{_fn}([1e308, 1e308]) = {_want}",
          check=lambda v, want=_want: np.isclose(v, want))(
        lambda fn=_fn: getattr(imp, fn)([1e308, 1e308]))
    probe(f"impurity.{_fn}([1e-320, 1e-320]) = {_want}",
          check=lambda v, want=_want: np.isclose(v, want))(
        lambda fn=_fn: getattr(imp, fn)([1e-320, 1e-320]))
for _fn, _want in (("information_gain", 1.0), ("gain_ratio", 1.0), ("gini_gain", 0.5),
                   ("conditional_entropy", 0.0), ("split_information", 1.0),
                   ("gini_index", 0.0)):
    probe(f"impurity.{_fn}(diag(1e308)) = {_want}",
          check=lambda v, want=_want: np.isclose(v, want, atol=1e-12))(
        lambda fn=_fn: getattr(imp, fn)([[1e308, 0.0], [0.0, 1e308]]))
probe("impurity.g_statistic(diag(1e308)) = inf (true G > 1.8e308) or refused",
      check=lambda v: v == np.inf, names=("counts_by_branch",))(
    lambda: imp.g_statistic([[1e308, 0.0], [0.0, 1e308]]))
probe("impurity.class_counts([1, '1'])", names=("y",))(lambda: imp.class_counts([1, "1"]))
probe("impurity.class_counts([1, True])", names=("y",),
      check=lambda r: len(r[0]) == 2)(lambda: imp.class_counts([1, True]))
probe("impurity.class_counts(None)", names=("y",))(lambda: imp.class_counts(None))

from treebook.prune.cost_complexity import cost_complexity_path, prune_ccp  # noqa: E402
from treebook.prune.error_based import prune_error_based  # noqa: E402
from treebook.prune.pessimistic import prune_pessimistic  # noqa: E402

probe("prune_ccp(None, 0.1)", names=("tree",))(lambda: prune_ccp(None, 0.1))
probe("prune_ccp(tree, -1)", names=("alpha",))(lambda: prune_ccp(_tree, -1.0))
probe("prune_ccp(tree, nan)", names=("alpha",))(lambda: prune_ccp(_tree, np.nan))
probe("prune_ccp(tree, 'x')", names=("alpha",))(lambda: prune_ccp(_tree, "x"))
probe("cost_complexity_path('tree')", names=("tree",))(lambda: cost_complexity_path("tree"))
probe("cost_complexity_path(tree, risk='x')", names=("risk",))(
    lambda: cost_complexity_path(_tree, risk="x"))
probe("prune_pessimistic(None)", names=("tree",))(lambda: prune_pessimistic(None))
probe("prune_pessimistic(regression tree)", names=("tree", "regression"))(
    lambda: prune_pessimistic(treebook.CARTRegressor(max_depth=2).fit(XNUM, YREG).tree_))
probe("prune_error_based(None)", names=("tree",))(lambda: prune_error_based(None))
probe("prune_error_based(confidence=2)", names=("confidence",))(
    lambda: prune_error_based(_tree, subtree_raising=False, confidence=2.0))

# ------------------------------------------------------------------ explorers
from treebook.io import explorers, widgets  # noqa: E402

probe("depth_explorer(None, ...)", names=("estimator",))(
    lambda: widgets.depth_explorer(None, XNUM, YCLS, XNUM, YCLS))
probe("depth_explorer: y_test of wrong length", names=("y",))(
    lambda: widgets.depth_explorer(treebook.ID3Classifier(), XNUM, YCLS, XNUM, YCLS[:-1]))
probe("depth_explorer: depths=[-1]", names=("depths",))(
    lambda: widgets.depth_explorer(treebook.CARTClassifier(), XNUM, YCLS, XNUM, YCLS,
                                   depths=[-1]))
probe("confidence_explorer(CART)", names=("estimator", "C4.5"))(
    lambda: explorers.confidence_explorer(treebook.CARTClassifier(), XNUM, YCLS, XNUM, YCLS))
probe("confidence_explorer: confidences=[0.9]", names=("confidence",))(
    lambda: explorers.confidence_explorer(treebook.C45Classifier(), XNUM, YCLS, XNUM, YCLS,
                                        confidences=[0.9]))
probe("alpha_explorer(ID3)", names=("estimator", "CART"))(
    lambda: explorers.alpha_explorer(treebook.ID3Classifier(), XNUM, YCLS, XNUM, YCLS))
probe("alpha_explorer: max_frames=1", names=("max_frames",))(
    lambda: explorers.alpha_explorer(treebook.CARTClassifier(), XNUM, YCLS, XNUM, YCLS,
                                   max_frames=1))
probe("alpha_explorer: X_test with other columns", names=("X", "feature"))(
    lambda: explorers.alpha_explorer(treebook.CARTClassifier(), XNUM, YCLS, XNUM[:, :2], YCLS))

# ------------------------------------------------------------------ not fitted
for _e in ESTIMATORS:
    for _meth in (["predict", "predict_proba", "score", "apply", "export_text"]
                  if _e in CLASSIFIERS else ["predict", "score", "apply", "export_text"]):
        def _unfitted(e=_e, meth=_meth):
            m = make(e)
            f = getattr(m, meth)
            if meth == "score":
                return f(XNUM, y_for(e))
            if meth == "export_text":
                return f()
            return f(XNUM)
        PROBES.append(Probe(f"{_e}.{_meth} unfitted raises NotFittedError", _unfitted,
                            None, ("NotFitted",)))

# ------------------------------------------------------------------ float32 vs float64
for _e in ESTIMATORS:
    def _f32(e=_e):
        r = np.random.default_rng(3)
        X = np.round(r.uniform(0, 1, size=(200, 2)), 1)
        y = (X[:, 0] > 0.45).astype(int) if e in CLASSIFIERS else X[:, 0] * 3
        m = make(e).fit(X, y)
        return same_predictions(m.predict(X.astype(np.float32)), m.predict(X))
    probe(f"{_e}: fitted on float64, predicts float32", check=bool, must_succeed=True)(_f32)

    def _f32_df(e=_e):
        X = pd.DataFrame({"a": np.round(np.linspace(0, 1, 40), 1)})
        y = (X["a"] > 0.45).astype(int) if e in CLASSIFIERS else X["a"] * 3
        m = make(e).fit(X, y)
        return same_predictions(m.predict(X.astype(np.float32)), m.predict(X))
    probe(f"{_e}: DataFrame float64 fit, float32 predict", check=bool,
          must_succeed=True)(_f32_df)

    def _f16(e=_e):
        X = np.round(XNUM, 0).astype(np.float16)
        m = make(e).fit(X, y_for(e))
        return same_predictions(m.predict(X), make(e).fit(X.astype(float), y_for(e)).predict(X.astype(float)))
    probe(f"{_e}: float16 X", check=bool, must_succeed=True)(_f16)

# ------------------------------------------------------------------ column names
DF = pd.DataFrame(XNUM, columns=["a", "b", "c"])
for _e in ESTIMATORS:
    probe(f"{_e}: DataFrame with reordered columns", names=("feature names", "column"))(
        lambda e=_e: make(e).fit(DF, y_for(e)).predict(DF[["c", "a", "b"]]))
    probe(f"{_e}: DataFrame with other column names", names=("feature names", "column"))(
        lambda e=_e: make(e).fit(DF, y_for(e)).predict(DF.rename(columns={"a": "z"})))

    def _np_after_df(e=_e):
        m = make(e).fit(DF, y_for(e))
        return same_predictions(m.predict(XNUM), m.predict(DF))
    probe(f"{_e}: numpy after DataFrame warns", check=bool, warn=UserWarning,
          must_succeed=True)(_np_after_df)

    def _df_after_np(e=_e):
        m = make(e).fit(XNUM, y_for(e))
        return same_predictions(m.predict(DF), m.predict(XNUM))
    probe(f"{_e}: DataFrame after numpy warns", check=bool, warn=UserWarning,
          must_succeed=True)(_df_after_np)

    probe(f"{_e}: predict with too few columns", names=("X", "feature"))(
        lambda e=_e: make(e).fit(XNUM, y_for(e)).predict(XNUM[:, :2]))

# ------------------------------------------------------------------ labels and categories
for _e in CLASSIFIERS:
    probe(f"{_e}: labels mixing str and int", names=("y",))(
        lambda e=_e: make(e).fit(XNUM[:4], [1, "1", 1, "1"]))
    probe(f"{_e}: labels 1, True, 1.0", names=("y",),
          check=lambda m: len(m.classes_) == 3)(
        lambda e=_e: make(e).fit(XNUM[:6], [1, True, 1.0, 1, True, 1.0]))
    probe(f"{_e}: labels mixing bool and int", names=("y",),
          check=lambda m: len(m.classes_) == 2)(
        lambda e=_e: make(e).fit(XNUM[:4], np.array([1, True, 1, True], dtype=object)))

    def _cat_true_one(e=_e):
        X = pd.DataFrame({"c": pd.Series([1, True, 1, True, "x", "x"], dtype=object)})
        y = [0, 1, 0, 1, 0, 0]
        m = make(e).fit(X, y)
        return same_predictions(m.predict(X), y)
    probe(f"{_e}: category column with 1 and True", check=bool, names=("X", "'c'"))(_cat_true_one)

    probe(f"{_e}: continuous y", names=("y", "label type"))(
        lambda e=_e: make(e).fit(XNUM, YREG))
    probe(f"{_e}: y with NaN label", names=("y",))(
        lambda e=_e: make(e).fit(XNUM[:3], [0, np.nan, 1]))
    probe(f"{_e}: 2-column y", names=("y",))(
        lambda e=_e: make(e).fit(XNUM[:3], [[0, 1], [1, 0], [0, 1]]))

# ------------------------------------------------------------------ complex, other X
for _e in ESTIMATORS:
    probe(f"{_e}: complex X", names=("X", "complex"))(
        lambda e=_e: make(e).fit(XNUM + 1j, y_for(e)))
    probe(f"{_e}: complex X at predict", names=("X", "complex"))(
        lambda e=_e: make(e).fit(XNUM, y_for(e)).predict(XNUM + 0j))
    probe(f"{_e}: complex numbers in an object column", names=("X", "complex"))(
        lambda e=_e: make(e).fit(pd.DataFrame({"c": pd.Series([1 + 1j, 2, 1 + 1j, 2],
                                                               dtype=object)}), y_for(e)[:4]))
    probe(f"{_e}: X with inf", names=("X", "infinite"))(
        lambda e=_e: make(e).fit(np.where(XNUM > 1, np.inf, XNUM), y_for(e)))
    probe(f"{_e}: empty X", names=("X",))(lambda e=_e: make(e).fit(np.zeros((0, 2)), []))
    probe(f"{_e}: 1-D X", names=("X",))(lambda e=_e: make(e).fit(XNUM[:, 0], y_for(e)))
    probe(f"{_e}: 3-D X", names=("X",))(lambda e=_e: make(e).fit(XNUM[:, :, None], y_for(e)))
    probe(f"{_e}: X=None", names=("X",))(lambda e=_e: make(e).fit(None, y_for(e)))
    probe(f"{_e}: y of wrong length", names=("y",))(
        lambda e=_e: make(e).fit(XNUM, y_for(e)[:-1]))
    probe(f"{_e}: sample_weight negative", names=("sample_weight",))(
        lambda e=_e: make(e).fit(XNUM, y_for(e), sample_weight=-np.ones(N)))
    probe(f"{_e}: sample_weight all zero", names=("sample_weight",))(
        lambda e=_e: make(e).fit(XNUM, y_for(e), sample_weight=np.zeros(N)))
    probe(f"{_e}: sample_weight strings", names=("sample_weight",))(
        lambda e=_e: make(e).fit(XNUM, y_for(e), sample_weight=["a"] * N))
    probe(f"{_e}: sample_weight scalar 2 = all 2", check=lambda r: r, names=("sample_weight",))(
        lambda e=_e: same_predictions(make(e).fit(XNUM, y_for(e), sample_weight=2).predict(XNUM),
                                      make(e).fit(XNUM, y_for(e)).predict(XNUM)))
    probe(f"{_e}: bad parameter value", names=("max_depth",))(
        lambda e=_e: make(e, max_depth=-3).fit(XNUM, y_for(e)))
    probe(f"{_e}: predict_proba/score with y of wrong length", names=("y",))(
        lambda e=_e: make(e).fit(XNUM, y_for(e)).score(XNUM, y_for(e)[:-1]))
    probe(f"{_e}: score with sample_weight of wrong length", names=("sample_weight",))(
        lambda e=_e: make(e).fit(XNUM, y_for(e)).score(XNUM, y_for(e), sample_weight=[1.0]))

# ------------------------------------------------------------------ magnitudes (CART)
_base_y = XNUM[:, 0] + (XNUM[:, 1] > 0)
for _g in ("levelwise", "recursive"):
    def _big_y(g=_g):
        m = treebook.CARTRegressor(grower=g, max_depth=4).fit(XNUM, _base_y * 1e155)
        ref = treebook.CARTRegressor(grower=g, max_depth=4).fit(XNUM, _base_y)
        return same_tree(m.tree_, ref.tree_) and np.allclose(m.predict(XNUM) / 1e155,
                                                             ref.predict(XNUM))
    probe(f"CARTRegressor({_g}): y scaled by 1e155 gives the same tree", check=bool,
          names=("y",))(_big_y)

    def _tiny_y(g=_g):
        m = treebook.CARTRegressor(grower=g, max_depth=4).fit(XNUM, _base_y * 1e-170)
        ref = treebook.CARTRegressor(grower=g, max_depth=4).fit(XNUM, _base_y)
        return same_tree(m.tree_, ref.tree_)
    probe(f"CARTRegressor({_g}): y scaled by 1e-170 gives the same tree", check=bool,
          names=("y",))(_tiny_y)

    for _s in (1e-9, 1e100):
        def _scaled_y(g=_g, s=_s):
            m = treebook.CARTRegressor(grower=g).fit(XNUM, _base_y * s)
            ref = treebook.CARTRegressor(grower=g).fit(XNUM, _base_y)
            return same_tree(m.tree_, ref.tree_) and np.allclose(m.predict(XNUM) / s,
                                                                 ref.predict(XNUM))
        probe(f"CARTRegressor({_g}): unpruned tree on y × {_s:g} is the tree on y",
              check=bool, must_succeed=True)(_scaled_y)

    for _e in ("CARTClassifier", "CARTRegressor"):
        def _big_w(g=_g, e=_e):
            w = np.random.default_rng(5).uniform(0.5, 2, N)
            m = make(e, grower=g).fit(XNUM, y_for(e), sample_weight=w * 1e200)
            ref = make(e, grower=g).fit(XNUM, y_for(e), sample_weight=w)
            return same_tree(m.tree_, ref.tree_)
        probe(f"{_e}({_g}): weights scaled by 1e200 give the same tree", check=bool,
              names=("sample_weight",))(_big_w)

        def _small_w(g=_g, e=_e):
            w = np.random.default_rng(5).uniform(0.5, 2, N)
            m = make(e, grower=g).fit(XNUM, y_for(e), sample_weight=w * 1e-300)
            ref = make(e, grower=g).fit(XNUM, y_for(e), sample_weight=w)
            return same_tree(m.tree_, ref.tree_)
        probe(f"{_e}({_g}): weights scaled by 1e-300 give the same tree", check=bool,
              names=("sample_weight",))(_small_w)


def _growers_agree_big():
    a = treebook.CARTRegressor(grower="levelwise").fit(XNUM, _base_y * 1e155)
    b = treebook.CARTRegressor(grower="recursive").fit(XNUM, _base_y * 1e155)
    return same_tree(a.tree_, b.tree_)


probe("CARTRegressor: both growers agree on y ~ 1e155", check=bool, names=("y",))(_growers_agree_big)
probe("CARTRegressor: y = 1e308 and -1e308", check=lambda m: np.all(np.isfinite(m.predict(XNUM[:2]))),
      names=("y",))(lambda: treebook.CARTRegressor().fit(XNUM[:2], [1e308, -1e308]))


def _r2_const():
    X = XNUM[:10]
    y = np.full(10, 3.0)
    return treebook.CARTRegressor().fit(X, y).score(X, y)


probe("CARTRegressor.score: constant y, perfect predictions = 1.0",
      check=lambda s: s == 1.0)(_r2_const)


def _r2_const_imperfect():
    m = treebook.CARTRegressor().fit(XNUM[:10], np.arange(10.0))
    return m.score(XNUM[:10], np.full(10, 3.0))


probe("CARTRegressor.score: constant y, imperfect predictions = 0.0",
      check=lambda s: s == 0.0)(_r2_const_imperfect)


def _r2_matches_sklearn():
    from sklearn.metrics import r2_score

    m = treebook.CARTRegressor(max_depth=2).fit(XNUM, YREG)
    w = np.random.default_rng(2).uniform(0, 2, N)
    return np.isclose(m.score(XNUM, YREG, sample_weight=w),
                      r2_score(YREG, m.predict(XNUM), sample_weight=w))


probe("CARTRegressor.score = r2_score with weights", check=bool)(_r2_matches_sklearn)


# ============================================================================ issue 22
# Each family states its expectation as the issue does: a model file that is not valid is
# refused with an error naming the field (``clear``); anything that loads and answers is
# ``wrong``. The probes call only names that existed before the fix, or import the new
# ones inside the probe (an ImportError is then the 'before' outcome, ``obscure``).
from treebook.io.serialize import from_json  # noqa: E402


def _doc(estimator="CARTClassifier"):
    """A valid document of a small fitted tree, as a dict to mutate."""
    m = make(estimator, max_depth=2).fit(XNUM, y_for(estimator))
    return json.loads(m.to_json())


def _load_and_use(doc_or_text):
    """Load a (mutated) document and use it as a user would: predict_proba, apply."""
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    m = from_json(text)
    X = XNUM
    out = m.predict_proba(X) if hasattr(m, "predict_proba") else m.predict(X)
    m.apply(X)
    return out


def _mutate(fn):
    def run():
        d = _doc()
        fn(d)
        return _load_and_use(d)
    return run


def _tree_nodes(d):
    return d["fitted"]["tree_"]["nodes"]


def _set_both(d, f):
    """Apply ``f`` to both trees of a CART document (tree_ and full_tree_)."""
    for key in ("tree_", "full_tree_"):
        if key in d["fitted"]:
            f(d["fitted"][key])


FAMILY = "model_files"
_ISO = dict(isolate=True, timeout=60.0)

def _no_nodes(t):
    t["nodes"] = []
    if t.get("missing_rule"):  # a missing rule of as many nodes (none), to pass its check
        t["missing_rule"].update(missing_go=[], surrogates=[])


probe("model file: 'nodes': [] then predict_proba/apply", names=("nodes",), **_ISO)(
    _mutate(lambda d: _set_both(d, _no_nodes)))
probe("model file: a child id past the end", names=("child",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["nodes"][0].update(children=[1, 99]))))
probe("model file: a node its own child (a graph, not a tree)", names=("child", "tree"),
      **_ISO)(_mutate(lambda d: _set_both(d, lambda t: t["nodes"][0].update(children=[0, 1]))))


def _tree_direct_child_past_end():
    import dataclasses

    t = treebook.CARTClassifier(max_depth=2).fit(XNUM, YCLS).tree_
    children = t.children.copy()
    children[0] = t.node_count + 1000
    bad = dataclasses.replace(t, children=children)
    from treebook.core.tree import apply_compiled
    return apply_compiled(bad, XNUM), bad.apply(XNUM)


probe("Tree built directly with a child id past the end", names=("children",),
      **_ISO)(_tree_direct_child_past_end)


def _callable_by_prefix():
    import tempfile

    where = tempfile.mkdtemp()
    marker = os.path.join(where, "ran")
    with open(os.path.join(where, "treebook_x.py"), "w") as f:
        f.write(f"open({marker!r}, 'w').write('ran')\ndef f(*a):\n    return 0.0\n")
    sys.path.insert(0, where)
    try:
        d = _doc()
        d["fitted"]["evil_"] = {"type": "callable", "name": "treebook_x.f"}
        try:
            _load_and_use(d)
        finally:
            if os.path.exists(marker):  # the code ran on load: wrong whatever follows
                return "code ran on load"
        return "loaded"
    finally:
        sys.path.remove(where)


probe("model file: callable 'treebook_x.f' (a module beside the file)",
      names=("callable",), **_ISO)(_callable_by_prefix)
probe("model file: callable 'treebook.teaching.experiments.subprocess'",
      names=("callable",), **_ISO)(_mutate(lambda d: d["fitted"].update(
          evil_={"type": "callable", "name": "treebook.teaching.experiments.subprocess"})))
probe("model file: NaN threshold (tagged float)", names=("threshold",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["nodes"][0].update(
        threshold={"type": "float", "value": "nan"}))))


def _bare_nan():
    d = _doc()
    _set_both(d, lambda t: t["nodes"][0].update(threshold=float("nan")))
    text = json.dumps(d)  # Python writes the bare literal NaN, which is not JSON
    assert "NaN" in text
    return _load_and_use(text)


probe("model file: bare NaN literal (not strict JSON)", names=("NaN", "JSON", "threshold"),
      **_ISO)(_bare_nan)
probe("model file: negative feature index", names=("feature -1",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["nodes"][0].update(feature=-1))))
# the error must blame the feature index, not a correct X
probe("model file: feature index past n_features", names=("feature 7",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["nodes"][0].update(feature=7))))
probe("model file: missing_go out of range", names=("missing_go",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["missing_rule"]["missing_go"].__setitem__(
        0, 99))))
probe("model file: NaN weighted_n", names=("weighted_n",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["nodes"][1].update(
        weighted_n={"type": "float", "value": "nan"}))))
probe("model file: negative n_samples", names=("n_samples",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["nodes"][1].update(n_samples=-3))))
probe("model file: negative class count in a value", names=("value",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t["nodes"][1]["value"].__setitem__(0, -5.0))))
probe("model file: n_outputs = 10**11 (memory bomb)", names=("n_outputs",), **_ISO)(
    _mutate(lambda d: _set_both(d, lambda t: t.update(n_outputs=10**11))))


def _dtype_bomb():
    d = _doc()  # a valid document whose classes_ declares 10**8 characters per label
    d["fitted"]["classes_"] = {"type": "array", "dtype": "U100000000", "shape": [20],
                               "data": ["a"] * 20}
    return _load_and_use(d)


probe("model file: dtype 'U100000000' (a memory bomb)", names=("dtype",),
      **_ISO)(_dtype_bomb)
probe("model file: JSON nested 10**5 deep", names=("JSON", "nest", "deep", "depth"),
      **_ISO)(lambda: _load_and_use('{"a": ' * 100_000 + "1" + "}" * 100_000))
probe("model file: estimator 'builtins.dict'", names=("estimator",), **_ISO)(
    _mutate(lambda d: d.update(estimator="builtins.dict")))

# ------------------------------------------------------------------ many-level categories
FAMILY = "categories"
L_MANY = 10_000


def _many_levels(n_levels, n_classes, regression=False, seed=0):
    r = np.random.default_rng(seed)
    codes = np.concatenate([np.arange(n_levels), r.integers(0, n_levels, n_levels)])
    X = pd.DataFrame({"c": pd.Categorical([f"v{i}" for i in codes])})
    if regression:
        y = (codes % 7).astype(float) + r.normal(size=codes.size)
    else:
        y = (codes * 2654435761 % 97 + r.integers(0, 10, codes.size)) % n_classes
    return X, y


def _one_split(m):
    return m.tree_.node_count == 3


for _k, _label in ((2, "2 classes"), (3, "3 classes"), (0, "regression")):
    def _cart_levels(k=_k):
        X, y = _many_levels(L_MANY, max(k, 2), regression=(k == 0))
        return make("CARTRegressor" if k == 0 else "CARTClassifier", max_depth=1).fit(X, y)
    probe(f"CART depth-1 fit, {L_MANY} levels, {_label}", check=_one_split,
          must_succeed=True, isolate=True, timeout=30.0)(_cart_levels)


def _cart_recursive_levels():
    X, y = _many_levels(L_MANY, 3)
    return treebook.CARTClassifier(max_depth=1, grower="recursive").fit(X, y)


probe(f"CART recursive grower depth-1, {L_MANY} levels, 3 classes (numpy subset masks)",
      check=_one_split, must_succeed=True, isolate=True, timeout=30.0)(_cart_recursive_levels)


def _hist_levels():
    from treebook.hist import HistCARTClassifier

    X, y = _many_levels(L_MANY, 3)
    return HistCARTClassifier(max_depth=1).fit(X, y)


probe(f"HistCARTClassifier depth-1, {L_MANY} levels, 3 classes", check=_one_split,
      must_succeed=True, isolate=True, timeout=30.0)(_hist_levels)


def _c45_levels_render(what):
    # the label is a function of the level: C4.5 splits the root into one branch a level
    X = _many_levels(L_MANY, 2)[0]
    y = X["c"].cat.codes.to_numpy() % 2
    m = treebook.C45Classifier(max_depth=1, min_samples_leaf=1).fit(X, y)
    if what == "export_text":
        out = m.export_text().splitlines()
    elif what == "to_rules":
        out = m.to_rules()
    else:
        out = m.to_graphviz().source.splitlines()
    return m.tree_.node_count, len(out)


for _what in ("export_text", "to_rules", "to_graphviz"):
    probe(f"C45Classifier on {L_MANY} levels (a {L_MANY}-way root): {_what}",
          check=lambda r: r[0] == L_MANY + 1 and r[1] >= L_MANY, must_succeed=True,
          isolate=True, timeout=30.0)(lambda what=_what: _c45_levels_render(what))


def _chain_rules():
    # alternating labels along one numeric column: CART peels one row per split, a chain
    # of 1999 nodes and depth 999 (each rule lists up to 999 conditions, simplified)
    n = 1000
    X = np.arange(n, dtype=float)[:, None]
    m = treebook.CARTClassifier().fit(X, np.arange(n) % 2)
    return m.tree_.node_count, len(m.to_rules())


probe("to_rules on a 1999-node chain (CART, alternating labels)",
      check=lambda r: r[0] == 1999 and r[1] == 1000, must_succeed=True, isolate=True,
      timeout=30.0)(_chain_rules)

# ------------------------------------------------------------------ concurrency
FAMILY = "concurrency"


def _concurrent_fits(e):
    from concurrent.futures import ThreadPoolExecutor

    kw = {"min_impurity_decrease": 0.01}
    if e.startswith("CART"):
        kw["ccp_alpha"] = 0.005
    m = make(e, **kw)
    before = m.get_params()
    r = np.random.default_rng(4)
    X = r.normal(size=(400, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int) if e in CLASSIFIERS else X[:, 0] + X[:, 2]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda s: m.fit(X * (1 + s), y), range(32)))
    return m.get_params() == before


for _e in ESTIMATORS:
    try:
        make(_e, min_impurity_decrease=0.01)
    except TypeError:
        continue
    probe(f"{_e}: 32 concurrent fits on one estimator leave its params unchanged",
          check=bool, must_succeed=True)(lambda e=_e: _concurrent_fits(e))

# ------------------------------------------------------------------ labels
FAMILY = "labels"


def _graphviz_empty(kind):
    if kind == "class":
        X, y = XNUM, np.where(YCLS == 1, "", "yes")
        m = treebook.CARTClassifier(max_depth=2).fit(X, y)
    else:
        m = treebook.CARTClassifier(max_depth=2).fit(
            pd.DataFrame(XNUM, columns=["", "b", "c"]), YCLS)
    src = m.to_graphviz().source
    return "<B></B>" not in src and "<I></I>" not in src


probe("to_graphviz with an empty-string class label", check=bool, names=("y", "label"))(
    lambda: _graphviz_empty("class"))
probe("to_graphviz with an empty-string feature name", check=bool,
      names=("X", "feature", "column"))(lambda: _graphviz_empty("feature"))

# ------------------------------------------------------------------ forest
FAMILY = "forest"


def _forest_unused_category():
    from treebook.ensemble import RandomForestClassifier

    y = pd.Categorical(np.where(YCLS == 1, "c", "a"), categories=["a", "b", "c"])  # b unused
    f = RandomForestClassifier(n_estimators=5, random_state=0).fit(XNUM, y)
    p = f.predict_proba(XNUM)
    return len(f.classes_) == 3 and p.shape == (N, 3) and np.all(p[:, 1] == 0)


probe("RandomForestClassifier: Categorical y with an unused middle category = 3 columns",
      check=bool, must_succeed=True)(_forest_unused_category)


def _forest_tuple_score():
    from treebook.ensemble import RandomForestClassifier

    labels = [("yes", 1) if v else ("no", 0) for v in YCLS]  # a plain list of tuples
    f = RandomForestClassifier(n_estimators=5, random_state=0).fit(XNUM, labels)
    s = f.score(XNUM, labels)
    return s == np.mean([tuple(p) == t for p, t in zip(f.predict(XNUM), labels)])


probe("RandomForestClassifier: tuple labels fit, predict and score", check=bool,
      must_succeed=True)(_forest_tuple_score)

# ------------------------------------------------------------------ pruning
FAMILY = "pruning"


def _rep_narrow(uses_last):
    from treebook.prune.reduced_error import prune_reduced_error

    X = XNUM.copy()
    if not uses_last:  # column 2 carries nothing: the tree does not test it
        X[:, 2] = 0.0
    t = treebook.ID3Classifier().fit(np.round(X), YCLS).tree_ if False else \
        treebook.CARTClassifier(max_depth=3).fit(X, YCLS).tree_
    assert (2 in set(t.feature[t.feature >= 0])) == uses_last or not uses_last
    return prune_reduced_error(t, X[:, :2], YCLS)


probe("prune_reduced_error with a narrower X_prune (tree not testing the dropped column)",
      names=("X_prune",))(lambda: _rep_narrow(False))


def _rep_narrow_tested():
    from treebook.prune.reduced_error import prune_reduced_error

    X = XNUM.copy()
    y = (X[:, 2] > 0).astype(int)  # the tree must test column 2
    t = treebook.CARTClassifier(max_depth=2).fit(X, y).tree_
    return prune_reduced_error(t, X[:, :2], y)


probe("prune_reduced_error with a narrower X_prune (tree testing the dropped column)",
      names=("X_prune",))(_rep_narrow_tested)

# ------------------------------------------------------------------ predict-time types
FAMILY = "predict_types"
_BOOLS = np.array([True, False, True, True, False, False] * 10)
_YB = np.where(_BOOLS, 1, 0)


def _fit_bool(e):
    y = _YB if e in CLASSIFIERS else _YB.astype(float)
    return make(e).fit(pd.DataFrame({"b": _BOOLS}), y)


for _e in ESTIMATORS:
    probe(f"{_e}: boolean column given 0/1 at predict warns", check=lambda p: len(p) == 4,
          names=("X", "'b'"), warn=UserWarning)(
        lambda e=_e: _fit_bool(e).predict(pd.DataFrame({"b": [0, 1, 1, 0]})))
    probe(f"{_e}: boolean column given 'True'/'False' at predict warns",
          check=lambda p: len(p) == 4, names=("X", "'b'"), warn=UserWarning)(
        lambda e=_e: _fit_bool(e).predict(pd.DataFrame({"b": ["True", "False"] * 2})))

for _e in ("ID3Classifier", "CLSClassifier", "C45Classifier", "CARTClassifier"):
    def _int_given_str(e=_e):
        X = pd.DataFrame({"k": pd.Categorical(np.arange(N) % 3)})
        m = make(e).fit(X, (np.arange(N) % 3 == 1).astype(int))
        return m.predict(pd.DataFrame({"k": ["0", "1", "2", "1"]}))
    probe(f"{_e}: int category column given strings at predict warns",
          check=lambda p: len(p) == 4, names=("X", "'k'"), warn=UserWarning)(_int_given_str)

# ------------------------------------------------------------------ max_depth=0
FAMILY = "max_depth"
_LEARNERS = ESTIMATORS + ["OptimalTreeClassifier", "HistCARTClassifier", "HistCARTRegressor"]


def _make_any(name, **kw):
    if name.startswith("Hist"):
        from treebook import hist
        return getattr(hist, name)(**kw)
    return make(name, **kw)


for _e in _LEARNERS:
    def _depth0(e=_e):
        y = YREG if "Regressor" in e else YCLS
        m = _make_any(e, max_depth=0).fit(XNUM, y)
        pred = m.predict(XNUM)
        return m.tree_.node_count == 1 and len(np.unique(pred)) == 1
    probe(f"{_e}(max_depth=0) is a single leaf", check=bool, must_succeed=True)(_depth0)

# ------------------------------------------------------------------ to_json before fit
FAMILY = "to_json"
for _e in ESTIMATORS:
    PROBES.append(Probe(f"{_e}.to_json before fit raises NotFittedError",
                        lambda e=_e: make(e).to_json(), None, ("NotFitted",),
                        family="to_json"))
FAMILY = "issue12"


# ============================================================================ isolation
#: address space allowed beyond what the child holds after its imports (as
#: tests/model_file_worker.py: a memory bomb ends the child, never this script)
HEADROOM = 768 * 2**20


def _limit_address_space(headroom: int = HEADROOM) -> None:
    with open("/proc/self/status") as f:
        vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + headroom, vm + headroom))


def _worker(name: str) -> None:
    """Run one probe in this process (the child) and print its outcome as JSON."""
    p = next(q for q in PROBES if q.name == name)
    _limit_address_space()
    try:
        outcome, detail = classify(p)
    except MemoryError:
        outcome, detail = "memory", "MemoryError"
    if "MemoryError" in detail:
        outcome = "memory"
    print("\n" + json.dumps({"outcome": outcome, "detail": detail}), flush=True)


def classify_isolated(p: Probe) -> tuple[str, str]:
    """:func:`classify` in a child process under an address-space limit and a timeout."""
    try:
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", p.name],
                              capture_output=True, text=True, timeout=p.timeout)
    except subprocess.TimeoutExpired:
        return "hang", f"no answer in {p.timeout:g} s (killed)"
    if done.returncode < 0:
        import signal

        sig = signal.Signals(-done.returncode)
        return ("segfault" if sig == signal.SIGSEGV else "crash"), f"killed by {sig.name}"
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-1:] or ["(no output)"]
        if "MemoryError" in done.stderr:
            return "memory", tail[0][:200]
        return "crash", f"exit {done.returncode}: {tail[0][:200]}"
    result = json.loads(lines[-1])
    return result["outcome"], result["detail"]


# ============================================================================ main
OUTCOMES = ("correct", "clear", "obscure", "wrong", "segfault", "crash", "hang", "memory")


def select(families=None, isolated: bool | None = None) -> list[Probe]:
    """The probes of ``families`` (all if None); only isolated / in-process ones if given."""
    return [p for p in PROBES if (families is None or p.family in families)
            and (isolated is None or p.isolate == isolated)]


def run(verbose: bool = False, families=None):
    chosen = select(families)
    counts = dict.fromkeys(OUTCOMES, 0)
    rows = []
    for p in chosen:
        outcome, detail = classify_isolated(p) if p.isolate else classify(p)
        counts[outcome] += 1
        rows.append((p.family, p.name, outcome, detail))
        if verbose:
            print(f"{outcome:8s} [{p.family}] {p.name}" + (
                f"  — {detail[:160]}" if detail and outcome not in ("correct",) else ""),
                flush=True)
    print(f"inputs tried: {len(chosen)}  correct: {counts['correct']}  clear errors: "
          f"{counts['clear']}  obscure crashes: {counts['obscure']}  silent wrong answers: "
          f"{counts['wrong']}  segfaults: {counts['segfault']}  other crashes: "
          f"{counts['crash']}  hangs: {counts['hang']}  memory: {counts['memory']}")
    return rows, counts


def _header() -> list[str]:
    import datetime
    import platform

    src = os.path.dirname(os.path.dirname(os.path.abspath(treebook.__file__)))
    def git(*args, cwd):
        try:
            return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                                  timeout=10).stdout.strip() or "unknown"
        except Exception:  # noqa: BLE001 - no git: say so
            return "unknown"
    here = os.path.dirname(os.path.abspath(__file__))
    return [f"# command: {' '.join([os.path.basename(sys.executable)] + sys.argv)}",
            f"# PYTHONPATH: {os.environ.get('PYTHONPATH', '')}",
            f"# treebook: {treebook.__file__} (commit {git('rev-parse', '--short', 'HEAD', cwd=src)})",
            f"# probe script commit: {git('rev-parse', '--short', 'HEAD', cwd=here)}",
            f"# date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}",
            f"# load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())} "
            f"on {os.cpu_count()} CPUs; python {platform.python_version()}"]


def write_csv(path: str, rows) -> None:
    import csv

    with open(path, "w", newline="") as f:
        for line in _header():
            f.write(line + "\n")
        w = csv.writer(f)
        w.writerow(["family", "probe", "outcome", "detail"])
        for fam, name, outcome, detail in rows:
            w.writerow([fam, name, outcome, " ".join(detail.split())[:300]])


def compare(before: str, after: str, families=None) -> str:
    """A markdown table of outcome counts per family, before and after, from two CSVs of
    :func:`write_csv`, then every probe that is not ``correct``/``clear`` after."""
    import csv

    def read(path):
        with open(path) as f:
            return list(csv.DictReader(line for line in f if not line.startswith("#")))
    b, a = read(before), read(after)
    fams = families or list(dict.fromkeys(r["family"] for r in a if r["family"] != "issue12"))
    out = ["| family | probes | before | after |", "|---|---|---|---|"]

    def counts(rows, fam):
        c = {}
        for r in rows:
            if r["family"] == fam:
                c[r["outcome"]] = c.get(r["outcome"], 0) + 1
        return ", ".join(f"{k} {c[k]}" for k in OUTCOMES if k in c)
    for fam in fams + ["all issue 22"]:
        sel = (lambda r, f=fam: r["family"] == f) if fam != "all issue 22" else \
            (lambda r: r["family"] in fams)
        bb = [dict(r, family=fam) for r in b if sel(r)]
        aa = [dict(r, family=fam) for r in a if sel(r)]
        out.append(f"| {fam} | {len(aa)} | {counts(bb, fam)} | {counts(aa, fam)} |")
    left = [r for r in a if r["family"] in fams and r["outcome"] not in ("correct", "clear")]
    out.append("")
    out.append("Not correct or clear after: " + ("none" if not left else "; ".join(
        f"{r['probe']} ({r['outcome']}: {r['detail'][:120]})" for r in left)))
    return "\n".join(out)


def _arg(flag):
    return sys.argv[sys.argv.index(flag) + 1] if flag in sys.argv else None


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    if "--worker" in sys.argv:
        _worker(_arg("--worker"))
        sys.exit(0)
    if "--compare" in sys.argv:  # --compare BEFORE.csv AFTER.csv
        i = sys.argv.index("--compare")
        print(compare(sys.argv[i + 1], sys.argv[i + 2]))
        sys.exit(0)
    fams = _arg("--families")
    rows, _ = run(verbose="-v" in sys.argv, families=None if fams is None else fams.split(","))
    if _arg("--csv"):
        write_csv(_arg("--csv"), rows)
