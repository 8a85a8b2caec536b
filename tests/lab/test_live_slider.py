"""Chapter 2 as a live notebook: JupyterLab + jupytext + ipywidgets, in headless Chromium.

The book promises a second way to read it: open a chapter in JupyterLab, run it, and
move the sliders. This test does exactly that with chapter 2 (``book/02_id3.md``):

1. JupyterLab (the ``lab`` fixture, ``conftest.py``) opens the Markdown chapter; it must
   come up as a notebook (jupytext), not as a text file;
2. all cells run in a real kernel, none fails and every code cell gets an execution count;
3. the depth slider (:func:`treebook.io.widgets.depth_explorer`, found by its description
   ``depth``, not by its cell number: the first such slider with more than one frame)
   is the live ipywidget, not the static ``.tb-slider`` fallback of the built book;
4. one key press moves it; the browser sends the new value to the kernel over the
   websocket, the kernel answers with the new frame, and the readout, the frame's
   "depth ..." line and the tree drawing all change to the new depth;
5. every check cell (tagged ``remove-cell`` for the book) opens with its input collapsed
   (``jupyter: {source_hidden: true}`` in its metadata), so a reader meets the checks
   as one-line placeholders, not as code; so does every other cell whose input the book
   hides (``remove-input``, ``hide-input``, ``hide-cell``), and no other cell.

Every request of the page must go to the JupyterLab server (others are aborted and
recorded), and the server and its kernel must not have tried any other host
(``loopback_guard``). Screenshots before and after the move go to
``_build/screenshots/lab_02_id3_{before,after}.png``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from headless_chromium import keep_requests_local
from playwright.sync_api import Error as PlaywrightError

CHAPTER = "book/02_id3.md"
OPEN_TIMEOUT_MS = 60_000
RUN_ALL_TIMEOUT_MS = 150_000
ROUND_TRIP_TIMEOUT_MS = 20_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "_build" / "screenshots"

# Open the chapter, wait for its kernel, run every cell with JupyterLab's own command
# (the promise resolves when the last cell has finished), then summarise the model.
_RUN_ALL_JS = """async ([path, timeoutMs]) => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path || !panel.content.model)
    return {error: 'the current tab is not ' + path};
  await panel.context.sessionContext.ready;
  const timer = new Promise((_, reject) =>
    setTimeout(() => reject(new Error('run-all timed out')), timeoutMs));
  let ok;
  try { ok = await Promise.race([app.commands.execute('notebook:run-all-cells'), timer]); }
  catch (e) { return {error: String(e)}; }
  const cells = Array.from(panel.content.model.cells);
  const code = cells.map((c, i) => [c, i]).filter(([c]) => c.type === 'code');
  const errors = [], expected = [];
  for (const [c, i] of code) {
    // a cell tagged raises-exception (as for nbval) is meant to raise
    const tags = c.getMetadata('tags') || [];
    for (const o of c.outputs.toJSON())
      if (o.output_type === 'error')
        (tags.includes('raises-exception') ? expected : errors).push(
          `cell ${i}: ${o.ename}: ${o.evalue}`);
  }
  return {ok, kernel: panel.context.sessionContext.kernelDisplayName,
          cells: cells.length, code: code.length, errors, expected,
          unexecuted: code.filter(([c]) => !c.executionCount).map(([, i]) => i)};
}"""

# The code cells as JupyterLab shows them, with the tags that hide their input in the
# book: the check cells (remove-cell) and the others whose input the book hides ask for
# the input collapsed (jupyter.source_hidden), and the view honours it.
_HIDDEN_INPUT_TAGS = ["remove-cell", "remove-input", "hide-input", "hide-cell"]
_CODE_CELLS_JS = """(hiddenTags) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const out = [];
  panel.content.widgets.forEach((w, i) => {
    if (w.model.type !== 'code') return;
    const tags = w.model.getMetadata('tags') || [];
    out.push({index: i, tags: tags.filter(t => hiddenTags.includes(t)),
              collapsed: w.inputHidden,
              source_hidden: !!((w.model.getMetadata('jupyter') || {}).source_hidden)});
  });
  return out;
}"""

# What a depth slider's output shows: readout, the frame's stats line, the drawing, and
# what kind of output it is.
_SLIDER_STATE_JS = """(out) => {
  const handle = out.querySelector('.noUi-handle');
  const stats = out.querySelector('.widget-html .tb-frame-stats');
  const drawing = out.querySelector('.widget-html .tb-tree-drawing svg');
  return {
    classes: [out.className].concat(Array.from(out.children).map(c => c.className)),
    widget: !!out.querySelector('.jupyter-widgets.widget-vbox'),
    static_fallback: out.querySelectorAll(
      '.tb-slider, input.tb-slider-input, [data-mime-type="text/html"]').length,
    readout: (out.querySelector('.widget-readout') || {}).textContent,
    index: handle ? Number(handle.getAttribute('aria-valuenow')) : null,
    max: handle ? Number(handle.getAttribute('aria-valuemax')) : null,
    stats: stats ? stats.textContent.replace(/\\s+/g, ' ').trim() : null,
    drawing: drawing ? drawing.outerHTML : null,
    drawn_nodes: drawing ? drawing.querySelectorAll('g.node').length : 0,
  };
}"""

_STATS_DEPTH = re.compile(r"^depth (\d+) ·")


def _depth_in(stats: str | None) -> str | None:
    m = _STATS_DEPTH.match(stats or "")
    return m.group(1) if m else None


class WebSocketLog:
    """Every websocket the page opens, and the kernel messages on them after ``mark``."""

    def __init__(self, page):
        self.urls: list[str] = []
        self.sent: list[str] = []
        self.received: list[str] = []
        self.recording = False
        page.on("websocket", self._opened)

    def _opened(self, ws) -> None:
        self.urls.append(ws.url)
        ws.on("framesent", lambda payload: self._frame(self.sent, payload))
        ws.on("framereceived", lambda payload: self._frame(self.received, payload))

    def _frame(self, into: list[str], payload) -> None:
        if not self.recording:
            return
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        if '"comm_msg"' in text:
            into.append(text)

    def mark(self) -> None:
        self.sent.clear()
        self.received.clear()
        self.recording = True


def test_depth_slider_is_a_live_widget(lab, browser):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    chapter_on_disk = (lab.root / CHAPTER).read_bytes()
    started = time.monotonic()
    foreign: list[str] = []
    page_errors: list[str] = []
    context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                  service_workers="block")
    keep_requests_local(context, lab.url, foreign)
    page = context.new_page()
    page.on("pageerror", lambda e: page_errors.append(str(e)))
    sockets = WebSocketLog(page)
    try:
        # 1. the chapter opens as a notebook
        page.goto(f"{lab.url}lab/tree/{CHAPTER}?token={lab.token}", wait_until="load")
        page.wait_for_function(
            """(path) => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                           return !!(w && w.context && w.context.path === path &&
                                     w.node.classList.contains('jp-NotebookPanel') &&
                                     w.content.model && w.content.model.cells.length > 0); }""",
            arg=CHAPTER, timeout=OPEN_TIMEOUT_MS)

        # 2. run every cell
        run = page.evaluate(_RUN_ALL_JS, [CHAPTER, RUN_ALL_TIMEOUT_MS])
        assert "error" not in run, run.get("error")
        assert run["errors"] == [], "cells that raised"
        assert run["ok"] is True or run["expected"], f"run-all did not succeed: {run}"
        assert run["code"] > 10 and run["unexecuted"] == [], f"code cells not executed: {run}"
        ran_at = time.monotonic()
        code_cells = page.evaluate(_CODE_CELLS_JS, _HIDDEN_INPUT_TAGS)
        checks = [c for c in code_cells if "remove-cell" in c["tags"]]
        assert checks, "no check cell (remove-cell) found in the chapter"
        assert all(c["source_hidden"] and c["collapsed"] for c in checks), (
            f"check cells that open with their input shown: "
            f"{[c for c in checks if not (c['source_hidden'] and c['collapsed'])]}")
        hidden = [c for c in code_cells if c["tags"]]
        assert len(hidden) > len(checks), "no remove-input/hide-input cell in the chapter"
        assert all(c["collapsed"] for c in hidden), (
            f"cells the book hides that open with their input shown: "
            f"{[c for c in hidden if not c['collapsed']]}")
        shown = [c for c in code_cells if not c["tags"]]
        assert shown and not any(c["collapsed"] for c in shown), (
            f"cells the book shows that open collapsed: {[c for c in shown if c['collapsed']]}")

        # 3. the depth slider is the live ipywidget
        outputs = page.locator(".jp-OutputArea-output").filter(
            has=page.locator(".widget-hslider .widget-label", has_text=re.compile(r"^\s*depth\s*$")))
        if outputs.count() == 0:
            static = page.locator(".jp-OutputArea-output .tb-slider").count()
            raise AssertionError(f"no live slider described 'depth' in the chapter's outputs "
                                 f"({static} static .tb-slider fallbacks shown instead)")
        # the first depth slider that has somewhere to move (a one-frame slider cannot)
        states = [outputs.nth(i).evaluate(_SLIDER_STATE_JS) for i in range(outputs.count())]
        movable = [i for i, st in enumerate(states) if (st["max"] or 0) >= 1]
        assert movable, f"every depth slider has a single frame: {states}"
        out = outputs.nth(movable[0])
        out.scroll_into_view_if_needed()
        out.locator(".noUi-handle").wait_for(state="visible", timeout=10_000)
        before = out.evaluate(_SLIDER_STATE_JS)
        assert before["widget"], before
        assert before["static_fallback"] == 0, "the static .tb-slider is shown, not the widget"
        assert before["max"] is not None and before["max"] >= 1, before
        assert before["readout"] and _depth_in(before["stats"]) == before["readout"].strip(), before
        assert before["drawing"] and before["drawn_nodes"] > 0, "the frame draws no tree"
        page.screenshot(path=str(SCREENSHOTS / "lab_02_id3_before.png"))

        # 4. move it one step with the keyboard; the kernel sends the new frame
        key = "ArrowRight" if before["index"] < before["max"] else "ArrowLeft"
        sockets.mark()
        handle = out.locator(".noUi-handle")
        handle.focus()
        handle.press(key)
        want_index = before["index"] + (1 if key == "ArrowRight" else -1)
        try:
            page.wait_for_function(
                """([out, old]) => {
                     const s = out.querySelector('.widget-html .tb-frame-stats');
                     return s && s.textContent.replace(/\\s+/g, ' ').trim() !== old; }""",
                arg=[out.element_handle(), before["stats"]], timeout=ROUND_TRIP_TIMEOUT_MS)
        except PlaywrightError:
            pass  # reported by the assertions below
        after = out.evaluate(_SLIDER_STATE_JS)
        page.screenshot(path=str(SCREENSHOTS / "lab_02_id3_after.png"))
        moved_at = time.monotonic()
    finally:
        context.close()

    assert after["index"] == want_index, f"{key} moved the slider to {after['index']}"
    assert after["readout"] != before["readout"], "the readout did not change"
    assert _depth_in(after["stats"]) == after["readout"].strip(), (
        f"the frame says {after['stats']!r}, the readout {after['readout']!r}")
    assert after["drawing"] and after["drawing"] != before["drawing"], "the drawing did not change"
    assert after["static_fallback"] == 0 and after["widget"]
    # the new frame came from the kernel: the slider's value went out, the frame came back
    assert any('"update"' in m for m in sockets.sent), "no widget update sent to the kernel"
    assert any("tb-frame-stats" in m and f"depth <b>{after['readout'].strip()}</b>" in m
               for m in sockets.received), "the kernel sent no frame for the new depth"

    assert foreign == [], "requests to other hosts (aborted)"
    assert all(u.startswith(lab.url.replace("http", "ws", 1)) for u in sockets.urls), sockets.urls
    assert lab.net_log.read_text() == "", "the server or its kernel tried another host"
    guarded = lab.net_log.with_name(lab.net_log.name + ".guarded").read_text()
    assert "jupyterlab" in guarded and "ipykernel_launcher" in guarded, (
        f"the loopback guard is not loaded in both the server and the kernel:\n{guarded}")
    assert page_errors == [], "uncaught script errors in JupyterLab"
    assert (lab.root / CHAPTER).read_bytes() == chapter_on_disk, "the chapter was rewritten"
    print(f"\nlab: opened and ran {CHAPTER} in {ran_at - started:.1f} s; "
          f"slider round trip {moved_at - ran_at:.1f} s")
