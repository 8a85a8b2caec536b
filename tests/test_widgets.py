"""FrameSlider (live widget + static HTML contract) and the depth explorer.

The static slider's JavaScript is exercised in a real browser by tests/browser (every
``.tb-slider`` of the built book is driven with the keyboard); here the markup contract,
the live widget and the numbers of the depth explorer are checked.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from bs4 import BeautifulSoup

from treebook import ID3Classifier
from treebook.datasets import load_loan, load_play_tennis
from treebook.io.widgets import FrameSlider, depth_explorer, line_chart_svg


def parse(html: str):
    soup = BeautifulSoup(html, "html.parser")
    sliders = soup.select("div.tb-slider")
    assert len(sliders) == 1
    return sliders[0]


def check_contract(html: str, labels: list[str], shown: int) -> None:
    """The static slider contract of COMMON.md / treebook.io.widgets."""
    root = parse(html)
    n = len(labels)
    assert root["data-frame-count"] == str(n)
    inputs = root.select("input.tb-slider-input")
    assert len(inputs) == 1 and inputs[0]["type"] == "range"
    assert (inputs[0]["min"], inputs[0]["max"], inputs[0]["value"]) == ("0", str(n - 1), str(shown))
    spans = root.select("span.tb-slider-value")
    assert len(spans) == 1 and spans[0].get_text() == labels[shown]
    frames = root.find_all("div", class_="tb-slider-frame", recursive=False)
    assert len(frames) == n
    assert [f["data-label"] for f in frames] == labels
    visible = [i for i, f in enumerate(frames) if not f.has_attr("hidden")]
    assert visible == [shown]
    scripts = root.find_all("script")
    assert len(scripts) == 1 and not scripts[0].has_attr("src")
    assert root["id"] in scripts[0].get_text()
    # no external URL of any kind: no http(s), no protocol-relative //host, no src/href
    assert "http" not in html and not re.search(r"""["'(]//\w""", html)
    assert not root.select("[src]") and not root.select("link")


def test_static_html_contract_and_live_updates():
    values = [0.0, 0.015, 0.25]
    s = FrameSlider(values, lambda a: f"<p>alpha is {a}</p>", description="α",
                    format_value=lambda a: f"{a:.3f}", caption=lambda a: f"<i>c{a}</i>",
                    initial=1)
    assert s.labels == ["0.000", "0.015", "0.250"]
    assert s.frames[2] == '<p>alpha is 0.25</p><div class="tb-slider-caption"><i>c0.25</i></div>'
    check_contract(s.to_html(), s.labels, shown=1)
    # the live widget: moving the slider swaps the pane to the precomputed frame
    assert s.children[1].value == s.frames[1]
    s.index = 2
    assert s.children[1].value == s.frames[2] and s.index == 2
    check_contract(s.to_html(), s.labels, shown=2)  # the static copy starts where it is
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"].startswith('<div class="tb-slider"')
    assert bundle["text/plain"] == "FrameSlider: 3 frames, α = 0.000 … 0.250"


def test_ids_are_unique_per_instance():
    a = FrameSlider([1, 2], str).to_html()
    b = FrameSlider([1, 2], str).to_html()
    ida, idb = parse(a)["id"], parse(b)["id"]
    assert ida != idb
    assert re.fullmatch(r"tb-slider-[0-9a-f]{10}-\d+", ida)


def test_default_labels_and_errors():
    s = FrameSlider([1, 2.123456789, "x"], lambda v: "<b>frame</b>")
    assert s.labels == ["1", "2.123", "x"]
    with pytest.raises(ValueError, match="values is empty"):
        FrameSlider([], str)
    with pytest.raises(TypeError, match="render must be callable"):
        FrameSlider([1], "not callable")
    with pytest.raises(ValueError, match="initial"):
        FrameSlider([1, 2], str, initial=2)
    with pytest.raises(TypeError, match="HTML string"):
        FrameSlider([1], lambda v: 3)


