"""Chapter 5's figure and harness helpers: the null distribution of G, the plots of the
imbalance experiment, and the loader of its script. They draw and run; the chapter
teaches."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from scipy import stats

from treebook.core.impurity import g_statistic

ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "benchmarks").is_dir())


def experiment(name: str):
    """The module of ``benchmarks/experiments/<name>.py`` (a script, not a package)."""
    spec = importlib.util.spec_from_file_location(
        name, ROOT / "benchmarks" / "experiments" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def null_G(n, V, class_counts, reps, rng):
    """G of ``reps`` attributes with V equally likely values drawn independently of a
    class column with the given counts."""
    y = np.repeat(np.arange(len(class_counts)), class_counts)
    K = len(class_counts)
    codes = rng.integers(0, V, size=(reps, n))
    cells = (np.arange(reps)[:, None] * V + codes) * K + y
    tables = np.bincount(cells.ravel(), minlength=reps * V * K)
    return g_statistic(tables.reshape(reps, V, K))


def shuffled_G(codes, shuffled, n_values, n_classes=2):
    """G of one attribute (value codes ``codes``) under every relabelling in the rows of
    ``shuffled``."""
    R = len(shuffled)
    cells = (np.arange(R)[:, None] * n_values + codes) * n_classes + shuffled
    tables = np.bincount(cells.ravel(), minlength=R * n_values * n_classes)
    return g_statistic(tables.reshape(R, n_values, n_classes))


def null_figure(G_house, G_identifier, seed=2026):
    """Left: G of a useless 2- and 15-valued attribute at 300 cases against the χ²
    densities; right: the loan table's permutation distributions."""
    rng = np.random.default_rng(seed)
    grid = np.linspace(0.05, 45, 400)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.6))
    for V, colour in [(2, "C0"), (15, "C1")]:
        G_null = null_G(300, V, [180, 120], 4000, rng)
        a1.hist(G_null, bins=60, range=(0, 45), density=True, alpha=0.45, color=colour,
                label=f"V = {V}: mean G = {G_null.mean():.1f}")
        a1.plot(grid, stats.chi2.pdf(grid, V - 1), color=colour, lw=1.2,
                label=f"$\\chi^2_{{{V - 1}}}$")
    a1.set(title="300 cases: χ² fits", xlabel="G", ylabel="density", ylim=(0, 0.3))
    a1.legend(fontsize=8)
    values_house, freq = np.unique(G_house.round(6), return_counts=True)
    a2.bar(values_house, freq / len(G_house), width=0.4, color="C0",
           label="owns a house, V = 2 (probability)")
    a2.bar([G_identifier], [1.0], width=0.4, color="C1",
           label="identifier, V = 15 (probability 1)")
    a2.annotate(f"identifier: G = {G_identifier:.2f}\nunder every shuffle",
                (G_identifier, 1.0), xytext=(G_identifier + 3, 2.0), fontsize=8,
                arrowprops={"arrowstyle": "->", "lw": 0.8})
    a2.plot(grid, stats.chi2.pdf(grid, 14), color="C1", lw=1.2, label="$\\chi^2_{14}$")
    tail = grid >= G_identifier
    a2.fill_between(grid[tail], stats.chi2.pdf(grid[tail], 14), color="C1", alpha=0.3,
                    label=f"χ² tail = {stats.chi2.sf(G_identifier, 14):.2f}")
    a2.set(title="15 cases (the loan table): χ² misleads", xlabel="G", yscale="log",
           ylim=(1e-4, 3e3), ylabel="probability or density")
    a2.legend(fontsize=8, loc="upper left")
    plt.tight_layout()
    return fig


STYLES = {"information gain": "o-", "CLS likelihood": "x--", "gain ratio": "s-",
          "Gini gain": "^-", "CLS positive class": "v-", "CLS likelihood, α = 0.01": "d:",
          "C45Classifier": "P-.", "CARTClassifier": "*-."}


def imbalance_figure(summary, shares, metrics):
    """Each criterion's mean metric against the minority share (log axis)."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(11, 3.4), sharex=True)
    for ax, metric in zip(axes, metrics):
        for name, style in STYLES.items():
            curve = summary.xs(name, level="criterion")[metric]
            ax.plot(shares, curve.loc[list(shares)], style, label=name)
        ax.set(xscale="log", title=metric, xlabel="minority share")
        ax.set_xticks(shares, [f"{s:.0%}" for s in shares])
        ax.minorticks_off()
    axes[1].plot(shares, shares, color="grey", lw=0.8, label="PR-AUC of a constant")
    handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.02),
               ncol=5, fontsize=8, frameon=False)
    plt.tight_layout()
    return fig


def paired_figure(paired, shown, data_sets, metrics, margin=None):
    """Paired differences from information gain with their 95 % intervals, one row per
    criterion and one marker per data set; ``margin`` draws the equivalence band."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(11, 3.6), sharey=True)
    for ax, metric in zip(axes, metrics):
        if margin is not None:
            ax.axvspan(-margin, margin, color="0.9", zorder=0)
        for j, (name, mark) in enumerate(zip(data_sets, "os^D")):
            d = paired[name, metric].loc[shown]
            y_pos = np.arange(len(shown)) + 0.22 * (j - (len(data_sets) - 1) / 2)
            ax.errorbar(d["mean"], y_pos, xerr=[d["mean"] - d["low"], d["high"] - d["mean"]],
                        fmt=mark, capsize=2, label=name)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set(title=f"{metric}: criterion − information gain", xlabel="difference")
    axes[0].set_yticks(np.arange(len(shown)), shown)
    axes[0].invert_yaxis()
    axes[1].legend(fontsize=8)
    plt.tight_layout()
    return fig
