"""The rules for every page (issue 29), counted in the built HTML.

Counted on each page of ``_toc.yml``, in the page's ``<article>`` (what a reader sees
without opening a fold; a cell behind a "Show code cell" toggle, ``hide-input`` or
``hide-cell``, is folded, and ``remove-*`` cells are not in the HTML at all):

* **published tables**: ``compare_published`` tables (``table.treebook-published``) shown
  on the page. They are for numbers published elsewhere (a book, a paper, a program's
  printed output), gathered in one table per page; a second computation of the same
  quantity is a check, and checks are hidden cells. Rule: at most
  :data:`MAX_PUBLISHED_TABLES` per page.
* **visible plotting cells**: code cells whose input is shown and that import or call a
  plotting library (matplotlib, seaborn, plotly, ...; ``plt.``, ``ax.set_...``).
  Plotting code is ``hide-input`` or lives in a book-side helper (``book/_lib/``), so
  the reader sees the code that teaches the algorithm. Rule: at most
  :data:`MAX_VISIBLE_PLOTTING_CELLS`.
* **figures**: pictures a reader looks at: every ``<figure>`` (captioned cell outputs,
  ``{figure}``, ``{glue:figure}``), every other image in the article, and every other cell
  output that draws (an inline SVG such as a tree drawing, a frames slider, a live
  widget). Rule, for chapter pages (``book/NN_*.md``): at least :data:`MIN_FIGURES`.

A page that does not meet a rule yet is listed in :data:`RATCHET` with its current
count. The test fails when a page breaks a rule and is not listed, when a listed page
gets worse, and when a listed page's count changes at all: an improvement lowers (or,
when the rule is met, removes) its entry, so the dict always says where the book stands.

``make test-browser`` runs this file (it needs the built book, like the rest of
``tests/browser``); ``make test`` does not.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from book_site import ROOT
from book_toc import toc_pages

MAX_PUBLISHED_TABLES = 1
MAX_VISIBLE_PLOTTING_CELLS = 0
MIN_FIGURES = 4

RULES = {
    # rule: (what is counted, bound, "max" or "min", applies to chapter pages only?)
    "published_tables": ("compare_published tables", MAX_PUBLISHED_TABLES, "max", False),
    "visible_plotting_cells": ("visible plotting cells", MAX_VISIBLE_PLOTTING_CELLS, "max",
                               False),
    "figures": ("figures", MIN_FIGURES, "min", True),
}

# Pages that break a rule, with their count in the last built book. Lower an entry when a
# page improves; remove it when the page meets the rule; never raise one. Since
# 2026-12-03 every page meets every rule, so the ratchet is empty: a page that breaks one
# now fails.
RATCHET: dict[str, dict[str, int]] = {
    "published_tables": {},
    "visible_plotting_cells": {},
    "figures": {},
}


# --- the counts ---------------------------------------------------------------------

PLOTTING_LIBRARIES = ("matplotlib", "seaborn", "plotly", "bokeh", "altair", "plotnine",
                      "pylab", "holoviews", "hvplot", "pygal")
_PLOTTING = re.compile(
    r"^\s*(?:import|from)\s+(?:%s)\b" % "|".join(PLOTTING_LIBRARIES)
    + r"|^\s*%matplotlib\b"
    + r"|\b(?:plt|sns|px|mpl)\.\w"
    + r"|\b(?:ax|axs|axes|fig)\d*(?:\[[^\]\n]*\])*\.(?:set_\w+|plot|scatter|bar|barh|hist"
      r"|imshow|axhline|axvline|text|legend|annotate|fill_between|errorbar|step"
      r"|savefig|tight_layout|suptitle|subplots_adjust|grid)\s*\(",
    re.MULTILINE)
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_DRAWING_SELECTOR = "img, svg, canvas, .tb-slider, .tb-chooser, .tb-tree-drawing"


def _article(html: str) -> Tag:
    soup = BeautifulSoup(html, "html.parser")
    article = soup.find("article") or soup.body or soup
    return article


def _folded(tag: Tag) -> bool:
    """Inside a myst-nb fold (``<details class="hide ...">``): the reader does not see
    it without a click."""
    for parent in tag.parents:
        if parent.name == "details" and "hide" in (parent.get("class") or []):
            return True
    return False


def _in_figure(tag: Tag) -> bool:
    return tag.find_parent("figure") is not None


def published_tables(article: Tag) -> int:
    return sum(1 for t in article.select("table.treebook-published") if not _folded(t))


def plotting_code(code: str) -> bool:
    """Does this cell's source import or call a plotting library?"""
    return bool(_PLOTTING.search(code))


