"""Chapter 8's figure and harness helpers (engineering, production use, scale): the
attribute-list picture, the plots of the committed benchmark runs, the zero block of a
sparse column, the cost curves, and the quiet runner of a live benchmark. They draw and
run; the chapter teaches."""

from __future__ import annotations

import contextlib
import io
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "benchmarks").is_dir())
RESULTS = ROOT / "benchmarks" / "experiments" / "results"
REFERENCE = dict(color="0.35", lw=1.0)           # the line at ratio 1
GOAL = dict(color="#d62728", lw=1.0, ls=":")     # a goal set in advance


def header(frame) -> str:
    """The header lines of a committed CSV read by
    ``treebook.teaching.experiments.read_results`` (command, date, commit, load average,
    as the script wrote them; they are kept in ``frame.attrs``)."""
    return "\n".join(f"{key}: {value}" for key, value in frame.attrs.items())


def quietly(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with its progress lines on stderr kept off the page."""
    with contextlib.redirect_stderr(io.StringIO()):
        return fn(*args, **kwargs)


# --- 08_engineering ------------------------------------------------------------------

def attribute_list_figure(x0, go_right, order, after):
    """One attribute list (row ids over their values) before and after the root's
    stable partition; left rows blue, right rows orange."""
    fig, ax = plt.subplots(figsize=(8, 2.2))
    for row, (lst, label) in enumerate([(order, "depth 0: one segment (the root)"),
                                        (after, "depth 1: left child | right child")]):
        for pos, r in enumerate(lst):
            color = "#9ecae1" if (row == 0 or not go_right[r]) else "#fdae6b"
            ax.add_patch(plt.Rectangle((pos, -row * 1.4), 0.95, 0.9, color=color))
            ax.text(pos + 0.47, -row * 1.4 + 0.55, f"r{r}", ha="center", fontsize=8)
            ax.text(pos + 0.47, -row * 1.4 + 0.18, f"{x0[r]}", ha="center", fontsize=7)
        ax.text(-0.3, -row * 1.4 + 0.45, label, ha="right", va="center")
    split_at = int((~go_right).sum())
    ax.plot([split_at - 0.025] * 2, [-1.45, -0.45], color="black", lw=2)
    ax.set_xlim(-7.5, len(order) + 0.2)
    ax.set_ylim(-1.6, 1.0)
    ax.axis("off")
    ax.set_title("One attribute list (row id over value), before and after the root's split")
    plt.show()


def shapes_figure(shapes, goals):
    """Fit, predict and memory ratios (treebook / scikit-learn) of the committed
    ``bench_cart_shapes.py`` run against the number of rows, one line per shape, with
    the line at 1 (as fast, or as large, as scikit-learn) and the goal."""
    columns = [("fit_ratio", "fit time"), ("predict_ratio", "predict time"),
               ("memory_ratio", "peak memory of a fit")]
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6), sharex=True)
    for ax, (column, title) in zip(axes, columns):
        for k, (shape, g) in enumerate(shapes.groupby("shape", sort=False)):
            ax.plot(g["n"], g[column], "o-", ms=4, color=f"C{k}", label=shape)
        ax.axhline(1.0, **REFERENCE, label="scikit-learn (ratio 1)")
        ax.axhline(goals[column], **GOAL, label="goal")
        ax.set_xscale("log")
        ax.set_xticks(sorted(shapes["n"].unique()))
        ax.set(title=title, xlabel="rows n", ylim=(0, None))
    axes[0].set_ylabel("treebook / scikit-learn")
    axes[2].legend(fontsize=7, loc="lower right")
    plt.tight_layout()
    plt.show()


def c45_figure(c45_speed):
    """The committed ``bench_c45.py`` run: left, the readable grower's time over the
    fast grower's (median of the pairs, bars from the smallest to the largest pair);
    right, the fast grower's time over CART's level-wise grower's on the same data."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.6), sharex=True)
    for k, ((shape, setting), g) in enumerate(c45_speed.groupby(["shape", "setting"],
                                                                sort=False)):
        style = dict(color=f"C{k}", marker="o" if setting == "grow" else "s", ms=4,
                     ls="-" if setting == "grow" else "--")
        label = f"{shape}, {setting}"
        a1.errorbar(g["n"], g["speedup"], yerr=[g["speedup"] - g["speedup_min"],
                                                g["speedup_max"] - g["speedup"]],
                    capsize=2, label=label, **style)
        a2.plot(g["n"], g["fast_over_cart"], label=label, **style)
    a1.axhline(1.0, **REFERENCE, label="no faster (ratio 1)")
    a1.set(xscale="log", yscale="log", xlabel="rows n",
           ylabel="readable grower / fast grower (time)",
           title="C4.5: the fast grower's speed-up")
    a2.axhline(1.0, **REFERENCE, label="as fast as CART (ratio 1)")
    a2.set(xscale="log", yscale="log", xlabel="rows n",
           ylabel="fast C4.5 / level-wise CART (time)",
           title="C4.5 against CART on the same rows")
    a1.legend(fontsize=7)
    a2.legend(fontsize=7)
    plt.tight_layout()
    plt.show()


def multiway_figure(mw):
    """The committed ``bench_multiway.py`` run: the level-wise grower's time over the
    recursive grower's (median of the pairs) against the number of rows."""
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    for k, ((learner, data), g) in enumerate(mw.groupby(["learner", "data"], sort=False)):
        ax.plot(g["n"], g["ratio"], "o-" if data == "categorical" else "s--", ms=4,
                color=f"C{k}", label=f"{learner}, {data}")
    ax.axhline(1.0, **REFERENCE, label="no faster (ratio 1)")
    ax.set(xscale="log", xlabel="rows n", ylabel="level-wise / recursive (time)",
           ylim=(0, 1.1), title="ID3 and CLS: level-wise against recursive growth")
    ax.legend(fontsize=7)
    plt.tight_layout()
    plt.show()


def predict_figure(now, before):
    """``bench_predict.py``'s two committed runs (before and after the walk tables were
    built once per tree): left, the time of one ``predict`` call of each library in the
    later run; right, treebook / scikit-learn in both runs, with the line at 1."""
    keep = lambda f: f[f["method"] == "predict"].reset_index(drop=True)  # noqa: E731
    now, before = keep(now), keep(before)
    labels = [f"{w}\n{i}" for w, i in zip(now["work"], now["input"])]
    x = np.arange(len(now))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.6))
    a1.bar(x - 0.2, 1e6 * now["sklearn_s"], 0.4, label="scikit-learn", color="0.6")
    a1.bar(x + 0.2, 1e6 * now["treebook_s"], 0.4, label="treebook", color="C0")
    a1.set(yscale="log", ylabel="time of one call (µs, median)",
           title="predict: one row and a batch")
    a1.set_xticks(x, labels, fontsize=8)
    a1.legend(fontsize=7)
    a2.bar(x - 0.2, before["ratio"], 0.4, color="C1",
           label="tables rebuilt at every call (before)")
    a2.bar(x + 0.2, now["ratio"], 0.4, color="C0", label="tables built once (now)")
    a2.axhline(1.0, **REFERENCE, label="scikit-learn (ratio 1)")
    a2.set(yscale="log", ylabel="treebook / scikit-learn (time)",
           title="the change, in two runs")
    a2.set_xticks(x, labels, fontsize=8)
    a2.legend(fontsize=7)
    plt.tight_layout()
    plt.show()


