"""The built book as the browser tests see it: where it is, its pages, a local server.

A plain module (not ``conftest.py``) so that test modules can import it by a name no
other ``conftest`` shadows.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HTML_ENV = "TREEBOOK_HTML"
# folders of the build that hold assets and copies of sources, not pages
NOT_PAGES = {"_static", "_sources", "_images", "_downloads", ".doctrees", "jupyter_execute"}
MISSING = "<no built book>"


def built_html_dir() -> Path:
    """The HTML build to check: ``$TREEBOOK_HTML`` or ``<repo>/_build/html``."""
    return Path(os.environ.get(HTML_ENV) or ROOT / "_build" / "html").resolve()


def book_pages(html_dir: Path) -> list[str]:
    """Every HTML page of the build, as paths relative to ``html_dir`` (posix, sorted)."""
    if not (html_dir / "index.html").is_file():
        return []
    pages = []
    for path in html_dir.rglob("*.html"):
        rel = path.relative_to(html_dir)
        if rel.parts[0] in NOT_PAGES:
            continue
        pages.append(rel.as_posix())
    return sorted(pages)


def is_redirect(html_dir: Path, page: str) -> bool:
    """Jupyter Book writes ``index.html`` as a bare ``<meta http-equiv=refresh>`` redirect."""
    head = (html_dir / page).read_text(encoding="utf-8", errors="replace")[:2000].lower()
    return 'http-equiv="refresh"' in head and "<article" not in head


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature fixed by http.server
        pass


@contextlib.contextmanager
def serve_directory(directory: Path):
    """Serve ``directory`` on 127.0.0.1 (a free port) in a thread; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
