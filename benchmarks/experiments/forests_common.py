"""What the chapter-7 forest experiments share: the data, the noise columns, the CSV header.

Imported by ``importance.py``, ``forest_vs_tree.py`` and ``bias_variance.py`` (run from
anywhere: each puts this folder on ``sys.path``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timezone

import numpy as np
import pandas as pd

from treebook.teaching.experiments import load_average, results_path  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")


def adult(split: str = "train", *, codes: bool = False):
    """UCI Adult ``(X, y)`` without ``fnlwgt`` (a sampling weight) and ``education-num``
    (``education`` recoded); a missing value (``?``) is the category ``"missing"``.
    ``codes=True`` turns every categorical column into integer codes (categories in
    sorted order, fixed across splits), so the fast numeric grower applies."""
    from treebook.datasets import load_adult

    X, y = load_adult(split, return_X_y=True)
    X = X.drop(columns=["fnlwgt", "education-num"])
    train = load_adult("train") if codes else None  # the levels, once (not once a column)
    for c in X.columns:
        if X[c].dtype == object:
            X[c] = X[c].fillna("missing")
            if codes:
                levels = sorted(set(train[c].fillna("missing")))
                X[c] = pd.Categorical(X[c], categories=levels).codes.astype(float)
    return X, y.to_numpy().astype(str)


def noise_columns(n: int, rng, *, continuous: int = 0, levels: dict | None = None) -> pd.DataFrame:
    """Irrelevant columns: ``continuous`` columns of U(0, 1) noise named ``noise_u<j>``,
    and for each ``name: L`` in ``levels`` a categorical column of ``L`` equally likely
    levels (strings), independent of everything."""
    cols = {f"noise_u{j}": rng.random(n) for j in range(continuous)}
    for name, L in (levels or {}).items():
        cols[name] = np.array([f"v{k:03d}" for k in range(L)], dtype=object)[rng.integers(0, L, n)]
    return pd.DataFrame(cols)


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def smoke(args, config: dict) -> None:
    """``--smoke``: overwrite the parsed options ``args`` with the tiny ``config`` (option
    names with ``_``), so a run exercises every code path in seconds."""
    if args.smoke:
        for key, value in config.items():
            setattr(args, key, value)


def write_csv(frame: pd.DataFrame, path: str, config: dict) -> None:
    """``frame`` as CSV under ``# command``, ``# date``, ``# commit``, ``# load average``
    (when written) and ``# config`` lines."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("# command: python " + " ".join([os.path.relpath(sys.argv[0], os.path.dirname(os.path.dirname(HERE)))] + sys.argv[1:]) + "\n")
        f.write(f"# date: {datetime.now(timezone.utc).isoformat(timespec='seconds')}\n")
        f.write(f"# commit: {commit()}\n")
        f.write(f"# load average: {load_average()} (when written)\n")
        f.write(f"# config: {config}\n")
        frame.to_csv(f, index=False)


def read_config(header: dict) -> dict:
    """The ``# config`` line of a header read by :func:`read_csv`, as a dict.

    The line is a Python literal (``write_csv`` writes ``str(config)``); it is read with
    ``ast.literal_eval``, which accepts literals only, never ``eval``: a results file is
    data, and a crafted one must not run code."""
    import ast

    text = header.get("config")
    if text is None:
        raise ValueError("the header has no '# config' line")
    try:
        config = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(f"the header's config is not a literal dict: {text[:80]!r}") from exc
    if not isinstance(config, dict):
        raise ValueError(f"the header's config is not a dict: {text[:80]!r}")
    return config


def read_csv(path: str) -> tuple[pd.DataFrame, dict]:
    """A results CSV and its header lines as a dict (``command``, ``date``, ``commit``, ``config``)."""
    header = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("# "):
                break
            key, _, value = line[2:].partition(": ")
            header[key] = value.strip()
    return pd.read_csv(path, comment="#"), header
