"""Argument checks shared by the measures, the output and the pruning functions (issue 12).

(A fitted tree is checked by :func:`treebook.core.tree.check_tree`, beside the class.)
:func:`threshold_value` turns a threshold on a date or duration feature (kept as float
nanoseconds) back into a :class:`pandas.Timestamp` / :class:`pandas.Timedelta` for display.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_depth_limit", "check_label_types", "threshold_value", "format_temporal"]


def check_depth_limit(max_depth, name: str = "max_depth"):
    """``None`` or an int ≥ 0, else a ``TypeError``/``ValueError`` naming ``name``."""
    if max_depth is None:
        return None
    if isinstance(max_depth, bool) or not isinstance(max_depth, numbers.Integral):
        raise TypeError(f"{name} must be an int >= 0 or None; got {max_depth!r}")
    if max_depth < 0:
        raise ValueError(f"{name} must be >= 0 or None; got {max_depth}")
    return int(max_depth)


def threshold_value(tree, feature: int, t: float):
    """The threshold ``t`` of ``feature`` as the reader should see it: a
    :class:`pandas.Timestamp` for a date feature, a :class:`pandas.Timedelta` for a
    duration (both were learnt as nanoseconds), else the number itself."""
    kind = (getattr(tree, "extra", None) or {}).get("temporal", {}).get(int(feature))
    if kind is None or not np.isfinite(t):
        return t
    import pandas as pd

    ns = int(round(t))
    if kind.startswith("datetime"):
        ts = pd.Timestamp(ns, unit="ns")
        tz = kind[len("datetime64[ns, "):-1] if "," in kind else None
        return ts.tz_localize("UTC").tz_convert(tz) if tz else ts
    return pd.Timedelta(ns, unit="ns")


def format_temporal(value) -> str:
    """A date as ``2020-01-20`` (with the time when it is not midnight), a duration as
    pandas writes it (``19 days 12:00:00``)."""
    import pandas as pd

    if isinstance(value, pd.Timestamp):
        if value == value.normalize():
            return value.strftime("%Y-%m-%d") + (f" {value.tzname()}" if value.tz else "")
        return str(value)
    return str(value)


def check_label_types(values, name: str = "y") -> None:
    """Refuse labels that compare equal but differ in type, which would merge: strings
    mixed with non-strings (``1`` and ``"1"``; scikit-learn refuses them too) and booleans
    mixed with numbers (``True == 1``); also complex numbers and unhashable labels."""
    if isinstance(values, np.ndarray):
        arr = values
    else:  # a list keeps each label's type (np.asarray([1, True]) would make both ints)
        items = list(values)
        arr = np.empty(len(items), dtype=object)
        arr[:] = items
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers; labels must be real numbers or text")
    if arr.dtype != object:
        return
    kinds = set()
    for v in arr.tolist():
        if isinstance(v, (str, np.str_)):
            kinds.add("string")
        elif isinstance(v, (bool, np.bool_)):
            kinds.add("boolean")
        elif isinstance(v, (complex, np.complexfloating)):
            raise ValueError(f"{name} holds complex numbers; labels must be real numbers or text")
        elif isinstance(v, (int, float, np.integer, np.floating)):
            if v == v:  # NaN is a missing label, reported as such
                kinds.add("number")
        elif isinstance(v, (list, tuple, np.ndarray)):
            continue  # nested sequences: the caller's shape check reports them
        elif isinstance(v, (dict, set)):
            raise ValueError(f"{name} holds a {type(v).__name__}; each label must be hashable")
        elif v is None or type(v).__name__ in ("NAType", "NaTType"):
            continue
        else:
            kinds.add("other")
    if "string" in kinds and len(kinds) > 1:
        raise ValueError(f"{name} mixes string and non-string labels (Mix of label input "
                         f"types: {sorted(kinds)}); convert them to one type, e.g. "
                         f"{name}.astype(str)")
    if "boolean" in kinds and "number" in kinds:
        raise ValueError(f"{name} mixes booleans with numbers; Python counts True as 1, so "
                         "the two would merge into one class: convert them to one type")
