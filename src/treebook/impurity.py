"""Impurity measures on (weighted) class counts.

Notation (used throughout the book):

* ``D`` — the training cases at a node, ``|D|`` their total weight;
* ``K`` classes with counts ``C_1 … C_K`` (weights, not necessarily integers) and
  proportions ``p_k = C_k / |D|``;
* an attribute ``A`` with ``V`` values splits ``D`` into branches ``D_1 … D_V``; the
  *contingency table* ``counts_by_branch`` has shape ``(V, K)``: row ``v`` holds the class
  counts of ``D_v``.

Every measure takes counts, not labels: a count vector has shape ``(..., K)`` and a
contingency table ``(..., V, K)``; leading axes are batch axes, so one call scores many
nodes or many candidate splits at once (the sorted scans in :mod:`treebook.splits` rely on
this). Entropies are in bits (log base 2) with ``0 · log 0 = 0``.

Each public function validates its input (``check=True``) and raises ``ValueError`` naming
the argument for empty, negative or non-finite counts, or a zero total. Internal callers
that pass freshly computed counts use ``check=False``; there, a count vector with zero
total has impurity 0 (an empty branch carries no weight, so it contributes nothing).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "class_counts",
    "contingency_table",
    "entropy",
    "conditional_entropy",
    "information_gain",
    "split_information",
    "gain_ratio",
    "gini",
    "gini_index",
    "gini_gain",
    "misclassification_error",
    "variance",
    "variance_from_sums",
]


# ----------------------------------------------------------------------------- validation
def _as_counts(counts, name: str, min_ndim: int = 1) -> np.ndarray:
    """Return ``counts`` as a float array after checking it is a usable count array."""
    try:
        arr = np.asarray(counts, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an array of numbers; got {counts!r}") from exc
    if arr.ndim < min_ndim:
        shape = "(K,)" if min_ndim == 1 else "(V, K)"
        raise ValueError(f"{name} must have shape {shape} or more axes; got shape {arr.shape}")
    if arr.size == 0 or arr.shape[-1] == 0:
        raise ValueError(f"{name} is empty; expected at least one class count")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if np.any(arr < 0):
        raise ValueError(f"{name} contains negative counts")
    return arr


def _check_positive_total(total: np.ndarray, name: str) -> None:
    if np.any(total <= 0):
        raise ValueError(f"{name} has a zero total weight; there is nothing to measure")


def _proportions(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``p_k = C_k / |D|`` along the last axis (0 where ``|D| = 0``) and the totals."""
    total = counts.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return counts / safe[..., None], total


def _xlog2x(p: np.ndarray) -> np.ndarray:
    """``p · log2 p`` with the convention ``0 · log 0 = 0``."""
    out = np.zeros_like(p, dtype=float)
    pos = p > 0
    out[pos] = p[pos] * np.log2(p[pos])
    return out


def _scalar(x):
    return float(x) if np.ndim(x) == 0 else x


# ---------------------------------------------------------------------------- from labels
def class_counts(y, classes=None, sample_weight=None) -> tuple[np.ndarray, np.ndarray]:
    """Weighted class counts ``C_k = Σ_{i: y_i = c_k} w_i`` of a label array.

    Returns ``(classes, counts)``; ``classes`` are the sorted distinct labels unless given.
    With ``sample_weight=None`` every case weighs 1, so counts are plain frequencies.
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y.shape}")
    if y.size == 0:
        raise ValueError("y is empty; expected at least one label")
    w = _weights(sample_weight, y.shape[0])
    if classes is None:
        classes, codes = np.unique(y, return_inverse=True)
    else:
        classes = np.asarray(classes)
        lookup = {c: k for k, c in enumerate(classes.tolist())}
        if len(lookup) != len(classes):
            raise ValueError(f"classes must be distinct; got {classes.tolist()!r}")
        try:
            codes = np.fromiter((lookup[v] for v in y.tolist()), dtype=np.intp, count=y.size)
        except KeyError as exc:
            raise ValueError(f"y contains a label {exc.args[0]!r} not in classes") from None
    return classes, np.bincount(codes, weights=w, minlength=len(classes)).astype(float)


def contingency_table(x, y, sample_weight=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted counts of each (attribute value, class) pair: the table ``(V, K)``.

    Returns ``(values, classes, table)`` where ``table[v, k] = Σ w_i`` over cases with
    ``x_i = values[v]`` and ``y_i = classes[k]``.
    """
    x = np.asarray(x)
    y = np.asarray(y)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"x and y must be one-dimensional; got shapes {x.shape} and {y.shape}")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"x and y have different lengths ({x.shape[0]} and {y.shape[0]})")
    if x.size == 0:
        raise ValueError("x is empty; expected at least one case")
    w = _weights(sample_weight, y.shape[0])
    values, xc = np.unique(x, return_inverse=True)
    classes, yc = np.unique(y, return_inverse=True)
    table = np.zeros((len(values), len(classes)))
    np.add.at(table, (xc, yc), w)
    return values, classes, table


