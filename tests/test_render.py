"""Drawings, text and rules: every node appears, every node kind reads correctly."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treebook import ID3Classifier
from treebook.datasets import load_play_tennis
from treebook.io.render import (PALETTE, Condition, Rule, RuleSet, TreeGraph, _tint,
                             branch_conditions, export_text, inline_svg, path_conditions,
                             to_graphviz, to_rules)
from treebook.core.tree import NodeKind, TreeBuilder

#   0: temperature <= 75.5                       [6, 6]
#   ├─ 1: outlook (multiway; overcast unseen)    [4, 1]
#   │   ├─ 2: leaf (rain)                        [1, 1]   a tie → first class "no"
#   │   └─ 3: leaf (sunny)                       [3, 0]
#   └─ 4: colour ∈ {blue, red} / {green}         [2, 5]
#       ├─ 5: leaf                               [0, 4]
#       └─ 6: leaf                               [2, 1]


def mixed_tree(names=("temperature", "outlook", "colour"), classes=("no", "yes")):
    b = TreeBuilder()
    r = b.add_node(-1, [6, 6], 12, 12, 1.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, threshold=75.5)
    a = b.add_node(r, [4, 1], 5, 5, 0.72)
    c = b.add_node(r, [2, 5], 7, 7, 0.86)
    b.set_split(a, 1, NodeKind.MULTIWAY, branch_of_code=[-1, 0, 1])
    b.add_node(a, [1, 1], 2, 2, 1.0)
    b.add_node(a, [3, 0], 3, 3, 0.0)
    b.set_split(c, 2, NodeKind.SUBSET, branch_of_code=[0, 1, 0])
    b.add_node(c, [0, 4], 4, 4, 0.0)
    b.add_node(c, [2, 1], 3, 3, 0.92)
    cats = (None, np.array(["overcast", "rain", "sunny"], dtype=object),
            np.array(["blue", "green", "red"], dtype=object))
    return b.build(feature_names=names, categories=cats, classes=np.array(classes, dtype=object))


def graph_nodes(g) -> set[int]:
    return {int(m) for m in re.findall(r"^\s*n(\d+) \[", g.source, flags=re.M)}


def graph_edges(g) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(r"^\s*n(\d+) -> n(\d+)", g.source, flags=re.M)]


def test_conditions_of_every_node_kind():
    t = mixed_tree()
    assert [str(c) for c in branch_conditions(t, 0)] == ["temperature <= 75.5", "temperature > 75.5"]
    assert [str(c) for c in branch_conditions(t, 1)] == ["outlook = rain", "outlook = sunny"]
    assert [str(c) for c in branch_conditions(t, 4)] == ["colour ∈ {blue, red}", "colour = green"]
    assert [c.op for c in branch_conditions(t, 4)] == ["in", "in"]
    assert branch_conditions(t, 2) == []
    assert [c.edge_label() for c in branch_conditions(t, 0)] == ["≤ 75.5", "> 75.5"]
    assert [str(c) for c in path_conditions(t, 6)] == ["temperature > 75.5", "colour = green"]
    assert [c.edge_label() for c in branch_conditions(t, 4)] == ["∈ {blue, red}", "green"]
    assert path_conditions(t, 0) == []


def test_export_text_has_one_line_per_node():
    t = mixed_tree()
    text = export_text(t)
    lines = text.splitlines()
    assert len(lines) == t.node_count
    assert lines[0] == "root: n = 12 [no 6, yes 6]"
    assert lines[1] == "|--- temperature <= 75.5: n = 5 [no 4, yes 1]"
    assert lines[2] == "|   |--- outlook = rain: n = 2 [no 1, yes 1] → no"   # tie → first class
    assert lines[5] == "|   |--- colour ∈ {blue, red}: n = 4 [no 0, yes 4] → yes"
    assert sum(line.endswith(("→ no", "→ yes")) for line in lines) == t.n_leaves
    cut = export_text(t, max_depth=1, node_ids=True).splitlines()
    assert len(cut) == 3 and cut[1].endswith("… (2 leaves below)") and "#1" in cut[1]


def test_drawing_has_every_node_and_edge_and_colours_leaves_by_class():
    t = mixed_tree()
    g = to_graphviz(t)
    assert isinstance(g, TreeGraph)
    assert graph_nodes(g) == set(range(t.node_count))
    assert sorted(graph_edges(g)) == sorted((int(t.parent[i]), i) for i in range(1, t.node_count))
    for label in ("temperature", "outlook", "colour", "≤ 75.5", "> 75.5", "rain", "sunny",
                  "∈ {blue, red}", '" green "', "n = 12", "no 6 · yes 6"):
        assert label in g.source, label
    for node in range(t.node_count):
        line = re.search(rf"^\s*n{node} \[(.*)$", g.source, flags=re.M).group(1)
        if t.kind[node] == NodeKind.LEAF:
            k = int(np.argmax(t.value[node]))
            assert f'color="{PALETTE[k]}" fillcolor="{_tint(PALETTE[k], 0.5)}"' in line
        else:
            assert 'fillcolor="#F2F2F2"' in line
    # leaves name their class in bold
    assert "<B>yes</B>" in g.source and "<B>no</B>" in g.source


def test_inline_svg_bundle_is_self_contained_and_ids_are_unique():
    g = to_graphviz(mixed_tree())
    bundle = g._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/html", "text/plain"}
    html = bundle["text/html"]
    assert html.startswith('<div class="tb-tree-drawing"><svg')
    assert "<?xml" not in html and "<!DOCTYPE" not in html and "http" not in html
    assert html.count('class="node"') == 7 and html.count('class="edge"') == 6
    ids_a = set(re.findall(r'id="([^"]+)"', html))
    ids_b = set(re.findall(r'id="([^"]+)"', g._repr_mimebundle_()["text/html"]))
    assert ids_a and not ids_a & ids_b
    assert g._repr_mimebundle_(include=["text/html"]).keys() == {"text/html"}
    assert "image/svg+xml" not in g._repr_mimebundle_(exclude=["image/svg+xml"])
    assert g.to_html().count("<svg") == 1


def test_max_depth_and_highlight():
    t = mixed_tree()
    g = to_graphviz(t, max_depth=1)
    assert graph_nodes(g) == {0, 1, 4}
    assert g.source.count("dashed") == 2 and "2 leaves below" in g.source
    h = to_graphviz(t, highlight=[0, 4, 6])
    thick = {int(n) for n in re.findall(r"^\s*n(\d+) \[.*penwidth=3", h.source, flags=re.M)}
    assert thick == {0, 4, 6}
    assert len(re.findall(r"-> n\d+ \[.*penwidth=2\.5", h.source)) == 2
    with pytest.raises(ValueError, match="rankdir"):
        to_graphviz(t, rankdir="BT")
    with pytest.raises(ValueError, match="max_depth"):
        to_graphviz(t, max_depth=-1)
    assert 'rankdir=LR' in to_graphviz(t, rankdir="LR").source


def test_rules_one_per_leaf_with_support_and_confidence():
    t = mixed_tree()
    rules = to_rules(t, target_name="play")
    assert isinstance(rules, RuleSet) and all(isinstance(r, Rule) for r in rules)
    assert [r.leaf for r in rules] == [2, 3, 5, 6]
    assert [r.support for r in rules] == [2, 3, 4, 3]
    assert [r.confidence for r in rules] == pytest.approx([0.5, 1.0, 1.0, 2 / 3])
    assert [r.prediction for r in rules] == ["no", "no", "yes", "no"]
    # a one-category subset reads as an equality
    assert str(rules[3]) == ("IF temperature > 75.5 AND colour = green THEN play = no  "
                             "[support 3, confidence 0.67]")
    assert str(rules).count("\n") == 3 and repr(rules) == str(rules)
    frame = rules.to_frame()
    assert list(frame.columns) == ["rule", "prediction", "support", "confidence", "leaf"]
    assert frame["support"].sum() == t.weighted_n[0]
    assert rules[0].distribution == {"no": 1.0, "yes": 1.0}
    assert "<table" in rules._repr_html_()


def test_rules_merge_repeated_tests_of_a_feature():
    b = TreeBuilder()
    r = b.add_node(-1, [3, 3], 6, 6, 1.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, threshold=5.0)
    a = b.add_node(r, [3, 1], 4, 4, 0.8)
    b.add_node(r, [0, 2], 2, 2, 0.0)
    b.set_split(a, 0, NodeKind.THRESHOLD, threshold=2.0)
    b.add_node(a, [2, 0], 2, 2, 0.0)
    s = b.add_node(a, [1, 1], 2, 2, 1.0)
    b.set_split(s, 0, NodeKind.THRESHOLD, threshold=3.0)
    b.add_node(s, [1, 0], 1, 1, 0.0)
    b.add_node(s, [0, 1], 1, 1, 0.0)
    t = b.build(feature_names=("age",))
    merged = [r.antecedent for r in to_rules(t)]
    assert merged == ["age <= 2", "age <= 3 AND age > 2", "age <= 5 AND age > 3", "age > 5"]
    raw = [r.antecedent for r in to_rules(t, simplify=False)]
    assert raw[1] == "age <= 5 AND age > 2 AND age <= 3"
    assert str(to_rules(t)[0]).endswith("THEN class = 0  [support 2, confidence 1.00]")


def test_fractional_counts_and_missing_metadata():
    b = TreeBuilder()
    r = b.add_node(-1, [2.5, 1 / 3], 2.5 + 1 / 3, 3, 0.5)
    b.set_split(r, 0, NodeKind.MULTIWAY, branch_of_code=[0, 1])
    b.add_node(r, [2.5, 0], 2.5, 2, 0.0)
    b.add_node(r, [0, 1 / 3], 1 / 3, 1, 0.0)
    t = b.build()  # no names, categories or classes
    text = export_text(t)
    assert text.splitlines()[0] == "root: n = 2.83 [0 2.50, 1 0.33]"
    assert "x0 = 0" in text and "x0 = 1" in text
    assert "n = 2.83" in to_graphviz(t).source
    assert str(to_rules(t)[1]).endswith("[support 0.33, confidence 1.00]")


def test_regression_tree_output():
    b = TreeBuilder(is_regression=True)
    r = b.add_node(-1, [2.0], 4, 4, 1.0)
    b.set_split(r, 0, NodeKind.THRESHOLD, threshold=0.25)
    b.add_node(r, [1.0], 2, 2, 0.0)
    b.add_node(r, [3.0], 2, 2, 0.5)
    t = b.build(feature_names=("x",))
    text = export_text(t).splitlines()
    assert text[0] == "root: n = 4, value = 2, squared error = 1"
    assert text[2] == "|--- x > 0.25: n = 2, value = 3, squared error = 0.5 → 3"
    g = to_graphviz(t)
    assert graph_nodes(g) == {0, 1, 2} and "squared error" in g.source
    rules = to_rules(t, target_name="y")
    assert [r.prediction for r in rules] == [1.0, 3.0] and rules[0].confidence is None
    assert str(rules[1]) == "IF x > 0.25 THEN y = 3  [support 2, squared error 0.5]"
    assert "error" in rules.to_frame().columns and "confidence" not in rules.to_frame()


def test_awkward_names_are_escaped():
    t = mixed_tree(names=("t<&>", 'out"look', "col\\our"), classes=("<no>", "yes & more"))
    g = to_graphviz(t)
    svg = g.pipe(format="svg", encoding="utf-8")  # dot accepts the source
    assert "t&lt;&amp;&gt;" in g.source and "&lt;no&gt;" in svg
    assert "col\\our" in export_text(t)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4))
def test_every_node_appears_in_drawing_text_and_rules(seed, m):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.choice(list("abc"), size=(30, m)), columns=[f"f{j}" for j in range(m)])
    y = rng.choice(["p", "q", "r"], size=30)
    model = ID3Classifier().fit(X, y)
    t = model.tree_
    assert graph_nodes(model.to_graphviz()) == set(range(t.node_count))
    assert len(model.export_text().splitlines()) == t.node_count
    rules = model.to_rules()
    assert sorted(r.leaf for r in rules) == np.flatnonzero(t.is_leaf).tolist()
    for r in rules:
        assert len(r.conditions) == t.depth[r.leaf]
        assert r.support == t.weighted_n[r.leaf]
        # the rule's conditions select exactly the training rows that reach its leaf
        mask = np.ones(len(X), dtype=bool)
        for c in r.conditions:
            assert isinstance(c, Condition) and c.op == "="
            mask &= X[c.feature].to_numpy() == c.value
        assert np.array_equal(mask, model.apply(X) == r.leaf)


def test_tennis_drawing_names_features_classes_and_values():
    X, y = load_play_tennis(return_X_y=True)
    g = ID3Classifier().fit(X, y).to_graphviz()
    for word in ("Outlook", "Humidity", "Wind", "Sunny", "Overcast", "Rain", "High",
                 "Normal", "Strong", "Weak", "No 5 · Yes 9"):
        assert word in g.source
    svg = inline_svg(g.pipe(format="svg", encoding="utf-8"))
    assert svg.startswith('<svg class="tb-tree"') and "max-width:100%" in svg


def test_every_learners_tree_renders_every_node():
    from test_tree import learner_trees

    for name, model, _ in learner_trees():
        t = model.tree_
        assert graph_nodes(model.to_graphviz()) == set(range(t.node_count)), name
        assert len(model.export_text().splitlines()) == t.node_count, name
        rules = model.to_rules()
        assert sorted(r.leaf for r in rules) == np.flatnonzero(t.is_leaf).tolist(), name
        assert sum(r.support for r in rules) == pytest.approx(t.weighted_n[0]), name
        html = model.to_graphviz()._repr_mimebundle_()["text/html"]
        assert html.count('class="node"') == t.node_count, name
