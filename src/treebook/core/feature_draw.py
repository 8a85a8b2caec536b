"""Random feature subsets per node (``max_features``), the same in every grower.

A random forest decorrelates its trees by letting each node choose its split among a
random subset of the features (Breiman 2001). Here a node considers the features of a
random permutation in order, skipping those that are constant at the node (all values
within ``FEATURE_THRESHOLD`` of each other, or one category), until it has ``k`` that are
not; the best split among those ``k`` is taken. (scikit-learn's rule is close: it also
skips constants, but counts a constant it meets among the ``k`` drawn; the draws of the
two packages differ in any case, so their trees agree only at ``max_features=None``.)

The permutation of a node depends only on the estimator's seed and on the *set* of
training rows at the node — their count, smallest index and sum — so the recursive and
the level-wise grower, which visit nodes in different orders, draw the same features at
the same node and build identical trees.
"""

from __future__ import annotations

import numbers
import secrets

import numpy as np

__all__ = ["resolve_max_features", "draw_seed", "node_permutation", "features_to_consider"]


def resolve_max_features(max_features, n_features: int) -> int | None:
    """``k`` for ``max_features``: None (all features: no draw), an int ``1 … m``, a
    float fraction in (0, 1] (``max(1, int(f·m))``), ``"sqrt"`` or ``"log2"``
    (``max(1, int(√m))``, ``max(1, int(log2 m))``), as in scikit-learn."""
    m = int(n_features)
    if max_features is None:
        return None
    if isinstance(max_features, str):
        if max_features == "sqrt":
            k = int(np.sqrt(m))
        elif max_features == "log2":
            k = int(np.log2(m))
        else:
            raise ValueError("max_features must be None, an int, a float in (0, 1], "
                             f"'sqrt' or 'log2'; got {max_features!r}")
        return max(1, k)
    if isinstance(max_features, bool):
        raise TypeError(f"max_features must be None, an int, a float, 'sqrt' or 'log2'; "
                        f"got {max_features!r}")
    if isinstance(max_features, numbers.Integral):
        if not 1 <= max_features <= m:
            raise ValueError(f"max_features must be in [1, {m}] (the number of features); "
                             f"got {max_features}")
        return None if max_features == m else int(max_features)
    if isinstance(max_features, numbers.Real):
        if not 0.0 < max_features <= 1.0:
            raise ValueError(f"max_features as a fraction must be in (0, 1]; got {max_features}")
        k = max(1, int(max_features * m))
        return None if k == m else k
    raise TypeError(f"max_features must be None, an int, a float, 'sqrt' or 'log2'; got "
                    f"{type(max_features).__name__}")


def draw_seed(random_state) -> int:
    """A non-negative integer seed from ``random_state`` (None: a fresh random one)."""
    if random_state is None:
        return secrets.randbits(63)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**63 - 1))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be >= 0; got {random_state}")
        return int(random_state)
    raise TypeError(f"random_state must be None, an int or a numpy random generator; got "
                    f"{random_state!r}")


def node_permutation(seed: int, count: int, first_row: int, row_sum: int,
                     n_features: int) -> np.ndarray:
    """The feature order of the node holding ``count`` rows, the smallest ``first_row``,
    summing to ``row_sum``."""
    rng = np.random.default_rng((int(seed), int(count), int(first_row), int(row_sum)))
    return rng.permutation(int(n_features))


def features_to_consider(perm: np.ndarray, varies: np.ndarray, k: int) -> np.ndarray:
    """Boolean mask over features: the first ``k`` features along ``perm`` (one row per
    node: 2-D ``perm`` and ``varies``) that vary at the node."""
    perm = np.atleast_2d(perm)
    varies = np.atleast_2d(varies)
    ordered = np.take_along_axis(varies, perm, axis=1)
    take = ordered & (np.cumsum(ordered, axis=1) <= k)
    out = np.zeros_like(varies, dtype=bool)
    np.put_along_axis(out, perm, take, axis=1)
    return out
