"""Tests of treebook.core.impurity: hand computation, published numbers, bad input, properties.

The reference values come from three independent places: exact arithmetic done here with
``fractions`` and ``math.log2`` (a different code path from the numpy one under test),
numbers printed in the literature (with the rounding they were printed with), and
mathematical identities that every correct implementation satisfies (hypothesis).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treebook.core.impurity import (
    class_counts,
    conditional_entropy,
    contingency_table,
    entropy,
    gain_ratio,
    gini,
    gini_gain,
    gini_index,
    information_gain,
    misclassification_error,
    split_information,
    variance,
    variance_from_sums,
)

PROPS = settings(max_examples=200, deadline=None)


# ------------------------------------------------------------- reference implementations
def ref_entropy(counts) -> float:
    """-Σ p log2 p over the positive counts, in plain Python."""
    total = sum(counts)
    return -sum(c / total * math.log2(c / total) for c in counts if c > 0)


def ref_cond_entropy(table) -> float:
    total = sum(sum(row) for row in table)
    return sum(sum(row) / total * ref_entropy(row) for row in table if sum(row) > 0)


def ref_gini(counts) -> Fraction:
    total = sum(counts)
    return 1 - sum(Fraction(c, total) ** 2 for c in counts)


def ref_gini_index(table) -> Fraction:
    total = sum(sum(row) for row in table)
    return sum(Fraction(sum(row), total) * ref_gini(row) for row in table if sum(row) > 0)


# Li Hang, Table 5.1, as (yes, no) counts per feature value, in the book's value order.
LOAN = {
    "A1": [[2, 3], [3, 2], [4, 1]],  # age: youth, middle, old
    "A2": [[5, 0], [4, 6]],  # has_job: yes, no
    "A3": [[6, 0], [3, 6]],  # owns_house: yes, no
    "A4": [[4, 0], [4, 2], [1, 4]],  # credit: excellent (1), good (2), fair (3)
}


def binary(table, v):
    """The two-branch table ``A = a_v`` versus ``A != a_v`` (CART's split on one value)."""
    t = np.asarray(table, dtype=float)
    return np.stack([t[v], t.sum(axis=0) - t[v]])


# ------------------------------------------------------------------- exact hand values
def test_entropy_exact_values():
    assert entropy([1, 1]) == 1.0
    assert entropy([5, 5, 5, 5]) == 2.0
    assert entropy([7, 0]) == 0.0
    assert entropy([1, 0, 0]) == 0.0
    # H(1/4, 3/4) = 2 - (3/4) log2 3
    assert entropy([1, 3]) == pytest.approx(2 - 0.75 * math.log2(3), abs=1e-15)
    assert entropy([9, 6]) == pytest.approx(ref_entropy([9, 6]), abs=1e-15)


def test_entropy_of_pure_node_is_positive_zero():
    # a pure node would otherwise print as -0.0
    assert math.copysign(1.0, entropy([4, 0])) == 1.0


def test_gini_and_misclassification_exact_values():
    assert gini([9, 6]) == pytest.approx(float(Fraction(108, 225)), abs=1e-15)
    assert gini([1, 1, 1]) == pytest.approx(2 / 3, abs=1e-15)
    assert gini([3, 0]) == 0.0
    assert misclassification_error([9, 6]) == pytest.approx(0.4, abs=1e-15)
    assert misclassification_error([2, 2, 4]) == pytest.approx(0.5, abs=1e-15)
    assert misclassification_error([0, 5]) == 0.0


def test_split_measures_exact_on_twelve_people():
    # 12 people: 8 like it (6 men, 2 women), 4 do not (1 man, 3 women)
    t = [[6, 2], [1, 3]]
    h_quarter = 2 - 0.75 * math.log2(3)  # H(1/4, 3/4) = H(3/4, 1/4)
    assert conditional_entropy(t) == pytest.approx(h_quarter, abs=1e-15)
    assert information_gain(t) == pytest.approx(ref_entropy([7, 5]) - h_quarter, abs=1e-15)
    assert split_information(t) == pytest.approx(ref_entropy([8, 4]), abs=1e-15)
    assert gain_ratio(t) == pytest.approx(
        (ref_entropy([7, 5]) - h_quarter) / ref_entropy([8, 4]), abs=1e-15
    )
    assert information_gain(t) == pytest.approx(0.1686, abs=5e-5)


@pytest.mark.parametrize("name", sorted(LOAN))
def test_loan_tables_against_exact_arithmetic(name):
    t = LOAN[name]
    assert conditional_entropy(t) == pytest.approx(ref_cond_entropy(t), abs=1e-14)
    assert gini_index(t) == pytest.approx(float(ref_gini_index(t)), abs=1e-15)
    parent = [sum(col) for col in zip(*t)]
    assert gini_gain(t) == pytest.approx(float(ref_gini([9, 6]) - ref_gini_index(t)), abs=1e-15)
    assert parent == [9, 6]


def test_gini_index_exact_for_owns_house():
    # Gini(D, A3) = 6/15 · 0 + 9/15 · (1 - (3/9)² - (6/9)²) = 4/15
    assert gini_index(LOAN["A3"]) == pytest.approx(4 / 15, abs=1e-15)
    assert gini_gain(LOAN["A3"]) == pytest.approx(0.48 - 4 / 15, abs=1e-15)


def test_empty_branch_contributes_nothing():
    with_empty = [[6, 0], [0, 0], [3, 6]]
    for f in (conditional_entropy, information_gain, split_information, gain_ratio,
              gini_index, gini_gain):
        assert f(with_empty) == pytest.approx(f(LOAN["A3"]), abs=1e-15)


def test_variance_exact_values():
    assert variance([1, 2, 3, 4]) == pytest.approx(1.25, abs=1e-15)
    assert variance([5.0]) == 0.0
    # weights 1, 3 on the values 0, 4: mean 3, variance (9 + 3·1) / 4 = 3
    assert variance([0, 4], sample_weight=[1, 3]) == pytest.approx(3.0, abs=1e-15)
    assert variance_from_sums(4, 10, 30) == pytest.approx(1.25, abs=1e-15)
    assert variance_from_sums(0, 0, 0, check=False) == 0.0


def test_class_counts_and_contingency_table():
    classes, counts = class_counts(["b", "a", "b", "c"])
    assert classes.tolist() == ["a", "b", "c"] and counts.tolist() == [1, 2, 1]
    classes, counts = class_counts(["b", "b"], classes=["a", "b", "c"], sample_weight=[0.5, 2])
    assert classes.tolist() == ["a", "b", "c"] and counts.tolist() == [0, 2.5, 0]
    values, classes, table = contingency_table(
        ["x", "y", "x", "x"], [0, 1, 1, 1], sample_weight=[1, 2, 3, 4]
    )
    assert values.tolist() == ["x", "y"] and classes.tolist() == [0, 1]
    assert table.tolist() == [[1, 7], [0, 2]]


# ------------------------------------------------------------------- published numbers
def test_li_hang_example_5_2_information_gain():
    """Li Hang (2019), example 5.2: H(D)=0.971; g(D,A1..A4)=0.083, 0.324, 0.420, 0.363.

    Printed to three decimals, so the tolerance is half a unit in the third place.
    """
    assert entropy([9, 6]) == pytest.approx(0.971, abs=5e-4)
    published = {"A1": 0.083, "A2": 0.324, "A3": 0.420, "A4": 0.363}
    for name, g in published.items():
        assert information_gain(LOAN[name]) == pytest.approx(g, abs=5e-4), name
    # and the conditional entropy the book subtracts for A1 (0.971 - 0.888 = 0.083)
    assert conditional_entropy(LOAN["A1"]) == pytest.approx(0.888, abs=5e-4)
    # A3 is the best feature, as the book concludes
    assert max(LOAN, key=lambda n: information_gain(LOAN[n])) == "A3"


def test_li_hang_example_5_4_gini_index():
    """Li Hang (2019), example 5.4: Gini(D, A_i = a) for every one-value binary split.

    Printed to two decimals: tolerance 5e-3. The book numbers credit as 1 = excellent,
    2 = good, 3 = fair, which is the row order of LOAN["A4"].
    """
    published = {
        ("A1", 0): 0.44, ("A1", 1): 0.48, ("A1", 2): 0.44,
        ("A2", 0): 0.32,
        ("A3", 0): 0.27,
        ("A4", 0): 0.36, ("A4", 1): 0.47, ("A4", 2): 0.32,
    }
    for (name, v), value in published.items():
        assert gini_index(binary(LOAN[name], v)) == pytest.approx(value, abs=5e-3), (name, v)
    best = min(published, key=lambda k: gini_index(binary(LOAN[k[0]], k[1])))
    assert best == ("A3", 0)


def test_mitchell_play_tennis_gains():
    """Mitchell (1997) §3.4 and Quinlan (1986): Outlook 0.246, Humidity 0.151,
    Wind 0.048, Temperature 0.029 bits. Mitchell subtracts rounded entropies, so 2e-3."""
    tables = {
        "Outlook": [[2, 3], [4, 0], [3, 2]],  # Sunny, Overcast, Rain: (Yes, No)
        "Humidity": [[3, 4], [6, 1]],  # High, Normal
        "Wind": [[6, 2], [3, 3]],  # Weak, Strong
        "Temperature": [[2, 2], [4, 2], [3, 1]],  # Hot, Mild, Cool
    }
    published = {"Outlook": 0.246, "Humidity": 0.151, "Wind": 0.048, "Temperature": 0.029}
    for name, g in published.items():
        assert information_gain(tables[name]) == pytest.approx(g, abs=2e-3), name
    assert entropy([9, 5]) == pytest.approx(0.940, abs=5e-4)


def test_quinlan_1993_golf_outlook():
    """Quinlan (1993), ch. 2: gain 0.246, split info 1.577, gain ratio 0.156 (±5e-4)."""
    outlook = [[2, 3], [4, 0], [3, 2]]
    assert information_gain(outlook) == pytest.approx(0.246, abs=1e-3)
    assert conditional_entropy(outlook) == pytest.approx(0.694, abs=5e-4)
    assert split_information(outlook) == pytest.approx(1.577, abs=5e-4)
    assert gain_ratio(outlook) == pytest.approx(0.156, abs=5e-4)


# -------------------------------------------------------------------------- bad input
COUNT_MEASURES = [entropy, gini, misclassification_error]
TABLE_MEASURES = [conditional_entropy, information_gain, split_information, gain_ratio,
                  gini_index, gini_gain]

BAD_COUNTS = [
    ([], "empty"),
    ([[], []], "empty"),
    ([3, -1], "negative"),
    ([np.nan, 2], "NaN"),
    ([np.inf, 2], "infinite"),
    ([0, 0], "zero total"),
    ([[1, 1], [0, 0]], "zero total"),  # one node of a batch is empty
    (["a", "b"], "numbers"),
    (5, "shape"),
]


@pytest.mark.parametrize("measure", COUNT_MEASURES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad, why", BAD_COUNTS, ids=[w for _, w in BAD_COUNTS])
def test_node_measures_reject_bad_counts(measure, bad, why):
    with pytest.raises(ValueError, match=r"^counts\b") as info:
        measure(bad)
    assert why.split()[0].lower() in str(info.value).lower()


BAD_TABLES = [
    ([1, 2], "shape"),  # a count vector is not a table
    ([[], []], "empty"),
    ([[1, -2], [3, 4]], "negative"),
    ([[1, np.nan], [3, 4]], "NaN"),
    ([[1, np.inf], [3, 4]], "infinite"),
    ([[0, 0], [0, 0]], "zero total"),
    ([[[1, 1], [1, 1]], [[0, 0], [0, 0]]], "zero total"),  # one table of a batch is empty
]


@pytest.mark.parametrize("measure", TABLE_MEASURES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad, why", BAD_TABLES, ids=[w for _, w in BAD_TABLES])
def test_split_measures_reject_bad_tables(measure, bad, why):
    with pytest.raises(ValueError, match=r"^counts_by_branch\b") as info:
        measure(bad)
    assert why.split()[0].lower() in str(info.value).lower()


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: class_counts([]), "y"),
        (lambda: class_counts([[1, 2]]), "y"),
        (lambda: class_counts([1, 2], sample_weight=[1]), "sample_weight"),
        (lambda: class_counts([1, 2], sample_weight=[1, 2, 3]), "sample_weight"),
        (lambda: class_counts([1, 2], sample_weight=[1, -1]), "sample_weight"),
        (lambda: class_counts([1, 2], sample_weight=[1, np.nan]), "sample_weight"),
        (lambda: class_counts([1, 2], sample_weight=[1, np.inf]), "sample_weight"),
        (lambda: class_counts(["a", "z"], classes=["a", "b"]), "y"),
        (lambda: class_counts(["a"], classes=["a", "a"]), "classes"),
        (lambda: contingency_table([1, 2], [1]), "x and y"),
        (lambda: contingency_table([1, 2], [[1, 2]]), "x and y"),
        (lambda: contingency_table([], []), "x"),
        (lambda: contingency_table([1, 2], [1, 2], sample_weight=[1]), "sample_weight"),
        (lambda: contingency_table([1, 2], [1, 2], sample_weight=[1, -2]), "sample_weight"),
        (lambda: variance([]), "y"),
        (lambda: variance([[1.0, 2.0]]), "y"),
        (lambda: variance([1.0, np.nan]), "y"),
        (lambda: variance([1.0, np.inf]), "y"),
        (lambda: variance([1.0, 2.0], sample_weight=[1.0]), "sample_weight"),
        (lambda: variance([1.0, 2.0], sample_weight=[0.0, 0.0]), "sample_weight"),
        (lambda: variance([1.0, 2.0], sample_weight=[1.0, -1.0]), "sample_weight"),
        (lambda: variance_from_sums(0, 0, 0), "weight"),
        (lambda: variance_from_sums(-1, 0, 0), "weight"),
        (lambda: variance_from_sums(2, np.nan, 1), "sum_y"),
        (lambda: variance_from_sums(2, 1, np.inf), "sum_y2"),
        (lambda: variance_from_sums(np.nan, 1, 1), "weight"),
    ],
)
def test_bad_input_names_the_argument(call, argument):
    with pytest.raises(ValueError, match=rf"^{argument}\b"):
        call()


