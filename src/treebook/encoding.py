"""Checking and encoding learner input: one place for every estimator.

Trees work on a float matrix: a numeric feature as its values, a categorical feature as
integer codes ``0 … L-1`` (its categories, sorted, are kept by the encoder), a missing
value as NaN, and at prediction time a category never seen in training as code ``-1``.

Which columns are categorical: pandas columns of dtype object, string, category or bool,
and numpy arrays of object/string/bool dtype. A learner may ask for every column to be
treated as categorical (ID3 handles discrete attributes only, so a numeric column becomes
a set of distinct values).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["FeatureEncoder", "encode_labels", "check_sample_weight"]


def _is_missing(values: np.ndarray) -> np.ndarray:
    return np.asarray(pd.isna(values), dtype=bool)


def _has_infinite(values: np.ndarray) -> bool:
    """True if a column holds ±inf (a number column, or floats inside an object column)."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return bool(np.isinf(values).any())
    if values.dtype.kind != "O":
        return False
    # check the distinct values only: a column of labels has few
    return any(isinstance(v, (float, np.floating)) and np.isinf(v)
               for v in pd.unique(pd.Series(values, dtype=object)).tolist())


def _sorted_categories(values) -> np.ndarray:
    uniq = pd.unique(pd.Series(values, dtype=object))
    try:
        ordered = sorted(uniq)
    except TypeError:  # mixed types: order by their text, deterministically
        ordered = sorted(uniq, key=lambda v: (type(v).__name__, str(v)))
    return _object_array(ordered)


def _object_array(items) -> np.ndarray:
    """A 1-D object array of ``items`` (``np.array`` would turn tuples into a 2-D array)."""
    out = np.empty(len(items), dtype=object)
    out[:] = list(items)
    return out


def _columns(X, name: str = "X"):
    """``(names, list of 1-D arrays, from_pandas)`` of a 2-D input."""
    if isinstance(X, pd.DataFrame):
        if X.shape[1] == 0:
            raise ValueError(f"{name} has no columns")
        names = [str(c) for c in X.columns]
        if len(set(names)) != len(names):
            dup = sorted({c for c in names if names.count(c) > 1})
            raise ValueError(f"{name} has duplicate column names: {dup}")
        return names, [X.iloc[:, j] for j in range(X.shape[1])], True
    if isinstance(X, pd.Series):
        raise ValueError(f"{name} must be 2-D (rows × features); got a Series — use X.to_frame()")
    if type(X).__module__.startswith("scipy.sparse"):
        # every split sorts or counts a dense column, so densifying here would hide a
        # memory cost that sparse storage was chosen to avoid: make the caller decide
        raise TypeError(
            f"{name} is a scipy.sparse {type(X).__name__}; treebook's learners need dense "
            f"input. Pass {name}.toarray() if it fits in memory."
        )
    arr = np.asarray(X, dtype=object if not hasattr(X, "dtype") else None)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (rows × features); got {arr.ndim}-D with shape {arr.shape}"
        )
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has no columns")
    return [f"x{j}" for j in range(arr.shape[1])], [arr[:, j] for j in range(arr.shape[1])], False


def _column_is_categorical(col) -> bool:
    if isinstance(col, pd.Series):
        dt = col.dtype
        if isinstance(dt, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dt):
            return True
        if pd.api.types.is_numeric_dtype(dt):
            return False
        vals = col.dropna().to_numpy()
    else:
        if col.dtype.kind in "biufc":
            return col.dtype.kind == "b"
        vals = col[~_is_missing(col)]
    return not all(isinstance(v, (int, float, np.integer, np.floating))
                   and not isinstance(v, (bool, np.bool_)) for v in vals)


def _is_float_matrix(X) -> bool:
    return (isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind == "f"
            and X.shape[0] > 0 and X.shape[1] > 0)


