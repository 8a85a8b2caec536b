"""The pruning explorer: one slider per method, a method menu, and a static HTML twin."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris

from treebook import C45Classifier, CARTClassifier
from treebook.io.widgets import FrameSlider
from treebook.io.explorers import pruning_explorer


@pytest.fixture(scope="module")
def parts():
    X, y = load_iris(return_X_y=True)
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(y))
    g, p, t = idx[:75], idx[75:110], idx[110:]
    return X[g], y[g], X[p], y[p], X[t], y[t]


def test_explorer_has_a_slider_per_method(parts):
    ex = pruning_explorer(CARTClassifier(random_state=0), *parts, methods=("CCP", "CVP"),
                          draw_depth=2)
    assert list(ex.sliders) == ["CCP", "CVP"]
    for s in ex.sliders.values():
        assert isinstance(s, FrameSlider)
        res = s.results
        assert list(res.columns) == ["strength", "leaves", "nodes", "train", "prune", "test"]
        # the first frame is the full tree (training error 0 for CART grown to purity)
        assert res["train"].iloc[0] == 0.0
        # nested paths: leaves never grow with strength
        assert np.all(np.diff(res["leaves"].to_numpy()) <= 0)
        # the slider starts at the least pruning error, the fewest leaves on ties
        best = res["prune"].min()
        assert res["prune"].iloc[s.index] == best
        assert res["leaves"].iloc[s.index] == res.loc[res["prune"] == best, "leaves"].min()
    html = ex._repr_mimebundle_()["text/html"]
    assert html.count('class="tb-slider"') == 2 and "<select" in html
    assert html.count('class="tb-chooser-pane"') == 2 and "http" not in html.split("<svg")[0]


def test_live_menu_switches_slider(parts):
    ex = pruning_explorer(C45Classifier(), *parts, methods=("MEP", "EBP"), draw_depth=1)
    assert ex.children[1] is ex.sliders["MEP"]
    ex._menu.value = "EBP"
    assert ex.children[1] is ex.sliders["EBP"] and ex.method == "EBP"


def test_bad_input(parts):
    with pytest.raises(ValueError, match="methods"):
        pruning_explorer(CARTClassifier(), *parts, methods=("XYZ",))
    with pytest.raises(ValueError, match="initial_method"):
        pruning_explorer(CARTClassifier(), *parts, methods=("CCP",), initial_method="CVP")
    with pytest.raises(TypeError, match="C4.5 or CART"):
        pruning_explorer(object(), *parts)
