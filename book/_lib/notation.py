"""The notation page's figures: a tree with its symbols written on it, the three impurity
curves of two classes, and a numeric feature's distinct values with the cuts between
them. Drawing only; the quantities come from the package on the page."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from treebook.core.impurity import entropy, gini, misclassification_error
from treebook.c45 import training_errors
from treebook.io.render import PALETTE, to_graphviz

_NOTE = "#B8002E"          # the colour of the symbols written on the drawings


def _add_line(graph, node: int, line: str) -> None:
    """Append ``line`` (HTML-like label markup) to the label ``to_graphviz`` gave node
    ``node``: a last line of the node's box, in the colour of the notes."""
    head = f"\tn{node} [label=<"
    for j, stmt in enumerate(graph.body):
        if stmt.startswith(head):
            depth, i = 1, len(head)
            while depth:                       # the label's closing ">" (labels nest <>)
                depth += {"<": 1, ">": -1}.get(stmt[i], 0)
                i += 1
            graph.body[j] = (stmt[:i - 1] + f'<BR/><FONT COLOR="{_NOTE}">{line}</FONT>'
                             + stmt[i - 1:])
            return
    raise ValueError(f"node {node} is not in the drawing")


def annotated_tree(tree, node: int):
    """``tree`` drawn by :func:`treebook.io.render.to_graphviz`, with the notation table's
    symbols written on it: ``node`` is ``t`` (thick, with its ``n(t)`` and ``e(t)``), the
    dashed box around it and its descendants is ``T_t``, and every leaf is marked as a
    member of ``T̃`` (the leaves inside the box make ``T̃_t``)."""
    g = to_graphviz(tree, highlight=[node])
    below = {int(i) for i in tree.subtree(node)}
    leaves = [int(i) for i in np.flatnonzero(tree.is_leaf)]
    _add_line(g, node, f'<B><I>t</I></B>: <I>n</I>(<I>t</I>) = {tree.weighted_n[node]:g}, '
                       f'<I>e</I>(<I>t</I>) = {training_errors(tree)[node]:g}')
    for leaf in leaves:
        _add_line(g, leaf, "∈ <I>T&#771;</I>" + ("<SUB>t</SUB>" if leaf in below else ""))
    with g.subgraph(name="cluster_subtree") as c:
        c.attr(label=f'<<I>T</I><SUB>t</SUB>: the subtree rooted at <I>t</I> '
                     f'({len(below)} nodes)>',
               style="dashed,rounded", color=_NOTE, fontcolor=_NOTE, labeljust="l",
               fontsize="11", penwidth="1.4")
        for i in sorted(below):
            c.node(f"n{i}")
    legend = (f'<<I>T&#771;</I>: the {len(leaves)} leaves, |<I>T&#771;</I>| = {len(leaves)}'
              f'<BR ALIGN="LEFT"/><I>T&#771;</I><SUB>t</SUB>: the '
              f'{len(below & set(leaves))} leaves of <I>T</I><SUB>t</SUB>'
              f'<BR ALIGN="LEFT"/><I>n</I>(<I>t</I>): the cases reaching <I>t</I>'
              f'<BR ALIGN="LEFT"/><I>e</I>(<I>t</I>): those outside its majority class, '
              f'<BR ALIGN="LEFT"/>the errors of <I>t</I> as a leaf<BR ALIGN="LEFT"/>>')
    g.node("legend", legend, shape="plaintext", style="", fontcolor=_NOTE, fontsize="11")
    # the legend sits beside the root, tied there by an invisible edge
    with g.subgraph() as same:
        same.attr(rank="same")
        same.node("n0")
        same.node("legend")
    g.edge("n0", "legend", style="invis")
    return g


