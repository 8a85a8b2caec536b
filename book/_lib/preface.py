"""The preface's and the notation page's figures: PlayTennis growing beside its partition
of the feature space (a frames slider), and an annotated contingency table. Plotting
only; the numbers the pages state are computed on the pages.
"""

from __future__ import annotations

import html
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import FancyBboxPatch, Rectangle

from treebook.core.impurity import contingency_table, information_gain
from treebook.io.render import PALETTE, to_graphviz
from treebook.io.widgets import FrameSlider
from _lib.figures import svg_markup

# the values of the features the tree asks in the order its drawing shows the branches
# (the encoder's sorted categories), so that the partition and the tree read alike;
# Temperature, which the tree never asks, in its natural order
ORDER = {"Outlook": ["Overcast", "Rain", "Sunny"], "Temperature": ["Hot", "Mild", "Cool"],
         "Humidity": ["High", "Normal"], "Wind": ["Strong", "Weak"]}
# columns: Outlook, then Humidity inside it; rows: Wind, then Temperature inside it. With
# this layout every leaf region of the PlayTennis tree is one rectangle.
COLUMNS = ("Outlook", "Humidity")
ROWS = ("Wind", "Temperature")


def _tint(hex_colour: str, amount: float) -> tuple:
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return tuple(1 - amount * (1 - rgb))




def growth_steps(model, X, y):
    """The fitted tree as ID3 grows it, one split at a time (Mitchell's order: breadth
    first, a node before its right-hand neighbours when its first day comes first).

    Returns ``(trees, steps)``: ``trees[k]`` is ``model.tree_`` with only the first ``k``
    splits made (``trees[0]`` is the root alone); ``steps[k - 1]`` describes split ``k``:
    the node's days, the tests on its path (feature, value), the feature chosen and its
    gain in bits.
    """
    tree = model.tree_
    Xe = model.encoder_.transform(X)
    paths = tree.decision_path(Xe).toarray().astype(bool)       # day x node
    internal = [n for n in range(tree.node_count) if not tree.is_leaf[n]]
    internal.sort(key=lambda n: (tree.depth[n], np.flatnonzero(paths[:, n])[0]))
    trees, steps = [], []
    for k in range(len(internal) + 1):
        trees.append(tree.prune([n for n in internal[k:]]))
        if k:
            node = internal[k - 1]
            days = np.flatnonzero(paths[:, node])
            feature = tree.feature_names[tree.feature[node]]
            counts = contingency_table(X[feature].iloc[days], y.iloc[days])[2]
            # the tests on the path from the root, with the value these days share
            path, up = [], tree.parent[node]
            while up >= 0:
                f = tree.feature_names[tree.feature[up]]
                path.insert(0, (f, X[f].iloc[days[0]]))
                up = tree.parent[up]
            steps.append({"node": node, "days": days, "feature": feature, "path": path,
                          "gain": information_gain(counts), "depth": int(tree.depth[node])})
    return trees, steps


def feature_space(X):
    """Every combination of the four features' values (3 x 3 x 2 x 2 = 36 points)."""
    return pd.DataFrame(list(itertools.product(*[ORDER[c] for c in X.columns])),
                        columns=X.columns)


def _grid(frame):
    """(column, row) of each row of ``frame`` in the 6 x 6 layout."""
    cols = [ORDER[COLUMNS[0]].index(a) * len(ORDER[COLUMNS[1]]) + ORDER[COLUMNS[1]].index(b)
            for a, b in zip(frame[COLUMNS[0]], frame[COLUMNS[1]])]
    rows = [ORDER[ROWS[0]].index(a) * len(ORDER[ROWS[1]]) + ORDER[ROWS[1]].index(b)
            for a, b in zip(frame[ROWS[0]], frame[ROWS[1]])]
    return np.array(cols), np.array(rows)


