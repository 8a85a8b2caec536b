"""Output: a fitted :class:`~treebook.core.tree.Tree` as a drawing, as text and as rules.

Three views of the same tree, all read from its flat arrays and metadata (feature names,
category labels, class names), so they work for every learner and every node kind:

* :func:`to_graphviz` — a Graphviz drawing. Each node shows its test (the feature it
  splits on), its weighted number of training cases ``n`` and its class distribution;
  each edge the branch condition; each leaf its predicted class. Leaves are filled with
  their class's colour (a colour-blind-safe palette), internal nodes are neutral.
  The returned :class:`TreeGraph` displays as an *inline* SVG (``text/html``), which stays
  sharp at any zoom in JupyterLab and in the built book.
* :func:`export_text` — one line per node, indented by depth.
* :func:`to_rules` — one IF-THEN rule per leaf, with its *support* (the weighted number
  of training cases at the leaf, ``n(t)``) and *confidence* (the share of the majority
  class among them, ``max_k C_k / |D|``).

Branch conditions read:

=============  =========================  ==========================================
node kind      condition                  example
=============  =========================  ==========================================
``MULTIWAY``   ``feature = value``        ``outlook = sunny``
``THRESHOLD``  ``feature <= t`` / ``>``   ``temperature <= 75.5``, ``temperature > 75.5``
``SUBSET``     ``feature ∈ {…}``          ``colour ∈ {red, blue}``
=============  =========================  ==========================================

A case whose category has no branch at a node (a category never seen there in training)
stops at that node and gets its class distribution; no rule describes such a case.

Trees that route unknown values C4.5's way (a case goes down every branch with a
fractional weight, :meth:`~treebook.core.tree.Tree.route` with ``missing="distribute"``) can
show that routing in their rules: ``to_rules(tree, show_missing=True)`` appends to each
condition the weight a case whose value is unknown carries into that branch, e.g.
``outlook = sunny (if unknown: ×0.385)``.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable

import functools

import numpy as np

from .._optional import require_optional
from ..core.checks import check_depth_limit, format_temporal, threshold_value
from ..core.splits import get_routing
from ..core.tree import NodeKind, Tree, check_tree

__all__ = [
    "PALETTE",
    "Condition",
    "Rule",
    "RuleSet",
    "TreeGraph",
    "branch_conditions",
    "path_conditions",
    "to_graphviz",
    "export_text",
    "to_rules",
]

#: Okabe & Ito's colour-blind-safe palette (class k gets colour k mod 8).
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442",
           "#0072B2", "#D55E00", "#CC79A7", "#999999")
_INTERNAL_FILL = "#F2F2F2"
_INTERNAL_BORDER = "#7F7F7F"
_FONT = "Helvetica,Arial,sans-serif"


# ----------------------------------------------------------------------------- formatting
def _fmt_number(x: float, precision: int = 4) -> str:
    """A number as short text: ``75.5``, ``3``, ``0.3333`` (``precision`` significant)."""
    if hasattr(x, "isoformat") or hasattr(x, "total_seconds"):  # a date or a duration
        return format_temporal(x)
    x = float(x)
    if np.isfinite(x) and abs(x - round(x)) < 1e-9 * max(1.0, abs(x)):
        return str(int(round(x)))
    return f"{x:.{precision}g}"


def _fmt_count(x: float) -> str:
    """A (weighted) count: an integer as is, a fractional count with two decimals."""
    x = float(x)
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}"


def _fmt_value(v: Any) -> str:
    """A category label or class name as text (numbers without a trailing ``.0``)."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return _fmt_number(v)
    return str(v)


def _feature_name(tree: Tree, f: int) -> str:
    names = tree.feature_names
    return str(names[f]) if f < len(names) else f"x{f}"


def _category(tree: Tree, f: int, code: int):
    cats = tree.categories[f] if f < len(tree.categories) else None
    return cats[code] if cats is not None and 0 <= code < len(cats) else int(code)


