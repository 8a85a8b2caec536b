"""Chapter 7's figure helpers (both pages: real data, and forests). They draw what the
pages computed or read from their committed CSV files; they teach nothing of the trees.

Intervals drawn here are 95 % Student-t intervals with J - 1 degrees of freedom around a
mean whose standard error the page computed (the corrected one for repeated CV)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from scipy import stats

plt.rcParams.update({"figure.dpi": 110, "font.size": 9})


def t_half(se, J, level=0.95):
    """Half-width of the ``level`` Student-t interval for a mean of ``J`` scores."""
    return stats.t.ppf(0.5 + level / 2, J - 1) * np.asarray(se, float)


# --- 07_real_data ---------------------------------------------------------------------


def t_interval(values, n_splits, level=0.95):
    """``(mean, se, low, high)`` of ``J`` fold scores (or paired fold differences) from
    ``n_splits``-fold CV, possibly repeated: the corrected SE of
    :func:`treebook.teaching.experiments.mean_se` and the ``level`` Student-t interval
    with ``J - 1`` degrees of freedom, the interval every verdict of the page uses."""
    from treebook.teaching.experiments import mean_se

    v = np.asarray(values, float)
    m, se = mean_se(v, n_splits)
    h = float(t_half(se, v.size, level))
    return m, se, m - h, m + h


def ci_text(values, n_splits, scale=100.0, digits=2):
    """``"+m [low, high]"`` for the 95 % t interval of :func:`t_interval`, times
    ``scale`` (100: points of accuracy or AUC)."""
    m, _, lo, hi = (scale * x for x in t_interval(values, n_splits))
    return f"{m:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def significance(values, n_splits):
    """``"not significant"`` when the 95 % t interval of :func:`t_interval` contains 0,
    else ``"positive"`` or ``"negative"`` (the side of 0 the whole interval lies on)."""
    _, _, lo, hi = t_interval(values, n_splits)
    return "not significant" if lo <= 0 <= hi else ("positive" if lo > 0 else "negative")


def _encoding_label(data, method):
    return method + (" (+ household id)" if data != "adult" else "")


def leak_figure(cv, test, k, mean_se):
    """CV accuracy (mean, 95 % t interval) beside the test accuracy, one row per encoding
    of the encodings experiment: a CV dot right of its test cross promises more than the
    test delivers."""
    rows = list(cv.drop_duplicates(["data", "method"])[["data", "method"]].itertuples(index=False))
    fig, ax = plt.subplots(figsize=(7, 0.32 * len(rows) + 1.0))
    for i, (data, method) in enumerate(rows):
        g = cv[(cv.data == data) & (cv.method == method)]
        m, se = mean_se(g.accuracy, k)
        colour = "C3" if "naive" in method else ("C0" if data == "adult" else "C1")
        ax.errorbar(m, i, xerr=t_half(se, len(g)), fmt="o", color=colour, ms=4, capsize=2)
        ax.plot(test.loc[(data, method), "accuracy"], i, "x", color="k", ms=6)
        ax.plot([test.loc[(data, method), "accuracy"], m], [i, i], color=colour, lw=0.6,
                alpha=0.6)
    ax.set_yticks(range(len(rows)), [_encoding_label(d, m) for d, m in rows])
    ax.invert_yaxis()
    ax.set_xlabel("accuracy")
    ax.plot([], [], "o", color="0.4", label="CV on the training split (95 % interval)")
    ax.plot([], [], "x", color="k", label="UCI test split")
    ax.legend(frameon=False, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2)
    ax.grid(axis="x", lw=0.3, alpha=0.5)
    fig.tight_layout()
    plt.show()


def encoding_differences_figure(cv, k, mean_se, base="CART subsets"):
    """Paired differences (each encoding minus ``base``, fold by fold on Adult's own
    columns) of CV accuracy and CV AUC, with 95 % t intervals on the corrected SE."""
    adult = cv[cv.data == "adult"]
    ref = adult[adult.method == base].set_index(["repeat", "fold"])
    methods = [m for m in adult.method.unique() if m != base]
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 0.38 * len(methods) + 1.1), sharey=True)
    for ax, metric, label in zip(axes, ["accuracy", "auc"], ["Δ CV accuracy", "Δ CV AUC"]):
        for i, method in enumerate(methods):
            g = adult[adult.method == method].set_index(["repeat", "fold"])
            diff = (g[metric] - ref[metric]).to_numpy()
            m, se = mean_se(diff, k)
            colour = "C3" if "naive" in method else "C0"
            ax.errorbar(100 * m, i, xerr=100 * t_half(se, diff.size), fmt="o", color=colour,
                        ms=4, capsize=2)
        ax.axvline(0, color="k", lw=0.7)
        ax.set_xlabel(f"{label} (points)")
        ax.grid(axis="x", lw=0.3, alpha=0.5)
    axes[0].set_yticks(range(len(methods)), methods)
    axes[0].invert_yaxis()
    fig.suptitle(f"each encoding minus {base}, paired by fold", fontsize=9)
    fig.tight_layout()
    plt.show()


def tuning_heat_figure(heat, best_cell, box=((3, 10), (5, 20))):
    """Inner CV accuracy over max_depth × min_samples_leaf, the tutorial's box in white
    and the best cell as a red star."""
    fig, ax = plt.subplots(figsize=(6.2, 3.4))
    im = ax.imshow(heat.T.values, aspect="auto", origin="lower", cmap="viridis")
    ax.set_xticks(range(len(heat.index)), heat.index)
    ax.set_yticks(range(len(heat.columns)), heat.columns)
    ax.set_xlabel("max_depth")
    ax.set_ylabel("min_samples_leaf")
    d_idx, l_idx = list(heat.index), list(heat.columns)
    (d0, d1), (l0, l1) = box
    x0, x1 = d_idx.index(d0) - 0.5, d_idx.index(d1) + 0.5
    y0, y1 = l_idx.index(l0) - 0.5, l_idx.index(l1) + 0.5
    ax.add_patch(plt.Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, ec="white", lw=1.5))
    ax.plot(d_idx.index(best_cell[0]), l_idx.index(best_cell[1]), "*", color="red", ms=10)
    fig.colorbar(im, ax=ax, label="inner CV accuracy")
    plt.show()


def tuning_figure(tuning, k, mean_se):
    """Outer accuracy of each tuner (mean, 95 % t interval over the outer folds) against
    the number of leaves of the trees it chose (geometric mean, log axis)."""
    fig, ax = plt.subplots(figsize=(6, 3))
    for i, (name, g) in enumerate(tuning.groupby("tuner", sort=False)):
        m, se = mean_se(g.accuracy, k)
        leaves = np.exp(np.log(g.n_leaves).mean())
        ax.errorbar(leaves, m, yerr=t_half(se, len(g)), fmt="os^D"[i % 4], color=f"C{i}",
                    ms=5, capsize=3, label=name)
    ax.set_xscale("log")
    ticks = [10, 20, 50, 100, 200, 500]
    lo, hi = ax.get_xlim()
    lo, hi = lo / 1.4, hi * 1.4
    ax.set_xlim(lo, hi)
    ax.set_xticks([t for t in ticks if lo <= t <= hi], [str(t) for t in ticks if lo <= t <= hi])
    ax.minorticks_off()
    ax.set_xlabel("leaves of the chosen tree (geometric mean over the outer folds)")
    ax.set_ylabel("outer CV accuracy")
    ax.legend(frameon=False, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2)
    ax.grid(lw=0.3, alpha=0.5)
    fig.tight_layout()
    plt.show()


def roc_pr_figure(curves, base_rate):
    """ROC and precision–recall curves of the imbalance experiment's out-of-fold
    probabilities; the dotted lines are chance (ROC) and the base rate (PR)."""
    fig, axes = plt.subplots(1, 2, figsize=(7, 3.2))
    for model, gm in curves.groupby("model", sort=False):
        for ax, kind in zip(axes, ["roc", "pr"]):
            c = gm[gm.curve == kind]
            ax.plot(c.x, c.y, lw=1.1, label=model,
                    drawstyle="steps-post" if kind == "pr" else "default")
    axes[0].plot([0, 1], [0, 1], "k:", lw=0.8)
    axes[0].set_xlabel("false-positive rate")
    axes[0].set_ylabel("true-positive rate (recall)")
    axes[1].axhline(base_rate, color="k", ls=":", lw=0.8)
    axes[1].set_xlabel("recall")
    axes[1].set_ylabel("precision")
    axes[1].legend(frameon=False, fontsize=7)
    plt.tight_layout()
    plt.show()


# --- 07_forests -------------------------------------------------------------------------


def importance_figure(frame, model):
    """MDI and permutation importance on test rows of ``model`` ("tree" or "forest"),
    mean ± SE over the repeats; noise columns in red."""
    fig, ax_pair = plt.subplots(1, 2, figsize=(7.5, 4.2), sharey=True)
    g = frame[frame.model == model].groupby("feature")
    order = g.mdi.mean().sort_values().index
    for ax, col, title in zip(ax_pair, ["mdi", "perm_test"],
                              ["MDI (training counts)", "permutation (test rows)"]):
        m = g[col].mean().loc[order]
        se = (g[col].std(ddof=1) / np.sqrt(g[col].count())).loc[order]
        colours = ["tab:red" if f.startswith("noise") else "tab:blue" for f in order]
        ax.barh(range(len(order)), m, xerr=se, color=colours, capsize=2)
        ax.set_yticks(range(len(order)), order)
        ax.axvline(0, color="black", lw=0.6)
        ax.set_title(f"{model}: {title}")
    fig.tight_layout()
    plt.show()


def null_figure(null):
    """Histograms of the root's impurity decrease under random labels, one per kind of
    noise feature (``null``: name -> list of decreases)."""
    fig, ax = plt.subplots(figsize=(6, 2.8))
    for key, values in null.items():
        ax.hist(values, bins=25, alpha=0.6, label=key)
    ax.set_xlabel("Gini decrease of the root split, per case (labels are random)")
    ax.set_ylabel("draws")
    ax.legend(frameon=False)
    plt.show()


def moons_figure(models, X, y, grid_x, grid_y):
    """Predicted class-1 probability of each fitted model over a grid, with the cases."""
    fig, axes = plt.subplots(1, len(models), figsize=(7.5, 2.9), sharey=True)
    gx, gy = np.meshgrid(grid_x, grid_y)
    grid = np.stack([gx, gy], -1).reshape(-1, 2)
    for ax, (title, model) in zip(axes, models.items()):
        p = model.predict_proba(grid)[:, 1].reshape(gx.shape)
        ax.contourf(grid_x, grid_y, p, levels=10, cmap="RdBu_r", alpha=0.7)
        ax.scatter(*X.T, c=y, cmap="RdBu_r", s=6, edgecolor="k", linewidth=0.2)
        ax.set_title(title)
    plt.show()


LEARNERS = ["tree_full", "tree_1se", "tree_cv", "bagging", "forest"]
LEARNER_LABELS = {"tree_full": "tree, grown to purity", "tree_1se": "tree, CV-pruned (1-SE)",
                  "tree_cv": "tree, CV-pruned (least error)", "bagging": "bagging",
                  "forest": "random forest"}
STYLE = {"tree_full": ":o", "tree_1se": "--s", "tree_cv": "-s", "bagging": "-^", "forest": "-D"}
DATASETS = ["adult", "breast_cancer", "independent", "correlated"]
DATASET_TITLES = {"adult": "Adult", "breast_cancer": "breast cancer",
                  "independent": "independent", "correlated": "correlated"}


def accuracy_curves_figure(frame, experiment):
    """Test accuracy (mean ± SE over repeats) of the five learners, one panel per data
    set: against the number of noise columns plus one (``experiment="noise"``) or the
    training rows (``"n"``), log axis with the measured values as ticks; the legend sits
    below the panels."""
    x = "noise" if experiment == "noise" else "n_train"
    sub = frame[frame.experiment == experiment]
    fig, axes = plt.subplots(2, 2, figsize=(7.5, 5.4))
    for ax, name in zip(axes.ravel(), DATASETS):
        d = sub[sub.dataset == name]
        for learner in LEARNERS:
            g = d[d.learner == learner].groupby(x).accuracy
            xs = g.mean().index.to_numpy() + (1 if experiment == "noise" else 0)
            ax.errorbar(xs, g.mean(), yerr=g.std(ddof=1) / np.sqrt(g.count()),
                        fmt=STYLE[learner], ms=3, capsize=2, lw=1,
                        label=LEARNER_LABELS[learner])
        ticks = np.sort(d[x].unique()) + (1 if experiment == "noise" else 0)
        ax.set_xscale("log")
        ax.set_xticks(ticks, [f"{t:,}" for t in ticks])
        ax.minorticks_off()
        ax.tick_params(axis="x", labelsize=7, rotation=45 if len(ticks) > 5 else 0)
        ax.set_title(DATASET_TITLES[name])
        ax.grid(lw=0.3, alpha=0.5)
    for ax in axes[-1]:
        ax.set_xlabel("noise columns + 1" if experiment == "noise" else "training rows")
    for ax in axes[:, 0]:
        ax.set_ylabel("test accuracy")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False,
               bbox_to_anchor=(0.5, 0))
    fig.tight_layout(rect=(0, 0.09, 1, 1))
    plt.show()


def bias_variance_figure(bv, order=("tree_full", "tree_1se", "bagging", "forest")):
    """Domingos's decomposition as stacked bars (bias below, net variance on top), one
    panel per data set; the legend above the panels, clear of the bars."""
    order = list(order)
    datasets = list(dict.fromkeys(bv.dataset))
    fig, axes = plt.subplots(1, len(datasets), figsize=(8.5, 3.1), sharey=True)
    for ax, name in zip(np.atleast_1d(axes), datasets):
        d = bv[bv.dataset == name].set_index("learner").loc[order]
        ax.bar(order, d.bias, color="tab:blue", label="bias")
        ax.bar(order, d.net_variance, bottom=d.bias, color="tab:orange", alpha=0.7,
               label="net variance")
        ax.set_title(name)
        ax.tick_params(axis="x", rotation=45)
    axes[0].set_ylabel("0-1 loss")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=2, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    plt.show()


def variance_by_trees_figure(fvar):
    """Variance of the mean class-1 probability of the first B trees: measured (points)
    and ρσ² + (1 − ρ)σ²/B (lines), bagging and the forest, one panel per data set."""
    groups = list(fvar.groupby("dataset", sort=False))
    fig, axes = plt.subplots(1, len(groups), figsize=(8.5, 2.6), sharey=True)
    for ax, (name, d) in zip(np.atleast_1d(axes), groups):
        for learner, colour in (("bagging", "tab:green"), ("forest", "tab:purple")):
            e = d[d.learner == learner]
            ax.plot(e.B, e.predicted, color=colour, label=f"{learner}, ρ = {e.rho.iloc[0]:.2f}")
            ax.plot(e.B[::3], e.measured[::3], "o", color=colour, ms=3)
        ax.set_xscale("log")
        ax.set_title(name)
        ax.set_xlabel("trees B")
        ax.legend(frameon=False, fontsize=7)
    axes[0].set_ylabel("variance of the mean probability")
    fig.tight_layout()
    plt.show()