def test_check_false_treats_an_empty_node_as_pure():
    # the contract that sorted scans rely on: no validation, zero total -> impurity 0
    assert entropy([0, 0], check=False) == 0.0
    assert gini([0, 0], check=False) == 0.0
    assert misclassification_error([0, 0], check=False) == 0.0
    np.testing.assert_array_equal(gini([[0, 0], [1, 1]], check=False), [0.0, 0.5])


# ------------------------------------------------------------------------- strategies
counts_st = st.integers(min_value=1, max_value=6).flatmap(
    lambda k: st.lists(st.integers(0, 40), min_size=k, max_size=k)
).filter(lambda c: sum(c) > 0)


@st.composite
def tables(draw, min_v=1, max_v=5, min_k=1, max_k=5, weights=False):
    v = draw(st.integers(min_v, max_v))
    k = draw(st.integers(min_k, max_k))
    if weights:
        cell = st.floats(0, 50, allow_nan=False, allow_infinity=False)
    else:
        cell = st.integers(0, 30)
    rows = draw(st.lists(st.lists(cell, min_size=k, max_size=k), min_size=v, max_size=v))
    t = np.array(rows, dtype=float)
    if t.sum() == 0:
        t[draw(st.integers(0, v - 1)), draw(st.integers(0, k - 1))] = 1.0
    return t