def visible_plotting_cells(article: Tag) -> int:
    n = 0
    for cell_input in article.select("div.cell div.cell_input"):
        if _folded(cell_input):
            continue
        if plotting_code(cell_input.get_text()):
            n += 1
    return n


def _draws(output: Tag) -> bool:
    if output.name in {"img", "svg", "canvas"}:
        return True
    if output.name == "script":
        return output.get("type") == _WIDGET_VIEW
    classes = set(output.get("class") or [])
    if classes & {"tb-slider", "tb-chooser", "tb-tree-drawing"}:
        return True
    if output.select_one(_DRAWING_SELECTOR) is not None:
        return True
    return any(s.get("type") == _WIDGET_VIEW for s in output.find_all("script"))


def figures(article: Tag) -> int:
    """``<figure>`` elements, plus every drawing output or image outside them (none of
    them folded)."""
    n = sum(1 for f in article.find_all("figure") if not _folded(f))
    # each output of a cell (one child of div.cell_output) that draws, once
    for cell_output in article.select("div.cell_output"):
        if _in_figure(cell_output) or _folded(cell_output):
            continue
        for output in cell_output.find_all(True, recursive=False):
            if output.name == "figure" or output.find("figure") is not None:
                continue  # counted as a <figure>
            if _draws(output):
                n += 1
    # images in the prose (not a cell output, not a figure): ![...](...), {image}
    for img in article.find_all("img"):
        if (_in_figure(img) or _folded(img)
                or img.find_parent("div", class_="cell_output") is not None):
            continue
        n += 1
    return n


COUNTERS = {"published_tables": published_tables,
            "visible_plotting_cells": visible_plotting_cells,
            "figures": figures}


def count_page(html: str) -> dict[str, int]:
    article = _article(html)
    return {rule: counter(article) for rule, counter in COUNTERS.items()}


def breaks(rule: str, count: int) -> bool:
    _, bound, kind, _ = RULES[rule]
    return count > bound if kind == "max" else count < bound


def verdict(rule: str, page: str, count: int, ratchet: dict[str, dict[str, int]]) -> str | None:
    """None when ``page``'s ``count`` for ``rule`` is as the rule and the ratchet say;
    otherwise what to do."""
    what, bound, kind, _ = RULES[rule]
    listed = ratchet.get(rule, {}).get(page)
    bound_text = f"{'at most' if kind == 'max' else 'at least'} {bound}"
    if listed is None:
        if breaks(rule, count):
            return f"{page}: {count} {what}, the rule is {bound_text}"
        return None
    if not breaks(rule, count):
        return (f"{page}: {count} {what} meets the rule ({bound_text}): remove its entry "
                f"from RATCHET[{rule!r}]")
    worse = count > listed if kind == "max" else count < listed
    if worse:
        return f"{page}: {count} {what}, worse than the {listed} in RATCHET[{rule!r}]"
    if count != listed:
        return (f"{page}: {count} {what}, better than the {listed} in RATCHET[{rule!r}]: "
                f"lower the entry to {count}")
    return None


# --- the pages ----------------------------------------------------------------------

PAGES = toc_pages(ROOT)
_CHAPTER = re.compile(r"^book/\d\d_")


def is_chapter(page: str) -> bool:
    return bool(_CHAPTER.match(page))


