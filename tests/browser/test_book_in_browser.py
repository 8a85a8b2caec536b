"""Every page of the built book, opened in headless Chromium (Debian's, via Playwright).

Each page is served from a local ``http.server`` on 127.0.0.1 and visited once; the visit
records a :class:`PageReport`, which the tests below check one property at a time:

* every request goes to the local server (others are intercepted, aborted and reported),
  and no local request fails;
* the console logs no error and no script throws;
* MathJax typeset every formula (each ``.math`` element holds an ``mjx-container``, none
  holds a TeX error) and no raw TeX is left in prose: no text node outside code
  listings, ``<code>``, scripts and typeset math holds ``$$``, ``\\(``/``\\[``, a control
  word such as ``\\frac``, a braced ``_{…}``/``^{…}`` or a ``$x$`` (a formula that
  Markdown broke, e.g. a wrapped line starting ``- `` that became a list item);
* every ``<img>`` loaded (``naturalWidth > 0``) and every inline SVG has content;
* every kernel-free slider (``.tb-slider``, the contract in ``treebook.io.widgets``) has
  ``data-frame-count`` frames, exactly one shown, and the keyboard moves through them;
* every exercise solution (a sphinx-exercise dropdown) opens when its button is clicked.

A full-page screenshot of each page goes to ``_build/screenshots/<page>.png``.
The last test feeds a deliberately broken page through the same visit, so each check is
shown to fail when it should.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from book_site import serve_directory
from headless_chromium import browser, keep_requests_local  # noqa: F401 - browser is a fixture
from playwright.sync_api import Error as PlaywrightError

MATHJAX_TIMEOUT_MS = 30_000

# Raw TeX that MathJax should have replaced, searched in each text node outside code.
RAW_TEX = re.compile(r"""
    \$\$                                     # display-math delimiters
  | \\[()\[\]]                               # \( \) \[ \]
  | \\(?:[A-Za-z]+|[{}|,;!])                # a control word (\frac, \Delta …) or \{ \, …
  | [_^]\{                                  # a braced subscript or superscript: D_{v0}
  | \$(?=[^\s$])[^$\n]{0,200}?(?<=[^\s$])\$  # $…$ with no space inside the dollars
""", re.VERBOSE)

# Every text node of the page outside code listings, scripts and typeset math that holds
# a backslash, a dollar, _ or ^, with where it is (hidden solutions and hidden slider frames
# are searched too). One node at a time: a formula broken by Markdown (a wrapped line
# that became a list item) leaves its halves in separate nodes.
_TEXT_NODES_JS = """() => {
  const skip = 'pre, code, kbd, samp, script, style, textarea, mjx-container, .highlight';
  const where = el => {  // the tag and the ids of its two nearest named ancestors
    const ids = [];
    for (let a = el.closest('[id]'); a && ids.length < 2; a = a.parentElement.closest('[id]')) {
      ids.push('#' + a.id);
      if (!a.parentElement) break;
    }
    return el.tagName.toLowerCase() + (ids.length ? ' in ' + ids.join(' < ') : '');
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(skip) || !/[\\\\$_^]/.test(n.nodeValue)) continue;
    found.push({text: n.nodeValue, where: where(el)});
  }
  return found;
}"""

_MATH_JS = """() => {
  const nodes = Array.from(document.querySelectorAll('.math'));
  const label = e => (e.id ? '#' + e.id + ' ' : '') + e.textContent.trim().slice(0, 60);
  return {
    nodes: nodes.length,
    untypeset: nodes.filter(e => !e.querySelector('mjx-container')).map(label),
    errors: Array.from(document.querySelectorAll('mjx-merror, [data-mjx-error]'))
                 .map(e => e.getAttribute('data-mjx-error') || e.textContent.slice(0, 80)),
    containers: document.querySelectorAll('mjx-container').length,
  };
}"""

_MATHJAX_READY_JS = """async () => {
  const mj = window.MathJax;
  if (!mj || !mj.startup || !mj.startup.promise) return false;
  await mj.startup.promise;
  await document.fonts.ready;
  return true;
}"""

# Lazy images load only when scrolled to: make them eager, then wait for every image.
_IMAGES_JS = """async () => {
  const imgs = Array.from(document.images);
  imgs.forEach(i => { if (i.loading === 'lazy') i.loading = 'eager'; });
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  return imgs.map(i => ({src: i.getAttribute('src'), complete: i.complete,
                         width: i.naturalWidth}));
}"""

# Inline SVGs of the content (not the theme's icons): each must draw something, and
# one that is displayed must take up space.
_SVG_JS = """() => {
  const root = document.querySelector('article') || document.body;
  return Array.from(root.querySelectorAll('svg'))
    .filter(s => !s.closest('button, .headerlink, .toggle-button') &&
                 !s.classList.contains('tb-icon') && !s.parentElement.closest('svg'))
    .map(s => {
      const r = s.getBoundingClientRect();
      return {shown: s.checkVisibility(), width: r.width, height: r.height,
              shapes: s.querySelectorAll('path, polygon, rect, ellipse, circle, line, polyline, text, image, use').length,
              where: (s.closest('[id]') || {}).id || ''};
    });
}"""

_SLIDER_STATE_JS = """(slider) => {
  const frames = Array.from(slider.querySelectorAll('.tb-slider-frame'));
  const label = slider.querySelector('.tb-slider-value');
  return {
    declared: slider.getAttribute('data-frame-count'),
    frames: frames.length,
    unhidden: frames.map((f, i) => f.hasAttribute('hidden') ? -1 : i).filter(i => i >= 0),
    shown: frames.map((f, i) => f.checkVisibility() ? i : -1).filter(i => i >= 0),
    inputs: slider.querySelectorAll('input.tb-slider-input[type=range]').length,
    labels: slider.querySelectorAll('.tb-slider-value').length,
    label: label ? label.textContent.trim() : null,
  };
}"""


# Index of the method pane a slider sits in (-1: not in a method menu).
_CHOOSER_PANE_JS = """(slider) => {
  const pane = slider.closest('.tb-chooser-pane');
  if (!pane) { return -1; }
  const panes = Array.from(pane.parentElement.children)
    .filter(c => c.classList.contains('tb-chooser-pane'));
  return panes.indexOf(pane);
}"""


# Choose the method of pane ``i`` in the slider's menu, as a reader would (a change event).
_CHOOSE_PANE_JS = """(slider, i) => {
  const menu = slider.closest('.tb-chooser').querySelector('select.tb-chooser-select');
  menu.value = String(i);
  menu.dispatchEvent(new Event('change'));
}"""


@dataclass
class PageReport:
    """What one visit of one page found."""

    url: str
    foreign_requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    raw_tex: list[tuple[str, str]] = field(default_factory=list)
    math: dict = field(default_factory=dict)
    mathjax_ready: bool = False
    broken_images: list[dict] = field(default_factory=list)
    images: int = 0
    broken_svgs: list[dict] = field(default_factory=list)
    svgs: int = 0
    slider_problems: list[str] = field(default_factory=list)
    sliders: int = 0
    solution_problems: list[str] = field(default_factory=list)
    solutions: int = 0
    screenshot: Path | None = None


def raw_tex_snippets(nodes: list[dict]) -> list[tuple[str, str]]:
    """Each piece of raw TeX in ``nodes`` (``{"text", "where"}``), as ``(match, context)``
    with the node's place and 30 characters either side."""
    found = []
    for node in nodes:
        text = node["text"]
        for m in RAW_TEX.finditer(text):
            snippet = text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")
            found.append((m.group(0), f"{node['where']}: {snippet}"))
    return found