def _weights(sample_weight, n: int) -> np.ndarray:
    if sample_weight is None:
        return np.ones(n)
    w = np.asarray(sample_weight, dtype=float)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(
            f"sample_weight must have one weight per label ({n}); got shape {w.shape}"
        )
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must be finite and non-negative")
    return w


# ------------------------------------------------------------------------- node measures
def entropy(counts, *, check: bool = True):
    r"""Entropy of a node in bits: ``H(D) = -Σ_k p_k log2 p_k`` with ``0 · log 0 = 0``.

    ``counts`` has shape ``(..., K)``; the result has shape ``(...)`` (a float for one node).
    ``0 ≤ H(D) ≤ log2 K``.
    """
    c = _as_counts(counts, "counts") if check else np.asarray(counts, dtype=float)
    p, total = _proportions(c)
    if check:
        _check_positive_total(total, "counts")
    # the max(., 0) removes the -0.0 that a pure node would otherwise show
    return _scalar(np.maximum(-_xlog2x(p).sum(axis=-1), 0.0))


def gini(counts, *, check: bool = True):
    r"""Gini index of a node: ``Gini(D) = Σ_k p_k (1 - p_k) = 1 - Σ_k p_k²``.

    The probability that two cases drawn at random (with replacement) from ``D`` have
    different classes. ``0 ≤ Gini(D) ≤ 1 - 1/K``.
    """
    c = _as_counts(counts, "counts") if check else np.asarray(counts, dtype=float)
    p, total = _proportions(c)
    if check:
        _check_positive_total(total, "counts")
    out = 1.0 - np.einsum("...k,...k->...", p, p)
    return _scalar(np.where(total > 0, np.maximum(out, 0.0), 0.0))


def misclassification_error(counts, *, check: bool = True):
    r"""Misclassification error of a node: ``E(D) = 1 - max_k p_k``.

    The training error of a leaf that predicts the majority class. ``0 ≤ E(D) ≤ 1 - 1/K``.
    """
    c = _as_counts(counts, "counts") if check else np.asarray(counts, dtype=float)
    p, total = _proportions(c)
    if check:
        _check_positive_total(total, "counts")
    return _scalar(np.where(total > 0, 1.0 - p.max(axis=-1), 0.0))


# -------------------------------------------------------------------- split measures
def _table(counts_by_branch, check: bool) -> np.ndarray:
    if not check:
        return np.asarray(counts_by_branch, dtype=float)
    t = _as_counts(counts_by_branch, "counts_by_branch", min_ndim=2)
    _check_positive_total(t.sum(axis=(-2, -1)), "counts_by_branch")
    return t


def _weighted_branch_mean(measure, table: np.ndarray) -> np.ndarray:
    """``Σ_v |D_v|/|D| · measure(D_v)`` — the expected impurity after the split."""
    sizes = table.sum(axis=-1)
    total = sizes.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return (sizes / safe[..., None] * measure(table, check=False)).sum(axis=-1)


def conditional_entropy(counts_by_branch, *, check: bool = True):
    r"""Conditional entropy ``H(D|A) = Σ_v |D_v|/|D| · H(D_v)`` in bits.

    ``counts_by_branch`` has shape ``(..., V, K)``.
    """
    t = _table(counts_by_branch, check)
    return _scalar(_weighted_branch_mean(entropy, t))


def information_gain(counts_by_branch, *, check: bool = True):
    r"""Information gain ``g(D, A) = H(D) - H(D|A)`` in bits (信息增益).

    ``H(D)`` is the entropy of the parent, whose counts are the column sums of the table.
    ``0 ≤ g(D, A) ≤ H(D)``; it is the mutual information between ``A`` and the class.
    """
    t = _table(counts_by_branch, check)
    parent = entropy(t.sum(axis=-2), check=False)
    # clip the tiny negative values that cancellation leaves when A is independent of Y
    return _scalar(np.maximum(parent - _weighted_branch_mean(entropy, t), 0.0))