_COUNTS: dict[str, dict[str, int]] = {}


def page_counts(html_dir: Path, page: str) -> dict[str, int]:
    if page not in _COUNTS:
        path = html_dir / f"{page}.html"
        assert path.is_file(), f"{page} (in _toc.yml) has no built page {path}"
        _COUNTS[page] = count_page(path.read_text(encoding="utf-8"))
    return _COUNTS[page]


CASES = [(rule, page) for rule, (_, _, _, chapters_only) in RULES.items()
         for page in PAGES if is_chapter(page) or not chapters_only]


@pytest.mark.parametrize("rule, page", CASES, ids=[f"{r}:{p}" for r, p in CASES])
def test_page_rule(html_dir, rule, page):
    count = page_counts(html_dir, page)[rule]
    problem = verdict(rule, page, count, RATCHET)
    assert problem is None, problem


def test_ratchet_names_pages_the_rules_apply_to():
    for rule, entries in RATCHET.items():
        assert rule in RULES, f"RATCHET has an unknown rule {rule!r}"
        for page, count in entries.items():
            assert (rule, page) in CASES, f"RATCHET[{rule!r}] names {page}, not a page it checks"
            assert breaks(rule, count), f"RATCHET[{rule!r}][{page!r}] = {count} meets the rule"


def test_rules_are_those_of_the_issue():
    assert (MAX_PUBLISHED_TABLES, MAX_VISIBLE_PLOTTING_CELLS, MIN_FIGURES) == (1, 0, 4)
    assert "book/02_id3" in PAGES and is_chapter("book/05_unbiased")
    assert not is_chapter("book/intro") and not is_chapter("book/appendix/oracles")


# --- the counters on a page of known content -----------------------------------------
# The cell structure myst-nb 1.4 writes (a jupyter-book 1.0.4 build of a fixture page,
# shortened): a visible plotting cell with an image output, a hide-input figure cell, a
# remove-input published table, a visible cell with an inline tree drawing, a hide-cell.

_FIXTURE = """<html><body><div class="bd-sidebar"><img src="logo.png"></div>
<article class="bd-article"><section id="page"><h1>Page</h1>
<div class="cell docutils container">
<div class="cell_input docutils container">
<div class="highlight-ipython3 notranslate"><div class="highlight"><pre><span></span><span class="kn">import</span><span class="w"> </span><span class="nn">matplotlib.pyplot</span><span class="w"> </span><span class="k">as</span><span class="w"> </span><span class="nn">plt</span>
<span class="n">plt</span><span class="o">.</span><span class="n">plot</span><span class="p">([</span><span class="mi">1</span><span class="p">,</span> <span class="mi">2</span><span class="p">]);</span>
</pre></div></div>
</div>
<div class="cell_output docutils container">
<img alt="_images/a.png" src="_images/a.png" />
</div>
</div>
<div class="cell tag_hide-input docutils container">
<details class="admonition hide above-input">
<summary aria-label="Toggle hidden content">
<p class="collapsed admonition-title">Show code cell source</p>
<p class="expanded admonition-title">Hide code cell source</p>
</summary>
<div class="cell_input docutils container">
<div class="highlight-ipython3 notranslate"><div class="highlight"><pre><span></span><span class="n">fig</span><span class="p">,</span> <span class="n">ax</span> <span class="o">=</span> <span class="n">plt</span><span class="o">.</span><span class="n">subplots</span><span class="p">();</span>
</pre></div></div>
</div>
</details>
<div class="cell_output docutils container">
<figure class="align-default" id="fig-a">
<img alt="_images/b.png" src="_images/b.png" />
<figcaption><p><span class="caption-number">Fig. 1 </span><span class="caption-text">A caption.</span></p></figcaption>
</figure>
</div>
</div>
<div class="cell tag_remove-input docutils container">
<div class="cell_output docutils container">
<div class="output text_html"><table class="treebook-published"><thead><tr><th>quantity</th></tr></thead><tbody><tr><td>H</td></tr></tbody></table></div></div>
</div>
<div class="cell docutils container">
<div class="cell_input docutils container">
<div class="highlight-ipython3 notranslate"><div class="highlight"><pre><span></span><span class="n">tree</span><span class="o">.</span><span class="n">draw</span><span class="p">()</span>
</pre></div></div>
</div>
<div class="cell_output docutils container">
<div class="output text_html"><div class="tb-tree-drawing"><svg width="10" height="10"><g class="node"></g></svg></div></div>
<div class="output text_plain highlight-myst-ansi notranslate"><div class="highlight"><pre><span></span>12 leaves</pre></div></div>
</div>
</div>
<div class="cell tag_hide-cell docutils container">
<details class="admonition hide above-input">
<summary aria-label="Toggle hidden content"><p class="collapsed admonition-title">Show code cell content</p></summary>
<div class="cell_input docutils container">
<div class="highlight-ipython3 notranslate"><div class="highlight"><pre><span></span>sns.heatmap(t)
</pre></div></div>
</div>
<div class="cell_output docutils container">
<div class="output text_html"><table class="treebook-published"><tr><td>folded</td></tr></table></div>
<img alt="_images/folded.png" src="_images/folded.png" />
</div>
</details>
</div>
<p>A table of numbers, no figure:</p>
<div class="pst-scrollable-table-container"><table class="table"><tr><td>1</td></tr></table></div>
<p>An image in the prose: <img alt="x" src="_images/c.svg"></p>
</section></article></body></html>"""


