"""Fit-time scaling of CLSClassifier (chapter 5), with scikit-learn as the yardstick.

Chapter 5 derives the cost of growing a tree with the shared grower: O(n·m·d·log n) for
numeric features (a sort per node and feature), O(n·m·d) for categorical ones, plus a
fixed overhead per node. This script times ``CLSClassifier.fit`` (CPU time, best of
three) against the number of cases n and against the depth limit d, prints the log-log
slopes, and prints the ratio to scikit-learn's ``DecisionTreeClassifier(criterion=
"entropy")`` on the same numeric data, measured in the same run. Information gain and
the conditional likelihood score choose the same splits, so the two learners do the same
work; the ratio is the price of a readable numpy/Python grower against compiled Cython.

Run: ``.venv/bin/python benchmarks/complexity.py`` (about a minute).
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from treebook import CLSClassifier


def cpu_seconds(fit, repeat=3):
    best = np.inf
    for _ in range(repeat):
        t0 = time.process_time()
        fit()
        best = min(best, time.process_time() - t0)
    return best


def slope(x, t):
    return float(np.polyfit(np.log(x), np.log(t), 1)[0])


def main():
    rng = np.random.default_rng(0)
    n_max, m = 256_000, 5
    X = rng.normal(size=(n_max, m)).round(3)
    y = (X[:, 0] + X[:, 1] + rng.normal(size=n_max) > 0).astype(int)
    Xc = np.array(list("pqr"), dtype=object)[rng.integers(0, 3, size=(n_max, m))]
    yc = ((Xc[:, 0] == "p") ^ (rng.random(n_max) < 0.3)).astype(int)

    sizes = [4000, 16000, 64000, 256000]
    print(f"fit time against n (depth 4, m = {m}); CPU seconds, best of 3")
    print(f"{'n':>8} {'numeric':>9} {'categorical':>12} {'sklearn':>9} {'ratio':>7}")
    t_num, t_cat = [], []
    for n in sizes:
        a = cpu_seconds(lambda: CLSClassifier(max_depth=4).fit(X[:n], y[:n]))
        c = cpu_seconds(lambda: CLSClassifier(max_depth=4).fit(Xc[:n], yc[:n]))
        s = cpu_seconds(lambda: DecisionTreeClassifier(
            criterion="entropy", max_depth=4, random_state=0).fit(X[:n], y[:n]))
        t_num.append(a)
        t_cat.append(c)
        print(f"{n:>8} {a:>9.4f} {c:>12.4f} {s:>9.4f} {a / s:>6.1f}x")
    print(f"slope in n over the two largest sizes: numeric "
          f"{slope(sizes[-2:], t_num[-2:]):.2f}, categorical {slope(sizes[-2:], t_cat[-2:]):.2f}")

    n = 32000
    depths = [2, 4, 6, 8, 10, 12]
    print(f"\nfit time against the depth limit (numeric, n = {n})")
    print(f"{'d':>4} {'nodes':>6} {'treebook':>9} {'sklearn':>9} {'ratio':>7}")
    t_depth = []
    for d in depths:
        a = cpu_seconds(lambda: CLSClassifier(max_depth=d).fit(X[:n], y[:n]))
        nodes = CLSClassifier(max_depth=d).fit(X[:n], y[:n]).tree_.node_count
        s = cpu_seconds(lambda: DecisionTreeClassifier(
            criterion="entropy", max_depth=d, random_state=0).fit(X[:n], y[:n]))
        t_depth.append(a)
        print(f"{d:>4} {nodes:>6} {a:>9.4f} {s:>9.4f} {a / s:>6.1f}x")
    print(f"log-log slope in d: {slope(depths, t_depth):.2f} "
          "(above 1: the per-node overhead grows with the node count)")


if __name__ == "__main__":
    main()
