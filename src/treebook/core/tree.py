"""One fitted-tree representation for every algorithm: flat numpy arrays.

A tree with ``n`` nodes is a set of parallel arrays indexed by node id (the root is 0 and
ids follow a depth-first pre-order, whichever grower built the tree):

=====================  =======================================================================
``kind[i]``            :class:`NodeKind`: ``LEAF``, ``THRESHOLD`` (numeric, ``x <= t`` goes to
                       branch 0, ``x > t`` to branch 1), ``MULTIWAY`` (one branch per category)
                       or ``SUBSET`` (binary on a category set: branch 0 = the left subset)
``feature[i]``         the feature tested (``-1`` at a leaf)
``threshold[i]``       the cut of a ``THRESHOLD`` node (NaN otherwise)
``children``           branch ``b`` of node ``i`` is ``children[children_ptr[i] + b]``
``branch_of_code``     for ``MULTIWAY``/``SUBSET`` nodes: category code ``c`` of the feature takes
                       branch ``branch_of_code[code_ptr[i] + c]``; ``-1`` means "no branch":
                       the category was never seen at this node
``parent``, ``depth``  the parent id (``-1`` at the root) and depth (root 0)
``value[i]``           weighted class counts ``C_k`` of the training cases at the node
                       (classification, shape ``(n, K)``) or the mean response (regression,
                       shape ``(n, 1)``)
``weighted_n``         ``|D|``, the total training weight at the node
``n_samples``          how many training rows reached the node (with positive weight)
``impurity[i]``        the node's impurity under the criterion that grew the tree
``missing_go[i]``      CART's rule for a missing value (optional, ``None`` for the other
                       learners): the branch a case with a missing value takes at node ``i``
                       when no surrogate decides, ``-1`` for none (the case stays there)
``surrogates[i]``      CART's ranked surrogate splits of node ``i``: a tuple of
                       ``Surrogate`` (empty without surrogates)
=====================  =======================================================================

Categorical features reach the tree as integer codes (see ``treebook.core.encoding``); numeric
features as floats; a missing value as NaN. A category code that has no branch at a node
(or a negative code: a category never seen in training) stops the case at that node, so
its prediction is that node's class distribution: never a crash, never ``None``.

Prediction walks all rows down the tree together, one depth level per step: the Python
loop runs ``max_depth`` times, never once per row. Where a row goes at a node is the rule
of ``treebook.core.splits`` (``branch_codes`` for known values, a
``RoutingPolicy`` for missing values and unseen categories), the same
rule the growers and pruning use; on trees of numeric thresholds only, :func:`apply_binary`
is the same walk laid out for the cache.

This module imports no grower: growers (``treebook.growers.recursive``, ``treebook.growers.levelwise``)
build trees through :class:`TreeBuilder`, pruning (:mod:`treebook.prune`) makes them
smaller through :meth:`Tree.prune`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..kernels.walk import walk_thresholds, walk_tree
from .splits import FAN, STOP, NodeKind, branch_codes, get_routing, resolve_missing
from .tree_validation import MalformedModelError, validate_tree

__all__ = ["MalformedModelError", "NodeKind", "Tree", "TreeBuilder", "WalkTables",
           "apply_binary", "apply_compiled", "check_tree", "walk_tables"]


@dataclass(frozen=True, eq=False)
class Tree:
    """A fitted decision tree of any algorithm, as flat arrays indexed by node id.

    The fields are described in the module docstring (``kind``, ``feature``,
    ``threshold``, ``children_ptr``/``children``, ``code_ptr``/``branch_of_code``,
    ``parent``, ``depth``, ``value``, ``weighted_n``, ``n_samples``, ``impurity``), plus
    ``is_regression`` and descriptive metadata (``feature_names``, ``categories``,
    ``classes``, ``extra``) for drawings and rules. A tree is immutable: :meth:`prune`
    and :meth:`truncate` return new trees. Build one with :class:`TreeBuilder`.

    Construction checks the arrays (``treebook.core.tree_validation.validate_tree``:
    children in range, a tree and not a graph, features in range, finite statistics) and
    raises :class:`~treebook.core.tree_validation.MalformedModelError` naming the field; so does every tree made by
    ``dataclasses.replace``.

    Routing: :meth:`apply` (the node each row ends at), :meth:`route` (end nodes with
    weights, for fractional routing), :meth:`distribution` (class probabilities or
    values), :meth:`decision_path`. Prediction per node: :meth:`node_prediction`.

    ``tables`` (not a field) holds the :class:`WalkTables` that :meth:`apply` and
    :meth:`distribution` read: built by :func:`walk_tables` once, when the tree is made
    (or unpickled), never per call, and read-only.
    """

    kind: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    children_ptr: np.ndarray
    children: np.ndarray
    code_ptr: np.ndarray
    branch_of_code: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    value: np.ndarray
    weighted_n: np.ndarray
    n_samples: np.ndarray
    impurity: np.ndarray
    is_regression: bool = False
    # descriptive metadata, for drawings and rules
    feature_names: tuple = ()
    categories: tuple = ()  # per feature: array of category labels, or None for numeric
    classes: np.ndarray | None = None
    extra: dict = field(default_factory=dict)
    # CART's missing-value rule (see the module docstring); None / () for other learners
    missing_go: np.ndarray | None = None
    surrogates: tuple = ()
    #: a category with no branch at a node is routed like a missing value (rpart)
    unseen_as_missing: bool = False

    def __post_init__(self):
        validate_tree(self)  # a tree can come from an untrusted model file
        # the tables prediction reads, built once here (not on every call) and read-only,
        # so threads predicting at once share nothing writable
        object.__setattr__(self, "tables", walk_tables(self))

    def __getstate__(self):
        # a pickle holds the fields only; the tables are rebuilt when it is loaded
        state = dict(self.__dict__)
        state.pop("tables", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        object.__setattr__(self, "tables", walk_tables(self))

    # ------------------------------------------------------------------ shape and structure
    @property
    def node_count(self) -> int:
        return int(self.kind.shape[0])

    @property
    def is_leaf(self) -> np.ndarray:
        return self.kind == NodeKind.LEAF

    @property
    def n_leaves(self) -> int:
        return int(np.count_nonzero(self.is_leaf))

    @property
    def max_depth(self) -> int:
        return int(self.depth.max()) if self.node_count else 0

    @property
    def n_classes(self) -> int:
        return 0 if self.is_regression else int(self.value.shape[1])

    def n_branches(self, node: int) -> int:
        return int(self.children_ptr[node + 1] - self.children_ptr[node])

    def children_of(self, node: int) -> np.ndarray:
        return self.children[self.children_ptr[node] : self.children_ptr[node + 1]]

    def codes_of(self, node: int) -> np.ndarray:
        """``branch_of_code`` entries of one categorical node (index = category code)."""
        return self.branch_of_code[self.code_ptr[node] : self.code_ptr[node + 1]]

    def subtree(self, node: int) -> np.ndarray:
        """Ids of ``node`` and all its descendants (a contiguous block in pre-order)."""
        end = node + 1
        while end < self.node_count and self.depth[end] > self.depth[node]:
            end += 1
        return np.arange(node, end)

    def leaves_below(self, node: int) -> np.ndarray:
        ids = self.subtree(node)
        return ids[self.kind[ids] == NodeKind.LEAF]

    def predicted_class_index(self) -> np.ndarray:
        """Per node, the index of the majority class (ties go to the lowest index)."""
        if self.is_regression:
            raise ValueError("a regression tree has no classes")
        return np.argmax(self.value, axis=1)

    def impurity_decrease_by_feature(self, n_features: int) -> np.ndarray:
        """``Σ_t |D_t|·I(t) − Σ_{c child of t} |D_c|·I(c)`` over the internal nodes ``t``
        testing each feature (unnormalised mean decrease in impurity)."""
        out = np.zeros(int(n_features))
        weighted = self.weighted_n * self.impurity
        for t in np.flatnonzero(~self.is_leaf):
            out[self.feature[t]] += weighted[t] - weighted[self.children_of(t)].sum()
        return out

    def node_prediction(self, laplace: bool = False) -> np.ndarray:
        """What each node predicts: class frequencies ``C_k/|D|`` (shape ``(n, K)``) or the
        mean response (shape ``(n,)``). With ``laplace=True`` the Laplace estimates
        ``(C_k + 1)/(|D| + K)`` (J48's ``-A``). A node that no training case reached
        (weight 0) takes the estimates of its nearest ancestor that has cases, as C4.5 and
        J48 label an empty branch by its parent."""
        if self.is_regression:
            return self.value[:, 0]
        tot = self.value.sum(axis=1, keepdims=True)
        if laplace:
            freq = (self.value + 1.0) / (tot + self.value.shape[1])
        else:
            freq = self.value / np.where(tot > 0, tot, 1.0)
        # pre-order: a parent is fixed before its children
        for i in np.flatnonzero(tot[1:, 0] <= 0) + 1:
            freq[i] = freq[self.parent[i]]
        return freq

    # ------------------------------------------------------------------------- routing
    def _branch(self, nodes: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Branch index taken at each node by feature value ``x``; -1 stops, -2 is missing
        (the rule of ``treebook.core.splits.branch_codes``, for many nodes at once)."""
        start = self.code_ptr[nodes]
        return branch_codes(self.kind[nodes], self.threshold[nodes], start,
                            self.code_ptr[nodes + 1] - start, self.branch_of_code, x)

    def _resolve_missing(self, nodes, rows, X, raw):
        """CART's missing-value rule (:func:`treebook.core.splits.resolve_missing`) for the rows
        with no known branch at their node: surrogates in rank order, then
        ``missing_go``. Trees without the rule (``missing_go is None``) are unchanged."""
        if self.missing_go is None:
            return raw
        todo = raw == -2
        if self.unseen_as_missing:
            todo |= (raw == -1) & (self.kind[nodes] != NodeKind.LEAF)
        if not todo.any():
            return raw
        raw = raw.copy()
        for node in np.unique(nodes[todo]):
            sel = np.flatnonzero(todo & (nodes == node))
            sur = self.surrogates[node] if self.surrogates else ()
            raw[sel] = resolve_missing(raw[sel], X[rows[sel]], sur,
                                       int(self.missing_go[node]), self.unseen_as_missing)
        return raw

    def route(self, X, missing="stop"):
        """Send every row of ``X`` down the tree, all rows one level per step.

        Returns ``(rows, nodes, weights)``: row ``rows[j]`` ends at node ``nodes[j]`` with
        weight ``weights[j]``. A row stops early at a node where it has no branch.

        ``missing`` is a routing policy (``treebook.core.splits``) or its name.
        ``"stop"``: a missing value (NaN) also stops the row at that node, so each row
        appears once. ``"distribute"`` (C4.5): a row with a missing value goes down
        *every* branch, with weight multiplied by the branch's share of the node's
        training weight; unseen categories are treated as missing too. The weights of one
        row then sum to 1 over its end nodes.
        """
        policy = get_routing(missing)
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] <= int(self.feature.max()):  # a leaf's feature is -1
            raise ValueError(f"X must be 2-D with a column for every feature; got shape "
                             f"{X.shape}")
        n = X.shape[0]
        rows = np.arange(n)
        nodes = np.zeros(n, dtype=np.int64)
        weights = np.ones(n)
        done_rows, done_nodes, done_w = [rows[:0]], [nodes[:0]], [weights[:0]]  # n may be 0
        while rows.size:
            # a node with no training weight (possible after C4.5's subtree raising) has
            # no branch shares and no distribution of its own: rows stop there
            leaf = (self.kind[nodes] == NodeKind.LEAF) | (self.weighted_n[nodes] <= 0)
            feat = np.where(leaf, 0, self.feature[nodes])
            x = X[rows, feat]
            raw = self._resolve_missing(nodes, rows, X, self._branch(nodes, x))
            branch = np.where(leaf, STOP, policy.decide(raw))
            stop = branch == STOP
            done_rows.append(rows[stop])
            done_nodes.append(nodes[stop])
            done_w.append(weights[stop])
            go = branch >= 0
            fan = branch == FAN
            nxt_rows = [rows[go]]
            nxt_nodes = [self.children[self.children_ptr[nodes[go]] + branch[go]]]
            nxt_w = [weights[go]]
            if np.any(fan):
                fr, fn, fw = rows[fan], nodes[fan], weights[fan]
                nb = self.children_ptr[fn + 1] - self.children_ptr[fn]
                rep_rows = np.repeat(fr, nb)
                rep_parent = np.repeat(fn, nb)
                offs = np.arange(nb.sum()) - np.repeat(np.cumsum(nb) - nb, nb)
                child = self.children[self.children_ptr[rep_parent] + offs]
                # the policy's shares of each fanned row's branches, from the branches'
                # training weights (relative to the node's), one row of a padded table each
                table = np.zeros((fn.size, int(nb.max())))
                seg = np.repeat(np.arange(fn.size), nb)
                table[seg, offs] = self.weighted_n[child] / self.weighted_n[rep_parent]
                share = policy.shares(table)[seg, offs]
                nxt_rows.append(rep_rows)
                nxt_nodes.append(child)
                nxt_w.append(np.repeat(fw, nb) * share)
            rows = np.concatenate(nxt_rows)
            nodes = np.concatenate(nxt_nodes)
            weights = np.concatenate(nxt_w)
        return np.concatenate(done_rows), np.concatenate(done_nodes), np.concatenate(done_w)

    def apply(self, X) -> np.ndarray:
        """The node where each row stops (a leaf, or the node where its category is unseen
        or its value missing)."""
        X = np.asarray(X, dtype=float)
        out = apply_compiled(self, X)  # route(X, missing="stop"), compiled
        if self.missing_go is not None:
            # CART's missing-value rule (surrogates, missing_go) is in route: only the
            # rows the walk stopped at a test (a missing value, a category without a
            # branch) can go further under it, and route takes each row on its own
            stuck = np.flatnonzero(self.tables.feature[out] >= 0)
            if stuck.size:
                rows, nodes, _ = self.route(X[stuck], missing="stop")
                out[stuck[rows]] = nodes
        return out

    def _threshold_only(self) -> bool:
        return self.tables.threshold_only

    def decision_path(self, X):
        """Indicator matrix (``scipy.sparse`` CSR, rows × nodes) of the nodes each row visits."""
        from scipy.sparse import csr_matrix

        end = self.apply(X)
        n = end.shape[0]
        path_len = self.depth[end] + 1
        indptr = np.concatenate([[0], np.cumsum(path_len)])
        indices = np.empty(indptr[-1], dtype=np.int64)
        # fill each row's path from its end node upwards, all rows one level per step
        node = end.copy()
        pos = indptr[1:] - 1
        alive = np.ones(n, dtype=bool)
        while np.any(alive):
            indices[pos[alive]] = node[alive]
            pos = pos - 1
            node = np.where(alive, self.parent[node], -1)
            alive = node >= 0
        data = np.ones(indices.shape[0], dtype=np.int8)
        return csr_matrix((data, indices, indptr), shape=(n, self.node_count))

    def distribution(self, X, missing="stop", laplace: bool = False) -> np.ndarray:
        """Class probabilities (classification) or predicted value (regression) per row.

        Classification: the relative class frequencies ``C_k / |D|`` of the node each row
        ends at (their Laplace estimates with ``laplace=True``); with
        ``missing="distribute"`` those of all end nodes averaged with the row's routing
        weights (see :meth:`node_prediction` for nodes without training cases).
        """
        policy = get_routing(missing)
        X = np.asarray(X, dtype=float)
        node_value = self.tables.node_value_laplace if laplace else self.tables.node_value
        if policy == get_routing("stop") or self._threshold_only() and not np.isnan(X).any():
            return node_value[self.apply(X)]  # one end node per row
        rows, nodes, w = self.route(X, missing=missing)
        n = X.shape[0]
        if self.is_regression:
            return np.bincount(rows, weights=node_value[nodes] * w, minlength=n)
        out = np.zeros((n, self.value.shape[1]))
        np.add.at(out, rows, node_value[nodes] * w[:, None])
        return out

    # ------------------------------------------------------------------------- pruning
    def prune(self, make_leaf) -> "Tree":
        """A new tree in which each node in ``make_leaf`` becomes a leaf (its subtree goes).

        ``make_leaf`` is a boolean mask over nodes or an iterable of node ids. Node values
        (training counts) are kept, so a pruned node predicts its own majority class.
        """
        mask = np.zeros(self.node_count, dtype=bool)
        idx = np.asarray(make_leaf)
        if idx.dtype == bool:
            if idx.shape != mask.shape:
                raise ValueError("make_leaf mask must have one entry per node")
            mask |= idx
        elif idx.size:
            mask[idx.astype(np.int64)] = True
        # a node is kept when no strict ancestor becomes a leaf
        keep = np.ones(self.node_count, dtype=bool)
        for i in range(1, self.node_count):  # pre-order: parents come first
            p = self.parent[i]
            keep[i] = keep[p] and not (mask[p] or self.kind[p] == NodeKind.LEAF)
        new_kind = self.kind.copy()
        new_kind[mask] = NodeKind.LEAF
        return self._subset(keep, new_kind)

    def truncate(self, max_depth: int) -> "Tree":
        """The tree cut at depth ``max_depth``: nodes at that depth become leaves."""
        if max_depth < 0:
            raise ValueError(f"max_depth must be >= 0; got {max_depth}")
        return self.prune((self.depth >= max_depth) & ~self.is_leaf)

    def _subset(self, keep: np.ndarray, kind: np.ndarray) -> "Tree":
        old_ids = np.flatnonzero(keep)
        new_id = np.full(self.node_count, -1, dtype=np.int64)
        new_id[old_ids] = np.arange(old_ids.size)
        k = kind[old_ids]
        leaf = k == NodeKind.LEAF
        nb = np.where(leaf, 0, self.children_ptr[old_ids + 1] - self.children_ptr[old_ids])
        children_ptr = np.concatenate([[0], np.cumsum(nb)])
        children = np.concatenate(
            [self.children_of(i) for i, l in zip(old_ids, leaf) if not l] or [np.empty(0, np.int64)]
        )
        ncodes = np.where(leaf, 0, self.code_ptr[old_ids + 1] - self.code_ptr[old_ids])
        code_ptr = np.concatenate([[0], np.cumsum(ncodes)])
        codes = np.concatenate(
            [self.codes_of(i) for i, l in zip(old_ids, leaf) if not l] or [np.empty(0, np.int64)]
        )
        parent = np.where(self.parent[old_ids] >= 0, new_id[np.maximum(self.parent[old_ids], 0)], -1)
        return replace(
            self,
            kind=k.astype(np.int8),
            feature=np.where(leaf, -1, self.feature[old_ids]).astype(np.int64),
            threshold=np.where(k == NodeKind.THRESHOLD, self.threshold[old_ids], np.nan),
            children_ptr=children_ptr.astype(np.int64),
            children=new_id[children.astype(np.int64)],
            code_ptr=code_ptr.astype(np.int64),
            branch_of_code=codes.astype(np.int64),
            parent=parent.astype(np.int64),
            depth=self.depth[old_ids],
            value=self.value[old_ids],
            weighted_n=self.weighted_n[old_ids],
            n_samples=self.n_samples[old_ids],
            impurity=self.impurity[old_ids],
            missing_go=(None if self.missing_go is None
                        else np.where(leaf, -1, self.missing_go[old_ids]).astype(np.int64)),
            surrogates=(tuple(() if l else self.surrogates[i] for i, l in zip(old_ids, leaf))
                        if self.surrogates else ()),
        )