def test_counters_on_a_page_of_known_content():
    assert count_page(_FIXTURE) == {
        "published_tables": 1,        # the folded one (hide-cell) is not seen
        "visible_plotting_cells": 1,  # the hide-input and hide-cell ones are folded
        "figures": 4,                 # <figure>, plain image, tree drawing, prose image; not
                                      # the folded image
    }
    # the sidebar's logo is not in the article
    assert figures(_article(_FIXTURE.replace('<img alt="x" src="_images/c.svg">', ""))) == 3


@pytest.mark.parametrize("code, plots", [
    ("import matplotlib.pyplot as plt", True),
    ("from matplotlib import pyplot", True),
    ("  import seaborn as sns", True),
    ("%matplotlib inline", True),
    ("fig, ax = plt.subplots(figsize=(6, 3))", True),
    ("axes[0].set_xlabel('depth')", True),
    ("ax.plot(x, y)", True),
    ("ch03.funnel(root);", False),                 # a book-side helper draws it
    ("from treebook.io.render import draw_tree", False),
    ("tree.draw()", False),
    ("max_depth = 3  # the plot below", False),
    ("relax.set_params(max_depth=2)", False),
])
def test_plotting_code_is_recognised(code, plots):
    assert plotting_code(code) is plots


def test_verdicts_of_the_ratchet():
    ratchet = {"figures": {"book/01_x": 2}, "published_tables": {"book/02_y": 3}}
    assert verdict("figures", "book/01_x", 2, ratchet) is None
    assert "worse" in verdict("figures", "book/01_x", 1, ratchet)
    assert "lower the entry to 3" in verdict("figures", "book/01_x", 3, ratchet)
    assert "remove its entry" in verdict("figures", "book/01_x", 4, ratchet)
    assert verdict("figures", "book/03_z", 5, ratchet) is None
    assert "at least 4" in verdict("figures", "book/03_z", 3, ratchet)
    assert verdict("published_tables", "book/02_y", 3, ratchet) is None
    assert "worse" in verdict("published_tables", "book/02_y", 4, ratchet)
    assert "lower the entry to 2" in verdict("published_tables", "book/02_y", 2, ratchet)
    assert "remove its entry" in verdict("published_tables", "book/02_y", 1, ratchet)
    assert "at most 0" in verdict("visible_plotting_cells", "book/02_y", 1, ratchet)
