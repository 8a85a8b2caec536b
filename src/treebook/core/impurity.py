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
nodes or many candidate splits at once (the sorted scans in ``treebook.core.splits`` rely on
this). Entropies are in bits (log base 2) with ``0 · log 0 = 0``.

Each public function validates its input (``check=True``) and raises ``ValueError`` naming
the argument for empty, negative or non-finite counts, or a zero total. Internal callers
that pass freshly computed counts use ``check=False``; there, a count vector with zero
total has impurity 0 (an empty branch carries no weight, so it contributes nothing).
"""

from __future__ import annotations

import numpy as np

from .checks import check_label_types

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
    # chapter 5: conditional likelihood score and the G-test (section at the end)
    "conditional_log_likelihood",
    "positive_class_score",
    "g_statistic",
    "pearson_chi2",
    "g_test_dof",
    "g_test_pvalue",
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
    """``p_k = C_k / |D|`` along the last axis (0 where ``|D| = 0``) and the totals.

    Counts whose sum overflows (``[1e308, 1e308]``) are divided by their largest count
    first: proportions do not depend on the scale. The totals are then ``inf``."""
    with np.errstate(over="ignore"):
        total = counts.sum(axis=-1)
    if not np.all(np.isfinite(total)) and np.all(np.isfinite(counts)):
        top = counts.max(axis=-1, keepdims=True)
        counts = counts / np.where(top > 0, top, 1.0)
        scaled = counts.sum(axis=-1)
        return counts / np.where(scaled > 0, scaled, 1.0)[..., None], total
    safe = np.where(total > 0, total, 1.0)
    return counts / safe[..., None], total


def _scale_free(table: np.ndarray) -> np.ndarray:
    """A contingency table divided by its largest cell when its total overflows: the
    split measures that depend only on proportions are unchanged by it."""
    with np.errstate(over="ignore"):
        total = table.sum(axis=(-2, -1))
    if np.all(np.isfinite(total)) or not np.all(np.isfinite(table)):
        return table
    top = table.max(axis=(-2, -1), keepdims=True)
    return table / np.where(top > 0, top, 1.0)


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
    Labels that compare equal but differ in type (``1`` and ``"1"``, ``1`` and ``True``)
    are refused rather than merged.
    """
    if y is None or np.isscalar(y):
        raise TypeError(f"y must be a sequence of labels; got {y!r}")
    check_label_types(y, "y")
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
    for name, a in (("x", x), ("y", y)):
        if a is None or np.isscalar(a):
            raise TypeError(f"{name} must be a sequence of values; got {a!r}")
        check_label_types(a, name)
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

    Examples
    --------
    Mitchell's PlayTennis data, 9 positive and 5 negative cases (Mitchell 1997, §3.4.1:
    0.940 bits):

    >>> round(entropy([9, 5]), 3)
    0.94
    >>> entropy([[7, 7], [14, 0]])  # one node per row
    array([1., 0.])
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

    Examples
    --------
    >>> round(gini([9, 5]), 3)  # 1 - (9/14)² - (5/14)²
    0.459
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
def _table(counts_by_branch, check: bool, scale_free: bool = True) -> np.ndarray:
    """The table as floats (checked when ``check``); a table whose total overflows is
    divided by its largest cell when the measure depends only on proportions."""
    if not check:
        t = np.asarray(counts_by_branch, dtype=float)
        return _scale_free(t) if scale_free else t
    t = _as_counts(counts_by_branch, "counts_by_branch", min_ndim=2)
    with np.errstate(over="ignore"):
        _check_positive_total(t.sum(axis=(-2, -1)), "counts_by_branch")
    return _scale_free(t) if scale_free else t


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

    Examples
    --------
    Outlook on PlayTennis, one row per value (Sunny, Overcast, Rain), columns (yes, no).
    Mitchell (1997, §3.4.2) prints 0.246, computed from entropies rounded to three digits:

    >>> round(information_gain([[2, 3], [4, 0], [3, 2]]), 3)
    0.247
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
    if y is None or isinstance(y, (str, bytes)):
        raise TypeError(f"y must be a sequence of numbers; got {y!r}")
    raw = np.asarray(y)
    if raw.dtype.kind in "cbUSO" and not (raw.dtype == object and all(
            isinstance(v, (int, float, np.integer, np.floating))
            and not isinstance(v, (bool, np.bool_)) for v in raw.ravel().tolist())):
        raise ValueError(f"y must hold real numbers (responses); got dtype {raw.dtype}"
                         + (f", e.g. {raw.ravel()[0]!r}" if raw.size else ""))
    y = raw.astype(float)
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y.shape}")
    if y.size == 0:
        raise ValueError("y is empty; expected at least one response")
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinite values")
    w = _weights(sample_weight, y.shape[0])
    with np.errstate(over="ignore"):
        total = w.sum()
    _check_positive_total(np.asarray(total), "sample_weight")
    if not np.isfinite(total):  # the variance does not depend on the weights' scale
        w = w / w.max()
        total = w.sum()
    with np.errstate(over="ignore", invalid="ignore"):
        mean = np.dot(w / total, y)
        if not np.isfinite(mean):  # Σ w·y overflowed: average in two halves
            mean = np.dot(w / total, y / 2) * 2
        out = float(np.dot(w / total, (y - mean) ** 2)) if np.isfinite(mean) else np.inf
    if not np.isfinite(out):
        raise ValueError("y is too spread out: its variance exceeds the largest float "
                         "(1.8e308); divide y by a constant")
    return out


