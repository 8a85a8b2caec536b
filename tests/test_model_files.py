"""A model file is untrusted input (issue 22): a fixed, seeded fuzz corpus and one
regression test per probe family.

The fuzz corpus mutates valid documents of every learner that can be written (drop,
duplicate and retype keys; out-of-range, negative, NaN, huge and wrong-length values;
dtypes and shapes; nesting). Every load must end in the loader's
:class:`MalformedModelError` or in a model whose trees pass validation and on which the
compiled and numpy walks agree. The loads run in a subprocess under an address-space
limit (``tests/model_file_worker.py``), so a crash or a large allocation fails the test
instead of killing pytest. The corpus is bounded by count, never by time.
"""

import copy
import json
import math
import pathlib
import random
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes, load_iris

from treebook import (C45Classifier, CARTClassifier, CARTRegressor, CLSClassifier,
                      ConditionalTreeClassifier, ID3Classifier, OptimalTreeClassifier)
from treebook.chaid import CHAIDClassifier
from treebook.cls import CriterionTreeClassifier
from treebook.core.tree import Tree, TreeBuilder
from treebook.core.tree_validation import MalformedModelError
from treebook.datasets import load_play_tennis
from treebook.ensemble import RandomForestClassifier
from treebook.hist import HistCARTClassifier
from treebook.io.serialize import from_json, to_json

HERE = pathlib.Path(__file__).parent
WORKER = HERE / "model_file_worker.py"
SRC = HERE.parent / "src"
MUTANTS_PER_DOCUMENT = 120


def _documents() -> dict:
    """One valid document per learner (and per kind of node and missing-value rule)."""
    Xt, yt = load_play_tennis(return_X_y=True)
    Xi, yi = load_iris(return_X_y=True)
    Xd, yd = load_diabetes(return_X_y=True)
    rng = np.random.default_rng(0)
    Xm = pd.DataFrame({"a": rng.normal(size=80), "c": pd.Categorical(rng.choice(list("xyz"), 80))})
    ym = (Xm["a"] > 0).astype(int).to_numpy() ^ (Xm["c"] == "x").to_numpy()
    Xm.loc[::7, "a"] = np.nan
    models = {
        "id3": ID3Classifier().fit(Xt, yt),
        "c45": C45Classifier().fit(Xi, yi),
        "cls": CLSClassifier().fit(Xt, yt),
        "criterion": CriterionTreeClassifier(max_depth=2).fit(Xt, yt),
        "cart_subset": CARTClassifier().fit(Xt, yt),
        "cart_surrogate": CARTClassifier(max_depth=3, missing="surrogate").fit(Xm, ym),
        "cart_regressor": CARTRegressor(max_depth=3).fit(Xd, yd),
        "optimal": OptimalTreeClassifier(max_depth=2).fit(Xi[::3], yi[::3]),
        "ctree_surrogate": ConditionalTreeClassifier(max_surrogates=1).fit(Xm, ym),
        "hist": HistCARTClassifier(max_bins=8).fit(Xm, ym),
        "chaid": CHAIDClassifier().fit(Xi, yi),
        "forest": RandomForestClassifier(n_estimators=2, max_depth=2,
                                         random_state=0).fit(Xt, yt),
    }
    return {name: json.loads(to_json(m)) for name, m in models.items()}


DOCUMENTS = _documents()


def run_in_worker(texts: list[str]) -> list[dict]:
    """Load ``texts`` in a subprocess under an address-space limit; a crash fails here."""
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, str(WORKER)], input=json.dumps(texts),
                          capture_output=True, text=True, env=env, timeout=600)
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0, (
        f"the loader's process died (code {proc.returncode}) on text {len(results)}: "
        f"{texts[len(results)][:300] if len(results) < len(texts) else ''}\n{proc.stderr[-2000:]}")
    assert len(results) == len(texts)
    return results


# ---------------------------------------------------------------------------- the fuzz corpus
def _paths(v, here=()):
    yield here
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, here + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, here + (i,))


def _at(doc, path):
    for p in path:
        doc = doc[p]
    return doc