class TreeBuilder:
    """Collects nodes while a grower works, then freezes them into a :class:`Tree`.

    Growers add nodes in any order (depth-first or level by level); ``build``
    renumbers them in depth-first pre-order with branches in order, so two growers that
    make the same splits produce identical arrays.
    """

    def __init__(self, is_regression: bool = False):
        self.is_regression = is_regression
        self._kind: list[int] = []
        self._feature: list[int] = []
        self._threshold: list[float] = []
        self._children: list[list[int]] = []
        self._codes: list[np.ndarray | None] = []
        self._parent: list[int] = []
        self._depth: list[int] = []
        self._value: list[np.ndarray] = []
        self._weighted_n: list[float] = []
        self._n_samples: list[int] = []
        self._impurity: list[float] = []
        self._missing_go: list[int] = []
        self._surrogates: list[tuple] = []
        #: set by a grower that has a missing-value rule (CART)
        self.has_missing_rule = False
        self.unseen_as_missing = False

    def add_node(self, parent: int, value, weighted_n: float, n_samples: int,
                 impurity: float) -> int:
        """Append a leaf below ``parent`` (-1 for the root); later branches come later."""
        node = len(self._kind)
        self._kind.append(NodeKind.LEAF)
        self._feature.append(-1)
        self._threshold.append(np.nan)
        self._children.append([])
        self._codes.append(None)
        self._parent.append(parent)
        self._depth.append(0 if parent < 0 else self._depth[parent] + 1)
        self._value.append(np.asarray(value, dtype=float).ravel())
        self._weighted_n.append(float(weighted_n))
        self._n_samples.append(int(n_samples))
        self._impurity.append(float(impurity))
        self._missing_go.append(-1)
        self._surrogates.append(())
        if parent >= 0:
            self._children[parent].append(node)
        return node

    def set_missing_rule(self, node: int, missing_go: int, surrogates=()) -> None:
        """Record CART's missing-value rule of a split node: the branch a missing value
        takes when no surrogate decides (-1: none) and the ranked surrogates."""
        self.has_missing_rule = True
        self._missing_go[node] = int(missing_go)
        self._surrogates[node] = tuple(surrogates)

    def set_split(self, node: int, feature: int, kind: NodeKind, threshold: float = np.nan,
                  branch_of_code=None) -> None:
        """Turn ``node`` into a test; its children are the nodes added below it afterwards,
        in branch order."""
        kind = NodeKind(kind)
        if kind == NodeKind.LEAF:
            raise ValueError("set_split needs a split kind, not LEAF")
        if kind in (NodeKind.MULTIWAY, NodeKind.SUBSET) and branch_of_code is None:
            raise ValueError("a categorical split needs branch_of_code")
        self._kind[node] = kind
        self._feature[node] = int(feature)
        self._threshold[node] = float(threshold) if kind == NodeKind.THRESHOLD else np.nan
        self._codes[node] = None if branch_of_code is None else np.asarray(branch_of_code, np.int64)

    def make_leaf(self, node: int) -> None:
        """Undo a split whose branches turned out empty."""
        for c in self._children[node]:
            self._parent[c] = -2  # detached; dropped by build()
        self._children[node] = []
        self._kind[node] = NodeKind.LEAF
        self._feature[node] = -1
        self._threshold[node] = np.nan
        self._codes[node] = None
        self._missing_go[node] = -1
        self._surrogates[node] = ()

    def build(self, **metadata) -> Tree:
        order: list[int] = []
        stack = [0] if self._kind else []
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(reversed(self._children[i]))
        new_id = {old: new for new, old in enumerate(order)}
        kinds = np.array([self._kind[i] for i in order], dtype=np.int8)
        for i in order:
            if self._kind[i] != NodeKind.LEAF and not self._children[i]:
                raise ValueError(f"node {i} is a split with no children")
        nb = [len(self._children[i]) for i in order]
        children = [new_id[c] for i in order for c in self._children[i]]
        codes = [self._codes[i] if self._codes[i] is not None else np.empty(0, np.int64)
                 for i in order]
        return Tree(
            kind=kinds,
            feature=np.array([self._feature[i] for i in order], dtype=np.int64),
            threshold=np.array([self._threshold[i] for i in order], dtype=float),
            children_ptr=np.concatenate([[0], np.cumsum(nb)]).astype(np.int64),
            children=np.array(children, dtype=np.int64),
            code_ptr=np.concatenate([[0], np.cumsum([c.size for c in codes])]).astype(np.int64),
            branch_of_code=(np.concatenate(codes) if codes else np.empty(0)).astype(np.int64),
            parent=np.array([new_id.get(self._parent[i], -1) for i in order], dtype=np.int64),
            depth=np.array([self._depth[i] for i in order], dtype=np.int64),
            value=np.vstack([self._value[i] for i in order]) if order else np.empty((0, 0)),
            weighted_n=np.array([self._weighted_n[i] for i in order]),
            n_samples=np.array([self._n_samples[i] for i in order], dtype=np.int64),
            impurity=np.array([self._impurity[i] for i in order]),
            is_regression=self.is_regression,
            missing_go=(np.array([self._missing_go[i] for i in order], dtype=np.int64)
                        if self.has_missing_rule else None),
            surrogates=(tuple(self._surrogates[i] for i in order)
                        if any(self._surrogates) else ()),
            unseen_as_missing=self.unseen_as_missing,
            **metadata,
        )


