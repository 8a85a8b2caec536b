"""treebook.chaid against the CHAID package (PyPI ``CHAID`` 5.5.1, Ramotowski and
Fitzgerald; ``make crosscheck``).

What the package does, as its source (``CHAID/stats.py``, ``tree.py``, ``column.py``)
reads, and the options used here:

* ``Tree.from_numpy(X, y, alpha_merge=…, max_depth=d, min_parent_node_size=m,
  min_child_node_size=0, variable_types=[…])``: a column is ``"nominal"`` (any two
  groups may merge) or ``"ordinal"`` (integer codes; only groups of *consecutive* codes
  may merge, ``[x, x+1)`` ranges that touch). At a node it merges, for each column, the
  pair of groups whose ``2 × K`` table (classes absent from both dropped) has the largest
  Pearson p-value (``scipy.special.chdtrc``; ties to the larger χ², then the first pair in
  order; a pair with one class only at once — but see
  ``test_package_stops_merging_at_a_one_class_pair_tried_first``) while that p-value is
  ``>= alpha_merge``,
  then tests the merged ``r × K`` table, and splits on the column with the smallest
  **unadjusted** p-value (no Bonferroni multiplier; ties to the larger χ²). It splits on
  that column whatever its p-value: there is no ``alpha_split`` (``alpha_split=1.0``
  here, with ``bonferroni=False``). Kass's re-splitting of merged groups is not done.
* ``max_depth=d``: the root counts as level 1 and a node at level ``d + 1`` is a leaf,
  so the tree has depth ``d`` in treebook's counting (root depth 0): ``max_depth=d``.
* ``min_parent_node_size=m``: a child with at most ``m`` rows is a leaf (the root is
  always tried): treebook's ``min_samples_split = m + 1``.
* ``min_child_node_size=0`` switches off its child-size rules (a pair is skipped when the
  rows left outside it are fewer; a split is refused when the last tested pair has a group
  below it), which have no counterpart in treebook's ``min_samples_leaf``; treebook's
  default ``min_samples_leaf=1`` never acts on unweighted data.
* Weights would select its SPSS-style weighted χ² (iterated expected counts), not a
  count of cases: compared here without weights.

* Missing values (NaN): a ``NominalColumn`` gives them the category ``-1``
  (``'<missing>'``), merged like any other; an ``OrdinalColumn`` keeps them as a sentinel
  code (the smallest int64) that, while alone, may merge with any group (its pairs are
  tried after the adjacent ones) and is left out of the contiguity check: Kass's floating
  category. treebook's missing category is code ``L`` (one past the column's last).

Both grow in depth-first pre-order, but order a node's groups differently once a missing
category is in them (the package puts the group holding ``-1`` or its sentinel first,
treebook orders by the smallest code, the missing category last), so the nodes are
matched by the rows they hold (unique: every child holds fewer rows than its parent, and
nodes of one depth are disjoint); the test compares, node by node, the rows, the parent,
the split column, the merged groups (the missing category in the same group), χ², its
degrees of freedom and the unadjusted p-value (relative tolerance 1e-9: the same formula,
summed in another order). Numeric columns are binned by treebook (``bin_edges_``) and
given to the package as the ordinal bin codes (NaN where missing); the package has no
binning of its own for a categorical target.

Kass's Bonferroni adjustment, which the package does not apply, is checked by hand at
the root: ``min(1, B·p)`` with the package's p and ``B`` the Stirling number ``S(c, r)``
(nominal) or ``C(c−1, r−1)`` (ordinal), or, for an ordinal predictor with missing values
(``c`` counting them), Kass's floating form ``[(r−1) + r(c−r)] / (c−1) · C(c−1, r−1)``,
computed here from the formulas.
"""

import math

import numpy as np
import pandas as pd
import pytest
from CHAID import Tree as PackageTree  # pinned in requirements.txt: a missing oracle fails

from treebook.chaid import CHAIDClassifier
from treebook.datasets import load_adult, load_hmda, load_monica, load_play_tennis