def _check_sliders(page, report: PageReport) -> None:
    sliders = page.locator(".tb-slider")
    report.sliders = sliders.count()
    for i in range(report.sliders):
        slider = sliders.nth(i)
        name = f"slider {i + 1}"
        # a slider in a method menu (the pruning explorer) is shown by choosing its method
        pane = slider.evaluate(_CHOOSER_PANE_JS)
        if pane >= 0:
            slider.evaluate(_CHOOSE_PANE_JS, pane)
            if not slider.evaluate("(s) => s.checkVisibility()"):
                report.slider_problems.append(f"{name}: choosing method {pane} does not show it")
                continue
        state = slider.evaluate(_SLIDER_STATE_JS)
        try:
            n = int(state["declared"])
        except (TypeError, ValueError):
            report.slider_problems.append(f"{name}: data-frame-count={state['declared']!r}")
            continue
        if n < 1 or state["frames"] != n:
            report.slider_problems.append(f"{name}: declares {n} frames, holds {state['frames']}")
            continue
        if len(state["unhidden"]) != 1 or state["shown"] != state["unhidden"]:
            report.slider_problems.append(
                f"{name}: frames without `hidden` {state['unhidden']}, shown {state['shown']}")
            continue
        if state["inputs"] != 1 or state["labels"] != 1:
            report.slider_problems.append(
                f"{name}: {state['inputs']} range inputs and {state['labels']} labels (want 1 and 1)")
            continue
        if n == 1:
            continue
        # Drive it as a reader would: focus the range input and use the keyboard.
        handle = slider.locator("input.tb-slider-input")
        handle.scroll_into_view_if_needed()
        handle.focus()
        page.keyboard.press("Home")
        first = slider.evaluate(_SLIDER_STATE_JS)
        visited = [first["shown"]]
        for _ in range(n - 1):
            page.keyboard.press("ArrowRight")
            visited.append(slider.evaluate(_SLIDER_STATE_JS)["shown"])
        page.keyboard.press("End")
        last = slider.evaluate(_SLIDER_STATE_JS)
        expected = [[k] for k in range(n)]
        if visited != expected:
            report.slider_problems.append(
                f"{name}: Home then ArrowRight x{n - 1} showed frames {visited}, want {expected}")
        if last["shown"] != [n - 1] or last["unhidden"] != [n - 1]:
            report.slider_problems.append(f"{name}: End shows frames {last['shown']}, want [{n - 1}]")
        if first["label"] == last["label"]:
            report.slider_problems.append(
                f"{name}: label reads {first['label']!r} at both ends of the range")


