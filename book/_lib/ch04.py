"""Chapter 4's drawing helpers: a binary tree drawn with matplotlib, and the leaf
rectangles of a tree on two features. They draw; they teach nothing of CART."""

from __future__ import annotations

import matplotlib.pyplot as plt


def node_xy(tree, keep=lambda t: True):
    """Plot positions of a package Tree's nodes: leaves spaced evenly left to right in
    pre-order, a parent centred over its children; nodes below a collapsed node
    (``keep(t)`` false) are dropped."""
    pos, leaf_x = {}, [0]

    def walk(t, d):
        kids = [] if tree.is_leaf[t] or not keep(t) else [int(c) for c in tree.children_of(t)]
        if not kids:
            pos[t] = (leaf_x[0], -d)
            leaf_x[0] += 1
        else:
            xs = [walk(c, d + 1) for c in kids]
            pos[t] = (sum(xs) / len(xs), -d)
        return pos[t][0]

    walk(0, 0)
    return pos


def draw_tree(ax, tree, text, keep=lambda t: True, highlight=(), fontsize=8, depth=None):
    """Draw a binary tree on ``ax``: ``text(t)`` is the label of node ``t``; nodes in
    ``highlight`` are orange."""
    pos = node_xy(tree, keep)
    for t, (x, y) in pos.items():
        if not tree.is_leaf[t] and keep(t):
            for c in tree.children_of(t):
                cx, cy = pos[int(c)]
                ax.plot([x, cx], [y, cy], color="0.6", lw=1, zorder=1)
    for t, (x, y) in pos.items():
        internal = not tree.is_leaf[t] and keep(t)
        face = "#fde0c5" if t in highlight else ("#e8eef7" if internal else "white")
        ax.text(x, y, text(t), ha="center", va="center", fontsize=fontsize, zorder=2,
                bbox=dict(boxstyle="round,pad=0.3", fc=face,
                          ec="#d9480f" if t in highlight else "0.4"))
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ax.set_xlim(min(xs) - 0.7, max(xs) + 0.7)
    ax.set_ylim(-(depth if depth is not None else -min(ys)) - 0.5, 0.5)
    ax.axis("off")


def rectangles(tree, node, box):
    """Leaf rectangles ``(leaf, (x0, x1, y0, y1))`` of a tree on two features (feature 0
    on the horizontal axis), below ``node``, inside ``box``."""
    if tree.is_leaf[node]:
        return [(node, box)]
    f, s = tree.feature[node], tree.threshold[node]
    left, right = tree.children_of(node)
    lo, hi = list(box), list(box)
    if f == 0:
        lo[1], hi[0] = s, s
    else:
        lo[3], hi[2] = s, s
    return rectangles(tree, left, lo) + rectangles(tree, right, hi)


def tree_and_rectangles(model, X2, y):
    """The opening figure: a depth-2 regression tree on two columns of ``X2``, drawn
    (left) and as leaf rectangles over the scatter of the cases (right)."""
    tree = model.tree_
    fig, (ax_t, ax_r) = plt.subplots(1, 2, figsize=(10, 3.8),
                                     gridspec_kw={"width_ratios": [1.1, 1]})
    names = list(X2.columns)
    draw_tree(ax_t, tree, lambda t: (
        f"{names[tree.feature[t]]} ≤ {tree.threshold[t]:.4f}?" if not tree.is_leaf[t]
        else f"n = {tree.n_samples[t]}\nmean {tree.value[t, 0]:.0f}"), fontsize=9)
    a, b = X2.iloc[:, 0], X2.iloc[:, 1]
    sc = ax_r.scatter(a, b, c=y, s=9, cmap="viridis")
    bounds = [a.min() - 0.01, a.max() + 0.01, b.min() - 0.01, b.max() + 0.01]
    for leaf, (x0, x1, y0, y1) in rectangles(tree, 0, bounds):
        ax_r.add_patch(plt.Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, lw=1.5))
        ax_r.text((x0 + x1) / 2, (y0 + y1) / 2, f"{tree.value[leaf, 0]:.0f}",
                  ha="center", va="center", fontsize=12, weight="bold",
                  bbox=dict(fc="white", alpha=0.8, ec="none"))
    ax_r.set_xlim(bounds[:2])
    ax_r.set_ylim(bounds[2:])
    return fig, ax_r, sc
