"""The binned grower's compiled pass: one level's histograms in one pass over the rows."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["level_histogram"]

@njit(cache=True)
def level_histogram(codes, target, weight, feature, route, left, right, slot, n_slots,
                    n_bins, n_classes):
    """One pass over a block of rows: the histograms of every open node of a level.

    Each row walks the tree grown so far in bin space (at node ``i`` it goes to
    ``right[i]`` when ``route[i, codes[row, feature[i]]]`` is 1, else to ``left[i]``:
    a threshold, a subset of categories and the side of the missing bin are all one row
    of ``route``; ``feature[i] < 0`` at a leaf). ``n_bins``: bins per feature in the
    histogram, the missing bin included. If its leaf is open (``slot[leaf] = s >= 0``) its
    weight is added to ``hist[s, f, codes[row, f], :]`` for every feature ``f``:

    * classification (``n_classes = K > 0``): channel ``k`` = weight of class ``k``,
      channel ``K`` = rows;
    * regression (``n_classes = 0``): channels ``Σw``, ``Σwy``, ``Σwy²``, rows.

    ``totals[s]`` are the same sums over the node's rows (classification: the class
    weights, then ``Σw``, then rows), and ``ymin``/``ymax`` the extreme responses
    (regression). Every sum runs sequentially in row order.
    """
    n, m = codes.shape
    n_channels = n_classes + 1 if n_classes > 0 else 4
    hist = np.zeros((n_slots, m, n_bins, n_channels))
    totals = np.zeros((n_slots, n_classes + 2 if n_classes > 0 else 4))
    ymin = np.full(n_slots, np.inf)
    ymax = np.full(n_slots, -np.inf)
    for i in range(n):
        node = 0
        while feature[node] >= 0:
            if route[node, codes[i, feature[node]]]:
                node = right[node]
            else:
                node = left[node]
        s = slot[node]
        if s < 0:
            continue
        w = weight[i]
        if n_classes > 0:
            k = np.int64(target[i])
            totals[s, k] += w
            totals[s, n_classes] += w
            totals[s, n_classes + 1] += 1.0
            for f in range(m):
                b = codes[i, f]
                hist[s, f, b, k] += w
                hist[s, f, b, n_classes] += 1.0
        else:
            yv = target[i]
            wy = w * yv
            wyy = wy * yv
            totals[s, 0] += w
            totals[s, 1] += wy
            totals[s, 2] += wyy
            totals[s, 3] += 1.0
            ymin[s] = min(ymin[s], yv)
            ymax[s] = max(ymax[s], yv)
            for f in range(m):
                b = codes[i, f]
                hist[s, f, b, 0] += w
                hist[s, f, b, 1] += wy
                hist[s, f, b, 2] += wyy
                hist[s, f, b, 3] += 1.0
    return hist, totals, ymin, ymax