def _check_solutions(page, report: PageReport) -> None:
    solutions = page.locator(".solution.dropdown, .admonition.dropdown")
    report.solutions = solutions.count()
    for i in range(report.solutions):
        box = solutions.nth(i)
        name = f"dropdown {i + 1} (#{box.get_attribute('id')})"
        body = box.locator(":scope > :not(.admonition-title)")
        buttons = box.locator(":scope > .admonition-title button.toggle-button")
        if buttons.count() != 1:
            report.solution_problems.append(f"{name}: {buttons.count()} toggle buttons, want 1")
            continue
        if body.count() == 0:
            report.solution_problems.append(f"{name}: has no content")
            continue
        if body.first.is_visible():
            report.solution_problems.append(f"{name}: content is visible before it is opened")
            continue
        buttons.first.scroll_into_view_if_needed()
        buttons.first.click()
        try:
            body.first.wait_for(state="visible", timeout=2_000)
        except PlaywrightError:
            report.solution_problems.append(f"{name}: content stays hidden after a click")
            continue
        buttons.first.click()
        try:
            body.first.wait_for(state="hidden", timeout=2_000)
        except PlaywrightError:
            report.solution_problems.append(f"{name}: content does not hide on a second click")


def visit(browser, base_url: str, page_path: str, screenshot: Path | None) -> PageReport:
    """Open one page, wait for MathJax, record everything the tests check."""
    report = PageReport(url=base_url + page_path)
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  service_workers="block")
    keep_requests_local(context, base_url, report.foreign_requests)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and report.console_errors.append(
        f"{m.text} @ {m.location.get('url', '')}:{m.location.get('lineNumber', '')}"))
    page.on("pageerror", lambda e: report.page_errors.append(str(e)))
    failed: dict[str, str] = {}  # url -> first reason (a 404 also fails as "aborted")
    page.on("response", lambda r: r.status >= 400 and failed.setdefault(
        r.url, f"{r.url}: HTTP {r.status}"))
    page.on("requestfailed", lambda r: r.url.startswith(base_url) and failed.setdefault(
        r.url, f"{r.url}: {r.failure}"))
    try:
        page.goto(report.url, wait_until="load")
        has_mathjax = page.evaluate(
            "() => Array.from(document.scripts).some(s => /mathjax/i.test(s.src))")
        if has_mathjax:
            page.wait_for_function(
                "() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                timeout=MATHJAX_TIMEOUT_MS)
            report.mathjax_ready = page.evaluate(_MATHJAX_READY_JS)
        report.math = page.evaluate(_MATH_JS)
        images = page.evaluate(_IMAGES_JS)
        report.images = len(images)
        report.broken_images = [i for i in images if not i["complete"] or i["width"] <= 0]
        svgs = page.evaluate(_SVG_JS)
        report.svgs = len(svgs)
        report.broken_svgs = [s for s in svgs if s["shapes"] == 0 or
                              (s["shown"] and (s["width"] <= 0 or s["height"] <= 0))]
        report.raw_tex = raw_tex_snippets(page.evaluate(_TEXT_NODES_JS))
        if screenshot is not None:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(screenshot), full_page=True)
            report.screenshot = screenshot
        _check_sliders(page, report)
        _check_solutions(page, report)
        page.wait_for_timeout(200)  # let late console messages arrive
    finally:
        context.close()
    report.failed_requests = sorted(failed.values())
    return report


