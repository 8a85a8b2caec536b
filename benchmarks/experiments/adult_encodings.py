"""Chapter 7, section 1: encodings of categorical columns, and the target-encoding leak.

On Adult (train split; ``fnlwgt`` and ``education-num`` dropped) and on Adult plus a
column of household ids with no signal (``--id-levels`` levels, a few rows each), each
learner × encoding is scored by stratified ``--splits``-fold CV repeated ``--repeats``
times, and once on UCI's test split after a fit on all training rows:

* C4.5 (J48 defaults: multiway splits, missing values routed fractionally), raw columns;
* CART (``min_samples_leaf=10``, no depth limit) on: categories with ``?`` as the
  category "missing" (subset splits); integer codes; one-hot; target encoding
  cross-fitted inside each training fold; target encoding **naive**: fitted on all the
  training rows before the CV splits (the leak), and on all training rows for the test.

Usage::

    nice python benchmarks/experiments/adult_encodings.py                 # full
    python benchmarks/experiments/adult_encodings.py --rows 3000 --splits 3 --repeats 1
    python benchmarks/experiments/adult_encodings.py --smoke --out /tmp/adult_encodings   # seconds

Writes ``results/adult_encodings.csv``: one row per (data, method, repeat, fold);
``split`` is ``cv`` or ``test`` (``repeat = fold = -1``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adult_common import RESULTS, adult, command, parser  # noqa: E402

from treebook import C45Classifier, CARTClassifier  # noqa: E402
from treebook.core.base import clone  # noqa: E402
from treebook.teaching.experiments import (cross_validate, encode, naive_target_encoding,  # noqa: E402
                                  repeated_folds, scores, write_results)

CART = CARTClassifier(min_samples_leaf=10)
METHODS = [  # (name, model, encoding); "naive" = target encoding fitted before the split
    ("C4.5 multiway", C45Classifier(), "raw"),
    ("CART subsets", CART, "category"),
    ("CART integer codes", CART, "integer"),
    ("CART one-hot", CART, "onehot"),
    ("CART target, cross-fitted", CART, "target"),
    ("CART target, naive", CART, "naive"),
]
ID_METHODS = ["CART subsets", "CART target, cross-fitted", "CART target, naive"]


def with_ids(X, levels: int, seed: int):
    X = X.copy()
    X["household"] = [f"h{v}" for v in np.random.default_rng(seed).integers(0, levels, len(X))]
    return X


def run(X, y, X_test, y_test, folds, methods, data: str) -> list:
    out = []
    for name, model, enc in methods:
        t0 = time.perf_counter()
        if enc == "naive":  # the leak: one encoder for all training rows, then CV
            A, A_test = naive_target_encoding(X, y, X_test)
            cv = cross_validate(model, A, y, folds)
            enc_seconds = time.perf_counter() - t0
            A_tr = A
        else:
            cv = cross_validate(model, X, y, folds, encoding=enc)
            A_tr, A_test = encode(enc, X, y, X_test)
        t1 = time.perf_counter()
        fitted = clone(model).fit(A_tr, y)
        t2 = time.perf_counter()
        test = {**scores(fitted, A_test, y_test), "fit_seconds": t2 - t1,
                "encode_seconds": enc_seconds if enc == "naive" else np.nan}
        cv = cv.assign(split="cv")
        out.append(pd.concat([cv, pd.DataFrame([{"repeat": -1, "fold": -1, "split": "test", **test}])])
                   .assign(data=data, method=name))
        print(f"{data:9s} {name:28s} cv acc {cv['accuracy'].mean():.4f} "
              f"test acc {test['accuracy']:.4f}  {time.perf_counter() - t0:6.1f} s", flush=True)
    return out


def main():
    p = parser(__doc__, splits=3, repeats=2)
    p.add_argument("--id-levels", type=int, default=None,
                   help="household-id levels (default: rows / 4)")
    args = p.parse_args()
    X, y = adult("train", args.rows)
    X_test, y_test = adult("test", args.test_rows)
    folds = repeated_folds(y, args.splits, args.repeats, random_state=0)
    out = run(X, y, X_test, y_test, folds, METHODS, "adult")
    levels = args.id_levels or len(y) // 4
    ids = [m for m in METHODS if m[0] in ID_METHODS]
    out += run(with_ids(X, levels, 1), y, with_ids(X_test, levels, 2), y_test, folds, ids,
               "adult+id")
    frame = pd.concat(out, ignore_index=True)
    cols = ["data", "method", "split", "repeat", "fold", "accuracy", "auc", "n_leaves",
            "fit_seconds", "encode_seconds"]
    write_results(frame[cols], args.out or RESULTS / "adult_encodings.csv", command())


if __name__ == "__main__":
    main()
