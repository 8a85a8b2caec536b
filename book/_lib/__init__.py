"""Book-side helpers: plotting and harness code the chapters call but do not teach.

The package (``src/treebook``) holds what a chapter teaches; this folder holds what draws
its figures and runs its comparisons, so that plotting libraries stay out of the package's
core dependencies. A chapter runs with its own folder (``book/``) as the working directory —
under ``pytest --nbval``, in ``make book`` and in JupyterLab — so it imports these as
``from _lib import <module>``. One module per chapter or topic (``_lib/ch01.py``, ...).
"""
