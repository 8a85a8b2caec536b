"""Issue 22, "concurrency, labels, consistency": fit never writes a parameter; odd labels
draw; the forest's classes and score; pruners check X's width; values a column never had
at fit are unseen (and said so); ``max_depth=0`` is one leaf everywhere; ``to_json``
before fit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from treebook import CARTClassifier

RNG = np.random.default_rng(22)
X2 = RNG.normal(size=(60, 2))
Y2 = (X2[:, 0] > 0).astype(int)


# ------------------------------------------------------------ odd labels in the drawing
ODD_TEXT = ["", " ", "\t", "\n", "\x00", "\x7f", "]", "]]>", "<B>", "&", '"', "\\", "é"]


@pytest.mark.parametrize("text", ODD_TEXT)
def test_odd_class_labels_and_feature_names_draw(text):
    by_label = CARTClassifier(max_depth=1).fit(X2, np.where(Y2 == 1, text, "x"))
    by_name = CARTClassifier(max_depth=1).fit(pd.DataFrame(X2, columns=[text, "b"]), Y2)
    for est in (by_label, by_name):
        g = est.to_graphviz()
        assert "<B></B>" not in g.source
        svg = g.pipe(format="svg", encoding="utf-8")  # dot accepts the source
        assert svg.count('class="node"') == 3


def test_an_empty_name_is_shown_as_two_quotes():
    est = CARTClassifier(max_depth=1).fit(pd.DataFrame(X2, columns=["", "b"]), Y2)
    root = next(line for line in est.to_graphviz().source.splitlines() if "n0 [" in line)
    assert "<B>&quot;&quot;</B>" in root
