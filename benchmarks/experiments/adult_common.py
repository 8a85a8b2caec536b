"""Shared by the chapter 7 experiments: Adult as the chapter uses it, and the CLI options."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import numpy as np

from treebook.datasets import load_adult
from treebook.teaching.experiments import results_path

RESULTS = Path(__file__).resolve().parent / "results"
#: fnlwgt is the Census Bureau's sampling weight, not a property of the person;
#: education-num is education recoded one to one. Both leave X.
DROPPED = ["fnlwgt", "education-num"]


def adult(split: str = "train", rows: int | None = None, seed: int = 0):
    """``(X, y)`` of Adult without :data:`DROPPED`; ``rows`` < all draws a stratified
    sample (seeded) of that many rows."""
    X, y = load_adult(split, return_X_y=True)
    X = X.drop(columns=DROPPED)
    y = y.to_numpy()
    if rows is not None and rows < len(y):
        from sklearn.model_selection import train_test_split

        idx, _ = train_test_split(np.arange(len(y)), train_size=rows, stratify=y,
                                  random_state=seed)
        idx = np.sort(idx)
        X, y = X.iloc[idx].reset_index(drop=True), y[idx]
    return X, y


#: ``--smoke``: the same code paths on a few hundred rows, two folds, one repeat (seconds)
SMOKE = {"rows": 400, "test_rows": 1000, "splits": 2, "repeats": 1, "inner": 2}


class _Parser(argparse.ArgumentParser):
    """Applies ``--smoke`` and resolves ``--out`` once the options are read, so every
    script's ``main`` sees a plain configuration and a ``.csv`` path (or None)."""

    def parse_args(self, args=None, namespace=None):
        a = super().parse_args(args, namespace)
        if a.smoke:
            for key, value in SMOKE.items():
                if hasattr(a, key):
                    setattr(a, key, value)
        if a.out is not None:  # a folder receives results/<script>.csv's name
            a.out = str(results_path(a.out, Path(sys.argv[0]).stem + ".csv"))
        return a


def parser(doc: str, splits: int, repeats: int) -> argparse.ArgumentParser:
    p = _Parser(description=doc.splitlines()[0])
    p.add_argument("--rows", type=int, default=None, help="sample this many training rows")
    p.add_argument("--splits", type=int, default=splits)
    p.add_argument("--repeats", type=int, default=repeats)
    p.add_argument("--test-rows", type=int, default=None,
                   help="sample this many rows of the test split (scripts that score on it)")
    p.add_argument("--out", default=None,
                   help="CSV path, or a folder for <script>.csv (default: results/<script>.csv)")
    p.add_argument("--smoke", action="store_true",
                   help=f"a tiny configuration {SMOKE} (tests/test_experiment_smoke.py)")
    return p


def command() -> str:
    return "python " + " ".join(shlex.quote(a) for a in
                                [str(Path(sys.argv[0]).relative_to(Path.cwd())
                                     if Path(sys.argv[0]).is_absolute() else sys.argv[0])]
                                + sys.argv[1:])
