"""Chapter 6's drawing helpers: the overfitting curves of the opening figure, the
size-against-error panels, the over/under-pruning bars and the critical-difference
diagrams of the experiment. They draw what the page has computed; they teach nothing
of pruning."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from treebook.prune.compare import cd_diagram

#: marker and colour of every method of the experiment (a family shares a colour)
STYLE = {"none": ("x", "#555555"), "REP": ("o", "#1f77b4"), "PEP": ("s", "#ff7f0e"),
         "EBP": ("D", "#2ca02c"), "MEP": ("v", "#d62728"), "MEP-m": ("^", "#d62728"),
         "CVP": ("P", "#9467bd"), "CVP-gain": ("X", "#9467bd"), "CVP-chi2": ("d", "#bcbd22"),
         "CCP-0SE": ("<", "#8c564b"), "CCP-1SE": (">", "#8c564b"),
         "CCP-CV": ("h", "#e377c2"), "PRE": ("p", "#7f7f7f"), "OPT": ("*", "#000000")}


def error_by_size(grid, why):
    """The opening figure: mean error rate against the largest number of leaves, one line
    per set in ``why`` (name -> array splits × grid), with the test error's range over
    the splits as a band."""
    fig, ax = plt.subplots(figsize=(6, 3.2))
    test = why["test"]
    ax.fill_between(grid, test.min(0), test.max(0), color="C2", alpha=0.15, lw=0)
    for (name, err), style in zip(why.items(), ["-o", "--s", ":^"]):
        ax.plot(grid, err.mean(0), style, ms=3.5, label=f"{name} error")
    ax.set_xscale("log")
    ax.set_xlabel("at most this many leaves")
    ax.set_ylabel("error rate")
    ax.legend(frameon=False)
    return fig


def size_against_error(per_dataset, order, cols=5):
    """One panel per data set of ``order``: every method at its mean number of leaves
    (log axis) and mean test error, filled markers for C4.5 trees, open for CART trees.
    ``per_dataset(learner, value)`` gives the data sets × methods table of means."""
    rows = int(np.ceil(len(order) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(11, 2.1 * rows + 0.8))
    for ax, name in zip(axes.flat, order):
        for learner, filled in (("C4.5", True), ("CART", False)):
            e = per_dataset(learner).loc[name]
            n = per_dataset(learner, "leaves").loc[name]
            for m in e.index:
                if np.isnan(e[m]):
                    continue
                mk, col = STYLE[m]
                ax.plot(n[m], 100 * e[m], mk, ms=6 if m == "OPT" else 4.5, color=col,
                        mfc=col if filled or mk == "x" else "white", mew=1)
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in axes.flat[len(order):]:
        ax.axis("off")
    handles = [plt.Line2D([], [], ls="", marker=mk, color=col, label=m)
               for m, (mk, col) in STYLE.items()]
    fig.legend(handles=handles, loc="lower center", ncol=7, frameon=False, fontsize=8)
    fig.supxlabel("leaves (log scale)", y=0.1, fontsize=9)
    fig.supylabel("test error (%)", fontsize=9)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return fig


def over_under(balance):
    """Two panels (one per learner of ``balance``, learner -> table with ``over_share``,
    ``under_share`` and ``size_ratio`` per method): over-pruning to the left, under-pruning
    to the right, the size ratio written at the right."""
    fig, axes = plt.subplots(1, len(balance), figsize=(10, 4.2))
    for ax, (learner, b) in zip(np.atleast_1d(axes), balance.items()):
        y = np.arange(len(b))[::-1]
        ax.barh(y, -b["over_share"].fillna(0), color="#d62728", label="over-pruned tests")
        ax.barh(y, b["under_share"].fillna(0), color="#1f77b4", label="under-pruned tests")
        for yi, (_, row) in zip(y, b.iterrows()):
            if np.isfinite(row["size_ratio"]):
                ax.text(0.62, yi, f"×{row['size_ratio']:.2f}", va="center", fontsize=8)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(y, b.index)
        ax.set_xlim(-0.65, 0.75)
        ax.set_title(f"{learner} trees", fontsize=10)
        ax.set_xlabel("share of the grown tree's tests")
    np.atleast_1d(axes)[0].legend(frameon=False, fontsize=8, loc="lower left")
    fig.tight_layout()
    return fig


def cd_diagrams(ranks, cds):
    """One critical-difference diagram per learner: ``ranks`` learner -> mean ranks,
    ``cds`` learner -> Nemenyi's critical difference."""
    fig, axes = plt.subplots(len(ranks), 1, figsize=(8, 2.3 * len(ranks)))
    for ax, learner in zip(np.atleast_1d(axes), ranks):
        cd_diagram(ranks[learner], cds[learner], ax=ax, title=f"{learner} trees")
    fig.tight_layout()
    return fig
