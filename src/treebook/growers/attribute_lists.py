"""The level-wise grower's presorted attribute lists (SLIQ's and SPRINT's idea).

An attribute list holds one entry per row, sorted once by the feature's value
(:func:`presort`); at every depth the open nodes' rows lie in it as consecutive sorted
segments. After a level's cuts are chosen, :func:`rows_going_right` marks each row's side
and :func:`partition_lists` moves every list into the children's segments by a stable
partition, so no list is ever sorted again (:mod:`treebook.growers.levelwise`).
"""

from __future__ import annotations

import sys

import numpy as np

from ..core.cart_scores import FEATURE_THRESHOLD
from ..kernels import cart as kernels

__all__ = ["presort", "code_bits", "entry_rows", "rows_going_right", "partition_lists",
           "ROW_BITS", "NO_RANKS", "NO_LABELS", "NO_Y"]

def presort(X, y, ybits, columns=None, missing_rank=None, packed=False):
    """The attribute lists: for each feature (each of ``columns``, default all) one
    ``int64`` per row, sorted by ``x_f``::

        (code << 32) | row,    code = ((2·rank + close) << ybits) | class

    ``rank`` is the dense rank of the row's value; ``close`` is 1 when the next larger
    value is within ``FEATURE_THRESHOLD``. Missing values (NaN) sort after every known
    one with one rank of their own, so in every node's segment the missing rows are its
    last block; ``missing_rank`` (a list), if given, receives that rank for each feature
    (-1: the column has no missing value). Only after such a value can two distinct
    neighbours inside a node be too close to cut between, so only there does the scan
    look further: ``reach[f]`` maps those ranks to the first rank far enough above them.
    With two classes the class rides along (``ybits = 1``), so no level gathers it.

    The sort is stable: equal values (and the missing ones) keep row order, as the
    recursive grower's stable sort of a node's rows lists them, so a prefix sum adds the
    same weights in the same order in both growers (which matters once weights are
    fractional or the sums are of ``w·y``).

    ``packed=True`` (the compiled scan): half the memory, one ``uint32`` per row,
    ``(row << 3) | (new << 2) | (close << 1) | class`` (:func:`treebook.kernels.cart.pack_list`:
    ``new`` marks the first row of each value, so equal values need no rank), and no
    ``reach`` (after a ``close`` value the scan compares the two values themselves).
    """
    n, m = X.shape
    lists, reach = [], []
    for f in (range(m) if columns is None else columns):
        if packed:
            x = np.ascontiguousarray(X[:, f])
            o = np.argsort(x, kind="stable")
            out = np.empty(n, dtype=np.uint32)
            kernels.pack_list(o, x, y if ybits else NO_LABELS, bool(ybits), FEATURE_THRESHOLD,
                              out)
            lists.append(out)
            reach.append(None)
            del x, o
            continue
        o = np.argsort(X[:, f], kind="stable")
        xs = X[o, f]
        new = np.empty(n, dtype=bool)
        new[0] = True
        np.greater(xs[1:], xs[:-1], out=new[1:])
        has_nan = n > 0 and bool(np.isnan(xs[-1]))
        if has_nan:  # missing values (NaN) sort last and share one rank past the others
            new[int(np.searchsorted(np.isnan(xs), True))] = True
        code = np.cumsum(new, dtype=np.int64)
        code -= 1  # the rank
        u = xs[new]
        if has_nan:
            u[-1] = np.inf  # the missing rows' rank: never close to a known value
        if missing_rank is not None:
            missing_rank.append(u.shape[0] - 1 if has_nan else -1)
        del xs, new
        close = np.zeros(u.shape[0], dtype=bool)
        close[:-1] = u[1:] <= u[:-1] + FEATURE_THRESHOLD
        if close.any():
            r = np.flatnonzero(close)
            reach.append((r, np.searchsorted(u, u[r] + FEATURE_THRESHOLD, side="right")))
        else:
            reach.append(None)
        flag = close[code]
        code <<= 1
        code |= flag
        del flag, close, u
        if ybits:
            code <<= ybits
            code |= y[o]
        code <<= 32
        code |= o
        lists.append(code)
        del o, code
    return lists, reach


def code_bits(P, mask):
    """Bits 32-39 of each entry of an attribute list, ``& mask``, as ``uint8``: read
    through a byte view of the ``int64`` array (no 8-byte temporary). Bit 0 of ``mask``
    is the class (two classes), the next bit the ``close`` flag."""
    byte = 4 if sys.byteorder == "little" else 3
    return P.view(np.uint8)[byte::8] & mask


ROW_BITS = np.int64(0xFFFFFFFF)  # the row id in the low 32 bits of an attribute-list entry


def entry_rows(entries):
    """The row ids of attribute-list entries: the low 32 bits of an ``int64`` entry, the
    bits above the 3 flags of a packed ``uint32`` one."""
    if entries.dtype == np.uint32:
        return (entries >> 3).astype(np.intp)
    return entries & ROW_BITS


