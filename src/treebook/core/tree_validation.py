"""What makes a :class:`treebook.core.tree.Tree` well formed, checked when one is built.

A tree comes from a grower, from pruning, or from a model file somebody shared
(:func:`treebook.io.serialize.from_json`): the last is untrusted input, and the arrays are
public, so :func:`validate_tree` checks every array against the others before any walk
reads them. Every check is a handful of vectorised numpy operations over the nodes (no
Python loop over nodes, except over the few nodes that carry surrogate splits), so it
costs a small fraction of what building or loading the tree costs (measured by
``benchmarks/bench_tree_validation.py``).

With ``N`` nodes, ``nb_i = children_ptr[i+1] - children_ptr[i]`` branches at node ``i``
and ``w_i = code_ptr[i+1] - code_ptr[i]`` category codes, a well-formed tree has

* ``N >= 1``; every per-node array of length ``N`` (``value`` of shape ``(N, K)``,
  ``K >= 1``; ``K = 1`` for regression, ``K = len(classes)`` when ``classes`` is given);
* ``kind`` in ``NodeKind``; a leaf has ``nb = 0``, ``w = 0`` and ``feature = -1``; a
  ``THRESHOLD`` node ``nb = 2``, ``w = 0`` and a threshold that is not NaN; a ``SUBSET`` node
  ``nb = 2``; a ``MULTIWAY`` node ``nb >= 1``; ``branch_of_code`` entries in
  ``-1 .. nb_i - 1``;
* ``children_ptr``/``code_ptr`` non-decreasing from 0 to the length of
  ``children``/``branch_of_code``;
* a tree, not a graph: every child id ``c`` of node ``i`` satisfies ``i < c < N`` (so no
  path returns to a node: ids increase along every edge), every node but the root is the
  child of exactly one node, ``parent`` agrees with ``children`` and ``depth[c] =
  depth[i] + 1``;
* features: ``0 <= feature < n_features`` at a split (``n_features = len(feature_names)``
  when the names are given), and ``len(categories) = n_features`` when both are given;
* ``value``, ``weighted_n``, ``impurity`` finite; ``weighted_n >= 0``, ``n_samples >= 0``
  and, for classification, ``value >= 0`` (they are weighted counts ``C_k``);
* ``missing_go`` (when present) in ``-1 .. nb_i - 1``, ``-1`` at a leaf; ``surrogates``
  empty or one tuple per node, each surrogate on a feature in range, with a finite
  threshold or a ``branch_of_code`` of branches ``-1 .. 1``.

A violation is a :class:`MalformedModelError` (a ``ValueError``) naming the field, the
first offending node and what was expected.
"""

from __future__ import annotations

import numpy as np

from .splits import NodeKind

__all__ = ["MalformedModelError", "validate_tree"]


class MalformedModelError(ValueError):
    """A model that is not well formed: a :class:`~treebook.core.tree.Tree` whose arrays
    contradict each other, or a model file (:func:`treebook.io.serialize.from_json`) that
    is not a valid document. The message names the field and the problem."""


def _fail(field: str, problem: str):
    raise MalformedModelError(f"{field}: {problem}")


