"""The smoke configuration of benchmarks/bench_c45_j48.py (issue 26): J48 timed in a warm
JVM and treebook's C4.5 on two small ARFF sets, the same tree on both sides, and the
CSV's header written by the script."""

import importlib.util
from pathlib import Path

import pytest

from .weka import WEKA_JAR

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not WEKA_JAR.exists(),
                                reason="Weka is not installed: run `make crosscheck`")


def test_smoke_run_times_the_same_tree_and_writes_its_header(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_c45_j48",
                                                  ROOT / "benchmarks" / "bench_c45_j48.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "speed.csv"
    table = bench.main(["--smoke", "--csv", str(out)])
    assert list(table.dataset) == ["weather.numeric", "iris"]
    assert table.same_shape.all(), table
    assert (table.j48_median_s > 0).all() and (table.treebook_median_s > 0).all()
    assert (table.ratio == table.treebook_median_s / table.j48_median_s).all()
    head = out.read_text().splitlines()[:4]
    assert [h.split(":")[0] for h in head] == ["# command", "# date", "# commit",
                                               "# load average"]
    assert "--smoke" in head[0]
