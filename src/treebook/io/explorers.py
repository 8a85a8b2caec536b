"""The pruning explorers: one slider per pruning strength, each frame the pruned tree and
its accuracies, live in JupyterLab and working in the static book (the
:class:`treebook.io.widgets.FrameSlider` contract).

* :func:`confidence_explorer` — C4.5's error-based pruning along the confidence factor;
* :func:`alpha_explorer` — CART's cost-complexity sequence along α;
* :func:`pruning_explorer` — every method of chapter 6 on one grown tree, a method chooser
  above the slider.
"""

from __future__ import annotations

import html
import json

import numpy as np

from ..core.base import Interval, validate_params
from .._optional import require_optional
from ..prune.error_based import CONFIDENCE
from .render import to_graphviz
from .widgets import (DRAW_CONSTRAINTS, FrameSlider, check_fitted_estimator, line_chart_svg,
                      slider_ids, tree_sequence_slider)

__all__ = ["confidence_explorer", "alpha_explorer", "pruning_explorer"]

# the explorers are ipywidgets objects: this module needs the extra treebook[widgets]
ipywidgets = require_optional("ipywidgets", "treebook.io.explorers (sliders in Jupyter)")


@validate_params(DRAW_CONSTRAINTS)
def confidence_explorer(estimator, X_train, y_train, X_test, y_test, *,
                        confidences=(0.01, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
                                     0.45, 0.5),
                        draw_depth: int | None = 3, draw_kwargs: dict | None = None,
                        initial=None, sample_weight=None) -> FrameSlider:
    """A CF slider: one C4.5 tree grown once, pruned at each confidence factor.

    ``estimator`` is a :class:`~treebook.c45.C45Classifier` (its other parameters are
    kept; pruning is set to ``"ebp"``). The copy is fitted once; each frame is its
    ``unpruned_tree_`` pruned at ``CF = c`` by
    :meth:`~treebook.c45.C45Classifier.pruned_tree` (growth does not depend on CF). A
    frame shows CF, the number of leaves, training and test accuracy, a chart of both
    against CF with the current value marked, and the drawing down to ``draw_depth``
    levels. ``initial`` is the CF shown first (default: the estimator's own CF if listed,
    else the one with the best test accuracy). The slider's ``results`` is a DataFrame
    with columns ``confidence``, ``leaves``, ``nodes``, ``train``, ``test``; ``model`` is
    the fitted copy.
    """
    check_fitted_estimator(estimator, " (C4.5)")
    if not hasattr(estimator, "pruned_tree"):
        raise TypeError("confidence_explorer needs a C4.5 estimator (with pruned_tree)")
    if not len(confidences):
        raise ValueError("confidences is empty")
    for c in confidences:
        CONFIDENCE.check("confidences", c)
    confidences = [float(c) for c in confidences]
    params = estimator.get_params()
    params["pruning"] = "ebp"
    model = type(estimator)(**params)
    model.fit(X_train, y_train, sample_weight=sample_weight)
    trees = [model.pruned_tree(X_train, y_train, sample_weight, confidence=c)
             for c in confidences]
    cf = float(params.get("confidence", np.nan))
    return tree_sequence_slider(
        model, confidences, trees, X_train, y_train, X_test, y_test, key="confidence",
        description="CF", format_value=lambda c: f"{c:g}", chart_x=confidences,
        xlabel="confidence factor CF", ylim="tight",
        draw_depth=draw_depth, draw_kwargs=draw_kwargs,
        initial=None if initial is None else float(initial),
        choose_initial=lambda test: cf if cf in confidences
        else confidences[int(np.argmax(test))])