def _first(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _int_array(tree, name: str, n: int | None) -> np.ndarray:
    a = getattr(tree, name)
    if not isinstance(a, np.ndarray) or a.ndim != 1 or a.dtype.kind not in "iu":
        _fail(f"tree.{name}", "expected a 1-D integer array; got "
              f"{type(a).__name__} {getattr(a, 'dtype', '')} {getattr(a, 'shape', '')}")
    if n is not None and a.shape[0] != n:
        _fail(f"tree.{name}", f"expected {n} entries; got {a.shape[0]}")
    return a


def _float_array(tree, name: str, n: int) -> np.ndarray:
    a = getattr(tree, name)
    if not isinstance(a, np.ndarray) or a.ndim != 1 or a.dtype.kind not in "iuf":
        _fail(f"tree.{name}", f"expected a 1-D float array; got {type(a).__name__}")
    if a.shape[0] != n:
        _fail(f"tree.{name}", f"expected {n} entries; got {a.shape[0]}")
    return a


def _check_ptr(name: str, ptr: np.ndarray, target: str, length: int) -> np.ndarray:
    if ptr[0] != 0 or ptr[-1] != length:
        _fail(f"tree.{name}", f"must run from 0 to len({target}) = {length}; "
              f"got {int(ptr[0])} .. {int(ptr[-1])}")
    width = np.diff(ptr)
    if np.any(width < 0):
        _fail(f"tree.{name}", f"must be non-decreasing; decreases at node {_first(width < 0)}")
    return width


def validate_tree(tree) -> None:
    """Check that ``tree``'s arrays describe one well-formed tree (the rules of this
    module's docstring); raise :class:`MalformedModelError` naming the field otherwise.

    Cost: ``O(N + len(children) + len(branch_of_code))`` vectorised, plus a loop over the
    nodes that have surrogate splits."""
    kind = _int_array(tree, "kind", None)
    N = kind.shape[0]
    if N == 0:
        _fail("tree.kind", "a tree has at least one node (the root); got 0 nodes")
    known = np.isin(kind, [int(k) for k in NodeKind])
    if not known.all():
        i = _first(~known)
        _fail("tree.kind", f"node {i} has kind {int(kind[i])}, not a NodeKind")
    feature = _int_array(tree, "feature", N)
    children_ptr = _int_array(tree, "children_ptr", N + 1)
    children = _int_array(tree, "children", None)
    code_ptr = _int_array(tree, "code_ptr", N + 1)
    branch_of_code = _int_array(tree, "branch_of_code", None)
    parent = _int_array(tree, "parent", N)
    depth = _int_array(tree, "depth", N)
    n_samples = _int_array(tree, "n_samples", N)
    threshold = _float_array(tree, "threshold", N)
    weighted_n = _float_array(tree, "weighted_n", N)
    impurity = _float_array(tree, "impurity", N)

    # branches and codes per node, by kind
    nb = _check_ptr("children_ptr", children_ptr, "children", children.shape[0])
    width = _check_ptr("code_ptr", code_ptr, "branch_of_code", branch_of_code.shape[0])
    leaf = kind == NodeKind.LEAF
    thr = kind == NodeKind.THRESHOLD
    binary = thr | (kind == NodeKind.SUBSET)
    bad = (leaf & (nb != 0)) | (binary & (nb != 2)) | (~leaf & (nb < 1))
    if bad.any():
        i = _first(bad)
        _fail("tree.children_ptr", f"node {i} ({NodeKind(int(kind[i])).name}) has {int(nb[i])} "
              "branches (a leaf has 0, a threshold or subset test 2, a multiway test >= 1)")
    bad = (leaf | thr) & (width != 0)
    if bad.any():
        _fail("tree.code_ptr", f"node {_first(bad)} has category codes but no categorical test")
    if branch_of_code.size:
        owner = np.repeat(np.arange(N), width)
        bad = (branch_of_code < -1) | (branch_of_code >= nb[owner])
        if bad.any():
            j = _first(bad)
            _fail("tree.branch_of_code", f"entry {j} (node {int(owner[j])}) is "
                  f"{int(branch_of_code[j])}; expected -1 or a branch below {int(nb[owner[j]])}")

    # a tree, not a graph: ids increase along every edge, one parent per node
    if children.size:
        owner = np.repeat(np.arange(N), nb)
        bad = (children <= owner) | (children >= N)
        if bad.any():
            j = _first(bad)
            _fail("tree.children", f"node {int(owner[j])} has child {int(children[j])}; "
                  f"a child's id must be in {int(owner[j]) + 1}..{N - 1}")
        n_parents = np.bincount(children, minlength=N)
    else:
        owner = children
        n_parents = np.zeros(N, dtype=np.int64)
    bad = n_parents[1:] != 1
    if bad.any():
        i = _first(bad) + 1
        _fail("tree.children", f"node {i} is the child of {int(n_parents[i])} nodes; every "
              "node but the root has exactly one parent")
    expected_parent = np.full(N, -1, dtype=np.int64)
    expected_parent[children] = owner
    if not np.array_equal(parent, expected_parent):
        i = _first(parent != expected_parent)
        _fail("tree.parent", f"node {i} has parent {int(parent[i])}; its parent by "
              f"children is {int(expected_parent[i])}")
    # ids increase along edges, so depth[parent] is final before the child reads it
    bad = depth != np.where(expected_parent >= 0, depth[np.maximum(expected_parent, 0)] + 1, 0)
    if bad.any():
        i = _first(bad)
        _fail("tree.depth", f"node {i} has depth {int(depth[i])}; expected its parent's + 1 "
              "(0 at the root)")

    # features
    n_features = len(tree.feature_names) if tree.feature_names else None
    if leaf.any() and np.any(feature[leaf] != -1):
        _fail("tree.feature", f"leaf {_first(leaf & (feature != -1))} has a feature; a leaf's "
              "feature is -1")
    split_feature = feature[~leaf]
    if split_feature.size:
        limit = n_features if n_features is not None else np.iinfo(np.int64).max
        bad = (split_feature < 0) | (split_feature >= limit)
        if bad.any():
            i = int(np.flatnonzero(~leaf)[_first(bad)])
            _fail("tree.feature", f"node {i} tests feature {int(feature[i])}; expected "
                  + (f"0..{n_features - 1} ({n_features} features)" if n_features is not None
                     else "a feature index >= 0"))
    if n_features is not None and tree.categories and len(tree.categories) != n_features:
        _fail("tree.categories", f"expected one entry per feature ({n_features}); got "
              f"{len(tree.categories)}")
    # +-inf is a legitimate cut (CART's missing-value rule sends every known value one
    # way); NaN compares false with everything and would route by accident
    if np.any(thr & np.isnan(threshold)):
        _fail("tree.threshold", f"node {_first(thr & np.isnan(threshold))} is a threshold "
              "test whose threshold is NaN")

    # statistics
    value = tree.value
    if not isinstance(value, np.ndarray) or value.ndim != 2 or value.dtype.kind not in "iuf":
        _fail("tree.value", f"expected a 2-D float array (nodes x outputs); got "
              f"{type(value).__name__} of shape {getattr(value, 'shape', None)}")
    if value.shape[0] != N or value.shape[1] < 1:
        _fail("tree.value", f"expected shape ({N}, K) with K >= 1; got {value.shape}")
    K = value.shape[1]
    if tree.is_regression and K != 1:
        _fail("tree.value", f"a regression tree has one output; got {K}")
    if not tree.is_regression and tree.classes is not None and len(tree.classes) != K:
        _fail("tree.classes", f"expected {K} classes (the columns of value); got "
              f"{len(tree.classes)}")
    for name, a in (("value", value), ("weighted_n", weighted_n), ("impurity", impurity)):
        if not np.all(np.isfinite(a)):
            _fail(f"tree.{name}", "every entry must be a finite number; node "
                  f"{_first(~np.isfinite(a).reshape(N, -1).all(axis=1))} is not")
    if np.any(weighted_n < 0):
        _fail("tree.weighted_n", f"node {_first(weighted_n < 0)} has a negative weight")
    if np.any(n_samples < 0):
        _fail("tree.n_samples", f"node {_first(n_samples < 0)} has a negative count")
    if not tree.is_regression and np.any(value < 0):
        _fail("tree.value", f"node {_first((value < 0).any(axis=1))} has a negative class "
              "count")

    # CART's missing-value rule
    go = tree.missing_go
    if go is not None:
        go = _int_array(tree, "missing_go", N)
        bad = (go < -1) | (go >= nb) | (leaf & (go != -1))
        if bad.any():
            i = _first(bad)
            _fail("tree.missing_go", f"node {i} sends a missing value to branch {int(go[i])}; "
                  f"expected -1 or a branch below {int(nb[i])} (-1 at a leaf)")
    if tree.surrogates:
        _validate_surrogates(tree.surrogates, N, leaf, n_features)


def _validate_surrogates(surrogates, N: int, leaf: np.ndarray, n_features) -> None:
    if not isinstance(surrogates, tuple) or len(surrogates) != N:
        _fail("tree.surrogates", f"expected () or one tuple per node ({N})")
    limit = n_features if n_features is not None else np.iinfo(np.int64).max
    for i in np.flatnonzero([len(s) > 0 for s in surrogates]):
        if leaf[i]:
            _fail("tree.surrogates", f"leaf {i} has surrogate splits")
        for j, s in enumerate(surrogates[i]):
            at = f"tree.surrogates[{i}][{j}]"
            if not (0 <= int(s.feature) < limit):
                _fail(at, f"feature {s.feature} is out of range")
            if s.kind == NodeKind.THRESHOLD:
                if not np.isfinite(s.threshold) or s.low_branch not in (0, 1):
                    _fail(at, "a threshold surrogate needs a finite threshold and "
                          "low_branch 0 or 1")
            elif s.kind == NodeKind.SUBSET:
                b = s.branch_of_code
                if not isinstance(b, np.ndarray) or b.ndim != 1 or b.dtype.kind not in "iu" \
                        or np.any((b < -1) | (b > 1)):
                    _fail(at, "a subset surrogate needs a branch_of_code of -1, 0 or 1")
            else:
                _fail(at, f"kind must be THRESHOLD or SUBSET; got {s.kind!r}")