@pytest.fixture(scope="module")
def tennis_split():
    X, y = load_play_tennis(return_X_y=True)
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(X))
    return X.iloc[idx[:10]], y.iloc[idx[:10]], X.iloc[idx[10:]], y.iloc[idx[10:]]


def test_depth_explorer_frames_and_numbers(tennis_split):
    Xtr, ytr, Xte, yte = tennis_split
    est = ID3Classifier(max_depth=1, min_gain=0.0)
    s = depth_explorer(est, Xtr, ytr, Xte, yte)
    # the caller's estimator is untouched: not fitted, parameters as given
    assert not hasattr(est, "tree_") and est.max_depth == 1
    full = ID3Classifier().fit(Xtr, ytr)
    depths = list(range(full.depth_ + 1))
    assert s.values == depths and len(s.frames) == len(depths)
    check_contract(s.to_html(), [str(d) for d in depths], shown=s.index)
    res = s.results
    assert list(res.columns) == ["depth", "leaves", "nodes", "train", "test"]
    for d in depths:
        refit = ID3Classifier(max_depth=d).fit(Xtr, ytr)
        row = res.iloc[d]
        assert row["leaves"] == refit.n_leaves_ and row["nodes"] == refit.tree_.node_count
        assert row["train"] == refit.score(Xtr, ytr) and row["test"] == refit.score(Xte, yte)
        frame = s.frames[d]
        assert f"depth <b>{d}</b>" in frame and f"{refit.n_leaves_} leaves" in frame
        assert frame.count("<svg") == 2  # the chart and the drawing
        assert f"{refit.score(Xte, yte):.3f}" in frame
    assert s.index == int(np.argmax(res["test"]))  # starts at the best test depth
    assert s.model.tree_.node_count == full.tree_.node_count


def test_depth_explorer_options(tennis_split):
    Xtr, ytr, Xte, yte = tennis_split
    s = depth_explorer(ID3Classifier(), Xtr, ytr, Xte, yte, depths=[0, 2], initial=0,
                       draw_depth=0, draw_kwargs={"rankdir": "LR"})
    assert s.values == [0, 2] and s.index == 0
    assert "leaves below" in s.frames[1]  # the drawing stops at the root
    with pytest.raises(ValueError, match="depths"):
        depth_explorer(ID3Classifier(), Xtr, ytr, Xte, yte, depths=[-1])
    with pytest.raises(ValueError, match="initial"):
        depth_explorer(ID3Classifier(), Xtr, ytr, Xte, yte, depths=[0, 1], initial=5)


def test_depth_explorer_on_a_pure_stump():
    X, y = load_loan(return_X_y=True)
    keep = X["owns_house"] == "yes"  # all approved: the tree is a single leaf
    s = depth_explorer(ID3Classifier(), X[keep], y[keep], X, y)
    assert s.values == [0] and s.results["train"].tolist() == [1.0]
    check_contract(s.to_html(), ["0"], shown=0)


def test_line_chart():
    svg = line_chart_svg([0, 1, 2], {"a": [0.5, 0.7, 0.9], "b": [0.5, 0.6, 0.4]}, current=1,
                         xlabel="depth", ylabel="accuracy", ylim=(0, 1))
    assert svg.startswith('<svg class="tb-chart"') and svg.endswith("</svg>")
    assert svg.count("<polyline") == 2
    assert svg.count("<circle") == 3 and svg.count("<rect") == 1 + 3  # frame + squares
    assert 'stroke-dasharray="3,3"' in svg  # the current-position marker
    assert ">depth<" in svg and ">accuracy<" in svg and "http" not in svg
    assert ">-0<" not in svg
    with pytest.raises(ValueError, match="series 'a'"):
        line_chart_svg([0, 1], {"a": [1.0]})
    with pytest.raises(ValueError, match="non-empty"):
        line_chart_svg([], {})
    flat = line_chart_svg([3], {"only": [0.5]})
    assert "<polyline" in flat