# =============================================================================================
# Conditional likelihood score (CLS) and the G-test — chapter 5
# =============================================================================================
# "CLS" here is the *conditional likelihood score* of a split, not Hunt's Concept Learning
# System (see treebook.cls for both). Logarithms: the two scores are in bits (log base 2),
# like every entropy above, so that conditional_log_likelihood = -conditional_entropy holds
# with no conversion factor; the G statistic is a likelihood-ratio statistic and, as in all
# statistics texts, uses natural logarithms (G = 2·|D|·ln 2·g(D, A) with g in bits).


def conditional_log_likelihood(counts_by_branch, *, check: bool = True):
    r"""Conditional likelihood score of a split, in bits per case (条件似然评分).

    The average log-likelihood of the training labels under the split's plug-in model
    ``P̂(y = k | v) = |D_vk| / |D_v|``::

        ℓ̄(D, A) = (1/|D|) Σ_i log2 P̂(y_i | v_i)
                  = Σ_v |D_v|/|D| Σ_k P̂(k | v) log2 P̂(k | v)        (= -H(D|A))

    Computed from the first line, the definition (cell ``(v, k)`` holds ``|D_vk|``
    cases, each contributing ``log2(|D_vk|/|D_v|)``), not by calling
    :func:`conditional_entropy`: chapter 5 derives the identity and the tests check it.
    An empty cell holds no case, so it contributes nothing (no ``0 · log 0`` convention
    is needed). The score is ``≤ 0``; it is 0 when every branch is pure, and maximising
    it over attributes chooses what :func:`information_gain` chooses, since
    ``g(D, A) = H(D) + ℓ̄(D, A)`` and ``H(D)`` does not depend on ``A``.
    """
    t = _table(counts_by_branch, check)
    sizes = t.sum(axis=-1, keepdims=True)
    total = t.sum(axis=(-2, -1))
    occupied = t > 0
    ratio = np.where(occupied, t / np.where(sizes > 0, sizes, 1.0), 1.0)
    loglik = (np.where(occupied, t, 0.0) * np.log2(ratio)).sum(axis=(-2, -1))
    safe = np.where(total > 0, total, 1.0)
    # 0.0 rather than -0.0 for a split with pure branches
    return _scalar(np.minimum(loglik / safe, 0.0) + 0.0)


def _positive_column(t: np.ndarray, positive) -> int:
    n_classes = t.shape[-1]
    if positive is None:
        if n_classes != 2:
            raise ValueError(
                f"counts_by_branch has K={n_classes} classes; the positive-class score is "
                "defined for K > 2 only one-vs-rest: declare the positive class with "
                "positive=<class column>"
            )
        return 1
    if isinstance(positive, (bool, np.bool_)) or not isinstance(positive, (int, np.integer)):
        raise TypeError(f"positive must be a class column index (int); got {positive!r}")
    if not 0 <= positive < n_classes:
        raise ValueError(f"positive must be in [0, {n_classes - 1}]; got {positive}")
    return int(positive)