def split_information(counts_by_branch, *, check: bool = True):
    r"""Split information ``H_A(D) = -Σ_v |D_v|/|D| · log2(|D_v|/|D|)`` in bits.

    Quinlan's *intrinsic value* IV(A): the entropy of the partition itself, ignoring the
    classes. Large for attributes with many small branches; 0 when every case falls in
    one branch.
    """
    t = _table(counts_by_branch, check)
    return _scalar(entropy(t.sum(axis=-1), check=False))


def gain_ratio(counts_by_branch, *, check: bool = True):
    r"""Gain ratio ``g_R(D, A) = g(D, A) / H_A(D)`` (信息增益比).

    When ``H_A(D) = 0`` all cases fall in one branch, so the split separates nothing and
    ``g(D, A) = 0`` as well; the ratio ``0/0`` is then defined as 0 (no split is worth
    nothing). Gain ratio can still favour a split whose ``H_A(D)`` is tiny but positive;
    chapter 3 shows C4.5's remedy (only attributes with at least average gain compete).
    """
    t = _table(counts_by_branch, check)
    gain = np.asarray(information_gain(t, check=False))
    iv = np.asarray(split_information(t, check=False))
    ok = iv > 0
    return _scalar(np.where(ok, gain / np.where(ok, iv, 1.0), 0.0))


def gini_index(counts_by_branch, *, check: bool = True):
    r"""Gini index of a split ``Gini(D, A) = Σ_v |D_v|/|D| · Gini(D_v)`` (基尼指数)."""
    t = _table(counts_by_branch, check)
    return _scalar(_weighted_branch_mean(gini, t))


def gini_gain(counts_by_branch, *, check: bool = True):
    r"""Gini gain ``ΔGini(D, A) = Gini(D) - Gini(D, A)`` (≥ 0, by concavity of Gini)."""
    t = _table(counts_by_branch, check)
    parent = gini(t.sum(axis=-2), check=False)
    return _scalar(np.maximum(parent - _weighted_branch_mean(gini, t), 0.0))


# ------------------------------------------------------------------------- regression
def variance_from_sums(weight, sum_y, sum_y2, *, check: bool = True):
    r"""Weighted variance from sufficient statistics: ``S2/W - (S1/W)²``.

    With ``W = Σ w_i``, ``S1 = Σ w_i y_i`` and ``S2 = Σ w_i y_i²`` this is the mean squared
    error of a leaf that predicts the weighted mean, the impurity CART's least-squares
    criterion minimises. Arguments broadcast; ``W = 0`` gives 0 when ``check=False``.
    """
    w = np.asarray(weight, dtype=float)
    s1 = np.asarray(sum_y, dtype=float)
    s2 = np.asarray(sum_y2, dtype=float)
    if check:
        for name, a in (("weight", w), ("sum_y", s1), ("sum_y2", s2)):
            if not np.all(np.isfinite(a)):
                raise ValueError(f"{name} contains NaN or infinite values")
        if np.any(w < 0):
            raise ValueError("weight contains negative values")
        _check_positive_total(w, "weight")
    safe = np.where(w > 0, w, 1.0)
    mean = s1 / safe
    return _scalar(np.where(w > 0, np.maximum(s2 / safe - mean * mean, 0.0), 0.0))


def variance(y, sample_weight=None):
    r"""Weighted variance of responses ``Var(D) = Σ w_i (y_i - ȳ)² / Σ w_i``.

    The regression-tree impurity (squared error around the leaf's mean ``ȳ``). Computed
    two-pass (mean first) for accuracy; :func:`variance_from_sums` is the one-pass form
    used inside sorted scans.
    """
    y = np.asarray(y, dtype=float)
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y.shape}")
    if y.size == 0:
        raise ValueError("y is empty; expected at least one response")
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinite values")
    w = _weights(sample_weight, y.shape[0])
    total = w.sum()
    _check_positive_total(np.asarray(total), "sample_weight")
    mean = np.dot(w, y) / total
    return float(np.dot(w, (y - mean) ** 2) / total)
