"""Checking and encoding learner input (the features; the targets and weights are
:mod:`treebook.core.targets`): one place for every estimator.

Trees work on a float matrix: a numeric feature as its values, a categorical feature as
integer codes ``0 … L-1`` (its categories, sorted, are kept by the encoder), a missing
value as NaN, and at prediction time a category never seen in training as code ``-1``.

Which columns are categorical: pandas columns of dtype object, string, category or bool,
and numpy arrays of object/string/bool dtype. A learner may ask for every column to be
treated as categorical (ID3 handles discrete attributes only, so a numeric column becomes
a set of distinct values).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .checks import check_label_types

__all__ = ["FeatureEncoder", "check_label_types", "check_feature_names", "float_by_value",
           "temporal_to_float", "is_missing", "has_infinite", "sorted_categories",
           "object_array"]


def is_missing(values: np.ndarray) -> np.ndarray:
    return np.asarray(pd.isna(values), dtype=bool)


def has_infinite(values: np.ndarray) -> bool:
    """True if a column holds ±inf (a number column, or floats inside an object column)."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return bool(np.isinf(values).any())
    if values.dtype.kind != "O":
        return False
    # check the distinct values only: a column of labels has few
    return any(isinstance(v, (float, np.floating)) and np.isinf(v)
               for v in pd.unique(pd.Series(values, dtype=object)).tolist())


def sorted_categories(values) -> np.ndarray:
    uniq = pd.unique(pd.Series(values, dtype=object))
    try:
        ordered = sorted(uniq)
    except TypeError:  # mixed types: order by their text, deterministically
        ordered = sorted(uniq, key=lambda v: (type(v).__name__, str(v)))
    return object_array(ordered)


def object_array(items) -> np.ndarray:
    """A 1-D object array of ``items`` (``np.array`` would turn tuples into a 2-D array)."""
    out = np.empty(len(items), dtype=object)
    out[:] = list(items)
    return out


def _columns(X, name: str = "X"):
    """``(names, list of 1-D arrays, from_pandas)`` of a 2-D input."""
    if X is None:
        raise TypeError(f"{name} is None; expected a 2-D array or a DataFrame (rows × features)")
    if isinstance(X, pd.DataFrame):
        if X.shape[1] == 0:
            raise ValueError(f"{name} has no columns: 0 feature(s) (shape={X.shape}) while a "
                             "minimum of 1 is required.")
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
    if isinstance(X, (str, bytes)) or np.isscalar(X):
        raise TypeError(f"{name} must be a 2-D array or a DataFrame; got {type(X).__name__}")
    try:
        arr = np.asarray(X, dtype=object if not hasattr(X, "dtype") else None)
    except ValueError:  # ragged rows
        raise ValueError(f"{name} must be 2-D with rows of equal length") from None
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers (Complex data not supported): trees "
                         f"need real numbers or labels (pass {name}.real, or the modulus, "
                         "explicitly)")
    if arr.ndim != 2:
        hint = (" Reshape your data either using array.reshape(-1, 1) if your data has a "
                "single feature or array.reshape(1, -1) if it contains a single sample."
                if arr.ndim == 1 else "")
        raise ValueError(
            f"{name} must be 2-D (rows × features); got {arr.ndim}-D with shape {arr.shape}."
            + hint
        )
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has no columns: 0 feature(s) (shape={arr.shape}) while a "
                         "minimum of 1 is required.")
    return [f"x{j}" for j in range(arr.shape[1])], [arr[:, j] for j in range(arr.shape[1])], False


def _column_is_categorical(col) -> bool:
    if _temporal_kind(col) is not None:
        return False
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
        vals = col[~is_missing(col)]
    return not all(isinstance(v, (int, float, np.integer, np.floating))
                   and not isinstance(v, (bool, np.bool_)) for v in vals)


# ----------------------------------------------------------------------------- dtypes
#: the temporal dtypes, kept as int64 nanoseconds (ordered numbers) and shown as dates
DATETIME, TIMEDELTA = "datetime64[ns]", "timedelta64[ns]"


def _temporal_kind(col) -> str | None:
    """``"datetime64[ns]"`` (or with its time zone), ``"timedelta64[ns]"`` or None."""
    dt = getattr(col, "dtype", None)
    if dt is None:
        return None
    if isinstance(dt, pd.DatetimeTZDtype):
        return f"datetime64[ns, {dt.tz}]"
    kind = getattr(dt, "kind", "")
    if kind == "M":
        return DATETIME
    if kind == "m":
        return TIMEDELTA
    return None


