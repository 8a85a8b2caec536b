"""Harness for the section "Unbiased selection" (book/05_unbiased.md): binomial
intervals for the selection-bias curves, their plots, and the paired comparison of the
accuracy experiment. Nothing here is taught; the page shows what it computes."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

#: drawing order and style of the criteria (the learners last)
STYLE = {
    "information gain": ("C0", "o", "-"),
    "CLS score": ("C9", "x", ":"),
    "gain ratio": ("C1", "s", "-"),
    "Gini gain": ("C2", "^", "-"),
    "G-test p-value (χ²)": ("C3", "v", "--"),
    "permutation p-value": ("C4", "D", "--"),
    "CART": ("C2", "^", "-"),
    "C4.5": ("C1", "s", "-"),
    "CHAID": ("C5", "P", "-."),
    "ctree": ("C6", "*", "-."),
}


def wilson(successes, trials, level: float = 0.95):
    """Wilson score intervals (low, high) for binomial proportions (arrays)."""
    lo, hi = [], []
    for k, n in zip(np.atleast_1d(successes), np.atleast_1d(trials)):
        ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=level,
                                                           method="wilson")
        lo.append(ci.low)
        hi.append(ci.high)
    return np.array(lo), np.array(hi)


def with_intervals(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the share of draws that chose the noise attribute and its Wilson
    95 % interval (columns ``share``, ``low``, ``high``)."""
    out = frame.copy()
    out["share"] = out.noise_chosen / out.reps
    out["low"], out["high"] = wilson(out.noise_chosen, out.reps)
    return out


def bias_plot(ax, frame: pd.DataFrame, x: str, criteria=None, reference: float | None = 0.5):
    """Share of draws choosing the noise attribute against ``x``, one line per criterion,
    Wilson 95 % intervals as error bars."""
    frame = with_intervals(frame)
    criteria = [c for c in (criteria or STYLE) if c in set(frame.criterion)]
    for k, name in enumerate(criteria):
        g = frame[frame.criterion == name].sort_values(x)
        colour, marker, ls = STYLE[name]
        # a small horizontal offset keeps overlapping intervals apart
        xs = g[x].to_numpy() * (1 + 0.025 * (k - len(criteria) / 2))
        ax.errorbar(xs, g.share, yerr=[g.share - g.low, g.high - g.share], color=colour,
                    marker=marker, ls=ls, ms=4, lw=1.1, capsize=2, label=name)
    if reference is not None:
        ax.axhline(reference, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    return criteria


def paired(frame: pd.DataFrame, a: str, b: str, *, n_splits: int = 5,
           margin: float = 0.02) -> pd.DataFrame:
    """Per data set, the paired difference of accuracy ``a − b`` over the same folds:
    mean, Nadeau–Bengio corrected SE, the 95 % t interval with J − 1 df (a difference)
    and the 90 % interval (two one-sided tests at 5 %: equivalence within ``±margin``),
    and the verdict."""
    rows = []
    for name, g in frame.groupby("dataset", sort=False):
        wide = g.pivot_table(index=["repeat", "fold"], columns="learner", values="accuracy")
        d = (wide[a] - wide[b]).to_numpy()
        J = d.size
        se = np.sqrt((1 / J + 1 / (n_splits - 1)) * d.var(ddof=1))
        t95, t90 = stats.t.ppf(0.975, J - 1), stats.t.ppf(0.95, J - 1)
        m = d.mean()
        if m - t95 * se > 0:
            verdict = f"{a} better"
        elif m + t95 * se < 0:
            verdict = f"{b} better"
        elif -margin < m - t90 * se and m + t90 * se < margin:
            verdict = "equivalent"
        else:
            verdict = "undecided"
        rows.append(dict(dataset=name, J=J, difference=m, se=se, low=m - t95 * se,
                         high=m + t95 * se, low90=m - t90 * se, high90=m + t90 * se,
                         verdict=verdict))
    return pd.DataFrame(rows)


def pvalue_histograms(pvalues, titles, draws: int):
    """One histogram per p-value array over [0, 1] in ten bins, with the uniform
    expectation ``draws / 10`` dotted (chapter 5's fig-unb-pvalues)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(pvalues), figsize=(10, 2.8), sharey=True)
    for ax, p, title in zip(axes, pvalues, titles):
        ax.hist(p, bins=10, range=(0, 1), color="C0", alpha=0.7)
        ax.axhline(draws / 10, color="grey", ls=":")
        ax.set(title=title, xlabel="p-value")
    axes[0].set_ylabel("draws")
    plt.tight_layout()
    plt.show()
