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
training and test accuracy. The pruning explorers (C4.5's confidence factor, CART's α,
every method of chapter 6) are built from the same pieces in :mod:`treebook.io.explorers`.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
from typing import Any, Callable, Sequence

import ipywidgets
import numpy as np

from ..core.base import Interval, validate_params
from .render import PALETTE, to_graphviz

__all__ = ["FrameSlider", "depth_explorer", "line_chart_svg", "tree_sequence_slider"]

slider_ids = itertools.count()


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
        uid = f"tb-slider-{digest}-{next(slider_ids)}"
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
def tree_sequence_slider(model, values, trees, X_train, y_train, X_test, y_test, *,
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


def check_fitted_estimator(estimator, needs: str = ""):
    """A learner (unfitted or fitted) that the explorers can copy and fit."""
    if not (hasattr(estimator, "get_params") and hasattr(estimator, "fit")):
        raise TypeError(f"estimator must be a treebook learner{needs} (an instance, e.g. "
                        f"CARTClassifier()); got {type(estimator).__name__}")
    if isinstance(estimator, type):
        raise TypeError(f"estimator must be an instance, e.g. {estimator.__name__}(); got "
                        "the class itself")


DRAW_CONSTRAINTS = {"draw_depth": Interval(int, 0, None, allow_none=True)}


@validate_params(DRAW_CONSTRAINTS)
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
    check_fitted_estimator(estimator)
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
    return tree_sequence_slider(
        model, depths, trees, X_train, y_train, X_test, y_test, key="depth",
        description="depth", format_value=str, chart_x=depths, xlabel="depth", ylim=None,
        draw_depth=draw_depth, draw_kwargs=draw_kwargs, initial=initial,
        choose_initial=lambda test: depths[int(np.argmax(test))])

