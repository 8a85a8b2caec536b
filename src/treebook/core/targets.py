"""Checking and encoding targets and sample weights: class labels as codes ``0 … K-1``
with their sorted labels (:func:`encode_labels`), regression targets as finite floats
(:func:`encode_targets`), and weights as finite non-negative floats
(:func:`check_sample_weight`). The features are :mod:`treebook.core.encoding`'s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .checks import check_label_types
from .encoding import float_by_value, has_infinite, is_missing, object_array, sorted_categories

__all__ = ["encode_labels", "encode_targets", "check_sample_weight", "label_array",
           "MAX_ABS_TARGET"]

def _as_array_like(y, name: str = "y"):
    """``y`` itself if it is a sequence or array, else ``np.asarray`` of an object that
    has only ``__array__``; ``None`` and scalars are refused."""
    if y is None:
        raise ValueError(f"this estimator requires {name} to be passed, but the target {name} "
                        "is None: give one target per row of X")
    if hasattr(y, "tocsr") and hasattr(y, "nnz"):  # a scipy.sparse matrix or array
        raise TypeError(f"{name} must be dense, one value per row; got a scipy.sparse "
                        f"{type(y).__name__}: pass {name}.toarray().ravel()")
    if isinstance(y, (str, bytes)) or np.isscalar(y):
        raise TypeError(f"{name} must be a sequence (list, array or Series), one value per "
                        f"row; got {type(y).__name__} {y!r}")
    if not hasattr(y, "__iter__") or not hasattr(y, "__len__"):
        if hasattr(y, "__array__"):
            return np.asarray(y)
        raise TypeError(f"{name} must be a sequence (list, array or Series); got "
                        f"{type(y).__name__}")
    return y


def label_array(y) -> np.ndarray:
    """Class labels as an array, each label kept as given (not yet checked for shape)."""
    y = _as_array_like(y)
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be one column of labels; got {y.shape[1]} columns")
        y = y.iloc[:, 0]
    if isinstance(y, pd.Series):
        return y.to_numpy(dtype=object)
    if isinstance(y, np.ndarray):
        return y
    # a list keeps each label as given: np.asarray would turn [3, "a"] into strings and
    # a list of tuples into a 2-D array
    items = list(y)
    if any(isinstance(v, (list, np.ndarray)) for v in items):
        raise ValueError("y must be one-dimensional: a sequence of hashable labels")
    return object_array(items)


def _continuous_example(arr: np.ndarray):
    """A label that is a non-integral float (a regression target), or None."""
    if arr.dtype.kind == "f":
        vals = arr[np.isfinite(arr)]
        bad = vals[vals != np.round(vals)]
        return bad[0] if bad.size else None
    if arr.dtype == object:
        for v in arr.tolist():
            if (isinstance(v, (float, np.floating)) and np.isfinite(v) and v != round(v)):
                return v
    return None


def _column_vector_to_1d(arr: np.ndarray, warn: bool = True) -> np.ndarray:
    """An ``(n, 1)`` array of targets as ``(n,)``, with scikit-learn's warning."""
    if arr.ndim == 2 and arr.shape[1] == 1:
        if warn:
            import warnings

            from sklearn.exceptions import DataConversionWarning

            warnings.warn("A column-vector y was passed when a 1d array was expected. "
                          "Please change the shape of y to (n_samples, ), for example "
                          "using ravel().", DataConversionWarning, stacklevel=4)
        return arr[:, 0]
    return arr