def temporal_to_float(values, kind: str, column: str = "X") -> np.ndarray:
    """Dates or durations as float nanoseconds (since 1970-01-01 UTC, or of duration);
    NaT becomes NaN. ``kind`` says which was seen in training; a column of the other kind,
    or of numbers or text, is refused with a message naming ``column``."""
    s = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values))
    want_dates = kind.startswith("datetime")
    got = _temporal_kind(s)
    if got is None and s.dtype == object:  # Timestamps/Timedeltas in an object column
        try:
            s = pd.to_datetime(s) if want_dates else pd.to_timedelta(s)
        except (TypeError, ValueError):
            pass
        got = _temporal_kind(s)
    if got is None or got.startswith("datetime") != want_dates:
        what = "dates (datetime64)" if want_dates else "durations (timedelta64)"
        raise ValueError(f"{column} held {what} in training but now holds {s.dtype} values")
    if isinstance(s.dtype, pd.DatetimeTZDtype):
        s = s.dt.tz_convert("UTC").dt.tz_localize(None)
    arr = s.to_numpy(dtype="datetime64[ns]" if want_dates else "timedelta64[ns]")
    out = arr.view(np.int64).astype(float)
    out[np.isnat(arr)] = np.nan
    return out


def float_by_value(values) -> np.ndarray:
    """Floats as float64 *by value*: a float16/float32 number becomes the float64 with the
    same shortest decimal form (``float32(0.1)`` → ``0.1``, not ``0.10000000149``), so a
    category or a threshold learnt from float64 data matches it."""
    arr = np.asarray(values)
    if arr.dtype.kind == "f" and arr.dtype.itemsize < 8:
        return arr.astype(str).astype(np.float64)
    return np.asarray(arr, dtype=np.float64)


_UNHASHABLE = (list, dict, set, np.ndarray, pd.Series, pd.DataFrame)


def check_cells(values: np.ndarray, column: str, *, mixed_ok: bool = False) -> None:
    """Refuse the cell values no tree can use: lists and other containers, complex
    numbers, and (unless ``mixed_ok``: at predict, where a value of the other type is
    an unseen category) booleans mixed with other numbers (``True == 1`` in Python, so
    the two would silently become one category)."""
    if values.dtype != object:
        return
    has_bool = has_number = False
    for v in values.tolist():
        if isinstance(v, _UNHASHABLE):
            raise ValueError(f"{column} holds a {type(v).__name__} in a cell; each cell must "
                             "be one number or one label (flatten it into columns first)")
        if isinstance(v, (complex, np.complexfloating)):
            raise ValueError(f"{column} holds complex numbers; trees need real numbers or labels")
        if isinstance(v, (bool, np.bool_)):
            has_bool = True
        elif isinstance(v, (int, float, np.integer, np.floating)) and v == v:
            has_number = True
    if has_bool and has_number and not mixed_ok:
        raise ValueError(f"{column} mixes booleans with numbers; Python counts True as 1, so "
                         "they would merge into one category: convert the column to one type "
                         "(e.g. strings) first")


def _is_bool(v) -> bool:
    return isinstance(v, (bool, np.bool_))


