"""CHAID (treebook.chaid, treebook.growers.chaid_merge): Kass's multipliers against
brute-force counts (and against the partitions the merge rule can reach), merge sequences
worked by hand (the missing category among them), the tree's structure on a table built
to need each rule, bad input, weights, binning, prediction (missing values included) and
the JSON round trip."""

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest

from treebook.chaid import CHAIDClassifier, root_p_values
from treebook.core.impurity import pearson_chi2
from treebook.growers.chaid_merge import (_pairs, bonferroni_multiplier, merge_categories,
                                          predictor_test, table_test)
from treebook.io.serialize import from_json, to_json


# ------------------------------------------------------------------ multipliers by counting
def _set_partitions(items):
    """Every partition of ``items`` into non-empty blocks (recursively: the first item
    joins a block of a partition of the rest, or stands alone)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]
        yield [[first]] + part


def _contiguous(block):
    return not block or max(block) - min(block) + 1 == len(block)


@pytest.mark.parametrize("c", range(1, 8))
def test_free_multiplier_counts_partitions(c):
    counts = {}
    for p in _set_partitions(list(range(c))):
        counts[len(p)] = counts.get(len(p), 0) + 1
    for r in range(1, c + 1):
        assert bonferroni_multiplier(c, r, "free") == counts[r]


@pytest.mark.parametrize("c", range(1, 8))
def test_monotonic_multiplier_counts_contiguous_partitions(c):
    counts = {}
    for p in _set_partitions(list(range(c))):
        if all(_contiguous(b) for b in p):
            counts[len(p)] = counts.get(len(p), 0) + 1
    for r in range(1, c + 1):
        assert bonferroni_multiplier(c, r, "monotonic") == counts[r]


@pytest.mark.parametrize("c", range(2, 8))
def test_floating_multiplier_counts_partitions_with_a_free_missing_category(c):
    """``c − 1`` ordered categories in contiguous groups, plus one category ``F`` that
    stands alone or joins any one group."""
    F = -1
    counts = {}
    for p in _set_partitions(list(range(c - 1)) + [F]):
        if all(_contiguous([v for v in b if v != F]) for b in p):
            counts[len(p)] = counts.get(len(p), 0) + 1
    for r in range(1, c + 1):
        assert bonferroni_multiplier(c, r, "floating") == counts.get(r, 0)


def _reachable(c, ordinal, floating):
    """Every partition of ``c`` categories the merge rule can reach, by the number of
    groups: from singletons (category 0 the missing one when ``floating``), any sequence
    of merges of pairs ``_pairs`` allows (the rule merge_categories applies)."""
    start = tuple((k,) for k in range(c))
    seen, todo = {}, [(start, floating)]
    while todo:
        groups, fl = todo.pop()
        key = frozenset(frozenset(g) for g in groups)
        if key in seen:
            continue
        seen[key] = len(groups)
        if len(groups) < 2:
            continue
        for a, b in zip(*_pairs(len(groups), ordinal, fl)):
            a, b = int(a), int(b)
            merged = list(groups)
            merged[a] = tuple(sorted(groups[a] + groups[b]))
            del merged[b]
            todo.append((tuple(merged), fl and 0 not in (a, b)))
    counts = {}
    for r in seen.values():
        counts[r] = counts.get(r, 0) + 1
    return counts


@pytest.mark.parametrize("c", range(2, 7))
def test_multipliers_count_the_partitions_the_merge_rule_reaches(c):
    """Kass's multiplier is the number of groupings the merging could have produced: the
    merge rule's own pair choices (nominal: any two; ordinal: neighbours; floating: the
    missing category with any group while alone) reach exactly that many partitions."""
    for kind, ordinal, floating in [("free", False, False), ("monotonic", True, False),
                                    ("floating", True, True)]:
        counts = _reachable(c, ordinal, floating)
        for r in range(1, c + 1):
            assert counts.get(r, 0) == bonferroni_multiplier(c, r, kind), (kind, c, r)


def test_multiplier_small_values_and_kass_formula():
    # S(4, 2) = 7: {a}{bcd} ×4, {ab}{cd} ×3; C(3, 1) = 3 cuts of a row of four
    assert bonferroni_multiplier(4, 2, "free") == 7
    assert bonferroni_multiplier(4, 2, "monotonic") == 3
    # Kass's floating form [(r−1) + r(c−r)] / (c−1) · C(c−1, r−1)
    for c in range(2, 12):
        for r in range(1, c + 1):
            kass = ((r - 1) + r * (c - r)) * math.comb(c - 1, r - 1) / (c - 1)
            assert bonferroni_multiplier(c, r, "floating") == pytest.approx(kass)
    assert bonferroni_multiplier(1000, 500, "free") == math.inf  # beyond a float


@pytest.mark.parametrize("args, match", [
    ((3, 4, "free"), "r must be in"), ((3, 0, "free"), "r must be in"),
    ((0, 1, "free"), "c must be"), ((1, 1, "floating"), "c must be"),
    ((3, 2, "nominal"), "kind must be"),
])
def test_multiplier_bad_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        bonferroni_multiplier(*args)
    with pytest.raises(TypeError, match="c must be an int"):
        bonferroni_multiplier(3.0, 2)


# ------------------------------------------------------------------ a merge worked by hand
def _x2_2x2(a, b, c, d):
    """Pearson's X² of [[a, b], [c, d]]: N (ad − bc)² / ((a+b)(c+d)(a+c)(b+d)), and its
    p-value on 1 df, erfc(sqrt(X²/2))."""
    n = a + b + c + d
    x2 = n * (a * d - b * c) ** 2 / ((a + b) * (c + d) * (a + c) * (b + d))
    return x2, math.erfc(math.sqrt(x2 / 2))


# four categories A, B, C, D (rows) of a two-class target
TABLE = np.array([[10.0, 10.0], [11.0, 9.0], [2.0, 18.0], [18.0, 2.0]])


def test_nominal_merge_sequence_by_hand():
    groups, steps = merge_categories(TABLE, ordinal=False, alpha_merge=0.05)
    # step 1: the six pairs; A–B is the least significant, p = 0.752, merged
    x2_ab, p_ab = _x2_2x2(10, 10, 11, 9)
    assert len(steps) == 1
    assert steps[0].pair == (0, 1) and steps[0].reason == "alpha"
    assert steps[0].statistic == pytest.approx(x2_ab) and steps[0].p_value == pytest.approx(p_ab)
    assert p_ab > 0.05
    # step 2: AB = (21, 19) against C and D, and C against D: all below 0.05, stop
    for pair in [(21, 19, 2, 18), (21, 19, 18, 2), (2, 18, 18, 2)]:
        assert _x2_2x2(*pair)[1] < 0.05
    assert groups == [(0, 1), (2,), (3,)]


def test_ordinal_merge_only_adjacent():
    """Ordered A, C, B, D: A and B are not neighbours, and every adjacent pair differs
    (B–D: X² = 6.14, p = 0.013), so nothing merges."""
    order = [0, 2, 1, 3]
    groups, steps = merge_categories(TABLE[order], ordinal=True, alpha_merge=0.05)
    assert steps == [] and groups == [(0,), (1,), (2,), (3,)]
    x2, p = _x2_2x2(11, 9, 18, 2)
    assert x2 == pytest.approx(6.1442, abs=1e-4) and p < 0.05
    # with alpha_merge below B–D's p-value, B and D (codes 2, 3) merge; then A–C
    # (p = 0.0058) and C–BD still differ at 0.01
    groups, steps = merge_categories(TABLE[order], ordinal=True, alpha_merge=0.01)
    assert len(steps) == 1
    assert steps[0].pair == (2, 3) and steps[0].p_value == pytest.approx(p)
    assert 0.005 < _x2_2x2(10, 10, 2, 18)[1] < 0.01
    assert groups == [(0,), (1,), (2, 3)]


def test_min_samples_leaf_merges_a_small_group_with_its_least_different_partner():
    # D holds 4 cases; at alpha_merge = 0.9 no pair is similar enough to merge
    table = np.array([[10.0, 10.0], [2.0, 18.0], [18.0, 2.0], [4.0, 0.0]])
    groups, steps = merge_categories(table, ordinal=False, alpha_merge=0.9)
    assert steps == [] and groups == [(0,), (1,), (2,), (3,)]
    groups, steps = merge_categories(table, ordinal=False, alpha_merge=0.9,
                                     min_samples_leaf=5)
    # D's pairs by hand: with C p = 0.51, with A p = 0.064, with B p < 0.001: C it is
    p = {k: _x2_2x2(*table[k], 4, 0)[1] for k in (0, 1, 2)}
    assert max(p, key=p.get) == 2 and p[2] == pytest.approx(0.509, abs=1e-3)
    assert [(s.pair, s.reason) for s in steps] == [((2, 3), "min_samples_leaf")]
    assert steps[0].p_value == pytest.approx(p[2])
    assert groups == [(0,), (1,), (2, 3)]


# the missing category: TABLE's four categories A, B, C, D plus the cases missing the
# predictor as the last row (code 4)
def test_nominal_missing_category_merges_like_any_other():
    """Missing cases M = (17, 3), alike D = (18, 2). Step 1 tries the pairs with M first
    (the package's working order); the least significant pair is still A–B (p = 0.752,
    M–D 0.633), so A–B merges first, then M–D; the rest differ at 0.05."""
    table = np.vstack([TABLE, [[17.0, 3.0]]])
    groups, steps = merge_categories(table, ordinal=False, alpha_merge=0.05, missing=True)
    x2_md, p_md = _x2_2x2(17, 3, 18, 2)
    x2_ab, p_ab = _x2_2x2(10, 10, 11, 9)
    assert p_ab > p_md > 0.05
    # the working order puts the missing category first: M, A, B, C, D
    assert steps[0].groups == ((4,), (0,), (1,), (2,), (3,))
    assert steps[0].pair == (1, 2) and steps[0].p_value == pytest.approx(p_ab)
    assert steps[1].groups == ((4,), (0, 1), (2,), (3,))
    assert steps[1].pair == (0, 3) and steps[1].p_value == pytest.approx(p_md)
    assert steps[1].statistic == pytest.approx(x2_md)
    assert len(steps) == 2
    # the output is ordered by the smallest code: the missing category sits with D
    assert groups == [(0, 1), (2,), (3, 4)]
    # without missing=True the last row is an ordinary category, with the same merges
    plain, _ = merge_categories(table, ordinal=False, alpha_merge=0.05)
    assert plain == groups
    t = predictor_test(table, ordinal=False, alpha_merge=0.05, missing=True)
    assert t.n_categories == 5 and t.multiplier == bonferroni_multiplier(5, 3, "free") == 25


def test_ordinal_missing_category_floats():
    """Ordered A < C < B < D (no adjacent pair alike at 0.05, as in
    test_ordinal_merge_only_adjacent) and M alike A = (10, 10): M may join A although
    nothing is adjacent to it; A and B, alike but not neighbours, still may not merge."""
    order = [0, 2, 1, 3]
    table = np.vstack([TABLE[order], [[9.0, 11.0]]])
    groups, steps = merge_categories(table, ordinal=True, alpha_merge=0.05, missing=True)
    assert [s.reason for s in steps] == ["alpha"]
    # working order M, A, C, B, D: adjacent pairs (1,2), (2,3), (3,4), then M with each
    assert steps[0].groups == ((4,), (0,), (1,), (2,), (3,))
    assert steps[0].pair == (1, 0)
    assert steps[0].p_value == pytest.approx(_x2_2x2(10, 10, 9, 11)[1])
    assert groups == [(0, 4), (1,), (2,), (3,)]
    t = predictor_test(table, ordinal=True, alpha_merge=0.05, missing=True)
    assert t.groups == tuple(groups) and t.n_categories == 5
    # C(c−2, r−2) + r·C(c−2, r−1) = C(3, 2) + 4·C(3, 3)
    assert t.multiplier == bonferroni_multiplier(5, 4, "floating") == 3 + 4 * 1
    # merged, the missing category floats no more: A = (17, 3) < B = (2, 18) < C = (18, 2)
    # and M = (18, 2) joins C (p = 1); {C, M} is alike A (p > 0.5) but not its neighbour
    table = np.array([[17.0, 3.0], [2.0, 18.0], [18.0, 2.0], [18.0, 2.0]])
    groups, steps = merge_categories(table, ordinal=True, alpha_merge=0.05, missing=True)
    assert [s.pair for s in steps] == [(3, 0)] and steps[0].p_value == pytest.approx(1.0)
    assert _x2_2x2(36, 4, 17, 3)[1] > 0.5
    assert groups == [(0,), (1,), (2, 3)]
    # as a nominal predictor the same table merges A with {C, M}
    groups, _ = merge_categories(table, ordinal=False, alpha_merge=0.05, missing=True)
    assert groups == [(0, 2, 3), (1,)]
    # with the missing row empty, the predictor is plain ordinal (monotonic multiplier)
    empty = np.vstack([TABLE[order], [[0.0, 0.0]]])
    t = predictor_test(empty, ordinal=True, alpha_merge=0.01, missing=True)
    assert t.groups == ((0,), (1,), (2, 3)) and t.multiplier == bonferroni_multiplier(4, 3, "monotonic")


def test_small_missing_category_joins_its_least_different_group():
    """min_samples_leaf: a missing category of 3 cases, which differs from nothing at
    alpha_merge = 0.9 only because it is small, joins the group most like it — any group,
    for an ordinal predictor (it floats), here the last one."""
    table = np.array([[10.0, 10.0], [2.0, 18.0], [18.0, 2.0], [3.0, 0.0]])
    groups, steps = merge_categories(table, ordinal=True, alpha_merge=0.9, missing=True,
                                     min_samples_leaf=5)
    p = {k: _x2_2x2(*table[k], 3, 0)[1] for k in (0, 1, 2)}
    assert max(p, key=p.get) == 2
    assert [(s.pair, s.reason) for s in steps] == [((3, 0), "min_samples_leaf")]
    assert steps[0].p_value == pytest.approx(p[2])
    assert groups == [(0,), (1,), (2, 3)]


def test_predictor_test_adjusts_by_the_multiplier():
    t = predictor_test(TABLE, ordinal=False, alpha_merge=0.05)
    merged = np.array([[21.0, 19.0], [2.0, 18.0], [18.0, 2.0]])
    # X² of the 3×2 table by the definition Σ (O − E)² / E
    E = merged.sum(1, keepdims=True) * merged.sum(0, keepdims=True) / merged.sum()
    x2 = ((merged - E) ** 2 / E).sum()
    assert t.statistic == pytest.approx(x2) and t.dof == 2
    assert t.p_value == pytest.approx(math.exp(-x2 / 2))  # χ² on 2 df: sf = e^(−x/2)
    assert t.multiplier == 6  # S(4, 3): choose the pair that shares a group
    assert t.adjusted_p_value == pytest.approx(min(1.0, 6 * t.p_value))
    assert predictor_test(TABLE, ordinal=False, alpha_merge=0.05,
                          bonferroni=False).adjusted_p_value == t.p_value
    # one group left: nothing to split
    assert predictor_test([[10.0, 10.0], [11.0, 9.0]], ordinal=False, alpha_merge=0.05) is None


def test_table_test_statistics():
    x2, p = _x2_2x2(21, 19, 2, 18)
    assert table_test([[21, 19], [2, 18]]) == (pytest.approx(x2), 1, pytest.approx(p))
    assert pearson_chi2([[21, 19], [2, 18]]) == pytest.approx(x2)
    O = np.array([[21.0, 19.0], [2.0, 18.0]])
    E = O.sum(1, keepdims=True) * O.sum(0, keepdims=True) / O.sum()
    g = 2 * (O * np.log(O / E)).sum()
    assert table_test(O, "likelihood")[0] == pytest.approx(g)
    # an empty class column adds neither X² nor a degree of freedom
    assert table_test([[21, 19, 0], [2, 18, 0]])[:2] == (pytest.approx(x2), 1)
    assert table_test([[3, 0], [5, 0]]) == (0.0, 0, 1.0)
    with pytest.raises(ValueError, match="statistic must be"):
        table_test(O, "gini")


# ------------------------------------------------------------------ the tree
def _reuse_table():
    """x1 ∈ {A, B, C}, x2 ∈ {P, Q}, built so that CHAID must split the root on x1
    (A and B alike, C apart), the {A, B} branch on x2, and both grandchildren on x1
    again: A and B are alike overall but differ within P and within Q."""
    cells = {("A", "P"): (30, 0), ("B", "P"): (0, 10), ("A", "Q"): (0, 30),
             ("B", "Q"): (30, 20), ("C", "Q"): (0, 60)}
    rows = [(a, b, k) for (a, b), n in cells.items() for k in (0, 1) for _ in range(n[k])]
    X = pd.DataFrame([(a, b) for a, b, _ in rows], columns=["x1", "x2"])
    return X, np.array([k for *_, k in rows])


def test_tree_reuses_a_predictor_below_itself():
    X, y = _reuse_table()
    m = CHAIDClassifier().fit(X, y)
    t = m.tree_
    assert t.feature[0] == 0 and t.n_branches(0) == 2
    # root X²: {A, B} = (60, 60) against C = (0, 60), by hand
    assert m.node_statistic_[0] == pytest.approx(180 * 3600 ** 2 / (120 * 60 * 60 * 120))
    assert m.node_adjusted_p_value_[0] == pytest.approx(3 * m.node_p_value_[0])  # S(3, 2)
    ab = t.children_of(0)[0]
    assert t.feature[ab] == 1  # x2 below x1
    assert m.node_statistic_[ab] == pytest.approx(_x2_2x2(30, 10, 30, 50)[0])
    for g in t.children_of(ab):
        assert t.feature[g] == 0  # x1 again
    assert t.is_leaf[t.children_of(0)[1]]  # C is pure
    assert m.score(X, y) == pytest.approx(1 - 20 / 180)  # (B, Q) holds 30 of one, 20 of the other


def test_alpha_split_and_bonferroni_decide_the_split():
    X, y = _reuse_table()
    p_root = CHAIDClassifier().fit(X, y).node_adjusted_p_value_[0]
    assert CHAIDClassifier(alpha_split=p_root).fit(X, y).tree_.node_count == 1
    assert CHAIDClassifier(alpha_split=np.nextafter(p_root, 1)).fit(X, y).tree_.node_count > 1
    assert CHAIDClassifier(max_depth=0).fit(X, y).tree_.node_count == 1
    assert CHAIDClassifier(max_depth=1).fit(X, y).get_depth() == 1


def test_root_p_values_table():
    X, y = _reuse_table()
    table = root_p_values(X, y)
    assert list(table.index) == ["x1", "x2"]
    assert table.loc["x1", "chosen"] and not table.loc["x2", "chosen"]
    assert table.loc["x1", "groups"] == (("A", "B"), ("C",))
    assert table.loc["x2", "multiplier"] == 1  # two categories, two groups
    x2, p = _x2_2x2(30, 10, 30, 110)
    assert table.loc["x2", "statistic"] == pytest.approx(x2)
    assert table.loc["x2", "adjusted_p_value"] == pytest.approx(p, rel=1e-6)
    with pytest.raises(TypeError, match="max_depth"):
        root_p_values(X, y, max_depth=2)


def test_likelihood_criterion_uses_g():
    X, y = _reuse_table()
    m = CHAIDClassifier(criterion="likelihood").fit(X, y)
    O = np.array([[60.0, 60.0], [0.0, 60.0]])
    E = O.sum(1, keepdims=True) * O.sum(0, keepdims=True) / O.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        g = 2 * np.nansum(np.where(O > 0, O * np.log(O / E), 0.0))
    assert m.node_statistic_[0] == pytest.approx(g)


def test_ordinal_parameter_and_ordered_categoricals():
    X, y = _reuse_table()
    assert CHAIDClassifier().fit(X, y).ordinal_.tolist() == [False, False]
    assert CHAIDClassifier(ordinal=["x1"]).fit(X, y).ordinal_.tolist() == [True, False]
    assert CHAIDClassifier(ordinal=[1]).fit(X, y).ordinal_.tolist() == [False, True]
    Xo = X.assign(x1=pd.Categorical(X["x1"], categories=["A", "C", "B"], ordered=True))
    m = CHAIDClassifier().fit(Xo, y)
    assert m.ordinal_.tolist() == [True, False]
    # ordered A < C < B: A and B are not neighbours, so they cannot merge at the root
    assert m.root_table().loc["x1", "multiplier"] == math.comb(2, m.root_n_groups_[0] - 1)
    assert m.root_n_groups_[0] == 3


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("params, kind, name", [
    (dict(alpha_merge=0.0), ValueError, "alpha_merge"),
    (dict(alpha_merge=1.5), ValueError, "alpha_merge"),
    (dict(alpha_split=-0.1), ValueError, "alpha_split"),
    (dict(alpha_split="0.05"), TypeError, "alpha_split"),
    (dict(max_depth=-1), ValueError, "max_depth"),
    (dict(min_samples_split=1), ValueError, "min_samples_split"),
    (dict(min_samples_leaf=0), ValueError, "min_samples_leaf"),
    (dict(criterion="gini"), ValueError, "criterion"),
    (dict(bonferroni="yes"), ValueError, "bonferroni"),
    (dict(max_bins=1), ValueError, "max_bins"),
    (dict(ordinal="x1"), TypeError, "ordinal"),
    (dict(ordinal=["nope"]), ValueError, "ordinal"),
    (dict(ordinal=[5]), ValueError, "ordinal"),
])
def test_bad_parameters_name_the_argument(params, kind, name):
    X, y = _reuse_table()
    with pytest.raises(kind, match=name):
        CHAIDClassifier(**params).fit(X, y)


def test_a_column_with_only_missing_values_is_refused():
    X, y = _reuse_table()
    X["x3"] = None
    with pytest.raises(ValueError, match="'x3' has only missing values"):
        CHAIDClassifier().fit(X, y)


# ------------------------------------------------------------------ weights
def test_integer_weights_are_copies_of_rows():
    rng = np.random.default_rng(5)
    X = pd.DataFrame({"a": rng.choice(list("pqrs"), 300), "b": rng.normal(size=300)})
    y = ((X["a"].isin(["p", "q"])) ^ (X["b"] > 0.5) ^ (rng.random(300) < 0.2)).astype(int)
    w = rng.integers(0, 4, 300)
    weighted = CHAIDClassifier(max_bins=5).fit(X, y, sample_weight=w)
    rep = np.repeat(np.arange(300), w)
    copied = CHAIDClassifier(max_bins=5).fit(X.iloc[rep], y.iloc[rep])
    assert weighted.export_text() == copied.export_text()
    np.testing.assert_allclose(weighted.node_p_value_, copied.node_p_value_, rtol=1e-12)
    # weights count cases: doubling every weight doubles X² (a two-category column,
    # where no merging can differ) and makes the test more significant
    X["c"] = np.where(y.to_numpy() ^ (rng.random(300) < 0.3), "u", "v")
    doubled = CHAIDClassifier(max_depth=0).fit(X, y, sample_weight=2.0 * w)
    once = CHAIDClassifier(max_depth=0).fit(X, y, sample_weight=w)
    assert once.root_n_groups_[2] == 2
    assert doubled.root_statistic_[2] == pytest.approx(2 * once.root_statistic_[2])
    assert doubled.root_p_value_[2] < once.root_p_value_[2]


# ------------------------------------------------------------------ numeric columns, predict
def test_numeric_columns_are_binned_by_equal_frequency():
    rng = np.random.default_rng(2)
    x = rng.normal(size=1000)
    y = (x + rng.normal(scale=0.5, size=1000) > 0).astype(int)
    m = CHAIDClassifier().fit(x[:, None], y)
    edges = m.bin_edges_[0]
    assert edges.size == 9 and m.ordinal_.tolist() == [True]
    counts = np.bincount(np.searchsorted(edges, x, side="left"), minlength=10)
    assert counts.min() >= 95 and counts.max() <= 105  # about N / 10 each
    labels = m.tree_.categories[0]
    assert labels[0] == f"≤ {edges[0]:.6g}" and labels[-1] == f"> {edges[-1]:.6g}"
    # values beyond the training range fall in the end bins
    far = m.predict_proba(np.array([[-50.0], [50.0]]))
    np.testing.assert_array_equal(far[0], m.predict_proba(np.array([[x.min()]]))[0])
    np.testing.assert_array_equal(far[1], m.predict_proba(np.array([[x.max()]]))[0])
    # few distinct values: one bin each
    m = CHAIDClassifier().fit(np.array([[1.0], [2.0], [3.0]] * 20), [0, 1, 1] * 20)
    assert m.bin_edges_[0].tolist() == [1.5, 2.5]


def test_unseen_category_stops_at_the_node():
    X, y = _reuse_table()
    m = CHAIDClassifier().fit(X, y)
    with pytest.warns(UserWarning):
        proba = m.predict_proba(pd.DataFrame({"x1": ["Z"], "x2": ["P"]}))
    root = m.tree_.value[0] / m.tree_.value[0].sum()
    np.testing.assert_allclose(proba[0], root)


def test_json_round_trip_rules_and_drawing():
    rng = np.random.default_rng(8)
    X = pd.DataFrame({"a": rng.choice(list("pqrs"), 400), "b": rng.normal(size=400),
                      "c": pd.Categorical(rng.integers(0, 4, 400), ordered=True)})
    y = np.where(X["a"].isin(["p"]) | (X["b"] > 1) | (X["c"] == 3), "yes", "no")
    m = CHAIDClassifier(min_samples_leaf=10).fit(X, y)
    assert m.tree_.node_count > 3
    loaded = from_json(to_json(m))
    assert type(loaded) is CHAIDClassifier
    np.testing.assert_array_equal(loaded.predict_proba(X), m.predict_proba(X))
    assert loaded.export_text() == m.export_text()
    assert loaded.to_rules() == m.to_rules()
    np.testing.assert_array_equal(loaded.node_adjusted_p_value_, m.node_adjusted_p_value_)
    assert loaded.root_table().equals(m.root_table())
    assert m.to_graphviz().source.count("->") == m.tree_.node_count - 1
    # every leaf holds at least min_samples_leaf cases
    assert m.tree_.weighted_n[m.tree_.is_leaf].min() >= 10
    doc = json.loads(to_json(m))
    doc["fitted"]["bin_edges_"]["items"][1]["data"] = [1.0, 0.5]
    from treebook.core.tree_validation import MalformedModelError

    with pytest.raises(MalformedModelError, match="bin_edges_"):
        from_json(json.dumps(doc))


# ------------------------------------------------------------------ missing values in fit and predict
def _with_missing(seed=11, n=900):
    """A nominal ``a`` and a numeric ``b``, missing at random, and an ordered ``c`` whose
    top level is missing more often than the others; seeded."""
    rng = np.random.default_rng(seed)
    a = rng.choice(list("pqrs"), n).astype(object)
    b = rng.normal(size=n)
    c = rng.integers(0, 4, n)
    score = np.isin(a, ["p", "q"]) * 1.0 + (b > 0.5) + (c == 3) + rng.normal(scale=0.5, size=n)
    y = (score > 1).astype(int)
    a[(rng.random(n) < 0.15)] = None
    b[rng.random(n) < 0.1] = np.nan
    X = pd.DataFrame({"a": a, "b": b,
                      "c": pd.Categorical(c, categories=range(4), ordered=True)})
    X.loc[rng.random(n) < np.where(c == 3, 0.3, 0.05), "c"] = np.nan
    return X, y


def test_missing_cases_go_where_their_category_merged():
    X, y = _with_missing()
    m = CHAIDClassifier(max_depth=2).fit(X, y)
    t = m.tree_
    assert m.__sklearn_tags__().input_tags.allow_nan
    assert m.ordinal_.tolist() == [False, True, True]
    # the rows of every child: the codes of its group, and the missing rows where the
    # missing category merged (missing_go)
    f = int(t.feature[0])
    Xe = m._encode(X)
    end = m.decision_path(X).tocsc()
    miss = np.isnan(Xe[:, f])
    assert miss.sum() > 50
    for b, child in enumerate(t.children_of(0)):
        codes = np.flatnonzero(t.codes_of(0) == b)
        expect = np.isin(Xe[:, f], codes) | (miss & (t.missing_go[0] == b))
        assert np.array_equal(np.sort(end[:, child].nonzero()[0]), np.flatnonzero(expect))
    # root_table names the missing category where it merged
    table = m.root_table()
    name = X.columns[f]
    group = next(g for g in table.loc[name, "groups"] if "<missing>" in g)
    assert t.missing_go[0] == list(table.loc[name, "groups"]).index(group)
    # multipliers: b's (binned) and c's floating, a's free, each counting the missing one
    assert table.loc["c", "multiplier"] == bonferroni_multiplier(
        5, int(table.loc["c", "n_groups"]), "floating")
    c, r = m.bin_edges_[1].size + 2, int(table.loc["b", "n_groups"])
    assert table.loc["b", "multiplier"] == bonferroni_multiplier(c, r, "floating")
    assert table.loc["a", "multiplier"] == bonferroni_multiplier(5, int(table.loc["a", "n_groups"]))
    # the bins are those of the known values: NaN takes no part in the edges
    known = CHAIDClassifier(max_depth=0).fit(X[["b"]].dropna(), y[X["b"].notna().to_numpy()])
    np.testing.assert_array_equal(m.bin_edges_[1], known.bin_edges_[0])
    # prediction: a new case missing the root's variable follows the missing group
    one = X.iloc[[0]].copy()
    one.iloc[0, f] = np.nan
    path = m.decision_path(one).nonzero()[1]
    assert path[1] == t.children_of(0)[t.missing_go[0]]
    # the drawing and the rules name the missing category where it goes
    assert "<missing>" in m.export_text() and "<missing>" in str(m.to_rules())


def test_a_case_missing_where_training_had_none_follows_the_largest_branch():
    X, y = _reuse_table()  # no missing value: x1 at the root, {A, B} (120 cases) and C (60)
    m = CHAIDClassifier().fit(X, y)
    t = m.tree_
    big = int(np.argmax(t.weighted_n[t.children_of(0)]))
    assert t.missing_go[0] == big == 0
    # below {A, B}: x2 splits P (40 cases) and Q (80)
    ab = t.children_of(0)[0]
    assert t.weighted_n[t.children_of(ab)].tolist() == [40, 80] and t.missing_go[ab] == 1
    Xm = pd.DataFrame({"x1": [None, None, "C"], "x2": ["P", None, None]})
    end = m.apply(Xm)
    p, q = t.children_of(ab)
    # under P, x1 again: A (30 cases) and B (10); under Q, A (30) and B (50)
    assert t.weighted_n[t.children_of(p)].tolist() == [30, 10]
    assert t.weighted_n[t.children_of(q)].tolist() == [30, 50]
    assert end[0] == t.children_of(p)[0]  # x1 missing: {A, B}; x2 = P; then A
    assert end[1] == t.children_of(q)[1]  # both missing: {A, B}; Q; then B
    assert end[2] == t.children_of(0)[1]  # C is a leaf
    # the tree without missing values names no missing category in its drawing
    assert "<missing>" not in m.export_text()
    # ties go to the first branch
    m = CHAIDClassifier().fit(pd.DataFrame({"a": ["p", "q"] * 10}), [0, 1] * 10)
    assert m.tree_.missing_go[0] == 0 and m.predict(pd.DataFrame({"a": [None]}))[0] == 0
    # an unseen category still stops at the node
    with pytest.warns(UserWarning):
        assert m.apply(pd.DataFrame({"a": ["z"]}))[0] == 0


def test_nominal_missing_category_is_an_ordinary_category():
    """For a nominal predictor, NaN gives the tree a category of its own: the same tests
    and predictions as the label "~" in its place (no ties in this data)."""
    X, y = _with_missing(seed=4)
    X = X[["a"]].assign(d=np.random.default_rng(9).choice(list("uvw"), len(X)))
    labelled = X.assign(a=X["a"].fillna("~"))
    m = CHAIDClassifier(alpha_merge=0.2).fit(X, y)
    k = CHAIDClassifier(alpha_merge=0.2).fit(labelled, y)
    assert m.tree_.node_count == k.tree_.node_count > 3
    np.testing.assert_allclose(m.node_p_value_, k.node_p_value_, rtol=1e-12)
    np.testing.assert_allclose(m.node_adjusted_p_value_, k.node_adjusted_p_value_, rtol=1e-12)
    np.testing.assert_array_equal(m.predict_proba(X), k.predict_proba(labelled))
    groups = {frozenset(g) for g in m.root_table().loc["a", "groups"]}
    assert groups == {frozenset("<missing>" if v == "~" else v for v in g)
                      for g in k.root_table().loc["a", "groups"]}


def test_integer_weights_are_copies_of_rows_with_missing_values():
    X, y = _with_missing(seed=6, n=400)
    w = np.random.default_rng(1).integers(0, 4, len(X))
    weighted = CHAIDClassifier(max_bins=5).fit(X, y, sample_weight=w)
    rep = np.repeat(np.arange(len(X)), w)
    copied = CHAIDClassifier(max_bins=5).fit(X.iloc[rep], y[rep])
    assert weighted.export_text() == copied.export_text()
    np.testing.assert_array_equal(weighted.tree_.missing_go, copied.tree_.missing_go)
    np.testing.assert_allclose(weighted.node_p_value_, copied.node_p_value_, rtol=1e-12)


def test_json_round_trip_keeps_the_missing_value_rule():
    X, y = _with_missing()
    m = CHAIDClassifier(min_samples_leaf=10).fit(X, y)
    assert (m.tree_.missing_go >= 2).any()  # a multiway rule beyond CART's 0 / 1
    loaded = from_json(to_json(m))
    np.testing.assert_array_equal(loaded.tree_.missing_go, m.tree_.missing_go)
    Xn = X.copy()
    Xn.loc[:40, ["a", "b", "c"]] = np.nan  # every value missing in some rows
    np.testing.assert_array_equal(loaded.predict_proba(Xn), m.predict_proba(Xn))
    assert loaded.export_text() == m.export_text()
    assert loaded.root_table().equals(m.root_table())
    # a rule naming a branch the node lacks is refused on loading
    doc = json.loads(to_json(m))
    go = doc["fitted"]["tree_"]["missing_rule"]["missing_go"]
    go[0] = m.tree_.n_branches(0)
    from treebook.core.tree_validation import MalformedModelError

    with pytest.raises(MalformedModelError, match="missing_go"):
        from_json(json.dumps(doc))
    go[0] = "0"
    with pytest.raises(MalformedModelError, match="missing_go"):
        from_json(json.dumps(doc))


# ------------------------------------------------------------------ Kass's step 3
# three categories a, b, c of a two-class target, class shares 0.25, 0.43, 0.60
STEP3 = np.array([[5.0, 15.0], [15.0, 20.0], [15.0, 10.0]])


def test_step3_resplits_a_merged_group_by_hand():
    """Pearson X² of a 2 × 2 table [[a, b], [c, d]] is N (ad − bc)² / (r₁ r₂ c₁ c₂).

    Step 2 (merging, alpha_merge = 0.05):
      a–b  [[5, 15], [15, 20]]: 55 · 125² / (20 · 35 · 20 · 35) = 1.754, p = 0.185
      a–c  [[5, 15], [15, 10]]: 45 · 175² / (20 · 25 · 20 · 25) = 5.513, p = 0.019
      b–c  [[15, 20], [15, 10]]: 60 · 150² / (35 · 25 · 30 · 30) = 1.714, p = 0.190
      → b–c is the least significant (p ≥ 0.05): merged into bc = (30, 30);
      a–bc [[5, 15], [30, 30]]: 80 · 300² / (20 · 60 · 35 · 45) = 3.810, p = 0.0510 ≥ 0.05
      → merged: one group {a, b, c}, and without step 3 the predictor cannot split.
    Step 3 (the group has three categories; its three binary splits):
      {a} | {b, c}: 3.810, p = 0.0510 (the merge just made)
      {b} | {a, c}  [[15, 20], [20, 25]]: 80 · 25² / (35 · 45 · 35 · 45) = 0.020
      {a, b} | {c}  [[20, 35], [15, 10]]: 80 · 325² / (55 · 25 · 35 · 45) = 3.902, p = 0.0482
      → the most significant, p < 0.05: split into {a, b} and {c}.
    Step 2 again: the only pair, ab–c, has p = 0.0482 < 0.05: nothing merges; stop.
    The greedy merge path joined b with c first and never compared {a, b} with {c}.
    """
    plain, _ = merge_categories(STEP3, ordinal=False, alpha_merge=0.05)
    assert plain == [(0, 1, 2)]
    groups, steps = merge_categories(STEP3, ordinal=False, alpha_merge=0.05, split_merged=True)
    assert groups == [(0, 1), (2,)]
    assert [s.reason for s in steps] == ["alpha", "alpha", "split"]
    assert steps[0].pair == (1, 2)  # b–c, in the working order a, b, c
    assert steps[0].statistic == pytest.approx(60 * 150 ** 2 / (35 * 25 * 30 * 30))
    assert steps[1].statistic == pytest.approx(80 * 300 ** 2 / (20 * 60 * 35 * 45))
    assert 0.05 <= steps[1].p_value < 0.052
    split = steps[2]
    assert split.pair == ((0, 1), (2,))
    assert split.statistic == pytest.approx(80 * 325 ** 2 / (55 * 25 * 35 * 45))
    assert split.p_value == pytest.approx(_x2_2x2(20, 35, 15, 10)[1])
    assert 0.048 < split.p_value < 0.05
    # the learner: the predictor that could not split the root now splits it in two
    X = pd.DataFrame({"v": np.repeat(list("abc"), STEP3.sum(axis=1).astype(int))})
    y = np.concatenate([np.repeat([0, 1], row.astype(int)) for row in STEP3])
    # (Kass's multiplier for 3 categories in 2 groups is S(3, 2) = 3: adjusted p = 0.145,
    # so alpha_split = 0.2 lets the split through)
    assert CHAIDClassifier(alpha_split=0.2).fit(X, y).tree_.node_count == 1
    model = CHAIDClassifier(alpha_split=0.2, split_merged=True).fit(X, y)
    assert model.root_groups_[0] == ((0, 1), (2,))
    assert model.root_adjusted_p_value_[0] == pytest.approx(3 * split.p_value)
    assert model.tree_.node_count == 3


def test_step3_ordinal_cuts_only_between_neighbours():
    """Ordered a < c < b (codes 0, 1, 2): only the cuts {a} | {c, b} and {a, c} | {b}."""
    from treebook.growers.chaid_merge import _binary_splits
    assert _binary_splits((0, 1, 2), STEP3, True, None) == [((0,), (1, 2)), ((0, 1), (2,))]
    # with the missing category (code 3) in the group: either side of each cut, or alone
    t = np.vstack([STEP3, [[1.0, 1.0]]])
    assert _binary_splits((0, 1, 3), t, True, 3) == [((0, 3), (1,)), ((0,), (1, 3)),
                                                      ((0, 1), (3,))]
    # nominal with three classes: all 2^(m−1) − 1 = 3 splits
    t3 = np.array([[1.0, 2, 3], [3, 2, 1], [2, 2, 2]])
    assert len(_binary_splits((0, 1, 2), t3, False, None)) == 3


def test_step3_is_off_by_default_and_a_parameter():
    assert CHAIDClassifier().get_params()["split_merged"] is False
    with pytest.raises((TypeError, ValueError), match="split_merged"):
        CHAIDClassifier(split_merged="yes").fit(pd.DataFrame({"v": list("ab")}), [0, 1])


def _valid_partition(groups, present, ordinal, missing_code):
    flat = sorted(c for g in groups for c in g)
    assert flat == sorted(present)                       # every category, once
    assert all(len(g) > 0 for g in groups)
    if ordinal:                                          # groups are runs of neighbours
        rank = {c: k for k, c in enumerate(c for c in sorted(present) if c != missing_code)}
        for g in groups:
            r = sorted(rank[c] for c in g if c != missing_code)
            assert not r or r[-1] - r[0] + 1 == len(r)


def _random_table(seed):
    rng = np.random.default_rng(seed)
    L, K = int(rng.integers(3, 8)), int(rng.integers(2, 4))
    table = rng.integers(0, 30, size=(L, K)).astype(float)
    table[rng.random(L) < 0.15] = 0                      # some categories absent
    return table, float(rng.choice([0.05, 0.2, 0.5]))


def _step3_table(seed):
    """STEP3's three categories (where step 3 acts) among up to three others far from
    them, in a random order, class columns maybe swapped: a table where it acts again."""
    rng = np.random.default_rng(seed)
    far = np.array([[0.0, 30.0], [30.0, 0.0], [1.0, 40.0]])[: int(rng.integers(0, 4))]
    table = np.vstack([STEP3, far])
    if rng.random() < 0.5:
        table = table[:, ::-1]
    return table[rng.permutation(len(table))], 0.05


def _stopped_at_a_repeat(groups, steps):
    return any(s.reason == "split" and frozenset(s.groups) == frozenset(groups) for s in steps)


@pytest.mark.parametrize("make,seed", [(_random_table, s) for s in range(80)]
                         + [(_step3_table, s) for s in range(40)])
def test_step3_still_gives_a_valid_partition(make, seed):
    """Property (random tables, nominal and ordinal, with and without the missing
    category, some categories empty; and STEP3 among other categories, where step 3
    acts): with ``split_merged=True`` the groups are still a partition of the present
    categories, into runs of neighbours for an ordinal predictor (the missing category
    excepted); unless the loop stopped at a repeated partition, every pair of groups that
    may merge differs at alpha_merge and no group of three or more has a binary split
    significant at alpha_merge."""
    from treebook.growers.chaid_merge import _binary_splits
    table, alpha = make(seed)
    L = table.shape[0]
    present = [int(c) for c in np.flatnonzero(table.sum(axis=1) > 0)]
    for ordinal in (False, True):
        for missing in (False, True):
            groups, steps = merge_categories(table, ordinal=ordinal, alpha_merge=alpha,
                                             missing=missing, split_merged=True)
            mcode = L - 1 if missing else None
            _valid_partition(groups, present, ordinal, mcode)
            if make is _step3_table and not ordinal and not missing:
                assert any(s.reason == "split" for s in steps)   # step 3 did act
            if _stopped_at_a_repeat(groups, steps) or len(groups) < 2:
                continue
            rows = np.stack([table[list(g)].sum(axis=0) for g in groups])
            if not (ordinal and missing and mcode in present):  # floating: other pairs
                for i, j in itertools.combinations(range(len(groups)), 2):
                    if ordinal and j != i + 1:
                        continue
                    assert table_test(rows[[i, j]])[2] < alpha
            for g in groups:
                if len(g) >= 3:
                    ps = [table_test(np.stack([table[list(a)].sum(0),
                                               table[list(b)].sum(0)]))[2]
                          for a, b in _binary_splits(g, table, ordinal, mcode)]
                    assert min(ps) >= alpha
