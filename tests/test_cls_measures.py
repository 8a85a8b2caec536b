"""Tests of the chapter-5 measures in treebook.core.impurity: the conditional likelihood score,
the positive-class score and the G-test.

References are computed independently of the code under test: plain-Python sums over
expanded samples (the per-case definition of a likelihood), ``math.log`` / ``math.erfc``
closed forms of the χ² tail, exact fractions, and the literature's published gains
(Li Hang 2019, Table 5.1; Mitchell 1997, Table 3.2) with the rounding they were printed
with.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treebook.datasets import load_loan, load_play_tennis
from treebook.core.impurity import (
    conditional_entropy,
    conditional_log_likelihood,
    contingency_table,
    entropy,
    g_statistic,
    g_test_dof,
    g_test_pvalue,
    information_gain,
    positive_class_score,
)

PROPS = settings(max_examples=150, deadline=None)

# random contingency tables: 1..6 branches, 2..4 classes, small integer counts
tables = st.integers(1, 6).flatmap(
    lambda v: st.integers(2, 4).flatmap(
        lambda k: st.lists(st.lists(st.integers(0, 9), min_size=k, max_size=k),
                           min_size=v, max_size=v)
    )
).filter(lambda t: sum(map(sum, t)) > 0)


def per_case_loglik(table) -> float:
    """(1/N) Σ_i log2 P̂(y_i | v_i): expand the table into cases and average, in Python."""
    cases = [(v, k) for v, row in enumerate(table) for k, c in enumerate(row) for _ in range(c)]
    size = [sum(row) for row in table]
    return sum(math.log2(table[v][k] / size[v]) for v, k in cases) / len(cases)


def ref_g(table) -> float:
    """2 Σ O ln(O/E) with E = row total × column total / N, in Python."""
    n = sum(map(sum, table))
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table)]
    return 2 * sum(o * math.log(o * n / (rows[v] * cols[k]))
                   for v, r in enumerate(table) for k, o in enumerate(r) if o > 0)


# ----------------------------------------------------------------- likelihood score
@PROPS
@given(tables)
def test_cls_is_average_log_likelihood_and_minus_conditional_entropy(table):
    cls = conditional_log_likelihood(table)
    assert cls == pytest.approx(per_case_loglik(table), abs=1e-12)
    assert cls == pytest.approx(-conditional_entropy(table), abs=1e-12)
    assert cls <= 0.0
    # g(D, A) = H(D) + ℓ̄(D, A): the same maximiser as information gain
    parent = np.asarray(table).sum(axis=0)
    assert information_gain(table) == pytest.approx(entropy(parent) + cls, abs=1e-12)


def test_cls_on_published_tables():
    # Li Hang (2019), example 5.2: H(D) = 0.971, g(D, A1..A4) = 0.083, 0.324, 0.420, 0.363
    X, y = load_loan(return_X_y=True)
    cls = {a: conditional_log_likelihood(contingency_table(X[a], y)[2]) for a in X.columns}
    published = {"age": 0.083, "has_job": 0.324, "owns_house": 0.420, "credit": 0.363}
    for a, g in published.items():
        assert cls[a] == pytest.approx(g - 0.971, abs=1e-3)  # both printed to 3 decimals
    assert max(cls, key=cls.get) == "owns_house"
    # Mitchell (1997), section 3.4.1.2: H = 0.940, gains Outlook 0.246, Humidity 0.151,
    # Wind 0.048, Temperature 0.029 (printed to 3 decimals)
    X, y = load_play_tennis(return_X_y=True)
    cls = {a: conditional_log_likelihood(contingency_table(X[a], y)[2]) for a in X.columns}
    for a, g in {"Outlook": 0.246, "Humidity": 0.151, "Wind": 0.048,
                 "Temperature": 0.029}.items():
        assert cls[a] == pytest.approx(g - 0.940, abs=1.5e-3)
    assert max(cls, key=cls.get) == "Outlook"


def test_cls_prefers_a_unique_identifier():
    X, y = load_loan(return_X_y=True)
    ident = np.arange(len(y))
    # every branch of the ID column is pure: the best possible score, 0
    assert conditional_log_likelihood(contingency_table(ident, y)[2]) == 0.0
    best_real = max(conditional_log_likelihood(contingency_table(X[a], y)[2]) for a in X)
    assert best_real < 0.0


def test_cls_batch_and_empty_cells():
    t = np.array([[[3, 0], [0, 2]], [[1, 1], [2, 2]]])
    out = conditional_log_likelihood(t)
    assert out.shape == (2,)
    assert out[0] == 0.0 and out[1] == pytest.approx(-1.0)
    # an empty branch contributes nothing
    assert conditional_log_likelihood([[1, 1], [0, 0]]) == pytest.approx(-1.0)


@pytest.mark.parametrize("bad", [[1, 2], [[1, -1]], [[np.nan, 1]], [[0, 0]], []])
def test_cls_bad_input(bad):
    with pytest.raises(ValueError, match="counts_by_branch"):
        conditional_log_likelihood(bad)


# ----------------------------------------------------------------- G statistic
def test_g_statistic_by_hand_on_loan_owns_house():
    # owns_house: yes -> 6 approved, 0 refused; no -> 3 approved, 6 refused (Li Hang 5.1)
    table = [[6, 0], [3, 6]]
    by_hand = 2 * (6 * math.log(6 / (6 * 9 / 15)) + 3 * math.log(3 / (9 * 9 / 15))
                   + 6 * math.log(6 / (9 * 6 / 15)))
    assert g_statistic(table) == pytest.approx(by_hand, rel=1e-12)
    assert by_hand == pytest.approx(8.7331, abs=1e-4)
    assert g_test_dof(table) == 1
    # χ² with 1 degree of freedom: P(χ² ≥ G) = erfc(sqrt(G / 2))
    assert g_test_pvalue(table) == pytest.approx(math.erfc(math.sqrt(by_hand / 2)), rel=1e-9)


def test_g_statistic_matches_an_independent_implementation():
    from scipy.stats import chi2_contingency

    table = np.array([[12, 5, 3], [7, 9, 14]])
    res = chi2_contingency(table, correction=False, lambda_="log-likelihood")
    assert g_statistic(table) == pytest.approx(res.statistic, rel=1e-12)
    assert g_test_dof(table) == res.dof == 2
    assert g_test_pvalue(table) == pytest.approx(res.pvalue, rel=1e-9)
    # χ² with 2 degrees of freedom: P(χ² ≥ G) = exp(-G / 2)
    assert g_test_pvalue(table) == pytest.approx(math.exp(-ref_g(table) / 2), rel=1e-9)


@PROPS
@given(tables)
def test_g_is_2_n_ln2_times_information_gain(table):
    n = sum(map(sum, table))
    assert g_statistic(table) == pytest.approx(ref_g(table), rel=1e-9, abs=1e-9)
    assert g_statistic(table) == pytest.approx(2 * n * math.log(2) * information_gain(table),
                                               rel=1e-9, abs=1e-9)
    p = g_test_pvalue(table)
    assert 0.0 <= p <= 1.0


def test_g_test_degrees_of_freedom_ignore_empty_rows_and_columns():
    assert g_test_dof([[3, 0, 1], [0, 0, 0], [2, 0, 5]]) == 1  # 2 branches, 2 classes
    assert g_test_dof([[3, 4]]) == 0
    assert g_test_pvalue([[3, 4]]) == 1.0  # nothing to test
    assert g_test_pvalue([[3, 0], [5, 0]]) == 1.0  # one class
    np.testing.assert_array_equal(g_test_dof(np.array([[[1, 1], [1, 1]], [[1, 0], [1, 0]]])),
                                  [1, 0])


def test_unique_identifier_is_not_significant_but_owns_house_is():
    X, y = load_loan(return_X_y=True)
    ident = contingency_table(np.arange(15), y)[2]
    # G of the ID column = 2 N ln2 H(D), with (15 - 1)(2 - 1) = 14 degrees of freedom
    assert g_statistic(ident) == pytest.approx(2 * 15 * math.log(2) * entropy([9, 6]))
    assert g_test_dof(ident) == 14
    assert g_test_pvalue(ident) > 0.1
    assert g_test_pvalue(contingency_table(X["owns_house"], y)[2]) < 0.01


# ----------------------------------------------------------------- positive-class score
def test_positive_class_score_by_hand():
    table = [[3, 1], [0, 2]]  # columns (negative, positive)
    # Laplace, K = 2: P̂(+|1) = (1+1)/(4+2) = 1/3, P̂(+|2) = (2+1)/(2+2) = 3/4
    expected = 4 / 6 * math.log2(1 / 3) + 2 / 6 * math.log2(3 / 4)
    assert positive_class_score(table) == pytest.approx(expected, rel=1e-12)
    # raw proportions: 1/4 and 1
    assert positive_class_score(table, smoothing=0) == pytest.approx(4 / 6 * -2.0)
    # Lidstone s = 0.5
    assert positive_class_score(table, smoothing=0.5) == pytest.approx(
        4 / 6 * math.log2(1.5 / 5) + 2 / 6 * math.log2(2.5 / 3))
    # the other class as positive
    assert positive_class_score(table, positive=0, smoothing=0) == -math.inf


def test_positive_class_score_multiclass_one_vs_rest():
    table = [[5, 1, 2], [0, 3, 0]]  # K = 3, positive = column 2
    # s = 1, K = 3: (2+1)/(8+3) and (0+1)/(3+3)
    expected = 8 / 11 * math.log2(3 / 11) + 3 / 11 * math.log2(1 / 6)
    assert positive_class_score(table, positive=2) == pytest.approx(expected)
    assert positive_class_score(table, positive=2, smoothing=0) == -math.inf


def test_positive_class_score_minus_infinity_needs_a_nonempty_branch():
    # an empty branch has weight 0 and contributes nothing, even unsmoothed
    assert positive_class_score([[1, 1], [0, 0]], smoothing=0) == pytest.approx(-1.0)


@PROPS
@given(tables)
def test_positive_class_score_never_beats_not_splitting(table):
    """Jensen: Σ_v P(v) log p_v ≤ log Σ_v P(v) p_v = log p (unsmoothed)."""
    t = np.asarray(table, dtype=float)
    k = t.shape[1] - 1
    if t[:, k].sum() == 0:
        return
    parent = math.log2(t[:, k].sum() / t.sum())
    assert positive_class_score(t, positive=k, smoothing=0) <= parent + 1e-12
    # a split that keeps the positive rate in every branch attains the bound
    proportional = np.outer([1, 2, 3], t.sum(axis=0))
    assert positive_class_score(proportional, positive=k, smoothing=0) == pytest.approx(parent)


def test_positive_class_score_batch():
    t = np.array([[[3, 1], [0, 2]], [[1, 1], [1, 1]]])
    out = positive_class_score(t, smoothing=0)
    np.testing.assert_allclose(out, [4 / 6 * -2.0, -1.0])


@pytest.mark.parametrize("kwargs, exc, words", [
    ({}, ValueError, "declare the positive class"),  # K = 3 without positive
    ({"positive": 3}, ValueError, "positive must be in"),
    ({"positive": 1.0}, TypeError, "positive must be a class column"),
    ({"positive": True}, TypeError, "positive must be a class column"),
    ({"positive": 0, "smoothing": -1}, ValueError, "smoothing"),
    ({"positive": 0, "smoothing": np.nan}, ValueError, "smoothing"),
    ({"positive": 0, "smoothing": True}, ValueError, "smoothing"),
    ({"positive": 0, "smoothing": "1"}, ValueError, "smoothing"),
])
def test_positive_class_score_bad_arguments(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        positive_class_score([[1, 2, 3], [3, 2, 1]], **kwargs)


def test_positive_class_score_rejects_a_table_with_no_positive_case():
    with pytest.raises(ValueError, match="no case of the positive class"):
        positive_class_score([[3, 0], [2, 0]])
    with pytest.raises(ValueError, match="no case of the positive class"):
        positive_class_score([[3, 0, 1], [2, 0, 4]], positive=1, smoothing=1.0)


def test_fraction_check_of_laplace_estimates_summing_to_one():
    """With s > 0 the smoothed estimates of all K classes sum to one in each branch."""
    row, s = [5, 1, 2], Fraction(1, 2)
    est = [(Fraction(c) + s) / (sum(row) + s * len(row)) for c in row]
    assert sum(est) == 1
    for k in range(3):
        got = positive_class_score([row], positive=k, smoothing=0.5)
        assert got == pytest.approx(math.log2(float(est[k])))