def _class_names(tree: Tree) -> list[str]:
    if tree.classes is not None:
        return [_fmt_value(c) for c in tree.classes]
    return [str(k) for k in range(tree.n_classes)]


def _distribution_items(tree: Tree, node: int) -> list[tuple[str, str]]:
    return [(name, _fmt_count(c)) for name, c in zip(_class_names(tree), tree.value[node])]


def _prediction(tree: Tree, node: int):
    """Majority class (ties to the first class) or the mean response."""
    if tree.is_regression:
        return float(tree.value[node, 0])
    k = int(np.argmax(tree.value[node]))
    return tree.classes[k] if tree.classes is not None else k


# ----------------------------------------------------------------------------- conditions
@dataclass(frozen=True)
class Condition:
    """One test on a path: ``feature op value``.

    ``op`` is ``"="`` (a category), ``"<="`` or ``">"`` (a numeric threshold) or ``"in"``
    (a set of categories; ``value`` is then a tuple of labels). ``unknown``, when set, is
    the weight with which a case whose value of the feature is unknown goes down this
    branch (C4.5's fractional routing: the branch's share of the training weight).
    """

    feature: str
    op: str
    value: Any
    unknown: float | None = None

    def __str__(self) -> str:
        if self.op == "in" and len(self.value) == 1:  # a one-category set reads as "="
            text = f"{self.feature} = {_fmt_value(self.value[0])}"
        elif self.op == "in":
            text = f"{self.feature} ∈ {{{', '.join(_fmt_value(v) for v in self.value)}}}"
        elif self.op in ("<=", ">"):
            text = f"{self.feature} {self.op} {_fmt_number(self.value)}"
        else:
            text = f"{self.feature} = {_fmt_value(self.value)}"
        if self.unknown is not None:
            text += f" (if unknown: ×{_fmt_number(self.unknown, 3)})"
        return text

    def edge_label(self) -> str:
        """The condition without its feature name, as an edge of a drawing shows it."""
        if self.op == "in" and len(self.value) == 1:
            return _fmt_value(self.value[0])
        if self.op == "in":
            return "∈ {" + ", ".join(_fmt_value(v) for v in self.value) + "}"
        if self.op == "<=":
            return f"≤ {_fmt_number(self.value)}"
        if self.op == ">":
            return f"> {_fmt_number(self.value)}"
        return _fmt_value(self.value)


def branch_conditions(tree: Tree, node: int) -> list[Condition]:
    """The condition of each branch of an internal node, in branch order."""
    kind = NodeKind(tree.kind[node])
    if kind == NodeKind.LEAF:
        return []
    f = int(tree.feature[node])
    name = _feature_name(tree, f)
    if kind == NodeKind.THRESHOLD:
        t = threshold_value(tree, f, float(tree.threshold[node]))
        return [Condition(name, "<=", t), Condition(name, ">", t)]
    # the categories of every branch in one pass (increasing codes within a branch):
    # O(L log L) for the node, not O(L) per branch
    codes = np.asarray(tree.codes_of(node))
    n_b = tree.n_branches(node)
    seen = np.flatnonzero((codes >= 0) & (codes < n_b))
    seen = seen[np.argsort(codes[seen], kind="stable")]
    bounds = np.searchsorted(codes[seen], np.arange(n_b + 1))
    # a tree that names its missing category (CHAID fitted on missing values) shows it in
    # the branch a missing value takes (``missing_go``)
    missing_label = tree.extra.get("missing_label") if isinstance(tree.extra, dict) else None
    go = (int(tree.missing_go[node]) if missing_label is not None and kind == NodeKind.MULTIWAY
          and tree.missing_go is not None else -1)
    out = []
    for b in range(n_b):
        labels = tuple(_category(tree, f, int(c)) for c in seen[bounds[b]:bounds[b + 1]])
        if b == go:
            labels += (missing_label,)
        if kind == NodeKind.MULTIWAY and len(labels) == 1:
            out.append(Condition(name, "=", labels[0]))
        else:
            out.append(Condition(name, "in", labels))
    return out