def _smoothing(smoothing) -> float:
    ok = isinstance(smoothing, (int, float, np.integer, np.floating)) and not isinstance(
        smoothing, (bool, np.bool_))
    if not ok or not np.isfinite(smoothing) or smoothing < 0:
        raise ValueError(f"smoothing must be a finite number >= 0; got {smoothing!r}")
    return float(smoothing)


def positive_class_score(counts_by_branch, positive=None, smoothing: float = 1.0, *,
                         check: bool = True):
    r"""Positive-class score ``Σ_v |D_v|/|D| · log2 P̂(y = + | v)`` in bits.

    The criterion the source article's code computes for 0/1 labels. With additive
    (Laplace / Lidstone) smoothing ``s``::

        P̂(y = + | v) = (|D_v+| + s) / (|D_v| + s·K)

    where ``|D_v+|`` is the weight of positive cases in branch ``v`` and ``K`` the number
    of classes (columns), so the smoothed estimates of all ``K`` classes sum to one.
    ``s = 1`` is Laplace's rule; ``s = 0`` gives the raw proportion and a score of
    ``-inf`` as soon as one non-empty branch holds no positive case. An empty branch has
    weight 0 and contributes nothing.

    ``positive`` is the column of the positive class. For ``K = 2`` it defaults to
    column 1 (the class that sorts last, the article's ``y = 1``); for ``K > 2`` it must
    be given and the score is one-vs-rest: the positive class against the other ``K-1``.

    Equivalently it is ``(1/|D|) Σ_i log2 P̂(+ | v_i)``: the log-likelihood the split's
    model gives to the claim that *every* case is positive. By Jensen's inequality,
    without smoothing it never exceeds ``log2 P̂(+)`` of the unsplit node, with equality
    exactly when every branch keeps the parent's positive rate (chapter 5).
    """
    t = _table(counts_by_branch, check, scale_free=False)
    k = _positive_column(t, positive)
    s = _smoothing(smoothing)
    if check and np.any(t[..., k].sum(axis=-1) <= 0):
        raise ValueError(
            f"counts_by_branch has no case of the positive class (column {k}); the "
            "positive-class score would measure nothing but the smoothing"
        )
    n_classes = t.shape[-1]
    sizes = t.sum(axis=-1)
    total = sizes.sum(axis=-1)
    pos = t[..., k]
    num = pos + s
    den = sizes + s * n_classes
    occupied = sizes > 0
    with np.errstate(divide="ignore"):
        logp = np.log2(np.where(occupied, num / np.where(den > 0, den, 1.0), 1.0))
    share = sizes / np.where(total > 0, total, 1.0)[..., None]
    # a non-empty branch with P̂ = 0 gives share · (-inf) = -inf, as it should
    terms = np.where(occupied, share * logp, 0.0)
    return _scalar(terms.sum(axis=-1))


def g_statistic(counts_by_branch, *, check: bool = True):
    r"""The G statistic (likelihood-ratio statistic) of independence of branch and class.

    ``G = 2 Σ_{v,k} O_vk ln(O_vk / E_vk)`` with observed counts ``O_vk = |D_vk|`` and the
    counts expected under independence ``E_vk = |D_v| |C_k| / |D|`` (natural logarithm;
    empty cells contribute 0). Chapter 5 shows ``G = 2 |D| ln 2 · g(D, A)``, with the
    information gain ``g`` in bits; under independence ``G`` is approximately ``χ²``
    with :func:`g_test_dof` degrees of freedom. Computed from observed and expected
    counts, not from :func:`information_gain`, so that the identity is checked, not built
    in. With sample weights the counts are weights; the ``χ²`` approximation assumes they
    are counts of independent cases.
    """
    t = _table(counts_by_branch, check, scale_free=False)
    # G is proportional to the total: computed on the table over its largest cell and
    # multiplied back, so expected counts cannot overflow (G itself may be inf)
    top = t.max(axis=(-2, -1), keepdims=True)
    top = np.where(top > 0, top, 1.0)
    t = t / top
    rows = t.sum(axis=-1, keepdims=True)
    cols = t.sum(axis=-2, keepdims=True)
    total = t.sum(axis=(-2, -1), keepdims=True)
    expected = rows * cols / np.where(total > 0, total, 1.0)
    occupied = t > 0
    ratio = np.where(occupied, t / np.where(occupied, expected, 1.0), 1.0)
    g = 2.0 * (np.where(occupied, t, 0.0) * np.log(ratio)).sum(axis=(-2, -1))
    with np.errstate(over="ignore"):
        g = np.maximum(g, 0.0) * top[..., 0, 0]
    return _scalar(g)


