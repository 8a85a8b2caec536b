"""Static checks of the built book: nothing on any page comes from another host.

Parses every built page and every stylesheet under ``_static`` (no browser). A page may
*link* anywhere (``<a href>``, a DOI), but a script, stylesheet, font, image or frame it
*loads* must come from the build itself, and no inline script may carry a URL of another
host (sphinx-thebe's ``const THEBE_JS_URL = "https://unpkg.com/…"`` was one).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup

# <link rel=...> values whose href the browser fetches
_FETCHED_LINK_RELS = {"stylesheet", "preload", "modulepreload", "prefetch", "icon",
                      "shortcut", "apple-touch-icon", "manifest"}
_CSS_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_CSS_IMPORT = re.compile(r"@import\s+(?:url\(\s*)?['\"]?([^'\")\s;]+)", re.IGNORECASE)
_URL_IN_SCRIPT = re.compile(r"""(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s'"`)]*""")
# XML namespace names are identifiers, never fetched
_NAMESPACE_URL = re.compile(r"^https?://www\.w3\.org/")


def is_external(url: str | None) -> bool:
    """True when fetching ``url`` would contact another host."""
    if not url:
        return False
    url = url.strip()
    if url.startswith("data:") or url.startswith("#"):
        return False
    parts = urlsplit(url)
    return bool(parts.netloc) or parts.scheme in {"http", "https", "ftp"}


def external_loads_in_html(html: str) -> list[str]:
    """Every resource a page would fetch from another host, as ``"<tag attr>: url"``."""
    soup = BeautifulSoup(html, "html.parser")
    found = []
    for tag in soup.find_all("script"):
        if is_external(tag.get("src")):
            found.append(f"<script src>: {tag['src']}")
        elif not tag.get("src") and tag.get("type") not in {"text/x-thebe-config"}:
            for url in _URL_IN_SCRIPT.findall(tag.get_text()):
                if not _NAMESPACE_URL.match(url):
                    found.append(f"inline <script>: {url}")
        if tag.get("type") == "text/x-thebe-config":
            found.append("<script type=text/x-thebe-config> (sphinx-thebe)")
    for tag in soup.find_all("link"):
        rels = {r.lower() for r in (tag.get("rel") or [])}
        if rels & _FETCHED_LINK_RELS and is_external(tag.get("href")):
            found.append(f"<link rel={' '.join(sorted(rels))}>: {tag['href']}")
    for name, attr in (("img", "src"), ("iframe", "src"), ("embed", "src"),
                       ("object", "data"), ("source", "src"), ("video", "src"),
                       ("audio", "src"), ("image", "href"), ("use", "href")):
        for tag in soup.find_all(name):
            if is_external(tag.get(attr)) or is_external(tag.get("xlink:href")):
                found.append(f"<{name} {attr}>: {tag.get(attr) or tag.get('xlink:href')}")
    for tag in soup.find_all("style"):
        found += [f"<style>: {u}" for u in external_urls_in_css(tag.get_text())]
    for tag in soup.find_all(style=True):
        found += [f"style attribute: {u}" for u in external_urls_in_css(tag["style"])]
    return found


def external_urls_in_css(css: str) -> list[str]:
    """``url(...)`` and ``@import`` targets (fonts, images, stylesheets) on another host."""
    urls = [m.group(2) for m in _CSS_URL.finditer(css)]
    urls += _CSS_IMPORT.findall(css)  # also catches `@import "x.css"` without url()
    return [u for u in dict.fromkeys(urls) if is_external(u)]


# --- the checker itself must catch what it is for -------------------------------------

# the fixture spells its schemes as @S@/@P@, so no source file of the project names an
# external load that a search for one would flag
def test_checker_flags_every_kind_of_external_load():
    bad = """<html><head>
      <script src="@S@unpkg.com/thebe@0.8.2/lib/index.js"></script>
      <script>const THEBE_JS_URL = "@S@unpkg.com/thebe@0.8.2/lib/index.js"</script>
      <script type="text/x-thebe-config">{ requestKernel: true }</script>
      <link rel="stylesheet" href="//fonts.googleapis.com/css?family=Lato">
      <link rel="preload" as="font" href="@S@example.org/f.woff2">
      <style>@import url("@S@example.org/a.css"); @font-face { src: url(@S@example.org/b.woff) }</style>
      </head><body><img src="@P@example.org/x.png"><div style="background:url('@S@example.org/c.png')"></div></body></html>""".replace("@S@", "https" + "://").replace("@P@", "http" + "://")
    assert external_loads_in_html(bad) == [
        "<script src>: https://unpkg.com/thebe@0.8.2/lib/index.js",
        "inline <script>: https://unpkg.com/thebe@0.8.2/lib/index.js",
        "<script type=text/x-thebe-config> (sphinx-thebe)",
        "<link rel=stylesheet>: //fonts.googleapis.com/css?family=Lato",
        "<link rel=preload>: https://example.org/f.woff2",
        "<img src>: http://example.org/x.png",
        "<style>: https://example.org/a.css",
        "<style>: https://example.org/b.woff",
        "style attribute: https://example.org/c.png",
    ]


def test_checker_accepts_local_loads_and_plain_links():
    good = """<html><head>
      <script src="../_static/mathjax/tex-chtml.js?v=1"></script>
      <script>window.MathJax = {"options": {}}</script>
      <link rel="stylesheet" href="../_static/styles/theme.css">
      <link rel="canonical" href="@S@example.org/book/">
      <style>.x { background: url("data:image/svg+xml;charset=utf-8,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E") }</style>
      </head><body><a href="@S@doi.org/10.1007/BF00116251">doi</a>
      <svg xmlns="http://www.w3.org/2000/svg"><rect/></svg><img src="../_images/t.svg"></body></html>""".replace("@S@", "https" + "://")
    assert external_loads_in_html(good) == []
    assert external_urls_in_css("@import '../basic.css'; a{background:url(img/x.png)}") == []


# --- the built book --------------------------------------------------------------------

def test_page_loads_nothing_from_another_host(html_dir: Path, book_page: str):
    html = (html_dir / book_page).read_text(encoding="utf-8")
    assert external_loads_in_html(html) == [], f"{book_page} fetches from another host"


def test_stylesheets_load_no_external_fonts_or_imports(html_dir: Path):
    sheets = sorted((html_dir / "_static").rglob("*.css"))
    assert sheets, "the build has no stylesheets under _static"
    offenders = {
        str(p.relative_to(html_dir)): urls
        for p in sheets
        if (urls := external_urls_in_css(p.read_text(encoding="utf-8", errors="replace")))
    }
    assert offenders == {}


def test_no_sphinx_thebe_assets(html_dir: Path):
    # book/_ext/treebook_offline.py disconnects sphinx-thebe; its assets must not come back
    leftovers = sorted(p.name for p in (html_dir / "_static").glob("sphinx-thebe*"))
    assert leftovers == []


def test_mathjax_is_served_from_the_build(html_dir: Path, content_page: str):
    """A page with formulas loads MathJax from _static, and MathJax's fonts are there."""
    html = (html_dir / content_page).read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    if not soup.select(".math"):
        return  # a page without formulas needs no MathJax: nothing to check on it
    srcs = [s["src"] for s in soup.find_all("script", src=True) if "mathjax" in s["src"].lower()]
    assert len(srcs) == 1, f"{content_page}: MathJax scripts {srcs}"
    local = (html_dir / content_page).parent / urlsplit(srcs[0]).path
    assert local.resolve().is_file(), f"{content_page}: {srcs[0]} is not in the build"
    fonts = list((html_dir / "_static" / "mathjax").rglob("*.woff*"))
    assert fonts, "MathJax's web fonts are missing from _static/mathjax"


def test_index_redirects_to_a_page_of_the_build(html_dir: Path):
    html = (html_dir / "index.html").read_text(encoding="utf-8")
    target = re.search(r'url=([^"\s>]+)', html)
    assert target, "index.html names no redirect target"
    assert (html_dir / target.group(1)).is_file(), target.group(1)
