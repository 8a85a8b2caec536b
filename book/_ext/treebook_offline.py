"""Sphinx extension: keep the built book offline and free of console errors.

Jupyter Book 1 always loads ``sphinx_thebe`` (it is in its fixed extension list and no
``_config.yml`` switch removes it). Even with ``launch_buttons: thebe: false`` that
extension adds to every page

* an inline script declaring ``const THEBE_JS_URL = "https://unpkg.com/thebe@…"``,
  added once per ``env-before-read-docs`` event, so the page declares it twice and the
  browser logs ``Identifier 'THEBE_JS_URL' has already been declared``;
* ``sphinx-thebe.js`` and ``sphinx-thebe.css``;
* a ``<script type="text/x-thebe-config">`` block naming a Binder repository on GitHub.

The book has no kernel to launch, so this extension disconnects every event handler
``sphinx_thebe`` registered and drops its stylesheet, before the builder starts. It must
be loaded after ``sphinx_thebe`` (``sphinx: local_extensions`` entries are appended after
Jupyter Book's own extensions, so it is).

As a guard, every HTML page is checked as it is written: a script or stylesheet from
another host is reported as a warning, which ``jupyter-book build -W`` turns into an
error, so the offline promise cannot break silently.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

_THEBE_MODULE = "sphinx_thebe"
_THEBE_CSS = "sphinx-thebe.css"


def _is_thebe_handler(handler) -> bool:
    module = getattr(handler, "__module__", "") or ""
    return module == _THEBE_MODULE or module.startswith(_THEBE_MODULE + ".")


def _drop_sphinx_thebe(app: Sphinx) -> int:
    """Disconnect sphinx_thebe's event handlers and unregister its stylesheet."""
    dropped = 0
    for listeners in app.events.listeners.values():
        for listener in list(listeners):
            if _is_thebe_handler(listener.handler):
                app.disconnect(listener.id)
                dropped += 1
    app.registry.css_files = [
        (name, attrs) for name, attrs in app.registry.css_files if name != _THEBE_CSS
    ]
    return dropped


def _is_external(url: str | None) -> bool:
    """True for a URL that names another host (``http:``, ``https:`` or ``//host``)."""
    if not url:
        return False
    parts = urlsplit(url)
    return bool(parts.netloc) or parts.scheme in {"http", "https"}


def _check_page_assets(app: Sphinx, pagename: str, templatename: str, context, doctree):
    """Warn about any script or stylesheet on this page that another host would serve."""
    assets = [("script", a) for a in context.get("script_files", [])]
    assets += [("stylesheet", a) for a in context.get("css_files", [])]
    for kind, asset in assets:
        # Sphinx 7 passes _JavaScript/_CascadingStyleSheet objects (``filename``);
        # older themes may pass plain strings.
        url = getattr(asset, "filename", asset)
        body = getattr(asset, "attributes", {}).get("body", "") if kind == "script" else ""
        if _is_external(url if isinstance(url, str) else None):
            logger.warning(
                "page %s loads an external %s %s; the book must work offline",
                pagename, kind, url, type="treebook", subtype="offline",
            )
        if "THEBE_JS_URL" in (body or ""):
            logger.warning(
                "page %s still carries sphinx-thebe's configuration script", pagename,
                type="treebook", subtype="offline",
            )


def setup(app: Sphinx):
    if _THEBE_MODULE in app.extensions:
        _drop_sphinx_thebe(app)
    app.connect("html-page-context", _check_page_assets, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
