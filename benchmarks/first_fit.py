"""What the first fit costs: numba compiling the kernels, then loading them from its cache.

The package's inner loops are numba functions compiled on first use and cached on disk
(``cache=True``). A fresh process with an empty cache pays for the compilation; a fresh
process with a warm cache loads the compiled code. Each run here is a new Python process
with ``NUMBA_CACHE_DIR`` pointed at a directory of this script's own: a *cold* run gets a
new, empty directory; a *warm* run reuses the directory a cold run has just filled. Both
time the same steps, in order, in the same process:

* ``import`` — ``import treebook``;
* ``id3`` — the README's five lines: ``ID3Classifier`` on PlayTennis (14 rows);
* ``c45``, ``cart``, ``cls`` — the first ``C45Classifier``, ``CARTClassifier``,
  ``CLSClassifier`` fit on the breast-cancer data (569 × 30, scikit-learn's copy);
* ``predict`` — ``CARTClassifier.predict`` on those rows;
* ``second_cart`` — a second ``CARTClassifier`` fit in the same process (everything
  compiled or loaded by then: what every later fit costs).

Printed: the median of each step over ``--repeats`` cold and warm runs (alternating), and
the ratio cold / warm of the total. Wall-clock times on whatever else the machine runs;
nothing here is asserted.

    python benchmarks/first_fit.py --repeats 3 --csv benchmarks/experiments/results/first_fit.csv
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

STEPS = ("import", "id3", "c45", "cart", "cls", "predict", "second_cart")

CHILD = r"""
import json, time
t = time.perf_counter()
times = {}
def lap(name):
    global t
    now = time.perf_counter(); times[name] = now - t; t = now
import treebook
lap("import")
from treebook import C45Classifier, CARTClassifier, CLSClassifier, ID3Classifier
from treebook.datasets import load_play_tennis
X, y = load_play_tennis(return_X_y=True)
ID3Classifier().fit(X, y).export_text()
lap("id3")
from sklearn.datasets import load_breast_cancer
Xb, yb = load_breast_cancer(return_X_y=True)
t = time.perf_counter()
C45Classifier().fit(Xb, yb)
lap("c45")
cart = CARTClassifier().fit(Xb, yb)
lap("cart")
CLSClassifier().fit(Xb, yb)
lap("cls")
cart.predict(Xb)
lap("predict")
CARTClassifier(max_depth=5).fit(Xb, yb)
lap("second_cart")
print(json.dumps(times))
"""


def run_child(cache_dir: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    res = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def current_commit() -> str:
    res = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True, cwd=os.path.dirname(os.path.abspath(__file__)))
    return res.stdout.strip() or "unknown"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="cold and warm runs each")
    ap.add_argument("--csv", help="also write one row per run here")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="treebook-numba-") as root:
        for r in range(args.repeats):
            cache = os.path.join(root, f"cache{r}")
            os.mkdir(cache)  # new and empty: nothing compiled yet
            rows.append({"run": "cold", "repeat": r, **run_child(cache)})
            rows.append({"run": "warm", "repeat": r, **run_child(cache)})  # the same, filled
    load_after = os.getloadavg()[0]
    print(f"{'step':<12} {'cold s':>8} {'warm s':>8}")
    total = {}
    for kind in ("cold", "warm"):
        total[kind] = median([sum(row[s] for s in STEPS) for row in rows if row["run"] == kind])
    for s in STEPS:
        cold = median([row[s] for row in rows if row["run"] == "cold"])
        warm = median([row[s] for row in rows if row["run"] == "warm"])
        print(f"{s:<12} {cold:8.2f} {warm:8.2f}")
    print(f"{'total':<12} {total['cold']:8.2f} {total['warm']:8.2f}   cold / warm = "
          f"{total['cold'] / total['warm']:.1f}")
    print(f"(medians of {args.repeats} runs each; load average {load_before:.2f} before, "
          f"{load_after:.2f} after, {os.cpu_count()} CPUs)")
    if args.csv:
        with open(args.csv, "w") as fh:
            fh.write("# command: python benchmarks/first_fit.py "
                     + " ".join(argv if argv is not None else sys.argv[1:]) + "\n")
            fh.write(f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} "
                     f"UTC ({os.cpu_count()} CPUs, shared with other jobs)\n")
            fh.write(f"# commit: {current_commit()}\n")
            fh.write(f"# load average: {load_before:.2f} before, {load_after:.2f} after\n")
            fh.write(",".join(("run", "repeat") + STEPS) + "\n")
            for row in rows:
                fh.write(",".join([row["run"], str(row["repeat"])]
                                  + [f"{row[s]:.3f}" for s in STEPS]) + "\n")


if __name__ == "__main__":
    main()