TOL = 1e-12


# ------------------------------------------------------------------- property tests
@PROPS
@given(counts_st)
def test_entropy_between_zero_and_log2_k(counts):
    h = entropy(counts)
    assert 0.0 <= h <= math.log2(len(counts)) + TOL
    assert h == pytest.approx(ref_entropy(counts), abs=1e-12)


@PROPS
@given(counts_st)
def test_gini_and_error_bounds_and_ordering(counts):
    k = len(counts)
    g, e, h = gini(counts), misclassification_error(counts), entropy(counts)
    assert 0.0 <= g <= 1 - 1 / k + TOL
    assert 0.0 <= e <= 1 - 1 / k + TOL
    assert g == pytest.approx(float(ref_gini(counts)), abs=1e-12)
    # Σp² ≤ max p gives E ≤ Gini; 1 - p ≤ -ln p gives Gini ≤ H·ln 2
    assert e <= g + TOL
    assert g <= h * math.log(2) + TOL


@PROPS
@given(tables(weights=True))
def test_gain_between_zero_and_parent_entropy(t):
    parent = entropy(t.sum(axis=0))
    g = information_gain(t)
    assert -TOL <= g <= parent + 1e-9
    assert conditional_entropy(t) == pytest.approx(parent - g, abs=1e-9)
    assert 0.0 <= gini_gain(t) <= gini(t.sum(axis=0)) + 1e-9


