"""Sliders over precomputed frames: live in JupyterLab, still working in the static book.

:class:`FrameSlider` is the generic piece. Given parameter values ``v_0 … v_{N-1}`` and a
function ``render(v) -> HTML``, it renders every frame once and then is two things at once:

* in a running kernel, an ipywidgets ``VBox`` (a slider above an HTML pane) whose pane
  shows frame ``i`` when the slider moves to ``v_i``;
* in a page with no kernel (the built book), a self-contained HTML slider: its mime
  bundle carries a ``text/html`` alternative with all ``N`` frames and a few lines of
  inline JavaScript that shows one frame at a time. No external script or URL.

JupyterLab ranks the widget view above ``text/html``, so it shows the live slider; the
book is configured to prefer ``text/html`` (``nb_mime_priority_overrides`` in
``_config.yml``), so it shows the static one. The static markup is a contract the
browser tests check::

    <div class="tb-slider" id="…" data-frame-count="N">
      <input type="range" class="tb-slider-input" min="0" max="N-1" …>
      <span class="tb-slider-value">label of the shown frame</span>
      <div class="tb-slider-frame" data-label="…">…</div>        (exactly one without
      <div class="tb-slider-frame" data-label="…" hidden>…</div>   ``hidden``)
      <script>…</script>
    </div>

:func:`depth_explorer` is the first user: one ID3/C4.5/CART tree grown once, cut at each
depth with :meth:`treebook.core.tree.Tree.truncate`, each frame showing the cut tree and its
training and test accuracy. Chapter 4 builds its pruning-path (α) slider from the same
class, with float values and its own label format.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
from typing import Any, Callable, Sequence

import numpy as np

from ..core.base import Interval, validate_params
from ..core.checks import require_optional
from ..prune.error_based import CONFIDENCE
from .render import PALETTE, to_graphviz

__all__ = ["FrameSlider", "depth_explorer", "line_chart_svg"]

# the sliders are ipywidgets objects: this whole module needs the extra treebook[widgets]
ipywidgets = require_optional("ipywidgets", "treebook.io.widgets (sliders in Jupyter)")

_ids = itertools.count()


def _default_format(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.4g}"
    return str(v)


class FrameSlider(ipywidgets.VBox):
    """A slider over precomputed HTML frames (live widget + kernel-free HTML).

    Parameters
    ----------
    values : the parameter values, one frame each (numbers or anything else).
    render : ``render(value) -> str``: the frame's HTML (e.g. an inline SVG drawing).
    format_value : ``format_value(value) -> str``: the slider's label for a value
        (default: ``str``; floats to 4 significant digits).
    caption : optional ``caption(value) -> str``: HTML shown under each frame.
    description : the slider's name (e.g. ``"depth"`` or ``"α"``).
    initial : index of the frame shown first (default 0).

    Notes
    -----
    Attributes ``values``, ``labels`` and ``frames`` hold what was computed; ``index`` is
    the frame the live slider shows. :meth:`to_html` returns the static slider.
    """

    def __init__(self, values: Sequence, render: Callable[[Any], str], *,
                 format_value: Callable[[Any], str] | None = None,
                 caption: Callable[[Any], str] | None = None,
                 description: str = "", initial: int = 0):
        values = list(values)
        if not values:
            raise ValueError("values is empty; a slider needs at least one value")
        if not callable(render):
            raise TypeError(f"render must be callable; got {render!r}")
        if not (isinstance(initial, (int, np.integer)) and 0 <= initial < len(values)):
            raise ValueError(f"initial must be an index in [0, {len(values) - 1}]; got {initial!r}")
        fmt = format_value or _default_format
        self.values = values
        self.labels = [str(fmt(v)) for v in values]
        self.description = str(description)
        self.frames = []
        for v in values:
            body = render(v)
            if not isinstance(body, str):
                raise TypeError(f"render must return an HTML string; got {type(body).__name__}")
            if caption is not None:
                body += f'<div class="tb-slider-caption">{caption(v)}</div>'
            self.frames.append(body)
        self._slider = ipywidgets.SelectionSlider(
            options=[(label, i) for i, label in enumerate(self.labels)], value=int(initial),
            description=self.description, continuous_update=True,
            layout=ipywidgets.Layout(width="min(40em, 100%)"),
            style={"description_width": "initial"})
        self._pane = ipywidgets.HTML(value=self.frames[int(initial)])
        self._slider.observe(self._on_change, names="value")
        super().__init__(children=[self._slider, self._pane])

    @property
    def index(self) -> int:
        return int(self._slider.value)

    @index.setter
    def index(self, i: int) -> None:
        self._slider.value = int(i)

    def _on_change(self, change) -> None:
        self._pane.value = self.frames[int(change["new"])]

    # ------------------------------------------------------------------ static HTML
    def to_html(self) -> str:
        """The kernel-free slider: all frames, inline JavaScript, no external URL."""
        n = len(self.frames)
        start = self.index
        digest = hashlib.sha1("".join(self.frames).encode("utf-8")).hexdigest()[:10]
        uid = f"tb-slider-{digest}-{next(_ids)}"
        esc = html.escape
        parts = [
            f'<div class="tb-slider" id="{uid}" data-frame-count="{n}" '
            f'style="margin:0.5em 0 1em 0">',
            f'<label for="{uid}-input" style="margin-right:0.6em;font-weight:600">'
            f'{esc(self.description)}</label>',
            f'<input type="range" class="tb-slider-input" id="{uid}-input" min="0" '
            f'max="{n - 1}" step="1" value="{start}" aria-valuetext="{esc(self.labels[start])}" '
            f'style="width:min(24em,60%);vertical-align:middle">',
            f'<span class="tb-slider-value" style="margin-left:0.6em;font-weight:600">'
            f'{esc(self.labels[start])}</span>',
        ]
        for i, (label, body) in enumerate(zip(self.labels, self.frames)):
            hidden = "" if i == start else " hidden"
            parts.append(f'<div class="tb-slider-frame" data-index="{i}" '
                         f'data-label="{esc(label)}"{hidden}>{body}</div>')
        parts.append(_SCRIPT.replace("__ID__", json.dumps(uid)))
        parts.append("</div>")
        return "\n".join(parts)

    def _repr_mimebundle_(self, **kwargs):
        data = dict(super()._repr_mimebundle_(**kwargs) or {})
        data["text/plain"] = (f"{type(self).__name__}: {len(self.frames)} frames, "
                              f"{self.description or 'value'} = {self.labels[0]} … {self.labels[-1]}")
        data["text/html"] = self.to_html()
        return data


# The static slider's behaviour: show the frame the range input points at. It looks its
# elements up inside its own container, so several sliders on one page never interfere,
# and syncs once at load (a browser may restore the input's value on "back").
_SCRIPT = """<script>
(function () {
  var root = document.getElementById(__ID__);
  if (!root) { return; }
  var input = root.querySelector("input.tb-slider-input");
  var label = root.querySelector("span.tb-slider-value");
  var frames = [];
  for (var c = root.firstElementChild; c; c = c.nextElementSibling) {
    if (c.classList.contains("tb-slider-frame")) { frames.push(c); }
  }
  function show() {
    var i = Math.max(0, Math.min(frames.length - 1, parseInt(input.value, 10) || 0));
    for (var j = 0; j < frames.length; j++) {
      if (j === i) { frames[j].removeAttribute("hidden"); }
      else { frames[j].setAttribute("hidden", ""); }
    }
    var text = frames[i].getAttribute("data-label");
    label.textContent = text;
    input.setAttribute("aria-valuetext", text);
  }
  input.addEventListener("input", show);
  input.addEventListener("change", show);
  show();
})();
</script>"""


# --------------------------------------------------------------------------- line chart
def _nice_ticks(lo: float, hi: float, n: int = 5) -> np.ndarray:
    if not hi > lo:
        return np.array([lo])
    raw = (hi - lo) / max(n - 1, 1)
    mag = 10 ** np.floor(np.log10(raw))
    step = mag * min((m for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=10)
    start = np.ceil(lo / step - 1e-9) * step
    return np.arange(start, hi + step * 1e-6, step)


def line_chart_svg(x: Sequence[float], series: dict, *, current: int | None = None,
                   xlabel: str = "", ylabel: str = "", ylim: tuple | None = None,
                   width: int = 380, height: int = 210) -> str:
    """A small inline SVG line chart (no plotting library, no fonts embedded).

    ``series`` maps a legend name to y values aligned with ``x``; ``current`` is an index
    into ``x`` to mark with a vertical line and filled markers (the slider's position).
    Series are told apart by colour *and* by marker shape and dash, so the chart reads in
    grey too.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError("x must be a non-empty 1-D sequence of numbers")
    ys = {name: np.asarray(v, dtype=float) for name, v in series.items()}
    for name, v in ys.items():
        if v.shape != x.shape:
            raise ValueError(f"series {name!r} has {v.size} values but x has {x.size}")
    left, right, top, bottom = 46, 12, 10, 36
    pw, ph = width - left - right, height - top - bottom
    allv = np.concatenate([v for v in ys.values()]) if ys else np.array([0.0, 1.0])
    lo, hi = (float(allv.min()), float(allv.max())) if ylim is None else ylim
    if hi - lo < 1e-12:
        lo, hi = lo - 0.5, hi + 0.5
    pad = 0.05 * (hi - lo) if ylim is None else 0.0
    lo, hi = lo - pad, hi + pad
    x0, x1 = float(x.min()), float(x.max())
    if x1 - x0 < 1e-12:
        x0, x1 = x0 - 0.5, x1 + 0.5

    def sx(v):
        return left + (v - x0) / (x1 - x0) * pw

    def sy(v):
        return top + (hi - v) / (hi - lo) * ph

    out = [f'<svg class="tb-chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" '
           f'style="max-width:100%;height:auto;font-family:Helvetica,Arial,sans-serif;font-size:11px">',
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="white" stroke="#999"/>']
    for t in _nice_ticks(lo, hi):
        y = sy(t)
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{left - 4}" y="{y + 3.5:.1f}" text-anchor="end">{t + 0.0:.3g}</text>')
    xt = x if x.size <= 12 else _nice_ticks(x0, x1, 7)
    for t in xt:
        out.append(f'<text x="{sx(t):.1f}" y="{top + ph + 14}" text-anchor="middle">{t:.4g}</text>')
    if xlabel:
        out.append(f'<text x="{left + pw / 2:.1f}" y="{height - 4}" text-anchor="middle">'
                   f'{html.escape(xlabel)}</text>')
    if ylabel:
        out.append(f'<text transform="translate(11,{top + ph / 2:.1f}) rotate(-90)" '
                   f'text-anchor="middle">{html.escape(ylabel)}</text>')
    if current is not None:
        cx = sx(x[int(current)])
        out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{top}" y2="{top + ph}" '
                   f'stroke="#000" stroke-dasharray="3,3"/>')
    colours = [PALETTE[4], PALETTE[5], PALETTE[2], PALETTE[6]]
    dashes = ["", ' stroke-dasharray="6,3"', ' stroke-dasharray="2,2"', ' stroke-dasharray="8,2,2,2"']
    for s, (name, v) in enumerate(ys.items()):
        col, dash = colours[s % 4], dashes[s % 4]
        pts = " ".join(f"{sx(a):.1f},{sy(b):.1f}" for a, b in zip(x, v))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="1.8"{dash}/>')
        for i, (a, b) in enumerate(zip(x, v)):
            big = current is not None and i == int(current)
            r = 4.2 if big else 2.6
            fill = col if big or s == 0 else "white"
            if s % 2 == 0:
                out.append(f'<circle cx="{sx(a):.1f}" cy="{sy(b):.1f}" r="{r}" fill="{fill}" stroke="{col}"/>')
            else:
                out.append(f'<rect x="{sx(a) - r:.1f}" y="{sy(b) - r:.1f}" width="{2 * r}" '
                           f'height="{2 * r}" fill="{fill}" stroke="{col}"/>')
        ly = top + ph - 10 - 15 * (len(ys) - 1 - s)
        lx = left + pw - 120
        out.append(f'<line x1="{lx}" x2="{lx + 22}" y1="{ly}" y2="{ly}" stroke="{col}" '
                   f'stroke-width="1.8"{dash}/>')
        out.append(f'<text x="{lx + 27}" y="{ly + 4}">{html.escape(str(name))}</text>')
    out.append("</svg>")
    return "".join(out)


# --------------------------------------------------------------------------- depth explorer
def _tree_sequence_slider(model, values, trees, X_train, y_train, X_test, y_test, *,
                          key: str, description: str, format_value: Callable[[Any], str],
                          chart_x, xlabel: str, ylim, draw_depth, draw_kwargs,
                          choose_initial: Callable[[list], Any], initial=None,
                          extra_columns: dict | None = None) -> FrameSlider:
    """One slider frame per tree of a sequence (a tree cut at each depth, pruned at each
    CF or α): each frame shows the parameter, the number of leaves, training and test
    score, a chart of both with the current frame marked, and the drawing.

    Shared by every explorer below; ``results`` on the returned slider is a DataFrame
    with columns ``key``, ``leaves``, ``nodes``, ``train``, ``test``.
    """
    import pandas as pd

    train = [model.score_with(t, X_train, y_train) for t in trees]
    test = [model.score_with(t, X_test, y_test) for t in trees]
    results = pd.DataFrame({key: values, "leaves": [t.n_leaves for t in trees],
                            "nodes": [t.node_count for t in trees], "train": train,
                            "test": test, **(extra_columns or {})})
    metric = "accuracy" if getattr(model, "_estimator_type", "") == "classifier" else "R²"
    if initial is None:
        initial = choose_initial(test)
    if initial not in values:
        raise ValueError(f"initial must be one of the {key} values {list(values)}; "
                         f"got {initial!r}")
    index_of = {v: i for i, v in enumerate(values)}
    if ylim == "tight":  # zoom on the scores, leaving the lower part to the legend
        lo, hi = min(train + test), max(train + test)
        span = max(hi - lo, 0.02)
        ylim = (max(0.0, lo - 0.6 * span), min(1.0, hi + 0.1 * span))
    elif ylim is None and metric == "accuracy":
        ylim = (0.0, 1.0)

    def render(v):
        i = index_of[v]
        t = trees[i]
        stats = (f'<div class="tb-frame-stats" style="margin:0.3em 0">{description} '
                 f'<b>{format_value(v)}</b> · {t.n_leaves} leaves · training {metric} '
                 f'<b>{train[i]:.3f}</b> · test {metric} <b>{test[i]:.3f}</b></div>')
        chart = line_chart_svg(chart_x, {f"training {metric}": train, f"test {metric}": test},
                               current=i, xlabel=xlabel, ylabel=metric, ylim=ylim)
        drawing = to_graphviz(t, max_depth=draw_depth, **(draw_kwargs or {})).to_html()
        return stats + f"<div>{chart}</div>" + drawing

    slider = FrameSlider(values, render, description=description, format_value=format_value,
                         initial=index_of[initial])
    slider.results = results
    slider.model = model
    return slider


def _check_estimator(estimator, needs: str = ""):
    """A learner (unfitted or fitted) that the explorers can copy and fit."""
    if not (hasattr(estimator, "get_params") and hasattr(estimator, "fit")):
        raise TypeError(f"estimator must be a treebook learner{needs} (an instance, e.g. "
                        f"CARTClassifier()); got {type(estimator).__name__}")
    if isinstance(estimator, type):
        raise TypeError(f"estimator must be an instance, e.g. {estimator.__name__}(); got "
                        "the class itself")


_DRAW = {"draw_depth": Interval(int, 0, None, allow_none=True)}


@validate_params(_DRAW)
def depth_explorer(estimator, X_train, y_train, X_test, y_test, *, depths=None,
                   draw_depth: int | None = 3, draw_kwargs: dict | None = None,
                   initial: int | None = None, sample_weight=None) -> FrameSlider:
    """A depth slider: the tree cut at each depth, with its training and test score.

    A copy of ``estimator`` (same parameters, but ``max_depth=None`` when it has that
    parameter) is fitted **once** on the training data; each frame is that tree cut at
    depth ``d`` by :meth:`~treebook.core.tree.Tree.truncate`, not a refit. For a top-down
    grower without post-pruning (ID3, CART before pruning) the cut tree is exactly the
    tree that ``max_depth=d`` would grow, since splits above depth ``d`` never depend on
    what happens below it.

    Each frame shows: the depth, number of leaves, training and test score (accuracy for
    a classifier, R² for a regressor), a chart of both scores against depth with the
    current depth marked, and the drawing (down to ``draw_depth`` levels; deeper parts
    are summarised as dashed nodes; ``draw_kwargs`` go to :func:`~treebook.io.render.to_graphviz`,
    e.g. ``{"rankdir": "LR"}`` for wide multiway trees). ``initial`` is the depth shown
    first (default: the depth with the best test score, the smallest if tied).

    The returned :class:`FrameSlider` also carries ``results`` (a DataFrame with columns
    ``depth``, ``leaves``, ``nodes``, ``train``, ``test``) and ``model`` (the fitted copy).
    """
    _check_estimator(estimator)
    params = estimator.get_params()
    if "max_depth" in params:
        params["max_depth"] = None
    model = type(estimator)(**params)
    model.fit(X_train, y_train, sample_weight=sample_weight)
    full = model.tree_
    if depths is None:
        depths = list(range(full.max_depth + 1))
    else:
        depths = [int(d) for d in depths]
        if not depths or min(depths) < 0:
            raise ValueError(f"depths must be non-negative integers; got {depths!r}")
    trees = [full.truncate(d) for d in depths]
    return _tree_sequence_slider(
        model, depths, trees, X_train, y_train, X_test, y_test, key="depth",
        description="depth", format_value=str, chart_x=depths, xlabel="depth", ylim=None,
        draw_depth=draw_depth, draw_kwargs=draw_kwargs, initial=initial,
        choose_initial=lambda test: depths[int(np.argmax(test))])


# =========================================================================================
# C4.5 (chapter 3, helper ch3): a confidence-factor slider for error-based pruning
# =========================================================================================
@validate_params(_DRAW)
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
    _check_estimator(estimator, " (C4.5)")
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
    return _tree_sequence_slider(
        model, confidences, trees, X_train, y_train, X_test, y_test, key="confidence",
        description="CF", format_value=lambda c: f"{c:g}", chart_x=confidences,
        xlabel="confidence factor CF", ylim="tight",
        draw_depth=draw_depth, draw_kwargs=draw_kwargs,
        initial=None if initial is None else float(initial),
        choose_initial=lambda test: cf if cf in confidences
        else confidences[int(np.argmax(test))])


# =========================================================================================
# CART (chapter 4, helper ch4): an α slider over the cost-complexity pruning path
# =========================================================================================
@validate_params({**_DRAW, "max_frames": Interval(int, 2, None)})
def alpha_explorer(estimator, X_train, y_train, X_test, y_test, *, risk: str | None = None,
                   max_frames: int = 40, draw_depth: int | None = 4,
                   draw_kwargs: dict | None = None, initial=None,
                   sample_weight=None) -> FrameSlider:
    """An α slider: one CART tree grown once, pruned along its weakest-link path.

    A copy of ``estimator`` (``ccp_alpha=0``) is fitted once on the training data; its
    pruning path (:func:`~treebook.prune.cost_complexity.cost_complexity_path`, ``risk``
    default the estimator's ``ccp_risk``) gives ``α_0 = 0 < α_1 < …``, and frame ``k`` is
    the subtree ``T_k`` that minimises ``R_α(T) = R(T) + α|T̃|`` for ``α_k ≤ α < α_{k+1}``
    (computed by :func:`~treebook.prune.cost_complexity.prune_ccp`, not refitted). A
    frame shows α, the number of leaves, training and test score, a chart of both against
    the subtree's number of leaves with the current one marked, and the drawing down to
    ``draw_depth`` levels. Long paths are thinned to at most ``max_frames`` frames
    (always keeping the first and the last). ``initial`` is the α shown first (default:
    the best test score, the simplest tree if tied). The slider's ``results`` is a
    DataFrame with columns ``alpha``, ``leaves``, ``nodes``, ``train``, ``test``;
    ``model`` is the fitted copy and ``path`` the full pruning path.
    """
    from ..prune.cost_complexity import cost_complexity_path, prune_ccp

    _check_estimator(estimator, " (CART)")
    if not hasattr(estimator, "ccp_alpha"):
        raise TypeError("alpha_explorer needs a CART estimator (with ccp_alpha)")
    params = estimator.get_params()
    params["ccp_alpha"] = 0.0
    model = type(estimator)(**params)
    model.fit(X_train, y_train, sample_weight=sample_weight)
    risk = risk or params.get("ccp_risk", "impurity")
    path = cost_complexity_path(model.tree_, risk=risk)
    alphas = np.unique(path.ccp_alphas)
    if alphas.size > max_frames:
        keep = np.unique(np.round(np.linspace(0, alphas.size - 1, max_frames)).astype(int))
        alphas = alphas[keep]
    alphas = [float(a) for a in alphas]
    trees = [prune_ccp(model.tree_, a, risk=risk) for a in alphas]
    leaves = [t.n_leaves for t in trees]

    def simplest_best(test):
        best = max(test)
        return alphas[max(i for i, v in enumerate(test) if v == best)]

    slider = _tree_sequence_slider(
        model, alphas, trees, X_train, y_train, X_test, y_test, key="alpha",
        description="α", format_value=lambda a: f"{a:.4g}", chart_x=leaves,
        xlabel="leaves of the pruned tree", ylim=None, draw_depth=draw_depth,
        draw_kwargs=draw_kwargs, initial=None if initial is None else float(initial),
        choose_initial=simplest_best)
    slider.path = path
    return slider


__all__ += ["confidence_explorer", "alpha_explorer"]


# =========================================================================================
# Chapter 6 (helper prune): one explorer for every pruning method with a strength
# =========================================================================================
class _MethodChooser(ipywidgets.VBox):
    """Several :class:`FrameSlider` s, one per pruning method, and a menu that shows one.

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
        uid = f"tb-chooser-{next(_ids)}"
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
    ``confidences``, weakest first). Each method gets one :class:`FrameSlider` (long
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


__all__ += ["pruning_explorer"]
