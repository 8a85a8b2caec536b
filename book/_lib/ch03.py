"""Figures of chapter 3 (C4.5): each function draws one figure from numbers the chapter
has computed or read, and returns the matplotlib figure. Nothing here is taught; the
chapter shows the numbers, this module only draws them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

from treebook import information_gain
from treebook.core.splits import threshold_tables
from treebook.prune.error_based import upper_error_rate

BLUE, ORANGE, GREEN, VERMILION, GREY = "#0072B2", "#E69F00", "#009E73", "#D55E00", "#777777"


def funnel(root: pd.DataFrame):
    """C4.5's four stages at a node, from ``candidate_table``'s output."""
    counted = root["admissible"] & (root.index != "recorder")
    stages = [
        ("attributes at the node", list(root.index)),
        ("admissible: a test can be made", list(root.index[root["admissible"]])),
        (f"counted in the average gain ({root.attrs['average_gain']:.3f} bits)",
         list(root.index[counted])),
        ("eligible: gain ≥ average − 0.001", list(root.index[root["eligible"]])),
        ("largest gain ratio among the eligible", list(root.index[root["chosen"]])),
    ]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for level, (label, names) in enumerate(stages):
        width = 0.35 + 0.65 * len(names) / len(root)
        y0 = -level
        ax.add_patch(plt.Rectangle((-width / 2, y0 - 0.4), width, 0.8,
                                   color=plt.cm.Blues(0.25 + 0.12 * level)))
        shown = ", ".join(f"{n} ({root.loc[n, 'gain_ratio']:.3f})" if level == 4 else n
                          for n in names)
        ax.text(0, y0 + 0.12, label, ha="center", va="center", fontsize=9, weight="bold")
        ax.text(0, y0 - 0.18, shown, ha="center", va="center", fontsize=9)
    ax.set_xlim(-0.55, 0.55)
    ax.set_ylim(-len(stages) + 0.5, 0.5)
    ax.axis("off")
    fig.tight_layout()
    return fig


def gain_against_split_info(panels):
    """Gain against split information, one panel per ``(title, candidate_table)``: rays
    of equal gain ratio through the origin and the average-gain line; filled markers are
    admissible tests, hollow ones are not (their gain as ``candidate_table`` reports it,
    which may be negative), the chosen test is ringed."""
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 3.8))
    axes = np.atleast_1d(axes)
    for ax, (title, table) in zip(axes, panels):
        info, gain = table["split_info"].to_numpy(float), table["gain"].to_numpy(float)
        xmax = 1.15 * max(info.max(), 0.5)
        xs = np.linspace(0, xmax, 2)
        for r in (0.05, 0.1, 0.2, 0.4, 1.0):
            ax.plot(xs, r * xs, color=GREY, lw=0.7, ls=":")
            x_lab = min(xmax, 0.95 * max(gain.max(), 0.05) / r)
            ax.text(x_lab, r * x_lab, f"$g_R$={r:g}", fontsize=7, color=GREY,
                    ha="right", va="bottom")
        avg = table.attrs["average_gain"]
        ax.axhline(avg, color=ORANGE, lw=1.2, label=f"average gain {avg:.3f}")
        ax.axhline(0, color="k", lw=0.6)
        ok = table["admissible"].to_numpy(bool)
        ax.scatter(info[ok], gain[ok], color=BLUE, zorder=3, label="admissible")
        ax.scatter(info[~ok], gain[~ok], facecolors="none", edgecolors=VERMILION, zorder=3,
                   label="not admissible")
        chosen = table["chosen"].to_numpy(bool)
        ax.scatter(info[chosen], gain[chosen], s=180, facecolors="none", edgecolors="k",
                   lw=1.5, zorder=4, label="chosen")
        for name, x, g in zip(table.index, info, gain):
            ax.annotate(str(name), (x, g), textcoords="offset points", xytext=(4, 3),
                        fontsize=7)
        ax.set_xlim(0, xmax)
        top = max(gain.max(), avg) * 1.25
        ax.set_ylim(min(gain.min() * 1.15, -0.02 * top), top)
        ax.set_xlabel("split information $H_A(D)$ (bits)")
        ax.set_title(title, fontsize=10)
    axes[0].set_ylabel("gain $g$ (bits)")
    axes[-1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def cut_gains(columns, y01, n: int):
    """Gain of every cut of each ``(name, values)`` column, with release 8's MDL charge."""
    fig, axes = plt.subplots(1, len(columns), figsize=(9, 3.2), sharey=True)
    for ax, (name, x) in zip(axes, columns):
        s = threshold_tables(x, y01, np.ones(n), 2)
        g = information_gain(s["tables"])
        mid = (s["lower"] + s["upper"]) / 2
        left = s["tables"][:, 0].sum(axis=1)
        ok = (left >= 2) & (n - left >= 2)
        ax.plot(mid[ok], g[ok], "o-", color=BLUE, label="admissible cut")
        ax.plot(mid[~ok], g[~ok], "x", color=VERMILION, ms=8,
                label="fewer than 2 on a side")
        ax.axhline(np.log2(ok.sum()) / n, ls="--", color="k", label="MDL charge")
        ax.set_title(name)
        ax.set_xlabel("cut (midpoint)")
    axes[0].set_ylabel("gain (bits)")
    axes[1].legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    return fig


