"""Where C4.5's fit spends its time: cProfile shares of two fits, written as a CSV.

Two profiles, each of one fit after a warm-up fit (imports and compiled kernels loaded):

* ``readable`` — the readable recursive grower (``C45Classifier(grower="readable")``,
  the defaults otherwise) on ``--readable-n`` rows of the "8 numeric + 2 categorical"
  shape of ``benchmarks/bench_cart_shapes.py``;
* ``fast`` — the fast grower's growth alone (``grower="fast"``, ``pruning=None``) on
  ``--fast-n`` rows of the "2 classes" shape (10 numeric columns).

For every function whose cumulative time is at least 0.5 % of the fit, one row: the
profile, the function and its file, the number of calls, and its own (``tottime``) and
cumulative (``cumtime``) time as shares of the whole profiled fit. A compiled (numba)
function is one entry: cProfile does not see inside it. Profiling slows Python calls
more than compiled loops, so the shares are of the profiled run. Nothing is asserted.

    python benchmarks/profile_c45.py --csv benchmarks/experiments/results/c45_profile.csv
    python benchmarks/profile_c45.py --smoke
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cart_shapes import make_shape  # noqa: E402


def profile_fit(est, X, y):
    est.fit(X, y)  # warm-up: the compiled kernels load, the imports are done
    prof = cProfile.Profile()
    prof.enable()
    est.fit(X, y)
    prof.disable()
    stats = pstats.Stats(prof).stats
    total = sum(tt for (_, _, tt, _, _) in stats.values())
    rows = []
    for (path, line, name), (_, ncalls, tt, ct, _) in stats.items():
        if ct / total >= 0.005:
            rows.append(dict(function=name, file=os.path.basename(path), line=line,
                             ncalls=ncalls, tottime_share=tt / total,
                             cumtime_share=min(ct / total, 1.0), total_s=total))
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--readable-n", type=int, default=5000)
    ap.add_argument("--fast-n", type=int, default=100_000)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, no CSV")
    ap.add_argument("--csv", help="write the rows here (command, date, commit, load)")
    args = ap.parse_args(argv)
    import pandas as pd

    from treebook import C45Classifier
    from treebook.teaching.experiments import _commit, write_results

    commit = _commit()
    n_read, n_fast = (300, 1000) if args.smoke else (args.readable_n, args.fast_n)
    rows = []
    X, y, _, _ = make_shape("8 numeric + 2 categorical", n_read, "treebook")
    for r in profile_fit(C45Classifier(grower="readable"), X, y):
        rows.append(dict(profile="readable", n=n_read, shape="8 numeric + 2 categorical", **r))
    X, y, _, _ = make_shape("2 classes", n_fast, "treebook")
    for r in profile_fit(C45Classifier(grower="fast", pruning=None), X, y):
        rows.append(dict(profile="fast", n=n_fast, shape="2 classes", **r))
    frame = pd.DataFrame(rows).sort_values(["profile", "cumtime_share"],
                                           ascending=[False, False])
    print(frame.head(40).to_string(index=False))
    if args.csv and not args.smoke:
        command = "python benchmarks/profile_c45.py " + " ".join(
            sys.argv[1:] if argv is None else argv)
        write_results(frame, args.csv, command.strip(), commit=commit)


if __name__ == "__main__":
    main()