def apply_binary(tree: Tree, X, *, steps: int = 6) -> np.ndarray:
    """The leaf each row reaches in a tree of ``THRESHOLD`` splits only (CART on numeric
    data), for complete numeric ``X``: all rows go down together, one level per step.

    The same walk as :meth:`Tree.apply` (which calls it when it can), specialised: with no categories,
    no missing values and exactly two branches per test, a step is three gathers
    (feature, value, threshold), a comparison and a fourth gather (child) over the rows
    still moving. The tables are laid out for the cache: nodes renumbered breadth-first
    (the top levels, which every row visits, form one small block) and doubled, so that
    branch ``b`` of node ``i`` is entry ``2i + b`` of one child table; a leaf points to
    itself, so rows that arrived early can take up to ``steps`` more steps before the
    finished ones are dropped. Rows go in blocks of 8,192, and every index array is
    ``intp`` (numpy converts narrower index arrays on every gather).
    """
    if np.any((tree.kind != NodeKind.LEAF) & (tree.kind != NodeKind.THRESHOLD)):
        raise ValueError("apply_binary needs a tree of threshold splits only")
    X = np.ascontiguousarray(X, dtype=float)
    n, m = X.shape
    N = tree.node_count
    internal = tree.kind == NodeKind.THRESHOLD
    out = np.zeros(n, dtype=np.int64)
    if not internal[0]:
        return out
    # breadth-first ids (pre-order within a depth); tables indexed by 2·id + branch
    old_of = np.argsort(tree.depth, kind="stable")
    new_of = np.empty(N, dtype=np.intp)
    new_of[old_of] = np.arange(N)
    ids = np.flatnonzero(internal)
    ptr = tree.children_ptr[ids]
    child = np.repeat(2 * np.arange(N, dtype=np.intp), 2)  # leaves lead back to themselves
    child[2 * new_of[ids]] = 2 * new_of[tree.children[ptr]]
    child[2 * new_of[ids] + 1] = 2 * new_of[tree.children[ptr + 1]]
    feature = np.zeros(2 * N, dtype=np.int16 if m < 2**15 else np.intp)
    threshold = np.full(2 * N, np.inf)
    for b in (0, 1):
        feature[2 * new_of[ids] + b] = tree.feature[ids]
        threshold[2 * new_of[ids] + b] = tree.threshold[ids]
    leaf = np.repeat(~internal[old_of], 2)

    block = 1 << 13  # rows per block: every array of a step stays in the cache
    f_buf, x_buf = np.empty(block, dtype=np.intp), np.empty(block)
    t_buf, go_buf = np.empty(block), np.empty(block, dtype=bool)
    for b0 in range(0, n, block):
        flat = X[b0 : b0 + block].ravel()
        nb = flat.shape[0] // m
        pos = np.arange(nb, dtype=np.intp) * m  # where each row starts in ``flat``
        node = np.zeros(nb, dtype=np.intp)
        row = np.arange(nb)
        while row.size:
            k = row.size
            f, x, t, go = f_buf[:k], x_buf[:k], t_buf[:k], go_buf[:k]
            for _ in range(steps):
                np.add(pos, feature[node], out=f)
                np.take(flat, f, out=x, mode="clip")
                np.take(threshold, node, out=t, mode="clip")
                np.greater(x, t, out=go)
                node += go
                np.take(child, node, out=node, mode="clip")
            done = leaf[node]
            if done.any():
                out[b0 + row[done]] = old_of[node[done] // 2]
                keep = ~done
                pos, node, row = pos[keep], node[keep], row[keep]
    return out


@dataclass(frozen=True, eq=False)
class WalkTables:
    """What prediction reads from a tree, built once by :func:`walk_tables` (every array
    read-only).

    ``feature[i]`` is the feature tested at node ``i``, ``-1`` where rows stop (a leaf,
    or a node no training case reached: ``|D_i| = 0``); ``n_columns`` the columns ``X``
    needs (one more than the largest feature tested). For a tree of binary tests in
    depth-first pre-order (every CART tree with at most 63 categories per subset test),
    ``packed`` holds one 16-byte record per node for
    ``treebook.kernels.walk.walk_thresholds`` (else it is None and the walk is
    ``treebook.kernels.walk.walk_tree`` with ``is_threshold``). ``node_value`` and
    ``node_value_laplace`` are :meth:`Tree.node_prediction` without and with Laplace's
    rule, ``majority`` the index of the largest class frequency per node (ties to the
    lowest; None for regression), ``threshold_only`` whether every test is a threshold.
    """

    feature: np.ndarray
    n_columns: int
    packed: np.ndarray | None
    packed_threshold: np.ndarray | None
    subset_bits: np.ndarray | None
    is_threshold: np.ndarray
    node_value: np.ndarray
    node_value_laplace: np.ndarray
    majority: np.ndarray | None
    threshold_only: bool


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def walk_tables(tree: Tree) -> WalkTables:
    """The :class:`WalkTables` of ``tree`` (``Tree`` calls this once, when it is made).

    The packed record of node ``i`` is two 64-bit words: its threshold ``t_i`` (a float;
    NaN marks a subset test) and ``f_i · 2³² + r_i``, the feature tested and the right
    child (``-1``: rows stop at ``i``). The left child is not stored: in depth-first
    pre-order it is ``i + 1``. A subset test's branch for code ``c`` is in the bit masks
    ``subset_bits[i] = (known, right)``: bit ``c`` of ``known`` says the code has a
    branch, bit ``c`` of ``right`` that it is the right one. Records of 16 bytes put four
    nodes in a cache line, with a node's left child usually in the same line; the walk
    reads one record per node instead of one entry in each of four tables.
    """
    n = tree.node_count
    kind = tree.kind
    stops = (kind == NodeKind.LEAF) | (tree.weighted_n <= 0)
    feature = np.where(stops, -1, tree.feature).astype(np.int64)
    is_threshold = kind == NodeKind.THRESHOLD
    subset = kind == NodeKind.SUBSET
    width = tree.code_ptr[1:] - tree.code_ptr[:-1]
    ids = np.flatnonzero(~stops)
    packed = packed_threshold = bits = None
    binary = bool(np.all((kind == NodeKind.LEAF) | is_threshold | (subset & (width <= 63))))
    if binary and ids.size:
        ptr = tree.children_ptr[ids]
        left, right = tree.children[ptr], tree.children[ptr + 1]
        binary = bool(np.all(tree.children_ptr[ids + 1] - ptr == 2) and np.all(left == ids + 1)
                      and np.all(right > left) and np.all(right < n) and n < 2**31
                      and feature.max() < 2**31
                      and not np.isnan(tree.threshold[ids][is_threshold[ids]]).any())
    if binary:
        packed = np.empty((n, 2), dtype=np.int64)
        packed_threshold = packed.view(np.float64)
        packed_threshold[:, 0] = np.where(is_threshold, tree.threshold, np.nan)
        packed[:, 1] = -1
        if ids.size:
            packed[ids, 1] = (feature[ids] << 32) | tree.children[tree.children_ptr[ids] + 1]
        bits = np.zeros((n, 2), dtype=np.int64)
        nodes = np.flatnonzero(subset & ~stops)
        if nodes.size:  # bit c of node i: branch_of_code of code c
            w_n = width[nodes]
            at = np.repeat(tree.code_ptr[nodes] - np.cumsum(w_n) + w_n, w_n) + np.arange(
                int(w_n.sum()))
            codes = tree.branch_of_code[at]
            node_of = np.repeat(nodes, w_n)
            bit = np.left_shift(np.int64(1), at - np.repeat(tree.code_ptr[nodes], w_n))
            np.add.at(bits[:, 0], node_of[codes >= 0], bit[codes >= 0])
            np.add.at(bits[:, 1], node_of[codes == 1], bit[codes == 1])
        packed, packed_threshold, bits = map(_frozen, (packed, packed_threshold, bits))
    if n == 0:
        value = laplace = tree.value.copy()
    elif tree.is_regression:
        value = laplace = tree.node_prediction()
    else:
        value, laplace = tree.node_prediction(), tree.node_prediction(laplace=True)
    majority = None if tree.is_regression or n == 0 else np.argmax(value, axis=1)
    return WalkTables(
        feature=_frozen(feature), n_columns=int(feature.max()) + 1 if n else 0,
        packed=packed, packed_threshold=packed_threshold, subset_bits=bits,
        is_threshold=_frozen(is_threshold), node_value=_frozen(value),
        node_value_laplace=laplace if laplace is value else _frozen(laplace),
        majority=None if majority is None else _frozen(majority),
        threshold_only=bool(np.all((kind == NodeKind.LEAF) | is_threshold)))


def apply_compiled(tree: Tree, X) -> np.ndarray:
    """:meth:`Tree.apply` by the compiled walks of ``treebook.kernels.walk`` on the
    tree's :class:`WalkTables`: the node where each row stops under
    ``route(X, missing="stop")`` — a leaf, a node where its category has no branch or its
    value is missing, or a node no training case reached. :func:`apply_binary` and
    :meth:`Tree.route` are the numpy references the tests compare it with."""
    X = np.asarray(X, dtype=float)
    tables = tree.tables
    if X.ndim != 2 or X.shape[1] < tables.n_columns:
        raise ValueError(f"X must be 2-D with a column for every feature; got shape {X.shape}")
    if tree.node_count == 0:
        raise ValueError("the tree has no nodes")
    out = np.empty(X.shape[0], dtype=np.int64)
    if tables.packed is not None:
        def walk(Xb, ob):
            walk_thresholds(Xb, tables.packed, tables.packed_threshold, tables.subset_bits, ob)
    else:
        def walk(Xb, ob):
            walk_tree(Xb, tables.feature, tables.is_threshold, tree.threshold,
                      tree.children_ptr, tree.children, tree.code_ptr, tree.branch_of_code, ob)
    if X.flags.c_contiguous or X.shape[0] <= 1:
        walk(X, out)
        return out
    # the walk reads a row's features together: a column-major X (a DataFrame's block)
    # is walked in row-major copies of 4,096 rows (measured: 30% faster at 10^5 rows than
    # reading the columns in place, and the copy needs no memory of the size of X)
    block = 4096
    for b0 in range(0, X.shape[0], block):
        walk(np.ascontiguousarray(X[b0 : b0 + block]), out[b0 : b0 + block])
    return out


def check_tree(tree, name: str = "tree"):
    """``tree`` if it is a :class:`~treebook.core.tree.Tree`, else a ``TypeError`` naming it
    (with a hint when it is a fitted estimator, whose tree is ``estimator.tree_``)."""
    if isinstance(tree, Tree):
        return tree
    hint = ""
    if hasattr(tree, "fit") and hasattr(tree, "get_params"):
        hint = (f"; pass the estimator's fitted tree, {name}=estimator.tree_ (or call the "
                "estimator's own method)")
    raise TypeError(f"{name} must be a treebook.core.tree.Tree; got {type(tree).__name__}{hint}")