def rows_going_right(lists, best_f, best_p, cut_nodes, level, go_right,
                      columns=None, codes=None, X=None, rows=None, compiled=False,
                      best_go=None):
    """Partition step (rows): set ``go_right`` for the rows after each chosen cut (or, for
    a subset split, the rows whose category goes right), and return the rows either side
    of every threshold cut (their values make the threshold; -1 for subset splits).
    ``best_go[j]`` (or None): where node ``j``'s missing rows go (1 right, 0 left); they
    are the last block of its segment, so a cut sends them right unless told left."""
    starts, seg_len = level.starts, level.seg_len
    lower_row = np.full(cut_nodes.size, -1, dtype=np.int64)
    upper_row = np.full(cut_nodes.size, -1, dtype=np.int64)
    go_right[:] = 0
    is_subset = (np.array([codes[j] is not None for j in cut_nodes.tolist()], dtype=bool)
                 if codes is not None else np.zeros(cut_nodes.size, dtype=bool))
    for i in np.flatnonzero(is_subset):
        j = cut_nodes[i]
        r = rows[starts[j]:starts[j] + seg_len[j]]
        x = X[r, best_f[j]]
        nan = np.isnan(x)
        if nan.any():
            go_right[r[nan]] = best_go[j] == 1
            r, x = r[~nan], x[~nan]
        go_right[r] = codes[j][x.astype(np.int64)] == 1
    num = ~is_subset
    for f in np.unique(best_f[cut_nodes[num]]):
        sel = num & (best_f[cut_nodes] == f)
        js = cut_nodes[sel]
        P = lists[f if columns is None else columns[f]]
        lower_row[sel] = entry_rows(P[best_p[js]])
        upper_row[sel] = entry_rows(P[best_p[js] + 1])
        if compiled:
            kernels.mark_right(P, starts, seg_len, js, best_p, go_right)
            continue
        lens = seg_len[js]
        pos = np.repeat(starts[js] - np.concatenate([[0], np.cumsum(lens)[:-1]]),
                        lens) + np.arange(int(lens.sum()))
        go_right[P[pos] & ROW_BITS] = pos > np.repeat(best_p[js], lens)
        del pos
    if best_go is not None:  # missing rows sent left: they sit after the cut, so undo
        left_nodes = cut_nodes[num][best_go[cut_nodes[num]] == 0]
        for f in np.unique(best_f[left_nodes]):
            js = left_nodes[best_f[left_nodes] == f]
            lens = seg_len[js]
            pos = np.repeat(starts[js] - np.concatenate([[0], np.cumsum(lens)[:-1]]),
                            lens) + np.arange(int(lens.sum()))
            r = entry_rows(lists[f if columns is None else columns[f]][pos])
            go_right[r[np.isnan(X[r, f])]] = 0
    return lower_row, upper_row


def partition_lists(lists, go_right, slot_size, open_slots, n_a: int,
                     compiled: bool = False, seg_len=None, spare=None) -> None:
    """Partition step (lists): every attribute list, reordered in place so that the open
    children's rows form consecutive segments, each still sorted (a stable partition).

    Every slot (node ``j``, side ``b``) gets a region of the new lists: open children
    first, in order, then all other rows (closed children, nodes that became leaves).
    Within a node the left rows keep their order, and so do the right ones: the left rows
    of all nodes, in list order, fill the left slots one after another (likewise the right
    ones), so their places are the same for every feature.
    """
    is_open = np.zeros(slot_size.shape[0], dtype=bool)
    is_open[open_slots] = True
    slot_rank = np.concatenate([np.flatnonzero(is_open), np.flatnonzero(~is_open)])
    slot_base = np.empty(slot_size.shape[0], dtype=np.int64)
    slot_base[slot_rank] = np.concatenate([[0], np.cumsum(slot_size[slot_rank])[:-1]])
    n_new = int(slot_size[open_slots].sum())
    if compiled:  # the same stable partition, one loop per list, into a spare buffer
        starts = np.concatenate([[0], np.cumsum(seg_len)[:-1]]).astype(np.int64)
        for f in range(len(lists)):
            P = lists[f]
            out = spare[P.dtype.char][:n_new]  # one spare list per layout
            (kernels.partition_packed if P.dtype == np.uint32 else kernels.partition_list)(
                P, go_right, starts, seg_len, slot_base, is_open, out)
            lists[f] = out
            spare[P.dtype.char] = P if P.base is None else P.base  # the old list's memory is next
        return
    dest = []
    for b in (0, 1):
        size_b = slot_size[b::2]
        before = np.concatenate([[0], np.cumsum(size_b)[:-1]])
        dest.append(np.arange(int(size_b.sum())) + np.repeat(slot_base[b::2] - before,
                                                               size_b))
    for f in range(len(lists)):
        P = lists[f]
        rows = P & ROW_BITS
        right = go_right[rows].view(bool)
        del rows
        full = np.empty(n_a, dtype=np.int64)
        full[dest[0]] = P[~right]
        full[dest[1]] = P[right]
        del right, P
        lists[f] = full[:n_new]
        del full


NO_RANKS = np.zeros(1, dtype=np.int64)


NO_LABELS = np.zeros(1, dtype=np.int8)


NO_Y = np.zeros(1)