@PROPS
@given(tables())
def test_split_measures_match_reference(t):
    rows = t.astype(int).tolist()
    assert conditional_entropy(t) == pytest.approx(ref_cond_entropy(rows), abs=1e-12)
    assert gini_index(t) == pytest.approx(float(ref_gini_index(rows)), abs=1e-12)
    assert split_information(t) == pytest.approx(ref_entropy(t.sum(axis=1)), abs=1e-12)


@PROPS
@given(tables())
def test_information_gain_is_mutual_information(t):
    # I(A; Y) is symmetric: swapping the roles of branches and classes changes nothing
    assert information_gain(t) == pytest.approx(information_gain(t.T), abs=1e-12)
    # and equals Σ p(v,k) log2 p(v,k) / (p(v) p(k))
    p = t / t.sum()
    pv, pk = p.sum(axis=1, keepdims=True), p.sum(axis=0, keepdims=True)
    pos = p > 0
    mi = float(np.sum(p[pos] * np.log2(p[pos] / (pv @ pk)[pos])))
    assert information_gain(t) == pytest.approx(max(mi, 0.0), abs=1e-12)


@PROPS
@given(tables(), st.randoms(use_true_random=False))
def test_invariant_under_permuting_classes_and_branches(t, rnd):
    rows = list(range(t.shape[0]))
    cols = list(range(t.shape[1]))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    shuffled = t[rows][:, cols]
    for f in TABLE_MEASURES:
        assert f(shuffled) == pytest.approx(f(t), abs=1e-12), f.__name__
    for f in COUNT_MEASURES:
        assert f(shuffled.sum(axis=0)) == pytest.approx(f(t.sum(axis=0)), abs=1e-12)


