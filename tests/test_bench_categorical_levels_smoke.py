"""The smoke configuration of benchmarks/bench_categorical_levels.py (issue 22)."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _script():
    sys.path.insert(0, str(ROOT / "benchmarks"))  # its memory child imports it by name
    spec = importlib.util.spec_from_file_location(
        "bench_categorical_levels", ROOT / "benchmarks" / "bench_categorical_levels.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_smoke_run_writes_its_csv(tmp_path):
    bench = _script()
    out = tmp_path / "levels.csv"
    result = bench.main(["--smoke", "--targets", "2 classes", "regression", "--out", str(out)])
    head = out.read_text().splitlines()[:4]
    assert [h.split(":")[0] for h in head] == ["# command", "# commit", "# date",
                                               "# load average"]
    table = bench.read_csv(out)
    assert len(table) == 2 * 2 * 2  # targets × growers × levels
    assert set(table.L) == {100, 300} and (table.n == 5 * table.L).all()
    assert (table.fit_s > 0).all() and (table.numeric_fit_s > 0).all()
    assert table.peak_mib.notna().all()
    # the root splits the categories into two non-empty subsets
    assert ((table.root_left_categories > 0) & (table.root_left_categories < table.L)).all()
    # the slope needs L in [1e3, 1e5]: none in the smoke run
    assert all(s is None for s in result["slopes"].values())


def test_log_slope_is_the_least_squares_slope():
    bench = _script()
    rows = [{"target": "t", "grower": "g", "L": L, "fit_s": 0.5 * L ** 1.1}
            for L in (100, 1000, 10_000, 100_000)]
    assert np.isclose(bench.log_slope(rows, "t", "g"), 1.1)
    assert bench.log_slope(rows, "t", "other") is None
