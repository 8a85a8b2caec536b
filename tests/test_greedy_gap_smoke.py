"""The smoke configuration of benchmarks/experiments/greedy_gap.py (chapter 9's experiment)."""

import importlib.util
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location(
        "greedy_gap", ROOT / "benchmarks" / "experiments" / "greedy_gap.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_smoke_run_writes_its_csvs(tmp_path):
    gg = _script()
    gg.main(["--smoke", "--out", str(tmp_path)])
    for name in ("greedy_gap.csv", "greedy_gap_cv.csv", "greedy_gap_time.csv"):
        head = (tmp_path / name).read_text().splitlines()[:4]
        assert [h.split(":")[0] for h in head] == ["# command", "# commit", "# date",
                                                   "# load average"]
    gap = gg.read_csv(tmp_path / "greedy_gap.csv")
    assert set(gap.dataset) == {"iris", "wine"}
    # under each objective, the greedy learner is never better than a proved optimum
    for greedy, optimal in [("CART", "optimal-gini"), ("C4.5", "optimal-pessimistic"),
                            ("CART-ccp", "optimal-gini-ccp")]:
        g = gap[gap.learner == greedy].set_index(["dataset", "depth"]).train_objective
        o = gap[gap.learner == optimal].set_index(["dataset", "depth"])
        proved = o.proved.astype(bool)
        assert (g[proved] >= o.train_objective[proved] - 1e-12).all()
    cv = gg.read_csv(tmp_path / "greedy_gap_cv.csv")
    assert set(cv.learner) == {"CART", "optimal-misclassification"}
    assert cv.test_error.between(0, 1).all()
    tm = gg.read_csv(tmp_path / "greedy_gap_time.csv")
    assert (tm.seconds > 0).all() and np.isin(tm.n, [40, 80]).all()


def test_leaf_objective_matches_the_solver():
    from sklearn.datasets import load_iris

    from treebook import OptimalTreeClassifier

    gg = _script()
    X, y = load_iris(return_X_y=True)
    for crit in ("misclassification", "gini", "entropy", "pessimistic"):
        m = OptimalTreeClassifier(max_depth=2, criterion=crit, ccp_alpha=0.01).fit(X, y)
        assert abs(gg.leaf_objective(m.tree_, crit, 0.01) - m.objective_) < 1e-12