@PROPS
@given(tables(), st.floats(0.01, 100))
def test_invariant_under_scaling_the_counts(t, scale):
    for f in TABLE_MEASURES:
        assert f(t * scale) == pytest.approx(f(t), abs=1e-9), f.__name__


@PROPS
@given(tables(min_v=2))
def test_merging_branches_never_raises_the_gain(t):
    # a finer partition is at least as informative: the root of the many-values bias
    merged = np.vstack([t[0] + t[1], t[2:]])
    assert information_gain(merged) <= information_gain(t) + 1e-12
    assert gini_gain(merged) <= gini_gain(t) + 1e-12


@PROPS
@given(st.lists(st.integers(0, 4), min_size=1, max_size=30), st.data())
def test_integer_weights_equal_repeated_rows(y, data):
    y = np.array(y)
    w = np.array(data.draw(st.lists(st.integers(1, 5), min_size=len(y), max_size=len(y))))
    x = np.array(data.draw(st.lists(st.sampled_from("abc"), min_size=len(y), max_size=len(y))))
    classes_w, counts_w = class_counts(y, sample_weight=w)
    classes_r, counts_r = class_counts(np.repeat(y, w))
    np.testing.assert_array_equal(classes_w, classes_r)
    np.testing.assert_array_equal(counts_w, counts_r)
    values_w, cls_w, table_w = contingency_table(x, y, sample_weight=w)
    values_r, cls_r, table_r = contingency_table(np.repeat(x, w), np.repeat(y, w))
    np.testing.assert_array_equal(values_w, values_r)
    np.testing.assert_array_equal(cls_w, cls_r)
    np.testing.assert_array_equal(table_w, table_r)
    assert table_w.sum() == w.sum()
    yf = y.astype(float)
    assert variance(yf, sample_weight=w) == pytest.approx(variance(np.repeat(yf, w)), abs=1e-9)


