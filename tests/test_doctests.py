"""Every docstring example in the package runs and prints what it shows (issue 25).

The examples are what the API reference shows a reader; here each module's examples run
under :mod:`doctest` in ``make test``. A module is found by walking the package, so an
example added anywhere is run without listing it.
"""

import doctest
import importlib
import pkgutil

import pytest

import treebook


def modules_with_examples() -> list[str]:
    found = []
    for info in pkgutil.walk_packages(treebook.__path__, "treebook."):
        module = importlib.import_module(info.name)
        if any(t.examples for t in doctest.DocTestFinder().find(module, module.__name__)):
            found.append(info.name)
    return found


MODULES = modules_with_examples()


def test_the_examples_are_found():
    # the modules whose docstrings carry examples for the API reference (a walk that
    # found nothing would make the test below vacuous)
    assert {"treebook.id3", "treebook.cart", "treebook.core.impurity",
            "treebook.io.serialize"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0, \
        f"{result.failed} of {result.attempted} examples failed in {name} (output above)"