def _check_float_matrix(X: np.ndarray, names, allow_missing: bool, missing_hint: str,
                        fitting: bool) -> None:
    """The checks :meth:`FeatureEncoder._encode` makes, done on the whole matrix at once."""
    finite = np.isfinite(X)
    if finite.all():
        return
    bad_cols = np.flatnonzero(~finite.all(axis=0))
    for j in bad_cols:
        col = X[:, j]
        if np.isinf(col).any():
            raise ValueError(f"X column {names[j]!r} has infinite values")
        if fitting and np.isnan(col).all():
            raise ValueError(f"X column {names[j]!r} has only missing values")
        if not allow_missing:
            raise ValueError(f"X column {names[j]!r} has missing values (NaN/None)."
                             + (f" {missing_hint}" if missing_hint else ""))


@dataclass
class FeatureEncoder:
    """Remembers the training columns and turns any later input into the same codes."""

    names: tuple
    categories: tuple  # per feature: np.ndarray of category labels, or None (numeric)
    from_pandas: bool

    @property
    def n_features(self) -> int:
        return len(self.names)

    @property
    def is_categorical(self) -> np.ndarray:
        return np.array([c is not None for c in self.categories])

    @classmethod
    def fit(cls, X, *, all_categorical: bool = False, allow_missing: bool = False,
            missing_hint: str = "") -> tuple["FeatureEncoder", np.ndarray]:
        if _is_float_matrix(X) and not all_categorical:
            # a float matrix is its own encoding: check it and use it without a copy
            # (at a million rows, a column-by-column copy is most of a fit's memory)
            X = np.asarray(X, dtype=float)
            names = tuple(f"x{j}" for j in range(X.shape[1]))
            _check_float_matrix(X, names, allow_missing, missing_hint, fitting=True)
            return cls(names, (None,) * X.shape[1], False), X
        names, cols, from_pandas = _columns(X)
        n = len(cols[0])
        if n == 0:
            raise ValueError("X has no rows; expected at least one training case")
        cats = []
        for name, col in zip(names, cols):
            col_np = col.to_numpy(dtype=object) if isinstance(col, pd.Series) else col
            miss = _is_missing(col_np)
            if miss.all():
                raise ValueError(f"X column {name!r} has only missing values")
            if miss.any() and not allow_missing:
                raise ValueError(
                    f"X column {name!r} has missing values (NaN/None)." + (f" {missing_hint}" if missing_hint else "")
                )
            if all_categorical or _column_is_categorical(col):
                if isinstance(col, pd.Series) and isinstance(col.dtype, pd.CategoricalDtype):
                    cats.append(np.asarray(col.cat.categories, dtype=object))
                else:
                    cats.append(_sorted_categories(col_np[~miss]))
            else:
                cats.append(None)
        enc = cls(tuple(names), tuple(cats), from_pandas)
        return enc, enc._encode(names, cols, allow_missing, missing_hint, name="X")

    def transform(self, X, *, allow_missing: bool = False, missing_hint: str = "") -> np.ndarray:
        if (_is_float_matrix(X) and X.shape[1] == self.n_features
                and not self.is_categorical.any()):
            X = np.asarray(X, dtype=float)
            _check_float_matrix(X, self.names, allow_missing, missing_hint, fitting=False)
            return X
        names, cols, from_pandas = _columns(X)
        if from_pandas and self.from_pandas:
            missing_cols = [c for c in self.names if c not in names]
            extra = [c for c in names if c not in self.names]
            if missing_cols or extra:
                raise ValueError(
                    f"X has different columns from the training data: missing {missing_cols}, "
                    f"unexpected {extra}"
                )
            pos = {c: i for i, c in enumerate(names)}
            cols = [cols[pos[c]] for c in self.names]
            names = list(self.names)
        elif len(cols) != self.n_features:
            raise ValueError(
                f"X has {len(cols)} features, but the model was fitted with {self.n_features}"
            )
        if len(cols[0]) == 0:
            raise ValueError("X has no rows")
        return self._encode(list(self.names), cols, allow_missing, missing_hint, name="X")

    def _encode(self, names, cols, allow_missing, missing_hint, name) -> np.ndarray:
        n = len(cols[0])
        out = np.empty((n, len(cols)))
        for j, (fname, col, cats) in enumerate(zip(names, cols, self.categories)):
            col_np = col.to_numpy(dtype=object) if isinstance(col, pd.Series) else np.asarray(col)
            miss = _is_missing(col_np)
            if miss.any() and not allow_missing:
                raise ValueError(
                    f"{name} column {fname!r} has missing values (NaN/None)."
                    + (f" {missing_hint}" if missing_hint else "")
                )
            if cats is None:
                try:
                    vals = np.asarray(col_np, dtype=float)
                except (TypeError, ValueError):
                    raise ValueError(
                        f"{name} column {fname!r} was numeric in training but holds non-numbers"
                    ) from None
                if np.isinf(vals).any():
                    raise ValueError(f"{name} column {fname!r} has infinite values")
                out[:, j] = vals
            else:
                if _has_infinite(col_np):
                    raise ValueError(f"{name} column {fname!r} has infinite values")
                # unseen categories get code -1; missing values NaN
                # get_indexer gives -1 for a value not among cats (pd.Categorical warns)
                codes = pd.Index(cats, dtype=object).get_indexer(
                    pd.Index(col_np.astype(object), dtype=object)).astype(float)
                codes[miss] = np.nan
                out[:, j] = codes
        return out