def _branch_index(tree: Tree) -> np.ndarray:
    """Per node, its branch number under its parent (``-1`` for the root): one pass over
    the children arrays, so a walk never searches a parent's children for a child."""
    out = np.full(tree.node_count, -1, dtype=np.int64)
    ptr = np.asarray(tree.children_ptr)
    children = np.asarray(tree.children)
    counts = np.diff(ptr)
    within = np.arange(children.shape[0]) - np.repeat(ptr[:-1], counts)
    ok = (children >= 0) & (children < tree.node_count)
    out[children[ok]] = within[ok]
    return out


class _ConditionsOf:
    """``branch_conditions`` of each parent, computed once and kept while its children are
    rendered (a walk over ``n`` nodes then costs the size of its conditions, not
    ``n × branches``)."""

    def __init__(self, tree: Tree):
        self.tree = tree
        self.branch = _branch_index(tree)
        self._cache: dict[int, list[Condition]] = {}
        self.computed = 0  # how many nodes' conditions were built (tests count it)

    def of_parent(self, parent: int) -> list[Condition]:
        if parent not in self._cache:
            self._cache[parent] = branch_conditions(self.tree, parent)
            self.computed += 1
        return self._cache[parent]

    def of_child(self, child: int) -> Condition:
        """The condition on the edge into ``child`` (not the root)."""
        return self.of_parent(int(self.tree.parent[child]))[int(self.branch[child])]


def path_conditions(tree: Tree, node: int, *, unknown_shares: bool = False,
                    missing="distribute") -> list[Condition]:
    """The conditions on the path from the root to ``node`` (root first).

    With ``unknown_shares=True`` each condition carries the weight a case with an unknown
    value takes into its branch under the routing policy ``missing``
    (``treebook.core.splits.Split.route``; C4.5's ``"distribute"``: the branch's share of
    its parent's training weight), as :meth:`~treebook.core.tree.Tree.route` sends it.
    """
    policy = get_routing(missing) if unknown_shares else None
    conds = []
    child = int(node)
    parent = int(tree.parent[child])
    while parent >= 0:
        siblings = tree.children_of(parent)
        branch = int(np.flatnonzero(siblings == child)[0])
        cond = branch_conditions(tree, parent)[branch]
        if unknown_shares:
            share = float(policy.shares(tree.weighted_n[siblings])[branch])
            cond = Condition(cond.feature, cond.op, cond.value, share)
        conds.append(cond)
        child, parent = parent, int(tree.parent[parent])
    return conds[::-1]


def _both(a: float | None, b: float | None) -> float | None:
    """Unknown-value shares of two tests of one feature combine by multiplying."""
    return None if a is None or b is None else a * b


def _merge(out: dict, c: Condition):
    """Add condition ``c`` to the merged tests ``out`` (keyed by feature and kind of test);
    returns ``(key, previous)``, what :func:`_simplify`'s walk needs to undo it."""
    if c.op in ("=", "in"):
        key = (c.feature, "set")
        labels = (c.value,) if c.op == "=" else tuple(c.value)
        unknown = c.unknown
        if key in out:
            prev = out[key]
            old = (prev.value,) if prev.op == "=" else prev.value
            try:  # a set: O(|old| + |labels|) for many-level columns, not the product
                inside = set(labels)
                labels = tuple(v for v in old if v in inside)
            except TypeError:  # unhashable labels
                labels = tuple(v for v in old if v in labels)
            unknown = _both(prev.unknown, unknown)
        merged = Condition(c.feature, "=", labels[0], unknown) if len(labels) == 1 \
            else Condition(c.feature, "in", labels, unknown)
    else:
        key = (c.feature, c.op)
        merged = c
        if key in out:
            better = min if c.op == "<=" else max
            merged = Condition(c.feature, c.op, better(out[key].value, c.value),
                               _both(out[key].unknown, c.unknown))
    previous = out.get(key)
    out[key] = merged
    return key, previous