def _synthetic():
    """A seeded table: two nominal predictors (one with 6 categories), two ordinal ones
    (5 levels, a pandas ordered categorical; and a numeric column binned), a noise
    column, and a three-class target that depends on them."""
    rng = np.random.default_rng(31)
    n = 3000
    colour = rng.choice(list("abcdef"), n)
    shape = rng.choice(["disc", "square", "star"], n)
    level = rng.integers(0, 5, n)
    size = rng.normal(size=n)
    noise = rng.choice(list("uvwxyz"), n)
    score = (np.isin(colour, ["a", "b"]) * 1.0 + (level >= 3) * 0.8 + 0.6 * size
             + (shape == "star") * 0.5 + rng.normal(scale=1.0, size=n))
    y = np.digitize(score, [0.3, 1.3])
    X = pd.DataFrame({
        "colour": colour, "shape": shape,
        "level": pd.Categorical(level, categories=range(5), ordered=True),
        "size": size, "noise": noise})
    return X, pd.Series(np.array(["low", "mid", "high"])[y], name="band")


def _synthetic_missing():
    """The synthetic table with values knocked out (seeded): missing at random in the
    nominal ``colour`` and the numeric ``size`` (binned, ordinal), and, in the nominal
    ``shape`` and the ordered ``level``, missing more often for one class (so the missing
    category carries information: it stays alone at some nodes, joins a group at others)."""
    X, y = _synthetic()
    rng = np.random.default_rng(32)
    n = len(X)
    X = X.copy()
    X.loc[rng.random(n) < 0.12, "colour"] = None
    X.loc[rng.random(n) < np.where(y == "low", 0.25, 0.05), "level"] = np.nan
    X.loc[rng.random(n) < 0.10, "size"] = np.nan
    X.loc[rng.random(n) < np.where(y == "high", 0.30, 0.05), "shape"] = None
    return X, y


def _cases():
    out = {}
    X, y = load_play_tennis(return_X_y=True)
    out["play_tennis"] = (X, y, dict(alpha_merge=0.3, max_depth=3, min_parent=1))
    X, y = load_monica(return_X_y=True)
    out["monica"] = (X, y, dict(alpha_merge=0.05, max_depth=3, min_parent=100))
    X, y = load_hmda(return_X_y=True)
    out["hmda"] = (X, y, dict(alpha_merge=0.05, max_depth=2, min_parent=100))
    X, y = load_adult(return_X_y=True)
    keep = ~X.isna().any(axis=1).to_numpy()
    X = X.loc[keep, ["workclass", "education", "marital-status", "race", "sex", "age"]]
    out["adult_4000"] = (X.iloc[:4000].reset_index(drop=True),
                         y[keep].iloc[:4000].reset_index(drop=True),
                         dict(alpha_merge=0.05, max_depth=2, min_parent=200))
    X, y = _synthetic()
    out["synthetic"] = (X, y, dict(alpha_merge=0.05, max_depth=3, min_parent=50))
    # with missing values: adult's workclass, occupation and native-country (nominal), and
    # age (numeric: binned, ordinal) with a tenth of its values knocked out (seeded)
    X, y = load_adult(return_X_y=True)
    X = X.loc[:, ["workclass", "occupation", "native-country", "age", "sex"]]
    X = X.iloc[:4000].reset_index(drop=True)
    X["age"] = X["age"].where(np.random.default_rng(33).random(4000) >= 0.1)
    out["adult_missing_4000"] = (X, y.iloc[:4000].reset_index(drop=True),
                                 dict(alpha_merge=0.05, max_depth=2, min_parent=200))
    X, y = _synthetic_missing()
    out["synthetic_missing"] = (X, y, dict(alpha_merge=0.05, max_depth=3, min_parent=50))
    return out


CASES = _cases()