def label_array(y) -> np.ndarray:
    """Class labels as an array, each label kept as given (not yet checked for shape)."""
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
    return _object_array(items)


def encode_labels(y, n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, codes)`` for class labels of any hashable type."""
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be one column of labels; got {y.shape[1]} columns")
        y = y.iloc[:, 0]
    # a pandas Categorical declares its classes and their order (unused ones included),
    # as an ARFF header does for Weka: ties between classes go to the first declared
    declared = getattr(y, "dtype", None)
    declared = declared.categories if isinstance(declared, pd.CategoricalDtype) else None
    arr = label_array(y)
    if arr.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {arr.shape}")
    if arr.shape[0] != n_rows:
        raise ValueError(f"y has {arr.shape[0]} labels but X has {n_rows} rows")
    if _is_missing(arr).any():
        raise ValueError("y has missing labels (NaN/None)")
    if _has_infinite(arr):
        raise ValueError("y has infinite values; class labels must be finite or non-numeric")
    if declared is not None:
        classes = np.asarray(declared.tolist(), dtype=declared.dtype if declared.dtype.kind
                             in "biuf" else object)
        codes = pd.Categorical(arr, categories=declared).codes
        return classes, codes.astype(np.int64)
    classes = _sorted_categories(arr)
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


def encode_targets(y, n_rows: int) -> np.ndarray:
    """Regression responses as a finite float array."""
    arr = np.asarray(y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {arr.shape}")
    if arr.shape[0] != n_rows:
        raise ValueError(f"y has {arr.shape[0]} values but X has {n_rows} rows")
    try:
        arr = arr.astype(float)
    except (TypeError, ValueError):
        raise ValueError("y must hold numbers for regression") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError("y has NaN or infinite values")
    return arr


def check_sample_weight(sample_weight, n_rows: int) -> np.ndarray:
    """Weights as a float array: one per row, finite, non-negative, positive total."""
    if sample_weight is None:
        return np.ones(n_rows)
    w = np.asarray(sample_weight, dtype=float)
    if w.ndim != 1 or w.shape[0] != n_rows:
        raise ValueError(f"sample_weight must have one weight per row ({n_rows}); got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight has NaN or infinite values")
    if np.any(w < 0):
        raise ValueError("sample_weight has negative values")
    if w.sum() <= 0:
        raise ValueError("sample_weight sums to zero")
    return w
