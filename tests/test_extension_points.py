"""The seams hold: a criterion and a routing policy defined outside the package, registered
by name, grow trees with every grower that uses them.

The expected values come from outside the code under test: the scaled Gini criterion must
grow Gini's tree with every impurity doubled (an exact operation in floating point), and
the "majority branch" routing must put each unknown case wholly into the branch that the
known cases of the Quinlan golf table, counted by hand, make heaviest.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris

from treebook import C45Classifier, CARTClassifier
from treebook.core import impurity as imp
from treebook.core.criteria import (CRITERIA, ClassificationCriterion, criterion_names,
                               register_criterion)
from treebook.datasets import load_golf
from treebook.growers.recursive import grow_tree
from treebook.core.splits import FAN, ROUTING_POLICIES, UNSEEN, register_routing
from treebook.core.tree import NodeKind

FIELDS = ("kind", "feature", "threshold", "children_ptr", "children", "code_ptr",
          "branch_of_code", "parent", "depth", "value", "weighted_n", "n_samples")


# ------------------------------------------------------------------ a criterion from outside
def _twice_gini(counts, check=False):
    c = np.asarray(counts, dtype=float)
    tot = c.sum(axis=-1)
    p = c / np.where(tot > 0, tot, 1.0)[..., None]
    return 2.0 * (1.0 - (p * p).sum(axis=-1))


def _twice_gini_proxy(left, right, w_left, w_right):
    # 2·(Σ_k C_1k²/|D_1| + Σ_k C_2k²/|D_2|): Gini's proxy doubled, so the same cut wins
    return 2.0 * (sum(c * c for c in left) / w_left + sum(c * c for c in right) / w_right)


@pytest.fixture
def twice_gini():
    crit = register_criterion(ClassificationCriterion("twice_gini", _twice_gini,
                                                      _twice_gini_proxy))
    yield crit
    CRITERIA.pop("twice_gini")


def test_unregistered_criterion_is_rejected_by_the_estimator():
    X, y = load_iris(return_X_y=True)
    assert "twice_gini" not in criterion_names()
    with pytest.raises(ValueError, match="criterion"):
        CARTClassifier(criterion="twice_gini").fit(X, y)


@pytest.mark.parametrize("grower", ["levelwise", "recursive"])
@pytest.mark.parametrize("load", [load_iris, load_breast_cancer])
def test_registered_criterion_grows_with_both_growers(twice_gini, grower, load):
    X, y = load(return_X_y=True)
    ours = CARTClassifier(criterion="twice_gini", grower=grower, min_samples_leaf=2).fit(X, y)
    gini = CARTClassifier(criterion="gini", grower=grower, min_samples_leaf=2).fit(X, y)
    a, b = ours.tree_, gini.tree_
    for name in FIELDS:
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name
    # the node impurity is the registered one: twice Gini's, up to the rounding of p²
    assert np.allclose(a.impurity, 2.0 * b.impurity, rtol=1e-12, atol=1e-15)
    assert not np.allclose(a.impurity[0], b.impurity[0])
    assert a.extra["criterion"] == "twice_gini"


def test_registered_criterion_is_a_cost_complexity_risk(twice_gini):
    X, y = load_iris(return_X_y=True)
    tree = CARTClassifier().fit(X, y).tree_
    from treebook.prune.cost_complexity import node_risk

    expected = tree.weighted_n * 2.0 * imp.gini(tree.value) / tree.weighted_n[0]
    assert np.allclose(node_risk(tree, "twice_gini"), expected, rtol=1e-12)
    assert np.allclose(node_risk(tree, "twice_gini"), 2.0 * node_risk(tree, "impurity"))


# ------------------------------------------------------------------ a routing policy from outside
class MajorityBranch:
    """An unknown value (or an unseen category) goes wholly down the heaviest branch."""

    def decide(self, codes):
        codes = np.asarray(codes)
        return np.where(codes < 0, FAN, codes)

    def shares(self, branch_weight):
        bw = np.asarray(branch_weight, dtype=float)
        out = np.zeros_like(bw)
        np.put_along_axis(out, np.argmax(bw, axis=-1)[..., None], 1.0, axis=-1)
        return out


@pytest.fixture
def majority():
    policy = register_routing("majority", MajorityBranch())
    yield policy
    ROUTING_POLICIES.pop("majority")


@pytest.fixture
def golf_unknowns():
    X, y = load_golf(return_X_y=True)
    X = X.copy()
    X.loc[[2, 11], "outlook"] = None  # two cases with an unknown outlook (one Play each)
    return X, y


def test_registered_routing_grows_prunes_and_predicts(majority, golf_unknowns):
    X, y = golf_unknowns
    with pytest.raises(ValueError, match="missing"):
        C45Classifier(missing="no_such_routing").fit(X, y)
    est = C45Classifier(missing="majority", pruning=None).fit(X, y)
    tree = est.tree_
    assert tree.kind[0] == NodeKind.MULTIWAY and est.feature_names_in_[tree.feature[0]] == "outlook"
    # by hand: the known outlooks are sunny 5 (2 Play), rain 5 (3 Play), overcast 2 (2 Play),
    # so sunny and rain tie for the heaviest branch and the first one in branch order
    # (category order: overcast, rain, sunny) takes both unknown cases, weight 1 each
    codes = est.encoder_.categories[tree.feature[0]].tolist()
    assert codes == ["overcast", "rain", "sunny"]
    children = tree.children_of(0)
    weights = tree.weighted_n[children].tolist()
    assert weights == [2.0, 7.0, 5.0]
    assert tree.value[children[1]].tolist() == [2.0, 5.0]  # rain + the two unknowns (Play)
    # fractional routing instead would have given every branch a share of the two cases
    frac = C45Classifier(pruning=None).fit(X, y).tree_
    assert not np.allclose(frac.weighted_n[frac.children_of(0)], weights)

    # prediction routes the same way: an unknown outlook ends under the heaviest branch
    row = X.iloc[[2]]
    proba = est.predict_proba(row)
    rows, nodes, w = tree.route(est.encoder_.transform(row, allow_missing=True),
                                missing="majority")
    assert np.isclose(w.sum(), 1.0) and set(w.tolist()) <= {0.0, 1.0}
    heavy = nodes[w == 1.0][0]
    assert tree.depth[heavy] >= 1
    assert np.array_equal(proba[0], tree.node_prediction()[heavy])

    # error-based pruning with subtree raising re-routes the cases by the same policy
    pruned = C45Classifier(missing="majority").fit(X, y)
    assert pruned.tree_.weighted_n[0] == 14.0
    # and the rules show the policy's shares: 1 into the heaviest branch, 0 elsewhere
    rules = est.to_rules()
    shares = {c.unknown for r in rules for c in r.conditions if c.feature == "outlook"}
    assert shares <= {0.0, 1.0} and 1.0 in shares


def test_registered_routing_with_grow_tree_directly(majority):
    # one numeric feature with an unknown value; the left side is heavier
    X = np.array([[1.0], [2.0], [3.0], [10.0], [np.nan]])
    y = np.array([0, 0, 0, 1, 1])
    from treebook.core.splits import Split

    def find(X, y, w, rows, available):
        return Split(feature=0, kind=NodeKind.THRESHOLD, score=1.0, threshold=5.0)

    tree = grow_tree(X, y, np.ones(5), find_split=find, n_classes=2, max_depth=1,
                     missing="majority")
    left, right = tree.children_of(0)
    assert tree.value[left].tolist() == [3.0, 1.0] and tree.value[right].tolist() == [0.0, 1.0]
    tree = grow_tree(X, y, np.ones(5), find_split=find, n_classes=2, max_depth=1,
                     missing="distribute")
    left, right = tree.children_of(0)
    assert np.allclose(tree.value[left], [3.0, 0.75]) and np.allclose(tree.value[right], [0.0, 1.25])
    with pytest.raises(ValueError, match="missing values"):
        grow_tree(X, y, np.ones(5), find_split=find, n_classes=2, max_depth=1)
    assert UNSEEN == -1


@pytest.mark.parametrize("criterion", ["gini", "entropy", "misclassification"])
def test_every_registered_classification_criterion_grows_equal_trees_with_both_growers(criterion):
    X, y = load_iris(return_X_y=True)
    X = np.round(X * 2) / 2  # coarse values: many ties, which both growers must break alike
    rec = CARTClassifier(criterion=criterion, grower="recursive").fit(X, y).tree_
    lev = CARTClassifier(criterion=criterion, grower="levelwise").fit(X, y).tree_
    for name in FIELDS + ("impurity",):
        a, b = getattr(rec, name), getattr(lev, name)
        assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True), name
    assert rec.node_count > 3


def test_criterion_objects_stand_for_their_names():
    from treebook.core.criteria import GINI

    X, y = load_iris(return_X_y=True)
    by_object = CARTClassifier(criterion=GINI).fit(X, y).tree_
    by_name = CARTClassifier(criterion="gini").fit(X, y).tree_
    assert np.array_equal(by_object.threshold, by_name.threshold, equal_nan=True)
    with pytest.raises(ValueError, match="criterion"):
        CARTClassifier(criterion="squared_error").fit(X, y)


def test_validate_params_checks_public_functions_by_argument_name():
    from treebook.core.base import Interval, Options, validate_params

    @validate_params({"alpha": Interval(float, 0.0, None), "mode": Options("a", "b")})
    def f(x, alpha=0.0, *, mode="a"):
        return x + alpha

    assert f(1, 0.5) == 1.5 and f(1, alpha=2, mode="b") == 3
    with pytest.raises(ValueError, match="alpha"):
        f(1, -1.0)
    with pytest.raises(TypeError, match="alpha"):
        f(1, "big")
    with pytest.raises(ValueError, match="mode"):
        f(1, mode="c")
    assert set(f.__parameter_constraints__) == {"alpha", "mode"}
    with pytest.raises(TypeError, match="no parameter"):
        validate_params({"beta": Interval(float)})(f.__wrapped__)


def test_random_state_is_a_cart_constraint():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(TypeError, match="random_state"):
        CARTClassifier(random_state="seed").fit(X, y)
    with pytest.raises(TypeError, match="random_state"):
        CARTClassifier(random_state=True).fit(X, y)
    CARTClassifier(random_state=np.random.default_rng(0)).fit(X, y)
