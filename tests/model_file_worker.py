"""Loads model texts in a process of its own, under an address-space limit, for
``tests/test_model_files.py``: a crash or a large allocation ends this process (and fails
the test), never pytest.

Reads a JSON list of texts on stdin; for each writes one JSON line: ``{"i", "outcome",
"detail"}`` with outcome ``"error"`` (the loader's :class:`MalformedModelError`),
``"loaded"`` (a model whose every tree passes validation and on which the compiled and
numpy walks agree) or ``"bad"`` (anything else: another exception, a disagreement).
"""

import json
import resource
import sys

import numpy as np

from treebook.core.tree import Tree, apply_compiled
from treebook.core.tree_validation import MalformedModelError, validate_tree
from treebook.io.serialize import from_json

#: address space allowed beyond what the process holds after its imports and warm-up
HEADROOM = 768 * 2**20


def _probe(n_features: int, rng) -> np.ndarray:
    """Rows of every kind a walk meets: codes in and out of range, halves, NaN, huge."""
    pool = np.array([0, 1, 2, 3, 5, -1, -0.5, 0.5, 2.5, 1e9, -1e9, 1e300, np.nan])
    return rng.choice(pool, size=(48, max(n_features, 1)))


def _walks_agree(tree: Tree, X: np.ndarray) -> str | None:
    validate_tree(tree)
    if tree.missing_go is not None:  # CART's rule lives in route only; compare known values
        X = np.where(np.isnan(X), 0.0, X)
        if tree.unseen_as_missing:
            return None
    rows, nodes, _ = tree.route(X, missing="stop")
    numpy_end = np.empty(X.shape[0], dtype=np.int64)
    numpy_end[rows] = nodes
    compiled_end = apply_compiled(tree, X)
    if not np.array_equal(numpy_end, compiled_end):
        bad = int(np.flatnonzero(numpy_end != compiled_end)[0])
        return f"walks disagree on row {bad}: numpy {numpy_end[bad]}, compiled {compiled_end[bad]}"
    return None


def load_one(text: str, rng) -> tuple[str, str]:
    try:
        model = from_json(text)
    except MalformedModelError as exc:
        return "error", str(exc)[:200]
    except Exception as exc:  # noqa: BLE001 - any other exception is the finding
        return "bad", f"{type(exc).__name__}: {str(exc)[:200]}"
    try:
        estimators = [model, *getattr(model, "estimators_", [])]  # a forest's trees too
        trees = [v for est in estimators for v in vars(est).values() if isinstance(v, Tree)]
        for tree in trees:
            width = max(int(tree.feature.max()) + 1, len(tree.feature_names))
            problem = _walks_agree(tree, _probe(width, rng))
            if problem:
                return "bad", problem
    except Exception as exc:  # noqa: BLE001
        return "bad", f"after loading: {type(exc).__name__}: {str(exc)[:200]}"
    return "loaded", ""


def main() -> None:
    texts = json.loads(sys.stdin.read())
    rng = np.random.default_rng(0)
    if texts:  # warm up (numba's compiled walks load their cache) before the limit
        load_one(texts[0], rng)
    with open("/proc/self/status") as f:
        vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + HEADROOM, vm + HEADROOM))
    for i, text in enumerate(texts):
        try:
            outcome, detail = load_one(text, rng)
        except MemoryError:
            outcome, detail = "bad", "MemoryError: an allocation beyond the address-space limit"
        print(json.dumps({"i": i, "outcome": outcome, "detail": detail}), flush=True)


if __name__ == "__main__":
    main()
