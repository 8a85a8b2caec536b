"""The binned grower's compiled pass: one level's histograms in one pass over the rows."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["level_histogram"]

@njit(cache=True)
def level_histogram(codes, target, weight, node_of_row, feature, route, left, right, slot,
                    build, n_slots, n_build, n_bins, n_classes):
    """One pass over a block of rows: one level's node totals and the histograms of the
    nodes it builds.

    ``codes`` are the block's bin codes (``uint8``/``uint16``, binned once) and
    ``node_of_row[i]`` the node row ``i`` reached at the previous level, kept beside its
    codes. A row whose node was split at the previous level (``feature[node] >= 0``)
    moves **one step** — to ``right[node]`` when ``route[node, codes[i, feature[node]]]``
    is 1, else to ``left[node]`` — and ``node_of_row`` is updated in place; a row in a
    closed leaf is skipped at the cost of one lookup (no walk from the root). If the
    row's node is open (``slot[node] = s >= 0``) its sums go to ``totals[s]`` (and the
    extremes ``ymin[s]``/``ymax[s]`` of its responses); if the node's histogram is built
    in this pass (``build[s] = h >= 0``) its weight is also added to
    ``hist[h, f, codes[i, f], :]`` for every feature ``f``. ``n_bins``: bins per feature
    in the histogram, the missing bin included. Channels:

    * classification (``n_classes = K > 0``): channel ``k`` = weight of class ``k``,
      channel ``K`` = rows; ``totals[s]`` = the class weights, ``Σw``, rows;
    * regression (``n_classes = 0``): ``Σw``, ``Σwy``, ``Σwy²``, rows (also ``totals``).

    The other child of a split is not built: the grower gets its histogram by
    subtraction from the parent's (``treebook.growers.hist.grow_hist``). Every sum runs
    sequentially in row order.
    """
    n, m = codes.shape
    n_channels = n_classes + 1 if n_classes > 0 else 4
    hist = np.zeros((n_build, m, n_bins, n_channels))
    totals = np.zeros((n_slots, n_classes + 2 if n_classes > 0 else 4))
    ymin = np.full(n_slots, np.inf)
    ymax = np.full(n_slots, -np.inf)
    for i in range(n):
        node = node_of_row[i]
        split_on = feature[node]
        if split_on >= 0:  # split at the previous level: one step down
            if route[node, codes[i, split_on]]:
                node = right[node]
            else:
                node = left[node]
            node_of_row[i] = node
        s = slot[node]
        if s < 0:
            continue
        h = build[s]
        w = weight[i]
        if n_classes > 0:
            k = np.int64(target[i])
            totals[s, k] += w
            totals[s, n_classes] += w
            totals[s, n_classes + 1] += 1.0
            if h >= 0:
                for f in range(m):
                    b = codes[i, f]
                    hist[h, f, b, k] += w
                    hist[h, f, b, n_classes] += 1.0
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
            if h >= 0:
                for f in range(m):
                    b = codes[i, f]
                    hist[h, f, b, 0] += w
                    hist[h, f, b, 1] += wy
                    hist[h, f, b, 2] += wyy
                    hist[h, f, b, 3] += 1.0
    return hist, totals, ymin, ymax
