"""Conditional inference trees (``treebook.ctree``, ``treebook.core.independence``): the
statistics against hand computations, the learner's rules, bad input, weights and missing
values. partykit itself is the oracle in ``tests/oracles/test_partykit.py``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from treebook import ConditionalTreeClassifier, ConditionalTreeRegressor
from treebook.core import independence as ind
from treebook.core.tree import NodeKind
from treebook.ctree import root_pvalues
from treebook.io.serialize import from_json


# ----------------------------------------------------------------------------- statistics
def test_two_by_two_table_c_quad_is_pearson_times_n_minus_1_over_n():
    # a = 12, b = 3 (x = 0), c = 5, d = 10 (x = 1): rows x, columns y
    a, b, c, d = 12, 3, 5, 10
    n = a + b + c + d
    x = np.repeat([0, 0, 1, 1], [a, b, c, d])
    y = np.repeat([0, 1, 0, 1], [a, b, c, d])
    pearson = n * (a * d - b * c) ** 2 / ((a + b) * (c + d) * (a + c) * (b + d))
    g = np.eye(2)[x]
    h = np.eye(2)[y]
    lin = ind.linear_statistic(g, h, np.ones(n))
    c_quad, df = ind.quadratic_form(lin.t, lin.mu, lin.sigma)
    assert df == 1  # a 2 x 2 table: (2 - 1)(2 - 1)
    assert c_quad == pytest.approx(pearson * (n - 1) / n, rel=1e-12)
    # and scipy's Pearson statistic (no continuity correction) is the same X²
    chi2 = stats.chi2_contingency(np.array([[a, b], [c, d]]), correction=False)[0]
    assert pearson == pytest.approx(chi2, rel=1e-12)
    assert ind.chi2_pvalue(c_quad, df) == pytest.approx(stats.chi2.sf(pearson * (n - 1) / n, 1))


def test_numeric_example_by_hand():
    x = np.array([1.0, 2.0, 4.0, 5.0, 7.0, 8.0])
    y = np.array([2.0, 1.0, 4.0, 3.0, 7.0, 5.0])
    n = x.size
    # Strasser-Weber for p = q = 1, written out
    T = np.sum(x * y)
    mu = np.sum(x) * np.mean(y)
    vy = np.mean((y - y.mean()) ** 2)
    var = n / (n - 1) * vy * np.sum(x ** 2) - 1 / (n - 1) * vy * np.sum(x) ** 2
    expected = (T - mu) ** 2 / var
    lin = ind.linear_statistic(x, y, np.ones(n))
    assert lin.t[0] == pytest.approx(T)
    assert lin.mu[0] == pytest.approx(mu)
    assert lin.sigma[0, 0] == pytest.approx(var)
    c_quad, df = ind.quadratic_form(lin.t, lin.mu, lin.sigma)
    assert (c_quad, df) == (pytest.approx(expected, rel=1e-12), 1)
    # for one numeric covariate and a numeric response, c_quad = (n - 1) r²
    r = np.corrcoef(x, y)[0, 1]
    assert c_quad == pytest.approx((n - 1) * r ** 2, rel=1e-12)


def test_weights_count_cases_in_the_statistic():
    x = np.array([0.0, 1.0, 3.0, 4.0])
    y = np.array([1.0, 0.0, 2.0, 5.0])
    w = np.array([2.0, 1.0, 3.0, 1.0])
    lin_w = ind.linear_statistic(x, y, w)
    rep = np.repeat(np.arange(4), w.astype(int))
    lin_r = ind.linear_statistic(x[rep], y[rep], np.ones(rep.size))
    for a, b in zip(lin_w[:3], lin_r[:3]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_constant_covariate_has_no_test():
    c, df = ind.quadratic_form(*ind.linear_statistic(np.ones(5), np.arange(5.0), np.ones(5))[:3])
    assert np.isnan(c) and df == 0
    assert np.isnan(ind.chi2_pvalue(c, df))


def test_sidak_adjustment_is_one_minus_the_product():
    assert ind.sidak(0.01, 3) == pytest.approx(1 - 0.99 ** 3, rel=1e-12)
    assert ind.sidak(1e-20, 5) == pytest.approx(5e-20, rel=1e-9)  # no cancellation
    assert ind.sidak(1.0, 4) == 1.0


def test_ordered_cut_statistics_by_hand():
    # values 1..4 with one case each, a binary response: cut k sends 1..k left
    y = np.array([0, 0, 1, 1])
    h = np.eye(2)[y]
    lw = np.ones(4)
    _, _, vh = ind.influence_moments(h, np.ones(4))
    c = ind.ordered_cut_statistics(lw, h, vh, min_bucket=1)
    # each cut's 2 x 2 table: c_quad = (n - 1)/n X², X² by hand from the table
    expected = []
    for k in (1, 2, 3):
        left = y[:k]
        a, b = np.sum(left == 0), np.sum(left == 1)
        cc, dd = np.sum(y[k:] == 0), np.sum(y[k:] == 1)
        x2 = 4 * (a * dd - b * cc) ** 2 / ((a + b) * (cc + dd) * (a + cc) * (b + dd))
        expected.append(x2 * 3 / 4)
    np.testing.assert_allclose(c, expected, rtol=1e-12)
    # a minimum bucket of 2 leaves only the middle cut
    c2 = ind.ordered_cut_statistics(lw, h, vh, min_bucket=2)
    assert np.isnan(c2[0]) and np.isnan(c2[2]) and c2[1] == pytest.approx(3.0)


def test_permutation_pvalue_matches_the_exact_hypergeometric_test():
    a, b, c, d = 9, 3, 4, 8
    n = a + b + c + d
    x = np.repeat([0, 0, 1, 1], [a, b, c, d])
    y = np.repeat([0, 1, 0, 1], [a, b, c, d])
    g, h = np.eye(2)[x], np.eye(2)[y]
    lin = ind.linear_statistic(g, h, np.ones(n))
    c_obs, _ = ind.quadratic_form(lin.t, lin.mu, lin.sigma)
    # c_quad of a 2 x 2 table is a function of |a - E a|: the exact p-value is the
    # hypergeometric probability of a cell count at least as far from its mean
    rv = stats.hypergeom(n, a + c, a + b)
    ks = np.arange(0, a + b + 1)
    far = np.abs(ks - rv.mean()) >= abs(a - rv.mean()) - 1e-9
    exact = rv.pmf(ks)[far].sum()
    B = 4000
    p1 = ind.permutation_pvalue(g, h, np.ones(n), c_obs, B, np.random.default_rng(1))
    p2 = ind.permutation_pvalue(g, h, np.ones(n), c_obs, B, np.random.default_rng(1))
    assert p1 == p2  # seeded
    assert abs(p1 - exact) < 4 * np.sqrt(exact * (1 - exact) / B)


def test_permutation_pvalue_refuses_fractional_weights():
    with pytest.raises(ValueError, match="sample_weight"):
        ind.permutation_pvalue(np.arange(4.0), np.arange(4.0), np.full(4, 0.5), 1.0, 10,
                               np.random.default_rng(0))


# ----------------------------------------------------------------------------- learner
def toy():
    """The toy data whose root tests partykit 1.2-16 reports (testtype = "Univariate"):
    o: statistic 6.3333333, p 0.01184894; f: statistic 12.485714, p 0.01408223."""
    o = [1, 2, 3, 4, 5] * 2 + [3, 4, 5, 6, 7] * 2
    f = list("pqrpqrpqrp") + list("stpstpstps")
    X = pd.DataFrame({"o": pd.Categorical(o, categories=range(1, 9), ordered=True),
                      "f": pd.Categorical(f, categories=list("pqrstu"))})
    return X, np.repeat(["a", "b"], 10)


def test_root_pvalues_as_partykit_reports_them():
    X, y = toy()
    table = root_pvalues(X, y, testtype="univariate")
    assert table.loc["o", "statistic"] == pytest.approx(6.3333333333, rel=1e-9)
    assert table.loc["f", "statistic"] == pytest.approx(12.485714286, rel=1e-9)
    assert table.loc["o", "pvalue"] == pytest.approx(0.01184894, rel=1e-6)
    assert table.loc["f", "pvalue"] == pytest.approx(0.01408223, rel=1e-6)
    assert list(table["df"]) == [1, 4]
    assert table["chosen"].tolist() == [True, False]
    bonf = root_pvalues(X, y)
    np.testing.assert_allclose(bonf["adjusted"], 1 - (1 - table["pvalue"]) ** 2, rtol=1e-12)


def test_ordered_split_is_a_cut_of_the_level_order():
    X, y = toy()
    m = ConditionalTreeClassifier(min_samples_split=2, min_samples_leaf=1, alpha=0.5,
                                  testtype="univariate").fit(X, y)
    assert m.ordered_features_.tolist() == [True, False]
    assert m.tree_.kind[0] == NodeKind.SUBSET and m.tree_.feature[0] == 0
    assert m.tree_.codes_of(0).tolist() == [0, 0, 1, 1, 1, 1, 1, 1]  # o <= 2 goes left
    assert m.node_pvalues_[0] == pytest.approx(0.01184894, rel=1e-6)
    # the same column unordered is nominal: a different test (df = number of levels - 1)
    Xu = X.assign(o=X["o"].cat.as_unordered())
    assert root_pvalues(Xu, y, testtype="univariate").loc["o", "df"] == 6


def test_noise_stays_a_root_and_a_signal_splits():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 1] > 0).astype(int)
    m = ConditionalTreeClassifier().fit(X, y)
    assert m.tree_.feature[0] == 1
    assert m.tree_.kind[0] == NodeKind.THRESHOLD
    assert m.tree_.threshold[0] in X[:, 1]  # an observed value, not a midpoint
    noise = ConditionalTreeClassifier().fit(X, rng.integers(0, 2, 200))
    assert noise.tree_.node_count == 1 and noise.node_pvalues_[0] >= 0.05


def test_regressor_splits_at_the_mean_shift():
    x = np.arange(40.0)
    y = np.where(x < 20, 1.0, 5.0) + np.sin(x)
    m = ConditionalTreeRegressor().fit(x[:, None], y)
    assert m.tree_.threshold[0] == 19.0
    assert m.predict([[3.0]])[0] == pytest.approx(y[:20].mean())


def test_max_depth_and_minimum_sizes():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    assert ConditionalTreeClassifier(max_depth=1).fit(X, y).get_depth() == 1
    assert ConditionalTreeClassifier(max_depth=0).fit(X, y).tree_.node_count == 1
    m = ConditionalTreeClassifier(min_samples_leaf=40).fit(X, y)
    assert m.tree_.weighted_n[m.tree_.is_leaf].min() >= 40
    assert ConditionalTreeClassifier(min_samples_split=301).fit(X, y).tree_.node_count == 1


@pytest.mark.parametrize("params, name", [
    (dict(alpha=0.0), "alpha"), (dict(alpha=1.0), "alpha"), (dict(testtype="Teststatistic"),
                                                             "testtype"),
    (dict(pvalue="exact"), "pvalue"), (dict(min_samples_leaf=0), "min_samples_leaf"),
    (dict(min_samples_split=0), "min_samples_split"), (dict(max_depth=-1), "max_depth"),
    (dict(max_surrogates=-1), "max_surrogates"), (dict(n_resamples=0), "n_resamples"),
    (dict(min_prob=1.0), "min_prob"),
])
def test_bad_parameters_are_named(params, name):
    X, y = toy()
    with pytest.raises(ValueError, match=name):
        ConditionalTreeClassifier(**params).fit(X, y)


def test_bad_types_are_named():
    X, y = toy()
    with pytest.raises(TypeError, match="random_state"):
        ConditionalTreeClassifier(random_state="seed").fit(X, y)
    with pytest.raises(TypeError, match="regression"):
        root_pvalues(X, y, regression="yes")
    with pytest.raises(ValueError, match="testtype"):
        root_pvalues(X, y, testtype="none")
    with pytest.raises(ValueError, match="sample_weight"):
        ConditionalTreeClassifier(pvalue="permutation", min_samples_split=2).fit(
            X, y, sample_weight=np.full(20, 0.5))


def test_whole_weights_are_repeated_cases():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] - X[:, 2] > 0.3).astype(int)
    w = rng.integers(1, 4, 120).astype(float)
    rep = np.repeat(np.arange(120), w.astype(int))
    a = ConditionalTreeClassifier().fit(X, y, sample_weight=w)
    b = ConditionalTreeClassifier().fit(X[rep], y[rep])
    assert a.export_text() == b.export_text()
    np.testing.assert_allclose(a.node_pvalues_, b.node_pvalues_, rtol=1e-10)
    np.testing.assert_array_equal(a.tree_.weighted_n, b.tree_.weighted_n)


def test_missing_values_go_to_the_majority_branch():
    rng = np.random.default_rng(3)
    x = rng.normal(size=200)
    X = np.column_stack([x, rng.normal(size=200)])
    y = (x > 0.8).astype(int)  # most cases go left of the cut
    X[::10, 0] = np.nan
    m = ConditionalTreeClassifier().fit(X, y)
    assert m.tree_.feature[0] == 0
    left = m.tree_.children_of(0)[0]
    # the test of x at the root used the 180 cases with x known
    n_known = np.count_nonzero(~np.isnan(X[:, 0]))
    assert m.tree_.missing_go[0] == 0
    assert m.apply(np.array([[np.nan, 0.0]]))[0] in m.tree_.subtree(left)
    stat = ind.quadratic_form(*ind.linear_statistic(
        X[~np.isnan(X[:, 0]), 0], np.eye(2)[y[~np.isnan(X[:, 0])]], np.ones(n_known))[:3])[0]
    assert m.node_statistics_[0, 0] == pytest.approx(stat, rel=1e-12)


def test_surrogate_sends_a_missing_value_with_its_twin():
    rng = np.random.default_rng(4)
    x = rng.normal(size=300)
    twin = x + rng.normal(scale=0.05, size=300)
    X = np.column_stack([x, twin, rng.normal(size=300)])
    y = (x > 0.7).astype(int)
    m = ConditionalTreeClassifier(max_surrogates=2, max_depth=1).fit(X, y)
    sur = m.tree_.surrogates[0]
    assert sur and sur[0].feature == 1
    # a case with x missing and a large twin goes right (the minority branch), not to
    # the majority branch
    assert m.tree_.missing_go[0] == 0
    node = m.apply(np.array([[np.nan, 3.0, 0.0]]))[0]
    assert node == m.tree_.children_of(0)[1]
    no_sur = ConditionalTreeClassifier(max_depth=1).fit(X, y)
    assert no_sur.apply(np.array([[np.nan, 3.0, 0.0]]))[0] == no_sur.tree_.children_of(0)[0]


def test_permutation_pvalues_are_seeded_and_near_the_asymptotic_ones():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(150, 2))
    y = (X[:, 0] + rng.normal(size=150) > 0).astype(int)
    a = ConditionalTreeClassifier(pvalue="permutation", n_resamples=999, random_state=0,
                                  max_depth=0, testtype="univariate").fit(X, y)
    b = ConditionalTreeClassifier(pvalue="permutation", n_resamples=999, random_state=0,
                                  max_depth=0, testtype="univariate").fit(X, y)
    # max_depth=0: no test at all (the root is at the maximum depth)
    assert np.isnan(a.node_pvalues_[0]) and np.isnan(b.node_pvalues_[0])
    t1 = root_pvalues(X, y, pvalue="permutation", n_resamples=2000, random_state=0,
                      testtype="univariate")
    t2 = root_pvalues(X, y, pvalue="permutation", n_resamples=2000, random_state=0,
                      testtype="univariate")
    asym = root_pvalues(X, y, testtype="univariate")
    assert t1["pvalue"].tolist() == t2["pvalue"].tolist()
    p = asym.loc["x1", "pvalue"]
    assert abs(t1.loc["x1", "pvalue"] - p) < 4 * np.sqrt(p * (1 - p) / 2000) + 0.01


def test_json_round_trip_keeps_tree_pvalues_and_missing_rule():
    rng = np.random.default_rng(6)
    X = pd.DataFrame({"a": rng.normal(size=150),
                      "b": pd.Categorical(rng.choice(list("xyz"), 150)),
                      "o": pd.Categorical(rng.choice(["lo", "mid", "hi"], 150),
                                          categories=["lo", "mid", "hi"], ordered=True)})
    y = ((X["a"] > 0) ^ (X["b"] == "x")).astype(int).to_numpy()
    X.loc[::9, "a"] = np.nan
    m = ConditionalTreeClassifier(max_surrogates=2, alpha=0.2).fit(X, y)
    assert m.tree_.node_count > 1
    back = from_json(m.to_json(), expected=ConditionalTreeClassifier)
    assert back.export_text() == m.export_text()
    np.testing.assert_array_equal(back.predict_proba(X), m.predict_proba(X))
    np.testing.assert_array_equal(back.node_pvalues_, m.node_pvalues_)
    np.testing.assert_array_equal(back.ordered_features_, m.ordered_features_)
    reg = ConditionalTreeRegressor().fit(X, X["a"].fillna(0) * 3 + y)
    back = from_json(reg.to_json(), expected=ConditionalTreeRegressor)
    np.testing.assert_array_equal(back.predict(X), reg.predict(X))


def test_rules_and_probabilities():
    X, y = toy()
    m = ConditionalTreeClassifier(min_samples_split=2, min_samples_leaf=1, alpha=0.5,
                                  testtype="univariate").fit(X, y)
    rules = m.to_rules()
    assert len(rules) == m.n_leaves_
    proba = m.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert m.to_graphviz() is not None