@PROPS
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 6), st.data())
def test_batch_equals_per_item(v, k, n, data):
    cell = st.integers(1, 20)
    batch = np.array(
        data.draw(st.lists(st.lists(st.lists(cell, min_size=k, max_size=k),
                                    min_size=v, max_size=v), min_size=n, max_size=n)),
        dtype=float,
    )
    for f in TABLE_MEASURES:
        np.testing.assert_allclose(f(batch), [f(t) for t in batch], atol=1e-12, rtol=0)
    nodes = batch.reshape(n * v, k)
    for f in COUNT_MEASURES:
        np.testing.assert_allclose(f(nodes), [f(c) for c in nodes], atol=1e-12, rtol=0)
    # two leading axes behave like one
    two_axes = batch.reshape(1, n, v, k)
    np.testing.assert_allclose(information_gain(two_axes)[0], information_gain(batch),
                               atol=1e-12, rtol=0)


@PROPS
@given(counts_st, st.integers(1, 5), st.data())
def test_gain_ratio_is_zero_when_split_information_is_zero(counts, v, data):
    # every case in one branch: nothing is split, H_A(D) = 0 and g_R is defined as 0
    t = np.zeros((v, len(counts)))
    t[data.draw(st.integers(0, v - 1))] = counts
    assert split_information(t) == 0.0
    assert information_gain(t) == 0.0
    assert gain_ratio(t) == 0.0


@PROPS
@given(tables(min_v=2))
def test_gain_ratio_is_gain_over_split_information(t):
    iv = split_information(t)
    if iv > 0:
        assert gain_ratio(t) == pytest.approx(information_gain(t) / iv, rel=1e-12, abs=1e-15)
        assert gain_ratio(t) <= 1.0 + 1e-9  # g ≤ H(A) as mutual information


@PROPS
@given(st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=40), st.data())
def test_variance_from_sums_agrees_with_two_pass(y, data):
    y = np.array(y)
    w = np.array(data.draw(st.lists(st.floats(0.1, 10), min_size=len(y), max_size=len(y))))
    expected = float(np.sum(w * (y - np.sum(w * y) / w.sum()) ** 2) / w.sum())
    assert variance(y, sample_weight=w) == pytest.approx(expected, rel=1e-9, abs=1e-9)
    one_pass = variance_from_sums(w.sum(), np.dot(w, y), np.dot(w, y * y))
    assert one_pass == pytest.approx(expected, rel=1e-6, abs=1e-6)
    assert variance(y, sample_weight=w) >= 0.0


@PROPS
@given(st.lists(st.integers(0, 3), min_size=1, max_size=40))
def test_gini_is_summed_variance_of_class_indicators(y):
    # Gini(D) = Σ_k p_k (1 - p_k) = Σ_k Var(1[y = k]): the regression link of chapter 1
    y = np.array(y)
    _, counts = class_counts(y)
    summed = sum(variance((y == k).astype(float)) for k in np.unique(y))
    assert gini(counts) == pytest.approx(summed, abs=1e-12)

