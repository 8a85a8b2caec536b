"""C4.5: split measures with unknown values, thresholds and MDL, the choice of test,
fractional cases, the iris tree of Weka's J48, and bad input.

Published numbers and their sources:

* golf data, test on outlook: gain 0.246, split information 1.577, gain ratio 0.156
  (Quinlan 1993, ch. 2); with the outlook of the 12th case unknown: gain 0.199, split
  information 1.809 (Quinlan 1993, ch. 3), and the tree printed there with leaves
  Play (3.2), Don't Play (3.4/0.4), Don't Play (2.4/0.4).
* iris, J48 with default options (-C 0.25 -M 2): the pruned tree printed by Weka,
  petalwidth <= 0.6: Iris-setosa (50.0); petalwidth <= 1.7 / petallength <= 4.9:
  Iris-versicolor (48.0/1.0); petalwidth <= 1.5: Iris-virginica (3.0); > 1.5:
  Iris-versicolor (3.0/1.0); petalwidth > 1.7: Iris-virginica (46.0/1.0);
  "Number of Leaves: 5, Size of the tree: 9".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treebook import C45Classifier, entropy, information_gain, split_information
from treebook.growers.c45_search import c45_gain, c45_gain_ratio, c45_split_information, categorical_candidate, min_split_weight, numeric_candidate
from treebook.c45 import candidate_table, collapse
from treebook.datasets import load_golf
from treebook.core.tree import NodeKind


def H(*counts):
    """Entropy in bits by hand (numpy one-liner), for the hand computations below."""
    p = np.array(counts, float) / np.sum(counts)
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


@pytest.fixture(scope="module")
def golf():
    return load_golf(return_X_y=True)


@pytest.fixture(scope="module")
def golf_unknown(golf):
    X, y = golf
    X = X.copy()
    X.loc[11, "outlook"] = None   # Quinlan's example: case 12 (overcast, 72, 90, true)
    return X, y


# ----------------------------------------------------------------------------- measures
def test_outlook_gain_split_info_ratio_against_hand_and_quinlan(golf):
    X, y = golf
    table = pd.crosstab(X["outlook"], y).to_numpy(float)   # rows overcast, rain, sunny
    hand_gain = H(9, 5) - (4 / 14 * H(4, 0) + 5 / 14 * H(3, 2) + 5 / 14 * H(2, 3))
    hand_iv = H(4, 5, 5)
    assert c45_gain(table) == pytest.approx(hand_gain, abs=1e-12)
    assert c45_split_information(table) == pytest.approx(hand_iv, abs=1e-12)
    assert c45_gain_ratio(table) == pytest.approx(hand_gain / hand_iv, abs=1e-12)
    # Quinlan (1993), ch. 2. He rounds along the way (0.940 - 0.694 = 0.246; the exact
    # gain is 0.2467), hence a tolerance of 1e-3 on the gain, 5e-4 on the others
    assert abs(c45_gain(table) - 0.246) < 1e-3
    assert abs(c45_split_information(table) - 1.577) < 5e-4
    assert abs(c45_gain_ratio(table) - 0.156) < 5e-4


def test_unknown_values_scale_gain_and_add_a_branch_to_split_info(golf_unknown):
    X, y = golf_unknown
    known = X["outlook"].notna()
    table = pd.crosstab(X.loc[known, "outlook"], y[known]).to_numpy(float)
    missing = np.array([0.0, 1.0])              # the unknown case played
    hand_gain = 13 / 14 * (H(8, 5) - (3 / 13 * H(3, 0) + 5 / 13 * H(3, 2) + 5 / 13 * H(2, 3)))
    hand_iv = H(3, 5, 5, 1)
    assert c45_gain(table, missing) == pytest.approx(hand_gain, abs=1e-12)
    assert c45_split_information(table, missing) == pytest.approx(hand_iv, abs=1e-12)
    # the known-fraction form is information_gain on the known cases times F
    assert c45_gain(table, missing) == pytest.approx(13 / 14 * information_gain(table), abs=1e-12)
    assert c45_split_information(table, missing) == pytest.approx(
        split_information(np.vstack([table, missing])), abs=1e-12)
    # Quinlan (1993), ch. 3: gain 0.199 bits, split information 1.809 bits
    assert abs(c45_gain(table, missing) - 0.199) < 1e-3
    assert abs(c45_split_information(table, missing) - 1.809) < 5e-4
    frame = candidate_table(X, y)
    assert frame.loc["outlook", "gain"] == pytest.approx(hand_gain, abs=1e-12)
    assert frame.loc["outlook", "chosen"]


def test_measures_reject_a_zero_total():
    with pytest.raises(ValueError, match="zero total"):
        c45_gain(np.zeros((2, 2)), np.zeros(2))
    assert c45_gain(np.zeros((2, 2)), np.array([1.0, 2.0])) == 0.0   # nothing known


# ----------------------------------------------------------------------------- numbers
def test_min_split_weight_is_clipped_to_m_and_25():
    assert min_split_weight(14, 2, 2) == 2            # 0.1*14/2 = 0.7 -> M
    assert min_split_weight(150, 3, 2) == pytest.approx(5.0)
    assert min_split_weight(10_000, 2, 2) == 25       # capped
    assert min_split_weight(30, 2, 1) == pytest.approx(1.5)


def test_golf_thresholds_and_mdl_by_hand(golf):
    X, y = golf
    yc = (y == "Play").to_numpy().astype(int)
    w = np.ones(14)
    t = numeric_candidate(X["temperature"].to_numpy(float), yc, w, feature=1, n_classes=2,
                          min_samples_leaf=2)
    # best cut between 70 and 71: <= 70 holds 4 Play, 1 Don't Play
    hand = H(9, 5) - (5 / 14 * H(4, 1) + 9 / 14 * H(5, 4))
    assert t.raw_gain == pytest.approx(hand, abs=1e-12)
    assert t.midpoint == 70.5 and t.threshold == 70.0
    # 12 distinct temperatures, 11 gaps; the first and the last leave a single case on
    # one side (fewer than minSplit = 2), so 9 cuts are admissible
    assert np.unique(X["temperature"]).size == 12 and t.n_cuts == 9
    assert t.penalty == pytest.approx(np.log2(9) / 14, abs=1e-15)
    assert t.gain == pytest.approx(hand - np.log2(9) / 14, abs=1e-12)
    assert not t.admissible                           # the MDL charge exceeds the gain
    h = numeric_candidate(X["humidity"].to_numpy(float), yc, w, feature=2, n_classes=2,
                          min_samples_leaf=2)
    hand_h = H(9, 5) - (9 / 14 * H(7, 2) + 5 / 14 * H(2, 3))   # <= 80 vs > 80
    assert h.raw_gain == pytest.approx(hand_h, abs=1e-12)
    assert (h.midpoint, h.threshold, h.n_cuts) == (82.5, 80.0, 6)
    assert h.gain == pytest.approx(hand_h - np.log2(6) / 14, abs=1e-12) and not h.admissible
    off = numeric_candidate(X["humidity"].to_numpy(float), yc, w, feature=2, n_classes=2,
                            min_samples_leaf=2, mdl_correction=False)
    assert off.gain == off.raw_gain == pytest.approx(hand_h) and off.admissible


def test_threshold_is_the_largest_training_value_not_above_the_midpoint():
    # the node x = 1 vs x = 10 is cut at midpoint 5.5; elsewhere in the training set the
    # value 4 occurs, so C4.5 reports 4 (GreatestValueBelow scans all training cases)
    x = np.array([1, 1, 1, 10, 10, 10], float)
    y = np.array([0, 0, 0, 1, 1, 1])
    c = numeric_candidate(x, y, np.ones(6), feature=0, n_classes=2, min_samples_leaf=2,
                          training_values=np.array([1.0, 4.0, 7.0, 10.0]))
    assert c.midpoint == 5.5 and c.threshold == 4.0
    # through the estimator: the first split isolates the branch where the cut is made
    X = pd.DataFrame({"g": ["a"] * 6 + ["b"] * 6,
                      "x": [1, 1, 1, 10, 10, 10, 4, 4, 4, 7, 7, 7]})
    yy = ["n", "n", "n", "p", "p", "p"] + ["q"] * 6   # g: ratio 1.0 beats x's 0.84
    clf = C45Classifier(pruning=None).fit(X, yy)
    t = clf.tree_
    thr = t.threshold[t.kind == NodeKind.THRESHOLD]
    assert t.kind[0] == NodeKind.MULTIWAY and list(thr) == [4.0]


def test_cuts_closer_than_1e5_are_not_cuts():
    x = np.array([0.0, 0.0, 0.000001, 0.000001])
    y = np.array([0, 0, 1, 1])
    assert numeric_candidate(x, y, np.ones(4), feature=0, n_classes=2,
                             min_samples_leaf=1) is None


def test_a_numeric_attribute_can_be_split_again_below():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    tree = C45Classifier().fit(X, y).tree_
    leaf = tree.leaves_below(0)[3]   # the deepest leaf: petal width tested three times
    path = []
    node = leaf
    while tree.parent[node] >= 0:
        node = tree.parent[node]
        path.append(int(tree.feature[node]))
    assert path.count(3) == 3


# ----------------------------------------------------------------------------- categories
def test_categorical_needs_two_branches_with_m_cases():
    codes = np.array([0, 0, 0, 1, 2], float)
    y = np.array([0, 0, 0, 1, 1])
    c = categorical_candidate(codes, y, np.ones(5), feature=0, n_categories=3, n_classes=2,
                              min_samples_leaf=2)
    assert not c.admissible            # branches of 3, 1 and 1 cases
    c1 = categorical_candidate(codes, y, np.ones(5), feature=0, n_categories=3, n_classes=2,
                               min_samples_leaf=1)
    assert c1.admissible
    # the whole estimator then makes no split at all
    X = pd.DataFrame({"a": ["p", "p", "p", "q", "r"]})
    assert C45Classifier(pruning=None).fit(X, y).tree_.node_count == 1
    assert C45Classifier(pruning=None, min_samples_leaf=1).fit(X, y).tree_.node_count == 4


def test_average_gain_filter_keeps_a_tiny_split_from_winning(golf):
    X, y = golf
    X = X.assign(hot=np.where(X["temperature"] >= 85, "yes", "no"))[["outlook", "windy", "hot"]]
    # "hot" isolates one day: gain ratio 0.305 beats outlook's 0.156 …
    frame = candidate_table(X, y, min_samples_leaf=1)
    assert frame["gain_ratio"].idxmax() == "hot"
    # … but its gain is below the average, so outlook is chosen
    assert frame.attrs["average_gain"] == pytest.approx(frame["gain"].mean())
    assert not frame.loc["hot", "eligible"] and frame.loc["outlook", "chosen"]


def test_many_valued_attributes_do_not_count_in_the_average(golf):
    X, y = golf
    X = X.assign(day=[f"d{i}" for i in range(14)])     # 14 values >= 0.3 * 14
    frame = candidate_table(X[["outlook", "windy", "day"]], y, min_samples_leaf=1)
    assert frame.loc["day", "admissible"]
    assert frame.attrs["average_gain"] == pytest.approx(
        frame.loc[["outlook", "windy"], "gain"].mean())
    # alone, every attribute being many-valued, it counts (release 8's MultiVal)
    only = candidate_table(X[["day"]], y, min_samples_leaf=1)
    assert only.attrs["average_gain"] == pytest.approx(only.loc["day", "gain"])


def test_no_split_when_only_many_valued_attributes_are_admissible(golf):
    # "const" is not many-valued (1 value) but has no admissible test; "day" is, so the
    # average has nothing to average: C4.5 and J48 make no split
    X = pd.DataFrame({"day": [f"d{i}" for i in range(14)], "const": ["c"] * 14})
    frame = candidate_table(X, golf[1], min_samples_leaf=1)
    assert frame.loc["day", "admissible"] and not frame["chosen"].any()
    assert C45Classifier(min_samples_leaf=1).fit(X, golf[1]).tree_.node_count == 1


def test_ties_go_to_the_first_attribute(golf):
    X, y = golf
    X2 = X.assign(outlook2=X["outlook"])[["outlook2", "windy", "outlook"]]
    tree = C45Classifier(pruning=None).fit(X2, y).tree_
    assert tree.feature[0] == 0


# ----------------------------------------------------------------------------- unknowns
def test_quinlan_unknown_value_tree(golf_unknown):
    X, y = golf_unknown
    clf = C45Classifier(pruning=None).fit(X, y)
    t = clf.tree_
    names = {tuple(str(c) for c in r.conditions): r for r in clf.to_rules(show_missing=False)}
    overcast = names[("outlook = overcast",)]
    assert overcast.support == pytest.approx(3 + 3 / 13)           # Quinlan: (3.2)
    hum = names[("outlook = sunny", "humidity > 75")]
    assert hum.support == pytest.approx(3 + 5 / 13)                # Quinlan: (3.4/0.4)
    assert hum.support * (1 - hum.confidence) == pytest.approx(5 / 13)
    windy = names[("outlook = rain", "windy = true")]
    assert windy.support == pytest.approx(2 + 5 / 13)              # Quinlan: (2.4/0.4)
    assert round(overcast.support, 1) == 3.2 and round(hum.support, 1) == 3.4
    assert round(windy.support, 1) == 2.4
    assert t.n_leaves == 5


def test_golf_tree_is_quinlans(golf):
    # Quinlan (1993), ch. 1: outlook at the root; sunny -> humidity <= 75 (Play) /
    # > 75 (Don't Play); overcast -> Play; rain -> windy true (Don't Play) / false (Play)
    X, y = golf
    rules = {r.antecedent: r.prediction
             for r in C45Classifier().fit(X, y).to_rules(show_missing=False)}
    assert rules == {
        "outlook = overcast": "Play",
        "outlook = rain AND windy = false": "Play",
        "outlook = rain AND windy = true": "Don't Play",
        "outlook = sunny AND humidity <= 75": "Play",
        "outlook = sunny AND humidity > 75": "Don't Play",
    }


def _check_weights_conserved(tree):
    for i in range(tree.node_count):
        if tree.kind[i] != NodeKind.LEAF:
            ch = tree.children_of(i)
            np.testing.assert_allclose(tree.value[ch].sum(axis=0), tree.value[i], atol=1e-9)
            np.testing.assert_allclose(tree.weighted_n[ch].sum(), tree.weighted_n[i], atol=1e-9)
    np.testing.assert_allclose(tree.value.sum(axis=1), tree.weighted_n, atol=1e-9)


def test_fractional_weights_sum_to_the_parent(golf_unknown):
    X, y = golf_unknown
    for pruning in (None, "ebp", "pep"):
        _check_weights_conserved(C45Classifier(pruning=pruning).fit(X, y).tree_)


def test_predict_combines_branch_distributions_by_their_weights(golf_unknown):
    X, y = golf_unknown
    clf = C45Classifier(pruning=None).fit(X, y)
    query = pd.DataFrame({"outlook": [None], "temperature": [70], "humidity": [80],
                          "windy": ["true"]})
    # overcast (3.23/14 of the weight) plays for sure; sunny (5.38/14) goes to
    # humidity > 75: 3 of 3.38 don't play; rain (5.38/14) goes to windy = true:
    # 2 of 2.38 don't play
    s = np.array([3 + 3 / 13, 5 + 5 / 13, 5 + 5 / 13]) / 14
    dont = s[1] * 3 / (3 + 5 / 13) + s[2] * 2 / (2 + 5 / 13)
    proba = clf.predict_proba(query)[0]
    assert list(clf.classes_) == ["Don't Play", "Play"]
    assert proba == pytest.approx([dont, 1 - dont], abs=1e-12)


frames = st.integers(min_value=6, max_value=40).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n),
    st.lists(st.one_of(st.none(), st.integers(0, 6)), min_size=n, max_size=n),
    st.lists(st.sampled_from([0, 1, 2]), min_size=n, max_size=n),
    st.lists(st.floats(0.25, 3.0), min_size=n, max_size=n)))


def _frame(data):
    cat, num, y, w = data
    if all(c is None for c in cat):
        cat[0] = "a"
    if all(v is None for v in num):
        num[0] = 1
    X = pd.DataFrame({"cat": pd.Series(cat, dtype=object),
                      "num": pd.Series([np.nan if v is None else float(v) for v in num])})
    return X, np.array(y), np.array(w)


@settings(max_examples=60, deadline=None)
@given(frames)
def test_weights_conserved_and_probabilities_sum_to_one(data):
    X, y, w = _frame(data)
    for kw in ({"pruning": None}, {}, {"pruning": "pep"}, {"subtree_raising": False}):
        clf = C45Classifier(min_samples_leaf=1, **kw).fit(X, y, sample_weight=w)
        _check_weights_conserved(clf.tree_)
        assert clf.tree_.weighted_n[0] == pytest.approx(w.sum())
        np.testing.assert_allclose(clf.predict_proba(X).sum(axis=1), 1.0, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(frames)
def test_pruning_never_increases_size(data):
    X, y, w = _frame(data)
    for kw in ({}, {"pruning": "pep"}, {"subtree_raising": False}, {"z_source": "table"},
               {"confidence": 0.05}):
        clf = C45Classifier(min_samples_leaf=1, **kw).fit(X, y, sample_weight=w)
        assert clf.tree_.node_count <= clf.unpruned_tree_.node_count
        assert clf.tree_.n_leaves <= clf.unpruned_tree_.n_leaves


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 20).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1000), min_size=n, max_size=n, unique=True),
    st.lists(st.sampled_from(["u", "v"]), min_size=n, max_size=n))))
def test_unpruned_tree_fits_consistent_data(data):
    # one numeric attribute with distinct values is consistent data. With M = 1 (each
    # side of a cut needs max(1, 0.1·n/2) = 1 case for n <= 20) and no MDL charge, a
    # cut that splits off the first case always has a positive gain at an impure node,
    # so C4.5 keeps splitting until every leaf is pure.
    x, y = data
    X = pd.DataFrame({"x": np.array(x, float)})
    clf = C45Classifier(min_samples_leaf=1, pruning=None, mdl_correction=False).fit(X, y)
    assert clf.score(X, y) == 1.0


def test_gain_ratio_cannot_split_xor():
    # consistent data C4.5 (as J48) cannot fit: no single attribute has any gain
    X = pd.DataFrame({"a": ["0", "0", "1", "1"] * 3, "b": ["0", "1", "0", "1"] * 3})
    y = ["n", "y", "y", "n"] * 3
    clf = C45Classifier(min_samples_leaf=1, pruning=None).fit(X, y)
    assert clf.tree_.node_count == 1 and clf.score(X, y) == 0.5


def test_collapse_removes_subtrees_that_do_not_lower_training_error():
    from treebook.core.tree import TreeBuilder

    b = TreeBuilder()
    r = b.add_node(-1, [6, 4], 10, 10, 0.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, 0.5)
    left = b.add_node(r, [3, 2], 5, 5, 0.0)   # majority 0 in both children: errors 2 + 2
    b.add_node(r, [3, 2], 5, 5, 0.0)          # = 4 = the root's errors -> collapse
    b.set_split(left, 0, NodeKind.THRESHOLD, 0.2)
    b.add_node(left, [3, 0], 3, 3, 0.0)
    b.add_node(left, [0, 2], 2, 2, 0.0)
    tree = b.build()
    assert collapse(tree).node_count == 5    # the root's subtree makes 2 errors < 4
    b2 = TreeBuilder()
    r = b2.add_node(-1, [6, 4], 10, 10, 0.0)
    b2.set_split(r, 0, NodeKind.THRESHOLD, 0.5)
    b2.add_node(r, [3, 2], 5, 5, 0.0)
    b2.add_node(r, [3, 2], 5, 5, 0.0)
    assert collapse(b2.build()).node_count == 1


# ----------------------------------------------------------------------------- iris / J48
@pytest.mark.parametrize("z_source", ["normal", "table"])
def test_iris_tree_equals_weka_j48(z_source):
    from sklearn.datasets import load_iris

    d = load_iris(as_frame=True)
    X = d.data.set_axis(["sepallength", "sepalwidth", "petallength", "petalwidth"], axis=1)
    y = np.array(["Iris-setosa", "Iris-versicolor", "Iris-virginica"])[d.target]
    clf = C45Classifier(z_source=z_source).fit(X, y)
    t = clf.tree_
    assert (t.n_leaves, t.node_count) == (5, 9)      # Weka: Number of Leaves 5, Size 9
    names = list(clf.feature_names_in_)
    splits = [(names[t.feature[i]], float(t.threshold[i])) for i in range(t.node_count)
              if t.kind[i] == NodeKind.THRESHOLD]
    assert splits == [("petalwidth", 0.6), ("petalwidth", 1.7), ("petallength", 4.9),
                      ("petalwidth", 1.5)]
    # leaves in Weka's print order with (weight/errors)
    leaves = [(str(clf.classes_[np.argmax(t.value[i])]), float(t.weighted_n[i]),
               float(t.weighted_n[i] - t.value[i].max())) for i in t.leaves_below(0)]
    assert leaves == [("Iris-setosa", 50.0, 0.0), ("Iris-versicolor", 48.0, 1.0),
                      ("Iris-virginica", 3.0, 0.0), ("Iris-versicolor", 3.0, 1.0),
                      ("Iris-virginica", 46.0, 1.0)]


# ----------------------------------------------------------------------------- API, errors
def test_rules_show_thresholds_and_unknown_routing(golf_unknown):
    X, y = golf_unknown
    clf = C45Classifier().fit(X, y)
    rules = clf.to_rules()
    text = str(rules)
    assert "humidity <= 75 (if unknown: ×0.371)" in text and "humidity > 75" in text
    assert "outlook = overcast (if unknown: ×0.231)" in text      # (3 + 3/13) / 14
    assert len(rules) == 5
    assert "if unknown" not in str(clf.to_rules(show_missing=False))
    # the weights the rules show reproduce prediction for a case with nothing known
    blank = pd.DataFrame({"outlook": [None], "temperature": [np.nan],
                          "humidity": [np.nan], "windy": [None]})
    mix = sum(np.prod([c.unknown for c in r.conditions])
              * np.array(list(r.distribution.values())) / r.support for r in rules)
    np.testing.assert_allclose(clf.predict_proba(blank)[0], mix, atol=1e-12)


def test_rule_weights_multiply_over_repeated_tests():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    tree = C45Classifier().fit(X, y).tree_
    from treebook.io.render import to_rules

    rule = to_rules(tree, show_missing=True)[2]       # x3 > 0.6, x3 <= 1.5, x2 > 4.9
    by_op = {(c.feature, c.op): c.unknown for c in rule.conditions}
    assert by_op[("x3", ">")] == pytest.approx(100 / 150)
    assert by_op[("x3", "<=")] == pytest.approx(54 / 100 * 3 / 6)
    assert by_op[("x2", ">")] == pytest.approx(6 / 54)


def test_bad_input_is_rejected_clearly(golf):
    X, y = golf
    with pytest.raises(ValueError, match="only missing values"):
        C45Classifier().fit(X.assign(empty=np.nan), y)
    with pytest.raises(ValueError, match="infinite"):
        C45Classifier().fit(X.assign(temperature=X["temperature"].astype(float).replace(85, np.inf)), y)
    with pytest.raises(ValueError, match="pruning"):
        C45Classifier(pruning="reduced-error").fit(X, y)
    with pytest.raises(ValueError, match="confidence"):
        C45Classifier(confidence=0.7).fit(X, y)
    with pytest.raises(ValueError, match="confidence"):
        C45Classifier(confidence=0.0).fit(X, y)
    with pytest.raises(ValueError, match="min_samples_leaf"):
        C45Classifier(min_samples_leaf=0).fit(X, y)
    with pytest.raises(TypeError, match="min_samples_leaf"):
        C45Classifier(min_samples_leaf=2.5).fit(X, y)
    with pytest.raises(ValueError, match="z_source"):
        C45Classifier(z_source="exact").fit(X, y)
    with pytest.raises(ValueError, match="sample_weight"):
        C45Classifier().fit(X, y, sample_weight=-np.ones(14))
    with pytest.raises(ValueError, match="missing labels"):
        C45Classifier().fit(X, y.where(y.index != 3, None))


def test_degenerate_data_give_one_leaf(golf):
    X, y = golf
    one = C45Classifier().fit(X, ["Play"] * 14)                    # a single class
    assert one.tree_.node_count == 1 and set(one.predict(X)) == {"Play"}
    row = C45Classifier().fit(X.iloc[:1], y.iloc[:1])               # one row
    assert row.tree_.node_count == 1 and row.predict(X.iloc[:3]).tolist() == [y.iloc[0]] * 3
    # an unknown value at prediction time is fine; a column of unknowns only in predict too
    proba = one.predict_proba(X.assign(outlook=None))
    np.testing.assert_allclose(proba, 1.0)


def test_params_round_trip():
    clf = C45Classifier(pruning="pep", confidence=0.1)
    assert clf.get_params()["pruning"] == "pep"
    # scikit-learn's repr: the changed parameters, in alphabetical order
    assert repr(clf) == "C45Classifier(confidence=0.1, pruning='pep')"
    clf.set_params(pruning=None)
    assert clf.pruning is None


def test_confidence_explorer_frames_equal_fresh_fits(golf_unknown):
    from treebook.io.explorers import confidence_explorer

    X, y = golf_unknown
    X2 = pd.concat([X] * 3, ignore_index=True)          # big enough for pruning to act
    y2 = pd.concat([y] * 3, ignore_index=True).to_numpy().copy()
    y2[[0, 15, 30]] = "Play"                             # some noise
    cfs = (0.01, 0.1, 0.25, 0.5)
    slider = confidence_explorer(C45Classifier(), X2, y2, X, y, confidences=cfs)
    html = slider.to_html()
    assert 'data-frame-count="4"' in html
    assert html.count('class="tb-slider-frame"') == 4 and html.count(" hidden>") == 3
    assert slider.labels == ["0.01", "0.1", "0.25", "0.5"] and slider.index == 2
    for cf, nodes in zip(cfs, slider.results["nodes"]):
        assert C45Classifier(confidence=cf).fit(X2, y2).tree_.node_count == nodes
    with pytest.raises(TypeError, match="C4.5"):
        confidence_explorer(object(), X, y, X, y)


def test_a_category_with_no_branch_at_a_node_stops_there_as_in_j48():
    """Under B = p, A has no branch "z". J48 (its empty branch answers with the parent's
    distribution; tests/oracles/test_j48_holdout.py) gives the node's [5/14, 9/14];
    ``unseen="fan"`` spreads the case over A's branches: it follows C = u in both
    A-subtrees, 8/14 × [0, 1] + 6/14 × [1, 0]."""
    rows = ([("x", "p", "u", "yes")] * 6 + [("x", "p", "v", "no")] * 2
            + [("y", "p", "u", "no")] * 3 + [("y", "p", "v", "yes")] * 3
            + [("x", "q", "u", "no")] * 5 + [("y", "q", "v", "no")] * 5
            + [("z", "q", "u", "no")] * 3 + [("z", "q", "v", "yes")])
    df = pd.DataFrame(rows, columns=["A", "B", "C", "c"])
    case = pd.DataFrame([("z", "p", "u")], columns=["A", "B", "C"])
    node = C45Classifier(pruning=None, min_samples_leaf=1).fit(df[["A", "B", "C"]], df["c"])
    assert np.allclose(node.predict_proba(case)[0], [5 / 14, 9 / 14])  # classes no, yes
    fan = C45Classifier(pruning=None, min_samples_leaf=1, unseen="fan").fit(
        df[["A", "B", "C"]], df["c"])
    assert np.allclose(fan.predict_proba(case)[0], [6 / 14, 8 / 14])
    # an unknown value is spread either way
    unknown = pd.DataFrame([(np.nan, "p", "u")], columns=["A", "B", "C"])
    assert np.allclose(node.predict_proba(unknown), fan.predict_proba(unknown))
    with pytest.raises(ValueError, match="unseen"):
        C45Classifier(unseen="spread").fit(df[["A", "B", "C"]], df["c"])