def _fit_both(X, y, alpha_merge, max_depth, min_parent):
    ours = CHAIDClassifier(alpha_merge=alpha_merge, alpha_split=1.0, bonferroni=False,
                           max_depth=max_depth, min_samples_split=min_parent + 1).fit(X, y)
    codes = ours._encode(X)  # the category and bin codes the tree reads (NaN: missing)
    types = ["ordinal" if o else "nominal" for o in ours.ordinal_]
    # ordinal codes as integers where complete (the package's ordinal input), as floats
    # with NaN where not (it maps NaN to its sentinel); nominal codes as floats
    cols = np.column_stack([
        codes[:, j].astype(np.int64) if o and not np.isnan(codes[:, j]).any() else codes[:, j]
        for j, o in enumerate(ours.ordinal_)]).astype(object)
    theirs = PackageTree.from_numpy(cols, np.asarray(y).astype(str), alpha_merge=alpha_merge,
                                    max_depth=max_depth, min_parent_node_size=min_parent,
                                    min_child_node_size=0, variable_types=types)
    return ours, codes, theirs


_ORDINAL_MISSING = np.iinfo(np.int64).min  # the package's OrdinalColumn sentinel for NaN


def _groups(split, n_codes):
    """The package's merged groups as treebook's codes (its missing category, ``-1`` or
    the ordinal sentinel, as code ``n_codes``), each sorted, in the package's order."""
    out = []
    for g in split.splits:
        codes = [int(round(float(v))) for v in g]
        out.append(sorted(n_codes if c in (-1, _ORDINAL_MISSING) else c for c in codes))
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_same_tree_as_the_chaid_package(name):
    X, y, opts = CASES[name]
    ours, codes, theirs = _fit_both(X, y, **opts)
    tree = ours.tree_
    nodes = list(theirs)
    assert len(nodes) == tree.node_count, f"{name}: node counts differ"
    assert tree.node_count > 1, f"{name}: the case should grow a tree"
    path = ours.decision_path(X).tocsc()
    ours_of_rows = {tuple(path[:, i].nonzero()[0].tolist()): i for i in range(tree.node_count)}
    match = {}
    for node in nodes:
        rows = tuple(np.sort(np.asarray(node.indices)).tolist())
        assert rows in ours_of_rows, f"{name}: package node {node.node_id}: no node of ours " \
                                     "holds its rows"
        match[node.node_id] = ours_of_rows[rows]
    missing_seen = set()
    for node in nodes:
        i = match[node.node_id]
        assert tree.parent[i] == (-1 if node.parent is None else match[node.parent]), \
            f"{name}: node {i} parent"
        split = node.split
        if not split.valid() or tree.is_leaf[i]:
            assert tree.is_leaf[i] and not split.valid(), f"{name}: node {i} leaf or not"
            continue
        f = int(tree.feature[i])
        assert f == split.column_id, f"{name}: node {i} split variable"
        codes_of = tree.codes_of(i)
        n_codes = len(codes_of)
        rows = np.asarray(node.indices)
        missing_here = bool(np.isnan(codes[rows, f]).any())
        ours_groups = [sorted(np.flatnonzero(codes_of == b).tolist()
                              + ([n_codes] if missing_here and tree.missing_go[i] == b else []))
                       for b in range(tree.n_branches(i))]
        assert sorted(ours_groups) == sorted(_groups(split, n_codes)), \
            f"{name}: node {i} merged groups"
        if missing_here:  # which kind of predictor, and did the missing category merge
            with_missing = next(g for g in ours_groups if n_codes in g)
            missing_seen.add(("ordinal" if ours.ordinal_[f] else "nominal",
                              "alone" if len(with_missing) == 1 else "merged"))
        assert ours.node_dof_[i] == split.dof
        assert ours.node_statistic_[i] == pytest.approx(split.score, rel=1e-9)
        assert ours.node_p_value_[i] == pytest.approx(split.p, rel=1e-9, abs=1e-300)
    # the cases meant to test the missing category do: synthetic_missing has each kind of
    # predictor with the missing category alone and merged; adult's is merged only
    if name == "synthetic_missing":
        assert missing_seen == {(k, m) for k in ("nominal", "ordinal")
                                for m in ("alone", "merged")}, missing_seen
    elif name == "adult_missing_4000":
        assert missing_seen == {("nominal", "merged"), ("ordinal", "merged")}, missing_seen
    else:
        assert not missing_seen


