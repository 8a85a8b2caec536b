"""Debian's Chromium under Playwright for Python, kept off the network.

Shared by ``tests/browser`` (the built book) and ``tests/lab`` (the live notebook in
JupyterLab): the same executable, the same flags, the same ``browser`` fixture and the
same guard on requests. A plain module, so both folders import it by a name no other
``conftest`` shadows (``tests/lab/conftest.py`` puts this folder on ``sys.path``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("TREEBOOK_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium itself (not the page) tries to reach
# Google's hosts at every start.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session (Debian's, no Playwright download)."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"no Chromium at {CHROMIUM}: install the Debian package `chromium` "
                    "(`make test-browser` does so when run as root)", pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def keep_requests_local(context, base_url: str, foreign: list[str]) -> None:
    """Let ``context`` fetch only from ``base_url`` (and ``data:``/``blob:``).

    Every other request is aborted and its URL appended to ``foreign``, so a test can
    assert that the list stayed empty.
    """

    def route(route):
        url = route.request.url
        if url.startswith(base_url) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            foreign.append(url)
            route.abort()

    context.route("**/*", route)
