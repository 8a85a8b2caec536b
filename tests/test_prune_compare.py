"""Friedman, Nemenyi and Wilcoxon–Holm (Demšar 2006) against published values and scipy."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import friedmanchisquare

from treebook.prune.compare import (cd_diagram, friedman_test, mean_ranks,
                                    nemenyi_critical_difference, wilcoxon_holm)

# Demšar (2006), table 5(a): q_0.05 of the Nemenyi test for k = 2 … 10
Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102,
       10: 3.164}


@pytest.mark.parametrize("k", sorted(Q05))
def test_nemenyi_q_matches_demsar_table(k):
    N = 7
    cd = nemenyi_critical_difference(k, N)
    assert cd / np.sqrt(k * (k + 1) / (6 * N)) == pytest.approx(Q05[k], abs=1e-3)  # printed to 3 decimals


def test_nemenyi_example_from_the_paper():
    # Demšar's worked example: 4 classifiers, 14 data sets, CD = 2.569 · sqrt(20/84) = 1.25
    assert nemenyi_critical_difference(4, 14) == pytest.approx(1.25, abs=5e-3)


def test_friedman_matches_scipy_and_hand_ranks():
    rng = np.random.default_rng(0)
    s = pd.DataFrame(rng.random((12, 5)), columns=list("abcde"))
    s["c"] = s["a"]                                  # some ties
    out = friedman_test(s)
    ref = friedmanchisquare(*[s[c] for c in s.columns])
    # scipy corrects for ties; without ties in a row the two agree, so compare on the
    # tie-free columns
    s2 = s.drop(columns="c")
    assert friedman_test(s2)["chi2"] == pytest.approx(
        friedmanchisquare(*[s2[c] for c in s2.columns]).statistic)
    assert out["k"] == 5 and out["N"] == 12 and ref.statistic >= out["chi2"] - 1e-9
    r = mean_ranks(pd.DataFrame({"x": [0.1, 0.2], "y": [0.1, 0.1], "z": [0.3, 0.0]}))
    # row 1: x and y tie for ranks 1-2 (1.5 each), z 3; row 2: z 1, y 2, x 3
    assert r.tolist() == [2.25, 1.75, 2.0]


def test_holm_by_hand():
    s = pd.DataFrame({"a": np.arange(10) * 0.01, "b": np.arange(10) * 0.01 + 0.05,
                      "c": np.arange(10) * 0.01 + np.r_[[0.001] * 5, [-0.001] * 5]})
    out = wilcoxon_holm(s, [("a", "b"), ("a", "c")])
    # a < b on all 10: exact two-sided p = 2 / 2^10
    assert out.loc[0, "p"] == pytest.approx(2 / 1024)
    assert out.loc[0, "p_holm"] == pytest.approx(2 * 2 / 1024)
    assert out.loc[0, "a_better"] == 10 and bool(out.loc[0, "reject"])
    assert out.loc[1, "p_holm"] >= out.loc[1, "p"] and not bool(out.loc[1, "reject"])
    # a data set with a missing score is left out of that pair only
    s.loc[0, "c"] = np.nan
    out = wilcoxon_holm(s, [("a", "b"), ("a", "c")])
    assert out["n"].tolist() == [10, 9] and out.loc[0, "p"] == pytest.approx(2 / 1024)


def test_bad_input():
    with pytest.raises(TypeError, match="scores"):
        mean_ranks([[1, 2]])
    with pytest.raises(ValueError, match="at least 2"):
        friedman_test(pd.DataFrame({"a": [1.0]}))
    with pytest.raises(ValueError, match="k must"):
        nemenyi_critical_difference(1, 10)
    with pytest.raises(ValueError, match="pair"):
        wilcoxon_holm(pd.DataFrame({"a": [1.0, 2], "b": [2.0, 3]}), [("a", "z")])


def test_cd_diagram_draws():
    import matplotlib

    matplotlib.use("Agg")
    ax = cd_diagram(pd.Series({"a": 1.2, "b": 2.0, "c": 2.8}), 1.0)
    assert len(ax.texts) >= 4