RETYPED = ["x", "abc", [], {}, None, True, 1.5, [1, 2], {"type": "float", "value": "nan"},
           {"type": "array", "dtype": "int64", "shape": [1], "data": [0]}]
EDGE_INTS = [-1, -2, 0, 1, 2, 3, 7, 10**11, 2**63, -(2**63) - 1, 10**30]
DTYPES = ["U100000000", "<U100000000", "V8", "M8[ns]", "object", "int8", "float16",
          "complex128", "S5", "bool", "uint8"]
SHAPES = [[10**11], [-1], [2, 10**10], [0], [1, 1, 1], "3"]


def _mutate(doc: dict, rng: random.Random) -> dict:
    doc = copy.deepcopy(doc)
    for _ in range(rng.choice([1, 1, 2, 3])):
        paths = [p for p in _paths(doc) if p and NEST not in p]
        path = rng.choice(paths)
        parent, key = _at(doc, path[:-1]), path[-1]
        value = parent[key]
        op = rng.choice(["drop", "dup", "retype", "int", "nan", "length", "nest", "dtype",
                         "shape", "int", "int"])
        if op == "drop":
            del parent[key]
        elif op == "dup":
            if isinstance(parent, list):
                parent.insert(key, copy.deepcopy(value))
            else:
                other = rng.choice(list(parent))
                parent[other] = copy.deepcopy(value)
        elif op == "retype":
            parent[key] = copy.deepcopy(rng.choice(RETYPED))
        elif op == "int":
            try:
                n = len(_at(doc, ("fitted", "tree_", "nodes")))
            except (KeyError, TypeError, IndexError):
                n = 5
            parent[key] = rng.choice(EDGE_INTS + [n, n - 1, n + 1])
        elif op == "nan":
            parent[key] = rng.choice([math.nan, math.inf, -math.inf,
                                      {"type": "float", "value": "nan"},
                                      {"type": "float", "value": "-inf"}])
        elif op == "length" and isinstance(value, list):
            parent[key] = value[: rng.randrange(len(value) + 1)] if rng.random() < 0.5 \
                else value + copy.deepcopy(value[:1]) * rng.choice([1, 3, 1000])
        elif op == "nest":  # written into the text by _corpus (too deep for json.dumps)
            parent[key] = {NEST: rng.choice([3, 70, 3000]), "value": value}
        elif op == "dtype":
            arrays = [p for p in paths if isinstance(_at(doc, p), dict)
                      and _at(doc, p).get("type") == "array"]
            if arrays:
                _at(doc, rng.choice(arrays))["dtype"] = rng.choice(DTYPES)
        elif op == "shape":
            arrays = [p for p in paths if isinstance(_at(doc, p), dict)
                      and _at(doc, p).get("type") == "array"]
            if arrays:
                _at(doc, rng.choice(arrays))["shape"] = rng.choice(SHAPES)
    return doc


NEST = "__nest_this_deep__"


def _text(doc) -> str:
    """``doc`` as JSON (NaN as bare literals too), each nest marker written as its value
    inside that many list brackets."""
    marked = [p for p in _paths(doc) if isinstance(_at(doc, p), dict) and NEST in _at(doc, p)]
    if not marked:
        return json.dumps(doc)
    path = marked[0]
    depth, value = _at(doc, path)[NEST], _at(doc, path)["value"]
    _at(doc, path[:-1])[path[-1]] = "__deep__"
    return _text(doc).replace('"__deep__"', "[" * depth + json.dumps(value) + "]" * depth, 1)


def _corpus(name: str) -> list[str]:
    rng = random.Random(f"issue-22/{name}")
    return [_text(_mutate(DOCUMENTS[name], rng)) for _ in range(MUTANTS_PER_DOCUMENT)]


