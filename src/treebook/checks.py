"""Argument checks shared by the output and pruning functions (issue 12).

Every public function that takes a fitted :class:`~treebook.tree.Tree` checks it with
:func:`check_tree`, so that passing ``None``, an estimator or anything else gives a
``TypeError`` naming the argument instead of an ``AttributeError`` from deep inside.
:func:`threshold_value` turns a threshold on a date or duration feature (kept as float
nanoseconds) back into a :class:`pandas.Timestamp` / :class:`pandas.Timedelta` for display.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_tree", "check_depth_limit", "threshold_value"]


def check_tree(tree, name: str = "tree"):
    """``tree`` if it is a :class:`~treebook.tree.Tree`, else a ``TypeError`` naming it
    (with a hint when it is a fitted estimator, whose tree is ``estimator.tree_``)."""
    from .tree import Tree

    if isinstance(tree, Tree):
        return tree
    hint = ""
    if hasattr(tree, "fit") and hasattr(tree, "get_params"):
        hint = (f"; pass the estimator's fitted tree, {name}=estimator.tree_ (or call the "
                "estimator's own method)")
    raise TypeError(f"{name} must be a treebook.tree.Tree; got {type(tree).__name__}{hint}")


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
