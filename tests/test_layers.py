"""The package's folders are its layers: each imports only the folders below it.

Every import is read — at module level and inside functions (``ast.walk``), absolute and
relative — and resolved to the module it names. The rules (``DESIGN.md``):

* layers, bottom up: ``kernels`` ← ``core`` ← ``growers`` ← ``prune`` ← learners ← ``io`` /
  ``teaching``; a module imports its own folder or folders below it, never above;
* no import circle anywhere, lazy imports inside functions included;
* no learner imports another learner (the forests of ``ensemble`` are made of CART
  estimators and may import ``cart``);
* ``kernels/`` imports numba, numpy and its own modules only;
* the only upward imports are the estimators' thin output methods (``to_json``,
  ``export_text``, ``to_graphviz``, ``to_rules`` of ``core/base.py``, and the forests'
  ``to_json`` in ``ensemble.py``), which import ``io``
  inside the method; they are the listed exceptions, and are not edges of the import
  graph in which circles are sought (``io`` knows the estimator classes; the base class
  reaches ``io`` only when such a method is called).

The checker is a function of a source folder, so the tests below also run it on a copy
with a deliberate violation and see it fail.
"""

from __future__ import annotations

import ast
import pathlib
import shutil

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "src" / "treebook"

#: rank of each layer; a module may import modules of rank <= its own (same folder) or lower
LAYERS = {"_version": 0, "_optional": 0, "kernels": 0, "core": 1, "datasets": 1, "growers": 2, "prune": 3, "learners": 4,
          "io": 5, "teaching": 5, "package": 6}
#: top-level modules that are learners (thin: options -> grower -> pruning)
LEARNERS = {"id3", "c45", "cart", "cls", "ensemble", "hist", "optimal", "ctree", "chaid"}
#: (importing module, function) pairs allowed to import upward, and what they may import
ALLOWED_UPWARD = {
    ("treebook.core.base", "to_json"): "treebook.io.serialize",
    ("treebook.core.base", "export_text"): "treebook.io.render",
    ("treebook.core.base", "to_graphviz"): "treebook.io.render",
    ("treebook.core.base", "to_rules"): "treebook.io.render",
    ("treebook.ensemble", "to_json"): "treebook.io.serialize",
}
#: learner -> learners it may import
LEARNER_IMPORTS = {"ensemble": {"cart"}}
KERNEL_IMPORTS = {"numba", "numpy", "__future__"}


def module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "package"
    if len(parts) == 2 and parts[1] in LEARNERS:
        return "learners"
    if parts[1] in ("datasets", "_version"):
        return parts[1]
    return parts[1]


def imports_of(path: pathlib.Path, root: pathlib.Path):
    """``(target module, enclosing function or None, line)`` for every import in a file."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node

    def function_of(node):
        while node in parents:
            node = parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node.name
        return None

    known = {module_name(p, root) for p in root.rglob("*.py")}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, function_of(node), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                # `from . import impurity` imports a module; `from .tree import Tree` a name
                yield (sub if sub in known else target), function_of(node), node.lineno


def check_layers(root: pathlib.Path = PACKAGE) -> list[str]:
    """Every breach of the layer rules in the package at ``root``, as readable lines."""
    problems = []
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        layer = layer_of(module)
        graph.setdefault(module, set())
        for target, function, line in imports_of(path, root):
            where = f"{module} (line {line})"
            if (layer == "kernels" and target.split(".")[0] not in KERNEL_IMPORTS
                    and not target.startswith("treebook.kernels")):
                problems.append(f"{where}: a kernel imports {target}; kernels import numba "
                                "and numpy only")
            if not target.startswith("treebook"):
                continue
            to_layer = layer_of(target)
            if LAYERS[to_layer] > LAYERS[layer] or (
                    LAYERS[to_layer] == LAYERS[layer] and to_layer != layer):
                if ALLOWED_UPWARD.get((module, function)) == target:
                    continue    # allowed, and not an edge of the import graph either
                problems.append(f"{where}: {layer} imports {target} ({to_layer}), a layer "
                                "above or beside it")
            graph[module].add(target)
            if layer == "learners" and to_layer == "learners" and target != module:
                a, b = module.split(".")[1], target.split(".")[1]
                if b not in LEARNER_IMPORTS.get(a, set()):
                    problems.append(f"{where}: the learner {a} imports the learner {b}")
    problems += [f"import circle among: {', '.join(c[:-1])}" for c in cycles(graph)]
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle for every strongly connected component with more than one module
    (Tarjan's algorithm)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp) + [sorted(comp)[0]])
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_package_keeps_its_layers():
    problems = check_layers()
    assert not problems, "\n".join(problems)


def test_every_module_is_in_a_known_layer():
    for path in PACKAGE.rglob("*.py"):
        assert layer_of(module_name(path, PACKAGE)) in LAYERS, path


@pytest.mark.parametrize("where, line, expect", [
    # a core module importing a grower at module level
    ("core/splits.py", "from ..growers.recursive import grow_tree\n", "core imports"),
    # a lazy upward import inside a function
    ("kernels/cart.py", "def _late():\n    from ..core.tree import Tree\n",
     "a kernel imports"),
    ("growers/levelwise.py", "def _late():\n    from ..cart import CARTClassifier\n",
     "growers imports treebook.cart"),
    # a learner importing another learner
    ("hist.py", "from .cart import CARTClassifier\n", "the learner hist imports"),
    # a circle inside one folder (core.impurity <-> core.checks)
    ("core/checks.py", "def _late():\n    from . import impurity\n", "import circle"),
    # a kernel importing something other than numba/numpy
    ("kernels/c45.py", "import scipy\n", "kernels import numba and numpy only"),
])
def test_a_deliberate_breach_is_caught(tmp_path, where, line, expect):
    copy = tmp_path / "treebook"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    target = copy / where
    target.write_text(target.read_text(encoding="utf-8") + "\n" + line, encoding="utf-8")
    problems = check_layers(copy)
    assert any(expect in p for p in problems), problems