def live_pairs(bench, shapes, n, repeats):
    """The live, reduced run of ``bench_cart_shapes.py``: its alternating pairs for each
    shape, as a frame, without the per-pair log the script writes to stderr."""
    return pd.DataFrame([quietly(bench.bench_time, s, n, repeats) for s in shapes])


# --- 08_production -------------------------------------------------------------------

def zero_block_figure():
    """One sparse feature at a node of twelve cases: the negative entry, the zero block
    and the positive entries in sorted order, with the candidate cuts dashed."""
    fig, ax = plt.subplots(figsize=(7, 1.3))
    x = 0
    for label, width, colour in [("-1.5", 1, "C1"), ("0  (8 rows: 6 a, 2 b)", 8, "0.85"),
                                 ("0.7", 1, "C0"), ("2.0", 1, "C1"), ("2.0", 1, "C1")]:
        ax.add_patch(plt.Rectangle((x, 0), width, 1, facecolor=colour, edgecolor="k"))
        ax.text(x + width / 2, 0.5, label, ha="center", va="center", fontsize=8)
        x += width
    for cut in (1, 9, 10):
        ax.axvline(cut, color="k", ls="--", lw=1, ymin=-0.2, ymax=1.2, clip_on=False)
    ax.set(xlim=(-0.2, 12.2), ylim=(0, 1))
    ax.axis("off")
    plt.show()


