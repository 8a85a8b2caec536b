"""Chapter 2's harness and figures: the Mitchell-style partial tree, the iris rectangles,
the synchronized depth view (tree, partition, train/test curve), the bootstrap
instability frames and the binary-versus-multiway plot. Plotting only; the numbers the
chapter states are computed in the chapter.
"""

from __future__ import annotations

import html

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from treebook.io.render import to_graphviz
from treebook.io.widgets import FrameSlider, line_chart_svg
from _lib.figures import svg_markup

COLOUR = {"setosa": "#4c72b0", "versicolor": "#dd8452", "virginica": "#55a868"}


def partial_tree(node):
    """Draw a tree grown to depth 1, with the cases of every node (Mitchell Fig. 3.4)."""
    import graphviz

    def label(n):
        days = ", ".join(f"D{i + 1}" for i in n.cases)
        counts = f"[{n.counts['Yes']}+, {n.counts['No']}−]"
        return f"{{{days}}}\n{counts}"

    g = graphviz.Digraph(graph_attr={"rankdir": "TB", "nodesep": "0.3"},
                         node_attr={"shape": "box", "style": "rounded",
                                    "fontname": "Helvetica", "fontsize": "11"},
                         edge_attr={"fontname": "Helvetica", "fontsize": "11"})
    g.node("root", f"{node.feature}\n{label(node)}", penwidth="1.5")
    for value, c in node.children.items():
        pure = (c.counts > 0).sum() == 1
        g.node(value, label(c) + (f"\n→ {c.label}" if pure else "\n?"),
               style="rounded,filled" if pure else "rounded",
               fillcolor="#d9ead3" if pure else "white")
        g.edge("root", value, label=f" {value}")
    return g


def regions(node, box, edges):
    """(box, predicted class, is a leaf) for every region a nested ID3 tree defines."""
    if node.is_leaf:
        yield box, node.label, True
        return
    for band in edges[node.feature]:
        inner = {**box, node.feature: [band]}
        if band in node.children:
            yield from regions(node.children[band], inner, edges)
        else:                      # no branch: a case stops at this node
            yield inner, node.label, False


def _span(edges, feature, bands):
    return edges[feature][bands[0]][0], edges[feature][bands[-1]][1]


def draw_regions(ax, tree, edges, length, width, species, *, label_leaves=True):
    """Shade the boxes of a nested ID3 tree on petal length x width; dots are flowers."""
    all_bands = {f: list(e) for f, e in edges.items()}
    j = 0
    for box, label, is_leaf in regions(tree, all_bands, edges):
        x0, x1 = _span(edges, "petal_length", box["petal_length"])
        y0, y1 = _span(edges, "petal_width", box["petal_width"])
        ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor=COLOUR[label],
                               alpha=0.18, edgecolor="black", lw=1.2,
                               hatch=None if is_leaf else "//"))
        if is_leaf and label_leaves:
            j += 1
            ax.text((x0 + x1) / 2, y1 - 0.05, f"$R_{j}$: {label}", ha="center",
                    va="top", fontsize=9,
                    bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none"})
    for name in COLOUR:
        sel = species == name
        ax.scatter(length[sel], width[sel], s=12, color=COLOUR[name], label=name)
    ax.set_xlim(1, 7.2)
    ax.set_ylim(0, 2.6)
    ax.set_xlabel("petal length (cm)")
    ax.set_ylabel("petal width (cm)")


def iris_rectangles(tree, edges, length, width, species):
    """The iris tree as a partition of the plane (James et al., Figure 8.3)."""
    fig, ax = plt.subplots(figsize=(6.6, 4.2))
    draw_regions(ax, tree, edges, length, width, species)
    ax.legend(loc="lower right", frameon=True, fontsize=9)
    plt.show()




def synchronized_depth_view(model, trees, edges, length, width, species, train_rows,
                            X_train, y_train, X_test, y_test):
    """A depth slider whose every frame shows the cut tree, its partition of the plane
    and the train/test accuracy curve with the current depth marked.

    ``trees`` are nested ID3 trees (treebook.teaching.recursive) cut at each depth, for
    the partition; ``model`` is the fitted ID3Classifier, whose ``tree_`` is cut with
    ``truncate`` for the drawing and the scores (the same trees, tested in the chapter).
    """
    depths = list(range(len(trees)))
    cut = [model.tree_.truncate(d) for d in depths]
    train = [model.score_with(t, X_train, y_train) for t in cut]
    test = [model.score_with(t, X_test, y_test) for t in cut]
    pictures = []
    for d in depths:
        fig, ax = plt.subplots(figsize=(4.4, 3.0))
        draw_regions(ax, trees[d], edges, length[train_rows], width[train_rows],
                     species[train_rows], label_leaves=False)
        pictures.append(svg_markup(fig))

    def render(d):
        stats = (f'<div class="tb-frame-stats">depth <b>{d}</b> · {cut[d].n_leaves} leaves · '
                 f'training accuracy <b>{train[d]:.3f}</b> · test accuracy <b>{test[d]:.3f}</b>'
                 f'</div>')
        chart = line_chart_svg(depths, {"training accuracy": train, "test accuracy": test},
                               current=d, xlabel="depth", ylabel="accuracy", ylim=(0.0, 1.0))
        drawing = to_graphviz(cut[d], rankdir="LR").to_html()
        return (stats + '<div style="display:flex;flex-wrap:wrap;gap:8px;align-items:center">'
                f'<div>{pictures[d]}</div><div>{chart}</div></div>{drawing}')

    # not described "depth": the JupyterLab test (tests/lab) moves the chapter's first
    # slider of that name, which is depth_explorer's on MONICA
    slider = FrameSlider(depths, render, description="tree depth", format_value=str,
                         initial=len(depths) - 1)
    slider.scores = {"train": train, "test": test, "leaves": [t.n_leaves for t in cut]}
    return slider


def bootstrap_frames(models, rows, X_full, y_full):
    """One frame per bootstrap resample: the tree grown on it, its root and its accuracy
    on the original table."""
    frames = {}
    for b, (m, r) in enumerate(zip(models, rows)):
        f = m.tree_.feature[0]
        root = m.tree_.feature_names[f] if f >= 0 else "(a single leaf)"
        acc = m.score(X_full, y_full)
        distinct = len(set(r.tolist()))
        frames[b] = (f'<div class="tb-frame-stats">resample <b>{b + 1}</b> · root '
                     f'<b>{html.escape(str(root))}</b> · {m.n_leaves_} leaves · '
                     f'{distinct} distinct applicants · accuracy on all 15 <b>{acc:.3f}</b>'
                     f'</div>' + m.to_graphviz().to_html())
    return FrameSlider(list(frames), lambda b: frames[b], description="bootstrap resample",
                       format_value=lambda b: str(b + 1))


def leaves_vs_accuracy(curves, marks=None):
    """Test accuracy against the number of leaves (log scale), one curve per learner."""
    fig, ax = plt.subplots(figsize=(6.6, 3.8))
    for (label, (leaves, accuracy)), style in zip(curves.items(), ["o-", "s--", "^:"]):
        ax.plot(leaves, accuracy, style, ms=4, label=label)
    ax.set_xscale("log")
    ax.set_xlabel("leaves (log scale)")
    ax.set_ylabel("test accuracy")
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    plt.show()
