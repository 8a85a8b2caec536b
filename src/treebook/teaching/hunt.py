"""Hunt's Concept Learning System as the textbook writes it: a short recursion to read.

Chapter 5 shows this module as the readable core of the likelihood-score learner. It is
the algorithm of Hunt, Marin and Stone (*Experiments in Induction*, 1966) for
categorical features: if the cases at a node are all of one class, make a leaf;
otherwise choose an attribute, split the cases by its values (one branch per value) and
recurse on each branch. The choice of attribute is a function, by default
:func:`best_attribute`: the largest conditional likelihood score
(:func:`treebook.core.impurity.conditional_log_likelihood`, equal to ``-H(D|A)``), with an
optional G-test stop (:func:`treebook.core.impurity.g_test_pvalue`).

A tree here is a class label (a leaf) or a :class:`Node`. The package's
:class:`treebook.CLSClassifier` grows the same trees through the shared grower
(numeric thresholds, sample weights, flat arrays); the tests check, tree for tree, that
the two agree on categorical data.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ..core.impurity import conditional_log_likelihood, contingency_table, g_test_pvalue

__all__ = ["Node", "best_attribute", "concept_learning_system", "classify", "tree_text"]


class Node(NamedTuple):
    """An internal node: the attribute tested, one subtree per value, the majority class
    (predicted for a value that no training case at this node had)."""

    attribute: str
    branches: dict
    majority: object


def best_attribute(X, y, significance=None):
    """The attribute with the largest conditional likelihood score, or None (a leaf).

    Only attributes with at least two values among the cases compete; ties go to the
    first column. With ``significance=α`` the winner must also pass the G-test of
    independence: if its p-value is not below α, the node becomes a leaf.
    """
    tables = {a: contingency_table(X[a], y)[2] for a in X.columns if X[a].nunique() > 1}
    if not tables:
        return None
    best = max(tables, key=lambda a: conditional_log_likelihood(tables[a]))
    if significance is not None and not g_test_pvalue(tables[best]) < significance:
        return None
    return best


def concept_learning_system(X, y, choose: Callable = best_attribute, max_depth=None,
                            **options):
    """Hunt's CLS: a leaf if the cases are of one class, else split on ``choose(X, y)``.

    ``X`` is a pandas DataFrame of categorical attributes, ``y`` the classes;
    ``choose(X, y, **options)`` returns the attribute to test or None for a leaf. A used
    attribute is dropped below its node. Returns a class label or a :class:`Node`.
    """
    X, y = _checked(X, y, choose, max_depth)
    classes, counts = np.unique(y, return_counts=True)
    majority = classes[np.argmax(counts)]          # ties: the class that sorts first
    if len(classes) == 1 or max_depth == 0:
        return majority
    attribute = choose(X, y, **options)
    if attribute is None:
        return majority
    deeper = None if max_depth is None else max_depth - 1
    branches = {}
    for value in np.unique(X[attribute]):
        rows = (X[attribute] == value).to_numpy()
        branches[value] = concept_learning_system(
            X[rows].drop(columns=attribute), y[rows], choose, deeper, **options)
    return Node(attribute, branches, majority)


def classify(tree, case):
    """The class a tree gives one case (a mapping from attribute to value)."""
    while isinstance(tree, Node):
        tree = tree.branches.get(case[tree.attribute], tree.majority)
    return tree


def tree_text(tree, indent: str = "") -> str:
    """The tree as indented rules, one line per branch: ``A = v: class``."""
    lines = []
    for value, sub in tree.branches.items() if isinstance(tree, Node) else ():
        head = f"{indent}{tree.attribute} = {value}"
        if isinstance(sub, Node):
            lines += [head, tree_text(sub, indent + "|   ")]
        else:
            lines.append(f"{head}: {sub}")
    return "\n".join(lines) if lines else f"{indent}{tree}"


def _checked(X, y, choose, max_depth):
    import pandas as pd

    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame of categorical attributes; "
                        f"got {type(X).__name__}")
    y = np.asarray(y)
    if y.ndim != 1 or len(y) != len(X):
        raise ValueError(f"y must be one label per row of X ({len(X)}); got shape {y.shape}")
    if len(y) == 0:
        raise ValueError("X and y are empty: there is nothing to learn from")
    if X.isna().to_numpy().any() or pd.isna(y).any():
        raise ValueError("X or y has missing values; this textbook version has no rule "
                         "for them (impute them, or use C45Classifier)")
    if not callable(choose):
        raise TypeError(f"choose must be a function (X, y) -> attribute or None; "
                        f"got {choose!r}")
    if max_depth is not None and (isinstance(max_depth, bool)
                                  or not isinstance(max_depth, (int, np.integer))
                                  or max_depth < 0):
        raise ValueError(f"max_depth must be None or an int >= 0; got {max_depth!r}")
    return X, y