@pytest.fixture(scope="module")
def fuzz_results():
    """Every document's corpus (its unmutated text first), loaded in one worker."""
    texts = {name: [json.dumps(DOCUMENTS[name])] + _corpus(name) for name in DOCUMENTS}
    flat = [t for name in sorted(texts) for t in texts[name]]
    results, out = run_in_worker(flat), {}
    for name in sorted(texts):
        out[name], results = results[: len(texts[name])], results[len(texts[name]):]
    return out


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_every_mutated_document_is_refused_clearly_or_loads_a_valid_model(name, fuzz_results):
    results = fuzz_results[name]
    texts = results
    assert results[0]["outcome"] == "loaded", results[0]  # the unmutated document
    bad = [(r["i"], r["detail"]) for r in results if r["outcome"] == "bad"]
    assert not bad, f"{len(bad)} of {len(texts)} loads ended badly, e.g. {bad[:5]}"
    # the corpus does reach the loader's checks (and not only its first key)
    outcomes = {r["outcome"] for r in results}
    assert outcomes == {"loaded", "error"}


# ------------------------------------------------------------- one test per probe family
def _doc(name="cart_subset"):
    return copy.deepcopy(DOCUMENTS[name])


def _refused(doc_or_text, match, **kwargs):
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    with pytest.raises(MalformedModelError, match=match):
        from_json(text, **kwargs)


def test_an_empty_tree_is_refused_and_never_reaches_a_walk():
    d = _doc()
    d["fitted"]["tree_"]["nodes"] = []
    [result] = run_in_worker([json.dumps(d)])  # it segfaulted predict_proba / apply
    assert result["outcome"] == "error" and "'nodes' is empty" in result["detail"]
    tree = from_json(json.dumps(_doc())).tree_
    with pytest.raises(MalformedModelError, match="at least one node"):
        Tree(**{**_fields(tree), "kind": tree.kind[:0]})


def test_a_float_tag_whose_value_is_not_text_is_refused():
    """``{"type": "float", "value": [...]}`` inside a float array raised a TypeError
    (the value was looked up in a dict) before it was checked."""
    d = _doc("chaid")
    arr = d["fitted"]["node_p_value_"]
    at = next(i for i, v in enumerate(arr["data"]) if isinstance(v, dict))
    for bad in ([], {}, ["nan"]):
        arr["data"][at] = {"type": "float", "value": bad}
        _refused(d, "a float must be 'nan', 'inf' or '-inf'")


def _fields(tree):
    import dataclasses

    return {f.name: getattr(tree, f.name) for f in dataclasses.fields(tree)}


def test_the_compiled_walks_stay_inside_their_arrays_whatever_they_are_given():
    from treebook.kernels.walk import walk_thresholds, walk_tree

    X = np.zeros((3, 2))
    out = np.zeros(3, dtype=np.int64)
    e = np.empty(0, dtype=np.int64)
    walk_tree(X, e, np.empty(0, dtype=bool), np.empty(0), np.zeros(1, np.int64), e,
              np.zeros(1, np.int64), e, out)
    assert list(out) == [-1, -1, -1]
    # a child past the end, a feature past X's columns, a back edge: the row stops there
    def packed_walk(records):
        packed = np.array(records, dtype=np.int64).reshape(-1, 2)
        threshold = packed.view(np.float64)
        threshold[:, 0] = 0.0  # every node tests x_f > 0
        walk_thresholds(X + 1, packed, threshold, np.zeros_like(packed), out)
        return list(out)

    empty = np.empty((0, 2), dtype=np.int64)
    walk_thresholds(X, empty, empty.view(np.float64), empty, out)
    assert list(out) == [-1, -1, -1]
    leaf = -1
    assert packed_walk([[0, (0 << 32) | 9], [0, leaf]]) == [0, 0, 0]  # right child past the end
    assert packed_walk([[0, (5 << 32) | 1], [0, leaf]]) == [0, 0, 0]  # feature past X's columns
    assert packed_walk([[0, (0 << 32) | 1], [0, (0 << 32) | 0]]) == [1, 1, 1]  # back edge
    assert packed_walk([[0, (0 << 32) | 1], [0, leaf]]) == [1, 1, 1]  # the tree itself: a leaf
    walk_tree(X, np.array([0, 0], np.int64), np.array([True, True]), np.zeros(2),
              np.array([0, 2, 4], np.int64), np.array([1, 1, 0, 0], np.int64),
              np.zeros(3, np.int64), e, out)
    assert list(out) == [1, 1, 1]  # node 1's child 0 points back to the root: stop at 1