@validate_params({**DRAW_CONSTRAINTS, "max_frames": Interval(int, 2, None)})
def alpha_explorer(estimator, X_train, y_train, X_test, y_test, *, risk: str | None = None,
                   max_frames: int = 40, draw_depth: int | None = 4,
                   draw_kwargs: dict | None = None, initial=None,
                   sample_weight=None) -> FrameSlider:
    """An α slider: one CART tree grown once, pruned along its weakest-link path.

    A copy of ``estimator`` (``ccp_alpha=0``) is fitted once on the training data; its
    pruning path (:func:`~treebook.prune.cost_complexity.cost_complexity_path`, ``risk``
    default the estimator's ``ccp_risk``) gives Breiman's ``α_1 = 0 < α_2 < …`` (all
    weakest links of one ``α`` collapsed in one step, ties within ``1e-12 · R(root)``:
    :func:`~treebook.prune.cost_complexity.breiman_steps`), and frame ``k`` is the
    smallest subtree ``T_k`` that minimises ``R_α(T) = R(T) + α|T̃|`` for
    ``α_k ≤ α < α_{k+1}`` (computed by
    :func:`~treebook.prune.cost_complexity.prune_ccp`, not refitted). A
    frame shows α, the number of leaves, training and test score, a chart of both against
    the subtree's number of leaves with the current one marked, and the drawing down to
    ``draw_depth`` levels. Long paths are thinned to at most ``max_frames`` frames
    (always keeping the first and the last). ``initial`` is the α shown first (default:
    the best test score, the simplest tree if tied). The slider's ``results`` is a
    DataFrame with columns ``alpha``, ``leaves``, ``nodes``, ``train``, ``test``;
    ``model`` is the fitted copy and ``path`` the full pruning path.
    """
    from ..prune.cost_complexity import breiman_steps, cost_complexity_path, prune_ccp

    check_fitted_estimator(estimator, " (CART)")
    if not hasattr(estimator, "ccp_alpha"):
        raise TypeError("alpha_explorer needs a CART estimator (with ccp_alpha)")
    params = estimator.get_params()
    params["ccp_alpha"] = 0.0
    model = type(estimator)(**params)
    model.fit(X_train, y_train, sample_weight=sample_weight)
    risk = risk or params.get("ccp_risk", "impurity")
    path = cost_complexity_path(model.tree_, risk=risk)
    _, alphas = breiman_steps(path)
    if alphas.size > max_frames:
        keep = np.unique(np.round(np.linspace(0, alphas.size - 1, max_frames)).astype(int))
        alphas = alphas[keep]
    alphas = [float(a) for a in alphas]
    trees = [prune_ccp(model.tree_, a, risk=risk) for a in alphas]
    leaves = [t.n_leaves for t in trees]

    def simplest_best(test):
        best = max(test)
        return alphas[max(i for i, v in enumerate(test) if v == best)]

    slider = tree_sequence_slider(
        model, alphas, trees, X_train, y_train, X_test, y_test, key="alpha",
        description="α", format_value=lambda a: f"{a:.4g}", chart_x=leaves,
        xlabel="leaves of the pruned tree", ylim=None, draw_depth=draw_depth,
        draw_kwargs=draw_kwargs, initial=None if initial is None else float(initial),
        choose_initial=simplest_best)
    slider.path = path
    return slider


class _MethodChooser(ipywidgets.VBox):
    """Several :class:`~treebook.io.widgets.FrameSlider` s, one per pruning method, and a menu that shows one.

    Live: an ipywidgets ``Dropdown`` above the chosen method's slider. Static: a
    ``<select>`` and every method's kernel-free slider, all but the chosen one hidden (a
    few lines of inline JavaScript switch them; no external URL)."""

    def __init__(self, sliders: dict, initial: str):
        self.sliders = dict(sliders)
        self.method = initial
        self._menu = ipywidgets.Dropdown(options=list(self.sliders), value=initial,
                                         description="method",
                                         style={"description_width": "initial"})
        self._menu.observe(self._on_change, names="value")
        super().__init__(children=[self._menu, self.sliders[initial]])

    def _on_change(self, change) -> None:
        self.method = change["new"]
        self.children = [self._menu, self.sliders[self.method]]

    def to_html(self) -> str:
        esc = html.escape
        uid = f"tb-chooser-{next(slider_ids)}"
        opts = "".join(f'<option value="{i}"{" selected" if m == self.method else ""}>'
                       f'{esc(m)}</option>' for i, m in enumerate(self.sliders))
        parts = [f'<div class="tb-chooser" id="{uid}">',
                 f'<label style="font-weight:600;margin-right:0.6em">method</label>'
                 f'<select class="tb-chooser-select">{opts}</select>']
        for i, (m, s) in enumerate(self.sliders.items()):
            hidden = "" if m == self.method else " hidden"
            parts.append(f'<div class="tb-chooser-pane" data-method="{esc(m)}"{hidden}>'
                         f'{s.to_html()}</div>')
        parts.append(_CHOOSER_SCRIPT.replace("__ID__", json.dumps(uid)))
        parts.append("</div>")
        return "\n".join(parts)

    def _repr_mimebundle_(self, **kwargs):
        data = dict(super()._repr_mimebundle_(**kwargs) or {})
        data["text/plain"] = (f"pruning explorer: methods {', '.join(self.sliders)}; "
                              f"showing {self.method}")
        data["text/html"] = self.to_html()
        return data


