"""Cells the book hides open collapsed in JupyterLab too (issue 29, "the second way to read").

The built book drops or folds the input of a code cell tagged ``remove-cell``,
``remove-input``, ``hide-input`` or ``hide-cell`` (myst-nb). Opened in JupyterLab, the same
page is a notebook in which those cells would show as ordinary code: a reader of chapter 2
would meet ``assert cut.node_count == grown.node_count`` just above the depth slider. Every
such cell therefore carries ``jupyter: {source_hidden: true}`` in its cell metadata, which
JupyterLab honours by collapsing the input (``make test-lab`` checks that in the browser
for chapter 2).

Checked here, without a browser, for every page of the table of contents:

* every such cell carries the key (and the checker catches a cell that does not);
* the key survives JupyterLab's save: the page goes through jupytext's contents manager
  with the repository's ``jupytext.toml`` (whose ``cell_metadata_filter`` once dropped the
  whole ``jupyter`` namespace) and comes back with the same collapsed cells.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import jupytext
import pytest

import book_toc

ROOT = Path(__file__).resolve().parents[1]

# myst-nb's tags that keep a cell's input off the page, or fold it behind a toggle
HIDDEN_INPUT_TAGS = {"remove-cell", "remove_cell", "remove-input", "remove_input",
                     "hide-input", "hide_input", "hide-cell", "hide_cell"}


def toc_pages() -> list[str]:
    """Every page of ``_toc.yml`` as a path relative to the repository (``book/x.md``)."""
    pages = []
    for name in book_toc.toc_pages(ROOT):
        path = ROOT / f"{name}.md"
        assert path.is_file(), f"_toc.yml names {name}, which has no .md file"
        pages.append(path.relative_to(ROOT).as_posix())
    return pages


PAGES = toc_pages()
PAGES_WITH_CODE = [p for p in PAGES
                   if "{code-cell}" in (ROOT / p).read_text(encoding="utf-8")]


def hidden_input_cells(nb) -> list[tuple[int, bool, str]]:
    """``(cell index, collapsed in JupyterLab?, first source line)`` of every code cell
    whose input the book hides."""
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if not set(cell.metadata.get("tags", [])) & HIDDEN_INPUT_TAGS:
            continue
        collapsed = (cell.metadata.get("jupyter") or {}).get("source_hidden") is True
        first = next((line for line in cell.source.splitlines() if line.strip()), "")
        out.append((i, collapsed, first[:70]))
    return out


def not_collapsed(nb) -> list[str]:
    return [f"cell {i}: {first}" for i, collapsed, first in hidden_input_cells(nb)
            if not collapsed]


_FIXTURE = """---
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# A page

```{code-cell} ipython3
:tags: [remove-cell]
assert 1 + 1 == 2
```

```{code-cell} ipython3
---
jupyter:
  source_hidden: true
tags: [remove-cell]
---
assert 2 + 2 == 4
```

```{code-cell} ipython3
---
tags: [hide-input]
mystnb:
  figure:
    name: fig-x
---
draw()
```

```{code-cell} ipython3
---
jupyter:
  source_hidden: false
tags: [remove-input]
---
table()
```

```{code-cell} ipython3
print("shown, not collapsed: no tag asks for it")
```
"""


def test_checker_flags_hidden_cells_that_open_expanded():
    nb = jupytext.reads(_FIXTURE, fmt="md:myst")
    assert not_collapsed(nb) == ["cell 1: assert 1 + 1 == 2", "cell 3: draw()",
                                 "cell 4: table()"]
    assert [(i, c) for i, c, _ in hidden_input_cells(nb)] == [
        (1, False), (2, True), (3, False), (4, False)]


def test_every_page_of_the_toc_is_checked():
    # the chapters and the appendix page with check cells are among the pages read
    assert {"book/02_id3.md", "book/06_pruning.md", "book/09_optimal.md",
            "book/appendix/accepts.md", "book/intro.md"} <= set(PAGES)
    assert len(PAGES_WITH_CODE) >= 14


@pytest.mark.parametrize("page", PAGES_WITH_CODE)
def test_hidden_inputs_open_collapsed(page):
    nb = jupytext.read(ROOT / page)
    assert not_collapsed(nb) == [], (
        f"{page}: cells the book hides that JupyterLab would show expanded; add "
        f"'jupyter: {{source_hidden: true}}' to their metadata")


@pytest.fixture(scope="module")
def contents_manager(tmp_path_factory):
    """jupytext's contents manager, as JupyterLab uses it, on a copy of the book with the
    repository's jupytext.toml."""
    from jupyter_server.services.contents.largefilemanager import LargeFileManager
    from jupytext.sync_contentsmanager import build_sync_jupytext_contents_manager_class

    root = tmp_path_factory.mktemp("lab_root")
    shutil.copy(ROOT / "jupytext.toml", root / "jupytext.toml")
    for page in PAGES_WITH_CODE:
        (root / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / page, root / page)
    manager = build_sync_jupytext_contents_manager_class(LargeFileManager)(root_dir=str(root))
    return manager, root


@pytest.mark.parametrize("page", PAGES_WITH_CODE)
def test_collapsed_inputs_survive_a_save_in_jupyterlab(page, contents_manager):
    manager, root = contents_manager
    before = hidden_input_cells(jupytext.read(ROOT / page))
    model = manager.get(page)
    assert model["type"] == "notebook", f"{page} does not open as a notebook"
    opened = hidden_input_cells(model["content"])
    assert opened == before, f"{page}: JupyterLab opens other cells collapsed"
    # a reader collapses an output before saving: that state is not written to the page
    code = [c for c in model["content"].cells if c.cell_type == "code"]
    # an untagged cell if the page has one (notation's cells are all tagged)
    plain = next((c for c in code if not c.metadata.get("tags")), code[0])
    plain.metadata.setdefault("jupyter", {})["outputs_hidden"] = True
    manager.save(model, page)
    saved_text = (root / page).read_text(encoding="utf-8")
    saved = jupytext.reads(saved_text, fmt="md:myst")
    assert hidden_input_cells(saved) == before, (
        f"{page}: saving through jupytext dropped or changed source_hidden")
    assert "outputs_hidden" not in saved_text
