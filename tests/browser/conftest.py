"""Fixtures for checking the built book: where it is, its pages, a local web server.

These tests need a built book, so ``make test`` does not collect this folder
(``--ignore=tests/browser``); ``make test-browser`` builds the book and runs exactly them.
The book is read from ``$TREEBOOK_HTML`` (default ``_build/html`` at the repository root),
so a private build can be checked with::

    TREEBOOK_HTML=/tmp/me-book/_build/html .venv/bin/python -m pytest tests/browser

A missing build fails the tests with a message that says how to build one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# the helpers in tests/ (one reader of _toc.yml) are importable from here too: this folder
# is collected on its own (``make test-browser``), so pytest does not put tests/ on the path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from book_site import HTML_ENV, MISSING, book_pages, built_html_dir, is_redirect, serve_directory


def pytest_generate_tests(metafunc):
    # one test per page, so a failure names the page; with no build, one failing case
    html_dir = built_html_dir()
    if "book_page" in metafunc.fixturenames:
        pages = book_pages(html_dir) or [MISSING]
        metafunc.parametrize("book_page", pages)
    if "content_page" in metafunc.fixturenames:
        pages = [p for p in book_pages(html_dir) if not is_redirect(html_dir, p)] or [MISSING]
        metafunc.parametrize("content_page", pages)


@pytest.fixture(scope="session")
def html_dir() -> Path:
    path = built_html_dir()
    if not book_pages(path):
        pytest.fail(
            f"no built book at {path}: run `make test-browser` (it builds the book), or "
            f"build one and point {HTML_ENV} at its _build/html folder",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def screenshot_dir(html_dir: Path) -> Path:
    """``_build/screenshots`` next to ``_build/html``."""
    path = html_dir.parent / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def book_url(html_dir: Path):
    with serve_directory(html_dir) as url:
        yield url