# --- fixtures ----------------------------------------------------------------------

_REPORTS: dict[str, PageReport] = {}


@pytest.fixture
def report(browser, book_url, html_dir, screenshot_dir, content_page) -> PageReport:
    """The visit of ``content_page`` (each page is visited once per session)."""
    if content_page not in _REPORTS:
        shot = screenshot_dir / (content_page.removesuffix(".html") + ".png")
        _REPORTS[content_page] = visit(browser, book_url, content_page, shot)
    return _REPORTS[content_page]


# --- the checks, one property per test, one test per page ---------------------------

def test_requests_stay_on_the_local_server(report):
    assert report.foreign_requests == [], "requests to other hosts (aborted)"
    assert report.failed_requests == [], "local requests that failed"


def test_no_console_errors(report):
    assert report.page_errors == [], "uncaught script errors"
    assert report.console_errors == [], "console errors"


def test_formulas_are_typeset(report):
    if report.math["nodes"]:
        assert report.mathjax_ready, "the page has formulas but MathJax did not start"
        assert report.math["untypeset"] == [], "formulas MathJax left alone"
        assert report.math["containers"] >= report.math["nodes"]
    assert report.math["errors"] == [], "TeX errors"
    assert report.raw_tex == [], "raw TeX in the page text:\n" + "\n".join(
        f"  {tex!r} in {context}" for tex, context in report.raw_tex)


def test_images_and_svgs_load(report):
    assert report.broken_images == [], "images that did not load"
    assert report.broken_svgs == [], "inline SVGs that draw nothing"


def test_sliders_step_through_their_frames(report):
    assert report.slider_problems == []


def test_exercise_solutions_open_and_close(report):
    assert report.solution_problems == []


def test_screenshot_saved(report):
    assert report.screenshot is not None and report.screenshot.stat().st_size > 10_000


# --- the checks above must be able to fail ---------------------------------------------