def _is_number(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not _is_bool(v)


def category_codes(values: np.ndarray, cats) -> np.ndarray:
    """The codes (float) of ``values`` among the training categories ``cats``: ``-1``
    for a value that is not one of them. ``True == 1`` and ``hash(True) == hash(1)`` in
    Python, so a lookup alone would match a boolean with the number 1; a boolean is never
    a numeric category (nor a number a boolean one), so such a value is unseen too.
    (Training refuses a column that mixes the two, so ``cats`` holds at most one kind.)"""
    values = np.asarray(values, dtype=object)
    codes = pd.Index(cats, dtype=object).get_indexer(pd.Index(values, dtype=object))
    codes = codes.astype(float)
    cat_list = list(cats.tolist() if hasattr(cats, "tolist") else cats)
    other = (_is_number if any(_is_bool(v) for v in cat_list) else
             _is_bool if any(_is_number(v) for v in cat_list) else None)
    if other is not None and values.size:
        wrong = np.fromiter((other(v) for v in values.tolist()), dtype=bool,
                            count=values.shape[0])
        codes[wrong] = -1
    return codes


def warn_unseen(codes: np.ndarray, missing: np.ndarray, column: str) -> None:
    """One ``UserWarning`` when more than half of the non-missing values of ``column`` (at
    predict) are categories training never saw (code ``-1``): likely the wrong column or a
    changed type (``"True"`` for ``True``, ``"1"`` for ``1``), which would otherwise only
    make every such row stop where the column is first tested."""
    known = ~missing
    n_known = int(np.count_nonzero(known))
    n_unseen = int(np.count_nonzero(codes[known] < 0))
    if n_known and 2 * n_unseen > n_known:
        warnings.warn(f"{column}: {n_unseen} of {n_known} values were never seen in training "
                      "(treated as unseen categories; a row stops at the first node that "
                      "tests the column). Is it the right column, with the training type?",
                      UserWarning, stacklevel=5)


def _own_categories(col):
    """The categories of a pandas categorical column as an object array (every cell is one
    of them or missing), or None for any other column or for float16/32 categories."""
    if not (isinstance(col, pd.Series) and isinstance(col.dtype, pd.CategoricalDtype)):
        return None
    cats = np.asarray(col.dtype.categories.to_numpy(dtype=object), dtype=object)
    if any(isinstance(v, (np.float16, np.float32)) for v in cats.tolist()):
        return None
    return cats


def _prepare(col, fname: str, temporal: str | None = None, mixed_ok: bool = False):
    """``(values, missing)`` of one input column: temporal columns as float nanoseconds,
    numeric ones (nullable pandas dtypes included, ``pd.NA`` as NaN) as float64 by value,
    everything else as an object array with its cells checked (``mixed_ok``: see
    :func:`check_cells`)."""
    where = f"X column {fname!r}"
    if temporal is not None:
        vals = temporal_to_float(col, temporal, where)
        return vals, np.isnan(vals)
    if isinstance(col, pd.Series):
        dt = col.dtype
        if (pd.api.types.is_numeric_dtype(dt) and not pd.api.types.is_bool_dtype(dt)
                and not isinstance(dt, pd.CategoricalDtype)):
            if pd.api.types.is_complex_dtype(dt):
                raise ValueError(f"{where} holds complex numbers; trees need real numbers")
            if isinstance(dt, pd.api.extensions.ExtensionDtype):  # Int64, Float64: NA → NaN
                raw = col.to_numpy(dtype=float, na_value=np.nan)
                if str(dt).lower().startswith("float") and "32" in str(dt):
                    raw = float_by_value(raw.astype(np.float32))
            elif dt.kind == "f":
                raw = float_by_value(col.to_numpy())
            else:  # numpy-backed integers keep their exact values
                vals = col.to_numpy(dtype=object)
                return vals, np.zeros(vals.shape[0], dtype=bool)
            return raw, np.isnan(raw)
        vals = col.to_numpy(dtype=object)
        cats = _own_categories(col)
        if cats is not None:
            # every cell is one of the categories (or missing): checking the categories
            # checks the cells, without a Python loop over the rows
            check_cells(cats, where, mixed_ok=mixed_ok)
            return vals, is_missing(vals)
    else:
        vals = np.asarray(col)
        if vals.dtype.kind == "c":
            raise ValueError(f"{where} holds complex numbers; trees need real numbers")
        if vals.dtype.kind == "f":
            vals = float_by_value(vals)
            return vals, np.isnan(vals)
        if vals.dtype.kind in "iub":
            return vals, np.zeros(vals.shape[0], dtype=bool)
    if vals.dtype == object and any(isinstance(v, (np.float16, np.float32))
                                    for v in vals.tolist()):
        vals = object_array([float(str(v)) if isinstance(v, (np.float16, np.float32)) else v
                              for v in vals.tolist()])
    check_cells(np.asarray(vals, dtype=object) if vals.dtype != object else vals, where,
                mixed_ok=mixed_ok)
    return vals, is_missing(vals)


def _all_finite(X: np.ndarray) -> bool:
    """Whether every entry of the float array ``X`` is finite, in one pass without a
    temporary: a NaN or an infinity makes the sum NaN or infinite, so a finite sum proves
    them all finite; only a sum that overflowed (or a real NaN/inf) takes the full test."""
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(X.sum()):
            return True
    return bool(np.isfinite(X).all())


def _is_float_matrix(X) -> bool:
    return (isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind == "f"
            and X.shape[0] > 0 and X.shape[1] > 0)


def _check_float_matrix(X: np.ndarray, names, allow_missing: bool, missing_hint: str,
                        fitting: bool) -> None:
    """The checks :meth:`FeatureEncoder._encode` makes, done on the whole matrix at once."""
    if _all_finite(X):
        return
    finite = np.isfinite(X)
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


def _name_list(names) -> str:
    """scikit-learn's listing of feature names in its mismatch message."""
    out = ""
    for i, n in enumerate(names):
        if i >= 5:
            return out + "- ...\n"
        out += f"- {n}\n"
    return out


def check_feature_names(fitted, given, owner: str = "the model") -> None:
    """scikit-learn's rule for column names at prediction time.

    ``fitted``/``given``: the column names of the training and of the new data (None when
    that input had none, e.g. a numpy array). Names that differ, or the same names in
    another order, raise ``ValueError`` (scikit-learn's message); names on one side
    only give a ``UserWarning`` and columns are matched by position.
    """
    import warnings

    if fitted is None and given is None:
        return
    if fitted is not None and given is None:
        warnings.warn(f"X does not have valid feature names, but {owner} was fitted with "
                      "feature names", UserWarning, stacklevel=4)
        return
    if fitted is None:
        warnings.warn(f"X has feature names, but {owner} was fitted without feature names",
                      UserWarning, stacklevel=4)
        return
    fitted, given = list(fitted), list(given)
    if fitted == given:
        return
    msg = "The feature names should match those that were passed during fit.\n"
    unexpected = sorted(set(given) - set(fitted))
    missing = sorted(set(fitted) - set(given))
    if unexpected:
        msg += "Feature names unseen at fit time:\n" + _name_list(unexpected)
    if missing:
        msg += "Feature names seen at fit time, yet now missing:\n" + _name_list(missing)
    if not unexpected and not missing:
        msg += "Feature names must be in the same order as they were in fit.\n"
    raise ValueError(msg)


@dataclass
class FeatureEncoder:
    """Remembers the training columns and turns any later input into the same codes."""

    names: tuple
    categories: tuple  # per feature: np.ndarray of category labels, or None (numeric)
    from_pandas: bool
    #: per feature: ``"datetime64[ns]"`` (possibly with a time zone), ``"timedelta64[ns]"``
    #: or None. Temporal features are numeric (int64 nanoseconds as floats).
    temporal: tuple = ()

    @property
    def n_features(self) -> int:
        return len(self.names)

    @property
    def is_categorical(self) -> np.ndarray:
        return np.array([c is not None for c in self.categories])

    def _temporal(self, j: int):
        return self.temporal[j] if j < len(self.temporal) else None

    @classmethod
    def fit(cls, X, *, all_categorical: bool = False, allow_missing: bool = False,
            missing_hint: str = "") -> tuple["FeatureEncoder", np.ndarray]:
        if _is_float_matrix(X) and not all_categorical:
            # a float matrix is its own encoding: check it and use it without a copy
            # (at a million rows, a column-by-column copy is most of a fit's memory)
            X = float_by_value(X)
            names = tuple(f"x{j}" for j in range(X.shape[1]))
            _check_float_matrix(X, names, allow_missing, missing_hint, fitting=True)
            return cls(names, (None,) * X.shape[1], False), X
        names, cols, from_pandas = _columns(X)
        n = len(cols[0])
        if n == 0:
            raise ValueError("X has no rows; expected at least one training case")
        cats, temporal, prepared, coded = [], [], [], []
        for name, col in zip(names, cols):
            kind = _temporal_kind(col)
            own = _own_categories(col) if kind is None else None
            if own is not None:
                # a pandas categorical is its own encoding: its codes index its categories
                # (no object array of the cells, no hashing of them)
                check_cells(own, f"X column {name!r}")
                if has_infinite(own):
                    raise ValueError(f"X column {name!r} has infinite values")
                cc = col.cat.codes.to_numpy()
                miss = cc < 0
                vals = cc.astype(float)
                vals[miss] = np.nan
                coded.append(vals)
            else:
                vals, miss = _prepare(col, name, kind)
                coded.append(None)
            prepared.append(vals)
            if miss.all():
                raise ValueError(f"X column {name!r} has only missing values")
            if miss.any() and not allow_missing:
                raise ValueError(
                    f"X column {name!r} has missing values (NaN/None)." + (f" {missing_hint}" if missing_hint else "")
                )
            temporal.append(kind)
            if all_categorical or _column_is_categorical(col):
                if isinstance(col, pd.Series) and isinstance(col.dtype, pd.CategoricalDtype):
                    cats.append(np.asarray(col.cat.categories, dtype=object))
                else:
                    cats.append(sorted_categories(np.asarray(vals, dtype=object)[~miss]))
            else:
                cats.append(None)
        enc = cls(tuple(names), tuple(cats), from_pandas,
                  tuple(temporal) if any(t is not None for t in temporal) else ())
        return enc, enc._encode(names, prepared, allow_missing, missing_hint, name="X",
                                prepared=True, coded=coded)

    def transform(self, X, *, allow_missing: bool = False, missing_hint: str = "",
                  owner: str = "the model") -> np.ndarray:
        if X is None or isinstance(X, pd.Series) or (isinstance(X, np.ndarray) and X.ndim != 2):
            _columns(X)  # refuses these with a message, before any word about names
        from_pandas = isinstance(X, pd.DataFrame)
        if from_pandas or self.from_pandas:
            check_feature_names(self.names if self.from_pandas else None,
                                [str(c) for c in X.columns] if from_pandas else None, owner)
        if (_is_float_matrix(X) and X.shape[1] == self.n_features
                and not self.is_categorical.any() and not self.temporal):
            X = float_by_value(X)
            _check_float_matrix(X, self.names, allow_missing, missing_hint, fitting=False)
            return X
        if from_pandas and X.shape[1] == self.n_features and not self.temporal:
            out = self._encode_frame(X)
            if out is not None:
                return out
        names, cols, from_pandas = _columns(X)
        if len(cols) != self.n_features:
            raise ValueError(
                f"X has {len(cols)} features, but {owner} is expecting {self.n_features} "
                "features as input"
            )
        if len(cols[0]) == 0:
            raise ValueError("X has no rows")
        return self._encode(list(self.names), cols, allow_missing, missing_hint, name="X")

    def _encode_frame(self, X: pd.DataFrame):
        """The fast path of :meth:`transform` for the common DataFrame: float64 columns
        where training saw numbers, pandas categoricals where it saw categories, nothing
        missing. Each column is written once, whole, into a column-major matrix (the
        prediction walk reads any layout); a categorical column as its codes, mapped
        through its categories to the training codes. None for any other frame (the
        general path then encodes it, or says what is wrong with it)."""
        n = X.shape[0]
        if n == 0:
            return None
        if all(c is None for c in self.categories):
            if all(dt == np.float64 for dt in X.dtypes):
                # every column float64: pandas keeps them in one block, which to_numpy
                # returns without a copy (column-major); no column-by-column Python loop
                out = X.to_numpy()
                return out if out.dtype == np.float64 and _all_finite(out) else None
        out = np.empty((self.n_features, n)).T  # column-major: each column contiguous
        for j, cats in enumerate(self.categories):
            col = X.iloc[:, j]
            if cats is None:
                if col.dtype != np.float64:
                    return None
                out[:, j] = col.to_numpy()
                continue
            own = _own_categories(col)
            if own is None:
                return None
            cc = col.cat.codes.to_numpy()
            if own.size == 0 or cc.min() < 0:
                return None
            check_cells(own, f"X column {self.names[j]!r}", mixed_ok=True)
            lookup = category_codes(own, cats)
            np.take(lookup, cc, out=out[:, j])
            warn_unseen(out[:, j], np.zeros(n, dtype=bool), f"X column {self.names[j]!r}")
        if not _all_finite(out):
            return None
        return out

    def _encode(self, names, cols, allow_missing, missing_hint, name,
                prepared: bool = False, coded=None) -> np.ndarray:
        """The float matrix of ``cols``; ``coded[j]``: column ``j`` already as its codes
        (checked), or None."""
        n = len(cols[0])
        out = np.empty((n, len(cols)))
        for j, (fname, col, cats) in enumerate(zip(names, cols, self.categories)):
            if coded is not None and coded[j] is not None:
                out[:, j] = coded[j]
                continue
            own = _own_categories(col) if cats is not None and not prepared else None
            if own is not None:
                # a pandas categorical: check and look up its categories, not its cells
                cc = col.cat.codes.to_numpy()
                if (cc < 0).any() and not allow_missing:
                    raise ValueError(
                        f"{name} column {fname!r} has missing values (NaN/None)."
                        + (f" {missing_hint}" if missing_hint else ""))
                check_cells(own, f"{name} column {fname!r}", mixed_ok=True)
                lookup = category_codes(own, cats)
                out[:, j] = (np.where(cc >= 0, lookup[np.maximum(cc, 0)], np.nan)
                             if own.size else np.nan)
                warn_unseen(out[:, j], cc < 0, f"{name} column {fname!r}")
                continue
            if prepared:
                col_np = col
                miss = (np.isnan(col_np) if col_np.dtype.kind == "f" else is_missing(col_np))
            else:
                col_np, miss = _prepare(col, fname, self._temporal(j), mixed_ok=True)
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
                if has_infinite(col_np):
                    raise ValueError(f"{name} column {fname!r} has infinite values")
                obj = np.asarray(col_np, dtype=object)
                # unseen categories get code -1 (a boolean never matches a numeric
                # category, nor a number a boolean one); missing values NaN
                codes = category_codes(obj, cats)
                codes[miss] = np.nan
                if not prepared:  # at predict (fit encodes its own categories)
                    warn_unseen(codes, miss, f"{name} column {fname!r}")
                out[:, j] = codes
        return out


