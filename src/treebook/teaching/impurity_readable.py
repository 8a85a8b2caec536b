"""Five-line versions of the counting helpers of :mod:`treebook.core.impurity`, for reading.

Chapter 1 shows these instead of the production functions, whose length goes to input
checks (label types, weights, overflow) rather than to the formula. Each computes the same
numbers as its production namesake on clean input (``tests/test_impurity_readable.py``);
the package itself never calls them.

* ``class_counts(y)``: the classes ``c_k`` and counts ``|C_k| = Σ_{i: y_i = c_k} w_i``;
* ``contingency_table(x, y)``: the values ``a_v``, the classes and the table
  ``|D_vk| = Σ_{i: x_i = a_v, y_i = c_k} w_i`` of shape ``(V, K)``;
* ``variance(y)``: ``Var(D) = Σ w_i (y_i - ȳ)² / Σ w_i`` with ``ȳ = Σ w_i y_i / Σ w_i``,
  two passes (mean first), which keeps rounding small when the ``y_i`` are far from 0.
"""

from __future__ import annotations

import numpy as np

__all__ = ["class_counts", "contingency_table", "variance"]


def class_counts(y, sample_weight=None):
    """The sorted classes of ``y`` and their (weighted) counts ``|C_k|``."""
    classes, codes = np.unique(np.asarray(y), return_inverse=True)
    w = np.ones(len(codes)) if sample_weight is None else np.asarray(sample_weight, float)
    return classes, np.bincount(codes, weights=w, minlength=len(classes))


def contingency_table(x, y, sample_weight=None):
    """The values of ``x``, the classes of ``y`` and the ``(V, K)`` table of counts ``|D_vk|``."""
    values, xc = np.unique(np.asarray(x), return_inverse=True)
    classes, yc = np.unique(np.asarray(y), return_inverse=True)
    w = np.ones(len(xc)) if sample_weight is None else np.asarray(sample_weight, float)
    table = np.zeros((len(values), len(classes)))
    np.add.at(table, (xc, yc), w)          # table[x_i, y_i] += w_i for every case i
    return values, classes, table


def variance(y, sample_weight=None):
    """The weighted variance of the responses ``y``, mean first (two passes)."""
    y = np.asarray(y, dtype=float)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
    mean = np.dot(w, y) / w.sum()
    return float(np.dot(w, (y - mean) ** 2) / w.sum())