def partition_figure(model, tree, X, y, *, figsize=(4.9, 5.1)):
    """The partition ``tree`` makes of PlayTennis's 36-point feature space: each cell a
    combination of values, shaded by the tree's answer, thick lines around each leaf's
    region, the fourteen days in their cells (coloured by their class; a black outline
    marks a day the tree gets wrong)."""
    classes = list(model.classes_)
    colour = {c: PALETTE[i] for i, c in enumerate(classes)}
    space = feature_space(X)
    leaf = tree.apply(model.encoder_.transform(space))
    answer = model.predict_with(tree, space)
    cx, cy = _grid(space)
    nc, nr = cx.max() + 1, cy.max() + 1
    leaf_at = np.empty((nc, nr), dtype=np.int64)
    leaf_at[cx, cy] = leaf
    fig, ax = plt.subplots(figsize=figsize)
    for x, yy, a in zip(cx, cy, answer):
        ax.add_patch(Rectangle((x, yy), 1, 1, facecolor=_tint(colour[a], 0.35),
                               edgecolor="white", lw=0.8))
    # region borders: between neighbouring cells that fall in different leaves
    for x in range(nc):
        for yy in range(nr):
            if x + 1 < nc and leaf_at[x, yy] != leaf_at[x + 1, yy]:
                ax.plot([x + 1, x + 1], [yy, yy + 1], color="black", lw=2.2)
            if yy + 1 < nr and leaf_at[x, yy] != leaf_at[x, yy + 1]:
                ax.plot([x, x + 1], [yy + 1, yy + 1], color="black", lw=2.2)
    ax.add_patch(Rectangle((0, 0), nc, nr, fill=False, edgecolor="black", lw=2.2))
    # the days, in the cells of their feature values
    dx, dy = _grid(X)
    wrong = model.predict_with(tree, X) != y.to_numpy()
    for i, (x, yy, c, bad) in enumerate(zip(dx, dy, y, wrong)):
        ax.add_patch(FancyBboxPatch((x + 0.14, yy + 0.28), 0.72, 0.44,
                                    boxstyle="round,pad=0.02", facecolor=colour[c],
                                    edgecolor="black" if bad else "none",
                                    lw=2.0 if bad else 0))
        ax.text(x + 0.5, yy + 0.5, f"D{i + 1}", ha="center", va="center", fontsize=8.5,
                color="black", fontweight="bold" if bad else "normal")
    # two-level axis labels
    inner_c, inner_r = ORDER[COLUMNS[1]], ORDER[ROWS[1]]
    for x in range(nc):
        ax.text(x + 0.5, nr + 0.12, inner_c[x % len(inner_c)], ha="center", va="top",
                fontsize=7.5)
    for j, v in enumerate(ORDER[COLUMNS[0]]):
        ax.text(j * len(inner_c) + len(inner_c) / 2, nr + 0.55, v, ha="center",
                va="top", fontsize=9, fontweight="bold")
    for yy in range(nr):
        ax.text(-0.12, yy + 0.5, inner_r[yy % len(inner_r)], ha="right", va="center",
                fontsize=7.5)
    for j, v in enumerate(ORDER[ROWS[0]]):
        ax.text(-1.3, j * len(inner_r) + len(inner_r) / 2, f"Wind {v}", ha="center",
                va="center", fontsize=9, fontweight="bold", rotation=90)
    ax.text(nc / 2, nr + 1.05, "Outlook, then Humidity", ha="center", va="top",
            fontsize=8, color="#555555")
    # legend: what the shades and the boxes mean
    for i, c in enumerate(classes):
        x0 = i * 3.1
        ax.add_patch(Rectangle((x0, nr + 1.6), 0.45, 0.4, facecolor=_tint(colour[c], 0.35),
                               edgecolor="#999999", lw=0.6))
        ax.text(x0 + 0.55, nr + 1.8, f"tree says {c}", va="center", fontsize=7.5)
        ax.add_patch(FancyBboxPatch((x0 + 0.02, nr + 2.12), 0.42, 0.36,
                                    boxstyle="round,pad=0.02", facecolor=colour[c],
                                    edgecolor="none"))
        ax.text(x0 + 0.55, nr + 2.3, f"a {c} day", va="center", fontsize=7.5)
    ax.text(0, nr + 2.8, "outlined in black: a day the tree gets wrong", va="center",
            fontsize=7.5)
    ax.set_xlim(-2.1, nc + 0.05)
    ax.set_ylim(nr + 3.0, -0.05)        # first row on top
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


