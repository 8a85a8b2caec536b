"""The pages of the book as ``_toc.yml`` lists them: one reader of the table of contents
for the tests that check pages by their sources (``tests/test_page_cells.py``) and by
their built HTML (``tests/browser/test_page_rules.py``)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def toc_pages(root: Path = ROOT) -> list[str]:
    """Every page of ``root/_toc.yml`` in order, as written there (``book/x``, no suffix),
    each once."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    found: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            found.extend(node[k] for k in ("root", "file") if k in node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return list(dict.fromkeys(found))
