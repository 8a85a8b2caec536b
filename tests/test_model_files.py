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
                      ID3Classifier, OptimalTreeClassifier)
from treebook.cls import CriterionTreeClassifier
from treebook.core.tree import Tree, TreeBuilder
from treebook.core.tree_validation import MalformedModelError
from treebook.datasets import load_play_tennis
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