def _simplify(conds: list[Condition]) -> list[Condition]:
    """Merge repeated tests of one feature: the tightest thresholds, intersected sets."""
    out: dict[tuple[str, str], Condition] = {}
    for c in conds:
        _merge(out, c)
    return list(out.values())


# ----------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class Rule:
    """``IF conditions THEN target = prediction`` for one leaf.

    ``support`` is the weighted number of training cases at the leaf ``n(t)``;
    ``confidence`` the share of the predicted class among them (``None`` for a
    regression tree, whose rules carry the leaf's mean squared ``error`` instead).
    """

    conditions: tuple
    prediction: Any
    support: float
    confidence: float | None
    leaf: int
    distribution: dict = field(default_factory=dict)
    target: str = "class"
    error: float | None = None

    @property
    def antecedent(self) -> str:
        return " AND ".join(str(c) for c in self.conditions) if self.conditions else "TRUE"

    def __str__(self) -> str:
        then = f"{self.target} = {_fmt_value(self.prediction)}"
        if self.confidence is not None:
            stats = f"support {_fmt_count(self.support)}, confidence {self.confidence:.2f}"
        else:
            stats = f"support {_fmt_count(self.support)}, squared error {_fmt_number(self.error)}"
        return f"IF {self.antecedent} THEN {then}  [{stats}]"

    def to_dict(self) -> dict:
        d = {"rule": self.antecedent, "prediction": self.prediction,
             "support": self.support, "confidence": self.confidence, "leaf": self.leaf}
        if self.error is not None:
            d["error"] = self.error
            del d["confidence"]
        return d


class RuleSet(list):
    """A list of :class:`Rule`; prints one rule per line, ``to_frame()`` gives a table."""

    def __str__(self) -> str:
        return "\n".join(str(r) for r in self)

    __repr__ = __str__

    def to_frame(self):
        """One row per rule: ``rule``, ``prediction``, ``support``, ``confidence``, ``leaf``."""
        import pandas as pd

        return pd.DataFrame([r.to_dict() for r in self])

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False, float_format=lambda x: f"{x:.3g}")