_CHOOSER_SCRIPT = """<script>
(function () {
  var root = document.getElementById(__ID__);
  if (!root) { return; }
  var menu = root.querySelector("select.tb-chooser-select");
  var panes = [];
  for (var c = root.firstElementChild; c; c = c.nextElementSibling) {
    if (c.classList.contains("tb-chooser-pane")) { panes.push(c); }
  }
  function show() {
    var i = parseInt(menu.value, 10) || 0;
    for (var j = 0; j < panes.length; j++) {
      if (j === i) { panes[j].removeAttribute("hidden"); }
      else { panes[j].setAttribute("hidden", ""); }
    }
  }
  menu.addEventListener("change", show);
  show();
})();
</script>"""


#: what each method's strength is called, and its label format
_STRENGTH = {"CCP": ("α", lambda v: f"{v:.4g}"), "CVP": ("critical value G", lambda v: f"{v:.4g}"),
             "MEP": ("m", lambda v: f"{v:g}"), "EBP": ("CF", lambda v: f"{v:g}")}


def pruning_explorer(estimator, X_grow, y_grow, X_prune, y_prune, X_test, y_test, *,
                     methods=("CCP", "CVP", "MEP", "EBP"), initial_method: str | None = None,
                     max_frames: int = 30, draw_depth: int | None = 3,
                     draw_kwargs: dict | None = None,
                     ms=(0, 0.5, 1, 2, 4, 8, 16, 32, 64, 128),
                     confidences=(0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.01, 0.001)):
    """One grown tree, pruned by a chosen method at each strength.

    A copy of ``estimator`` (C4.5 with ``pruning=None``, or CART with ``ccp_alpha=0``) is
    fitted once on the growing set; for each method of ``methods`` its sequence of pruned
    trees is computed (``"CCP"``: :func:`~treebook.prune.sequence.ccp_sequence` with the
    misclassification risk; ``"CVP"``: :func:`~treebook.prune.critical_value.critical_value_path`
    on the G statistic; ``"MEP"``: :func:`~treebook.prune.minimum_error.minimum_error_path`
    at ``ms``; ``"EBP"``: :func:`~treebook.prune.error_based.prune_error_based` at each of
    ``confidences``, weakest first). Each method gets one :class:`~treebook.io.widgets.FrameSlider` (long
    sequences thinned to ``max_frames``): a frame shows the strength, the leaves, the
    training / pruning / test error rates, a chart of the three against the leaves of
    the pruned tree, and the drawing. Each slider starts at the tree the pruning set
    chooses (least pruning error, smallest on ties). A menu chooses the method (live:
    a dropdown; in the book: a ``<select>``).

    Errors are counted by routing each case to the node where it stops (see
    :func:`~treebook.prune.reduced_error.pruning_set_errors`). The returned object has
    ``sliders`` (method → slider), each slider a ``results`` DataFrame (``strength``,
    ``leaves``, ``nodes``, ``train``, ``prune``, ``test`` error rates), and ``model``.
    """
    import pandas as pd

    from ..prune import (ccp_sequence, critical_value_path, minimum_error_path,
                        prune_error_based)
    from ..prune.reduced_error import class_codes, pruning_set_errors
    from ..prune.sequence import PrunedSequence

    methods = list(methods)
    unknown = [m for m in methods if m not in _STRENGTH]
    if not methods or unknown:
        raise ValueError(f"methods must be a non-empty subset of {list(_STRENGTH)}; "
                         f"got {methods!r}")
    initial_method = methods[0] if initial_method is None else initial_method
    if initial_method not in methods:
        raise ValueError(f"initial_method must be one of {methods}; got {initial_method!r}")
    if isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 2:
        raise ValueError(f"max_frames must be an int >= 2; got {max_frames!r}")
    params = estimator.get_params() if hasattr(estimator, "get_params") else {}
    if "pruning" in params:
        params["pruning"] = None
    elif "ccp_alpha" in params:
        params["ccp_alpha"] = 0.0
    else:
        raise TypeError("pruning_explorer needs a C4.5 or CART estimator; got "
                        f"{type(estimator).__name__}")
    model = type(estimator)(**params).fit(X_grow, y_grow)
    tree = model.tree_
    enc = [model.encoder_.transform(X, allow_missing=True) for X in (X_grow, X_prune, X_test)]
    ys = [class_codes(tree, y) for y in (y_grow, y_prune, y_test)]

    def sequence(method) -> PrunedSequence:
        if method == "CCP":
            return ccp_sequence(tree, risk="misclassification")
        if method == "CVP":
            return critical_value_path(tree, "g")
        if method == "MEP":
            return minimum_error_path(tree, ms)
        trees = [prune_error_based(tree, enc[0], ys[0], confidence=float(c)) for c in confidences]
        return PrunedSequence("CF", list(confidences), trees, nested=False)

    def rate(t, k):
        n = max(len(ys[k]), 1)
        return float(pruning_set_errors(t, enc[k], ys[k])["subtree"][0]) / n

    sliders = {}
    for method in methods:
        seq = sequence(method)
        keep = np.arange(len(seq))
        if keep.size > max_frames:
            keep = np.unique(np.round(np.linspace(0, len(seq) - 1, max_frames)).astype(int))
        chosen = seq.select(enc[1], ys[1])
        keep = np.union1d(keep, [chosen])
        values = [float(seq.values[i]) for i in keep]
        trees = [seq.trees[i] for i in keep]
        errs = {name: [rate(t, k) for t in trees] for k, name in enumerate(("train", "prune", "test"))}
        results = pd.DataFrame({"strength": values, "leaves": [t.n_leaves for t in trees],
                                "nodes": [t.node_count for t in trees], **errs})
        name, fmt = _STRENGTH[method]
        leaves = results["leaves"].to_numpy()
        frames = list(range(len(trees)))

        def render(i, trees=trees, values=values, errs=errs, leaves=leaves, name=name,
                   fmt=fmt, method=method):
            t = trees[i]
            stats = (f'<div class="tb-frame-stats" style="margin:0.3em 0">{html.escape(method)} · '
                     f'{html.escape(name)} <b>{fmt(values[i])}</b> · {t.n_leaves} leaves · '
                     f'error: training <b>{errs["train"][i]:.3f}</b> · pruning '
                     f'<b>{errs["prune"][i]:.3f}</b> · test <b>{errs["test"][i]:.3f}</b></div>')
            order = np.argsort(leaves, kind="stable")
            pos = int(np.flatnonzero(order == i)[0])
            chart = line_chart_svg(leaves[order], {
                "training error": np.asarray(errs["train"])[order],
                "pruning error": np.asarray(errs["prune"])[order],
                "test error": np.asarray(errs["test"])[order]},
                current=pos, xlabel="leaves of the pruned tree", ylabel="error rate")
            drawing = to_graphviz(t, max_depth=draw_depth, **(draw_kwargs or {})).to_html()
            return stats + f"<div>{chart}</div>" + drawing

        start = int(np.flatnonzero(keep == chosen)[0])
        slider = FrameSlider(frames, render, description=name,
                             format_value=lambda i, values=values, fmt=fmt: fmt(values[i]),
                             initial=start)
        slider.results = results
        sliders[method] = slider
    out = _MethodChooser(sliders, initial_method)
    out.model = model
    return out