def test_a_tree_built_directly_with_a_bad_child_or_feature_is_refused():
    tree = from_json(json.dumps(_doc("cart_regressor"))).tree_
    f = _fields(tree)
    children = tree.children.copy()
    children[0] = tree.node_count + 3
    with pytest.raises(MalformedModelError, match="tree.children: node 0 has child"):
        Tree(**{**f, "children": children})
    children = tree.children.copy()
    children[1] = children[0]  # two edges into one node: a graph, not a tree
    with pytest.raises(MalformedModelError, match="tree.children"):
        Tree(**{**f, "children": children})
    feature = tree.feature.copy()
    feature[0] = -3
    with pytest.raises(MalformedModelError, match="tree.feature: node 0 tests feature -3"):
        Tree(**{**f, "feature": feature})
    feature[0] = len(tree.feature_names)
    with pytest.raises(MalformedModelError, match="tree.feature: node 0"):
        Tree(**{**f, "feature": feature})


def test_a_document_names_only_registered_estimators_and_callables(tmp_path, monkeypatch):
    # a module beside a downloaded model whose name starts with "treebook" is never run
    marker = tmp_path / "ran"
    (tmp_path / "treebook_x.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n"
                                            "def f(*a, **k): return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    d = _doc("criterion")
    d["params"]["criterion"] = {"type": "callable", "name": "treebook_x.f"}
    _refused(d, r"callable 'treebook_x.f' is not one a model may name")
    assert not marker.exists()
    for name in ("treebook.teaching.experiments.subprocess", "treebook.experiments.subprocess",
                 "treebook.io.serialize.to_json", "os.system"):
        d["params"]["criterion"] = {"type": "callable", "name": name}
        _refused(d, "is not one a model may name")
    d = _doc()
    for name in ("os.system", "treebook.core.tree.Tree", "treebook_x.Estimator"):
        d["estimator"] = name
        _refused(d, "is not a treebook estimator")
    d = _doc()
    d["fitted"]["n_iter_"] = {"type": "callable", "name": "treebook.experiments.subprocess"}
    _refused(d, "is not one a model may name")


@pytest.mark.parametrize("edit, match", [
    (lambda t: t["nodes"][0].update(threshold={"type": "float", "value": "nan"}),
     "threshold is NaN"),
    (lambda t: t["nodes"][0].update(feature=-1), "tests feature -1"),
    (lambda t: t["nodes"][0].update(feature=10**6), "feature 1000000 is not below"),
    (lambda t: t["nodes"][1].update(weighted_n=-4.0), "negative weight"),
    (lambda t: t["nodes"][1].update(weighted_n={"type": "float", "value": "nan"}),
     "weighted_n: every entry must be a finite number"),
    (lambda t: t["nodes"][1].update(value=[-1.0, 3.0]), "negative class count"),
    (lambda t: t["nodes"][1].update(n_samples=-1), "negative count"),
    (lambda t: t.update(n_outputs=3), "'value' must have n_outputs = 3"),
    (lambda t: t["nodes"][0].update(kind="leaf"), "leaf|children|pre-order"),
    (lambda t: t["nodes"][0].update(branch_of_code=[0, 5, 1]), "branch_of_code"),
])
def test_values_that_change_predictions_silently_are_refused(edit, match):
    d = _doc("cart_subset" if "branch_of_code" in match else "cart_regressor")
    if "class count" in match:
        d = _doc("cart_subset")
    edit(d["fitted"]["tree_"])
    _refused(d, match)


def test_a_bare_nan_literal_is_not_json():
    text = json.dumps(_doc()).replace('"weighted_n": 14.0', '"weighted_n": NaN', 1)
    assert "NaN" in text
    _refused(text, "not strict JSON: the literal NaN")


def test_the_missing_value_rule_and_surrogates_are_checked():
    d = _doc("cart_surrogate")
    rule = d["fitted"]["tree_"]["missing_rule"]
    rule["missing_go"][0] = 2
    _refused(d, "missing_go")
    d = _doc("cart_surrogate")
    rule = d["fitted"]["tree_"]["missing_rule"]
    first = next(i for i, s in enumerate(rule["surrogates"]) if s)
    rule["surrogates"][first][0]["feature"] = 7
    _refused(d, r"surrogates\[\d+\]\[0\]: feature 7 is out of range")


def test_fitted_attributes_must_agree_with_the_tree():
    d = _doc()
    d["fitted"]["classes_"]["data"] = d["fitted"]["classes_"]["data"][:1]
    d["fitted"]["classes_"]["shape"] = [1]
    _refused(d, "classes_: 1 labels but the tree counts 2 classes")
    d = _doc()
    d["fitted"]["classes_"]["shape"] = [1, 2]
    _refused(d, "classes_: expected a 1-D array")
    d = _doc()
    d["fitted"]["n_features_in_"] = 2
    _refused(d, "n_features_in_")
    d = _doc()
    d["fitted"]["feature_importances_"] = 1  # a read-only property of the estimator
    _refused(d, "names an attribute of CARTClassifier")


def test_declared_sizes_are_checked_before_anything_is_allocated():
    d = _doc()
    d["fitted"]["tree_"]["n_outputs"] = 10**11
    a = _doc()
    a["fitted"]["classes_"] = {"type": "array", "dtype": "U100000000", "shape": [1],
                               "data": ["a"]}
    s = _doc()
    s["fitted"]["classes_"]["shape"] = [10**11, 10**11]
    results = run_in_worker([json.dumps(x) for x in (d, a, s)])  # under RLIMIT_AS
    assert [r["outcome"] for r in results] == ["error"] * 3, results
    assert "n_outputs" in results[0]["detail"]
    assert "wider than its longest entry" in results[1]["detail"]
    assert "shape" in results[2]["detail"]


def test_unknown_dtypes_huge_numbers_and_deep_nesting_get_the_loaders_error():
    d = _doc()
    d["fitted"]["classes_"]["dtype"] = "V8"
    _refused(d, "dtype 'V8' is not allowed")
    d = _doc()
    d["fitted"]["tree_"]["nodes"][0]["n_samples"] = 10**30
    _refused(d, "out of the 64-bit range")
    d = _doc()
    d["fitted"]["tree_"]["nodes"][1]["impurity"] = "abc"
    _refused(d, "expected a number")
    text = json.dumps(_doc()).replace('"extra": ', '"extra": ' + "[" * 100000, 1)
    text = text.replace('"missing_rule"', "]" * 100000 + ', "missing_rule"', 1)
    _refused(text, "nested too deeply|not valid JSON")
    d = _doc()
    inner = {"type": "tuple", "items": []}
    for _ in range(200):
        inner = {"type": "tuple", "items": [inner]}
    d["fitted"]["tree_"]["extra"] = inner
    _refused(d, "nested deeper than")


def test_caps_on_nodes_and_length_are_clear_and_can_be_raised():
    text = json.dumps(_doc("cart_regressor"))
    n = len(_doc("cart_regressor")["fitted"]["tree_"]["nodes"])
    _refused(text, rf"{n} nodes is over the cap of 5 \(raise it with from_json\(max_nodes",
             max_nodes=5)
    _refused(text + " " * 2**21, "characters is over the cap", max_nodes=n)
    assert from_json(text, max_nodes=n).tree_.node_count == n
    with pytest.raises(ValueError, match="max_nodes must be an integer >= 1"):
        from_json(text, max_nodes=0)


def test_loading_and_validation_agree_with_the_writer_on_every_learner():
    for name, d in DOCUMENTS.items():
        model = from_json(json.dumps(d))
        fitted = d["fitted"]["estimators_"][0]["fitted"] if name == "forest" else d["fitted"]
        assert d["schema_version"] == 2 and "n_features" in fitted["tree_"], name
        assert json.loads(to_json(model)) == d, name