def fractional_routing(branches, n_known: int):
    """One case with an unknown value split over the branches ``(name, known cases)``."""
    colours = [ORANGE, "#56B4E9", GREEN]
    fig, ax = plt.subplots(figsize=(8, 3.8))
    ax.text(0.5, 0.92, f"outlook?  {n_known + 1} days: {n_known} known, day 12 unknown",
            ha="center", va="center", fontsize=10,
            bbox=dict(boxstyle="round,pad=0.4", fc="#F2F2F2", ec="#555555"))
    left, width = 0.3, 0.4                          # the unit bar of day 12
    ax.annotate("", xy=(0.5, 0.71), xytext=(0.5, 0.86),
                arrowprops=dict(arrowstyle="->", color="#555555"))
    ax.text(left - 0.02, 0.67, "day 12, weight 1", ha="right", va="center", fontsize=9)
    x = left
    for (name, k), c, bx in zip(branches, colours, (0.15, 0.5, 0.85)):
        share = k / n_known
        ax.add_patch(plt.Rectangle((x, 0.63), width * share, 0.08, color=c))
        ax.text(x + width * share / 2, 0.67, f"{k}/{n_known}", ha="center", va="center",
                fontsize=9)
        ax.annotate("", xy=(bx, 0.33), xytext=(x + width * share / 2, 0.63),
                    arrowprops=dict(arrowstyle="->", color=c, lw=1.8))
        ax.text(bx, 0.22, f"{name}\n{k} known days + {k}/{n_known} of day 12\n"
                f"= {k + share:.2f} cases", ha="center", va="center", fontsize=9,
                bbox=dict(boxstyle="round,pad=0.4", fc="white", ec=c, lw=1.5))
        x += width * share
    ax.set_xlim(0, 1)
    ax.set_ylim(0.1, 1.0)
    ax.axis("off")
    fig.tight_layout()
    return fig


def upper_limits():
    """U_CF(E, N) for a 10 % training error rate and for none, at three CFs."""
    ns = np.arange(10, 201, 5)
    n1 = np.arange(1, 61)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    for cf, style in [(0.05, ":"), (0.25, "-"), (0.5, "--")]:
        axes[0].plot(ns, upper_error_rate(ns, 0.1 * ns, cf), style, label=f"CF = {cf}")
        axes[1].plot(n1, upper_error_rate(n1, 0, cf), style, label=f"CF = {cf}")
    axes[0].axhline(0.1, color="grey", lw=0.8)
    axes[0].set_title("training error rate 10 %")
    axes[1].set_title("no training errors")
    for ax in axes:
        ax.set_xlabel("cases N at the leaf")
    axes[0].set_ylabel("$U_{CF}(E, N)$")
    axes[1].legend()
    fig.tight_layout()
    return fig