def impurity_curves(p_marked=None, marked_label=None, *, figsize=(8.4, 3.4)):
    """``H(D)``, ``Gini(D)`` and ``E(D)`` of a node with two classes as functions of
    ``p_1`` (so ``p_2 = 1 - p_1``), computed by the package's measures on count vectors
    ``(p_1, 1 - p_1)``; ``p_marked`` adds a vertical line at one node's ``p_1`` with the
    three values there."""
    p = np.linspace(0, 1, 401)
    counts = np.column_stack([p, 1 - p])
    curves = [(r"$H(D) = -\sum_k p_k \log_2 p_k$ (bits)", entropy, PALETTE[0], "-"),
              (r"$\mathrm{Gini}(D) = 1 - \sum_k p_k^2$", gini, PALETTE[1], "--"),
              (r"$E(D) = 1 - \max_k p_k$", misclassification_error, PALETTE[2], ":")]
    fig, ax = plt.subplots(figsize=figsize)
    for label, measure, colour, style in curves:
        values = np.array([measure(c) for c in counts])
        ax.plot(p, values, color=colour, ls=style, lw=2.2, label=label)
    if p_marked is not None:
        ax.axvline(p_marked, color="#777777", lw=0.9)
        c = np.array([p_marked, 1 - p_marked])
        for _, measure, colour, _ in curves:
            v = float(measure(c))
            ax.plot([p_marked], [v], "o", color=colour, ms=5)
            ax.annotate(f"{v:.3f}", (p_marked, v), xytext=(-5, 0), ha="right", va="center",
                        textcoords="offset points", fontsize=8.5, color=colour,
                        fontweight="bold")
        if marked_label:
            ax.text(p_marked, 1.03, marked_label, ha="center", va="bottom", fontsize=8.5,
                    color="#555555")
    ax.set_xlabel(r"$p_1$, the proportion of class 1 in $D$ ($p_2 = 1 - p_1$)")
    ax.set_ylabel("impurity of $D$")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.12)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8.5, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def cut_points(x, y, *, feature="A", figsize=(7.6, 2.7)):
    """The cases of one node on the axis of a numeric feature ``x`` (a dot per case,
    coloured by its class, stacked when values tie), the distinct values
    ``u_1 < ... < u_q`` labelled under the axis, and the ``q - 1`` candidate thresholds
    ``s`` (CART's midpoints ``u_i/2 + u_{i+1}/2``) as dashed lines between them."""
    x, y = np.asarray(x, dtype=float), np.asarray(y)
    classes = list(np.unique(y))
    u = np.unique(x)
    s = u[:-1] / 2 + u[1:] / 2
    fig, ax = plt.subplots(figsize=figsize)
    for cut in s:
        ax.axvline(cut, ymin=0.08, ymax=0.92, color="#999999", ls="--", lw=0.9, zorder=1)
    height = {}
    for xi, yi in sorted(zip(x, y), key=lambda t: (t[0], classes.index(t[1]))):
        level = height.get(xi, 0)
        height[xi] = level + 1
        ax.plot([xi], [0.45 + 0.42 * level], "o", ms=8, zorder=3,
                color=PALETTE[classes.index(yi)], mec="white")
    ax.axhline(0.15, color="black", lw=0.8, zorder=2)
    for i, ui in enumerate(u):
        ax.plot([ui, ui], [0.1, 0.2], color="black", lw=0.8)
        ax.text(ui, -0.05, f"$u_{{{i + 1}}}$", ha="center", va="top", fontsize=8.5)
        ax.text(ui, -0.5, f"{ui:g}", ha="center", va="top", fontsize=7.5, color="#555555")
    top = 0.45 + 0.42 * max(height.values())
    for i, cut in enumerate(s):
        ax.text(cut, top + 0.05, f"{cut:g}", ha="center", va="bottom", fontsize=6.5,
                color="#777777", rotation=90)
    ax.text(s[0], top + 0.75, f"$q - 1 = {len(s)}$ candidate thresholds $s$ (dashed), "
            r"$s = u_i/2 + u_{i+1}/2$", ha="left", va="bottom", fontsize=8.5)
    ax.text(u[-1], -0.95, f"$q = {len(u)}$ distinct values of {feature}, "
            f"{len(x)} cases", ha="right", va="top", fontsize=8.5)
    for k, c in enumerate(classes):
        ax.plot([], [], "o", color=PALETTE[k], ms=7, label=str(c))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8.5)
    pad = (u[-1] - u[0]) * 0.03
    ax.set_xlim(u[0] - pad, u[-1] + pad)
    ax.set_ylim(-1.3, top + 1.2)
    ax.axis("off")
    fig.tight_layout()
    return fig