def _leaf_conditions(tree: Tree, *, simplify: bool, unknown_shares: bool,
                     missing="distribute") -> dict[int, list[Condition]]:
    """Every leaf's path conditions (:func:`path_conditions`, merged by :func:`_simplify`
    when ``simplify``) in one depth-first walk: each edge's condition is built once and
    pushed on entering the child, undone on leaving it, so the walk costs the size of the
    rules it returns, not the sum of the depths times the branching."""
    policy = get_routing(missing) if unknown_shares else None
    conds_of = _ConditionsOf(tree)
    out: dict[int, list[Condition]] = {}
    path: list[Condition] = []      # simplify=False: the conditions root first
    merged: dict = {}                # simplify=True: the merged tests so far
    undo: list = []                  # per level: how to restore ``path`` / ``merged``
    shares: dict = {}                # per parent: its branches' unknown-value shares
    stack = [(0, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:  # restore the state the parent had
            if simplify:
                key, previous = undo.pop()
                if previous is None:
                    del merged[key]
                else:
                    merged[key] = previous
            else:
                path.pop()
            continue
        if node > 0:
            cond = conds_of.of_child(node)
            if unknown_shares:
                parent = int(tree.parent[node])
                if parent not in shares:  # once per parent, not once per child
                    shares[parent] = policy.shares(tree.weighted_n[tree.children_of(parent)])
                share = float(shares[parent][conds_of.branch[node]])
                cond = Condition(cond.feature, cond.op, cond.value, share)
            if simplify:
                undo.append(_merge(merged, cond))
            else:
                path.append(cond)
            stack.append((node, True))
        if tree.kind[node] == NodeKind.LEAF:
            out[node] = list(merged.values()) if simplify else list(path)
            continue
        children = [int(c) for c in tree.children_of(node) if 0 <= c < tree.node_count]
        stack.extend((c, False) for c in reversed(children))
    return out


def to_rules(tree: Tree, *, target_name: str = "class", simplify: bool = True,
             show_missing: bool = False, missing="distribute") -> RuleSet:
    """One IF-THEN rule per leaf, in the leaves' left-to-right order.

    With ``simplify=True`` repeated tests of the same feature on a path are merged (the
    tightest ``<=`` and ``>`` thresholds, the intersection of category sets), so a binary
    tree's rule reads ``age > 20 AND age <= 40`` rather than
    ``age > 20 AND age <= 60 AND age <= 40``.
    With ``show_missing=True`` (for trees that route unknown values fractionally, as
    C4.5's) each condition also states the weight a case with an unknown value carries
    into its branch under the routing policy ``missing``; merged tests of one feature
    multiply their weights.
    """
    check_tree(tree)
    rules = RuleSet()
    classes = _class_names(tree) if not tree.is_regression else []
    conds_of_leaf = _leaf_conditions(tree, simplify=simplify, unknown_shares=show_missing,
                                     missing=missing)
    for leaf in np.flatnonzero(tree.is_leaf):
        conds = conds_of_leaf[int(leaf)]
        n = float(tree.weighted_n[leaf])
        if tree.is_regression:
            rules.append(Rule(tuple(conds), float(tree.value[leaf, 0]), n, None, int(leaf),
                              {}, target_name, float(tree.impurity[leaf])))
        else:
            counts = tree.value[leaf]
            tot = counts.sum()
            conf = float(counts.max() / tot) if tot > 0 else 0.0
            rules.append(Rule(tuple(conds), _prediction(tree, leaf), n, conf, int(leaf),
                              dict(zip(classes, counts.tolist())), target_name))
    return rules


# ----------------------------------------------------------------------------- text
def _node_summary(tree: Tree, node: int, precision: int = 3) -> str:
    n = _fmt_count(tree.weighted_n[node])
    if tree.is_regression:
        return (f"n = {n}, value = {_fmt_number(tree.value[node, 0], precision + 1)}, "
                f"squared error = {_fmt_number(tree.impurity[node], precision + 1)}")
    dist = ", ".join(f"{name} {c}" for name, c in _distribution_items(tree, node))
    return f"n = {n} [{dist}]"


def export_text(tree: Tree, *, max_depth: int | None = None, node_ids: bool = False,
                precision: int = 3) -> str:
    """The tree as indented text, one line per node (depth-first, branches in order).

    A leaf's line ends with ``→ prediction``; an internal node cut off by ``max_depth``
    ends with ``…`` and the number of leaves below it.
    """
    check_tree(tree)
    max_depth = check_depth_limit(max_depth)
    lines = []
    conds_of = _ConditionsOf(tree)
    for node in range(tree.node_count):
        depth = int(tree.depth[node])
        if max_depth is not None and depth > max_depth:
            continue
        if node == 0:
            head = "root"
        else:
            head = "|   " * (depth - 1) + "|--- " + str(conds_of.of_child(node))
        tag = f"#{node} " if node_ids else ""
        line = f"{head}: {tag}{_node_summary(tree, node, precision)}"
        if tree.kind[node] == NodeKind.LEAF:
            pred = _prediction(tree, node)
            line += " → " + (_fmt_number(pred, precision + 1) if tree.is_regression
                             else _fmt_value(pred))
        elif max_depth is not None and depth == max_depth:
            line += f" … ({len(tree.leaves_below(node))} leaves below)"
        lines.append(line)
    return "\n".join(lines)


# ----------------------------------------------------------------------------- drawing
_counter = itertools.count()


def _unique_prefix(text: str) -> str:
    """A deterministic id prefix: a hash of the content and a per-session counter."""
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    return f"tb{digest}{next(_counter)}"


def inline_svg(svg: str, css_class: str = "tb-tree") -> str:
    """Graphviz SVG made fit to sit inside an HTML page.

    Drops the XML prolog and DOCTYPE, makes every ``id`` unique (several drawings on one
    page must not share ``node1``), and lets the picture shrink to the page width while
    keeping its aspect ratio.
    """
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<!--.*?-->\s*", "", svg, flags=re.S)
    prefix = _unique_prefix(svg)
    svg = re.sub(r'\bid="([^"]*)"', lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r'(xlink:)?href="#([^"]*)"',
                 lambda m: f'{m.group(1) or ""}href="#{prefix}-{m.group(2)}"', svg)
    # inside HTML an <svg> element needs no namespace declarations: dropping them leaves
    # the page with no URL at all in its drawings
    svg = re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", svg, count=2)
    svg = svg.replace("<svg ", f'<svg class="{css_class}" style="max-width:100%;height:auto" ', 1)
    return svg


@functools.cache
def _tree_graph_class():
    """The class :class:`TreeGraph`, made on first use: it extends ``graphviz.Digraph``,
    and the Python package graphviz is optional (``treebook[plot]``), so text and rules
    work without it."""
    graphviz = require_optional("graphviz", "drawing a tree (to_graphviz, TreeGraph)")

    class TreeGraph(graphviz.Digraph):
        """A ``graphviz.Digraph`` that also displays as inline SVG (``text/html``).

        Jupyter shows Graphviz objects as ``image/svg+xml``; the built book turns that into
        an ``<img>`` of a file. The ``text/html`` entry added here is the same SVG inline in
        the page, which the book is configured to prefer: crisp at any zoom, text
        selectable.
        """

        def to_svg(self) -> str:
            """The drawing as inline SVG markup (see ``inline_svg``)."""
            return inline_svg(self.pipe(format="svg", encoding="utf-8"))

        def to_html(self) -> str:
            return f'<div class="tb-tree-drawing">{self.to_svg()}</div>'

        def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
            svg = self.pipe(format="svg", encoding="utf-8")
            bundle = {"image/svg+xml": svg,
                      "text/html": f'<div class="tb-tree-drawing">{inline_svg(svg)}</div>',
                      "text/plain": f"<tree drawing: {self.name or 'Digraph'}>"}
            if include is not None:
                bundle = {k: v for k, v in bundle.items() if k in set(include)}
            for k in exclude or ():
                bundle.pop(k, None)
            return bundle

    TreeGraph.__module__, TreeGraph.__qualname__ = __name__, "TreeGraph"
    return TreeGraph


def __getattr__(name: str):
    # ``treebook.render.TreeGraph`` (and pickles of its instances) find the class
    if name == "TreeGraph":
        return _tree_graph_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _tint(hex_colour: str, amount: float) -> str:
    """Mix a colour with white: ``amount`` 0 gives white, 1 the colour itself."""
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)
    mixed = 255 - amount * (255 - rgb)
    return "#" + "".join(f"{int(round(c)):02X}" for c in mixed)


def _esc(text: str) -> str:
    """``text`` as the content of a Graphviz HTML-like label: markup characters escaped,
    ``]`` as a character reference (dot's label lexer misreads some bare ones), control
    characters shown as their Python escapes (dot's XML parser refuses them), and the
    empty string shown as ``""`` (an empty ``<B></B>`` is a syntax error to dot)."""
    text = str(text)
    if text == "":
        return "&quot;&quot;"
    text = "".join(repr(ch)[1:-1] if unicodedata.category(ch) == "Cc" else ch for ch in text)
    return html.escape(text, quote=True).replace("]", "&#93;")


def _html_label(lines: list[str]) -> str:
    return "<" + "<BR/>".join(lines) + ">"


def _distribution_lines(tree: Tree, node: int, per_line: int = 3) -> list[str]:
    items = [f"{_esc(name)} {c}" for name, c in _distribution_items(tree, node)]
    return [" · ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]


def to_graphviz(tree: Tree, *, max_depth: int | None = None, highlight: Iterable[int] = (),
                class_colors: dict | None = None, rankdir: str = "TB",
                precision: int = 3, name: str = "tree") -> "TreeGraph":
    """Draw ``tree`` with Graphviz.

    Parameters
    ----------
    max_depth : draw only nodes up to this depth; an internal node at the limit is drawn
        dashed with the number of leaves it hides (big trees stay readable).
    highlight : node ids to emphasise (e.g. a decision path: thick nodes and edges).
    class_colors : ``{class: "#RRGGBB"}`` to override :data:`PALETTE`.
    rankdir : ``"TB"`` (root on top) or ``"LR"`` (root on the left).
    """
    check_tree(tree)
    if rankdir not in ("TB", "LR"):
        raise ValueError(f"rankdir must be 'TB' or 'LR'; got {rankdir!r}")
    max_depth = check_depth_limit(max_depth)
    hl = {int(i) for i in np.asarray(list(highlight), dtype=np.int64).ravel()}
    g = _tree_graph_class()(name=name)
    g.attr("graph", rankdir=rankdir, ranksep="0.3", nodesep="0.2", margin="0.05",
           fontname=_FONT)
    g.attr("node", shape="box", style="rounded,filled", fontname=_FONT, fontsize="11",
           margin="0.08,0.04", penwidth="1.2")
    g.attr("edge", fontname=_FONT, fontsize="10", color="#555555", arrowsize="0.6")
    colours = list(PALETTE)
    if tree.is_regression:
        vals = tree.value[:, 0]
        lo, hi = float(vals.min()), float(vals.max())
    conds_of = _ConditionsOf(tree)
    for node in range(tree.node_count):
        depth = int(tree.depth[node])
        if max_depth is not None and depth > max_depth:
            continue
        leaf = tree.kind[node] == NodeKind.LEAF
        cut = not leaf and max_depth is not None and depth == max_depth
        n = _fmt_count(tree.weighted_n[node])
        lines = []
        if leaf:
            pred = _prediction(tree, node)
            shown = _fmt_number(pred, precision + 1) if tree.is_regression else _fmt_value(pred)
            lines.append(f"<B>{_esc(shown)}</B>")
        else:
            lines.append(f"<B>{_esc(_feature_name(tree, int(tree.feature[node])))}</B>"
                         + (" …" if cut else ""))
        lines.append(f"n = {n}")
        if tree.is_regression:
            if not leaf:
                lines.append(f"value = {_fmt_number(tree.value[node, 0], precision + 1)}")
            lines.append(f"squared error = {_fmt_number(tree.impurity[node], precision + 1)}")
        else:
            lines.extend(_distribution_lines(tree, node))
        if cut:
            lines.append(f"<I>{len(tree.leaves_below(node))} leaves below</I>")
        attrs = {}
        if leaf and tree.is_regression:
            share = 0.5 if hi <= lo else (float(tree.value[node, 0]) - lo) / (hi - lo)
            attrs.update(fillcolor=_tint("#0072B2", 0.15 + 0.55 * share), color="#0072B2")
        elif leaf:
            k = int(np.argmax(tree.value[node]))
            colour = (class_colors or {}).get(tree.classes[k] if tree.classes is not None else k)
            colour = colour or colours[k % len(colours)]
            attrs.update(fillcolor=_tint(colour, 0.5), color=colour)
        else:
            attrs.update(fillcolor=_INTERNAL_FILL, color=_INTERNAL_BORDER)
        if cut:
            attrs["style"] = "rounded,filled,dashed"
        if node in hl:
            attrs["penwidth"] = "3"
            attrs["color"] = "#000000"
        g.node(f"n{node}", _html_label(lines), **attrs)
        if node > 0:
            parent = int(tree.parent[node])
            label = conds_of.of_child(node).edge_label()
            eattrs = {"penwidth": "2.5", "color": "#000000"} if node in hl and parent in hl else {}
            label = label.replace("\\", "\\\\")  # a backslash would start a dot escape
            g.edge(f"n{parent}", f"n{node}", label=" " + label + " ", **eattrs)
    return g
