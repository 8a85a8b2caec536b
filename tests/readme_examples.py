"""The README's Python examples, and what each must print.

Shared by ``tests/test_readme.py`` (in the book's environment, under ``make test``) and
``tests/install/check_install.py`` (in a fresh venv with only the built wheel, under
``make test-install``), so both run exactly the code a reader copies.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks(readme: Path = README) -> list[str]:
    """The README's ```python blocks, in order."""
    return re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)


def run_block(code: str, readme: Path = README) -> str:
    """Run one block in a namespace of its own (each block stands alone, as a reader
    would paste it) and return what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(readme), "exec"), {"__name__": "__readme__"})
    return out.getvalue()


def check_five_lines(code: str, text: str) -> None:
    assert len(code.strip().splitlines()) == 5, "the first example is the five lines"
    # Mitchell's Figure 3.1: Outlook at the root; Sunny → Humidity; Rain → Wind
    assert text.splitlines()[1].startswith("|--- Outlook = "), text
    assert "|   |--- Humidity = High" in text and "|   |--- Wind = Strong" in text, text


def check_dataframe(code: str, text: str) -> None:
    assert "np.nan" in code and "None" in code, "the example puts missing values in"
    # C4.5's rules show where a case with an unknown value goes (fractional weights)
    assert "IF outlook = overcast" in text and "(if unknown: ×" in text, text
    # CART's drawing: 14 cases at the root, a categorical test as a subset of categories
    assert "root: n = 14 [Don't Play 5, Play 9]" in text and "outlook ∈ {" in text, text


def check_pipeline(code: str, text: str) -> None:
    assert "make_pipeline" in code and "GridSearchCV" in code
    accuracy = float(re.search(r"accuracy (\d\.\d+)", text).group(1))
    # a depth-2 CART reaches about 0.93 on the breast-cancer data (5-fold CV); a broken
    # fit or a constant classifier (0.63) would not
    assert accuracy > 0.9, text
    # set_output(transform="pandas") keeps the column names through SelectKBest
    root_split = text.splitlines()[-2]
    assert re.search(r"\|--- (mean|worst) [a-z ]+ <= ", root_split), text


CHECKS = [check_five_lines, check_dataframe, check_pipeline]


def run_and_check_all(readme: Path = README) -> list[str]:
    """Run every example and check its output; the names of the checks that passed."""
    blocks = python_blocks(readme)
    assert len(blocks) == len(CHECKS), f"README has {len(blocks)} python blocks"
    for code, check in zip(blocks, CHECKS):
        check(code, run_block(code, readme))
    return [c.__name__ for c in CHECKS]