def growing_tennis(model, X, y):
    """A slider over the splits of the PlayTennis tree: each frame shows the tree after
    ``k`` splits (the node just split and its path drawn thick) beside the partition of
    the feature space it makes."""
    trees, steps = growth_steps(model, X, y)
    Xe = model.encoder_.transform(X)
    pictures = [svg_markup(partition_figure(model, t, X, y)) for t in trees]

    def render(k):
        t = trees[k]
        errors = int((model.predict_with(t, X) != y.to_numpy()).sum())
        if k == 0:
            what = "before any split: one leaf, the majority class"
            hl = []
        else:
            s = steps[k - 1]
            which = (f'all {len(y)} days' if not s["path"] else
                     "the days with " + " and ".join(f"{f} = {v}" for f, v in s["path"]))
            days = ", ".join(f"D{i + 1}" for i in s["days"])
            what = (f'split {k}: {html.escape(which)} ({html.escape(days)}) are split on '
                    f'<b>{html.escape(s["feature"])}</b>, gain {s["gain"]:.3f} bits')
            # the node just split: the path of one of its days, down to the node's depth
            row = s["days"][:1]
            path = np.flatnonzero(t.decision_path(Xe[row]).toarray()[0])
            hl = [int(n) for n in path if t.depth[n] <= s["depth"]]
        stats = (f'<div class="tb-frame-stats">{what} · {t.n_leaves} '
                 f'{"leaf" if t.n_leaves == 1 else "leaves"} · training errors '
                 f'<b>{errors}</b> of {len(y)}</div>')
        drawing = to_graphviz(t, highlight=hl).to_html()
        return (stats + '<div style="display:flex;flex-wrap:wrap;gap:12px;'
                'align-items:center">'
                f'<div style="max-width:30em">{pictures[k]}</div><div>{drawing}</div></div>')

    slider = FrameSlider(list(range(len(trees))), render, description="splits made",
                         format_value=str, initial=len(trees) - 1)
    slider.trees, slider.steps = trees, steps
    return slider


def contingency_figure(counts, values, classes, *, feature="A", figsize=(7.6, 2.8)):
    """A contingency table annotated with the book's symbols: each cell is marked with
    its symbol (|D_vk| inside, |D_v| for a row total, |C_k| for a column total, |D| for
    the grand total). ``classes`` in the order of the fitted classes, so that their tints
    match the tree drawings."""
    counts = np.asarray(counts, dtype=float)
    V, K = counts.shape
    fig, ax = plt.subplots(figsize=figsize)
    w0, w, h = 2.4, 1.2, 0.8
    left = lambda c: 0.0 if c == 0 else w0 + (c - 1) * w      # noqa: E731
    width = lambda c: w0 if c == 0 else w                     # noqa: E731

    def cell(c, r, text, face="white", weight="normal", size=10, tag=None):
        ax.add_patch(Rectangle((left(c), r * h), width(c), h, facecolor=face,
                               edgecolor="#555555", lw=0.9))
        ax.text(left(c) + width(c) / 2, r * h + h * (0.6 if tag else 0.5), text,
                ha="center", va="center", fontsize=size, fontweight=weight)
        if tag:
            ax.text(left(c) + 0.06, r * h + 0.05, tag, ha="left", va="top", fontsize=7.5,
                    color="#444444")

    cell(0, 0, f"{feature} = $a_v$", face="#eeeeee", size=9)
    for k, name in enumerate(classes):
        cell(k + 1, 0, f"{name}\n($k = {k + 1}$)", face="#eeeeee", weight="bold", size=9)
    cell(K + 1, 0, "total", face="#eeeeee", size=9)
    for v, name in enumerate(values):
        cell(0, v + 1, f"{name} ($v = {v + 1}$)", face="#eeeeee", weight="bold", size=9)
        for k in range(K):
            cell(k + 1, v + 1, f"{counts[v, k]:g}", face=_tint(PALETTE[k], 0.3),
                 tag=f"$|D_{{{v + 1}{k + 1}}}|$")
        cell(K + 1, v + 1, f"{counts[v].sum():g}", face="#f7f7f7", tag=f"$|D_{v + 1}|$")
    cell(0, V + 1, "total", face="#eeeeee", size=9)
    for k in range(K):
        cell(k + 1, V + 1, f"{counts[:, k].sum():g}", face="#f7f7f7",
             tag=f"$|C_{k + 1}|$")
    cell(K + 1, V + 1, f"{counts.sum():g}", face="#dddddd", weight="bold", tag="$|D|$")
    right, bottom = left(K + 1) + w, (V + 2) * h
    notes = [r"$|D_{vk}|$: the cases of branch $v$ in class $k$ (a cell)",
             r"$|D_v| = \sum_k |D_{vk}|$: the cases of branch $v$ (a row)",
             r"$|C_k| = \sum_v |D_{vk}|$: the cases of class $k$ (a column;",
             r"     together, the node's count vector)",
             r"$|D| = \sum_{v,k} |D_{vk}|$: every case at the node",
             r"$p_k = |C_k| / |D|$,  $\hat P(k \mid v) = |D_{vk}| / |D_v|$"]
    for i, text in enumerate(notes):
        ax.text(right + 0.4, 0.35 + i * bottom / len(notes), text, fontsize=8.5,
                va="center")
    ax.set_xlim(-0.05, right + 6.6)
    ax.set_ylim(bottom + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    plt.show()