# a script on another host (assembled, so no source file names an external load)
EXTERNAL_SCRIPT = "https" + "://cdn.example.invalid/lib.js"
BROKEN_PAGE = r"""<!doctype html><html><head><meta charset="utf-8">
<script src="EXTERNAL_SCRIPT"></script>
<link rel="stylesheet" href="missing.css">
</head><body><article>
<p>Left raw: $$H(D) = -\sum_k p_k \log_2 p_k$$ and \(g(D, A)\) and $\alpha$.</p>
<span class="math notranslate nohighlight">\(x\)</span>
<pre>code may say $$ and \( freely</pre>
<p id="prose">Also raw: \frac{1}{2}, $x$ and n_{v0}; fine: $5 and $10, <code>$x$ \frac</code>.</p>
<p>Chapter 4 as built, and $\Delta\operatorname{Gini} = \operatorname{Gini}(D)</p>
<ul class="simple">
<li><p>\operatorname{Gini}(D, A); both are increasing in S.</p></li>
</ul>
<img src="missing.png" alt="missing">
<svg width="40" height="40"></svg>
<div class="tb-slider" data-frame-count="3">
  <input type="range" class="tb-slider-input" min="0" max="2" value="0">
  <span class="tb-slider-value">0</span>
  <div class="tb-slider-frame">a</div><div class="tb-slider-frame">b</div>
</div>
<div class="tb-slider" data-frame-count="2">
  <input type="range" class="tb-slider-input" min="0" max="1" value="0">
  <span class="tb-slider-value">0</span>
  <div class="tb-slider-frame">a</div><div class="tb-slider-frame" hidden>b</div>
</div>
<div class="solution dropdown admonition" id="sol-1">
  <p class="admonition-title">Solution <button type="button" class="toggle-button">v</button></p>
  <section><p>never hidden</p></section>
</div>
</article>
<script>console.error("deliberate error"); undefinedFunction();</script>
</body></html>
"""


def test_the_checks_catch_a_broken_page(browser, tmp_path):
    (tmp_path / "broken.html").write_text(BROKEN_PAGE.replace("EXTERNAL_SCRIPT", EXTERNAL_SCRIPT), encoding="utf-8")
    with serve_directory(tmp_path) as url:
        r = visit(browser, url, "broken.html", tmp_path / "broken.png")
    assert r.foreign_requests == ["https://cdn.example.invalid/lib.js"]
    assert sorted(u.rsplit("/", 1)[-1] for u in r.failed_requests) == [
        "missing.css: HTTP 404", "missing.png: HTTP 404"]
    assert any("deliberate error" in m for m in r.console_errors)
    assert any("undefinedFunction" in e for e in r.page_errors)
    assert not r.mathjax_ready and r.math["untypeset"] == ["\\(x\\)"]
    # the raw formulas of the paragraphs and of the untypeset span; nothing from the <pre>,
    # the <code> or the prices; both halves of a formula broken by a list item
    assert [tex for tex, _ in r.raw_tex] == [
        "$$", "\\sum", "\\log", "$$", "\\(", "\\)", "$\\alpha$",
        "\\(", "\\)",
        "\\frac", "$x$", "_{",
        "\\Delta", "\\operatorname", "\\operatorname",
        "\\operatorname"]
    assert not any("freely" in context for _, context in r.raw_tex)
    assert r.raw_tex[9][1].startswith("p in #prose: ")  # the <article> has no id
    assert r.raw_tex[-1][1].startswith("p: \\operatorname{Gini}(D, A); both are")
    assert [i["src"] for i in r.broken_images] == ["missing.png"]
    assert len(r.broken_svgs) == 1
    assert r.sliders == 2
    assert r.slider_problems == [  # the second slider's input moves nothing
        "slider 1: declares 3 frames, holds 2",
        "slider 2: Home then ArrowRight x1 showed frames [[0], [0]], want [[0], [1]]",
        "slider 2: End shows frames [0], want [1]",
        "slider 2: label reads '0' at both ends of the range",
    ]
    assert r.solutions == 1 and "visible before it is opened" in r.solution_problems[0]