def pearson_chi2(counts_by_branch, *, check: bool = True):
    r"""Pearson's statistic of independence of branch and class.

    ``X² = Σ_{v,k} (O_vk − E_vk)² / E_vk`` with observed counts ``O_vk = |D_vk|`` and the
    counts expected under independence ``E_vk = |D_v| |C_k| / |D|``, summed over the
    cells with ``E_vk > 0`` (an empty branch or an absent class has no expected count and
    adds nothing, as :func:`g_test_dof` adds no degree of freedom for it). Under
    independence ``X²`` is approximately ``χ²`` with :func:`g_test_dof` degrees of
    freedom, as :func:`g_statistic` is; CHAID (:mod:`treebook.chaid`) uses it by default.
    With sample weights the counts are weights, read as counts of independent cases.
    """
    t = _table(counts_by_branch, check, scale_free=False)
    # X² is proportional to the total: computed on the table over its largest cell and
    # multiplied back, so expected counts cannot overflow
    top = t.max(axis=(-2, -1), keepdims=True)
    top = np.where(top > 0, top, 1.0)
    t = t / top
    rows = t.sum(axis=-1, keepdims=True)
    cols = t.sum(axis=-2, keepdims=True)
    total = t.sum(axis=(-2, -1), keepdims=True)
    expected = rows * cols / np.where(total > 0, total, 1.0)
    live = expected > 0
    terms = np.where(live, (t - expected) ** 2 / np.where(live, expected, 1.0), 0.0)
    with np.errstate(over="ignore"):
        x2 = np.maximum(terms.sum(axis=(-2, -1)), 0.0) * top[..., 0, 0]
    return _scalar(x2)


def g_test_dof(counts_by_branch, *, check: bool = True):
    r"""Degrees of freedom of the G-test: ``(V' - 1)(K' - 1)``.

    ``V'`` counts the non-empty branches and ``K'`` the classes present at the node: an
    empty row or column has no expected count and adds no free parameter. 0 means there
    is nothing to test (one branch, or one class).
    """
    t = _table(counts_by_branch, check)
    v = np.count_nonzero(t.sum(axis=-1) > 0, axis=-1)
    k = np.count_nonzero(t.sum(axis=-2) > 0, axis=-1)
    dof = np.maximum(v - 1, 0) * np.maximum(k - 1, 0)
    return int(dof) if np.ndim(dof) == 0 else dof


def g_test_pvalue(counts_by_branch, *, check: bool = True):
    r"""p-value of the G-test of independence: ``P(χ²_df ≥ G)``.

    The probability, if branch and class were independent, of a G statistic at least as
    large as the one observed (:func:`g_statistic`, :func:`g_test_dof`). With 0 degrees
    of freedom there is nothing to test and the p-value is 1. A small p-value says the
    split separates the classes more than chance would; splitting only when it is below
    a level ``α`` is a significance-based pre-pruning rule (chapter 5). The ``χ²``
    approximation is poor when expected counts are small (below about 5).
    """
    from scipy.stats import chi2  # scipy is a package dependency; imported when used

    t = _table(counts_by_branch, check)
    g = np.asarray(g_statistic(t, check=False), dtype=float)
    dof = np.asarray(g_test_dof(t, check=False))
    p = np.where(dof > 0, chi2.sf(g, np.maximum(dof, 1)), 1.0)
    return _scalar(p)