def pep_ebp_margins(margins: pd.DataFrame):
    """PEP's and EBP's margins at every internal node (≤ 0: the method prunes)."""
    fig, ax = plt.subplots(figsize=(9, 3.4))
    pos = np.arange(len(margins))
    ax.bar(pos - 0.2, margins["PEP margin"], 0.4, color=BLUE,
           label="PEP: e'(t) − e'(T) − SE")
    ax.bar(pos + 0.2, margins["EBP margin"], 0.4, color=ORANGE,
           label="EBP: E_leaf − E_tree − 0.1")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_yscale("symlog", linthresh=1)
    ax.set_xticks(pos, [f"{i}\nN={n:.0f}" for i, n in zip(margins.index, margins["N(t)"])],
                  fontsize=7)
    ax.set_xlabel("internal node (pre-order) and its cases")
    ax.set_ylabel("margin (errors)\n≤ 0: prune")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def confidence_curve(summary: pd.DataFrame):
    """Left: CV accuracy minus CF 0.25's, fold by fold, with its t-interval, against CF;
    right: the mean number of leaves against CF (log scale)."""
    cf = summary.index.to_numpy(float)
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.4))
    ax = axes[0]
    ax.errorbar(cf, 100 * summary["minus CF 0.25"], yerr=100 * summary["half-width"],
                fmt="o-", color=BLUE, capsize=3, label="mean paired difference, 95 % t-interval")
    ax.axhline(0, color="k", lw=0.8)
    ax.axvline(0.25, color=GREY, lw=0.8, ls="--")
    ax.set_xlabel("confidence factor CF")
    ax.set_ylabel("CV accuracy − CF 0.25's (points)")
    ax.legend(fontsize=7, loc="lower right")
    ax = axes[1]
    ax.plot(cf, summary["leaves"], "o-", color=ORANGE)
    ax.set_yscale("log")
    ax.axvline(0.25, color=GREY, lw=0.8, ls="--")
    ax.set_xlabel("confidence factor CF")
    ax.set_ylabel("leaves (mean over folds)")
    fig.tight_layout()
    return fig


def size_against_n(sizes: pd.DataFrame):
    """Leaves (log-log) and test accuracy against the number of training cases."""
    styles = {"none": ("unpruned", GREY, "s--"), "0.25": ("CF 0.25", BLUE, "o-"),
              "0.05": ("CF 0.05", ORANGE, "^-")}
    agg = sizes.groupby(["confidence", "n"]).agg(
        leaves=("leaves", lambda v: float(np.exp(np.log(v).mean()))),
        accuracy=("accuracy", "mean")).reset_index()
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.4))
    for key, (label, colour, style) in styles.items():
        part = agg[agg["confidence"] == key]
        axes[0].plot(part["n"], part["leaves"], style, color=colour, label=label)
        axes[1].plot(part["n"], 100 * part["accuracy"], style, color=colour, label=label)
    axes[0].set_yscale("log")
    axes[0].set_ylabel("leaves (geometric mean)")
    axes[1].set_ylabel("test accuracy (%)")
    ns = sorted(agg["n"].unique())
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xticks(ns, [f"{n:,}" for n in ns])
        ax.minorticks_off()
        ax.set_xlabel("training cases n")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def mdl_effect(per_set: pd.DataFrame):
    """Per data set: accuracy difference (MDL on − off) and ratio of leaves (on / off)."""
    order = per_set.sort_values("leaf_ratio").index
    d = per_set.loc[order]
    pos = np.arange(len(d))
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 4.2), sharey=True)
    axes[0].barh(pos, 100 * d["acc_diff"], color=BLUE)
    axes[0].axvline(0, color="k", lw=0.8)
    axes[0].set_xlabel("CV accuracy, MDL on − off (points)")
    axes[0].set_yticks(pos, d.index, fontsize=8)
    axes[1].hlines(pos, 1, d["leaf_ratio"], color=ORANGE, lw=2)
    axes[1].plot(d["leaf_ratio"], pos, "o", color=ORANGE)
    axes[1].axvline(1, color="k", lw=0.8)
    axes[1].set_xscale("log")
    ticks = [0.25, 0.5, 0.75, 1, 1.5, 2]
    lo, hi = d["leaf_ratio"].min() / 1.1, d["leaf_ratio"].max() * 1.1
    shown = [t for t in ticks if lo <= t <= hi] or [1]
    axes[1].set_xlim(min(lo, 0.9), max(hi, 1.1))
    axes[1].set_xticks(shown, [f"{t:g}" for t in shown])
    axes[1].minorticks_off()
    axes[1].set_xlabel("leaves, MDL on / off (log scale)")
    fig.tight_layout()
    return fig