def _stirling2(c, r):
    """S(c, r) by the recurrence S(c, r) = r·S(c−1, r) + S(c−1, r−1) (not Kass's sum)."""
    table = [[1]]
    for n in range(1, c + 1):
        row = [0] * (n + 1)
        for k in range(1, n + 1):
            row[k] = k * (table[n - 1][k] if k <= n - 1 else 0) + table[n - 1][k - 1]
        table.append(row)
    return table[c][r]


def _floating(c, r):
    """Kass's floating multiplier in his own form, [(r−1) + r(c−r)] / (c−1) · C(c−1, r−1)."""
    num = ((r - 1) + r * (c - r)) * math.comb(c - 1, r - 1)
    assert num % (c - 1) == 0
    return num // (c - 1)


@pytest.mark.parametrize("name", ["monica", "synthetic", "adult_4000", "adult_missing_4000",
                                  "synthetic_missing"])
def test_root_p_values_and_bonferroni_by_hand(name):
    """Every predictor's root test alone (the package's ``best_split`` on one column),
    and Kass's adjustment of its p-value by hand."""
    X, y, opts = CASES[name]
    ours, codes, theirs = _fit_both(X, y, **opts)
    adjusted = CHAIDClassifier(alpha_merge=opts["alpha_merge"], max_depth=0).fit(X, y)
    table = adjusted.root_table()
    for j in range(X.shape[1]):
        split = theirs._stats.best_split([theirs.vectorised_array[j]], theirs.observed)
        if not split.valid():
            assert table["n_groups"].iloc[j] == 0
            continue
        assert ours.root_p_value_[j] == pytest.approx(split.p, rel=1e-9, abs=1e-300)
        assert ours.root_statistic_[j] == pytest.approx(split.score, rel=1e-9)
        r = len(split.splits)
        c = len(np.unique(codes[:, j]))  # NaNs count once: the missing category
        if not ours.ordinal_[j]:
            b = _stirling2(c, r)
        elif np.isnan(codes[:, j]).any():
            b = _floating(c, r)
        else:
            b = math.comb(c - 1, r - 1)
        assert table["multiplier"].iloc[j] == b
        assert table["adjusted_p_value"].iloc[j] == pytest.approx(
            min(1.0, b * split.p), rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("kind", ["nominal", "ordinal"])
def test_package_stops_merging_at_a_one_class_pair_tried_first(kind):
    """A deviation of the package, pinned: its merge round stops at the first pair with
    one class only, and merges it only if a pair tried before it reached ``alpha_merge``
    (``highest_p_join`` is still None, and ``not None`` reads as "every pair differs").
    Categories 0 and 1 pure in one class (the first pair) and 2, 3 alike (p = 0.75): the
    package merges nothing; treebook merges {0, 1} (one class: nothing to test) and then
    {2, 3}. The data sets above are chosen where no round meets such a pair first (adult's
    sparse education-num did, at a node of depth 1)."""
    x = np.array([0] * 10 + [1] * 10 + [2] * 20 + [3] * 20)
    y = np.array(["a"] * 30 + ["b"] * 10 + ["a"] * 11 + ["b"] * 9)
    cols = (x if kind == "ordinal" else x.astype(float))[:, None].astype(object)
    theirs = PackageTree.from_numpy(cols, y, alpha_merge=0.05, max_depth=1,
                                    min_parent_node_size=1, min_child_node_size=0,
                                    variable_types=[kind])
    assert _groups(theirs.tree_store[0].split, 4) == [[0], [1], [2], [3]]
    ours = CHAIDClassifier(alpha_split=1.0, bonferroni=False, max_depth=1,
                           ordinal=[0] if kind == "ordinal" else None).fit(
        pd.DataFrame({"x": pd.Categorical(x)}), y)
    assert ours.root_groups_[0] == ((0, 1), (2, 3))
    # 2 = (10 a, 10 b) and 3 = (11 a, 9 b) are alike: X² = 0.100, p = 0.752
    x2 = 40 * (10 * 9 - 10 * 11) ** 2 / (20 * 20 * 21 * 19)
    assert math.erfc(math.sqrt(x2 / 2)) == pytest.approx(0.7515, abs=1e-4)