def encode_labels(y, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, codes)`` for class labels of any hashable type."""
    y = _as_array_like(y)
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be one column of labels; got {y.shape[1]} columns")
        y = y.iloc[:, 0]
    # a pandas Categorical declares its classes and their order (unused ones included),
    # as an ARFF header does for Weka: ties between classes go to the first declared
    declared = getattr(y, "dtype", None)
    declared = declared.categories if isinstance(declared, pd.CategoricalDtype) else None
    arr = _column_vector_to_1d(label_array(y))
    if arr.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {arr.shape}")
    if arr.shape[0] != n_rows:
        raise ValueError(f"y has {arr.shape[0]} labels but X has {n_rows} rows")
    check_label_types(arr)
    if is_missing(arr).any():
        raise ValueError("y has missing labels (NaN/None)")
    if has_infinite(arr):
        raise ValueError("y has infinite values; class labels must be finite or non-numeric")
    example = _continuous_example(arr)
    if example is not None:
        raise ValueError(f"Unknown label type: continuous. y holds non-integer numbers such as "
                         f"{example!r}, a regression target, but a classifier needs class "
                         "labels: use CARTRegressor, or bin y first")
    if declared is not None:
        classes = np.asarray(declared.tolist(), dtype=declared.dtype if declared.dtype.kind
                             in "biuf" else object)
        codes = pd.Categorical(arr, categories=declared).codes
        return classes, codes.astype(np.int64)
    classes = sorted_categories(arr)
    numbers = (int, float, np.integer, np.floating)
    if arr.dtype.kind in "biuf" or all(isinstance(c, numbers) for c in classes):
        classes = np.asarray(classes.tolist())  # numeric (or bool) labels keep a numeric dtype
    # hash lookup in pandas (vectorised); tupleize_cols=False keeps tuple labels as labels
    index = pd.Index(classes.tolist(), dtype=object, tupleize_cols=False)
    codes = index.get_indexer(pd.Index(arr.tolist(), dtype=object, tupleize_cols=False))
    if np.any(codes < 0):  # labels that compare equal but hash apart (never for plain types)
        lookup = {v: k for k, v in enumerate(classes.tolist())}
        codes = np.fromiter((lookup[v] for v in arr.tolist()), dtype=np.int64,
                            count=arr.shape[0])
    return classes, codes.astype(np.int64)


#: responses beyond this magnitude are refused: a regression tree sums squared
#: responses, and (1e150)² · 1e8 rows is near the largest float64 (1.8e308)
MAX_ABS_TARGET = 1e150


def encode_targets(y, n_rows: int) -> np.ndarray:
    """Regression responses as a finite float array."""
    y = _as_array_like(y)
    arr = _column_vector_to_1d(
        np.asarray(y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else y),
        warn=not isinstance(y, pd.DataFrame))
    if arr.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {arr.shape}")
    if arr.shape[0] != n_rows:
        raise ValueError(f"y has {arr.shape[0]} values but X has {n_rows} rows")
    if arr.dtype.kind == "c" or (arr.dtype == object and any(
            isinstance(v, (complex, np.complexfloating)) for v in arr.tolist())):
        raise ValueError("y holds complex numbers; a regression target must be real")
    if arr.dtype.kind == "b" or (arr.dtype == object and any(
            isinstance(v, (bool, np.bool_)) for v in arr.tolist())):
        raise ValueError("y holds booleans; a regression target must be numbers (for classes "
                         "use a classifier)")
    try:
        arr = float_by_value(arr) if arr.dtype.kind == "f" else (
            pd.Series(arr).to_numpy(dtype=float, na_value=np.nan) if arr.dtype == object
            else arr.astype(float))
    except (TypeError, ValueError):
        raise ValueError("y must hold numbers for regression") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError("y has NaN or infinite values")
    if arr.size and np.max(np.abs(arr)) > MAX_ABS_TARGET:
        raise ValueError(f"y has values up to {np.max(np.abs(arr)):.3g}; squared errors of "
                         f"responses beyond ±{MAX_ABS_TARGET:.0e} overflow float64: divide y "
                         "by a constant (the tree's splits do not change)")
    return arr


def check_sample_weight(sample_weight, n_rows: int) -> np.ndarray:
    """Weights as a float array: one per row, finite, non-negative, positive total."""
    if sample_weight is None:
        return np.ones(n_rows)
    if isinstance(sample_weight, (str, bytes)):
        raise TypeError(f"sample_weight must be numbers, one per row; got {sample_weight!r}")
    raw = np.asarray(sample_weight)
    if raw.dtype.kind == "c":
        raise ValueError("sample_weight holds complex numbers; weights must be real")
    try:
        w = np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("sample_weight must hold numbers (one non-negative weight per row)"
                         ) from None
    if w.ndim == 0:  # a scalar: the same weight for every row, as in scikit-learn
        w = np.full(n_rows, float(w))
    if w.ndim != 1 or w.shape[0] != n_rows:
        raise ValueError(f"sample_weight must have one weight per row ({n_rows}); got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight has NaN or infinite values")
    if np.any(w < 0):
        raise ValueError("sample_weight has negative values")
    with np.errstate(over="ignore"):
        total = w.sum()
    if total <= 0:
        raise ValueError("sample_weight sums to zero")
    if not np.isfinite(total):
        raise ValueError("sample_weight sums to more than the largest float (1.8e308); divide "
                         "the weights by a constant")
    return w
