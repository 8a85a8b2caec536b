"""Chapter 1's figures: the loan bars, the impurity curves, the gain-as-a-gap slider, the
noise-gain plot and the entropy/Gini disagreement rates. Plotting only; every number the
chapter states is computed in the chapter (or by the measures of treebook.core.impurity).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from treebook.core.impurity import entropy, gini, misclassification_error
from treebook.io.widgets import FrameSlider

MEASURES = {"entropy / 2": lambda n: entropy(n) / 2, "Gini index": gini,
            "misclassification error": misclassification_error}


def loan_branches(by_value):
    """Four panels of stacked bars: approved / refused per value of each loan feature."""
    fig, axes = plt.subplots(1, 4, figsize=(11, 2.6), sharex=True)
    for ax, (feature, table) in zip(axes, by_value.items()):
        yes, no = table["yes"], table["no"]
        ax.barh(table.index, yes, color="#2b6ca3", label="approved")
        ax.barh(table.index, no, left=yes, color="#a9cbe8", label="refused")
        for i, (a, r) in enumerate(zip(yes, no)):
            ax.text(a + r + 0.2, i, f"{a}/{a + r}", va="center", fontsize=9)
            ax.plot([0.6 * (a + r)] * 2, [i - 0.4, i + 0.4], "k--", lw=1)
        ax.set_title(feature)
        ax.invert_yaxis()
        ax.set_xlim(0, 11)
        ax.set_xlabel("applicants")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=2, frameon=False,
               bbox_to_anchor=(0.5, 1.08))
    fig.tight_layout()
    plt.show()


def two_class_curves(n=401):
    """p and the three two-class impurities on a grid (entropy halved)."""
    ps = np.linspace(0, 1, n)
    node = np.stack([ps, 1 - ps], axis=-1)      # n two-class nodes at once
    return ps, {label: f(node) for label, f in MEASURES.items()}


def impurity_curves(ps, curves):
    """The three impurities of a two-class node against p."""
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for (label, values), style in zip(curves.items(), ["-", "--", ":"]):
        ax.plot(ps, values, style, lw=2, label=label)
    ax.set_xlabel("proportion $p$ of class 1")
    ax.set_ylabel("impurity")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 0.55)
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    plt.show()


def _panel_svg(label, f, ps, p_left, p_right, p_parent, weight, width=300, height=210):
    """One panel as inline SVG: the curve, the chord between the children, the gap at p."""
    left_m, right_m, top_m, bottom_m = 34, 8, 22, 30
    w, h = width - left_m - right_m, height - top_m - bottom_m
    sx = lambda p: left_m + w * p
    sy = lambda v: top_m + h * (1 - v / 0.55)
    at = lambda p: float(f(np.array([p, 1 - p])))
    values = f(np.stack([ps, 1 - ps], axis=-1))
    left, right, parent = at(p_left), at(p_right), at(p_parent)
    chord = weight * left + (1 - weight) * right
    curve = " ".join(f"{sx(p):.1f},{sy(v):.1f}" for p, v in zip(ps, values))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{left_m}" y="14" font-weight="bold">{label}: gain {parent - chord:.3f}</text>',
           f'<rect x="{left_m}" y="{top_m}" width="{w}" height="{h}" fill="none" stroke="#999"/>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<text x="{sx(tick):.1f}" y="{top_m + h + 13}" text-anchor="middle">{tick:g}</text>')
    for tick in (0, 0.25, 0.5):
        out.append(f'<text x="{left_m - 4}" y="{sy(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
    out.append(f'<text x="{left_m + w / 2}" y="{height - 3}" text-anchor="middle">p</text>')
    out.append(f'<polyline points="{curve}" fill="none" stroke="#555" stroke-width="1.6"/>')
    out.append(f'<line x1="{sx(p_left):.1f}" y1="{sy(left):.1f}" x2="{sx(p_right):.1f}" '
               f'y2="{sy(right):.1f}" stroke="#2b6ca3" stroke-width="1.6"/>')
    for p, v in ((p_left, left), (p_right, right)):
        out.append(f'<circle cx="{sx(p):.1f}" cy="{sy(v):.1f}" r="3.5" fill="#2b6ca3"/>')
    out.append(f'<line x1="{sx(p_parent):.1f}" y1="{sy(chord):.1f}" x2="{sx(p_parent):.1f}" '
               f'y2="{sy(parent):.1f}" stroke="#c0392b" stroke-width="4"/>')
    out.append(f'<rect x="{sx(p_parent) - 3:.1f}" y="{sy(parent) - 3:.1f}" width="6" height="6" '
               f'fill="#c0392b"/>')
    out.append("</svg>")
    return "".join(out), parent - chord


def gap_frame(p_parent, delta, weight=0.5):
    """One frame: a parent with proportion ``p`` split into two children.

    The children have proportions ``p_L = p - δ`` (share ``weight``) and
    ``p_R = p + δ·weight/(1-weight)``, so that their weighted mean is ``p``. Each panel
    draws one impurity (blue: the children's points and the chord between them; red: at
    ``p``, the gap between the curve and the chord, which is the gain of the split).
    Returns the HTML and the three gains.
    """
    p_left = p_parent - delta
    p_right = p_parent + delta * weight / (1 - weight)
    ps = np.linspace(0, 1, 101)
    panels, gains = [], {}
    for label, f in MEASURES.items():
        svg, gains[label] = _panel_svg(label, f, ps, p_left, p_right, p_parent, weight)
        panels.append(svg)
    return '<div style="display:flex;flex-wrap:wrap;gap:6px">' + "".join(panels) + "</div>", gains


def gap_slider(p_parent, deltas, weight=0.5):
    """A frames slider over the children's spread δ; ``.gains`` holds each frame's gains."""
    frames, gains = {}, {}
    for d in deltas:
        frames[d], gains[d] = gap_frame(p_parent, d, weight)

    def caption(d):
        pl, pr = p_parent - d, p_parent + d * weight / (1 - weight)
        return (f"children p<sub>L</sub> = {pl:.3f} and p<sub>R</sub> = {pr:.3f}, "
                f"equal sizes; parent p = {p_parent:.2f}")

    slider = FrameSlider(list(deltas), lambda d: frames[d], caption=caption,
                         description="spread δ", initial=len(deltas) // 2,
                         format_value=lambda d: f"{d:.3f}")
    slider.gains = gains
    return slider


def random_gain(n_values, noise, approx):
    """Mean gain and gain ratio of a random feature against its number of values."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.plot(n_values, noise["gain"], "o", ms=4, label="information gain $g$")
    ax.plot(n_values, approx, "k--", lw=1, label="$(V-1)(K-1) / (2|D| \\ln 2)$")
    ax.plot(n_values, noise["ratio"], "s", ms=4, label="gain ratio $g_R$")
    ax.set_xlabel("number of values $V$ of the random feature")
    ax.set_ylabel("mean over 500 features")
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    plt.show()


def disagreement(rates):
    """Share of random nodes where entropy and Gini pick different splits.

    ``rates`` is a DataFrame indexed by the number of candidate splits, one column per
    number of classes K."""
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    for K, style in zip(rates.columns, ["o-", "s--", "^:"]):
        ax.plot(rates.index, 100 * rates[K], style, ms=4, label=f"K = {K} classes")
    ax.set_xlabel("number of candidate splits at the node")
    ax.set_ylabel("disagreement (% of nodes)")
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    plt.show()
