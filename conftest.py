"""Root pytest configuration: run the book's MyST Markdown chapters under ``--nbval``.

nbval only collects ``*.ipynb``. The chapters are Jupytext MyST notebooks (``book/*.md``),
so this collector reads them with jupytext and yields nbval's own cell items; nothing is
written to disk. It lives at the root because pytest consults a ``conftest.py`` only for
files below it, and the chapters are not below ``tests/``.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
BOOK = ROOT / "book"
# pytest ignores these for every kind of test: built pages and copied sources live here
collect_ignore_glob = ["_build/*", ".venv/*", ".jupyter_cache/*"]


def _is_myst_notebook(path: Path) -> bool:
    """A Markdown file is a chapter notebook when its YAML header declares a kernel."""
    with path.open(encoding="utf-8") as fh:
        head = fh.read(4096)
    if not head.startswith("---"):
        return False
    header = head.split("---", 2)[1] if head.count("---") >= 2 else ""
    return "kernelspec:" in header


def pytest_collect_file(file_path: Path, parent):
    opt = parent.config.option
    if not (getattr(opt, "nbval", False) or getattr(opt, "nbval_lax", False)):
        return None
    if file_path.suffix != ".md" or BOOK not in file_path.resolve().parents:
        return None
    if not _is_myst_notebook(file_path):
        return None
    return MystNotebookFile.from_parent(parent, path=file_path)


def _nbval_file_class():
    from nbval.plugin import IPyNbFile

    return IPyNbFile


class MystNotebookFile(_nbval_file_class()):
    """nbval's notebook collector, reading a MyST Markdown chapter with jupytext."""

    def collect(self):
        import jupytext
        from nbval.plugin import IPyNbCell, find_comment_markers, find_metadata_tags

        self.nb = jupytext.read(str(self.path), fmt="md:myst")
        code_cells = [c for c in self.nb.cells if c.cell_type == "code"]
        for cell_num, cell in enumerate(code_cells):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                options = defaultdict(bool, find_metadata_tags(cell.metadata))
                options.update(dict(find_comment_markers(cell.source)))
            # jupytext cells carry no stored outputs, so there is nothing to compare
            # against; the chapters' checks are their assert cells.
            options.setdefault("check", False)
            yield IPyNbCell.from_parent(
                self, name=f"Cell {cell_num}", cell_num=cell_num, cell=cell, options=options
            )