def json_costs(make_model, sizes, repeats=2):
    """Size and time of ``to_json`` / ``from_json`` for models ``make_model(size)``:
    one row per model with its node count, the bytes of its document, and the best of
    ``repeats`` write and read times (seconds)."""
    from treebook.io.serialize import from_json, to_json

    rows = []
    for size in sizes:
        model = make_model(size)
        write = read = np.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            text = to_json(model)
            t1 = time.perf_counter()
            from_json(text)
            t2 = time.perf_counter()
            write, read = min(write, t1 - t0), min(read, t2 - t1)
        rows.append({"nodes": model.tree_.node_count, "bytes": len(text.encode()),
                     "write_s": write, "read_s": read})
    return pd.DataFrame(rows)


def json_figure(costs):
    """Bytes of the JSON document per node (left) and the write and read times against
    the node count on log-log scales (right), with a slope-1 line."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.4))
    a1.plot(costs["nodes"], costs["bytes"] / costs["nodes"], "o-", ms=4)
    a1.set(xscale="log", xlabel="nodes", ylabel="bytes per node", ylim=(0, None),
           title="size of the document")
    a2.loglog(costs["nodes"], 1e3 * costs["write_s"], "o-", ms=4, label="to_json (write)")
    a2.loglog(costs["nodes"], 1e3 * costs["read_s"], "s--", ms=4,
              label="from_json (read and validate)")
    ref = costs["nodes"].to_numpy(dtype=float)
    a2.loglog(ref, 1e3 * costs["write_s"].iloc[-1] * ref / ref[-1], **REFERENCE,
              label="slope 1")
    a2.set(xlabel="nodes", ylabel="time (ms, best of the calls)",
           title="time to write and to load")
    a2.legend(fontsize=7)
    plt.tight_layout()
    plt.show()


def cost_figure(by_n, by_d):
    """``complexity_learners.py``'s committed run: fit time against n (left, with a
    slope-1 line) and against the depth limit (right), on log-log scales."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
    for (label, kind), g in by_n.groupby(["learner", "data"]):
        a1.loglog(g.n, g.cpu_seconds, "o-" if kind == "numeric" else "s--", ms=3,
                  label=f"{label}, {kind}")
    ref = by_n.n.sort_values().unique()
    a1.loglog(ref, by_n.cpu_seconds.median() * ref / np.median(ref), color="grey", lw=0.8,
              label="slope 1")
    a1.set(xlabel="cases n", ylabel="fit time (CPU s)")
    a1.legend(fontsize=6.5, ncol=2)
    for label, g in by_d.groupby("learner"):
        a2.loglog(g.max_depth, g.cpu_seconds, "o-", ms=3, label=label)
    a2.set(xlabel="depth limit d", ylabel="fit time (CPU s)")
    a2.legend(fontsize=7)
    plt.tight_layout()
    plt.show()
